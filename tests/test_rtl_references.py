"""In a right-to-left language, every Latin run of a reference (authors, title, venue, link) is isolated, so its
initials and periods keep their place (a bare «Vaswani A.» in a Persian line shows as «.Vaswani A»)."""
import re

import pytest

from scripts.common import course

RTL = [lang.code for lang in course.languages() if lang.direction == "rtl"]
ISOLATED = re.compile(r"<(bdi|span)\b[^>]*dir=\"ltr\"[^>]*>.*?</\1>|<https?://[^>]+>|`[^`]+`")  # code: isolated by course.css


def reference_items(text):
    section = re.search(r"^## .*\{ #references \}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return [line[2:] for line in section.group(1).splitlines() if line.startswith("- ")] if section else []


@pytest.mark.parametrize("lang", RTL)
@pytest.mark.parametrize("lesson", list(course.lessons()))
def test_latin_runs_in_references_are_isolated(lang, lesson):
    # a chapter's references: the section of any of its pages (its overview holds it since the split);
    # a chapter may have none (one of words alone), but the course cites its sources somewhere
    items = [item for page in (lesson, *course.sections(lesson))
             for item in reference_items(course.source(lang, page).read_text(encoding="utf-8"))]
    bare = [item for item in items if re.search(r"[A-Za-z]", ISOLATED.sub("", item))]
    assert not bare, f"{lang}/{lesson}: wrap the Latin parts in <bdi lang=\"en\" dir=\"ltr\">: {bare[:3]}"


@pytest.mark.parametrize("lang", RTL)
def test_the_course_has_references_to_check(lang):
    """The test above checks something: the chapters together cite sources."""
    assert any(reference_items(course.source(lang, page).read_text(encoding="utf-8"))
               for lesson in course.lessons() for page in (lesson, *course.sections(lesson)))
