"""Formula fragments inside right-to-left text, written as HTML that keeps their order.

In a Persian sentence «بر √d تقسیم» the root sign is a neutral character: the bidi algorithm gives
it the sentence's direction, and the reader sees «d√». Plain HTML text (figure captions, data-table
headers) therefore wraps each fragment that holds a symbol or a digit among Latin letters — √d, QKᵀ,
2n²d, q·k/√d, d = ۳۲ — in <bdi dir="ltr">, which keeps it whole and left to right on the site and in
the PDF.
Not a hook: course_build/refs.py imports it.
"""
from __future__ import annotations

import html
import re

from scripts.common.course import languages

# Every language's digits (the course model's numerals: a language added with other digits is covered too)
_DIGIT = "0-9" + re.escape("".join(sorted({d for l in languages() for d in l.numerals} - set("0123456789"))))
# Characters a formula fragment is made of: Latin and Greek letters, the digits, super- and subscripts, and the
# operators the course writes in text.
_CHARS = _DIGIT + r"A-Za-z\u0370-\u03ff\u066b\u066c\u00b2\u00b3\u00b9\u02e3\u1d40\u2070-\u209f√·×÷±−+=≈≤≥<>/|^_.′'Σ∑"
# A number's group sign between two digits (the course model's thousands signs: «1 024» with a narrow
# no-break space) is part of it: the fragment «M = 1 024» was cut after «1».
_GROUP = "".join(sorted({re.escape(l.thousands) for l in languages() if l.thousands and l.thousands not in " "}))
_IN_NUMBER = rf"(?<=[{_DIGIT}])[{_GROUP}](?=[{_DIGIT}])" if _GROUP else r"(?!)"
# A hyphen between two letters or digits joins a name (ViT-B/16): cut there, the name read «B/16-ViT».
_JOINER = rf"(?<=[A-Za-z{_DIGIT}])-(?=[A-Za-z{_DIGIT}])"
# Words of those characters separated by spaces; a bracket only right after one (f(x), Σp(1−p)), so
# a gloss in brackets «(patch)» stays with the sentence.
_BRACKETS = rf"\((?:[{_CHARS} ,]|\([{_CHARS} ,]*\))*\)"  # one level of nesting: sum(p.numel())
_WORD = rf"(?:[{_CHARS}]|{_IN_NUMBER}|{_JOINER})+(?:{_BRACKETS}(?:[{_CHARS}]|{_IN_NUMBER}|{_JOINER})*)*"
_FRAGMENT = re.compile(rf"{_WORD}(?: +{_WORD})*")
_LETTER = re.compile(r"[A-Za-z\u0370-\u03ff]")
_PLAIN = re.compile(r"[A-Za-z\u0370-\u03ff ]+")  # Latin words alone already read left to right


def _trim(fragment: str) -> str:
    """Drop the sentence's full stop."""
    return fragment.rstrip(".")


def isolate_formulas(text: str) -> str:
    """`text` as escaped HTML, its formula fragments isolated left to right. Done in every language:
    a fragment alone in a right-to-left table cell («√d») is reordered too, and in left-to-right
    text the isolation changes nothing."""
    out, pos = [], 0
    for m in _FRAGMENT.finditer(text):
        frag = _trim(m.group(0))
        if not frag or not _LETTER.search(frag) or _PLAIN.fullmatch(frag):
            continue
        out.append(html.escape(text[pos:m.start()]))
        out.append(f'<bdi dir="ltr">{html.escape(frag)}</bdi>')
        pos = m.start() + len(frag)
    out.append(html.escape(text[pos:]))
    return "".join(out)
