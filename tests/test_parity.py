"""Every language mirrors the default one: same pages, references, heading ids, headings and formulas.
Languages come from the course model (scripts/common/course.py), so a new language is checked too."""
import re
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from scripts.common import course

DEFAULT = ROOT / "docs" / course.default_language().code
OTHERS = [lang.code for lang in course.languages() if not lang.default]
REF = re.compile(r"\{\{\s*(chart|v|table|exercise|fig|tab)\s*:\s*([^}]*?)\s*\}\}")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{\s*#([\w-]+)\s*\})?\s*$", re.M)
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.S)


def files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.md"))


@pytest.mark.parametrize("lang", OTHERS)
def test_same_pages(lang):
    assert files(DEFAULT) == files(ROOT / "docs" / lang)


def strip_code(text):
    return FENCE.sub("", text)


def read(lang_root: Path, page: str) -> str:
    return (lang_root / page).read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("page", files(DEFAULT))
def test_same_references_in_each_section(page, lang):
    """Blocks (charts, tables, exercises) come in the same order, so figure numbers agree; inline numbers
    are the same per section but may move within it, so each language can order its sentences its own way."""
    ours, theirs = sections(read(DEFAULT, page)), sections(read(ROOT / "docs" / lang, page))
    assert [i for i, _, _ in ours] == [i for i, _, _ in theirs], f"{page}: sections differ"
    for (sid, our_blocks, our_values), (_, their_blocks, their_values) in zip(ours, theirs):
        assert our_blocks == their_blocks, \
            f"{page} #{sid}: charts/tables/exercises differ or come in another order in {lang}"
        assert sorted(our_values) == sorted(their_values), \
            f"{page} #{sid}: inline references differ between {DEFAULT.name} and {lang}: " \
            f"only in {DEFAULT.name} {sorted(set(our_values) - set(their_values))}, " \
            f"only in {lang} {sorted(set(their_values) - set(our_values))}"


INLINE = {"v", "fig", "tab"}


def test_section_check_sees_moved_blocks_and_values():
    page = "## A { #a }\n{{ v: x/y }} {{ chart: c1 }}\n{{ chart: c2 }}\n## B { #b }\n{{ v: x/z }}\n"
    swapped_inline = "## A { #a }\n{{ chart: c1 }} {{ v: x/y }}\n{{ chart: c2 }}\n## B { #b }\n{{ v: x/z }}\n"
    moved_value = "## A { #a }\n{{ chart: c1 }}\n{{ chart: c2 }}\n## B { #b }\n{{ v: x/z }} {{ v: x/y }}\n"
    swapped_blocks = "## A { #a }\n{{ v: x/y }} {{ chart: c2 }}\n{{ chart: c1 }}\n## B { #b }\n{{ v: x/z }}\n"
    assert sections(page) == sections(swapped_inline)
    assert sections(page) != sections(moved_value)
    assert sections(page) != sections(swapped_blocks)
    with_noun = "## A { #a }\n{{ v: x/y | d plural: крок,кроки,кроків }}\n"
    assert sections(with_noun) == sections("## A { #a }\n{{ v: x/y | d plural: گام }}\n")
    assert sections(with_noun) != sections("## A { #a }\n{{ v: x/y | d }}\n")


def sections(text):
    """[(heading id, block references in order, inline references)] for the page's sections."""
    out, sid, start = [], "top", 0
    text = strip_code(text)
    marks = [(m.start(), m.group(3) or "") for m in HEADING.finditer(text)] + [(len(text), None)]
    for pos, next_id in marks:
        chunk = text[start:pos]
        # a noun's forms (`| plural: параметр,параметри,параметрів`) are the language's own words
        refs = [(kind, re.sub(r"\bplural:.*", "plural", body)) for kind, body in REF.findall(chunk)]
        out.append((sid, [r for r in refs if r[0] not in INLINE], [r for r in refs if r[0] in INLINE]))
        sid, start = next_id, pos
    return out


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("page", files(DEFAULT))
def test_same_heading_ids_and_levels(page, lang):
    ours = [(len(h), i) for h, _, i in HEADING.findall(strip_code(read(DEFAULT, page)))]
    theirs = [(len(h), i) for h, _, i in HEADING.findall(strip_code(read(ROOT / "docs" / lang, page)))]
    assert ours == theirs, f"{page}: headings differ (level, id) between {DEFAULT.name} and {lang}"
    assert all(i for _, i in ours), f"{page}: give every heading an explicit id {{ #… }} shared by every language"


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("page", files(DEFAULT))
def test_same_number_of_formulas(page, lang):
    ours = MATH.findall(strip_code(read(DEFAULT, page)))
    theirs = MATH.findall(strip_code(read(ROOT / "docs" / lang, page)))
    assert len(ours) == len(theirs), f"{page}: {len(ours)} formulas in {DEFAULT.name}, {len(theirs)} in {lang}"


LANGS = course.codes()
ALLOWED = yaml.safe_load((ROOT / "tests/typed_numbers.yml").read_text(encoding="utf-8"))
_READ = course.number_reading()  # every language's digits and signs, read as Latin ones
DIGITS = str.maketrans({**{c: str(i) for d in _READ["digits"] for i, c in enumerate(d)},
                        **{c: "." for c in _READ["decimal"]}, **{c: "," for c in _READ["thousands"] if not c.isspace()}})
NUMBER = re.compile(r"(?<![A-Za-z/\d.,])\d+(?:[.,]\d+)*(?![A-Za-z])")
NOT_PROSE = re.compile(r"`[^`\n]*`"                    # inline code
                       r"|^(?: {4}|\t).*$"              # indented code (the pages have no indented prose)
                       r"|--8<--.*$"                    # a snippet line
                       r"|\{\s*#[\w-]+\s*\}"           # heading ids
                       r"|\]\([^)]*\)|\[\^[^\]]*\]"     # link targets, footnote marks
                       r"|<[^>]+>"                      # HTML tags and their attributes
                       r"|^\s*\d+\.(?=\s)", re.M)       # ordered-list markers


def typed_numbers(text: str, lang: str) -> list[str]:
    """Numbers typed in a page's prose that the allow-list (tests/typed_numbers.yml) does not name."""
    text = REF.sub(" ", strip_code(text))
    text = MATH.sub(" ", text)
    text = NOT_PROSE.sub(" ", re.sub(r"\{\{.*?\}\}", " ", text)).translate(DIGITS)
    for pattern in ALLOWED["every_language"] + ALLOWED["by_language"].get(lang, []):
        text = re.sub(rf"(?<![\d.,])(?:{pattern})(?!\d|[.,]\d)", " ", text)
    return NUMBER.findall(text)


@pytest.mark.parametrize("page", files(DEFAULT))
@pytest.mark.parametrize("lang", LANGS)
def test_no_typed_numbers_outside_references(page, lang):
    """Every number in prose comes from a reference, except set-up counts in tests/typed_numbers.yml."""
    found = typed_numbers((ROOT / "docs" / lang / page).read_text(encoding="utf-8"), lang)
    assert not found, (f"docs/{lang}/{page}: numbers typed in prose {found[:8]}: use {{{{ v: … }}}} "
                       "(add the number to its experiment's output if it is not there), or, for a count that "
                       "sets up an example, add it to tests/typed_numbers.yml")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("typed,caught", [
    ("Добуток 4 стає", ["4"]), ("حاصل‌ضرب ۴ به", ["4"]), ("вага 0,77 і", ["0,77"]), ("وزن ۰٫۷۷ و", ["0.77"]),
    ("about 3.42 here", ["3.42"]), ("49 патчів", []), ("1 234 pairs", ["1", "234"]), ("0.49", ["0.49"]),
    ("`x = 3` and $d = 4$ and {{ v: sa_toy/d }}", []), ("float32, ViT-B/16", []),
])
def test_typed_number_check_sees_numbers(lang, typed, caught):
    assert typed_numbers(typed, lang) == caught
