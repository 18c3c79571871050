"""Render every formula to HTML at build time with the pinned KaTeX (node), once per page.

pymdownx.arithmatex (generic mode) leaves \\( … \\) and \\[ … \\] in spans/divs; here they become
KaTeX HTML, so pages need only KaTeX's stylesheet and fonts. A formula KaTeX rejects stops the
build, naming the page and the formula. Renders are cached by content hash in .cache/katex/.
"""
from __future__ import annotations

import hashlib
import html
import json
import re
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
RENDERER = ROOT / "tools" / "katex_render.cjs"
CACHE = ROOT / ".cache" / "katex"
MATH = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.S)


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
    rendered = iter(render(items, f"docs/{page.file.src_uri}"))
    return MATH.sub(lambda m: (f'<div class="math">{next(rendered)}</div>' if m.group(1) == "div"
                               else f'<span class="math">{next(rendered)}</span>'), content)
