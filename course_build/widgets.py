"""{{ widget: <id> }}: a figure that computes in the page on the reader's own input (issue 26).

A chart moves through values the build chose; a widget runs one of the course's trained models on what the
reader puts in. Widgets are declared in data, not in this code: course_build/widgets.yml gives each id its
script (overrides/assets/js/<script>) and the experiments whose exported model it runs
(generated/models/<experiment>.js, written by scripts/run.py from the experiment's export()); its words are
`widgets.<id>` in scripts/i18n/<lang>/*.yml (title, description, print_caption, and `ui`: whatever the
script shows, passed to it as they are).

This stage puts a figure in the page (title and caption as a chart has; on paper the print caption, since
paper cannot be drawn on) and, in the site, copies each model file to assets/models/. A widget whose
declaration names `print: <experiment>/<key path>` (a sentence's record of generated/data: source, target,
output, correct, matrix) also gets, on paper only, that example with its numbers: the `print_example` line of
its words, then the matrix as a table (a row per written word, the source words right to left). The page's
overrides/assets/js/widgets.js loads tiny-models.js, the model and the widget's script when the figure
nears the viewport, as charts.js does with Vega: scripts, not fetches, so the offline copy works too.
"""
from __future__ import annotations

import html
import json
import re
import shutil
from functools import lru_cache
from pathlib import Path

import yaml
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from course_build import datapath
from scripts.common import course, numfmt
from course_build.texts import strings

ROOT = Path(__file__).resolve().parent.parent
WIDGET = re.compile(r"^\{\{\s*widget:\s*([\w-]+)\s*\}\}\s*$", re.M)
SLOT = re.compile(r'<div class="widget-slot" data-widget="([\w-]+)"></div>')


@lru_cache(maxsize=None)
def declared() -> dict:
    return yaml.safe_load((ROOT / "course_build" / "widgets.yml").read_text(encoding="utf-8"))


def model_script(experiment: str) -> str:
    return f"assets/models/{experiment}.js"


@event_priority(90)  # before course_build/refs.py, whose parser knows no widget
def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    lang = config["theme"]["language"]
    where = f"docs/{lang}/{page.file.src_uri}"
    found = WIDGET.findall(markdown)
    for wid in found:
        if wid not in declared():
            raise PluginError(f"{where}: {{{{ widget: {wid} }}}} is not declared: add it to course_build/widgets.yml "
                              f"(its script and models) and its words to scripts/i18n/<lang>/ (widgets.{wid})")
    page.meta["widgets"] = found
    return WIDGET.sub(lambda m: f'\n<div class="widget-slot" data-widget="{m.group(1)}"></div>\n', markdown)


@event_priority(40)
def on_page_content(content: str, page, config, files, **kwargs) -> str:
    if not SLOT.search(content):
        return content
    lang = config["theme"]["language"]

    def figure(m: re.Match) -> str:
        wid = m.group(1)
        d, t = declared()[wid], strings(lang)["widgets"][wid]
        scripts = [get_relative_url("assets/js/tiny-models.js", page.url)]
        scripts += [get_relative_url(model_script(e), page.url) for e in d["models"]]
        scripts.append(get_relative_url(f"assets/js/{d['script']}", page.url))
        opts = {"locale": numfmt.d3_locale(lang), "ui": t["ui"], "models": d["models"], "text": d.get("text")}
        example = printed_example(d, t, lang, f"docs/{lang}/{page.file.src_uri}") if d.get("print") else ""
        return (f'<figure class="widget" id="widget-{wid}" data-widget="{wid}" '
                f'data-scripts="{html.escape(json.dumps(scripts))}" '
                f'data-opts="{html.escape(json.dumps(opts, ensure_ascii=False))}">'
                f'<div class="widget-view" role="group" aria-label="{html.escape(t["title"])}"></div>{example}'
                f'<figcaption><strong>{html.escape(t["title"])}.</strong> '
                f'<span class="say-screen">{html.escape(" ".join(t["description"].split()))}</span>'
                f'<span class="say-print" data-search-exclude>{html.escape(" ".join(t["print_caption"].split()))}'
                f'</span></figcaption></figure>')
    page.meta["widget_scripts"] = True
    return SLOT.sub(figure, content)


def printed_example(d: dict, t: dict, lang: str, where: str) -> str:
    """On paper only: the declared example (a sentence's record) and its matrix, numbers in the page's digits;
    its words marked with the languages the declaration's `text` gives."""
    s = datapath.lookup(d["print"], where)
    src, tgt = (" ".join(f'{k}="{html.escape(v)}"' for k, v in d["text"][side].items()) for side in ("source", "target"))
    line = t["print_example"].format(source=f'<bdi {src}>{html.escape(s["source_text"])}</bdi>',
                                     output=f'<bdi {tgt}>{html.escape(s["output_text"])}</bdi>',
                                     verdict=html.escape(t["ui"]["right" if s["correct"] else "wrong"]))
    # the table is laid out in the page's direction: the source's words read in their own direction
    # across it (a Persian sentence right to left on a Ukrainian page too)
    same = course.language(lang).rtl == (d["text"]["source"].get("dir") == "rtl")
    cols = list(range(len(s["source"]))) if same else list(reversed(range(len(s["source"]))))
    head = "".join(f'<th scope="col" {src}>{html.escape(s["source"][j])}</th>' for j in cols)
    rows = "".join(f'<tr><th scope="row" {tgt}>{html.escape(word)}</th>'
                   + "".join(f"<td>{numfmt.fmt(row[j], '.2f', lang)}</td>" for j in cols) + "</tr>"
                   for word, row in zip(s["target"], s["matrix"]))
    return (f'<div class="widget-print" data-search-exclude><p>{line}</p>'
            f'<table class="ws-matrix"><thead><tr><th scope="col">{html.escape(t["ui"]["written"])}</th>'
            f'{head}</tr></thead><tbody>{rows}</tbody></table></div>')


def on_post_build(config, **kwargs) -> None:
    """The models the declared widgets run, beside the pages' other scripts."""
    site = Path(config["site_dir"])
    for experiment in sorted({e for d in declared().values() for e in d["models"]}):
        src = ROOT / "generated" / "models" / f"{experiment}.js"
        if not src.exists():
            raise PluginError(f"course_build/widgets.yml names {experiment}, but generated/models/{experiment}.js "
                              "is missing: define export() in the experiment and run `make data`")
        dest = site / model_script(experiment)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if not dest.exists() or dest.read_bytes() != src.read_bytes():
            shutil.copyfile(src, dest)
