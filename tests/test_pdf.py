"""The printed notes: one A4 PDF per language with cover, contents, both lessons, page numbers in the
language, embedded fonts, every lesson heading findable as text, and no slider text."""
import re
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parent.parent
HEADING = re.compile(r"^#{1,2}\s+(.*?)\s*(?:\{\s*#[\w-]+\s*\})?\s*$", re.M)


def pdf(site_dir, lang) -> Path:
    path = site_dir / "downloads" / f"attention-course-{lang}.pdf"
    assert path.exists(), "make site should put both PDFs in site/downloads/"
    return path


BIDI_AND_HAMZA = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u0654"))


def text(path: Path) -> str:
    """The PDF's text; bidi controls and the hamza (which pdftotext moves around) dropped."""
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return out.translate(BIDI_AND_HAMZA)


def squash(s: str) -> str:
    """pdftotext may break and reorder words of RTL lines: compare words, not whole lines."""
    return re.sub(r"\s+", " ", s)


@pytest.mark.parametrize("lang", ["uk", "fa"])
def test_pdf_shape_and_fonts(site_dir, lang):
    path = pdf(site_dir, lang)
    reader = PdfReader(str(path))
    assert len(reader.pages) >= 4
    box = reader.pages[0].mediabox
    assert abs(float(box.width) - 595) < 2 and abs(float(box.height) - 842) < 2, "A4"
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    rows = [l for l in fonts.splitlines()[2:] if l.strip()]
    assert rows and all(re.search(r"\byes\b", l.split()[-5]) or " yes " in l for l in rows), fonts
    if lang == "fa":
        assert "Vazirmatn" in fonts


@pytest.mark.parametrize("lang", ["uk", "fa"])
def test_pdf_has_every_heading_and_no_controls(site_dir, lang):
    body = squash(text(pdf(site_dir, lang)))
    words_in_pdf = set(re.findall(r"[\w\u200c]+", body))
    for lesson in ("self-attention", "cross-attention"):
        md = (ROOT / "docs" / lang / f"{lesson}.md").read_text(encoding="utf-8")
        for heading in HEADING.findall(md):
            plain = re.sub(r"\$[^$]*\$|`[^`]*`", "", heading).translate(BIDI_AND_HAMZA)
            words = [w for w in re.findall(r"[\w\u200c]+", plain) if len(w) > 2]
            missing = [w for w in words if w not in words_in_pdf]
            assert not missing, f"{lang} PDF lacks heading «{heading}» (words {missing})"
    assert "log₂ d" not in body and "log2d" not in body, "slider labels should not be printed"


def test_printed_strings_are_in_the_language(site_dir):
    fa = text(pdf(site_dir, "fa"))
    uk = text(pdf(site_dir, "uk"))
    assert "فهرست" in fa and "صفحه" in fa and re.search(r"[۱-۹]", fa)
    assert "Зміст" in uk and "Сторінка" in uk
    assert "Table of Contents" not in fa + uk and "Page " not in fa + uk


def test_persian_cover_date_is_solar_hijri():
    import datetime as dt
    from pdf import date_text, gregorian_to_jalali
    assert gregorian_to_jalali(2026, 3, 21) == (1405, 1, 1)     # Nowruz 1405
    assert gregorian_to_jalali(2026, 11, 30) == (1405, 9, 9)
    assert gregorian_to_jalali(2024, 3, 19) == (1402, 12, 29)   # last day of 1402
    from scripts.common.i18n import strings
    assert date_text("fa", strings("fa")["ui"]["print"], dt.date(2026, 11, 30)) == "۹ آذر ۱۴۰۵"
    assert date_text("uk", strings("uk")["ui"]["print"], dt.date(2026, 11, 30)) == "30 листопада 2026"
