"""The charts of the chapter on attention at scale compute what the experiments compute.

The cache calculator (scripts/charts/sc_cache_calculator.py) does its arithmetic in the browser, in the
compiled Vega spec the page embeds. Its expressions are evaluated here, under node, with the values a
click on each published preset sets (the preset's own row in the spec) and every batch and context of
the experiment's grid, and compared with sc_cache_size's bytes per token, cache bytes and weights. The
step-by-step charts show the experiments' own numbers: the decoding steps' rows are the matrix the
decoder filled, and the online-softmax steps end on the exact softmax.
"""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from conftest import LANGS, ROOT
from scripts.common import jsonio

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node evaluates the Vega expressions")
from scripts.charts._render import _dicts as walk  # every dict of a spec, outermost first  # noqa: E402

FIELDS = ("layers", "heads", "kv_heads", "head_size", "bytes", "context")


def spec(chart: str, lang: str) -> dict:
    return json.loads((ROOT / "generated" / "charts" / lang / f"{chart}.vg.json").read_text(encoding="utf-8"))


def formulas(vg: dict) -> dict:
    """{field: expression} of every formula transform, each field computed once (the views agree)."""
    found = {}
    for node in walk(vg):
        if node.get("type") == "formula":
            assert found.setdefault(node["as"], node["expr"]) == node["expr"] or node["as"] not in (
                "bpt", "total", "params", "weights"), f"two formulas for {node['as']}"
    return found


def evaluate(cases: list[dict], exprs: dict, order: list[str]) -> list[dict]:
    """Evaluate the formulas in `order` under node for each case (signals as variables, fields as datum)."""
    script = ["const cases = " + json.dumps(cases) + ";", "const out = [];", "for (const c of cases) {",
              "  const {" + ", ".join(f"cfg_{f}" for f in FIELDS) + ", batch} = c;", "  const datum = {};"]
    script += [f"  datum.{name} = ({exprs[name]});" for name in order]
    script += ["  out.push(datum);", "}", "console.log(JSON.stringify(out));"]
    run = subprocess.run(["node", "-e", "\n".join(script)], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def cache():
    return jsonio.read(ROOT / "generated" / "data" / "sc_cache_size.json")


def preset_rows(vg: dict) -> list[dict]:
    """The rows of the presets' names: what a click sets the controls to."""
    for node in walk(vg):
        values = node.get("values") if isinstance(node.get("name"), str) else None
        if isinstance(values, list) and values and isinstance(values[0], dict) and "kv_heads" in values[0]:
            return values
    raise AssertionError("no preset rows in the spec")


@pytest.mark.parametrize("lang", LANGS)
def test_a_click_on_a_preset_sets_its_published_numbers(cache, lang):
    rows = {r["id"]: r for r in preset_rows(spec("sc_cache_calculator", lang))}
    for p in cache["presets"]:
        row = rows[p["id"]]
        assert [row[f] for f in FIELDS] == [p["layers"], p["heads"], p["kv_heads"], p["head_size"],
                                            p["bytes_per_number"], p["context"]], p["id"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_calculator_gives_the_experiments_bytes_and_weights(cache, lang):
    vg = spec("sc_cache_calculator", lang)
    exprs = formulas(vg)
    rows = {r["id"]: r for r in preset_rows(vg)}
    grid = [dict({f: rows[g["id"]][f] for f in FIELDS}, context=g["context"], batch=g["batch"], id=g["id"],
                 want=g["cache_bytes"], want_over=g["over_weights"]) for g in cache["grid"]]
    cases = [{f"cfg_{f}": c[f] for f in FIELDS} | {"batch": c["batch"]} for c in grid]
    got = evaluate(cases, exprs, ["bpt", "total", "params", "weights"])
    by_id = {p["id"]: p for p in cache["presets"]}
    for case, result in zip(grid, got):
        p = by_id[case["id"]]
        assert result["bpt"] == p["bytes_per_token"], case
        assert result["total"] == case["want"], case
        assert result["params"] == p["params"] and result["weights"] == p["weights_bytes"], case
        assert result["total"] / result["weights"] == pytest.approx(case["want_over"], rel=1e-5), case


@pytest.mark.parametrize("lang", LANGS)
def test_a_changed_architecture_shows_no_weights(cache, lang):
    vg = spec("sc_cache_calculator", lang)
    p = cache["presets"][0]
    case = {f"cfg_{f}": v for f, v in zip(FIELDS, (p["layers"] + 1, p["heads"], p["kv_heads"], p["head_size"],
                                                     p["bytes_per_number"], p["context"]))} | {"batch": 1}
    got = evaluate([case], formulas(vg), ["bpt", "params"])[0]
    assert got["params"] == 0 and got["bpt"] == 2 * (p["layers"] + 1) * p["kv_heads"] * p["head_size"] * p["bytes_per_number"]


def test_the_decoding_figure_draws_the_matrix_the_decoder_filled():
    dec = jsonio.read(ROOT / "generated" / "data" / "sc_decoding.json")
    ex = dec["example"]
    vg = spec("sc_decoding_steps", LANGS[0])
    cells = next(n["values"] for n in walk(vg) if isinstance(n.get("values"), list) and n["values"]
                 and isinstance(n["values"][0], dict) and {"i", "j", "w", "k"} <= set(n["values"][0]))
    heads = dec["model"]["heads"]
    for c in cells:
        assert c["w"] == ex["matrix"][c["k"] // heads][c["k"] % heads][c["i"]][c["j"]]
    for s in ex["steps"]:       # the row a step fills is the step's own attention row
        for layer, per_head in enumerate(s["attention"]):
            for head, row in enumerate(per_head):
                assert row == ex["matrix"][layer][head][s["position"]][:len(row)]


def test_the_online_softmax_figure_ends_on_the_exact_row():
    osm = jsonio.read(ROOT / "generated" / "data" / "sc_online_softmax.json")
    trace = osm["trace"]
    assert trace["steps"][-1]["weights_so_far"] == pytest.approx(trace["exact"], rel=1e-5)
    assert trace["steps"][-1]["output_so_far"] == pytest.approx(trace["output_exact"], rel=1e-5)
