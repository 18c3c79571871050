"""Pointer-aware wording (issue 25): a sentence that tells the reader to use a chart's control reads right with
a mouse, on a touch screen and on paper.

Its wordings live with the other strings, in `pointer.say.<id>` of scripts/i18n/<lang>/pointer.yml: `hover`
(a mouse), `tap` (a finger; left out where the hover wording suits a finger too) and `print` (what the printed,
initial state of the chart shows). A page, or an exercise's words (course_build/exercises.py runs first), writes
`{{ say: <id> }}`; this stage puts all of them in the page, and the stylesheet (overrides/assets/css/course.css,
"Pointer-aware wording") shows one: `(hover: none), (pointer: coarse)` the tap wording, `@media print` (the
browser's print and the PDFs, tools/pdf.py) the print wording, else the hover wording. The hidden ones are
`display: none`, so neither a screen reader nor pdftotext meets them, and the search index leaves them out.
A chart's caption ends with `pointer.charts.<chart>` the same way (course_build/refs.py); on paper its
`print_caption` replaces the screen caption.
"""
from __future__ import annotations

import re

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from course_build.texts import strings

SAY = re.compile(r"\{\{\s*say:\s*([\w-]+)\s*\}\}")
WAYS = ("hover", "tap", "print")


def wordings(entry, where: str, what: str, need=("hover", "print")) -> dict:
    if not isinstance(entry, dict) or any(not entry.get(k) for k in need) or set(entry) - set(WAYS):
        raise PluginError(f"{where}: {what} needs {' and '.join(need)} wordings (tap optional, nothing else) "
                          "in scripts/i18n/<lang>/pointer.yml")
    return {"hover": entry["hover"], "tap": entry.get("tap") or entry["hover"], "print": entry.get("print")}


def markup(w: dict) -> str:
    """The wordings side by side; the CSS shows one. Equal hover and tap wordings share one element."""
    parts = []
    if w["tap"] == w["hover"]:
        parts.append(f'<span class="say-hover say-tap">{w["hover"]}</span>')
    else:
        parts += [f'<span class="say-hover">{w["hover"]}</span>',
                  f'<span class="say-tap" data-search-exclude>{w["tap"]}</span>']
    if w["print"] is not None:
        parts.append(f'<span class="say-print" data-search-exclude>{w["print"]}</span>')
    return f'<span class="say">{"".join(parts)}</span>'


def expand(text: str, lang: str, where: str) -> str:
    said = strings(lang)["pointer"]["say"]

    def one(m: re.Match) -> str:
        key = m.group(1)
        if key not in said:
            raise PluginError(f"{where}: {{{{ say: {key} }}}} has no wordings: add pointer.say.{key} (hover, tap, "
                              f"print) to scripts/i18n/{lang}/pointer.yml and every other language's")
        return markup(wordings(said[key], where, f"pointer.say.{key}"))
    return SAY.sub(one, text)


def chart_instruction(chart: str, lang: str) -> str:
    """What a chart's screen caption ends with (its hover and tap wordings), or nothing."""
    entry = strings(lang)["pointer"].get("charts", {}).get(chart)
    if entry is None:
        return ""
    w = wordings(entry, f"scripts/i18n/{lang}/pointer.yml", f"pointer.charts.{chart}", need=("hover",))
    return " " + markup(dict(w, print=None))


@event_priority(90)  # after course_build/exercises.py (its words may say), before course_build/refs.py
def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    if not SAY.search(markdown):
        return markdown
    lang = config["theme"]["language"]
    return expand(markdown, lang, f"docs/{lang}/{page.file.src_uri}")
