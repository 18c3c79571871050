"""The chart kit every builder uses: frame and title, text lines with bidi isolation and {name}
placeholders, the softmax as Vega transforms, the power-of-ten axis, a shape drawn from its patches.

A change here rebuilds every chart. Charts are drawn left-to-right so their axes do not flip; the
kit makes each right-to-left line read right-to-left inside them. Bidi marks are added here, never
typed into the strings (scripts/i18n/<lang>/*.yml).
"""
import json
import re

import altair as alt

from scripts.charts._palette import HUES
from scripts.common import numfmt

# The page's chart menu button sits over the chart's top right corner (assets/js/charts.js):
# its width and height in px. Dashboards keep its height free above the title; a single view's
# right-to-left title, which starts at the right, stops short of its width.
MENU_WIDTH, MENU_HEIGHT = 52, 28
PADDING = {"top": MENU_HEIGHT, "left": 5, "right": 5, "bottom": 5}

# --- text -----------------------------------------------------------------------------------------

# Text in an SVG chart has no bidi context of its own (the chart is ltr so axes do not flip). A line
# written in a right-to-left script is embedded right-to-left, and inside it every formula-like run
# (Latin letters, √, with their numbers: "√d = {sd}", "n : ۲d") is isolated left-to-right. (Isolates,
# not embeddings: an embedded run would pull a following "): ۲۷" into its left-to-right order.)
RLE, PDF, RLM, LRI, PDI = "\u202b", "\u202c", "\u200f", "\u2066", "\u2069"
_NOT_RTL = "[^\u0600-\u06ef\u06fa-\u06ff\u200c\u060c\u061b]"          # not a Persian letter, ، or ؛
_START, _END = "[A-Za-z0-9\u06f0-\u06f9{√|]", "[A-Za-z0-9\u06f0-\u06f9}ᵀ²|\u2080-\u2089]"
_RUN = re.compile(_START + _NOT_RTL + "*" + _END + "|[A-Za-z]")
_RUN_NO_BRACKET = re.compile(_START + _NOT_RTL[:-1] + "()]*" + _END + "|[A-Za-z]")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def rtl(text) -> bool:
    """Whether a string (or any string in a list) is written right-to-left."""
    if isinstance(text, (list, tuple)):
        return any(rtl(x) for x in text)
    return any("\u0590" <= ch <= "\u08ff" for ch in text)


def isolate(text: str, right_to_left: bool | None = None) -> str:
    """Right-to-left text with its formula-like runs kept left-to-right. A run the rule cannot
    see (brackets around numbers: "Σⱼ aᵢⱼvⱼ = ({o1}, {o2})") is marked in the strings with
    backticks; the kit isolates it and drops the backticks (left-to-right text just drops them)."""
    def ltr(m: re.Match) -> str:
        run = m.group(0)
        if " → " in run:                              # "4×4 → n = 49" inside a sentence read right to left:
            # each side isolated, the arrow pointing the way the sentence reads (→ has no mirror glyph)
            return " ← ".join(f"{LRI}{side}{PDI}" for side in run.split(" → "))
        if run.count("(") != run.count(")"):          # a bracket of the sentence: the pieces inside
            return _RUN_NO_BRACKET.sub(ltr, run)
        formula = re.search("[A-Za-z√]", _PLACEHOLDER.sub("", run))   # {name}: a number
        return f"{LRI}{run}{PDI}" if formula else run
    pieces = text.split("`")
    if len(pieces) % 2 == 0:
        raise ValueError(f"unpaired backtick in the string {text!r}")
    if not (rtl(text) if right_to_left is None else right_to_left):
        return "".join(pieces)
    return "".join(f"{LRI}{piece}{PDI}" if i % 2 else _RUN.sub(ltr, piece) for i, piece in enumerate(pieces))


def bidi(text: str, right_to_left: bool | None = None) -> str:
    """A static string for the SVG, in its own direction (or in the direction of the text it is part of:
    a line cut from a right-to-left readout may hold only numbers and placeholders)."""
    right_to_left = rtl(text) if right_to_left is None else right_to_left
    return f"{RLE}{isolate(text, right_to_left)}{PDF}" if right_to_left else isolate(text, right_to_left)


def js(value) -> str:
    """A Python value as a Vega expression literal."""
    return json.dumps(value, ensure_ascii=False)


def num(expr: str, spec: str) -> str:
    """A number through Vega's format(), so it takes the page's digits."""
    return f"format({expr}, '{spec}')"


def vec(exprs: list[str], spec: str, lang: str) -> str:
    """A vector as a Vega expression, written as numfmt.vector writes it on the page ([1,94; 1,03],
    [۱٫۹۴، ۱٫۰۳]): one rule for vectors in the text, the tables and the charts."""
    sep = js(numfmt.LOCALES[lang]["list"])
    return '"[" + ' + f" + {sep} + ".join(num(e, spec) for e in exprs) + ' + "]"'


def say(template: str, right_to_left: bool | None = None, **parts: str) -> str:
    """A Vega expression writing `template` (from the strings) with {name} replaced by parts[name]
    (an expression; parts the template does not name are ignored); `right_to_left`: the direction of
    the whole readout `template` was cut from (by default its own)."""
    text = bidi(template, right_to_left)
    out, pos = [], 0
    for m in _PLACEHOLDER.finditer(text):
        if m.group(1) not in parts:
            raise KeyError(f"the string {template!r} names {{{m.group(1)}}}, which its chart does not give")
        if m.start() > pos:
            out.append(js(text[pos:m.start()]))
        out.append(f"({parts[m.group(1)]})")
        pos = m.end()
    if pos < len(text):
        out.append(js(text[pos:]))
    return " + ".join(out) or '""'


def say_lines(templates: list[str], **parts: str) -> str:
    """Several lines of text as one Vega array expression (a text mark draws one line per entry)."""
    return "[" + ", ".join(say(line, **parts) for line in templates) + "]"


def pick(exprs: list[str], index: str) -> str:
    """One of several expressions, chosen by an expression: [a, b, …][index]."""
    return "[" + ", ".join(exprs) + f"][{index}]"


def label(text: str, rtl_page: bool | None = None) -> str:
    """A control's name (HTML). On a right-to-left page (by default: when the name is right-to-left)
    it ends with a right-to-left mark so the value keeps its side."""
    return f"{isolate(text)}{RLM}" if (rtl(text) if rtl_page is None else rtl_page) else isolate(text)


def anchor(text) -> str:
    """Panel titles start where their script starts."""
    return "end" if rtl(text) else "start"


def align(text) -> str:
    """Text lines start where their script starts."""
    return "right" if rtl(text) else "left"


def lines_view(chart: alt.Chart, field: str, templates: list[str], parts: dict, right_x, y: int,
               line_height: int = 17, size: int = 13, **props) -> alt.Chart:
    """A block of text lines (from the strings) starting on the side its script starts: at x = 0, or
    at `right_x` for a right-to-left block; `field` must be the view's own (views sharing a source
    share tuples); props: the view's properties."""
    return chart.transform_calculate(**{field: say_lines(templates, **parts)}).mark_text(
        align=align(templates), baseline="top", fontSize=size, lineHeight=line_height,
        x=right_x if rtl(templates) else 0, y=y).encode(text=f"{field}:N").properties(**props)


# --- text that fits the chart's width --------------------------------------------------------------

# Vega cannot measure text in an expression: a line's width is estimated from its length, at this many
# em a character (measured: Cyrillic about 0.54, Persian about 0.45; bold counts BOLD times as wide),
# rounded up so a line breaks a little early rather than run out of a phone's chart.
CHAR_EM, BOLD = 0.57, 1.1
BREAK = "\n"   # the line break of a text mark drawn with lineBreak=BREAK
# Where a readout may break: after a clause's punctuation, or before an arrow or a separator.
_AFTER = re.compile(r"(?<=[;:,\u060c\u061b]) ")
_BEFORE = re.compile(r" (?=[→·—] )")
_OPERATORS = "=+−×·→—≈:Σ"
SHORT = 24   # characters (a number counted as eight): a piece this short is never broken further


def _length(text: str) -> int:
    """Characters of a template once written, a number taken as eight."""
    return len(_PLACEHOLDER.sub("x" * 8, text))


def halves(template: str) -> list[str]:
    """`template` cut in two at the break nearest its middle: after ; : , ، ؛ or before → · — where it
    has one, else at a space outside a `run`, else at a space inside one (each line keeps its part of the
    run isolated); never beside an operator (a = b). [template] when it cannot be cut."""
    def outside_formula(i):
        return template[:i].count("`") % 2 == 0
    cuts = [m.start() for rx in (_AFTER, _BEFORE) for m in rx.finditer(template) if outside_formula(m.start())]
    spaces = [i for i, ch in enumerate(template) if ch == " " and 0 < i < len(template) - 1
              and not {template[i - 1], template[i + 1]} & set(_OPERATORS)]          # never inside a = b
    cuts = cuts or [i for i in spaces if outside_formula(i)] or spaces   # a long `run` of words, last
    if not cuts:
        return [template]
    mid = _length(template) / 2
    cut = min(cuts, key=lambda i: abs(_length(template[:i]) - mid))
    if outside_formula(cut):
        return [template[:cut], template[cut + 1:]]
    return [template[:cut] + "`", "`" + template[cut + 1:]]     # each line keeps its part of the run isolated


def fit(template: str, size: float, width: str = "width", **parts: str) -> str:
    """A Vega expression writing `template` as say() does, on one line when it fits `width` (an
    expression, px) at font size `size`, else on two, else with its long pieces broken again, up to
    three times (lines joined by BREAK: draw it with lineBreak=BREAK)."""
    levels = [[template], halves(template)]
    while len(levels) < 4 and len(levels[-1]) > len(levels[-2]):     # long pieces broken again
        levels.append([q for p in levels[-1] for q in (halves(p) if _length(p) > SHORT else [p])])
    levels = [lv for k, lv in enumerate(levels) if k == 0 or len(lv) > len(levels[k - 1])]
    whole = rtl(template)     # every line keeps the readout's direction, whatever its own letters
    texts = [[f"({say(p, whole, **parts)})" for p in lv] for lv in levels]
    out = f" + {js(BREAK)} + ".join(texts[-1])
    for lines in reversed(texts[:-1]):
        longest = lines[0] if len(lines) == 1 else "max(" + ", ".join(f"length({x})" for x in lines) + ")"
        longest = f"length({lines[0]})" if len(lines) == 1 else longest
        out = f"({longest} * {size * CHAR_EM} <= {width} ? {f' + {js(BREAK)} + '.join(lines)} : {out})"
    return out


def lines_count(expr: str) -> str:
    """How many lines a fit() expression (or several joined by BREAK) draws."""
    return f"length(split({expr}, {js(BREAK)}))"


def lines_below(chart: alt.Chart, items: list[tuple[str, dict]], parts: dict, top: int = 10, gap: int = 2,
                width: str = "width") -> list[alt.Chart]:
    """Readout lines under a single view, each (template, mark properties) broken in two where the view
    is too narrow for it; every line starts below the ones above it however many lines they took, on the
    side its script starts. One text layer per item (the items may differ in size and weight)."""
    layers, y = [], str(top)
    for k, (template, mark) in enumerate(items):
        size, height = mark.get("fontSize", 13), mark.get("lineHeight", round(mark.get("fontSize", 13) * 1.3))
        text = fit(template, size * (BOLD if mark.get("fontWeight") == "bold" else 1), width, **parts)
        layers.append(chart.transform_calculate(**{f"line{k}": text}).mark_text(
            align=align(template), baseline="top", lineBreak=BREAK, lineHeight=height, **mark).encode(
            x=alt.value("width") if rtl(template) else alt.value(0),
            y=alt.value({"expr": f"height + {y}"}), text=f"line{k}:N"))
        y += f" + {lines_count(text)} * {height} + {gap}"
    return layers


def line_below(chart: alt.Chart, template: str, parts: dict, top: int = 10, **mark) -> alt.Chart:
    """One readout under a single view (broken in two where the view is too narrow for it)."""
    return lines_below(chart, [(template, mark)], parts, top=top)[0]


# --- frame ----------------------------------------------------------------------------------------

def dashboard(chart: alt.TopLevelMixin, t: dict) -> alt.TopLevelMixin:
    """Several panels under one centred title, kept below the page's chart menu."""
    return chart.configure_view(stroke=None).properties(
        title=alt.TitleParams(bidi_lines(t["title"], TITLE_CHARS), anchor="middle"), padding=PADDING,
        description=t["description"])


# A single view's title and subtitle break in two, at the space nearest the middle, past these lengths:
# a 390 px phone holds about that many characters of them beside the chart menu.
TITLE_CHARS, SUBTITLE_CHARS = 28, 40


def two_lines(text: str, limit: int):
    """`text` as it is, or as two lines of about equal length when longer than `limit` characters."""
    if len(text) <= limit or " " not in text:
        return text
    mid = len(text) / 2
    cut = min((i for i, ch in enumerate(text) if ch == " "), key=lambda i: abs(i - mid))
    return [text[:cut], text[cut + 1:]]


def bidi_lines(text, limit):
    lines = two_lines(text, limit)
    return bidi(lines) if isinstance(lines, str) else [bidi(x) for x in lines]


def single(chart: alt.TopLevelMixin, t: dict, **title) -> alt.TopLevelMixin:
    """One view as wide as the page, titled (and subtitled) where its script starts, below the page's
    chart menu; a long title or subtitle breaks in two so a phone shows all of it."""
    if "subtitle" in t:
        title["subtitle"] = bidi_lines(t["subtitle"], SUBTITLE_CHARS)
    return chart.properties(width="container", description=t["description"], padding=PADDING, title=alt.Title(
        bidi_lines(t["title"], TITLE_CHARS), anchor=anchor(t["title"]), **title))


# --- attention in the browser ---------------------------------------------------------------------

def softmax(chart: alt.Chart, score: str, groupby: list[str] | None = None, top: str = "zmax",
            total: str = "esum", shift: bool = True) -> alt.Chart:
    """Softmax of the field `score` over each group's rows: adds e (the exponential) and w (the
    weight). shift=False keeps e = exp(score) itself, for small numbers the page shows."""
    group = {"groupby": groupby} if groupby else {}
    if shift:
        chart = chart.transform_joinaggregate(**{top: f"max({score})"}, **group).transform_calculate(
            e=f"exp(datum.{score} - datum.{top})")
    else:
        chart = chart.transform_calculate(e=f"exp(datum.{score})")
    return chart.transform_joinaggregate(**{total: "sum(e)"}, **group).transform_calculate(
        w=f"datum.e / datum.{total}")


# --- colours -------------------------------------------------------------------------------------

def hue_scale(hues: dict, **scale) -> alt.Scale:
    """A colour scale giving each value a hue of the palette ({"matrix": "red", "proj": "blue"}),
    through the named range "category", so the dark scheme's colours replace the light ones in the page
    (scripts/charts/_palette.py). Hues the chart does not use hold unused domain slots."""
    by_hue = {h: v for v, h in hues.items()}
    last = max(HUES.index(h) for h in hues.values())
    domain = [by_hue.get(h, f"_{h}") for h in HUES[:last + 1]]
    return alt.Scale(domain=domain, range="category", **scale)


# --- axes -----------------------------------------------------------------------------------------

# Log-axis labels as powers of ten, each ONE text in the page's form (numfmt.power_of_ten, from the
# language file): 10¹² with a superscript exponent, or the language's own plain-text form where its digits
# have no superscripts (a raised exponent drawn as a second text floated loose of its base: issue 25).
_EXP = "round(log(datum.value) / LN10)"


def power_labels(exponents, lang: str) -> dict:
    """{k: the label of 10ᵏ} for a chart's labelExpr, each in its own direction (the exponent isolated
    left-to-right, so a Persian «−۶» keeps its minus in front)."""
    def one(k):
        text = numfmt.power_of_ten(k, lang)
        if not rtl(text):
            return text
        exp = numfmt.fmt(k, "d", lang)
        head, found, tail = bidi(text).rpartition(exp)
        return f"{head}{LRI}{exp}{PDI}{tail}" if found else bidi(text)
    return {str(k): one(k) for k in exponents}


def power_axis(lang: str, exponents, every: int = 1, size: int = 12, **axis) -> alt.Axis:
    """A log axis with a tick (and grid line) at each power 10ᵏ, k in `exponents`, labelled where k is a
    multiple of `every`: no label over another (greedy: on a phone's narrower responsive chart, a label
    that would touch the one before is left out), the end labels flush with the axis's ends, none past them."""
    exponents = list(exponents)
    label = f"{js(power_labels(exponents, lang))}[{_EXP}]"
    if every > 1:
        label = f"{_EXP} % {every} != 0 ? '' : {label}"
    return alt.Axis(values=[10.0 ** k for k in exponents], labelExpr=label, labelFontSize=size,
                    labelOverlap="greedy", labelFlush=True, labelBound=True, **axis)


def words_axis(words: list[str], index: str = "datum.value", **axis) -> alt.Axis:
    """An axis over positions 0, 1, … labelled with words (from the strings)."""
    return alt.Axis(labelExpr=f"{js(words)}[{index}]", **axis)


# --- a shape drawn from its patches ---------------------------------------------------------------

def pixel_scales(grid: int, side: int) -> tuple[alt.Scale, alt.Scale]:
    """x and y scales over the frame's pixels; y runs downwards like an image."""
    return (alt.Scale(domain=[0, grid * side], nice=False, zero=False),
            alt.Scale(domain=[0, grid * side], nice=False, zero=False, reverse=True))


def patch_pixels(chart: alt.Chart, slot: str, grid: int, side: int, fill: alt.Scale, **calc: str) -> alt.Chart:
    """One rect per pixel: each row of `chart` holds a patch vector `p` drawn at grid position `slot`
    (`calc`: more fields computed with the pixel's position)."""
    px, rpx = pixel_scales(grid, side)
    return (chart.transform_calculate(k=f"sequence(0, {side * side})")
            .transform_flatten(["p", "k"], as_=["v", "k"])
            .transform_calculate(**calc, x0=f"(datum.{slot} % {grid}) * {side} + datum.k % {side}",
                                 y0=f"floor(datum.{slot} / {grid}) * {side} + floor(datum.k / {side})")
            .transform_calculate(x1="datum.x0 + 1", y1="datum.y0 + 1")
            .mark_rect().encode(x=alt.X("x0:Q", scale=px, axis=None), x2="x1:Q",
                                y=alt.Y("y0:Q", scale=rpx, axis=None), y2="y1:Q",
                                fill=alt.Fill("v:Q", scale=fill, legend=None)))


def patch_box(slot: str, grid: int, side: int, colour: str) -> alt.Chart:
    """An outline around the patch at grid position `slot` (an expression) of the shape's picture."""
    px, rpx = pixel_scales(grid, side)
    return alt.Chart(alt.Data(values=[{"view": "box"}])).transform_calculate(
        x0=f"({slot} % {grid}) * {side}", y0=f"floor({slot} / {grid}) * {side}",
        x1=f"({slot} % {grid} + 1) * {side}", y1=f"(floor({slot} / {grid}) + 1) * {side}",
    ).mark_rect(fill=None, stroke=colour, strokeWidth=2.5).encode(
        x=alt.X("x0:Q", scale=px, axis=None), x2="x1:Q", y=alt.Y("y0:Q", scale=rpx, axis=None), y2="y1:Q")


# --- data loaded when a control asks for it ---------------------------------------------------------

def parts_by(datasets: dict) -> dict:
    """usermeta for a chart whose named inline datasets are split by the values of bound params:
    {dataset: [param, …]}, each dataset's rows holding a field named like each of its params. The page's
    spec holds only the rows for the params' initial values; the rows for other values load when the
    reader picks them (course_build/refs.py writes each combination's rows as a script beside the spec;
    assets/js/charts.js loads it and inserts them). Printing, the PDF and the static SVG show the initial
    values, so they need nothing more."""
    return {"parts": {"data": {name: [p.name for p in params] for name, params in datasets.items()}}}
