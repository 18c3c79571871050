"""The glossary: the same terms with the same anchors in every language, each linked to the section that
introduces it, and no term that no lesson uses."""
import re

import pytest

from conftest import ROOT
from scripts.common import course

LANGS = [lang.code for lang in course.languages()]
ROW = re.compile(r'^\| (?P<term>[^|]+?) \|.*<bdi lang="en">(?P<en>[^<]+)</bdi> \| \[[^\]]+\]\((?P<file>[\w/-]+)\.md#(?P<anchor>[\w-]+)\) \|$', re.M)
HEADING = re.compile(r"^(#+) .*?\{ #([\w-]+) \}", re.M)


def rows(lang):
    text = (ROOT / "docs" / lang / "glossary.md").read_text(encoding="utf-8")
    found = [dict(m.groupdict(), page=course.page_name(m["file"] + ".md")) for m in ROW.finditer(text)]
    assert found, f"docs/{lang}/glossary.md: no rows found"
    return found


def section(lang, page, anchor):
    """The text from the heading `anchor` to the next heading of the same or a higher level."""
    text = course.source(lang, page).read_text(encoding="utf-8")
    heads = list(HEADING.finditer(text))
    for i, m in enumerate(heads):
        if m.group(2) == anchor:
            level = len(m.group(1))
            end = next((h.start() for h in heads[i + 1:] if len(h.group(1)) <= level and level > 1), len(text))
            return text[m.start():end]
    return None


@pytest.mark.parametrize("lang", LANGS)
def test_same_terms_and_anchors_in_every_language(lang):
    ours, theirs = rows(course.default_language().code), rows(lang)
    assert [(r["en"], r["page"], r["anchor"]) for r in ours] == [(r["en"], r["page"], r["anchor"]) for r in theirs]


@pytest.mark.parametrize("lang", LANGS)
def test_each_term_is_used_where_its_link_points(lang):
    """The linked section exists and uses the term (its first word's stem: lessons inflect it)."""
    missing = []
    for r in rows(lang):
        assert course.chapter_of(r["page"]), f"{lang}: {r['term']} links to {r['page']}, not a chapter page"
        text = section(lang, r["page"], r["anchor"])
        assert text is not None, f"{lang}: {r['term']}: no section #{r['anchor']} in {r['page']}.md"
        word = r["term"].split()[0].rstrip("\u0654")   # Persian ezafe (ـٔ) goes with the inflection
        stem = word[:max(4, len(word) - 2)] if word.isalpha() and len(word) >= 5 else word
        if stem.lower() not in text.lower():
            missing.append(f"«{r['term']}» ({stem}) in {r['page']}.md#{r['anchor']}")
    assert not missing, f"{lang}: glossary terms not used where they link: {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_terms_come_lesson_by_lesson_in_the_order_the_lessons_introduce_them(lang):
    """What the page's first paragraph says: a table per lesson under a heading #terms-<lesson>, the lessons in
    the course's order (a lesson that brings no term has none), and in each table the terms in the order of the
    pages that explain them."""
    text = (ROOT / "docs" / lang / "glossary.md").read_text(encoding="utf-8")
    parts = re.split(r"^### .*?\{ #terms-([\w-]+) \}$", text, flags=re.M)[1:]
    headed = parts[::2]
    assert headed and headed == [lesson for lesson in course.lessons() if lesson in headed], \
        f"docs/{lang}/glossary.md: one heading per lesson, in the course's order: {headed}"
    for lesson, body in zip(headed, parts[1::2]):
        order = (lesson, *course.sections(lesson))
        found = [course.page_name(m["file"] + ".md") for m in ROW.finditer(body)]
        assert found and all(course.chapter_of(p) == lesson for p in found), f"{lang} #terms-{lesson}: {found}"
        assert [order.index(p) for p in found] == sorted(order.index(p) for p in found), \
            f"{lang} #terms-{lesson}: not in the order of the lesson's pages: {found}"
