"""uk and fa mirror each other: same pages, references, heading ids, headings and formulas."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UK, FA = ROOT / "docs/uk", ROOT / "docs/fa"
REF = re.compile(r"\{\{\s*(chart|v|table)\s*:\s*([^}]*?)\s*\}\}")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{\s*#([\w-]+)\s*\})?\s*$", re.M)
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.S)


def files(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.md"))


def test_same_pages():
    assert files(UK) == files(FA)


def strip_code(text):
    return FENCE.sub("", text)


@pytest.mark.parametrize("page", files(UK))
def test_same_references_in_same_order(page):
    uk = REF.findall((UK / page).read_text(encoding="utf-8"))
    fa = REF.findall((FA / page).read_text(encoding="utf-8"))
    assert uk == fa, f"{page}: references differ between uk and fa"


@pytest.mark.parametrize("page", files(UK))
def test_same_heading_ids_and_levels(page):
    uk = [(len(h), i) for h, _, i in HEADING.findall(strip_code((UK / page).read_text(encoding="utf-8")))]
    fa = [(len(h), i) for h, _, i in HEADING.findall(strip_code((FA / page).read_text(encoding="utf-8")))]
    assert uk == fa, f"{page}: headings differ (level, id)"
    assert all(i for _, i in uk), f"{page}: give every heading an explicit id {{ #… }} shared by both languages"


@pytest.mark.parametrize("page", files(UK))
def test_same_number_of_formulas(page):
    uk = MATH.findall(strip_code((UK / page).read_text(encoding="utf-8")))
    fa = MATH.findall(strip_code((FA / page).read_text(encoding="utf-8")))
    assert len(uk) == len(fa), f"{page}: {len(uk)} formulas in uk, {len(fa)} in fa"


@pytest.mark.parametrize("page", files(UK))
def test_no_typed_numbers_outside_references(page):
    """Digits in prose must come from references; allowed: formulas, code, heading ids, small counts in words."""
    for lang in ("uk", "fa"):
        text = (ROOT / "docs" / lang / page).read_text(encoding="utf-8")
        text = REF.sub("", strip_code(text))
        text = MATH.sub("", text)
        text = re.sub(r"`[^`]*`|\{\s*#[\w-]+\s*\}|\]\([^)]*\)|<[^>]+>", "", text)
        decimals = re.findall(r"\d+[.,٫]\d+|[۰-۹]+[٫.][۰-۹]+", text)
        assert not decimals, f"docs/{lang}/{page}: typed decimal numbers {decimals[:5]}; use {{{{ v: … }}}}"
