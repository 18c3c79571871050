"""The course's Vega bundle (tools/vega/, built by tools/vendor_assets.py into the vendor folder) holds
everything the generated specs use: each spec's transforms, scale types and schemes, mark types and
expression functions are read from the spec and asked of the bundle itself, and every spec is parsed into its
runtime as the build parses it (the bundle has no parser: course_build/chart_scripts.py, tools/vega/runtime.mjs,
which checks the runtime's operators and functions against the bundle) and run by the bundle's View (in node,
without a browser). A chart that needs a piece left out fails here, naming the chart and the piece, instead of
drawing nothing in a reader's browser."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
from mkdocs.exceptions import PluginError

from course_build import chart_scripts
from scripts.common import course
from tools import vendor_assets
from conftest import CHART_PAGES, LANGS, open_page

BUNDLE = vendor_assets.OUT / vendor_assets.VEGA_BUNDLE
SPECS = sorted((ROOT / "generated" / "charts").glob("*/*.vg.json"))
EXPRESSION_KEYS = {"signal", "expr", "update", "init", "test"}  # where Vega reads an expression string
CALL = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*)\s*\(")
QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")

# Load the bundle as a page would (it sets vegaEmbed), then for each kind say which names it lacks. An
# expression function vega-expression compiles into plain JavaScript (Math, strings, dates: the real package's
# own table, asked here) is compiled at build time and needs nothing of the bundle (tools/vega/expression.js).
ASK = r"""
const fs = require('fs');
require('vm').runInThisContext(fs.readFileSync(process.argv[1], 'utf8'));
const has = globalThis.vegaEmbed.vega.bundled;
const inline = new Set(Object.keys(require('vega-expression').functions(() => '')));
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const missing = {};
for (const [kind, names] of Object.entries(input.names)) {
  missing[kind] = names.filter(n => !has[kind](n) && !(kind === 'fn' && inline.has(n)));
}
process.stdout.write(JSON.stringify({missing}));
"""


def needs(spec: dict) -> dict[str, set[str]]:
    """What a compiled Vega spec asks of Vega: transform, scale and mark types, schemes, functions."""
    out = {"transform": set(), "scale": set(), "scheme": set(), "mark": set(), "fn": set()}

    def expression(text: str) -> None:
        out["fn"].update(CALL.findall(QUOTED.sub("''", text)))

    def walk(node, key: str | None = None) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "transform" and isinstance(v, list):
                    out["transform"].update(t["type"] for t in v if isinstance(t, dict) and "type" in t)
                elif k == "scales" and isinstance(v, list):
                    for s in v:
                        out["scale"].add(s.get("type", "linear"))  # Vega's default scale type
                        scheme = s.get("range", {}).get("scheme") if isinstance(s.get("range"), dict) else None
                        if isinstance(scheme, str):
                            out["scheme"].add(scheme)
                elif k == "marks" and isinstance(v, list):
                    out["mark"].update(m["type"] for m in v if isinstance(m, dict) and "type" in m)
                elif k == "projections" and v:
                    out["transform"].add("projection")  # Vega turns each projection into one
                elif k == "filter" and key == "events":  # event filters are expressions too
                    for f in v if isinstance(v, list) else [v]:
                        if isinstance(f, str):
                            expression(f)
                if k in EXPRESSION_KEYS and isinstance(v, str):
                    expression(v)
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)

    walk(spec)
    return out


def ask_bundle(specs: dict[str, dict]) -> tuple[dict[str, set[str]], dict[str, str]]:
    """Which of the specs' needs the bundle lacks (kind → names), and any spec it cannot parse or run."""
    node = shutil.which("node")
    assert node, "node is missing (Debian: apt-get install nodejs)"
    assert BUNDLE.exists(), f"{BUNDLE.relative_to(ROOT)} is missing: run `make assets` (tools/vendor_assets.py)"
    names: dict[str, set[str]] = {}
    for spec in specs.values():
        for kind, found in needs(spec).items():
            names.setdefault(kind, set()).update(found)
    payload = json.dumps({"names": {k: sorted(v) for k, v in names.items()}})
    proc = subprocess.run([node, "-e", ASK, str(BUNDLE)], input=payload, capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    answer = json.loads(proc.stdout)
    # parsed as the build parses them (each in its language's chart design), checked against the bundle and run
    # by its View; a failure lists each chart on a line of its own, "  <chart>: <why>"
    errors: dict[str, str] = {}
    langs = {lang.code for lang in course.languages()}
    try:
        chart_scripts.runtimes({chart: (spec, chart.split("/")[0] if chart.split("/")[0] in langs
                                        else course.default_language().code) for chart, spec in specs.items()})
    except PluginError as err:
        for line in str(err).splitlines()[1:]:
            chart, _, why = line.strip().partition(": ")
            errors[chart] = why
        assert errors, str(err)
    return {k: set(v) for k, v in answer["missing"].items()}, errors


def test_every_spec_has_what_it_needs_in_the_bundle():
    assert SPECS, "no compiled specs under generated/charts/: run `make data`"
    specs = {f"{p.parent.name}/{p.name.removesuffix('.vg.json')}": json.loads(p.read_text(encoding="utf-8"))
             for p in SPECS}
    missing, errors = ask_bundle(specs)
    problems = [f"{chart}: the bundle has no {kind} {name!r}"
                for chart, spec in specs.items() for kind, found in needs(spec).items()
                for name in sorted(found & missing.get(kind, set()))]
    problems += [f"{chart}: {err}" for chart, err in errors.items()]
    assert not problems, ("charts need what the Vega bundle leaves out; add it in tools/vega/vega.js "
                          "(or drop its stand-in from tools/vega/absent.js), then `make assets`:\n  "
                          + "\n  ".join(problems))


def test_the_check_sees_what_the_bundle_leaves_out():
    """A spec using left-out pieces (a force layout, a geo function, a d3 palette, an unknown mark, a time
    scale, a date format) is caught by name; a spec using common pieces is not."""
    spec = {
        "$schema": "https://vega.github.io/schema/vega/v6.json",
        "signals": [{"name": "area", "update": "geoArea(null, {'type': 'Sphere'}) + floor(2.5)"}],
        "data": [{"name": "d", "values": [{"x": 1}],
                  "transform": [{"type": "force"}, {"type": "formula", "expr": "format(datum.x, 'f(x)')", "as": "y"},
                                {"type": "formula", "expr": "timeFormat(datum.x, '%Y')", "as": "z"}]}],
        "scales": [{"name": "c", "type": "ordinal", "range": {"scheme": "category10"}, "domain": [1]},
                   {"name": "b", "type": "linear", "range": {"scheme": "blues"}, "domain": [0, 1]},
                   {"name": "t", "type": "time", "range": [0, 1], "domain": [0, 1]}],
        "marks": [{"type": "wordcloud"}, {"type": "rect"}],
    }
    found = needs(spec)
    assert found["fn"] == {"geoArea", "floor", "format", "timeFormat"}, found["fn"]  # nothing from inside 'f(x)'
    missing, errors = ask_bundle({"made-up": spec})
    assert missing == {"transform": {"force"}, "scale": {"time"}, "scheme": {"category10"},
                       "mark": {"wordcloud"}, "fn": {"geoArea", "timeFormat"}}, missing
    assert "made-up" in errors  # and the build refuses it (its runtime needs the force transform)
    assert 'transform "force"' in errors["made-up"], errors


@pytest.mark.parametrize("piece", ["vega.min.js", "vega-embed.min.js"])
def test_the_vendor_folder_ships_only_the_bundle(piece):
    """The full builds are not copied next to it (they would ship in the site and the offline zip)."""
    assert not (BUNDLE.parent / piece).exists(), f"{piece} in {BUNDLE.parent.relative_to(ROOT)}: rerun tools/vendor_assets.py"


@pytest.mark.parametrize("lang", LANGS)
def test_the_chart_menu_saves_svg_and_png(context, base_url, lang):
    """The chart's «⋯» menu (tools/vega/embed.js), from the bundle: each action saves the chart (SVG from Vega's string
    renderer, PNG from its canvas renderer), in every language."""
    p = open_page(context, base_url, lang, CHART_PAGES[0])
    chart = p.locator(".chart-view").first
    links = chart.locator(".vega-actions a")
    menu = chart.locator("details:has(.vega-actions)")
    kinds = []
    for i in range(links.count()):
        if not menu.evaluate("d => d.open"):
            menu.locator("summary").click()
        with p.expect_download() as download:
            links.nth(i).click()
        body = Path(download.value.path()).read_bytes()
        kinds.append("svg" if body.lstrip().startswith(b"<svg") else "png" if body.startswith(b"\x89PNG") else body[:20])
    assert sorted(kinds) == ["png", "svg"], f"{lang}: the menu saved {kinds}"
    assert not p.errors, f"{lang}: {p.errors}"
    p.close()


# tools/vega/voronoi.js stands in for vega-voronoi (d3-delaunay): its cells must be d3-delaunay's,
# vertex for vertex (to a thousandth of a pixel: d3 is the less exact of the two on collinear points).
VORONOI = r"""
import {cells} from './voronoi.js';
import {Delaunay} from 'd3-delaunay';
let seed = 7;
const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const box = [0, 0, 500, 300], cases = [];
for (const n of [1, 2, 3, 10, 60, 200]) {
  const xs = [], ys = [];
  for (let i = 0; i < n; i++) { xs.push(rnd() * 500); ys.push(rnd() * 300); }
  cases.push([xs, ys]);
}
cases.push([[0, 100, 200, 300, 100], [50, 50, 50, 50, 50]]);           // collinear, one point repeated
cases.push([[10, 20, 30, 10, 20, 30, 20], [10, 10, 10, 20, 20, 20, 10]]);  // a grid, one point repeated
cases.push([[0, 250, 500, 499.5], [0, 150, 300, 0.5]]);                 // on the corners
const vertices = path => path ? path.slice(1, -1).split('L').map(p => p.split(',').map(Number)) : [];
const near = (a, b) => a.every(p => b.some(q => Math.hypot(p[0] - q[0], p[1] - q[1]) < 1e-3));
const wrong = [];
cases.forEach(([xs, ys], c) => {
  const ours = cells(xs, ys, box);
  const v = Delaunay.from(xs.map((x, i) => [x, ys[i]])).voronoi(box);
  xs.forEach((_, i) => {
    const p = v.cellPolygon(i), theirs = p ? p.slice(0, -1) : [], mine = vertices(ours[i]);
    if (!(near(mine, theirs) && near(theirs, mine))) wrong.push({case: c, point: i, ours: ours[i], d3: String(theirs)});
  });
});
process.stdout.write(JSON.stringify(wrong));
"""


def test_our_voronoi_cells_are_d3_delaunays():
    """The nearest-point hover regions (sa_training_progress) are the same as with vega-voronoi."""
    out = subprocess.run(["node", "--input-type=module", "-e", VORONOI], cwd=ROOT / "tools" / "vega",
                         capture_output=True, text=True, check=True)
    wrong = json.loads(out.stdout)
    assert not wrong, f"tools/vega/voronoi.js differs from d3-delaunay: {wrong[:3]}"
