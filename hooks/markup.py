"""Small fixes to Material's page markup, each for a reason a test shows.

- <link rel=alternate hreflang> in <head>: Material fetches "sitemap.xml" next to each, and
  static-i18n points them at page counterparts (…/fa/self-attention/sitemap.xml → 404 console
  errors; CORS errors on file://). The visible language switcher already links each page to its
  counterpart, so the head links go.
- The search dialog has role="dialog" but no accessible name (axe: aria-dialog-name).
- The search index is written with every Persian and Cyrillic letter as a \\uXXXX escape; as
  plain UTF-8 it is about half the size, and every page downloads it.
"""
import json
import re
import sys
from pathlib import Path

from mkdocs.plugins import event_priority

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from scripts.common.i18n import strings  # noqa: E402

ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'


def on_post_page(output: str, page, config, **kwargs) -> str:
    name = strings(config["theme"]["language"])["ui"]["search_dialog"]
    output = ALTERNATE.sub("", output)
    if SEARCH_DIALOG not in output:
        raise RuntimeError("Material's search markup changed: update hooks/markup.py")
    return output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{name}">', 1)


@event_priority(-100)  # after static-i18n merged both languages' index (and the offline plugin inlined it)
def on_post_build(config, **kwargs) -> None:
    folder = Path(config["site_dir"]) / "search"
    index = folder / "search_index.json"
    if not index.exists():
        return
    text = json.dumps(json.loads(index.read_text(encoding="utf-8")), ensure_ascii=False, separators=(",", ":"))
    index.write_text(text, encoding="utf-8")
    if (folder / "search_index.js").exists():  # the offline copy reads the index from a script
        (folder / "search_index.js").write_text(f"var __index = {text}", encoding="utf-8")
