"""One value, one rounding: a chart and its data table never show the same value rounded two ways.

Tables (and the text) are formatted by scripts/common/numfmt.py; the chart's labels, readouts and static
SVG by d3-format. On a tie (0.0625 with `.1%`) the two used to part (6,2 % in the table, 6,3 % in the
chart). For every cell of every chart's data table that is such a tie, the other rounding must not
appear in that chart's static SVG (which draws the chart's initial state with d3-format, as the browser)."""
from __future__ import annotations

import html
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from scripts.common import jsonio, numfmt

ROOT = Path(__file__).resolve().parent.parent
CHARTS = sorted((ROOT / "generated" / "charts").glob("*/*.table.json"))
SPEC = re.compile(r"^(,)?\.(\d+)([f%])$")


def roundings(value: float, spec: str, lang: str) -> set[str]:
    """The value written with each tie rule, in the language's signs (one string unless it is a tie)."""
    group, prec, kind = SPEC.match(spec).groups()
    x = abs(value) * 100 if kind == "%" else abs(value)
    out = set()
    for rule in (ROUND_HALF_EVEN, ROUND_HALF_UP):
        q = Decimal(x).quantize(Decimal(1).scaleb(-int(prec)), rounding=rule)
        # a pretend value that the formatter writes exactly as q: the tie rule of fmt cannot pick it
        out.add(numfmt.fmt(float(q) / (100 if kind == "%" else 1) * (-1 if value < 0 else 1), spec, lang))
    return out


def svg_text(path: Path) -> str:
    return html.unescape(" ".join(re.findall(r"<text[^>]*>(.*?)</text>", path.read_text(encoding="utf-8"), re.S)))


def contains_number(text: str, number: str, lang: str) -> bool:
    """`number` as a whole number in the text (not a part of a longer one)."""
    digits = re.escape(numfmt.LOCALES[lang]["digits"] + numfmt.LOCALES[lang]["decimal"])
    return re.search(rf"(?<![{digits}]){re.escape(number)}(?![{digits}])", text) is not None


@pytest.mark.parametrize("table", CHARTS, ids=lambda p: f"{p.parent.name}/{p.name.split('.')[0]}")
def test_chart_and_its_table_round_alike(table):
    lang = table.parent.name
    data = jsonio.read(table)
    text = svg_text(table.with_name(table.name.replace(".table.json", ".svg")))
    clashes = []
    for key, _, spec in data["columns"]:
        if not SPEC.match(spec):
            continue
        for row in data["rows"]:
            v = row.get(key)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            shown = numfmt.fmt(v, spec, lang)
            for other in roundings(v, spec, lang) - {shown}:
                if contains_number(text, other, lang):
                    clashes.append(f"{key}={v!r}: table {shown!r}, chart {other!r}")
    assert not clashes, f"{table.name}: the same value rounded two ways: {clashes}"


def test_the_walk_sees_every_chart():
    assert len(CHARTS) >= 20 and all(p.with_name(p.name.replace(".table.json", ".svg")).exists() for p in CHARTS)
