"""Render every formula to HTML at build time with the pinned KaTeX (node), once per page.

pymdownx.arithmatex (generic mode) leaves \\( … \\) and \\[ … \\] in spans/divs; here they become
KaTeX HTML, so pages need only KaTeX's stylesheet and fonts. A formula KaTeX rejects stops the
build, naming the page and the formula. Renders are cached by content hash in .cache/katex/.
KaTeX's fonts in the built site keep only the characters the formulas use (issue 12, lighter pages:
about two thirds of their weight); the subsets are cached by character set in .cache/katex-fonts/.
A page with a formula near its first screen preloads the two fonts nearly every formula draws with, so they
are asked for with the stylesheets instead of after the first layout (issue 12, Lighthouse's first paint).
"""
from __future__ import annotations

import hashlib
import html
import json
import re
import subprocess
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from hooks.render_on_view import FIRST_SCREEN_CHARS, text_chars  # noqa: E402
from hooks.worker_shim import offline_build  # noqa: E402

RENDERER = ROOT / "tools" / "katex_render.cjs"
CACHE = ROOT / ".cache" / "katex"
MATH = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)
FONTS = ROOT / "node_modules" / "katex" / "dist" / "fonts"
FONT_CACHE = ROOT / ".cache" / "katex-fonts"
TAG = re.compile(r"<[^>]*>")
# italic letters and digits/signs: the fonts of nearly every formula (KaTeX's .mathnormal and .mord)
FIRST_FONTS = ("KaTeX_Main-Regular", "KaTeX_Math-Italic")
# text on a phone's first two screens: Chromium lays out a content-visibility block that near the viewport
# at load (hooks/render_on_view.py), and so asks for its fonts
NEAR_FIRST_SCREEN_CHARS = 2 * FIRST_SCREEN_CHARS
used_chars: set[str] = set()  # every character the rendered formulas show, over the whole build


def on_pre_build(config, **kwargs) -> None:
    used_chars.clear()


def _key(tex: str, display: bool) -> str:
    version = json.loads((ROOT / "node_modules/katex/package.json").read_text())["version"]
    return hashlib.sha256(f"{version}\0{display}\0{tex}".encode()).hexdigest()


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
    out = render(items, f"docs/{page.file.src_uri}")
    for h in out:
        used_chars.update(html.unescape(TAG.sub("", h)))
    rendered = iter(out)
    content = MATH.sub(lambda m: (f'<div class="math">{next(rendered)}</div>' if m.group(1) == "div"
                                  else f'<span class="math">{next(rendered)}</span>'), content)
    return preload_first_fonts(content, page, config)


def preload_first_fonts(content: str, page, config) -> str:
    """The page's head asks for FIRST_FONTS when a formula is near the first screen. The page is finished
    here (formulas are rendered after the template), so the links go in before </head>. Not in the offline
    copy: a preload from file:// is a cross-origin request Chromium refuses (as in overrides/main.html)."""
    if offline_build(config):
        return content
    article = content.find("<article")
    first = content.find('class="katex"', article)
    if article < 0 or first < 0 or text_chars(content[article:first]) >= NEAR_FIRST_SCREEN_CHARS:
        return content
    links = "".join(f'<link rel="preload" href="{get_relative_url(f"assets/vendor/katex/fonts/{name}.woff2", page.url)}" '
                    'as="font" type="font/woff2" crossorigin>' for name in FIRST_FONTS)
    return content.replace("</head>", links + "</head>", 1)


def on_post_build(config, **kwargs) -> None:
    """Subset each KaTeX font the site ships to the characters its formulas use (plus ASCII, so a
    fallback rendering never misses a Latin letter or digit)."""
    from fontTools import subset as ft
    site_fonts = Path(config["site_dir"]) / "assets" / "vendor" / "katex" / "fonts"
    if not site_fonts.is_dir():
        return
    chars = sorted(used_chars | {chr(c) for c in range(0x20, 0x7F)})
    unicodes = ",".join(f"U+{ord(c):04X}" for c in chars)
    key = hashlib.sha256(("".join(chars) + (FONTS.parent.parent / "package.json").read_text()).encode()).hexdigest()[:16]
    cache = FONT_CACHE / key
    for dest in site_fonts.glob("*.woff2"):
        small = cache / dest.name
        if not small.exists():
            small.parent.mkdir(parents=True, exist_ok=True)
            tmp = small.with_suffix(".tmp")
            ft.main([str(FONTS / dest.name), f"--unicodes={unicodes}", "--layout-features=*", "--flavor=woff2",
                     f"--output-file={tmp}", "--no-hinting", "--desubroutinize", "--ignore-missing-unicodes"])
            tmp.replace(small)
        dest.write_bytes(small.read_bytes())
