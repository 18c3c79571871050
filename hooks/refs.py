"""Resolve the course's references in pages: charts, values and tables from generated/.

    {{ chart: sqrt_scaling }}                     the interactive chart (own line)
    {{ v: scaling/at.256.raw | .2f }}             one number, formatted for the page's language
    {{ table: sa_scaling/by_d | d:d var:.2f }}    a table; headers from scripts/i18n/<lang>/*.yml
    {{ download: offline }}  {{ download: pdf }}  link to the offline archive / this language's PDF,
                                                  with its size (made by tools/offline.py, tools/pdf.py)

An unknown chart, key, table header or format stops the build with the page and the id named:
a page never shows a number that did not come from scripts/.
"""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import sys
from functools import lru_cache
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
GEN = ROOT / "generated"
sys.path.insert(0, str(ROOT))
from hooks import downloads  # noqa: E402  (download entries, checked against the files)
from hooks.bidi import isolate_formulas  # noqa: E402  (√d stays √d in Persian captions and headers)
from hooks.offline import not_here_note, offline_build  # noqa: E402
from scripts.common import i18n, numfmt  # noqa: E402  (numfmt: the one place numbers get their language)

SHORTCODE = re.compile(r"\{\{\s*(?P<kind>[a-z]+)\s*:\s*(?P<ref>[^|}]+?)\s*(?:\|\s*(?P<arg>[^}]*?)\s*)?\}\}")
SLOT = re.compile(r'<div class="chart-slot" data-chart="([\w-]+)"></div>')


def page_lang(config) -> str:
    lang = config["theme"]["language"]
    if lang not in numfmt.LOCALES:
        raise PluginError(f"no number format for language {lang!r}: add it to scripts/common/numfmt.py")
    return lang


@lru_cache(maxsize=None)
def strings(lang: str) -> dict:
    return i18n.strings(lang)


@lru_cache(maxsize=None)
def dataset(name: str):
    if name.startswith("timings:"):
        path = GEN / "timings" / f"{name.split(':', 1)[1]}.json"
    else:
        path = GEN / "data" / f"{name}.json"
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def lookup(ref: str, where: str):
    """'scaling/at.256.raw' -> generated/data/scaling.json ["at"]["256"]["raw"]."""
    name, _, path = ref.partition("/")
    node = dataset(name)
    if node is None:
        raise PluginError(f"{where}: unknown data {name!r} in {{{{ … {ref} }}}}: no generated/data/{name}.json "
                          "(write scripts/experiments/{name}.py and run `make data`)")
    for part in filter(None, path.split(".")):
        if isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise PluginError(f"{where}: unknown key {ref!r}: {part!r} is not in it (see generated/data/{name}.json)")
    return node


def fmt(value, spec: str, where: str, ref: str, lang: str) -> str:
    try:
        return numfmt.fmt(value, spec or ("d" if isinstance(value, int) else ".3f"), lang)
    except (TypeError, ValueError) as err:
        raise PluginError(f"{where}: cannot format {ref!r} = {value!r} with {spec!r}: {err}") from None


def num_span(text: str) -> str:
    """A formatted number, isolated left-to-right so its sign stays put in Persian text (see course.css)."""
    return f'<span class="num">{text}</span>'


def value_html(ref: str, spec: str, where: str, lang: str) -> str:
    value = lookup(ref, where)
    if isinstance(value, str):
        return f"<bdi>{html.escape(value)}</bdi>"
    if isinstance(value, list):  # a vector: its brackets and separators are numfmt's rule, never typed
        try:
            return num_span(numfmt.vector(value, spec or ".3f", lang))
        except (TypeError, ValueError) as err:
            raise PluginError(f"{where}: cannot format {ref!r} = {value!r} as a vector with {spec!r}: {err}") from None
    return num_span(fmt(value, spec, where, ref, lang))


def table_md(ref: str, arg: str, where: str, lang: str) -> str:
    rows = lookup(ref, where)
    if not (isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows)):
        raise PluginError(f"{where}: {ref!r} is not a list of rows, so it cannot be a table")
    cols = [c.partition(":")[::2] for c in (arg or "").split()]
    if not cols:
        raise PluginError(f"{where}: table {ref!r} names no columns; write {{{{ table: {ref} | col:fmt … }}}}")
    headers = (strings(lang).get("tables") or {}).get(ref) or {}
    missing = [c for c, _ in cols if c not in headers]
    if missing:
        raise PluginError(f"{where}: table {ref!r} has no header for {missing} in scripts/i18n/{lang}/*.yml "
                          f"(tables: \"{ref}\": …)")
    lines = ["| " + " | ".join(headers[c] for c, _ in cols) + " |",
             "|" + "|".join("---" if spec == "s" else "--:" for _, spec in cols) + "|"]
    for i, row in enumerate(rows):
        cells = []
        for c, spec in cols:
            if c not in row:
                raise PluginError(f"{where}: table {ref!r} row {i} has no column {c!r}")
            v = row[c]
            cells.append(html.escape(str(v)) if spec == "s" or isinstance(v, str)
                         else num_span(fmt(v, spec, where, f"{ref}.{i}.{c}", lang)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def download_md(ref: str, where: str, lang: str, page) -> str:
    """A link to a file made before this build (offline archive, PDF), with its size and pages."""
    ui = strings(lang)["ui"]["downloads"]
    key = f"pdf-{lang}" if ref == "pdf" else ref
    if ref not in ("offline", "pdf"):
        raise PluginError(f"{where}: unknown download {ref!r}; use offline or pdf")
    item = None if offline_build() else downloads.item(key)  # size and pages read from the file itself
    if item is None:
        if os.environ.get("REQUIRE_DOWNLOADS"):
            raise PluginError(f"{where}: {key} has not been made yet: run `make site` (tools/offline.py, tools/pdf.py)")
        return not_here_note(ui, page)  # the offline copy itself, or a build without downloads
    mb = numfmt.fmt(item["bytes"] / 1e6, ".1f", lang)
    extra = ui["size"].format(mb=mb)
    if "pages" in item:
        extra += ui["pages"].format(n=numfmt.fmt(item["pages"], "d", lang))
    url = get_relative_url(f"downloads/{item['file']}", page.url)
    # raw HTML: the file is not a docs page, so mkdocs must not try to validate the link
    return f'<a href="{url}" download="{item["file"]}">{html.escape(ui[ref])}</a> ({extra})'


def attr(text: str) -> str:
    """Text for a single-quoted attribute: JSON's many double quotes stay as they are (a spec is
    about a third smaller than with &quot; everywhere)."""
    return html.escape(text, quote=False).replace("'", "&#39;")


def chart_files(chart: str, lang: str) -> Path:
    return GEN / "charts" / lang / f"{chart}.vg.json"


def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    lang = page_lang(config)
    where = f"docs/{lang}/{page.file.src_uri}" if not page.file.src_uri.startswith(lang + "/") else f"docs/{page.file.src_uri}"

    def sub(m: re.Match) -> str:
        kind, ref, arg = m["kind"], m["ref"].strip(), (m["arg"] or "").strip()
        if kind == "v":
            return value_html(ref, arg, where, lang)
        if kind == "table":
            return "\n" + table_md(ref, arg, where, lang) + "\n"
        if kind == "chart":
            if not chart_files(ref, lang).exists():
                raise PluginError(f"{where}: unknown chart {ref!r}: no generated/charts/{lang}/{ref}.vg.json "
                                  f"(write scripts/charts/{ref}.py and run `make data`)")
            return f'\n<div class="chart-slot" data-chart="{ref}"></div>\n'
        if kind == "download":
            return download_md(ref, where, lang, page)
        raise PluginError(f"{where}: unknown shortcode {{{{ {kind}: … }}}}; use chart, v, table or download")

    out = SHORTCODE.sub(sub, markdown)
    left = re.search(r"\{\{.*?\}\}", out)
    if left:
        raise PluginError(f"{where}: malformed reference {left.group(0)!r}; see hooks/refs.py for the forms")
    return out


@event_priority(50)  # before anything that copies page content (print page, search index)
def on_page_content(content: str, page, config, files, **kwargs) -> str:
    lang = page_lang(config)
    ui = strings(lang)["ui"]

    def figure(m: re.Match) -> str:
        chart = m.group(1)
        t = strings(lang)["charts"][chart]
        spec = chart_files(chart, lang).read_text(encoding="utf-8")
        svg = get_relative_url(f"assets/charts/{lang}/{chart}.svg", page.url)
        opts = {"locale": numfmt.d3_locale(lang), "actions": ui["actions"], "menu": ui["chart_menu"],
                "font": ui["chart_font"]}  # the pinned font the static SVG was drawn with
        title, desc = html.escape(t["title"]), isolate_formulas(" ".join(t["description"].split()))
        tab = json.loads((GEN / "charts" / lang / f"{chart}.table.json").read_text(encoding="utf-8"))
        head = "".join(f'<th scope="col">{isolate_formulas(h)}</th>' for _, h, _ in tab["columns"])
        body = "".join("<tr>" + "".join(
            f"<td>{html.escape(str(row[k])) if f == 's' else num_span(numfmt.fmt(row[k], f, lang))}</td>"
            for k, _, f in tab["columns"])
            + "</tr>" for row in tab["rows"])
        data_table = (f'<details class="chart-data abstract"><summary>{html.escape(ui["chart_data"])}</summary>'
                      f'<div class="md-typeset__table"><table><caption>{isolate_formulas(t["title"])}</caption><thead><tr>{head}</tr></thead>'
                      f'<tbody>{body}</tbody></table></div></details>')
        return (f'<figure class="chart" id="chart-{chart}">'
                f'<div class="chart-view" data-chart="{chart}" role="figure" aria-label="{title}" '
                f'aria-describedby="caption-{chart}" '
                f"data-spec='{attr(json.dumps(json.loads(spec), separators=(',', ':'), ensure_ascii=False))}' "
                f'data-opts="{html.escape(json.dumps(opts, ensure_ascii=False))}"></div>'
                f'<noscript><img src="{svg}" alt="{title}" width="640"></noscript>'
                f'{data_table}<figcaption id="caption-{chart}">{desc}</figcaption></figure>')

    page.meta["chart_scripts"] = bool(SLOT.search(content))
    return SLOT.sub(figure, content)


CHART_SCRIPTS = ("assets/vendor/vega/vega.min.js", "assets/vendor/vega/vega-embed.min.js", "assets/js/charts.js")


def on_post_page(output: str, page, config, **kwargs) -> str:
    """Only pages with a chart load the chart scripts (Vega is the heaviest thing a page can get)."""
    if not page.meta.get("chart_scripts"):
        return output
    tags = "".join(f'<script src="{get_relative_url(js, page.url)}"></script>' for js in CHART_SCRIPTS)
    return output.replace("</body>", tags + "</body>", 1)


def on_post_build(config, **kwargs) -> None:
    """Copy each chart's static SVG next to the site's assets (no-JS fallback), and the downloads."""
    site = Path(config["site_dir"])
    for item in ([] if offline_build() else downloads.all_items()):  # the offline copy must not hold the previous archive
        src, dest = item["path"], site / "downloads" / item["file"]
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    for svg in GEN.glob("charts/*/*.svg"):
        dest = site / "assets" / "charts" / svg.parent.name / svg.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        if not dest.exists() or dest.read_bytes() != svg.read_bytes():
            dest.write_bytes(svg.read_bytes())

