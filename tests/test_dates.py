"""Dates and machines written for people: the timing provenance reads '30 листопада 2026 … Linux, x86-64'
in uk and a Solar Hijri date in Persian digits in fa, never a raw platform string."""
import datetime as dt

import pytest

from scripts.common import course, dates


def test_platform_string_becomes_system_and_architecture():
    assert dates.system_text("Linux-6.18.44-fc-v657-x86_64-with-glibc2.36") == "Linux, x86-64"
    assert dates.system_text("macOS-14.4-arm64-arm-64bit") == "macOS, ARM64"
    assert dates.system_text("Windows-10-10.0.19045-SP0") == "Windows"


def test_dates_follow_each_languages_calendar_and_digits():
    for lang in course.languages():
        text = dates.iso_date_text("2026-11-30", lang.code)
        if lang.calendar == "persian":
            assert text == "۹ آذر ۱۴۰۵"
        else:  # the Gregorian day and year, in the language's own digits
            digits = str.maketrans("0123456789", lang.numerals)
            assert "2026".translate(digits) in text and "30".translate(digits) in text
        assert all(c not in text for c in "0123456789") == (lang.numerals[0] != "0")


def test_a_date_that_is_not_iso_says_so():
    with pytest.raises(ValueError, match="ISO date"):
        dates.iso_date_text("30.11.2026", course.languages()[0].code)


def test_built_pages_show_no_raw_platform_string(site_dir):
    pages = [f for f in site_dir.glob("**/index.html") if 'class="md-content"' in f.read_text(encoding="utf-8")]
    assert pages, f"no page built in {site_dir}"
    for page in pages:
        assert "with-glibc" not in page.read_text(encoding="utf-8"), page
