"""The provenance part's code listings load when the reader opens them (issue 12, lighter pages).

Each experiment's highlighted source is the heaviest thing in a lesson's HTML (about a quarter of it,
gzipped) and few readers open it. On the site, the listing inside an entry's <details> (as
pymdownx highlighted it, byte for byte) moves to `assets/code/<experiment>.js`, a script that hands
it to `assets/js/code-on-demand.js` (courseCode.define): a script, not a fetch, so it also works from
file://. One file per experiment serves every page and language. In its place the page keeps a link
to the file in the source repository (what a reader without JavaScript gets).

The offline copy keeps the listings in the page (it is read from disk, often without a network, and
its print pages feed the PDF), as do pages without a provenance part.

course_build/refs.py writes only the marks; this stage puts the listing between them, rendered once per
experiment and build (`listing`) by the site's own Markdown set-up: an experiment is listed on several pages
in every language, and highlighting each copy again was a quarter of a build's time.
"""
from __future__ import annotations

import html
import json
from pathlib import Path

import markdown

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from course_build.worker_shim import offline_build
from scripts.common.jsonio import write_if_changed

# course_build/refs.py puts these marks where each entry's listing goes (provenance_md): this stage finds the
# place by them, never by the markup around it. An HTML comment: it passes Markdown untouched, and
# highlighted code cannot hold one (pygments escapes "<").
OPEN = "<!-- listing "
CLOSE = "<!-- /listing -->"
# how pymdownx.highlight wraps a Python listing (its markup, not another stage's): what moves is the <pre>'s inside
HIGHLIGHT = ('<div class="language-python highlight"><pre>', "</pre></div>")


def listing_marks(exp: str, path: str) -> tuple[str, str]:
    """The marks around experiment `exp`'s listing of `path` (course_build/refs.py writes them)."""
    return f"{OPEN}{exp} {path} -->", CLOSE


_listings: dict[str, str] = {}  # experiment → the <pre>'s inner HTML, written by on_post_build
_rendered: dict[str, str] = {}  # source file → its highlighted listing, this build


def reset() -> None:
    """A new build starts from nothing (course_build/plugin.py calls this; `mkdocs serve` rebuilds in one process)."""
    _listings.clear()
    _rendered.clear()


def listing(path: str, config) -> str:
    """The file `path` as a Python code block of the site's Markdown (pymdownx.snippets includes it,
    pymdownx.highlight colours it): the HTML a page's own ```python fence gives, made once per build."""
    if path not in _rendered:
        md = markdown.Markdown(extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"])
        _rendered[path] = md.convert(f'```python\n--8<-- "{path}"\n```').strip()
    return _rendered[path]


def script_path(exp: str) -> str:
    return f"assets/code/{exp}.js"


@event_priority(40)  # after course_build/refs.py wrote the entries (50), before print pages and search copy it
def on_page_content(content: str, page, config, **kwargs) -> str:
    source = ((config.get("extra") or {}).get("source_url") or "").rstrip("/")
    offline = offline_build(config)
    parts, rest, moved = [], content, 0
    while (at := rest.find(OPEN)) >= 0:
        head, _, rest = rest[:at], None, rest[at + len(OPEN):]
        mark, _, rest = rest.partition(" -->")
        _, found, rest = rest.partition(CLOSE)  # nothing between the marks: the listing is put there below
        exp, _, file = mark.partition(" ")
        if not found or not file:
            raise PluginError(f"{page.file.src_uri}: the listing of {exp or '?'} has no closing mark "
                              "(course_build/refs.py provenance_md writes both, listing_marks)")
        parts.append(head)
        code = listing(file, config)
        if offline:  # the offline copy keeps the listing in the page
            parts.append(code)
            continue
        if not (code.startswith(HIGHLIGHT[0]) and code.endswith(HIGHLIGHT[1])):
            raise PluginError(f"{page.file.src_uri}: the listing of {exp} is not pymdownx.highlight's "
                              f"{HIGHLIGHT[0]}…{HIGHLIGHT[1]}: update HIGHLIGHT in course_build/code_listings.py")
        _listings[exp] = code[len(HIGHLIGHT[0]):-len(HIGHLIGHT[1])]
        src = get_relative_url(script_path(exp), page.url)
        fallback = f'<a href="{html.escape(source)}/blob/HEAD/{html.escape(file)}" dir="ltr">{html.escape(file)}</a>'
        parts.append(f'<div class="code-listing" data-code="{exp}" data-src="{html.escape(src)}"><p>{fallback}</p></div>')
        moved += 1
    page.meta["code_listings"] = bool(moved)
    return "".join(parts) + rest


def on_post_build(config, **kwargs) -> None:
    if offline_build(config):
        return
    site = Path(config["site_dir"])
    for exp, inner in sorted(_listings.items()):
        body = f"courseCode.define({json.dumps(exp)},{json.dumps(inner, ensure_ascii=False)});\n"
        write_if_changed(site / script_path(exp), body)
