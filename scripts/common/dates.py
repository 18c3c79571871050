"""Dates and machine descriptions written for people, in a page's language.

The calendar is the language's (scripts/i18n/<lang>/language.yml → course.py: gregorian or persian),
the month names and the date's form are the language's strings (site.yml ui.print.months, .date), digits are numfmt's.
Used by the PDF cover (tools/pdf.py) and by references such as {{ v: timings:x/machine.measured | date }}.
"""
from __future__ import annotations

import datetime as dt

from scripts.common import course, i18n, numfmt


def date_text(day: dt.date, lang: str) -> str:
    """'30 листопада 2026 року' / '۹ آذر ۱۴۰۵': day, month name and year in the language's calendar, in the
    order and words of the language's `ui.print.date` (site.yml)."""
    if course.language(lang).calendar == "persian":
        import jdatetime  # maintained Solar Hijri arithmetic (pinned in requirements.txt)
        day = jdatetime.date.fromgregorian(date=day)
    y, m, d = day.year, day.month, day.day
    print_ui = i18n.strings(lang)["ui"]["print"]
    return print_ui["date"].format(day=numfmt.fmt(d, "d", lang), month=print_ui["months"][m - 1],
                                   year=numfmt.fmt(y, "d", lang))


def iso_date_text(iso: str, lang: str) -> str:
    """An ISO date string from the timings ('2026-11-30') as date_text writes it."""
    try:
        return date_text(dt.date.fromisoformat(iso), lang)
    except ValueError:
        raise ValueError(f"{iso!r} is not an ISO date (YYYY-MM-DD)") from None


def system_text(platform_string: str) -> str:
    """Python's platform.platform() ('Linux-6.18.44-…-x86_64-with-glibc2.36') as people name it:
    'Linux, x86-64'. The kernel build and C library say nothing a reader can use."""
    system = platform_string.split("-", 1)[0] or platform_string
    for arch, name in (("x86_64", "x86-64"), ("amd64", "x86-64"), ("aarch64", "ARM64"), ("arm64", "ARM64")):
        if arch in platform_string.lower():
            return f"{system}, {name}"
    return system
