"""Render every formula to MathML at build time with the pinned KaTeX (node), once per page.

pymdownx.arithmatex (generic mode) leaves \\( … \\) and \\[ … \\] in spans/divs; here they become
MathML, which every engine the course supports draws (MathML Core), so pages ship no KaTeX script, no
KaTeX stylesheet and none of its twenty fonts: one math font, STIX Two Math (pinned from npm), cut to the
characters the formulas use. MathML alone is about a third of KaTeX's HTML-and-MathML elements (issue 23:
the block section went from 4 117 elements to under 3 000). On a page whose language writes other digits
(Persian), the digits of numbers inside formulas are that language's, as in its text, and where its language.yml
says so (`list_separator_in_formulas`) a formula's commas are its list separator («[۲، ۰]»). A formula KaTeX
rejects stops the build, naming the page and the formula. Renders are cached by content hash in
.cache/katex/, the font subset by character set in .cache/math-font/. A page with a formula near its
first screen preloads the math font, so it is asked for with the stylesheets (issue 12, first paint).
"""
from __future__ import annotations

import functools
import hashlib
import html
import json
import re
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
from course_build.worker_shim import offline_build
from scripts.common.course import language

RENDERER = ROOT / "tools" / "katex_render.cjs"
CACHE = ROOT / ".cache" / "katex"
MATH = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
FONT = ROOT / "node_modules" / "@fontsource" / "stix-two-math" / "files" / "stix-two-math-latin-400-normal.woff2"
SITE_FONT = "assets/vendor/math/STIXTwoMath-Regular.woff2"    # tools/vendor_assets.py copies it there
FONT_CACHE = ROOT / ".cache" / "math-font"
TAG = re.compile(r"<[^>]*>")
ANNOTATION = re.compile(r"<annotation\b.*?</annotation>", re.S)     # the TeX source: kept, never drawn
NUMBER = re.compile(r"(<(mn|mtext)>)([^<]*)(</\2>)")
# a one-letter <mi> is drawn in the Mathematical Italic block (MathML's math-auto): the font needs the italic
# forms of the letters the formulas write so (a fifth of the font was the whole block: Greek, capitals nobody writes)
ONE_LETTER = re.compile(r"<mi>([^<])</mi>")
ITALIC_FROM = {**{chr(0x41 + i): 0x1D434 + i for i in range(26)}, **{chr(0x61 + i): 0x1D44E + i for i in range(26)},
               "h": 0x210E,  # the block's hole: Planck's constant stands in for italic h
               **{chr(0x391 + i): 0x1D6E2 + i for i in range(25)}, **{chr(0x3B1 + i): 0x1D6FC + i for i in range(25)},
               "∇": 0x1D6FB, "∂": 0x1D715, "ϵ": 0x1D716, "ϑ": 0x1D717, "ϰ": 0x1D718, "ϕ": 0x1D719, "ϱ": 0x1D71A,
               "ϖ": 0x1D71B, "ϴ": 0x1D6F3}
# drawn from markup, not text: <msqrt> takes the font's √ (and its taller variants), stretchy fences and
# bars take theirs; the invisible operators KaTeX writes
DRAWN = [0x221A, 0x2016, 0x2223, 0x2225, 0x27E8, 0x27E9, 0x2308, 0x2309, 0x230A, 0x230B, 0x23DE, 0x23DF,
         0x2190, 0x2192, 0x2194, 0x203E, 0x2061, 0x2062, 0x2063, 0x2064]
# characters of text on a 390 px phone's first two screens, under the header: a formula within them is
# drawn during the first view, so its font is worth asking for with the stylesheets
NEAR_FIRST_SCREEN_CHARS = 3000


def text_chars(html: str) -> int:
    """Characters of running text in an HTML fragment (tags dropped, white space collapsed)."""
    return len(" ".join(TAG.sub(" ", html).split()))
used_chars: set[str] = set()  # every character the rendered formulas show, over the whole build
italic_chars: set[int] = set()  # the italic forms of the one-letter <mi> they write, over the whole build


def on_pre_build(config, **kwargs) -> None:
    used_chars.clear()
    italic_chars.clear()


def italic_forms(mathml: str) -> set[int]:
    """The Mathematical Italic characters a browser draws for a formula's one-letter identifiers (an <mi> with
    a mathvariant, e.g. "normal", is drawn as written and its letter is in used_chars)."""
    return {ITALIC_FROM[c] for c in ONE_LETTER.findall(mathml) if c in ITALIC_FROM}


@functools.cache
def _renderer() -> str:
    """What a render depends on besides its formula: KaTeX's version and the renderer's options (its output
    kind). Read once per build process, not once per formula."""
    version = json.loads((ROOT / "node_modules/katex/package.json").read_text())["version"]
    return f"{version}\0{RENDERER.read_text()}"


def _key(tex: str, display: bool) -> str:
    return hashlib.sha256(f"{_renderer()}\0{display}\0{tex}".encode()).hexdigest()


def render(items: list[tuple[str, bool]], where: str) -> list[str]:
    keys = [_key(t, d) for t, d in items]
    todo = [(k, t, d) for k, (t, d) in zip(keys, items) if not (CACHE / k).exists()]
    if todo:
        proc = subprocess.run(["node", str(RENDERER)], input=json.dumps([{"tex": t, "display": d} for _, t, d in todo]),
                              capture_output=True, text=True, cwd=ROOT)
        if proc.returncode:
            raise PluginError(f"{where}: KaTeX could not render a formula:\n{proc.stderr.strip()[:800]}")
        CACHE.mkdir(parents=True, exist_ok=True)
        for (k, _, _), out in zip(todo, json.loads(proc.stdout)):
            (CACHE / k).write_text(out, encoding="utf-8")
    return [(CACHE / k).read_text(encoding="utf-8") for k in keys]


# KaTeX writes \\max, \\ln, \\sin as a name then U+2061 (function application), whose operator spacing is
# zero in MathML Core: "max z" ran together as "maxz". TeX puts a thin space (3/18 em) after such a name.
APPLY = "<mo>\u2061</mo>"
APPLY_SPACED = '<mo lspace="0em" rspace="0.1667em">\u2061</mo>'


# A sign right after an operator or an open group is a prefix (−a_i a_k after "="); MathML Core infers
# the infix form from its place in the row and spaced it like a subtraction: "= − a".
PREFIX = re.compile(r"(<mo[^>]*>[^<]*</mo>|<mrow>|<semantics>)<mo>([−+])</mo>")


def spaced(mathml: str) -> str:
    return PREFIX.sub(r'\1<mo form="prefix">\2</mo>', mathml.replace(APPLY, APPLY_SPACED))


def in_numerals(mathml: str, lang) -> str:
    """Digits (and the decimal point) of the numbers and text inside a formula, in the language's numerals."""
    if lang.numerals == "0123456789":
        return mathml
    table = str.maketrans({**{str(i): d for i, d in enumerate(lang.numerals)}, ".": lang.decimal})
    return NUMBER.sub(lambda m: m.group(1) + m.group(3).translate(table) + m.group(4), mathml)


# KaTeX writes a comma of the source as a separator (\mathpunct): <mo separator="true">,</mo>. A comma inside a
# number (1{,}5) is part of its <mn> and is not one.
COMMA = re.compile(r'<mo( separator="true")?>,</mo>')
# MathML Core spaces a comma 0 before and 3/18 em after (TeX's \mathpunct); a sign its operator dictionary does not
# know would get 5/18 em on both sides, so the replacement carries the comma's own spacing
SEPARATOR = '<mo separator="true" lspace="0em" rspace="0.1667em">{}</mo>'


def in_list_separator(mathml: str, lang) -> str:
    """Where language.yml says `list_separator_in_formulas`, every comma a formula writes is drawn as the
    language's list separator: the parts of a vector ($[2, 0]$), a function's arguments ($f(x, y)$), the
    sentence's own comma inside a formula. So a formula shows a vector as the number formatter writes one in the
    text beside it (scripts/common/numfmt.py `vector`: «[۱٫۹۴، ۱٫۰۳]»). The TeX source stays as written."""
    if not lang.list_separator_in_formulas:
        return mathml
    return COMMA.sub(SEPARATOR.format(html.escape(lang.list_separator.strip())), mathml)


def localized(mathml: str, lang) -> str:
    """A formula as KaTeX wrote it, finished for the page's language: spacing, numerals, list separator."""
    return in_list_separator(in_numerals(spaced(mathml), lang), lang)


def on_post_page(content: str, page, config, **kwargs) -> str:
    # After the page is written out, not on its content: the search index then holds the TeX
    # source of each formula (searchable) instead of KaTeX's three renderings of it.
    found = list(MATH.finditer(content))
    if not found:
        return content
    items = []
    for m in found:
        tex = html.unescape(m.group(2)).strip()
        display = m.group(1) == "div"
        tex = tex[2:-2] if tex[:2] in ("\\(", "\\[") else tex
        items.append((tex.strip(), display))
    lang = language(config["theme"]["language"])
    out = [localized(h, lang) for h in render(items, f"docs/{page.file.src_uri}")]
    for h in out:
        used_chars.update(html.unescape(TAG.sub("", ANNOTATION.sub("", h))))
        italic_chars.update(italic_forms(html.unescape(ANNOTATION.sub("", h))))
    rendered = iter(out)
    content = MATH.sub(lambda m: (f'<div class="math">{next(rendered)}</div>' if m.group(1) == "div"
                                  else f'<span class="math">{next(rendered)}</span>'), content)
    return preload_first_fonts(content, page, config)


def preload_first_fonts(content: str, page, config) -> str:
    """The page's head asks for the math font when a formula is near the first screen. The page is finished
    here (formulas are rendered after the template), so the link goes in before </head>. Not in the offline
    copy: a preload from file:// is a cross-origin request Chromium refuses (as in overrides/main.html)."""
    if offline_build(config):
        return content
    article = content.find("<article")
    first = content.find('class="katex"', article)
    if article < 0 or first < 0 or text_chars(content[article:first]) >= NEAR_FIRST_SCREEN_CHARS:
        return content
    link = (f'<link rel="preload" href="{get_relative_url(SITE_FONT, page.url)}" '
            'as="font" type="font/woff2" crossorigin>')
    return content.replace("</head>", link + "</head>", 1)


def on_post_build(config, **kwargs) -> None:
    """Cut the math font the site ships to the characters its formulas use, the italic forms of their one-letter
    identifiers, and ASCII
    (so a fallback never misses a Latin letter or digit); the font's MATH table keeps the stretchy variants."""
    from fontTools import subset as ft
    dest = Path(config["site_dir"]) / SITE_FONT
    if not dest.is_file():
        return
    codes = {ord(c) for c in used_chars} | set(range(0x20, 0x7F)) | set(DRAWN) | italic_chars
    unicodes = ",".join(f"U+{c:04X}" for c in sorted(codes))
    # the font package's version (in its package.json) names the font
    key = hashlib.sha256((unicodes + (FONT.parent.parent / "package.json").read_text()).encode()).hexdigest()[:16]
    small = FONT_CACHE / key / dest.name
    if not small.exists():
        small.parent.mkdir(parents=True, exist_ok=True)
        tmp = small.with_suffix(".tmp")
        ft.main([str(FONT), f"--unicodes={unicodes}", "--layout-features=*", "--flavor=woff2",
                 f"--output-file={tmp}", "--no-hinting", "--desubroutinize", "--ignore-missing-unicodes"])
        tmp.replace(small)
    dest.write_bytes(small.read_bytes())
