"""Each lesson page as the printed notes need it, saved from mkdocs' own page objects during the build.

tools/pdf.py assembles one print page per language from these files instead of parsing Material's HTML:
    <PRINT_PAGES>/<site key>/<lang>/<page>.json (each chapter page: overview, sections) = {"title", "toc", "content", "shell"}
`content` is the article exactly as the reader gets it (after every hook, math rendered by course_build/katex.py
on post_page); `toc` is the page's own table of contents; `shell` is the whole page with the article
replaced by SHELL_SLOT (the print page takes its head, styles and scripts from it).
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parent.parent
from scripts.common import course
from scripts.common.paths import PRINT_PAGES  # shared with tools/pdf.py

SHELL_SLOT = "<!--print-article-slot-->"
_START, _END = "<!--print-article-->", "<!--/print-article-->"


def folder_for(site_dir) -> Path:
    """Where a build into `site_dir` saves its lesson pages (one folder per build: the site and the
    offline copy link assets differently)."""
    site = Path(site_dir).resolve()
    try:
        key = str(site.relative_to(ROOT)).replace(os.sep, "--")
    except ValueError:
        key = "ext-" + hashlib.sha256(str(site).encode()).hexdigest()[:12]
    return PRINT_PAGES / key


def _lesson(page, lang: str) -> str | None:
    """The chapter page (overview or section) this is, or None."""
    name = course.page_of(page.file.src_uri, lang)
    return name if name and course.chapter_of(name) else None


def saved_name(page: str) -> str:
    """The file a chapter page is saved to: 'self-attention/formula' → 'self-attention--formula'."""
    return page.replace("/", "--")


def _toc(items) -> list[dict]:
    return [{"id": i.id, "title": i.title, "level": i.level, "children": _toc(i.children)} for i in items]


@event_priority(-1000)  # after every other page_content step: what is marked is the final content
def on_page_content(content: str, page, config, **kwargs) -> str:
    if _lesson(page, config["theme"]["language"]) is None:
        return content
    return _START + content + _END


@event_priority(-1000)  # after course_build/katex.py rendered the math in the written page
def on_post_page(output: str, page, config, **kwargs) -> str:
    lang = config["theme"]["language"]
    lesson = _lesson(page, lang)
    if lesson is None:
        return output
    if output.count(_START) != 1 or output.count(_END) != 1:
        raise RuntimeError(f"{page.file.src_uri}: the print markers of course_build/print_pages.py are not in the page once "
                           "(a template or hook dropped or copied page.content): fix that template or hook")
    before, rest = output.split(_START, 1)
    article, after = rest.split(_END, 1)
    target = folder_for(config["site_dir"]) / lang / f"{saved_name(lesson)}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    data = {"title": page.title, "toc": _toc(page.toc), "content": article, "shell": before + SHELL_SLOT + after}
    tmp = target.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, target)
    return before + article + after
