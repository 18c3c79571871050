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


def _d3(cases, lang):
    """Each (value, spec) formatted by d3-format (what charts, their readouts and static SVGs use)."""
    import json
    import subprocess
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    script = ("const d3 = require('d3-format'); const [loc, cases] = JSON.parse(process.argv[1]);"
              "const f = d3.formatLocale(loc); console.log(JSON.stringify(cases.map(([v, s]) => f.format(s)(v))));")
    out = subprocess.run(["node", "-e", script, json.dumps([d3_locale(lang), cases])], cwd=root,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_a_value_reads_the_same_in_a_page_and_in_its_chart():
    """Python's format rounds a tie to even (0.0625 → 6,2 %), d3-format's toFixed rounds it up (6,3 %):
    the same value read two ways in a table and its chart. fmt rounds like d3 for every spec pages use,
    ties (exact in binary) and ordinary values alike."""
    import random
    rng = random.Random(0)
    values = [0.0625, 0.125, 0.375, 2.5, 0.5, 1.5, 0.03125, 0.00625, 12.25, 1234.5, 0.995, 0.9995, 0.05,
              0.15, 0.25, 0.35, 0.45, 1 / 3, 2 / 3, 0.0]
    values += [k / 2 ** e for k in range(1, 64, 2) for e in (3, 4, 5, 6, 8)]
    values += [rng.uniform(0, 2) for _ in range(300)] + [rng.uniform(0, 5000) for _ in range(100)]
    values += [-v for v in values[:60]]
    specs = [".0f", ".1f", ".2f", ".3f", ",.1f", ".0%", ".1%", ".2%"]
    for lang in LOCALES:
        cases = [(v, s) for v in values for s in specs]
        ours = [fmt(v, s, lang) for v, s in cases]
        theirs = _d3(cases, lang)
        # d3 writes −0,0 for a negative value that rounds to zero; pages write 0,0 (no sign on zero)
        bad = [(v, s, o, t) for (v, s), o, t in zip(cases, ours, theirs)
               if o != t and t.lstrip(LOCALES[lang]["minus"]) != o]
        assert not bad, f"{lang}: fmt and d3-format disagree on {bad[:8]}"


def test_scientific_mantissa_rounds_like_d3():
    """The mantissa and exponent of the e format, ties included, are toExponential's (d3's e)."""
    from scripts.common.numfmt import _exponential
    lang = next(iter(LOCALES))
    values = (1.25e-7, 2.5e-7, 9.95e-7, 9.96e-7, 3.5e-5, 1.05, 6.25e-3, 1.75e-9, 0.00995, 4321.0)
    theirs = _d3([(v, ".1e") for v in values], lang)
    for v, t in zip(values, theirs):
        mant, exp = _exponential(v, 1)
        assert t == f"{mant}e{exp:+d}".replace(".", d3_locale(lang)["decimal"]), (v, t)


@pytest.mark.parametrize("k,uk,fa", [(12, "10¹²", "۱۰ به توان ۱۲"), (-6, "10⁻⁶", "۱۰ به توان −۶"), (0, "10⁰", "۱۰ به توان ۰")])
def test_power_of_ten_is_one_line_of_text(k, uk, fa):
    """A log axis's label (issue 25): a superscript exponent where the digits have superscript forms; the
    Persian digits have none, so it is written as said, in Persian digits only."""
    from scripts.common.numfmt import power_of_ten
    assert power_of_ten(k, "uk") == uk
    assert power_of_ten(k, "fa") == fa
    assert not any(ch in "0123456789⁰¹²³⁴⁵⁶⁷⁸⁹" for ch in power_of_ten(k, "fa"))


def test_power_of_ten_unnamed_by_the_language_file():
    """A language file without `power_of_ten`: 10 with a superscript exponent for Latin digits, else its
    own digits with a caret (never a Latin superscript beside them)."""
    from scripts.common import numfmt
    saved = {code: loc["power"] for code, loc in numfmt.LOCALES.items()}
    try:
        for loc in numfmt.LOCALES.values():
            loc["power"] = ""
        assert numfmt.power_of_ten(-6, "uk") == "10⁻⁶"
        assert numfmt.power_of_ten(12, "fa") == "۱۰^۱۲"
    finally:
        for code, form in saved.items():
            numfmt.LOCALES[code]["power"] = form
