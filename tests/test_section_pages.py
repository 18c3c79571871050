"""Short pages, one idea each (issue 22): every page of a chapter, as built (before any chart draws), holds at
most 3 000 elements, and a section page at most 1 800 words of main text in the default language (collapsed
blocks, exercises, provenance, code, formulas and charts are not main text). Formulas on a page whose
language writes other digits show those digits (course_build/katex.py)."""
import re
from html.parser import HTMLParser

import pytest

from conftest import LANGS, LESSON_PAGES
from scripts.common import course

MAX_ELEMENTS = 3000
MAX_WORDS = 1800
# what a reader does not read on the main path
SKIP_CLASSES = ("exercise", "provenance", "katex", "chart", "highlight", "source-note", "vega")
SKIP_TAGS = {"details", "code", "pre", "script", "style", "math", "svg", "nav", "template", "figure"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class PageSize(HTMLParser):
    """Elements of the whole page; words of the article's main text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = self.words = 0
        self.stack: list[tuple[str, bool, bool]] = []   # (tag, starts a skipped subtree, opens the article)
        self.skipping = self.in_article = 0

    def handle_starttag(self, tag, attrs):
        self.elements += 1
        if tag in VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        skip = tag in SKIP_TAGS or any(c.startswith(SKIP_CLASSES) for c in classes)
        article = tag == "article"
        self.stack.append((tag, skip, article))
        self.skipping += skip
        self.in_article += article

    def handle_startendtag(self, tag, attrs):
        self.elements += 1

    def handle_endtag(self, tag):
        while self.stack:
            t, skip, article = self.stack.pop()
            self.skipping -= skip
            self.in_article -= article
            if t == tag:
                break

    def handle_data(self, data):
        if self.in_article and not self.skipping:
            self.words += sum(any(ch.isalnum() for ch in w) for w in data.split())


def size(site_dir, lang: str, page: str) -> PageSize:
    counter = PageSize()
    counter.feed((site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8"))
    return counter


@pytest.mark.parametrize("lang", LANGS)
def test_every_chapter_page_is_short(site_dir, lang):
    default = course.default_language().code
    over = []
    for page in LESSON_PAGES:
        s = size(site_dir, lang, page)
        if s.elements > MAX_ELEMENTS:
            over.append(f"{page}: {s.elements} elements (at most {MAX_ELEMENTS})")
        if lang == default and course.chapter_of(page) != page and s.words > MAX_WORDS:
            over.append(f"{page}: {s.words} words of main text (at most {MAX_WORDS}; collapse lab notes "
                        "in ??? note, or split the section)")
    assert not over, f"{lang}: " + "; ".join(over)


def test_the_counter_counts_main_text_only():
    c = PageSize()
    c.feed('<div><article><p>one two, 3</p><details><p>hidden words</p></details>'
           '<span class="katex"><math><mi>x</mi></math></span><br><p>four</p></article><p>outside</p></div>')
    assert c.words == 4 and c.elements == 11


@pytest.mark.parametrize("lang", [code for code in LANGS if course.language(code).numerals != "0123456789"])
def test_formulas_show_the_languages_digits(site_dir, lang):
    """Inside every rendered formula (MathML, not its TeX annotation) the digits are the language's."""

    found = []
    for page in LESSON_PAGES:
        html = (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")
        for math in re.findall(r"<math\b.*?</math>", html, re.S):
            drawn = re.sub(r"<annotation\b.*?</annotation>", "", math, flags=re.S)
            text = re.sub(r"<[^>]+>", "", drawn)
            if re.search(r"[0-9]", text):
                found.append(f"{page}: {text[:60]!r}")
    assert not found, f"{lang}: Latin digits inside formulas: {found[:5]} ({len(found)} in all)"
