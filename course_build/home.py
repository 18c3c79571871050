"""The course at a glance: `{{ lessons }}` (own line, on the home page) → one card per lesson.

Each card: the lesson's number and title, its one-line promise (front matter `promise:` of the lesson's
page in that language), a preview (the static SVG of its first chart, or of the chart its front matter
names with `preview:`), its reading time (its words in that language over the language's reading speed,
`reading_wpm` in scripts/i18n/<lang>/language.yml), its number of interactive figures, and how many
experiments computed its numbers (a link to its provenance section).
Lessons come from the course model (scripts/common/course.py), in nav order; their figures and words
are read from the lesson pages as mkdocs rendered them in this build (mkdocs renders every page's
content before it writes any page, so the home page, written first, already sees them).
"""
from __future__ import annotations

import html
import math
import re
from html.parser import HTMLParser
from pathlib import Path

import yaml
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
from course_build import refparse
from course_build.bidi import isolate_formulas  # √d stays √d in a Persian promise
from scripts.common import course, numfmt
from course_build.texts import strings

SLOT = '<div class="lesson-cards" data-lessons-slot></div>'
OWN_LINE = re.compile(r"^\{\{\s*lessons\s*\}\}[ \t]*$", re.M)
# lessons (chapters) seen in this build: (language, lesson) -> what its overview gives its card
_SEEN: dict[tuple[str, str], dict] = {}
# every page of a chapter seen in this build: (language, page) -> what it adds to its chapter's card
_PAGES: dict[tuple[str, str], dict] = {}


def reset() -> None:
    """A new build starts from nothing (course_build/plugin.py calls this; `mkdocs serve` rebuilds in one process)."""
    _SEEN.clear()
    _PAGES.clear()




def _where(page, lang: str) -> str:
    uri = page.file.src_uri
    return f"docs/{uri}" if uri.startswith(lang + "/") else f"docs/{lang}/{uri}"


def _lesson(page, lang: str) -> str | None:
    """The lesson (chapter) whose overview this page is, or None."""
    name = course.page_of(page.file.src_uri, lang)
    return name if name in course.lessons() else None


def reading_wpm(lang: str) -> float:
    """The language's assumed reading speed (words a minute), from its language.yml."""
    meta_file = course.I18N / lang / "language.yml"
    meta = (yaml.safe_load(meta_file.read_text(encoding="utf-8")) or {}).get("language") or {}
    wpm = meta.get("reading_wpm")
    if not isinstance(wpm, (int, float)) or isinstance(wpm, bool) or wpm <= 0:
        raise PluginError(f"scripts/i18n/{lang}/language.yml: language: needs reading_wpm (words a minute, a "
                          "positive number) for the reading times on the home page")
    return float(wpm)


# ── words a reader reads ─────────────────────────────────────────────────────────────────────────
# A word: letters or digits, with the joiners that stay inside one (Persian zero-width non-joiner and
# short vowels, Ukrainian apostrophe, a hyphen).
WORD = re.compile(r"[\w\u0610-\u061a\u064b-\u065f\u0670\u200c\u02bc\u2019'-]+")
# Not read as prose: code, math, the chart's data tables (screen readers, no JS), scripts.
SKIP_TAGS = {"pre", "script", "style", "svg", "noscript", "template"}
SKIP_CLASSES = {"arithmatex", "katex", "chart-data", "headerlink"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []   # one entry per open element: does it hide its content?
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        classes = set((dict(attrs).get("class") or "").split())
        self.stack.append(tag in SKIP_TAGS or bool(classes & SKIP_CLASSES))

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not any(self.stack):
            self.parts.append(data)


def words(content: str) -> int:
    """Words of a lesson's rendered content a reader reads: its text, captions and exercises; not its
    code, formulas, chart data tables or the provenance part at its end (source code, for checking)."""
    from course_build.refs import before_provenance
    content = before_provenance(content)
    parser = _Text()
    parser.feed(content)
    parser.close()
    return sum(1 for w in WORD.findall(" ".join(parser.parts)) if any(c.isalnum() for c in w))


# ── handlers ────────────────────────────────────────────────────────────────────────────────────────
def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    """`{{ lessons }}` becomes a slot the cards fill once every lesson has been rendered; every other
    reference is left, as written, for course_build/refs.py."""
    def resolve(kind: str, ref: str, arg: str) -> str:
        if kind == "lessons":
            if ref or arg:
                raise refparse.RefError(f"write {{{{ lessons }}}} alone, not {{{{ lessons: {ref} | {arg} }}}}")
            return SLOT  # one line for one line: course_build/refs.py's line numbers stay right
        return "{{ " + kind + (f": {ref}" if ref else "") + (f" | {arg}" if arg else "") + " }}"
    if "lessons" not in markdown:
        return markdown
    try:
        return refparse.substitute(markdown, resolve)
    except refparse.RefError:  # course_build/refs.py reports it with page and line; the slot must not hide it
        return OWN_LINE.sub(SLOT, markdown)


@event_priority(-900)  # after course_build/refs.py made the figures and provenance, before print_pages marks the content
def on_page_content(content: str, page, config, **kwargs) -> str:
    lang = config["theme"]["language"]
    name = course.page_of(page.file.src_uri, lang)
    if name is None or course.chapter_of(name) is None:
        return content
    where = _where(page, lang)
    figures = list(page.meta.get("figures") or [])
    _PAGES[(lang, name)] = {"url": page.url, "figures": figures, "words": words(content),
                            "experiments": set(page.meta.get("experiments") or ()),  # course_build/refs.py
                            "provenance": 'id="provenance"' in content}
    lesson = _lesson(page, lang)
    if lesson is None:
        return content
    promise = page.meta.get("promise")
    if not isinstance(promise, str) or not promise.strip():
        raise PluginError(f"{where}: the front matter needs `promise:` (one line: what the lesson gives the "
                          "reader), shown on the home page's card")
    _SEEN[(lang, lesson)] = {"title": page.title, "url": page.url, "promise": " ".join(promise.split()),
                             "preview": page.meta.get("preview"), "where": where}
    return content


def chapter_card(lang: str, lesson: str) -> dict:
    """What a lesson's card shows, over its overview and every section: words, figures, experiments (each
    counted once), the preview (front matter `preview:`, or the chapter's first chart) and where its
    provenance starts (the first of its pages that has one)."""
    seen = dict(_SEEN[(lang, lesson)])
    parts = [_PAGES[(lang, p)] for p in (lesson, *course.sections(lesson)) if (lang, p) in _PAGES]
    figures = [f for part in parts for f in part["figures"]]
    preview = seen["preview"] or (figures[0] if figures else None)
    if preview is not None and preview not in figures:
        raise PluginError(f"{seen['where']}: front matter `preview: {preview}` names no chart of this chapter; its "
                          f"charts are {figures or 'none'}")
    sources = next((part["url"] for part in parts if part["provenance"]), seen["url"])
    seen.update(preview=preview, figures=len(figures), words=sum(part["words"] for part in parts),
                experiments=len(set().union(*(part["experiments"] for part in parts))), sources=sources)
    return seen


def _svg_size(path: Path) -> tuple[str, str]:
    head = path.read_text(encoding="utf-8")[:600]
    m = re.search(r'<svg[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"', head)
    if not m:
        raise PluginError(f"{path.relative_to(ROOT)}: no width and height on its <svg>: run `make data`")
    return m.group(1), m.group(2)


def card(i: int, lesson: str, seen: dict, lang: str, page) -> str:
    ui = strings(lang)["ui"]["home"]
    n = lambda v: numfmt.fmt(v, "d", lang)  # noqa: E731  (the page's digits)
    href = html.escape(get_relative_url(seen["url"], page.url))
    minutes = max(1, math.ceil(seen["words"] / reading_wpm(lang)))
    preview = ""
    if seen["preview"]:
        chart = seen["preview"]
        svg = ROOT / "generated" / "charts" / lang / f"{chart}.svg"
        if not svg.exists():
            raise PluginError(f"no {svg.relative_to(ROOT)} for the preview of {lesson}: run `make data`")
        w, h = _svg_size(svg)
        title = strings(lang)["charts"][chart]["title"]
        src = html.escape(get_relative_url(f"assets/charts/{lang}/{chart}.svg", page.url))
        preview = (f'<div class="lesson-card__preview"><img src="{src}" width="{w}" height="{h}" loading="lazy" '
                   f'alt="{html.escape(ui["preview"].format(title=title))}"></div>')
    sources = html.escape(get_relative_url(seen.get("sources", seen["url"]), page.url) + "#provenance")
    facts = [f'<li class="lesson-card__time">{html.escape(ui["reading"].format(minutes=n(minutes)))}</li>',
             f'<li class="lesson-card__figures">{html.escape(ui["figures"].format(n=n(seen["figures"])))}</li>',
             f'<li class="lesson-card__sources"><a href="{sources}">'
             f'{html.escape(ui["experiments"].format(n=n(seen["experiments"])))}</a></li>']
    return (f'<article class="lesson-card" data-lesson="{html.escape(lesson)}" data-words="{seen["words"]}">'
            f'{preview}<div class="lesson-card__body">'
            f'<p class="lesson-card__kicker">{html.escape(ui["lesson"].format(n=n(i)))}</p>'
            f'<h3 class="lesson-card__title"><a href="{href}">{html.escape(seen["title"])}</a></h3>'
            f'<p class="lesson-card__promise">{isolate_formulas(seen["promise"])}</p>'
            f'<ul class="lesson-card__facts">{"".join(facts)}</ul></div></article>')


@event_priority(100)  # before the search plugin indexes the page
def on_page_context(context, page, config, nav, **kwargs):
    if SLOT not in (page.content or ""):
        return context
    lang = config["theme"]["language"]
    missing = [p for p in course.lesson_pages() if (lang, p) not in _PAGES or
               (p in course.lessons() and (lang, p) not in _SEEN)]
    if missing:
        raise PluginError(f"{_where(page, lang)}: {{{{ lessons }}}}: lesson pages {missing} were not built in {lang}: "
                          f"add docs/{lang}/{course.page_file(missing[0])} (and each other one)")
    cards = "".join(card(i, lesson, chapter_card(lang, lesson), lang, page)
                    for i, lesson in enumerate(course.lessons(), 1))
    page.content = page.content.replace(SLOT, f'<div class="lesson-cards">{cards}</div>')
    return context
