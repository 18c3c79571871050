"""The course model (scripts/common/course.py): languages and lessons declared once."""
from __future__ import annotations

from scripts.common import course


def test_languages_come_from_mkdocs_with_one_default():
    codes = course.codes()
    assert len(codes) >= 2 and len(set(codes)) == len(codes)
    assert sum(lang.default for lang in course.languages()) == 1
    for lang in course.languages():
        assert lang.direction in ("ltr", "rtl")
        assert len(lang.numerals) == 10 and lang.decimal != lang.thousands


def test_every_language_has_every_page_and_the_same_lessons():
    for lang in course.codes():
        for page in course.pages():
            assert course.source(lang, page).exists(), f"docs/{lang}/{course.page_file(page)} is missing"
        front = [course._front_matter(course.source(lang, p)).get("lesson", False) for p in course.pages()]
        assert tuple(p for p, is_lesson in zip(course.pages(), front) if is_lesson) == course.lessons()
    assert len(course.lessons()) >= 2


def test_a_chapter_is_its_overview_then_its_sections_in_its_folder():
    """Each chapter: the overview `<chapter>/index.md` (its URL stays `<chapter>/`), then its sections in nav
    order, each in the chapter's folder; every chapter page belongs to exactly one chapter."""
    for chapter in course.lessons():
        assert course.page_file(chapter) == f"{chapter}/index.md"
        assert course.sections(chapter), f"{chapter}: no section pages"
        for section in course.sections(chapter):
            assert course.page_file(section) == f"{section}.md" and section.startswith(chapter + "/")
            assert course.chapter_of(section) == chapter
            assert course.page_path(course.default_language().code, section) == f"{section}/"
        assert course.chapter_of(chapter) == chapter
    pages = course.lesson_pages()
    assert len(pages) == len(set(pages)) and all(p in course.pages() for p in pages)
    assert course.chapter_of("index") is None


def test_page_paths_put_the_default_language_at_the_root():
    default = course.default_language()
    assert course.page_path(default.code, "index") == ""
    for lang in course.languages():
        if not lang.default:
            assert course.page_path(lang.code, course.lessons()[0]) == f"{lang.code}/{course.lessons()[0]}/"
