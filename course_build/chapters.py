"""Chapters: a lesson is a folder, its overview (`<chapter>/index.md`, front matter `lesson: true`) and its
section pages, one idea each (scripts/common/course.py reads them from the nav).

- the nav: each chapter's nav section takes its overview's heading as its title, in each language (nothing typed
  in mkdocs.yml); Material's `navigation.indexes` makes the overview the section's own page, and
  `navigation.footer` gives every page its previous/next links in reading order;
- `{{ sections }}` (own line, on an overview) → the chapter's sections: title, reading time (its words over the
  language's `reading_wpm`, as on the home page's cards) and the headings each one holds;
- old addresses: the lesson used to be one page, so `<chapter>/#<heading>` was a link. The overview carries a
  map, computed here from the sections as built (every id that one section alone holds: headings, exercises,
  figures), and a small script that sends such an address on to `<section>/#<heading>` (location.replace:
  the old address leaves no step in the history), served and from disk alike;
- progress: the overview names the exercises of its sections (ids, the same in every language), and
  assets/js/exercises.js says how many of them this browser remembers as answered right («n із m»), with a
  button that forgets them (progress_html(); nothing leaves the browser).
Every chapter page is a lesson page for the other stages (page.meta["lesson"], page.meta["chapter"]).
"""
from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority
from mkdocs.structure.nav import Section
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
from scripts.common import course, numfmt
from course_build.texts import strings

SLOT = '<div class="chapter-sections" data-sections-slot></div>'
OWN_LINE = re.compile(r"^\{\{\s*sections\s*\}\}[ \t]*$", re.M)
H1 = re.compile(r"^# (.+?)(?:\s*\{[^}]*\})?\s*$", re.M)
ID = re.compile(r'<(?:h[1-6]|div|figure|section|table)\b[^>]*\bid="([^"]+)"')
EXERCISE = re.compile(r'<div class="exercise"[^>]*>')  # course_build/exercises.py (md_in_html sorts the attributes)


def checked_exercises(content: str) -> list[str]:
    """The ids of the exercises a page checks (those with verdicts, data-ui; not derivations), in page order."""
    tags = [t for t in EXERCISE.findall(content) if " data-ui=" in t]
    return [m.group(1) for t in tags if (m := re.search(r' id="exercise-([^"]+)"', t))]
# (language, page) -> {"title", "url", "words", "ids", "headings"} of each chapter page built so far
_SEEN: dict[tuple[str, str], dict] = {}


def reset() -> None:
    """A new build starts from nothing (course_build/plugin.py calls this; `mkdocs serve` rebuilds in one process)."""
    _SEEN.clear()


def _page(page, lang: str) -> str | None:
    return course.page_of(page.file.src_uri, lang)


def heading(path: Path) -> str:
    m = H1.search(path.read_text(encoding="utf-8"))
    if not m:
        raise PluginError(f"{path.relative_to(ROOT)}: a chapter's overview needs its heading (# Title {{ #id }})")
    return m.group(1).strip()


def on_nav(nav, config, files, **kwargs):
    """Each chapter's nav section is titled by its overview's heading in the page's language."""
    lang = config["theme"]["language"]
    for item in nav.items:
        if isinstance(item, Section) and item.children and isinstance(item.children[0], Page):
            first = item.children[0]
            if course.page_of(first.file.src_uri, lang) in course.lessons():
                item.title = heading(Path(first.file.abs_src_path))
    return nav


@event_priority(100)  # before course_build/exercises.py and course_build/refs.py read the page
def _chapter_markdown(markdown: str, page, config, files, **kwargs) -> str:
    lang = config["theme"]["language"]
    name = _page(page, lang)
    chapter = course.chapter_of(name) if name else None
    if chapter is None:
        if OWN_LINE.search(markdown):
            raise PluginError(f"docs/{page.file.src_uri}: {{{{ sections }}}} belongs on a chapter's overview")
        return markdown
    page.meta["lesson"] = True
    page.meta["chapter"] = chapter
    if name == chapter:
        if not OWN_LINE.search(markdown) and course.sections(chapter):
            raise PluginError(f"docs/{page.file.src_uri}: the overview lists its sections with a "
                              "{{ sections }} line (after the introduction)")
        return OWN_LINE.sub(SLOT, markdown)
    return markdown


def _toc(items) -> list[tuple[int, str, str]]:
    out = []
    for i in items:
        out += [(i.level, i.id, i.title)] + _toc(i.children)
    return out


@event_priority(-900)  # after course_build/refs.py and course_build/exercises.py wrote the content
def on_page_content(content: str, page, config, **kwargs) -> str:
    from course_build.home import words
    lang = config["theme"]["language"]
    name = _page(page, lang)
    if name is None or course.chapter_of(name) is None:
        return content
    _SEEN[(lang, name)] = {"title": page.title, "url": page.url, "words": words(content),
                           "ids": set(ID.findall(content)), "headings": _toc(page.toc),
                           "exercises": checked_exercises(content)}
    return content


def _seen(lang: str, name: str, where: str) -> dict:
    if (lang, name) not in _SEEN:
        raise PluginError(f"{where}: the section {name} was not built in {lang}: add docs/{lang}/{course.page_file(name)}")
    return _SEEN[(lang, name)]


def sections_html(chapter: str, lang: str, page, where: str) -> str:
    ui = strings(lang)["ui"]
    wpm = _wpm(lang)
    items = []
    for name in course.sections(chapter):
        s = _seen(lang, name, where)
        href = html.escape(get_relative_url(s["url"], page.url))
        minutes = numfmt.fmt(max(1, math.ceil(s["words"] / wpm)), "d", lang)
        topics = [t for level, i, t in s["headings"] if level == 2 and i != "provenance"]
        topic = f'<span class="chapter-section__topics">{" · ".join(topics)}</span>' if topics else ""
        items.append(f'<li class="chapter-section"><a class="chapter-section__title" href="{href}">{s["title"]}</a> '
                     f'<span class="chapter-section__time">{html.escape(ui["home"]["reading"].format(minutes=minutes))}'
                     f'</span>{topic}</li>')
    return f'<ol class="chapter-sections">{"".join(items)}</ol>'


def progress_html(chapter: str, lang: str, where: str) -> str:
    """The chapter's progress, filled in by assets/js/exercises.js from what this browser remembers: the ids of
    the exercises its sections check (derivations have no answer to remember), the count's words with {m}
    written here and {n} left for the script, the page's ten digits (the script writes n with them), and the
    forget button. Hidden until the script fills it (no script: nothing to show; with scripts its place is kept
    from the first frame, course.css), out of the search index and off paper (course.css)."""
    ids = [i for name in course.sections(chapter) for i in _seen(lang, name, where)["exercises"]]
    if not ids:
        return ""
    ui = strings(lang)["ui"]["progress"]
    template = ui["count"].format(n="{n}", m=numfmt.fmt(len(ids), "d", lang))
    digits = "".join(numfmt.fmt(i, "d", lang) for i in range(10))
    attrs = {"data-exercises": json.dumps(ids, ensure_ascii=False), "data-template": template, "data-digits": digits}
    return ('<div class="chapter-progress" ' + " ".join(f'{k}="{html.escape(v)}"' for k, v in attrs.items())
            + ' data-search-exclude hidden><p><span class="chapter-progress__count" aria-live="polite">'
            # «0 of m» until the script writes n: the unseen box already as wide and tall as when filled (course.css)
            + html.escape(template.replace("{n}", digits[0])) + '</span> '
            f'<button type="button" class="md-button chapter-progress__forget">{html.escape(ui["forget"])}</button></p>'
            f'<p class="chapter-progress__where">{html.escape(ui["where"])}</p></div>')


def _wpm(lang: str) -> float:
    from course_build.home import reading_wpm
    return reading_wpm(lang)


def old_anchors(chapter: str, lang: str, page, where: str) -> dict[str, str]:
    """id -> the address of the section holding it, relative to the overview: every id one section alone holds
    and the overview does not."""
    here = _seen(lang, chapter, where)["ids"]
    holders: dict[str, list[str]] = {}
    for name in course.sections(chapter):
        for i in _seen(lang, name, where)["ids"]:
            holders.setdefault(i, []).append(name)
    return {i: get_relative_url(_SEEN[(lang, names[0])]["url"], page.url)
            for i, names in sorted(holders.items()) if len(names) == 1 and i not in here}


REDIRECT = ("<script>(function(){{var m={map};function go(){{var h=location.hash,i;try{{i=decodeURIComponent("
            "h.slice(1))}}catch(e){{return}}if(Object.prototype.hasOwnProperty.call(m,i))location.replace(m[i]+h)}}"
            "go();addEventListener('hashchange',go)}})()</script>")


@event_priority(100)  # before the search plugin indexes the page
def on_page_context(context, page, config, nav, **kwargs):
    if SLOT not in (page.content or ""):
        return context
    lang = config["theme"]["language"]
    chapter = _page(page, lang)
    where = f"docs/{page.file.src_uri}"
    progress = progress_html(chapter, lang, where)
    page.content = page.content.replace(SLOT, progress + sections_html(chapter, lang, page, where))
    if progress:
        page.meta["exercises"] = True  # course_build/exercises.py then loads assets/js/exercises.js, which fills it
    page.meta["old_anchors"] = old_anchors(chapter, lang, page, f"docs/{page.file.src_uri}")
    return context


TOC_LABEL = '<label class="md-nav__title" for="__toc">'
TOC_TOGGLE = '<input class="md-nav__toggle md-toggle" type="checkbox" id="__toc">'


# a chapter's entry in the nav (navigation.indexes): the overview's link, then a label holding only the toggle's icon
NAV_ENTRY = re.compile(r'<a href="[^"]*" class="md-nav__link[^"]*">((?:(?!<a ).)*?)</a>\s*<label class="md-nav__link ?" '
                       r'for="(__nav_[\d_]+)" id="\2_label">\s*<span class="md-nav__icon md-icon"></span>\s*</label>', re.S)


def material_markup(output: str) -> str:
    """Three pieces of Material's markup that chapters bring and the checkers refuse: a section with an
    index page is titled by a <label tabindex=""> (not a number); its nav is named by that label, which holds
    only an icon (axe: navigation landmarks without a name, so not unique), so it is named by the chapter's
    title instead; on that index page the contents' label names the toggle `__toc`, which Material writes
    only for pages that are not a section's index."""
    output = output.replace(' tabindex="">', ">")
    for m in NAV_ENTRY.finditer(output):
        title = html.escape(" ".join(re.sub(r"<[^>]+>", "", m.group(1)).split()), quote=True)
        output = output.replace(f'aria-labelledby="{m.group(2)}_label"', f'aria-label="{title}"')
    if TOC_LABEL in output and 'id="__toc"' not in output:
        output = output.replace(TOC_LABEL, TOC_TOGGLE + TOC_LABEL, 1)
    return output


@event_priority(50)  # before course_build/notfound.py keeps the 404 page's output
def on_post_template(output: str, template_name: str, config, **kwargs):
    return material_markup(output) if template_name == "404.html" else output


def on_post_page(output: str, page, config, **kwargs) -> str:
    output = material_markup(output)
    anchors = page.meta.get("old_anchors")
    if not anchors:
        return output
    script = REDIRECT.format(map=json.dumps(anchors, ensure_ascii=True, separators=(",", ":")))
    head = re.search(r"<meta charset=[^>]*>", output) or re.search(r"<head[^>]*>", output)  # charset stays first
    return output[:head.end()] + script + output[head.end():]


HEADING_ID = re.compile(r"^#{1,6} .*?\{ #([\w-]+) \}\s*$", re.M)
SAME_PAGE_LINK = re.compile(r"\]\(#([\w-]+)\)")


def _holders(lang: str, chapter: str) -> dict[str, str]:
    """heading id -> the chapter page whose source holds it (the sources, as written)."""
    out = {}
    for name in (chapter, *course.sections(chapter)):
        for i in HEADING_ID.findall(course.source(lang, name).read_text(encoding="utf-8")):
            out.setdefault(i, name)
    return out


@event_priority(-100)  # after course_build/exercises.py put its questions and solutions (strings) into the page
def _links_markdown(markdown: str, page, config, files, **kwargs) -> str:
    """A link to `#heading` written for the one-page lesson (an exercise's solution names «section X») points
    at the chapter page that holds that heading, when it is not this one."""
    lang = config["theme"]["language"]
    name = course.page_of(page.file.src_uri, lang)
    chapter = course.chapter_of(name) if name else None
    if chapter is None:
        return markdown
    holders = _holders(lang, chapter)
    here = posix_dir(course.page_file(name))

    def one(m: re.Match) -> str:
        target = holders.get(m.group(1))
        if target is None or target == name:
            return m.group(0)
        import posixpath
        return f"]({posixpath.relpath(course.page_file(target), here or '.')}#{m.group(1)})"
    return SAME_PAGE_LINK.sub(one, markdown)


def posix_dir(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


on_page_markdown = CombinedEvent(_chapter_markdown, _links_markdown)
