"""Small fixes to Material's page markup, each for a reason a test shows.

- <link rel=alternate hreflang> in <head>: Material fetches "sitemap.xml" next to each, and
  static-i18n points them at page counterparts (…/fa/self-attention/sitemap.xml → 404 console
  errors; CORS errors on file://). The visible language switcher already links each page to its
  counterpart, so the head links go.
- The search dialog has role="dialog" but no accessible name (axe: aria-dialog-name).
"""
import re
import sys
from pathlib import Path

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
