"""The claims of the «Self-attention» lesson, asserted on the data its experiments compute."""
import functools
import importlib
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from conftest import data as committed  # generated/data/<name>.json, as the pages read it
from scripts.common import jsonio
from scripts.common.attention import LN49, entropy_rows, softmax_rows
from scripts.common.shapes import (KINDS, N_PATCHES, corner_images, make_shape, patches,
                                   shape_tokens, unpatch)

MODULES = ("sa_receptive_field", "sa_toy", "sa_patch_attention", "sa_scaling", "sa_heads",
           "sa_equivariance", "sa_vit", "sa_cost", "sa_untrained")


def module(name):
    return importlib.import_module(f"scripts.experiments.{name}")


@functools.lru_cache(maxsize=None)
def data(name):
    """What the experiment computes now, unrounded; for a trained model (five seeds, minutes) the committed
    data the pages show, whose code is checked elsewhere: tests/test_generated.py (the manifest's code
    hashes), tests/test_trained_claims.py (a seed trained again), `make reproduce` (every seed again)."""
    mod = module(name)
    return committed(name) if hasattr(mod, "train") else mod.compute()


# --- the experiment contract -------------------------------------------------------------------

@pytest.mark.parametrize("name", MODULES)
def test_plain_json_and_documented(name):
    r = data(name)
    json.dumps(r, allow_nan=False)
    jsonio.dumps(r)                       # raises on numpy scalars and non-finite floats
    doc = module(name).__doc__
    assert doc and doc.strip().splitlines()[0].strip()
    for key in r:
        assert re.search(rf"\b{re.escape(key)}\b", doc), f"{name}: key {key!r} is not in the docstring"


@pytest.mark.parametrize("name", ("sa_patch_attention", "sa_equivariance", "sa_heads"))
def test_deterministic(name):
    assert jsonio.dumps(module(name).compute()) == jsonio.dumps(data(name))


# --- shared helpers ----------------------------------------------------------------------------

def test_numpy_helpers():
    s = np.random.default_rng(0).normal(size=(5, 49))
    p = softmax_rows(s)
    assert np.allclose(p, torch.softmax(torch.tensor(s), -1).numpy())
    assert np.allclose(entropy_rows(np.full((1, 49), 1 / 49)), LN49)
    assert entropy_rows(np.eye(3)).tolist() == [0.0, 0.0, 0.0]


def test_shapes():
    for kind in KINDS:
        img = make_shape(kind, seed=1)
        assert img.shape == (28, 28) and img.min() >= 0 and img.max() <= 1
        assert 0.05 < img.mean() < 0.6
        assert np.array_equal(img, make_shape(kind, seed=1))
        p = patches(img)
        assert p.shape == (N_PATCHES, 16)
        assert np.array_equal(unpatch(p), img)
        assert np.array_equal(p[8], img[4:8, 4:8].ravel())     # patch 8 = grid row 1, column 1
    assert shape_tokens("ring").shape == (49, 16)


def test_corners_are_a_patch_permutation():
    tl, br, perm = corner_images("ring")
    assert sorted(perm) == list(range(49))
    assert np.array_equal(patches(br), patches(tl)[perm])
    assert not np.array_equal(tl, br)
    assert tl[:12, :12].sum() > 5 and tl[12:, :].sum() == 0 and br[16:, 16:].sum() > 5


# --- receptive field ---------------------------------------------------------------------------

def test_receptive_field():
    r = data("sa_receptive_field")
    for row in r["by_layers"]:
        assert row["rf"] == 2 * row["layers"] + 1
        assert row["kernel_weights"] == 9 * row["layers"]
        assert row["attention_pairs"] == 49 ** 2 == 2401
    assert r["rf_at_13"] == 27 and r["layers_for_27"] == 13 and r["layers_for_28"] == 14
    assert r["layers_center_full"] == 14
    shares = [row["center_share"] for row in r["by_layers"]]
    assert shares == sorted(shares) and shares[-1] == 1.0 and shares[13] < 1.0


# --- four tokens by hand -----------------------------------------------------------------------

def test_toy_numbers():
    r = data("sa_toy")
    assert r["scores"][0] == [4.0, 0.0, 4.0, -4.0]
    e = r["exps"][0]
    assert [round(x, 2) for x in e[:3]] == [16.92, 1.00, 16.92] and round(e[3], 3) == 0.059
    assert round(r["exp_sums"][0], 2) == 34.90
    assert [round(100 * w, 1) for w in r["weights"][0][:3]] == [48.5, 2.9, 48.5]
    assert round(r["weights"][0][3], 4) == 0.0017
    assert round(r["t4_self_pct"], 1) == 93.8
    assert [round(v, 2) for v in r["output"][0]] == [1.94, 1.03]
    for row in r["weights"]:
        assert math.isclose(sum(row), 1.0)
    assert all(c["agrees"] for c in r["source_claims"])


def test_toy_matches_helper():
    r = data("sa_toy")
    x = torch.tensor(r["tokens"], dtype=torch.float64)
    ref = F.scaled_dot_product_attention(x, x, x)          # independent of the helper sa_toy uses
    w = torch.softmax(x @ x.T / x.shape[-1] ** 0.5, -1)
    assert np.allclose(w.numpy(), r["weights"]) and np.allclose(ref.numpy(), r["output"])


def test_toy_slider_equal_weights_at_plus_two():
    r = data("sa_toy")
    end = r["slider"][-1]
    assert end["x"] == 2.0 and end["t4"] == r["tokens"][0]
    w = end["weights"][0]
    assert r["equal_at_plus2"] < 1e-12
    assert math.isclose(w[0], w[2]) and math.isclose(w[0], w[3]) and w[1] < w[0]
    assert r["slider"][0]["weights"] == r["weights"]


# --- patch attention ---------------------------------------------------------------------------

def test_patch_attention_recomputable():
    r = data("sa_patch_attention")
    for kind in r["shapes"]:
        s = r["by_shape"][kind]
        x = np.array(s["patches"])
        sc = np.array(s["scores"])
        assert x.shape == (49, 16) and sc.shape == (49, 49)
        assert np.allclose(sc, x @ x.T, atol=6e-4) and np.allclose(sc, sc.T)
        p = softmax_rows(sc / r["divisor"])
        assert np.allclose(entropy_rows(p), s["entropy_rows"], atol=1e-3)
        assert math.isclose(p.max(1).mean(), s["mean_row_max"], rel_tol=1e-9)
        assert all(0 <= e <= LN49 + 1e-9 for e in s["entropy_rows"])
        assert 1 / 49 < s["mean_row_max"] < 1
    div = r["ring_by_divisor"]     # a larger divisor flattens the rows
    assert [d["mean_entropy"] for d in div] == sorted(d["mean_entropy"] for d in div)


# --- scaling -----------------------------------------------------------------------------------

def test_scaling_variance_is_d():
    r = data("sa_scaling")
    assert r["n_rows"] == 9800
    for row in r["by_d"]:
        assert abs(row["var_raw"] / row["d"] - 1) < 0.02
        assert abs(row["var_scaled"] - 1) < 0.02


def test_scaling_softmax_saturates_without_division():
    rows = data("sa_scaling")["by_d"]
    raw = [row["pmax_raw"] for row in rows]
    assert raw == sorted(raw) and raw[-1] > 0.85
    for row in rows:
        assert 0.11 < row["pmax_scaled"] < 0.14
        assert abs(row["ent_scaled"] - 3.43) < 0.05 and row["ent_raw"] < row["ent_scaled"]
        assert abs(row["grad_scaled"] - 0.95) < 0.01
        assert math.isclose(row["grad_ratio"], row["grad_scaled"] / row["grad_raw"])
    ratios = [row["grad_ratio"] for row in rows]
    assert ratios == sorted(ratios) and ratios[-1] > 6


# --- heads -------------------------------------------------------------------------------------

def test_head_parameters_are_4d2_plus_4d():
    for row in data("sa_heads")["params"]:
        d = row["d"]
        assert row["counted"] == row["formula"] == 4 * d * d + 4 * d
    # d = 32 with 1, 2, 4 and 8 heads (every count the chart offers), d = 768 with 1 and 12
    assert [(row["d"], row["heads"], row["counted"]) for row in data("sa_heads")["params"]] == \
        [(32, h, 4224) for h in (1, 2, 4, 8)] + [(768, h, 2362368) for h in (1, 12)]


def test_heads_look_in_different_places():
    r = data("sa_heads")
    for row in r["by_heads"]:
        assert 1 <= row["distinct_targets"] <= row["heads"]
        assert row["distinct_min"] <= row["distinct_avg"] <= row["distinct_max"]
    four = r["four_heads"]
    assert four["distinct_targets"] > 3.5 and abs(four["corr_avg"]) < 0.1


def test_untrained_heads_pick_targets_at_chance_level():
    """The lesson says random heads' distinct argmaxes are what independent uniform picks give."""
    rng = np.random.default_rng(0)
    for row in data("sa_heads")["by_heads"]:
        h = row["heads"]
        assert row["distinct_chance"] == pytest.approx(49 * (1 - (48 / 49) ** h))
        picks = rng.integers(0, 49, size=(20000, h))
        simulated = np.mean([len(set(p)) for p in picks])
        assert row["distinct_chance"] == pytest.approx(simulated, abs=0.03)
        # untrained heads do no better than chance: at most chance plus sampling noise of 20 draws
        # (identical blank patches tie, which can only lower the count), and not far below it
        assert row["distinct_avg"] <= row["distinct_chance"] + 0.05
        assert row["distinct_avg"] >= 0.85 * row["distinct_chance"]


def test_uneven_argmax_picks_explain_the_gap_below_chance():
    """The lesson says the untrained heads' argmaxes crowd onto few patches, and that picks with the
    observed frequencies give the measured count, which is why it sits just below chance."""
    for row in data("sa_heads")["by_heads"]:
        if row["heads"] == 1:
            continue
        # half of all picks land on a handful of the 49 patches (uniform picks would need 25)
        assert row["argmax_half_patches"] <= 10
        # the measured average never exceeds chance (strictly, not within noise: the page says so)
        assert row["distinct_avg"] <= row["distinct_chance"] + 1e-9
        # uneven picks lower the expected count below the uniform chance level …
        assert row["distinct_from_freq"] < row["distinct_chance"]
        # … to within sampling noise of what the heads actually do
        assert row["distinct_from_freq"] == pytest.approx(row["distinct_avg"], abs=0.15)
        # and they account for most of the gap where the gap is clear (8 heads)
        if row["heads"] == 8:
            gap = row["distinct_chance"] - row["distinct_avg"]
            assert row["distinct_chance"] - row["distinct_from_freq"] >= 0.6 * gap
    # the more heads, the further below chance (the page says so), for each d
    for d in {r["d"] for r in data("sa_heads")["by_heads"]}:
        rows = sorted((r for r in data("sa_heads")["by_heads"] if r["d"] == d), key=lambda r: r["heads"])
        gaps = [r["distinct_chance"] - r["distinct_avg"] for r in rows]
        assert gaps == sorted(gaps), f"d={d}: gap below chance does not grow with the head count: {gaps}"


def test_heads_interactive_recomputes_torch_weights():
    mod = module("sa_heads")
    r = data("sa_heads")
    it = r["interactive"]
    assert it["same_qk_for_all_head_counts"]
    q, k = np.array(it["q"]), np.array(it["k"])
    x = torch.tensor(mod.embed_tokens(shape_tokens(r["shape"]), d=32), dtype=torch.float64)   # the experiment computes in float64
    for heads in it["head_counts"]:
        ref = mod.head_weights(x, heads)
        hd = 32 // heads
        for h in range(heads):
            cols = slice(h * hd, (h + 1) * hd)
            w = softmax_rows(q[:, cols] @ k[:, cols].T / math.sqrt(hd))
            assert np.abs(w - ref[h]).max() < 2e-3


# --- order -------------------------------------------------------------------------------------

def test_equivariance():
    """Without PE the difference is rounding noise, below each number format's bound on this machine (the
    data says so for every permutation and the corners; the sizes themselves are machine measurements)."""
    r = data("sa_equivariance")
    assert r["no_pe_below_bound"] == {"float32": True, "float64": True}
    assert r["noise_bound"]["float32"] <= 1e-6 and r["noise_bound"]["float64"] <= 1e-12
    assert r["err_pe"] > 1e-2 and r["smallest_pe"] > 1e-2
    assert r["err_conv"] > 10 * r["err_pe"] and r["err_conv"] > 1e5 * r["noise_bound"]["float32"]
    for row in r["permutations"]:
        assert sorted(row["perm"]) == list(range(49))
        assert 1e4 * r["noise_bound"]["float32"] < row["err_pe"] < row["err_conv"]
    sweep = r["pe_sweep"]
    assert [s["err_pe"] for s in sweep] == sorted(s["err_pe"] for s in sweep)


def test_noise_stays_below_its_bound_on_this_machine():
    """The bound the page states, measured again here in both formats (what the data's booleans claim)."""
    from scripts.experiments import sa_equivariance as eq
    eq.compute()
    for fmt, sizes in eq.measure().items():
        for key, value in sizes.items():
            if key != "rel_err_no_pe":
                assert value < eq.NOISE_BOUND[fmt], (fmt, key, value)
    assert eq.LAST["float32"]["err_no_pe"] > eq.LAST["float64"]["err_no_pe"], "float64 rounds less"


def test_corners_identical_without_pe():
    c = data("sa_equivariance")["corners"]
    assert c["perm_is_patch_move"]
    assert c["pooled_diff_pe"] > 1e-3


@pytest.mark.slow
@pytest.mark.parametrize("core", ["Prescott", "Haswell"])   # tools/reproduce.py's two paths
def test_corners_claim_holds_on_every_blas_kernel(core):
    """numpy's OpenBLAS picks its matrix-product kernels by CPU model; on some (an AMD EPYC's) a row's last bits
    depend on its place in the product, which made the «patches moved» claim read False there (and on these two:
    it held only on SkylakeX, the machine's that computed generated/). Each model's kernels, named in a new process
    (OpenBLAS reads OPENBLAS_CORETYPE as it loads), give the committed corners."""
    import os
    import subprocess
    import sys
    code = ("import json; from scripts.experiments import sa_equivariance as eq; "
            "print(json.dumps(eq.compute()['corners']))")
    out = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent, check=True,
                         capture_output=True, text=True, env=dict(os.environ, OPENBLAS_CORETYPE=core)).stdout
    c = json.loads(out)
    assert c["perm_is_patch_move"], f"OpenBLAS {core}: the corner images' patches are not the same patches moved"
    assert json.loads(jsonio.dumps(c)) == committed("sa_equivariance")["corners"], f"OpenBLAS {core}: other corners"


# --- ViT ---------------------------------------------------------------------------------------

def test_vit_position_share():
    r = data("sa_vit")
    assert r["pos_embedding"] == r["seq_length"] * r["hidden_dim"] == 197 * 768
    assert r["pos_share"] == r["pos_embedding"] / r["total"]
    assert r["total"] == 86_567_656
    assert round(100 * r["pos_share"], 3) == 0.175
    assert sum(p["params"] for p in r["parts"]) == r["total"]


# --- cost --------------------------------------------------------------------------------------

def test_cost_formulas():
    r = data("sa_cost")
    d = r["d"]
    for row in r["by_patch"]:
        n = row["tokens"]
        assert n == (28 // row["patch"]) ** 2
        assert row["pairs"] == n * n
        assert row["mult_matrix"] == 2 * n * n * d and row["mult_proj"] == 4 * n * d * d
    assert r["break_even_tokens"] == 2 * d == 64
    n = r["break_even_tokens"]
    assert 2 * n * n * d == 4 * n * d * d
    assert r["pairs_growth"] == 2401
    assert all(c["agrees"] for c in r["source_claims"])


def test_measured_counts_grow_under_four_per_doubling():
    """The page compares the timings with what the timed layer multiplies: 2n²d + 4nd² grows less
    than fourfold per doubling of n (the projections' linear part) and approaches 4 from below."""
    mod = module("sa_cost")
    rows = data("sa_cost")["measured_counts"]
    assert [r["tokens"] for r in rows] == list(mod.MEASURE_TOKENS)
    d = mod.MEASURE_D
    for prev, r in zip(rows, rows[1:]):
        n = r["tokens"]
        assert r["mult_total"] == 2 * n * n * d + 4 * n * d * d
        assert math.isclose(r["mult_step"], r["mult_total"] / prev["mult_total"], rel_tol=1e-5)
        assert math.isclose(r["mult_ratio"], r["mult_total"] / rows[0]["mult_total"], rel_tol=1e-5)
        if n == 2 * prev["tokens"]:
            assert 3.5 < r["mult_step"] < 4
    doublings = [r["mult_step"] for p, r in zip(rows, rows[1:]) if r["tokens"] == 2 * p["tokens"]]
    assert doublings == sorted(doublings) and len(doublings) == 2


def test_timings_claims_of_the_page():
    """What «Ціна квадратична» says about the committed measurement: time grew slower than the pairs
    and than the multiplications over the whole range; among the doublings where the attention
    matrix dominates, the step 784 → 1 568 grew faster than the multiplications and the step
    1 568 → 3 136 slower (single steps stray both ways); building the weights (need_weights=True)
    costs more time for the same multiplications."""
    path = Path(__file__).resolve().parent.parent / "generated/timings/sa_cost.json"
    res = json.loads(path.read_text(encoding="utf-8"))["result"]
    counts = {r["tokens"]: r for r in data("sa_cost")["measured_counts"]}
    fused = {r["tokens"]: r for r in res["by_tokens"]}
    weights = {r["tokens"]: r for r in res["by_tokens_weights"]}
    last = max(fused)
    assert fused[last]["time_ratio"] < counts[last]["mult_ratio"] < fused[last]["pair_ratio"]
    steps = {n: fused[n]["median_ms"] / fused[n // 2]["median_ms"] for n in fused if n // 2 in fused}
    assert steps[1568] > counts[1568]["mult_step"]
    assert steps[3136] < counts[3136]["mult_step"]
    assert weights[last]["median_ms"] > fused[last]["median_ms"]


# --- untrained ---------------------------------------------------------------------------------

def test_vit_finetune_positions_need_interpolation():
    """«Позиційне кодування»: fine-tuned at a larger size, ViT-B/16 has more positions than its
    table holds, so the table is interpolated (the grid of patches plus the class token)."""
    r = data("sa_vit")
    f = r["finetune"]
    assert f["image_size"] > r["image_size"] and f["image_size"] % r["patch_size"] == 0
    assert f["seq_length"] == (f["image_size"] // r["patch_size"]) ** 2 + 1 > r["seq_length"]
    assert f["pos_embedding"] == f["seq_length"] * r["hidden_dim"]


def test_untrained_is_nearly_uniform():
    r = data("sa_untrained")
    for row in r["by_shape"]:
        assert row["entropy_pct"] > 95 and abs(row["mean_entropy"] - LN49) < 0.2
        assert 1 / 49 < row["mean_row_max"] < 0.06
    assert r["ring_draws"]["entropy_pct_min"] > 90


def test_untrained_flatness_follows_the_score_scale_not_the_self_match():
    """«Який вигляд має ненавчена матриця уваги»: the control cases. As initialised, scores are small
    (std well under 1) and rows near-uniform; W_k := W_q puts weight on each patch's own key and
    enlarges the scores; at equal score scale (std 1) tying W_k to W_q barely changes how flat the
    rows are; the identity weights give the largest scores and the sharpest rows."""
    r = data("sa_untrained")
    c = {row["case"]: row for row in r["controls"]}
    assert set(c) == set(module("sa_untrained").CONTROL_CASES)
    ind, sh, ind1, sh1, ide = (c[k] for k in ("independent", "shared", "independent_unit",
                                               "shared_unit", "identity"))
    assert ind["score_std"] < 0.5 and ind["entropy_pct"] > 95
    assert abs(ind["entropy_pct"] - np.mean([r["ring_draws"]["entropy_pct_min"],
                                             r["ring_draws"]["entropy_pct_max"]])) < 5
    assert abs(ind["self_weight"] - 1 / 49) < 0.005                     # no pull to its own patch
    assert sh["score_std"] > ind["score_std"] and sh["self_weight"] > 3 / 49
    assert ind1["score_std"] == pytest.approx(1) and sh1["score_std"] == pytest.approx(1)
    assert abs(ind1["entropy_pct"] - sh1["entropy_pct"]) < 2            # same flatness at one scale
    assert ind["entropy_pct"] - ind1["entropy_pct"] > 5                 # the scale alone moves it
    assert sh1["self_weight"] > 2 * ind1["self_weight"]                 # the self-match moves where
    assert ide["score_std"] > sh["score_std"] and ide["entropy_pct"] < sh["entropy_pct"]


def test_on_shape_weight_against_each_shapes_share():
    """«Що змінює навчання»: on the ring the trained heads put more weight on the shape than on the cross,
    in every seed, but the ring also covers more patches; against each example's own patch share the
    difference between the shapes is much smaller (the means' largest-to-smallest ratio), and the ring's and
    the cross's ranges over the seeds overlap. One example image per shape
    (by_shape), over the seeds (over_seeds.by_shape), the spread the page states."""
    sa = data("sa_trained")
    for run in [sa] + sa["per_seed"]:
        for s, r in run["by_shape"].items():
            assert r["on_shape_patches"] == len(sa["examples"][s]["on_shape_patches"])
            assert math.isclose(r["patch_share"], r["on_shape_patches"] / N_PATCHES, rel_tol=1e-5)
            assert math.isclose(r["trained_over_share"], r["trained_on_shape"] / r["patch_share"], rel_tol=1e-4)
            assert r["trained_over_share"] > 1
    shapes = sa["by_shape"]
    assert shapes["ring"]["on_shape_patches"] > shapes["cross"]["on_shape_patches"]
    over = sa["over_seeds"]["by_shape"]
    assert over["ring"]["trained_on_shape"]["min"] > over["cross"]["trained_on_shape"]["max"]
    raw = [o["trained_on_shape"]["mean"] for o in over.values()]
    means = [o["trained_over_share"]["mean"] for o in over.values()]
    assert min(means) > 1.5 and max(means) / min(means) < 0.8 * max(raw) / min(raw)
    ring, cross = over["ring"]["trained_over_share"], over["cross"]["trained_over_share"]
    assert ring["max"] > cross["min"] and cross["max"] > ring["min"]


def test_untrained_heads_correlate_a_little_and_shorter_heads_pick_no_fewer_targets():
    """«Кілька голів»: the heads' correlation is small, positive on average at d = 32, negative in some
    draws; with shorter heads (d = 16) the distinct targets are, if anything, more on average."""
    r = data("sa_heads")
    rows = {(x["d"], x["heads"]): x for x in r["by_heads"]}
    for h in (2, 4, 8):
        corr = rows[(32, h)]["over_draws"]["corr"]
        assert 0 < corr["mean"] < 0.2, (h, corr)
    assert r["four_heads"]["over_draws"]["corr"]["min"] < 0
    for h in (4, 8):
        assert rows[(16, h)]["distinct_avg"] > rows[(32, h)]["distinct_avg"]


def test_one_definition_of_patches_on_the_shape():
    """«На справжній фігурі» and «Що змінює навчання» count "patches on the shape" the same way
    (scripts.common.shapes.on_shape, a quarter of the patch covered): the same count per shape, and the
    ring's rows give most of their weight to the ring."""
    patch = {r["shape"]: r for r in data("sa_patch_attention")["summary"]}
    trained = data("sa_trained")["by_shape"]
    assert set(trained) <= set(patch)
    for s, r in trained.items():
        assert r["on_shape_patches"] == patch[s]["on_shape"], s
    assert data("sa_patch_attention")["on_shape_cover"] == 0.25
    assert patch["ring"]["on_shape_row_weight"] > 0.9
