"""The provenance part's code listings load when the reader opens them (issue 12, lighter pages).

Each experiment's highlighted source is the heaviest thing in a lesson's HTML (about a quarter of it,
gzipped) and few readers open it. On the site, the listing inside an entry's <details> (as
pymdownx highlighted it, byte for byte) moves to `assets/code/<experiment>.js`, a script that hands
it to `assets/js/code-on-demand.js` (courseCode.define): a script, not a fetch, so it also works from
file://. One file per experiment serves every page and language. In its place the page keeps a link
to the file in the source repository (what a reader without JavaScript gets).

The offline copy keeps the listings in the page (it is read from disk, often without a network, and
its print pages feed the PDF), as do pages without a provenance part.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from course_build.worker_shim import offline_build
from scripts.common.jsonio import write_if_changed

ENTRY = re.compile(r'(<section class="provenance-entry" id="src-([\w-]+)">)(.*?)(</section>)', re.S)
# the listing pymdownx.highlight wrote: code is escaped, so the first </pre></div> closes it
LISTING = re.compile(r'<div class="language-python highlight"><pre>(.*?)</pre></div>', re.S)
FILE = re.compile(r'<summary>[^<]*?(scripts/[\w/.-]+\.py)</summary>')

_listings: dict[str, str] = {}  # experiment → the <pre>'s inner HTML, written by on_post_build


def reset() -> None:
    """A new build starts from nothing (course_build/plugin.py calls this; `mkdocs serve` rebuilds in one process)."""
    _listings.clear()


def script_path(exp: str) -> str:
    return f"assets/code/{exp}.js"


@event_priority(40)  # after course_build/refs.py wrote the entries (50), before print pages and search copy it
def on_page_content(content: str, page, config, **kwargs) -> str:
    if offline_build(config):
        return content
    source = ((config.get("extra") or {}).get("source_url") or "").rstrip("/")

    def entry(m: re.Match) -> str:
        start, exp, body, end = m.groups()
        listing = LISTING.search(body)
        file = FILE.search(body)
        if not listing or not file:
            raise PluginError(f"{page.file.src_uri}: provenance entry {exp} has no code listing to move "
                              "(course_build/refs.py provenance_md writes one per entry)")
        inner = listing.group(1)
        if _listings.setdefault(exp, inner) != inner:
            raise PluginError(f"{exp}: its listing differs between pages; every page must include "
                              "scripts/experiments/{exp}.py the same way")
        src = get_relative_url(script_path(exp), page.url)
        fallback = (f'<a href="{html.escape(source)}/blob/HEAD/{html.escape(file.group(1))}" dir="ltr">'
                    f'{html.escape(file.group(1))}</a>')
        box = (f'<div class="code-listing" data-code="{exp}" data-src="{html.escape(src)}">'
               f'<p>{fallback}</p></div>')
        return start + body[:listing.start()] + box + body[listing.end():] + end

    out, n = ENTRY.subn(entry, content)
    page.meta["code_listings"] = bool(n)
    return out


def on_post_build(config, **kwargs) -> None:
    if offline_build(config):
        return
    site = Path(config["site_dir"])
    for exp, inner in sorted(_listings.items()):
        body = f"courseCode.define({json.dumps(exp)},{json.dumps(inner, ensure_ascii=False)});\n"
        write_if_changed(site / script_path(exp), body)
