"""Numbers look as each language writes them (scripts/common/numfmt.py is the one place)."""
import pytest

from scripts.common.numfmt import d3_locale, fmt

CASES = [  # value, spec, uk, fa
    (0.485, ".1%", "48.5\u00a0%", "۴۸٫۵٪"),
    (4224, ",d", "4\u202f224", "۴٬۲۲۴"),
    (2362368, ",d", "2\u202f362\u202f368", "۲٬۳۶۲٬۳۶۸"),
    (5.656854, ".2f", "5.66", "۵٫۶۶"),
    (-4, "d", "−4", "−۴"),
    (-0.0001, ".2f", "0.00", "۰٫۰۰"),
    (1.8e-7, ".1e", "1.8·10<sup>−7</sup>", "۱٫۸·۱۰<sup>−۷</sup>"),
]


@pytest.mark.parametrize("value,spec,uk,fa", CASES)
def test_formats(value, spec, uk, fa):
    assert fmt(value, spec, "uk") == uk
    assert fmt(value, spec, "fa") == fa


def test_unknown_spec_says_what_to_use():
    with pytest.raises(ValueError, match="use one of"):
        fmt(1.0, "0.2x", "uk")


def test_fractional_value_refuses_integer_format():
    with pytest.raises(ValueError, match="not a whole number"):
        fmt(2.5, "d", "uk")


def test_d3_locale_gives_persian_numerals_only_to_fa():
    assert d3_locale("fa")["numerals"] == list("۰۱۲۳۴۵۶۷۸۹")
    assert d3_locale("fa")["decimal"] == "٫" and d3_locale("fa")["thousands"] == "٬"
    assert "numerals" not in d3_locale("uk")
