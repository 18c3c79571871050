"""Lesson text below its first heading is laid out when the reader gets near it (issue 12, Lighthouse ≥ 97).

A lesson holds ~16 000 elements (KaTeX's HTML and MathML of every formula, tables, solutions); every style
recalculation and layout Material's scripts force touched all of them on a phone's CPU. Here the blocks
between two headings are wrapped in <div class="cv">, which course.css gives `content-visibility: auto`:
the browser skips style and layout of a block far from the viewport and keeps a placeholder height for it.
Headings stay outside the blocks, so the table of contents, in-page links and Material's scroll-spy read
real heading positions without laying out the text around them. What the reader sees first is not
wrapped: the text before the first heading and any block that begins within a phone screen of text. A
skipped block is first drawn a frame after the page, so one on the first screen would hold back the
page's largest paint (Lighthouse's LCP was the first paragraph of such a block on the cross-attention pages). Find-in-page, anchors and focus reveal a skipped block by
themselves; print CSS turns skipping off (everything is shown on paper). The last block, next to the footer,
is not wrapped.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parent.parent
from scripts.common import course

HEADING = re.compile(r"h[1-6]$")  # the title (h1) and its introduction stay as they are
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
OPEN, CLOSE = '<div class="cv" style="--cv-chars: {chars}; --cv-fixed: {fixed:g}">', "</div>"
# A block's placeholder height before it is first shown (course.css turns these into a length): its text
# (formulas by their TeX source: KaTeX renders them later, course_build/katex.py) and, in rem, what does not flow
# as text. Rough on purpose: the scroll bar and in-page links only need the page about as long as it will be.
TAG = re.compile(r"<[^>]+>")
FIRST_SCREEN_CHARS = 1500  # characters of text a 390 px phone shows on its first screen, under the header
FIXED_REM = (("<figure", 24), ("<tr", 1.9), ('<div class="arithmatex"', 4), ("<details", 2.2), ("<p", 1.6),
             ("<li", .4), ("<section", 3), ("<pre", 3))


def text_chars(html: str) -> int:
    """Characters of running text in an HTML fragment (tags dropped, white space collapsed)."""
    return len(" ".join(TAG.sub(" ", html).split()))


def estimate(block: str) -> tuple[int, float]:
    """(characters of running text, rem of figures, table rows, display formulas, margins) of a block."""
    return text_chars(block), round(sum(block.count(tag) * rem for tag, rem in FIXED_REM), 1)


class _TopLevel(HTMLParser):
    """Offsets of the top-level elements of an HTML fragment: (start, end, tag)."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.depth, self.start, self.tag, self.found, self.broken = 0, 0, "", [], False

    def _at(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag, attrs):
        if self.depth == 0:
            self.start, self.tag = self._at(), tag
        if tag in VOID:
            if self.depth == 0:
                self.found.append((self.start, self._at() + len(self.get_starttag_text()), tag))
            return
        self.depth += 1

    def handle_startendtag(self, tag, attrs):
        if self.depth == 0:
            at = self._at()
            self.found.append((at, at + len(self.get_starttag_text()), tag))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.depth == 0:
            self.broken = True
            return
        self.depth -= 1
        if self.depth == 0:
            end = self._at()
            end = self.rawdata.index(">", end) + 1
            self.found.append((self.start, end, self.tag))


def wrap(content: str, first_screen: int = FIRST_SCREEN_CHARS) -> str:
    """The fragment with each run of top-level blocks after a heading, up to the next heading, in a div.cv;
    a run that begins within the first `first_screen` characters of text is left as it is."""
    parser = _TopLevel(content)
    parser.feed(content)
    parser.close()
    if parser.depth != 0 or parser.broken:
        return content  # markup this simple reading cannot follow (a tag left open, say): left as it is, unwrapped
    runs, current, seen_heading = [], None, False   # runs: [start, end] of the blocks between headings
    for start, end, tag in parser.found:
        if HEADING.match(tag):
            current, seen_heading = None, seen_heading or tag != "h1"
        elif seen_heading:
            if current is None:
                current = [start, end]
                runs.append(current)
            current[1] = end
    # The last run is laid out for real: a skipped block's content can run past its rough placeholder, and
    # past the last one it would sit on the footer (axe then reads the footer's dark colour behind it).
    out, pos, past_first_screen = [], 0, False
    for start, end in runs[:-1]:
        past_first_screen = past_first_screen or text_chars(content[:start]) >= first_screen  # runs come in order
        if not past_first_screen:
            continue
        chars, fixed = estimate(content[start:end])
        out += [content[pos:start], OPEN.format(chars=chars, fixed=fixed), content[start:end], CLOSE]
        pos = end
    return "".join(out) + content[pos:]


def _lesson(page, lang: str) -> bool:
    name = course.page_of(page.file.src_uri, lang)
    return bool(name and course.chapter_of(name))


@event_priority(-950)  # after every step that writes the content, before course_build/print_pages.py marks it (-1000)
def on_page_content(content: str, page, config, **kwargs) -> str:
    if not _lesson(page, config["theme"]["language"]):
        return content
    out = wrap(content)
    page.meta["lesson_blocks"] = out != content  # overrides/main.html adds assets/js/lesson-blocks.js
    return out
