"""Comments in the code a lesson shows its readers (files under scripts/snippets/, included as they are by
pymdownx.snippets) in the page's language.

The file keeps one set of comments, so it runs and reads as Python anywhere; each language's words for
them are in scripts/i18n/<lang>/site.yml `ui.code_comments`, keyed by the comment as the file writes it.
Only those comments change: other code on the page (provenance listings) is shown as it is.
"""
import html
import re

from course_build.texts import strings

COMMENT = re.compile(r'(<span class="c1">#\s*)([^<]*)(</span>)')   # a Python comment as Pygments marks it


def in_language(page_html: str, lang: str) -> str:
    words = strings(lang)["ui"].get("code_comments") or {}

    def swap(m: re.Match) -> str:
        said = words.get(html.unescape(m.group(2)).strip())
        return m.group(0) if said is None else m.group(1) + html.escape(said, quote=False) + m.group(3)
    return COMMENT.sub(swap, page_html)


def on_page_content(page_html: str, page, config, **kwargs) -> str:
    return in_language(page_html, config["theme"]["language"])
