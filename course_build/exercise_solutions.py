"""Exercise solutions load when the reader opens one (issue 12, lighter pages).

A lesson's worked solutions stay closed until asked for, yet weighed about a tenth of its HTML,
gzipped. On the site, each <details class="exercise-solution"> keeps its summary, and its body (as the
page built it: answer, numbers, formulas, provenance links) moves to `assets/solutions/<page URL>.js`, a
script that hands a page's solutions to `assets/js/exercises.js` (courseSolutions.define) when the
first one is opened: a script, not a fetch, so file:// works too. In its place the page says where a
reader without JavaScript finds it: the PDF's appendix of answers, linked (`exercises.ui.solution_elsewhere`
in scripts/i18n/<lang>/exercises.yml).

The offline copy keeps the solutions in the page (read from disk; its print pages feed the PDF's
appendix), as course_build/code_listings.py keeps code listings.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from course_build.worker_shim import offline_build
from scripts.common.jsonio import write_if_changed
from scripts.common.i18n import strings

EXERCISE_ID = re.compile(r'<div class="exercise"[^>]*? id="(exercise-[\w-]+)"')
SOLUTION = re.compile(r'(<details class="exercise-solution"[^>]*)>(\s*<summary>.*?</summary>)(.*?)(</details>)', re.S)

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
    if offline_build(config) or 'class="exercise-solution"' not in content:
        return content
    from course_build import refs  # the PDF link, with its size, as {{ download: pdf }} writes it
    ids = EXERCISE_ID.findall(content)
    found = SOLUTION.findall(content)
    if len(ids) != len(found):
        raise PluginError(f"{page.file.src_uri}: {len(ids)} exercises but {len(found)} solutions "
                          "(course_build/exercises.py writes one solution inside each exercise)")
    lang = config["theme"]["language"]
    ui = strings(lang)["exercises"]["ui"]
    pdf = refs.download_md("pdf", page.file.src_uri, lang, page, config)
    elsewhere = (f'<p class="exercise-solution-elsewhere">'
                 f'{html.escape(ui["solution_elsewhere"].format(answers=ui["answers"]))} {pdf}</p>')
    path = script_path(page)
    src = html.escape(get_relative_url(path, page.url))
    bodies = _solutions.setdefault(path, {})
    order = iter(ids)

    def solution(m: re.Match) -> str:
        start, summary, body, end = m.groups()
        ex = next(order)
        bodies[ex] = body
        return f'{start} data-src="{src}">{summary}{elsewhere}{end}'

    return SOLUTION.sub(solution, content)


def on_post_build(config, **kwargs) -> None:
    if offline_build(config):
        return
    site = Path(config["site_dir"])
    for path, bodies in sorted(_solutions.items()):
        body = f"courseSolutions.define({json.dumps(bodies, ensure_ascii=False, sort_keys=True)});\n"
        write_if_changed(site / path, body)
