"""Each chart's compiled Vega spec as a script, its data split by controls into scripts loaded on demand, and
its static SVG (what a reader without JavaScript, and the offline copy's no-script view, gets) in the site.

course_build/refs.py writes each chart's element with its key (spec_key) and its script (spec_script); charts.js
(overrides/assets/js/) loads that script when the chart nears the screen: a script, not a fetch, so file:// works.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
GEN = ROOT / "generated"


def spec_key(chart: str, lang: str) -> str:
    return f"{lang}/{chart}"


def spec_script(chart: str, lang: str) -> str:
    return f"assets/charts/{lang}/{chart}.js"


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


def write_spec_scripts(site: Path) -> None:
    """Each chart's compiled Vega spec as a script that hands it to charts.js (courseCharts.define), and
    each part of its data loaded on demand as a script beside it (courseCharts.part)."""
    def write(dest: Path, body: str) -> None:
        dest.parent.mkdir(parents=True, exist_ok=True)
        if not dest.exists() or dest.read_text(encoding="utf-8") != body:
            dest.write_text(body, encoding="utf-8")

    compact = dict(separators=(",", ":"), ensure_ascii=False)
    for vg in GEN.glob("charts/*/*.vg.json"):
        chart, lang = vg.name[:-len(".vg.json")], vg.parent.name
        spec = json.loads(vg.read_text(encoding="utf-8"))
        key = spec_key(chart, lang)
        rest = split_parts(spec, chart)
        dest = site / spec_script(chart, lang)
        write(dest, f"courseCharts.define({json.dumps(key)},{json.dumps(spec, **compact)});\n")
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
