"""Each chart as a script, its data split by controls into scripts loaded on demand, and its static SVG (what a
reader without JavaScript, and the offline copy's no-script view, gets) in the site.

course_build/refs.py writes each chart's element with its key (spec_key) and its script (spec_script); charts.js
(overrides/assets/js/) loads that script when the chart nears the screen: a script, not a fetch, so file:// works.

The script carries the chart's Vega *runtime*, not its spec (issue 25, first view): the pinned `vega` parses each
compiled spec (generated/charts/<lang>/<chart>.vg.json, its data split as below) here, with node
(tools/vega/runtime.mjs), into the dataflow Vega's View runs, so the bundle readers download holds no parser (it
was ~21 KB gzip of it; the runtime costs 1–6 KB gzip more than the spec it comes from). The chart design's config
(the language's font, the page's colours) was made in the page (charts.js) and handed to the parser there; here
it is made once with a placeholder for each colour that follows the page's palette (COLOURS), and charts.js puts
the live colours in their place before each render, as it put the text colour in place of "currentColor" for a
canvas. Runtimes are cached by content hash in .cache/vega-runtime/ (no node call when nothing changed); node
also checks each against the shipped bundle (its transforms and expression functions) and runs it there, and a
chart that fails stops the build, named.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
GEN = ROOT / "generated"
from scripts.charts import _palette  # series colours per scheme
from scripts.common import fonts
RUNTIME = ROOT / "tools" / "vega" / "runtime.mjs"
CACHE = ROOT / ".cache" / "vega-runtime"
BUNDLE = ROOT / "overrides" / "assets" / "vendor" / "vega" / "vega-course.min.js"  # tools/vendor_assets.py builds it
# Placeholders for the colours charts.js reads from the page when it draws (its `liveColours`): the text colour,
# the quieter one (subtitles, axis lines), the grid, and the series colours of the page's scheme (category-<i>:
# _palette.LIGHT or DARK). The samples are what the build's own run of each runtime puts in their place.
COLOURS = {"fg": "#000000", "fg-light": "#555555", "grid": "#dddddd",
           **{f"category-{i}": c for i, c in enumerate(_palette.LIGHT)}}


def spec_key(chart: str, lang: str) -> str:
    return f"{lang}/{chart}"


def spec_script(chart: str, lang: str) -> str:
    return f"assets/charts/{lang}/{chart}.js"


# The room a chart takes on the page before charts.js has drawn it (room) (issue 25: a chart drawn ~1 s after the text
# pushed its caption and what follows down; Lighthouse CLS 0.08–0.12 on the real-patches section): its drawing's
# height, as the static SVG drawn with the same font has it (equal to the page's within 8 px at 1280 px for every
# chart), and its controls under it (Vega's bindings, course.css: CONTROLS_PX, then CONTROL_PX each, measured at
# 1280 px: 13, 48, 78, 109 and 230 px for 0, 1, 2, 3 and 7 controls). A phone's may wrap taller; charts.js drops
# the reservation once the chart is drawn, so a reservation never leaves a gap.
CONTROLS_PX, CONTROL_PX = 13, 30


def drawn_size(chart: str, lang: str) -> tuple[int, int]:
    """The static drawing's width and height in px (the root element of generated/charts/<lang>/<chart>.svg)."""
    from xml.etree import ElementTree
    for _, root in ElementTree.iterparse(GEN / "charts" / lang / f"{chart}.svg", events=("start",)):
        return round(float(root.get("width"))), round(float(root.get("height")))
    raise PluginError(f"generated/charts/{lang}/{chart}.svg is empty: run `make data`")


def controls(spec: dict) -> int:
    """How many controls a Vega-Lite spec binds: its params with `bind`, at any depth, one control each, or one
    per field when a param binds the fields of an object value ({field: {input: …}})."""
    if isinstance(spec, dict):
        bind = spec.get("bind") if "name" in spec else None
        here = 0 if not isinstance(bind, dict) else 1 if "input" in bind else sum(
            isinstance(b, dict) and "input" in b for b in bind.values())
        return here + sum(controls(v) for k, v in spec.items() if k != "bind")
    return sum(controls(v) for v in spec) if isinstance(spec, list) else 0


def room(chart: str, lang: str) -> tuple[int, int]:
    """The static drawing's width (charts.js: does a canvas fit the column?) and the height reserved for the chart."""
    spec = json.loads((GEN / "charts" / lang / f"{chart}.json").read_text(encoding="utf-8"))
    width, height = drawn_size(chart, lang)
    return width, height + CONTROLS_PX + CONTROL_PX * controls(spec)


def split_parts(spec: dict, chart: str) -> dict:
    """A chart that declares usermeta.parts (scripts/charts/_kit.py parts_by: {dataset: [signal, …]}) keeps in
    `spec` only the rows of each split dataset for its signals' initial values; returns {part: {dataset: rows}}
    for the other values, a part named by its values joined with "." ("square", "square.2"), and names each
    part's script in usermeta.parts.files (charts.js loads it when those values are picked)."""
    parts = (spec.get("usermeta") or {}).get("parts")
    if not parts:
        return {}
    first = {s["name"]: s["value"] for s in spec.get("signals", []) if "value" in s}
    datasets = {d["name"]: d for d in spec["data"] if d["name"] in parts["data"]}
    unbound = sorted({sig for sigs in parts["data"].values() for sig in sigs} - set(first))
    if unbound or set(datasets) != set(parts["data"]):
        raise PluginError(f"{chart}: usermeta.parts splits {sorted(parts['data'])} by signals with initial values; "
                          f"the spec has datasets {sorted(datasets)} and no initial value for {unbound}: name the "
                          "datasets in the builder (alt.Data(name=…)) and split them by bound params")
    rest: dict = {}
    for name, d in datasets.items():
        signals, keep = parts["data"][name], []
        for row in d["values"]:
            values = [row[sig] for sig in signals]
            if values == [first[sig] for sig in signals]:
                keep.append(row)
                continue
            if not all(re.fullmatch(r"[\w-]+", str(v)) for v in values):
                raise PluginError(f"{chart}: the values {values} of {name} cannot name a file; use letters, digits, "
                                  "- or _")
            rest.setdefault(".".join(map(str, values)), {}).setdefault(name, []).append(row)
        d["values"] = keep
    parts["files"] = {part: f"{chart}.{part}.js" for part in sorted(rest)}
    return rest


def placeholder(name: str) -> str:
    return f"%{name}%"


def chart_config(lang: str) -> dict:
    """The chart design in the page (Vega's config, merged under each spec's own): text in the page's colours,
    series colours of its scheme, a plot frame as quiet as the grid, the language's chart font; each page colour
    a placeholder (COLOURS)."""
    assert len(_palette.LIGHT) == len(_palette.DARK), "scripts/charts/_palette.py: LIGHT and DARK differ in length"
    font = fonts.family(lang)  # the pinned font the static SVG was drawn with
    fg, fg_light, grid = placeholder("fg"), placeholder("fg-light"), placeholder("grid")
    return {
        "background": None,
        "font": font,
        "title": {"color": fg, "subtitleColor": fg_light, "font": font},
        "axis": {"labelColor": fg, "titleColor": fg, "domainColor": fg_light, "tickColor": fg_light,
                 "gridColor": grid, "labelFont": font, "titleFont": font},
        "legend": {"labelColor": fg, "titleColor": fg, "labelFont": font, "titleFont": font},
        "header": {"labelColor": fg, "titleColor": fg, "labelFont": font, "titleFont": font},
        "text": {"fill": fg, "font": font},
        "view": {"stroke": grid},
        "range": {"category": [placeholder(f"category-{i}") for i in range(len(_palette.LIGHT))]},
    }


def runtimes(specs: dict[str, tuple[dict, str]]) -> dict[str, str]:
    """{key: (spec, lang)} → {key: the runtime's JSON text}, from the cache or one node run for those not in it."""
    bundle = BUNDLE
    if not bundle.exists():
        raise PluginError(f"{bundle.relative_to(ROOT)} is missing: run `make assets` (tools/vendor_assets.py)")
    # what a runtime depends on besides its spec and config: the parser (every installed npm package), this
    # step's script and the bundle it is checked against
    made_by = hashlib.sha256(b"\0".join(p.read_bytes() for p in (
        ROOT / "node_modules" / ".package-lock.json", RUNTIME, bundle))).hexdigest()
    out, todo = {}, {}
    for key, (spec, lang) in specs.items():
        text = json.dumps(spec, sort_keys=True)
        clash = [p for p in map(placeholder, COLOURS) if p in text]
        if clash:
            raise PluginError(f"{key}: the spec holds {clash}, which charts.js would take for a page colour")
        config = chart_config(lang)
        digest = hashlib.sha256(f"{made_by}\0{text}\0{json.dumps(config, sort_keys=True)}".encode()).hexdigest()
        cached = CACHE / f"{digest}.json"
        if cached.exists():
            out[key] = cached.read_text(encoding="utf-8")
        else:
            todo[key] = (cached, {"spec": spec, "config": config,
                                  "values": {placeholder(k): v for k, v in COLOURS.items()}})
    if todo:
        node = shutil.which("node")
        if not node:
            raise PluginError("node is missing (Debian: apt-get install nodejs): charts are parsed with it")
        payload = json.dumps({"bundle": str(bundle), "charts": {k: v for k, (_, v) in todo.items()}})
        proc = subprocess.run([node, str(RUNTIME)], input=payload, capture_output=True, text=True, cwd=ROOT)
        if proc.returncode:
            raise PluginError(proc.stderr.strip()[-4000:] or f"{RUNTIME.relative_to(ROOT)} failed")
        made = json.loads(proc.stdout)
        CACHE.mkdir(parents=True, exist_ok=True)
        for key, (cached, _) in todo.items():
            tmp = cached.with_suffix(".tmp")
            tmp.write_text(made[key], encoding="utf-8")
            tmp.replace(cached)
            out[key] = made[key]
    return out


def specs_with_config(specs: dict[str, tuple[dict, str]]) -> dict[str, str]:
    """{key: (spec, lang)} → {key: the spec's JSON text with the chart design merged under its own config}: what
    a stock vega-embed, which parses in the browser, is handed in runtimes' place (tools/bench.py --stock)."""
    def merged(base: dict, own: dict) -> dict:
        out = dict(base)
        for k, v in own.items():
            out[k] = merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
        return out
    return {key: json.dumps({**spec, "config": merged(chart_config(lang), spec.get("config") or {})},
                            separators=(",", ":"), ensure_ascii=False)
            for key, (spec, lang) in specs.items()}


def write_spec_scripts(site: Path, parse=runtimes) -> None:
    """Each chart's runtime (`parse`: runtimes, or specs_with_config for a copy that parses in the browser), with
    its usermeta (charts.js reads its renderer and parts there), as a script that hands it to charts.js
    (courseCharts.define), and each part of its data loaded on demand as a script beside it (courseCharts.part)."""
    def write(dest: Path, body: str) -> None:
        dest.parent.mkdir(parents=True, exist_ok=True)
        if not dest.exists() or dest.read_text(encoding="utf-8") != body:
            dest.write_text(body, encoding="utf-8")

    compact = dict(separators=(",", ":"), ensure_ascii=False)
    charts = {}
    for vg in sorted(GEN.glob("charts/*/*.vg.json")):
        chart, lang = vg.name[:-len(".vg.json")], vg.parent.name
        spec = json.loads(vg.read_text(encoding="utf-8"))
        rest = split_parts(spec, chart)
        charts[spec_key(chart, lang)] = (chart, lang, spec, rest)
    made = parse({key: (spec, lang) for key, (_, lang, spec, _) in charts.items()})
    for key, (chart, lang, spec, rest) in charts.items():
        dest = site / spec_script(chart, lang)
        usermeta = json.dumps(spec.get("usermeta") or {}, **compact)
        write(dest, f'courseCharts.define({json.dumps(key)},{{"usermeta":{usermeta},"runtime":{made[key]}}});\n')
        files = rest and spec["usermeta"]["parts"]["files"]
        for part, data in rest.items():
            write(dest.parent / files[part],
                  f"courseCharts.part({json.dumps(key)},{json.dumps(part)},{json.dumps(data, **compact)});\n")


def on_post_build(config, **kwargs) -> None:
    site = Path(config["site_dir"])
    write_spec_scripts(site)
    for svg in GEN.glob("charts/*/*.svg"):
        dest = site / "assets" / "charts" / svg.parent.name / svg.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if not dest.exists() or dest.read_bytes() != svg.read_bytes():
            dest.write_bytes(svg.read_bytes())
