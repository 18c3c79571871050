"""Fonts are served with just the characters they draw (issue 12, lighter pages): a chart-only font
with the characters of the charts, a page font with those of the built pages.

When a language's pinned chart family is not its page font (`font:` in scripts/i18n/<lang>/language.yml:
`chart` differs from `page`), nothing but chart text uses it, so the copy the site serves
(assets/vendor/<folder>/<face>.woff2, made by tools/vendor_assets.py) keeps only the characters in
those languages' compiled chart specs (titles, labels, data, formats: every string in
generated/charts/<lang>/*.vg.json), printable ASCII and the language's number signs. The glyph shapes
and advances are the pinned TTF's own, so the live chart measures text as the static SVG did
(vl-convert reads the full TTF; generated/ does not change). Subsets are cached by character set in
.cache/chart-fonts/. tests/test_chart_fonts.py checks that every character a chart draws is covered.

A page font (`page` in the `font:` block, when it is one of the pinned families: Vazirmatn for fa) is cut
the same way, to every character of the site's built HTML (text, attributes and Material's script
strings, in every language, so print pages, 404 pages and the PDF built from them are covered; the
exercise solutions a page loads when opened too) plus
its languages' charts and strings (scripts/i18n/<lang>/*.yml: cover, months, exercise verdicts).
What a reader types into search that no page shows falls back to the next font of the stack.
tests/test_chart_fonts.py checks every character of every page is covered.
"""
from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from scripts.common import course, fonts, numfmt

GEN = ROOT / "generated"
CACHE = ROOT / ".cache" / "chart-fonts"


def _strings(node, out: set[str]) -> None:
    if isinstance(node, str):
        out.update(node)
    elif isinstance(node, dict):
        for k, v in node.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(node, list):
        for v in node:
            _strings(v, out)


def chart_chars(lang: str) -> set[str]:
    """Every character a language's charts can draw: their specs' strings, ASCII, its number signs."""
    out = {chr(c) for c in range(0x20, 0x7F)} | {"\u00a0", "\u202f", "\u2212"}
    for spec in sorted((GEN / "charts" / lang).glob("*.vg.json")):
        _strings(json.loads(spec.read_text(encoding="utf-8")), out)
    _strings(numfmt.d3_locale(lang), out)
    return out


def chart_only_families() -> dict[str, set[str]]:
    """family → characters, for each pinned chart family no language uses as its page font."""
    page_fonts = {lang.font.get("page") for lang in course.languages()}
    out: dict[str, set[str]] = {}
    for lang in course.languages():
        family = lang.font["chart"]
        if family not in page_fonts:
            out.setdefault(family, set()).update(chart_chars(lang.code))
    return out


def page_families() -> dict[str, list[str]]:
    """family → the languages whose pages are set in it, for each page font that is a pinned family."""
    pinned = fonts.families()
    out: dict[str, list[str]] = {}
    for lang in course.languages():
        if lang.font.get("page") in pinned:
            out.setdefault(lang.font["page"], []).append(lang.code)
    return out


ESCAPED = re.compile(r"\\u([0-9a-fA-F]{4})")  # JSON in a page (Material's strings for its scripts)


def page_chars(site: Path, langs: list[str]) -> set[str]:
    """Every character a built page can show (all HTML of the site, entities and JSON escapes read),
    the languages' chart characters and the characters of their strings files."""
    out: set[str] = set()
    for lang in langs:
        out |= chart_chars(lang)
        for yml in sorted((ROOT / "scripts" / "i18n" / lang).glob("*.yml")):
            out.update(yml.read_text(encoding="utf-8"))
    # pages, and what they load into themselves later (course_build/exercise_solutions.py, listed before this hook)
    for page in sorted([*site.rglob("*.html"), *(site / "assets" / "solutions").glob("*.js")]):
        text = html.unescape(page.read_text(encoding="utf-8"))
        out.update(ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text))
    return out


# Both cuts keep the layout features a browser applies by itself (fontTools' default list: shaping
# init, medi, fina, rlig, ccmp, calt, liga, kern, mark…) and those our CSS asks for (course.css:
# tabular-nums); stylistic sets, alternates, discretionary ligatures, small capitals and old-style figures
# nobody asks for go (a quarter of the Persian face). Fractions (frac, numr, dnom) are in fontTools' list
# but a browser applies them only around a fraction slash (U+2044), so they stay only when one is shown.
# A chart font's MATH table (math layout, which no browser reads from a web font's text) goes too.
FEATURES = ["--layout-features+=tnum"]
FRACTIONS = ["--layout-features-=frac,numr,dnom"]
DROPPED_TABLES = "--drop-tables+=FFTM,MATH"


def features(chars: set[str]) -> list[str]:
    return FEATURES + ([] if "\u2044" in chars else FRACTIONS)


def subset_to(src: Path, dest: Path, chars: set[str]) -> None:
    from fontTools import subset as ft
    text = "".join(sorted(chars))
    options = [*features(chars), DROPPED_TABLES, "--no-hinting", "--desubroutinize", "--ignore-missing-unicodes"]
    key = hashlib.sha256((text + src.name + str(src.stat().st_size) + " ".join(options)).encode()).hexdigest()[:16]
    small = CACHE / key / dest.name
    if not small.exists():
        small.parent.mkdir(parents=True, exist_ok=True)
        tmp = small.with_suffix(".tmp")
        unicodes = ",".join(f"U+{ord(c):04X}" for c in sorted(chars))
        ft.main([str(src), f"--unicodes={unicodes}", *options, "--flavor=woff2", f"--output-file={tmp}"])
        tmp.replace(small)
    dest.write_bytes(small.read_bytes())


def on_post_build(config, **kwargs) -> None:
    site = Path(config["site_dir"])
    vendor = site / "assets" / "vendor"
    cuts = chart_only_families()
    for family, langs in page_families().items():
        cuts[family] = cuts.get(family, set()) | page_chars(site, langs)
    for family, chars in cuts.items():
        for ttf in fonts.files(family):
            for served in vendor.glob(f"*/{ttf.stem}.woff2"):  # the faces the pages' @font-face serve
                subset_to(ttf, served, chars)
