"""Numbers as each language writes them: digits and separators applied the one way.

Each language's signs come from its metadata (scripts/i18n/<lang>/language.yml, read by
scripts/common/course.py), e.g. 1 234,5 · 48,5 % · [1,94; 1,03] with a decimal comma, or Persian
digits ۱٬۲۳۴٫۵ · ۴۸٫۵٪ · [۱٫۹۴، ۱٫۰۳]. Exponents: 1,8·10<sup>−7</sup>, ۱٫۸×۱۰<sup>−۷</sup> (the language's `times` sign).
A vector is written left to right in both languages, as in the formulas next to it.
Format specs: d  ,d  .2f  ,.1f  .1%  .1e  (a Python format spec, the grouping comma optional).
Code and formulas are not numbers for a reader of one language: they keep the point.
A tie is rounded up (away from zero), as the charts' d3-format does (JavaScript's toFixed and
toExponential): a value shown in a page, a table and a chart reads the same everywhere.
"""
from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal

from scripts.common import course

# language -> its signs, from the course model (no table of languages here)
LOCALES = {lang.code: {"decimal": lang.decimal, "thousands": lang.thousands, "percent": lang.percent,
                       "digits": lang.numerals, "minus": lang.minus, "list": lang.list_separator,
                       "plural": lang.plural, "times": lang.times,
                       "power": lang.power_of_ten}
           for lang in course.languages()}
PLAIN_RANGE = (1e-2, 1e3)   # |value| written without a power of ten by the "e" format
_SPEC = re.compile(r"^(,)?(?:\.(\d+))?([dfe%])$")


def check_spec(spec: str) -> None:
    if not _SPEC.match(spec):
        raise ValueError(f"unknown number format {spec!r}; use one of d ,d .2f ,.1f .1% .1e")


def _fixed(x: float, prec: int, group: bool = False) -> str:
    """|x| with `prec` decimals, a tie rounded up: JavaScript's toFixed on the exact binary value, which
    d3-format uses for f and % (Python's format rounds a tie to even: 0.0625 → 6,2 % on a page and
    6,3 % in its chart)."""
    q = Decimal(abs(x)).quantize(Decimal(1).scaleb(-prec), rounding=ROUND_HALF_UP)
    return f"{q:{',' if group else ''}.{prec}f}"


def _exponential(x: float, prec: int) -> tuple[str, int]:
    """|x| ≠ 0 as (mantissa with `prec` decimals, exponent), a tie rounded up: JavaScript's toExponential."""
    d = Decimal(abs(x))
    exp = d.adjusted()
    step = Decimal(1).scaleb(-prec)
    mant = d.scaleb(-exp).quantize(step, rounding=ROUND_HALF_UP)
    if mant >= 10:                      # 9,96 → 10,0: one more power of ten
        exp += 1
        mant = d.scaleb(-exp).quantize(step, rounding=ROUND_HALF_UP)
    return f"{mant:.{prec}f}", exp


def localize_digits(text: str, lang: str) -> str:
    digits = LOCALES[lang]["digits"]
    return text.translate(str.maketrans("0123456789", digits))


# Unicode has superscript forms of the Latin digits only (and of the minus)
SUPERSCRIPT = str.maketrans("0123456789−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_of_ten(k: int, lang: str) -> str:
    """10 to the power k as one line of plain text, as the language file's `power_of_ten` writes it
    (where a raised exponent cannot be drawn: a chart's axis label): {ten} is 10 and {exp} the exponent,
    both in the language's digits; {sup} the exponent in Unicode superscripts (Latin digits only). A
    language that names no form gets 10 with a superscript exponent when its digits are Latin, else
    ten and exponent side by side with a caret."""
    loc = LOCALES[lang]
    exp = fmt(k, "d", lang)
    form = loc["power"] or ("{ten}{sup}" if loc["digits"] == "0123456789" else "{ten}^{exp}")
    sup = ((loc["minus"] if k < 0 else "") + str(abs(k))).replace(loc["minus"], "−").translate(SUPERSCRIPT)
    return form.format(ten=fmt(10, "d", lang), exp=exp, sup=sup)


def fmt(value, spec: str, lang: str) -> str:
    """Format a number for a page in `lang`, e.g. fmt(0.485, '.1%', <Persian>) -> '۴۸٫۵٪'."""
    loc = LOCALES[lang]
    m = _SPEC.match(spec)
    if not m:
        check_spec(spec)
    group, prec, kind = m.groups()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{value!r} is not a number")
    if kind == "e" and value != 0 and PLAIN_RANGE[0] <= abs(value) < PLAIN_RANGE[1]:
        # Scientific form only where it helps: 2,5 reads better than 2,5·10⁰. The same significant
        # digits, written plainly (a column of tiny errors keeps its powers of ten).
        digits = int(prec or 1) - _exponential(value, int(prec or 1))[1]
        return fmt(value, f".{max(digits, 0)}f", lang)
    if kind == "e":
        if value == 0:
            mant, exp = _fixed(0.0, int(prec or 1)), 0
        else:
            mant, exp = _exponential(value, int(prec or 1))
        out = _separators(mant, loc, group=False) + loc["times"] + "10<sup>" + (loc["minus"] if exp < 0 else "") + str(abs(exp)) + "</sup>"
        return localize_digits((loc["minus"] if value < 0 else "") + out, lang)
    if kind == "%":
        body = _fixed(abs(value) * 100, int(prec or 0), bool(group))   # d3: (x * 100).toFixed(p)
        out = _separators(body, loc, group=True) + loc["percent"]
    elif kind == "d":
        if float(value) != round(value):
            raise ValueError(f"{value!r} is not a whole number; use a format like .2f")
        body = f"{abs(int(round(value))):{',' if group else ''}d}"
        out = _separators(body, loc, group=True)
    else:
        body = _fixed(value, int(prec or 0), bool(group))
        out = _separators(body, loc, group=True)
    negative = value < 0 and any(c in "123456789" for c in body)  # no "−0.00"
    out = (loc["minus"] if negative else "") + out
    return localize_digits(out, lang)


def vector(values, spec: str, lang: str) -> str:
    """A vector's components, each formatted with `spec`: vector([1.94, 1.03], '.2f', <Ukrainian>) -> '[1,94; 1,03]'."""
    if not isinstance(values, (list, tuple)) or not values:
        raise TypeError(f"{values!r} is not a list of numbers")
    return "[" + LOCALES[lang]["list"].join(fmt(v, spec, lang) for v in values) + "]"


def _separators(body: str, loc: dict, group: bool) -> str:
    # Python writes 1,234.5; swap both separators in one pass so they cannot collide.
    return body.translate(str.maketrans({",": loc["thousands"] if group else "", ".": loc["decimal"]}))


def d3_locale(lang: str) -> dict:
    """The same conventions as a d3-format locale, for vega-embed and vl-convert."""
    loc = LOCALES[lang]
    out = {"decimal": loc["decimal"], "thousands": loc["thousands"], "grouping": [3],
           "currency": ["", ""], "minus": loc["minus"], "percent": loc["percent"]}
    if loc["digits"] != "0123456789":
        out["numerals"] = list(loc["digits"])
    return out


def _east_slavic(value, forms: list[str]) -> str:
    """1, 21, 101 параметр; 2–4, 22–24 параметри; 0, 5–20, 25 … параметрів; a fraction takes its own form
    (4,7 раза), so one is needed when the number is not whole."""
    if float(value) != round(value):
        if len(forms) < 4:
            raise ValueError(f"{value!r} is not whole: give a fourth form for fractions (раз,рази,разів,раза)")
        return forms[3]
    n = abs(int(round(value)))
    if n % 10 == 1 and n % 100 != 11:
        return forms[0]
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return forms[1]
    return forms[2]


# language.yml `plural:` -> (forms it needs, lowest and highest count; the rule choosing one)
PLURAL_RULES = {
    "east-slavic": ((3, 4), _east_slavic),                 # one, few, many (+ fraction)
    "invariable": ((1, 1), lambda value, forms: forms[0]),  # the noun after a number stays singular (Persian)
}


def plural(value, forms: list[str], lang: str) -> str:
    """The form of a noun that agrees with `value` in `lang`: plural(4452, ['параметр', 'параметри',
    'параметрів'], <Ukrainian>) -> 'параметри'. The rule is the language's (language.yml `plural:`)."""
    rule = LOCALES[lang]["plural"]
    if rule not in PLURAL_RULES:
        raise ValueError(f"scripts/i18n/{lang}/language.yml: `plural:` is {rule!r}; declare one of {sorted(PLURAL_RULES)}")
    (low, high), choose = PLURAL_RULES[rule]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{value!r} is not a number")
    if not low <= len(forms) <= high or not all(f.strip() for f in forms):
        count = f"{low}" if low == high else f"{low}–{high}"
        raise ValueError(f"the {rule} rule of {lang!r} takes {count} form(s), comma-separated; got {forms!r}")
    return choose(value, [f.strip() for f in forms])
