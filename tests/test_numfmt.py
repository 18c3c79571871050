"""Numbers look as each language writes them (scripts/common/numfmt.py is the one place)."""
import pytest

from scripts.common.numfmt import LOCALES, d3_locale, fmt, vector

CASES = [  # value, spec, uk, fa
    (0.485, ".1%", "48,5\u00a0%", "۴۸٫۵٪"),
    (1234.5, ",.1f", "1\u202f234,5", "۱٬۲۳۴٫۵"),
    (0.77, ".2f", "0,77", "۰٫۷۷"),
    (4224, ",d", "4\u202f224", "۴٬۲۲۴"),
    (2362368, ",d", "2\u202f362\u202f368", "۲٬۳۶۲٬۳۶۸"),
    (5.656854, ".2f", "5,66", "۵٫۶۶"),
    (-4, "d", "−4", "−۴"),
    (-0.0001, ".2f", "0,00", "۰٫۰۰"),
    (1.8e-7, ".1e", "1,8·10<sup>−7</sup>", "۱٫۸×۱۰<sup>−۷</sup>"),
    (2.45247, ".1e", "2,5", "۲٫۵"),                  # scientific form only where it helps
    (0.120511, ".1e", "0,12", "۰٫۱۲"),
    (4321.0, ".1e", "4,3·10<sup>3</sup>", "۴٫۳×۱۰<sup>۳</sup>"),
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


def test_vectors_separate_components_with_a_sign_that_is_not_the_decimal_one():
    assert vector([1.94, 1.03], ".2f", "uk") == "[1,94; 1,03]"
    assert vector([1.94, 1.03], ".2f", "fa") == "[۱٫۹۴، ۱٫۰۳]"
    assert vector([1, 0], "d", "uk") == "[1; 0]"
    assert vector([-0.5, 2], ".1f", "uk") == "[−0,5; 2,0]"
    with pytest.raises(TypeError):
        vector(1.5, ".2f", "uk")


def test_no_language_writes_a_point_in_a_number():
    """Code and formulas keep the point; every number a reader of either language sees does not."""
    for lang in LOCALES:
        for value, spec in ((1234.5, ",.1f"), (0.485, ".1%"), (1.8e-7, ".1e"), (0.77, ".3f")):
            assert "." not in fmt(value, spec, lang), (lang, value, spec)


def test_d3_locale_matches_fmt():
    for lang in LOCALES:
        loc = d3_locale(lang)
        assert loc["decimal"] == fmt(0.5, ".1f", lang)[1]
    assert d3_locale("uk")["decimal"] == ","


@pytest.mark.parametrize("n,form", [
    (1, "параметр"), (21, "параметр"), (101, "параметр"), (2, "параметри"), (4, "параметри"), (24, "параметри"),
    (4452, "параметри"), (0, "параметрів"), (5, "параметрів"), (11, "параметрів"), (12, "параметрів"),
    (14, "параметрів"), (111, "параметрів"), (36864, "параметри"), (262144, "параметри"), (4096, "параметрів"),
])
def test_a_noun_agrees_with_the_number_in_ukrainian(n, form):
    from scripts.common.numfmt import plural
    assert plural(n, ["параметр", "параметри", "параметрів"], "uk") == form


def test_fractions_and_invariable_nouns():
    from scripts.common.numfmt import plural
    assert plural(4.7, ["раз", "рази", "разів", "раза"], "uk") == "раза"
    with pytest.raises(ValueError, match="fourth form"):
        plural(4.7, ["раз", "рази", "разів"], "uk")
    assert plural(4452, ["پارامتر"], "fa") == "پارامتر"   # a Persian noun after a number stays singular
    with pytest.raises(ValueError, match="form"):
        plural(3, ["پارامتر", "پارامترها"], "fa")
    with pytest.raises(ValueError, match="form"):
        plural(3, ["параметр", "параметри"], "uk")


def test_times_sign_never_a_dot_beside_a_dot_zero():
    """A middle dot next to a zero written as a dot (۰, ٠) reads as another zero: the language file's
    `times` sign, else a cross for such numerals and a middle dot otherwise (no language named)."""
    from scripts.common.course import _times
    assert _times({"numerals": "۰۱۲۳۴۵۶۷۸۹"}) == "×"
    assert _times({"numerals": "٠١٢٣٤٥٦٧٨٩"}) == "×"
    assert _times({"numerals": "0123456789"}) == "·"
    assert _times({"numerals": "0123456789", "times": "×"}) == "×"
    for code, loc in LOCALES.items():
        text = fmt(3.6e-7, ".1e", code)
        assert loc["times"] in text and not (loc["digits"][0] != "0" and "·" in text), text
