"""Text inside charts: bidi handling for Persian lines, Vega expressions from string templates.

Shared by the chart builders (a change here rebuilds every chart). Charts are drawn left-to-right so
their axes do not flip; these helpers make each Persian text read right-to-left inside them.
"""
import json
import re

# Text in an SVG chart has no bidi context of its own (the chart is ltr so axes do not flip). A line
# written in a right-to-left script is embedded right-to-left, and inside it every formula-like run
# (Latin letters, √, with their numbers: "√d = {sd}", "n : ۲d") is isolated left-to-right. (Isolates,
# not embeddings: an embedded run would pull a following "): ۲۷" into its left-to-right order.)
RLE, PDF, RLM, LRI, PDI = "\u202b", "\u202c", "\u200f", "\u2066", "\u2069"
_NOT_RTL = "[^\u0600-\u06ef\u06fa-\u06ff\u200c\u060c\u061b]"          # not a Persian letter, ، or ؛
_START, _END = "[A-Za-z0-9\u06f0-\u06f9{√|]", "[A-Za-z0-9\u06f0-\u06f9}ᵀ²|\u2080-\u2089]"
_RUN = re.compile(_START + _NOT_RTL + "*" + _END + "|[A-Za-z]")
_RUN_NO_BRACKET = re.compile(_START + _NOT_RTL[:-1] + "()]*" + _END + "|[A-Za-z]")


def rtl(text: str) -> bool:
    return any("\u0590" <= ch <= "\u08ff" for ch in text)


def isolate(text: str) -> str:
    """Right-to-left text with its formula-like runs kept left-to-right."""
    def ltr(m: re.Match) -> str:
        run = m.group(0)
        if run.count("(") != run.count(")"):          # a bracket of the sentence: the pieces inside
            return _RUN_NO_BRACKET.sub(ltr, run)
        formula = re.search("[A-Za-z√]", re.sub(r"\{\w+\}", "", run))   # {name}: a number
        return f"{LRI}{run}{PDI}" if formula else run
    return _RUN.sub(ltr, text) if rtl(text) else text


def bidi(text: str) -> str:
    """A static string for the SVG, in its own direction."""
    return f"{RLE}{isolate(text)}{PDF}" if rtl(text) else text


def say(template: str, **parts: str) -> str:
    """A Vega expression writing `template` (from the strings) with {name} replaced by parts[name]."""
    text = bidi(template)
    out, pos = [], 0
    for m in re.finditer(r"\{(\w+)\}", text):
        if m.start() > pos:
            out.append(json.dumps(text[pos:m.start()], ensure_ascii=False))
        out.append(f"({parts[m.group(1)]})")
        pos = m.end()
    if pos < len(text):
        out.append(json.dumps(text[pos:], ensure_ascii=False))
    return " + ".join(out) or '""'


def label(text: str) -> str:
    """A control's name (HTML); a right-to-left one ends with a right-to-left mark so the value keeps its side."""
    return f"{isolate(text)}{RLM}" if rtl(text) else text


def anchor(text: str) -> str:
    """Panel titles start where their script starts."""
    return "end" if rtl(text) else "start"


RLI = "\u2067"  # right-to-left isolate (closed by PDI)


def iso(text: str) -> str:
    """A right-to-left line isolated inside the chart's left-to-right SVG."""
    return RLI + text + PDI if rtl(text) else text


def text_expr(template: str, fields: dict | None = None) -> str:
    """'N = {n:,d}' -> a Vega expression; numbers go through format() so they take the page's
    digits; a Persian line is isolated right-to-left. Fields default to datum.<name>."""
    fields = fields or {}
    parts = re.split(r"\{(\w+)(?::([^}]*))?\}", iso(template))
    out = []
    for i in range(0, len(parts), 3):
        if parts[i]:
            out.append(json.dumps(parts[i], ensure_ascii=False))
        if i + 1 < len(parts):
            src = fields.get(parts[i + 1], f"datum.{parts[i + 1]}")
            out.append(f"format({src}, '{parts[i + 2]}')" if parts[i + 2] else src)
    return " + ".join(out)
