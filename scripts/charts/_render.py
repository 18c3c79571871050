"""Turn one chart builder into its per-language files: Vega-Lite (the source), Vega (what pages
embed, so Vega-Lite is not shipped), a static SVG (no-JS fallback) and the chart's data as a
table for screen readers (the builder's `table(data, t, lang)`: {"columns": [[key, header, format]], "rows": [...]})."""
from __future__ import annotations

import importlib
import json
import re
import warnings
from pathlib import Path

import vl_convert as vlc

from scripts.charts import _palette
from scripts.common import fonts, jsonio
from scripts.common.numfmt import check_spec, d3_locale

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "generated"
VL_VERSION = "v6_4"  # the Vega-Lite schema altair 6.3 writes
_registered: set[str] = set()


def chart_font(lang: str) -> str:
    """The language's chart font (scripts/i18n/<lang>/language.yml font.chart)."""
    return fonts.family(lang)


def register_fonts(family: str) -> None:
    """Give vl-convert the pinned font files before it measures any text (once per process)."""
    if family not in _registered:
        fonts.check_no_shadowing(family)
        vlc.register_font_directory(str(fonts.folder(family)))
        _registered.add(family)


def spec_fonts(node) -> set[str]:
    """Every font family a spec names (config.font, titleFont, labelFont, mark font …)."""
    found = set()
    if isinstance(node, dict):
        for k, v in node.items():
            if isinstance(v, str) and (k == "font" or k.endswith("Font")):
                found.add(v)
            else:
                found |= spec_fonts(v)
    elif isinstance(node, list):
        for v in node:
            found |= spec_fonts(v)
    return found


def load_data(deps: list[str]) -> dict:
    return {d: jsonio.read(GEN / "data" / f"{d}.json") for d in deps}


def table_for(mod, chart: str, data: dict, t: dict, lang: str) -> dict:
    if not hasattr(mod, "table"):
        raise SystemExit(f"scripts/charts/{chart}.py: add table(data, t, lang) giving the chart's data as a table "
                         "(screen readers and no-JS readers get it under the figure)")
    tab = mod.table(data, t, lang)
    for key, _header, fmt in tab["columns"]:
        if any(key not in row for row in tab["rows"]):
            raise SystemExit(f"scripts/charts/{chart}.py: table column {key!r} is missing from some rows")
        if fmt != "s":
            check_spec(fmt)
    return tab


def spec_for(chart: str, lang: str, strings: dict) -> dict:
    mod = importlib.import_module(f"scripts.charts.{chart}")
    t = strings["charts"][chart]
    with warnings.catch_warnings():
        # One hover selection shared by several views (hover a patch or a matrix row) is deliberate.
        warnings.filterwarnings("ignore", message="Automatically deduplicated selection parameter")
        spec = mod.build(load_data(mod.DATA), t, lang).to_dict()
    if "description" not in spec:
        raise SystemExit(f"scripts/charts/{chart}.py: give the chart a description (its accessible name)")
    config = spec.setdefault("config", {})
    for key, value in _palette.config().items():  # the design's defaults; a builder's own config wins
        config[key] = {**value, **config.get(key, {})}
    config["font"] = chart_font(lang)
    # No ARIA on individual marks: the chart is one named figure whose data is in the table under it
    # (assets/js/charts.js hides the drawing from screen readers; per-mark roles would be noise).
    spec["config"]["aria"] = False
    return spec


def follow_page_colours(node):
    """Let the page's palette colour the chart: Vega-Lite writes a white background and plain black
    text (fill {"value": "black"}); the SVG renderer resolves "currentColor" to the page's text
    colour, so text stays readable in dark mode. Conditional fills (lists) are left alone — a chart
    that needs dark text on light cells says so with a condition or a colour other than "black"."""
    for d in _dicts(node):
        if d.get("fill") == {"value": "black"}:
            d["fill"] = {"value": "currentColor"}
    return node


def _nodes(node):
    """Every node of a spec (dicts, lists, strings, numbers), outermost first: each is yielded before its
    values are walked, so a caller may replace a dict's entries."""
    yield node
    for v in node.values() if isinstance(node, dict) else node if isinstance(node, list) else ():
        yield from _nodes(v)


def _dicts(node):
    """Every dict in a spec, outermost first (see _nodes)."""
    return (n for n in _nodes(node) if isinstance(n, dict))


_BARE_DATUM = re.compile(r"(?<![.\w])datum\[")


def fix_nearest_tooltips(node):
    """A nearest-point selection hovers an invisible Voronoi cell whose datum wraps the point's
    (datum.datum); Vega-Lite 6 reads a tooltip's formatted fields through the wrapper but a nominal
    field without a format from the cell itself, so it showed «undefined». Read every field of such a
    tooltip through the wrapper."""
    for d in _dicts(node):
        tip = d.get("tooltip")
        if isinstance(tip, dict) and isinstance(tip.get("signal"), str) and "datum.datum[" in tip["signal"]:
            tip["signal"] = _BARE_DATUM.sub("datum.datum[", tip["signal"])
    return node


def stable_svg(svg: str) -> str:
    """vl-convert numbers clip paths and gradients with counters that run across renders in one
    process, so a chart could get other ids depending on what was rendered before it: renumber
    each kind in order of first appearance."""
    order: dict[tuple[str, str], str] = {}
    token = re.compile(r"\b(clip|gradient_|pattern_)(\d+)\b")

    def renumber(m: re.Match) -> str:
        key = (m.group(1), m.group(2))
        if key not in order:
            order[key] = str(sum(1 for k in order if k[0] == key[0]) + (0 if key[0] != "clip" else 1))
        return m.group(1) + order[key]
    svg = token.sub(renumber, svg)
    return svg if svg.endswith("\n") else svg + "\n"


def render(chart: str, lang: str, strings: dict) -> dict:
    """Write the three files; return {relative path: sha256} for the manifest."""
    spec = spec_for(chart, lang, strings)
    for family in sorted(spec_fonts(spec)):  # every font the drawing uses comes from a pinned file
        register_fonts(family)
    mod = importlib.import_module(f"scripts.charts.{chart}")
    tab = table_for(mod, chart, load_data(mod.DATA), strings["charts"][chart], lang)
    vega = fix_nearest_tooltips(follow_page_colours(vlc.vegalite_to_vega(spec, vl_version=VL_VERSION)))
    vega.pop("background", None)  # transparent: the page's background shows through
    # Lay the view out again on every update, not only on the first: a readout that takes more lines
    # when the width is known or a control changes it (_kit.fit), or labels that stand upright, grow the
    # chart instead of running out of it.
    auto = vega.get("autosize", "pad")
    vega["autosize"] = dict({"type": auto} if isinstance(auto, str) else auto, resize=True)
    vega.get("config", {}).pop("range", None)  # the page's scheme gives the series colours (charts.js themeConfig)
    static = dict(spec, width=640)  # the container width is unknown outside a page
    svg = vlc.vegalite_to_svg(static, vl_version=VL_VERSION, format_locale=d3_locale(lang))
    out = {}
    folder = GEN / "charts" / lang
    for name, text in ((f"{chart}.json", jsonio.dumps(spec, round_floats=False)),
                       (f"{chart}.vg.json", jsonio.dumps(vega, round_floats=False)),
                       (f"{chart}.table.json", jsonio.dumps(tab)),
                       (f"{chart}.svg", stable_svg(svg))):
        path = folder / name
        jsonio.write_if_changed(path, text)
        out[str(path.relative_to(ROOT))] = jsonio.sha256(text)
    return out
