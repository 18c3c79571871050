"""Small fixes to Material's page markup, each for a reason a test shows.

- <link rel=alternate hreflang> in <head>: Material fetches "sitemap.xml" next to each, and
  static-i18n points them at page counterparts (…/fa/self-attention/sitemap.xml → 404 console
  errors; CORS errors on file://). The visible language switcher already links each page to its
  counterpart, so the head links go.
- Search: one index per language. static-i18n merges both languages into /search/, so every page
  downloaded the other language's text too and results mixed languages. Each language root gets
  its own index (/search/, /fa/search/), written as UTF-8 (not \\uXXXX escapes), and a page's
  search config points at its own language root.
- Search snippets keep word boundaries: the index keeps a section's text with its block tags, and Material's
  result list drops the tags, so two list items or a heading and its paragraph ran together («≈ 3 хв
  читанняРолі з двох джерел»). A space goes after a block's end and before its start, where text would touch.
- Code blocks are focusable from the start (tabindex="0"). Material makes a scrollable one focusable
  when it sets the block up, and with `content.lazy` (mkdocs.yml) that waits until the block nears the
  screen: until then a keyboard reader (and axe) met a scrolling region it could not reach.
"""
import json
import posixpath
import re
from pathlib import Path

from mkdocs.plugins import event_priority

from scripts.common import course

CONFIG_BASE = re.compile(r'"base": "[^"]*"')
CODE_BLOCK = re.compile(r'(<div class="language-[\w-]+ highlight"><pre>(?:<span></span>)?<code)(?=>)')
BLOCKS = "p|li|ul|ol|h[1-6]|td|th|tr|table|dd|dt|dl|pre|blockquote|div|figcaption"
BLOCK_EDGE = re.compile(rf"(</(?:{BLOCKS})>)(?=\S)|(?<=[^\s>])(?=<(?:{BLOCKS})\b)")  # after a block's end, before its start
ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')


def language_roots(config=None) -> list[str]:
    """Folders of the non-default languages, from the course model (scripts/common/course.py)."""
    return [lang.code for lang in course.languages() if not lang.default]


def on_post_page(output: str, page, config, **kwargs) -> str:
    output = ALTERNATE.sub("", output)
    output = CODE_BLOCK.sub(r'\1 tabindex="0"', output)
    root = next((r for r in language_roots(config) if page.url.startswith(r + "/")), None)
    if root:  # Material reads the search index at <base>/search/: this language's own
        here = page.url.rstrip("/") if page.url.endswith("/") else posixpath.dirname(page.url)  # the page's folder
        base = posixpath.relpath(root, here)
        output, n = CONFIG_BASE.subn(f'"base": "{base}"', output, count=1)
        if n != 1:
            raise RuntimeError("Material's __config has no base: update course_build/markup.py")
    return output


@event_priority(-100)  # after static-i18n merged both languages' index (and the offline plugin inlined it)
def on_post_build(config, **kwargs) -> None:
    site = Path(config["site_dir"])
    index = site / "search" / "search_index.json"
    if not index.exists():
        return
    merged = json.loads(index.read_text(encoding="utf-8"))
    roots = language_roots(config)
    parts = {"": []} | {r: [] for r in roots}
    for doc in merged["docs"]:
        root = next((r for r in roots if doc["location"].startswith(r + "/")), "")
        parts[root].append(dict(doc, location=doc["location"][len(root) + 1:] if root else doc["location"],
                                text=BLOCK_EDGE.sub(lambda m: (m.group(1) or "") + " ", doc["text"])))
    offline = (site / "search" / "search_index.js").exists()  # the offline copy reads it from a script
    for root, docs in parts.items():
        folder = site / root / "search"
        folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps(dict(merged, docs=docs), ensure_ascii=False, separators=(",", ":"))
        (folder / "search_index.json").write_text(text, encoding="utf-8")
        if offline:
            (folder / "search_index.js").write_text(f"var __index = {text}", encoding="utf-8")
