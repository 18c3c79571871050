"""Exercise solutions load when the reader opens one (issue 12, lighter pages).

A lesson's worked solutions stay closed until asked for, yet weighed about a tenth of its HTML,
gzipped. On the site, each <details class="exercise-solution"> keeps its summary, and its body (as the
page built it: answer, numbers, formulas, provenance links; found between the marks course_build/exercises.py
writes, find_solutions) moves to `assets/solutions/<page URL>.js`, a script that hands a page's solutions to
`assets/js/exercises.js` (courseSolutions.define) when the first one is opened: a script, not a fetch, so
file:// works too. In its place the page says where a reader without JavaScript finds it: the PDF's appendix
of answers, linked (`exercises.ui.solution_elsewhere` in scripts/i18n/<lang>/exercises.yml); that paragraph's
data-src names the script.

The offline copy keeps the solutions, and their marks, in the page (read from disk; its print pages feed the
PDF's appendix, tools/pdf.py), as course_build/code_listings.py keeps code listings.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from course_build.exercises import find_solutions
from course_build.worker_shim import offline_build
from scripts.common.jsonio import write_if_changed
from course_build.texts import strings

_solutions: dict[str, dict[str, str]] = {}  # script path → {exercise element id: body HTML}, written by on_post_build


def reset() -> None:
    """A new build starts from nothing (course_build/plugin.py calls this; `mkdocs serve` rebuilds in one process)."""
    _solutions.clear()


def script_path(page) -> str:
    """One script per page: assets/solutions/<page URL, folders joined by '-'>.js."""
    name = page.url.strip("/").replace("/", "-") or "index"
    return f"assets/solutions/{name}.js"


@event_priority(-500)  # the written page: after course_build/katex.py rendered the solutions' formulas
def on_post_page(content: str, page, config, **kwargs) -> str:
    found = find_solutions(content)
    if offline_build(config) or not found:
        return content
    from course_build import refs  # the PDF link, with its size, as {{ download: pdf }} writes it
    lang = config["theme"]["language"]
    ui = strings(lang)["exercises"]["ui"]
    pdf = refs.download_md("pdf", page.file.src_uri, lang, page, config)
    path = script_path(page)
    src = html.escape(get_relative_url(path, page.url))
    elsewhere = (f'<p class="exercise-solution-elsewhere" data-src="{src}">'
                 f'{html.escape(ui["solution_elsewhere"].format(answers=ui["answers"]))} {pdf}</p>')
    bodies = _solutions.setdefault(path, {})
    parts, at = [], 0
    for start, end, ex_id, _, body in found:
        bodies[f"exercise-{ex_id}"] = body
        parts += [content[at:start], elsewhere]
        at = end
    return "".join(parts) + content[at:]


def on_post_build(config, **kwargs) -> None:
    if offline_build(config):
        return
    site = Path(config["site_dir"])
    for path, bodies in sorted(_solutions.items()):
        body = f"courseSolutions.define({json.dumps(bodies, ensure_ascii=False, sort_keys=True)});\n"
        write_if_changed(site / path, body)
