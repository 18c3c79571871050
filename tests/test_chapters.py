"""Lessons are chapters (an overview and section pages): every heading a lesson had keeps its id, and an old
address of the one-page lesson (`<chapter>/#<heading>`) lands on the section page that now holds that heading,
served and from the offline copy on disk, in every language (course_build/chapters.py)."""
import re

import pytest

from conftest import LANGS, local_url, page_url
from scripts.common import course

HEADING = re.compile(r"^#{1,6} .*?\{ #([\w-]+) \}\s*$", re.M)


def heading_ids(lang: str, page: str) -> list[str]:
    return HEADING.findall(course.source(lang, page).read_text(encoding="utf-8"))


def moved(lang: str) -> list[tuple[str, str, str]]:
    """(chapter, section, heading id) of every heading on a section page."""
    return [(chapter, section, i) for chapter in course.lessons() for section in course.sections(chapter)
            for i in heading_ids(lang, section)]


@pytest.mark.parametrize("lang", LANGS)
def test_every_heading_id_is_on_one_page_of_its_chapter_and_the_same_in_every_language(lang):
    default = course.default_language().code
    for chapter in course.lessons():
        ids = [i for p in (chapter, *course.sections(chapter)) for i in heading_ids(lang, p)]
        assert len(ids) == len(set(ids)), f"{lang}/{chapter}: a heading id on two pages"
        for p in (chapter, *course.sections(chapter)):
            assert heading_ids(lang, p) == heading_ids(default, p), f"{lang}/{p}: heading ids differ from {default}"


def documents_only(route):
    """The redirect is an inline script at the top of the overview: the pages' scripts, styles, fonts and images
    are not fetched (most of a page load's work)."""
    return route.continue_() if route.request.resource_type == "document" else route.abort()


def follow_old_anchors(p, lang: str, url) -> None:
    """Open every old `<chapter>/#<heading>` address (url(page) gives a page's address) and wait until the
    overview's redirect asks for the section that holds the heading (the section's document is answered empty:
    each section page is then opened once, for all its headings); each heading is on its section page."""
    headings = moved(lang)
    by_section = {}
    for _, section, i in headings:
        by_section.setdefault(url(section), []).append(i)
    is_section = lambda address: address.split("#")[0] in by_section  # noqa: E731
    p.route("**/*", documents_only)
    p.route(is_section, lambda route: route.fulfill(body=""))
    for chapter, section, i in headings:
        p.goto(f"{url(chapter)}#{i}", wait_until="commit")
        p.wait_for_url(f"{url(section)}#{i}", wait_until="commit", timeout=10000)
    p.unroute(is_section)
    for address, ids in by_section.items():
        p.goto(address, wait_until="domcontentloaded")
        missing = p.evaluate("ids => ids.filter(id => !document.getElementById(id))", ids)
        assert not missing, f"{address}: no element for {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_old_lesson_anchors_land_on_their_section_served(context, base_url, lang):
    p = context.new_page()
    try:
        follow_old_anchors(p, lang, lambda page: page_url(base_url, lang, page))
        # an anchor the overview holds itself stays there
        p.goto(f"{page_url(base_url, lang, course.lessons()[0])}#references", wait_until="load")
        assert p.url.endswith(f"{course.page_path(lang, course.lessons()[0])}#references"), p.url
    finally:
        p.close()


@pytest.mark.parametrize("lang", LANGS)
def test_old_lesson_anchors_land_on_their_section_offline(context, offline_copy, lang):
    p = context.new_page()
    try:
        follow_old_anchors(p, lang, lambda page: local_url(offline_copy, lang, page))
    finally:
        p.close()
