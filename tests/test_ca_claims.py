"""Claims of the lesson «Cross-attention», checked against the experiments' data."""
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.common.i18n import languages, strings
from scripts.experiments import ca_alignment, ca_masks, ca_perceiver, ca_step

ROOT = Path(__file__).resolve().parents[1]
VENV_PY = ROOT / ".venv" / "bin" / "python"
PY = str(VENV_PY) if VENV_PY.exists() else sys.executable


@pytest.fixture(scope="module")
def step():
    return ca_step.compute()


# --- the worked step ------------------------------------------------------------------------

def test_step_numbers(step):
    assert step["scores"] == [1.0, 1.0, 4.0, 0.0]
    r2 = math.sqrt(2)
    assert step["scaled"] == pytest.approx([1 / r2, 1 / r2, 4 / r2, 0.0], abs=1e-12)
    assert step["scaled_2dp"] == [0.71, 0.71, 2.83, 0.0]
    e = [math.exp(x) for x in step["scaled"]]
    assert step["weights"] == pytest.approx([x / sum(e) for x in e], abs=1e-12)
    assert step["weights"] == pytest.approx([0.0922917, 0.0922917, 0.7699105, 0.0455061], abs=1e-7)
    assert step["weights_2dp"] == [0.09, 0.09, 0.77, 0.05]
    assert sum(step["weights"]) == pytest.approx(1.0, abs=1e-12)
    assert step["weights_2dp_sum"] == 1.0


def test_step_source_claims(step):
    assert all(c["agrees"] for c in step["source_claims"])
    assert step["top"]["meaning"] == "mat"             # فرش, килимок
    assert step["top"]["weight_1dp"] == 0.8          # "about 0.8"
    assert round(step["top"]["weight"], 2) == 0.77


def test_step_output_is_weighted_sum(step):
    w, vals = step["weights"], step["values"]
    out = [sum(wi * v[i] for wi, v in zip(w, vals)) for i in range(2)]
    assert step["output"] == pytest.approx(out, abs=1e-12)
    assert step["nearest_value_meaning"] == "mat"


def example(lang):
    return strings(lang)["charts"]["ca_alignment"]["example"]


@pytest.mark.parametrize("lang", languages())
def test_example_words_are_keyed_by_the_experiments_meanings(step, lang):
    """Every language names each meaning the experiments use once, and its charts share one example."""
    ex, charts = example(lang), strings(lang)["charts"]
    assert sorted(ex["order"]) == sorted(ex["words"]) == sorted(step["meanings"])
    assert sorted(ca_alignment.compute()["meanings"]) == sorted(ca_masks.compute()["source"]) == sorted(ex["order"])
    assert all(charts[c]["example"] == ex for c in ("ca_step_query", "ca_masks"))


def test_snippet_prints_page_numbers(step):
    res = subprocess.run([PY, str(ROOT / "scripts" / "snippets" / "ca_step.py")],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    expected = "".join(
        f"{name:<8}" + " ".join(f"{x:5.2f}" for x in step[key]) + "\n"
        for name, key in (("scores", "scores_2dp"), ("scaled", "scaled_2dp"),
                          ("weights", "weights_2dp")))
    assert res.stdout == expected


# --- alignment table ------------------------------------------------------------------------

def positions(lang, data):
    """Where, in the language's sentence, the content words cat, sat, on, mat find their source word."""
    order = example(lang)["order"]
    return [order.index(c["found"]) for c in data["content"]]


def test_alignment():
    data = ca_alignment.compute()
    assert data["illustrative"] is True
    assert data["target"] == ["the", "cat", "sat", "on", "the", "mat"]
    assert len(data["matrix"]) == 6 and all(len(r) == 4 for r in data["matrix"])
    for s in data["row_sums"]:
        assert s == pytest.approx(1.0, abs=1e-12)
    for row in data["matrix"]:
        assert sum(row) == pytest.approx(1.0, abs=2e-3)          # 3-decimal rounding
    assert all(c["found"] == c["meaning"] for c in data["content"])   # cat→cat, sat→sit, on→on, mat→mat
    for i in data["spread_rows"]:                     # "the" spreads its attention
        assert data["max_weight"][i] < 0.4
    for i in (1, 2, 3, 5):
        assert data["max_weight"][i] > 0.7


def test_alignment_word_order():
    data = ca_alignment.compute()
    fa = [example("fa")["words"][m] for m in (data["argmax"][i] for i in (1, 2, 3, 5))]
    uk = [example("uk")["words"][m] for m in (data["argmax"][i] for i in (1, 2, 3, 5))]
    assert fa == ["گربه", "نشست", "روی", "فرش"] and uk == ["Кіт", "сів", "на", "килимок"]
    fa_pos, uk_pos = positions("fa", data), positions("uk", data)
    # Both examples put the verb last, so the alignment with English crosses on both pages (issue 11)
    assert fa_pos != sorted(fa_pos) and uk_pos != sorted(uk_pos)


# --- masks and reuse of K, V ----------------------------------------------------------------

def test_masks():
    data = ca_masks.compute()
    c, x = data["causal"], data["cross"]
    assert c["shape"] == [6, 6] and c["allowed"] == 21 and c["total"] == 36
    assert all(c["matrix"][i][j] == (1 if j <= i else 0) for i in range(6) for j in range(6))
    assert x["shape"] == [6, 4] and x["allowed"] == 24 == x["total"]


def test_saved_projections():
    data = ca_masks.compute()
    rows = {r["case"]: r for r in data["projections"]}
    ex, lg = rows["example"], rows["longer"]
    assert (ex["recompute"], ex["once"], ex["saved"]) == (48, 8, 40)
    assert (lg["recompute"], lg["once"], lg["saved"]) == (1000, 40, 960)
    assert data["mults_per_projection"] == 512 * 512
    assert ex["recompute_mults"] == 48 * 512 ** 2 == 12_582_912
    assert ex["once_mults"] == 2_097_152
    assert lg["saved_mults"] == 960 * 512 ** 2
    for cnt in data["counted"]:
        r = rows[cnt["case"]]
        assert (cnt["recompute"], cnt["once"]) == (r["recompute"], r["once"])
        assert cnt["max_abs_diff"] == 0.0


# --- Perceiver ------------------------------------------------------------------------------

def test_perceiver_pairs():
    data = ca_perceiver.compute()
    assert data["n_image"] == 50_176
    ex = {r["m"]: r for r in data["examples"]}
    assert ex[256]["cross_pairs"] == 12_845_056 and ex[256]["ratio"] == 196.0
    assert ex[512]["cross_pairs"] == 25_690_112 and ex[512]["ratio"] == 98.0
    assert ex[256]["self_pairs"] == 50_176 ** 2
    lin = data["linearity"]
    assert lin["cross_growth"] == 2.0 and lin["self_growth"] == 4.0
    g = data["grid"]
    assert len(g["n"]) == 25 and g["n"][0] == 1000 and g["n"][-1] == 1_000_000
    assert g["n"] == sorted(g["n"]) and g["m"] == [64, 128, 256, 512, 1024]


# --- torch ----------------------------------------------------------------------------------

def test_torch_check():
    pytest.importorskip("torch")
    from scripts.experiments import ca_torch_check
    data = ca_torch_check.compute()
    assert data["mha"]["weights_shape"] == [6, 4] and data["mha"]["rows_sum_to_1"]
    assert data["sdpa_step"]["matches"]
    assert data["sdpa_step"]["weights_torch"] == pytest.approx(ca_step.compute()["weights"],
                                                               abs=1e-6)
    toy = data["perceiver_toy"]
    assert toy["cross_entries"] == toy["m"] * toy["n"]
    assert toy["self_entries"] == toy["n"] ** 2


# --- all data is plain JSON -----------------------------------------------------------------

def _plain(x):
    if isinstance(x, dict):
        return all(type(k) is str and _plain(v) for k, v in x.items())
    if isinstance(x, list):
        return all(_plain(v) for v in x)
    return type(x) in (str, int, float, bool) or x is None


@pytest.mark.parametrize("name", ["ca_alignment", "ca_step", "ca_masks", "ca_perceiver",
                                  "ca_torch_check"])
def test_json_plain_and_deterministic(name):
    if name == "ca_torch_check":
        pytest.importorskip("torch")
    import importlib
    mod = importlib.import_module(f"scripts.experiments.{name}")
    first = mod.compute()
    assert _plain(first)
    a = json.dumps(first, sort_keys=True, ensure_ascii=False)
    b = json.dumps(mod.compute(), sort_keys=True, ensure_ascii=False)
    assert a == b
    assert mod.__doc__.splitlines()[0].strip()


@pytest.mark.parametrize("lang", languages())
def test_chart_writes_vectors_as_the_page_does(step, lang):
    """One rule for vectors: the step chart's static drawing writes each key and the output as the
    page's tables write them (numfmt.vector), not as «(1, 0)» typed in a string."""
    from scripts.common import numfmt
    svg = (ROOT / "generated" / "charts" / lang / "ca_step_query.svg").read_text(encoding="utf-8")
    for key in step["keys"]:
        assert numfmt.vector(key, "d", lang) in svg, f"{lang}: key {key} not written as on the page"
    assert numfmt.vector(step["output"], ".2f", lang) in svg
