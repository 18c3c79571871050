"""The claims of the chapter on attention at scale, on the committed data (generated/data/sc_*.json) and by
computing the small cases again here.

The chapter says: a causal mask leaves n(n + 1)/2 pairs; decoding with a key/value cache gives the same
logits as recomputing everything (within a stated float64 bound); the cache costs 2 × layers × key/value
heads × head size × bytes per number per token (checked by hand for published models, and against the
PagedAttention paper's OPT-13B figure); grouped-query attention with as many groups as heads is multi-head
attention and with one group is multi-query attention; online softmax and tiled attention equal the exact
ones (within a stated bound), and the tiled loops move Θ(N²d²/M) numbers against standard attention's
Θ(Nd + N²); a sliding window of W over L layers reaches L × (W − 1) tokens back."""
from __future__ import annotations

import importlib
import math

import numpy as np
import pytest
import torch

from conftest import ROOT
from scripts.common import jsonio
from scripts.common.published_models import kv_bytes_per_token, preset

MODULES = ("sc_decoding", "sc_cache_size", "sc_gqa", "sc_online_softmax", "sc_window")


def data(name):
    return jsonio.read(ROOT / "generated" / "data" / f"{name}.json")


@pytest.fixture(scope="module")
def dec():
    return data("sc_decoding")


@pytest.fixture(scope="module")
def cache():
    return data("sc_cache_size")


@pytest.fixture(scope="module")
def gqa():
    return data("sc_gqa")


@pytest.fixture(scope="module")
def osm():
    return data("sc_online_softmax")


@pytest.fixture(scope="module")
def win():
    return data("sc_window")


# --- causal decoding and the cache ---------------------------------------------------------------

def test_causal_mask_allows_n_n_plus_1_over_2_pairs(dec):
    for row in dec["mask"]:
        n = row["n"]
        mask = np.tril(np.ones((n, n), dtype=bool)) if n <= 64 else None
        assert row["allowed"] == n * (n + 1) // 2 and row["pairs"] == n * n
        if mask is not None:
            assert int(mask.sum()) == row["allowed"]
    assert dec["mask"][-1]["share"] < 0.51, "for long texts about half the pairs are masked"


def test_cached_decoding_equals_recomputing_in_the_data(dec):
    assert dec["cache_bound"] == 1e-12
    assert dec["cache_equals_recompute"] is True and dec["same_tokens"] is True
    assert dec["prompts_compared"] >= 6 and dec["steps_compared"] >= 30


def test_cached_decoding_equals_recomputing_here():
    """A seeded decoder of the experiment's kind (untrained: the equality holds for any weights), 40 tokens:
    every step's logits with the cache equal the recomputed ones within the bound, in float64."""
    mod = importlib.import_module("scripts.experiments.sc_decoding")
    from scripts.common.training import deterministic
    with deterministic(5), torch.no_grad():
        model = mod.Decoder(20, 3, 4, 32, 64, max_len=64).eval()
        ids = torch.randint(3, 20, (1, 40), generator=torch.Generator().manual_seed(5))
        full, _, _ = model(ids)
        caches, worst = [[] for _ in model.blocks], 0.0
        for t in range(40):
            step, caches, _ = model(ids[:, t:t + 1], caches)
            worst = max(worst, float((step[0, -1] - full[0, t]).abs().max()))
        assert caches[0][0].shape[2] == 40, "the cache holds every token fed"
    assert worst < mod.CACHE_BOUND, worst


def test_the_example_fills_one_masked_row_per_step(dec):
    ex = dec["example"]
    assert ex["text"].split()[:len(ex["prompt"])] == ex["prompt"] and ex["generated"]
    for s in ex["steps"]:
        assert s["cache_tokens"] == s["position"] + 1
        assert s["cache_numbers"] == s["cache_tokens"] * dec["kv_numbers_per_token"]
        for layer in s["attention"]:
            for row in layer:
                assert len(row) == s["cache_tokens"] and abs(sum(row) - 1) < 0.01
        assert s["top"][0]["word"] == s["next"], "greedy: the likeliest word is chosen"
    assert dec["kv_numbers_per_token"] == 2 * dec["model"]["layers"] * dec["model"]["d"]


def test_the_whole_matrix_holds_the_rows_the_steps_filled(dec):
    ex = dec["example"]
    n = len(ex["tokens"])
    assert ex["tokens"][0] == "<bos>" and " ".join(ex["tokens"][1:]) == ex["text"]
    for layer, m in enumerate(ex["matrix"]):
        for head, w in enumerate(m):
            assert len(w) == n and all(len(row) == n for row in w)
            assert all(w[i][j] == 0 for i in range(n) for j in range(i + 1, n)), "nothing above the diagonal"
            for s in ex["steps"]:
                i = s["position"]
                assert np.allclose(w[i][:i + 1], s["attention"][layer][head], atol=1.5e-3)


def test_every_generation_is_a_sentence_of_the_corpus_grammar(dec):
    """The trained decoder writes sentences the toy grammar allows (its words, «the» before each noun)."""
    for g in dec["generations"]:
        words = g["text"].split()
        assert words[:2] == g["prompt"].split() and 5 <= len(words) <= 12, g


def test_work_per_token_grows_with_the_text_only_without_the_cache(dec):
    rows = dec["work"]
    assert all(b["ratio"] > a["ratio"] for a, b in zip(rows, rows[1:]))
    s = dec["timed_setup"]
    for r in rows:
        n1 = r["n"] + 1
        assert r["cached"] == s["layers"] * (4 * s["d"] ** 2 + 2 * s["d"] * s["ffn"] + 2 * n1 * s["d"])


def test_timings_name_their_machine_and_stay_out_of_the_data():
    t = jsonio.read(ROOT / "generated/timings/sc_decoding.json")
    assert {"platform", "processor", "cpus", "measured"} <= set(t["machine"])
    rows = t["result"]["by_length"]
    assert [r["n"] for r in rows] == list(importlib.import_module("scripts.experiments.sc_decoding").TIMED_LENGTHS)
    assert rows[-1]["ratio"] > 1 and rows[-1]["cpu_ratio"] > 1, "recomputing a long text is slower than one cached step"
    assert t["result"]["max_logit_diff"] < t["result"]["cache_bound"]
    assert "max_logit_diff" not in (ROOT / "generated/data/sc_decoding.json").read_text(encoding="utf-8")


# --- how big the cache gets ----------------------------------------------------------------------

def test_cache_formula_against_hand_computed_values(cache):
    rows = {p["id"]: p for p in cache["presets"]}
    # OPT-13B, float16: 2 × 40 layers × 40 heads × 128 × 2 bytes; the PagedAttention paper's "800 KB".
    assert rows["opt_13b"]["bytes_per_token"] == 2 * 40 * 40 * 128 * 2 == 819_200
    assert cache["checks"]["opt_13b_kib_per_token"] == 800
    assert cache["checks"]["opt_13b_request_kib"] == 1_638_400       # the paper's "1.6 GB" for 2 048 tokens
    # Mistral 7B, bfloat16: 8 key/value heads for 32 query heads.
    assert rows["mistral_7b"]["bytes_per_token"] == 2 * 32 * 8 * 128 * 2 == 131_072
    assert rows["mistral_7b"]["group_factor"] == 4
    # GPT-2 small in its own float32 and Llama 2 7B in float16.
    assert rows["gpt2_small"]["bytes_per_token"] == 2 * 12 * 12 * 64 * 4 == 73_728
    assert rows["llama2_7b"]["bytes_per_token"] == 2 * 32 * 32 * 128 * 2 == 524_288
    assert rows["llama2_7b"]["full_context_gib"] == 2.0               # 4 096 tokens × 512 KiB


def test_cache_grid_and_formats_follow_the_formula(cache):
    rows = {p["id"]: p for p in cache["presets"]}
    for g in cache["grid"]:
        p = rows[g["id"]]
        assert g["cache_bytes"] == p["bytes_per_token"] * g["context"] * g["batch"] and g["context"] <= p["context"]
        assert math.isclose(g["over_weights"], g["cache_bytes"] / p["weights_bytes"], rel_tol=1e-5)
    for f in cache["by_format"]:
        p = preset(f["id"])
        assert f["bytes_per_token"] == kv_bytes_per_token(p["layers"], p["kv_heads"], p["head_size"], f["bytes"])
    assert any(g["over_weights"] > 1 for g in cache["grid"]), "a long enough batch outweighs the model"


def test_every_preset_names_its_sources(cache):
    for p in cache["presets"]:
        assert p["sources"] and all(s["citation"] and "http" in s["citation"] for s in p["sources"]), p["id"]
        assert p["head_size"] * p["heads"] == p["d_model"], p["id"]
    for ref in ("touvron2023", "jiang2023", "zhang2022", "kwon2023", "radford2019"):
        assert ref in cache["references"]


# --- sharing key/value heads ---------------------------------------------------------------------

def test_gqa_special_cases_in_the_data(gqa):
    c = gqa["check"]
    assert gqa["noise_bound"] == 1e-12
    assert c["gqa_all_equals_mha"] is True and c["gqa_one_equals_mqa"] is True and c["groups_checked"] is True


def test_gqa_with_as_many_groups_as_heads_is_mha_and_with_one_is_mqa_here():
    mod = importlib.import_module("scripts.experiments.sc_gqa")
    rng = np.random.default_rng(3)
    h, n, hs = 6, 9, 5
    q, k, v = (rng.normal(0, 1, (h, n, hs)) for _ in range(3))
    mha = mod.per_head(q, k, v)
    assert np.abs(mod.grouped(q, k, v) - mha).max() < mod.NOISE_BOUND * np.abs(mha).max()
    mqa = mod.per_head(q, [k[0]] * h, [v[0]] * h)
    assert np.abs(mod.grouped(q, k[:1], v[:1]) - mqa).max() < mod.NOISE_BOUND * np.abs(mqa).max()
    assert np.abs(mod.grouped(q, k[:3], v[:3]) - mha).max() > 1e-3, "fewer groups is a different computation"


def test_the_grouped_layer_is_multi_head_attention_when_groups_equal_heads():
    """The torch layer the translator trains with, against torch's own attention with the same weights."""
    mod = importlib.import_module("scripts.experiments.sc_gqa")
    from scripts.common.training import deterministic
    with deterministic(4), torch.no_grad():
        layer = mod.GroupedSelfAttention(16, 4, 4)
        x = torch.randn(2, 7, 16)
        mask = torch.triu(torch.ones(7, 7, dtype=torch.bool), 1)
        out, _ = layer(x, x, x, attn_mask=mask)
        q = layer.q(x).view(2, 7, 4, 4).transpose(1, 2)
        k, v = layer.kv(x).view(2, 7, 2, 4, 4).permute(2, 0, 3, 1, 4)
        ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        ref = layer.o(ref.transpose(1, 2).reshape(2, 7, 16))
    assert float((out - ref).abs().max()) < 1e-12


def test_the_cache_is_divided_by_the_group_factor(gqa):
    base = next(r for r in gqa["cache_by_groups"] if r["group_factor"] == 1)["numbers_per_token_layer"]
    for r in gqa["cache_by_groups"]:
        assert r["numbers_per_token_layer"] * r["group_factor"] == base
    task = gqa["task"]
    for r in gqa["by_groups"]:
        assert r["cache_numbers_per_token"] == 2 * r["groups"] * task["head_size"]
        assert r["group_factor"] == task["heads"] // r["groups"]


def test_the_trade_off_is_reported_over_seeds_as_measured(gqa):
    import statistics
    assert [r["groups"] for r in gqa["by_groups"]] == [1, 2, gqa["task"]["heads"]]
    assert [r["kind"] for r in gqa["by_groups"]] == ["mqa", "gqa", "mha"]
    assert gqa["task"]["n_seeds"] >= 3
    for r in gqa["by_groups"]:
        assert [s["seed"] for s in r["per_seed"]] == gqa["task"]["seeds"]
        for key in ("translation_accuracy", "test_loss"):
            values = [s[key] for s in r["per_seed"]]
            o = r["over_seeds"][key]
            assert math.isclose(o["mean"], statistics.fmean(values), rel_tol=1e-5)
            assert o["min"] == min(values) and o["max"] == max(values)
    ranges = [(r["over_seeds"]["test_loss"]["min"], r["over_seeds"]["test_loss"]["max"]) for r in gqa["by_groups"]]
    assert gqa["loss_spread_overlaps"] == (max(lo for lo, _ in ranges) <= min(hi for _, hi in ranges))
    params = [r["params"] for r in gqa["by_groups"]]
    assert params == sorted(params), "fewer key/value heads, fewer parameters"


# --- online softmax and tiling -------------------------------------------------------------------

def test_online_softmax_equals_the_exact_one_in_the_data(osm):
    assert osm["noise_bound"] == 1e-12
    assert osm["softmax_check"]["below_bound"] is True and osm["attention_check"]["below_bound"] is True
    assert osm["overflow"]["naive_finite"] is False and osm["overflow"]["online_below_bound"] is True
    assert osm["counted_equals_loops"] is True


def test_online_softmax_equals_the_exact_one_here():
    mod = importlib.import_module("scripts.experiments.sc_online_softmax")
    rng = np.random.default_rng(11)
    for n in (2, 5, 50, 333):
        x = rng.normal(0, 4, n)
        for block in (1, 2, 7, 64, 1000):
            assert mod.rel_diff(mod.online_softmax(x, block)[0], mod.exact_softmax(x)) < mod.NOISE_BOUND


def test_tiled_attention_equals_exact_attention_here():
    mod = importlib.import_module("scripts.experiments.sc_online_softmax")
    rng = np.random.default_rng(12)
    q, k, v = (rng.normal(0, 1, (37, 4)) for _ in range(3))
    ref = mod.exact_attention(q, k, v)
    for sram in (16, 48, 200):
        t = mod.Traffic()
        assert np.abs(mod.tiled_attention(q, k, v, sram, t) - ref).max() < mod.NOISE_BOUND * np.abs(ref).max()
        assert t.total == mod.tiled_traffic(37, 4, sram)


def test_the_trace_shows_the_running_max_and_sum(osm):
    tr = osm["trace"]
    steps = tr["steps"]
    assert len(steps) == math.ceil(len(tr["scores"]) / tr["block"])
    grew = sum(s["max_before"] is not None and s["max_after"] > s["max_before"] for s in steps)
    assert grew >= 2, "the maximum grows twice, so the sum is rescaled"
    for s in steps:
        seen = np.array(tr["scores"][:s["stop"]])
        assert s["max_after"] == max(seen)
        assert math.isclose(s["sum_after"], float(np.exp(seen - s["max_after"]).sum()), rel_tol=1e-5)
        assert math.isclose(sum(s["weights_so_far"]), 1, rel_tol=1e-5)
    assert np.allclose(tr["online"], tr["exact"], rtol=1e-5) and tr["below_bound"] is True
    assert np.allclose(steps[-1]["weights_so_far"], tr["exact"], rtol=1e-5)


def test_traffic_follows_the_papers_orders(osm):
    t = osm["traffic"]
    n, d = t["n"], t["d"]
    assert t["standard"] == 4 * n * n + 4 * n * d, "Algorithm 0: S and P written and read, Q, K, V read, O written"
    rows = t["rows"]
    many = [r for r in rows if r["tc"] >= 16]
    ratios = [r["tiled_over_theta"] for r in many]
    assert len(many) >= 4 and max(ratios) / min(ratios) < 1.1, "Θ(N²d²/M) while there are many key blocks"
    assert all(b["tiled"] < a["tiled"] for a, b in zip(rows, rows[1:])), "more SRAM, less traffic"
    assert rows[0]["tiled"] > t["standard"] > rows[-1]["tiled"], "small blocks cost more, large ones less"
    assert osm["crossover_sram"] == next(r["sram"] for r in rows if r["tiled"] < t["standard"])


# --- sliding windows -----------------------------------------------------------------------------

def test_window_reach_is_layers_times_window_minus_one(win):
    assert win["reach_matches_formula"] is True
    mod = importlib.import_module("scripts.experiments.sc_window")
    for w, layers in ((2, 3), (5, 2), (3, 4)):
        reach = mod.influence(30, w, layers)[-1][-1]
        assert int(reach.sum()) - 1 == layers * (w - 1)
        assert reach[-1 - layers * (w - 1)] and not reach[-2 - layers * (w - 1)], "a contiguous stretch back"
    m = win["model"]
    assert m["reach"] == 32 * 4095 and m["window_times_layers"] == 131_072, "the paper's «about 131K tokens»"


def test_window_cache_stops_growing_at_the_window(win):
    per_token = win["model"]["bytes_per_token"]
    for c in win["cache_by_context"]:
        assert c["full_bytes"] == per_token * c["context"]
        assert c["window_bytes"] == per_token * min(c["context"], win["model"]["window"])
    assert win["saving_at_32k"] == 8, "the paper's 8× at 32k tokens"


# --- the contract --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", MODULES)
def test_documented_keys_and_no_typed_language(name):
    mod = importlib.import_module(f"scripts.experiments.{name}")
    for key in data(name):
        assert key in mod.__doc__, f"{name}: document key {key!r} in the module docstring"


@pytest.mark.slow  # a training: make test only
def test_recomputing_the_decoder_gives_the_same_bytes():
    mod = importlib.import_module("scripts.experiments.sc_decoding")
    assert jsonio.dumps(mod.compute()) == jsonio.dumps(data("sc_decoding"))


@pytest.mark.slow  # a training: make test only
def test_retraining_one_grouped_translator_gives_the_same_numbers_and_batched_greedy_is_greedy():
    """One (groups, seed) trained again: the committed numbers; and its batched greedy decoding (held_out)
    translates exactly the sentences ca_trained.translate gets right one at a time."""
    mod = importlib.import_module("scripts.experiments.sc_gqa")
    ca = importlib.import_module("scripts.experiments.ca_trained")
    from scripts.common.training import deterministic
    committed = data("sc_gqa")
    groups, seed = mod.GROUPS[1], mod.SEEDS[1]
    again = mod.train((groups, seed))[0]
    row = next(r for r in committed["by_groups"] if r["groups"] == groups)
    pictured = next(s for s in row["per_seed"] if s["seed"] == seed)
    assert jsonio.dumps({k: again[k] for k in pictured}) == jsonio.dumps(pictured)
    with deterministic(seed):
        model, rows, sv, tv = mod.fit(groups, seed)
        one_by_one = sum(ca.translate(model, r[1], sv, tv) == r[2] for r in rows) / len(rows)
        assert mod.held_out(model, rows, sv, tv)[0] == one_by_one == again["translation_accuracy"]
