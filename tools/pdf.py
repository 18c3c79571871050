"""Printable course notes: one A4 PDF per language, from the offline build, in Debian's chromium.

    python tools/pdf.py   -> build/downloads/attention-course-<lang>.pdf
Each PDF: a cover (title, language, build date), contents, the lessons in order, page numbers in
the language's digits (CSS page margin boxes), charts as vector SVG in their initial state,
controls hidden by the print stylesheet. Run tools/offline.py first (make site does).
"""
from __future__ import annotations

import datetime as dt
import html
import os
import re
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
from browser import ALL_CHARTS_RENDERED, launch  # noqa: E402
from offline import DOWNLOADS, OUT, record  # noqa: E402
from scripts.common import dates  # noqa: E402
from scripts.common.dates import gregorian_to_jalali  # noqa: E402,F401  (tests import it from here)
from scripts.common.i18n import languages, strings  # noqa: E402

LESSONS = ("self-attention", "cross-attention")
ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*?)</article>', re.S)


def folder(lang: str) -> Path:
    return OUT if lang == "uk" else OUT / lang


def lesson_article(lang: str, name: str) -> tuple[str, list[tuple[str, str]]]:
    """The lesson's article with ids prefixed (two lessons may share a heading id) and its h1/h2 list."""
    page = (folder(lang) / f"{name}.html").read_text(encoding="utf-8")
    body = ARTICLE.search(page).group(1)
    body = re.sub(r'<a class="headerlink"[^>]*>.*?</a>', "", body)
    body = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{name}--{m.group(1)}"', body)
    body = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{name}--{m.group(1)}"', body)
    heads = [(f"{name}--{i}", re.sub(r"<[^>]+>", "", t).strip(), int(level))
             for level, i, t in re.findall(r'<h([12]) id="' + re.escape(name) + r'--([^"]+)"[^>]*>(.*?)</h[12]>', body, re.S)]
    return f'<section class="print-lesson">{body}</section>', heads


def date_text(lang: str, ui: dict, today: dt.date | None = None) -> str:
    """The cover's date in the language's calendar (scripts/common/dates.py; ui is kept for callers)."""
    return dates.date_text(today or dt.date.today(), lang)


SOLUTION = re.compile(r'<details\b([^>]*\bclass="exercise-solution"[^>]*)>\s*<summary>.*?</summary>(.*?)</details>', re.S)


def answers_appendix(lang: str, lessons: list[str]) -> tuple[str, list[tuple[str, str, int]]]:
    """The exercises' answers and worked solutions, lesson by lesson, numbered as in the lessons
    (their closed <details class="exercise-solution"> moved to the end; print CSS hides them in place)."""
    title = strings(lang)["exercises"]["ui"]["answers"]
    parts = []
    for body in lessons:
        found = SOLUTION.findall(body)
        if not found:
            continue
        h1 = re.search(r"<h1[^>]*>(.*?)</h1>", body, re.S)
        parts.append(f"<h2>{h1.group(1) if h1 else ''}</h2>")
        for attrs, solution in found:
            number = html.unescape(re.search(r'data-title="([^"]*)"', attrs).group(1))
            parts.append(f'<div class="print-answer"><h3>{html.escape(number)}</h3>{solution}</div>')
    if not parts:
        return "", []
    style = ("<style>.print-answers { break-before: page; } .print-answer { break-inside: avoid; }"
             " .print-answers h3 { margin: 1em 0 .2em; }</style>")
    section = f'{style}<section class="print-answers"><h1 id="answers">{html.escape(title)}</h1>{"".join(parts)}</section>'
    return section, [("answers", title, 1)]


def print_page(lang: str) -> Path:
    s = strings(lang)
    ui = s["ui"]["print"]
    template = (folder(lang) / "index.html").read_text(encoding="utf-8")
    lessons, toc = [], []
    for name in LESSONS:
        body, heads = lesson_article(lang, name)
        lessons.append(body)
        toc += heads
    appendix, appendix_toc = answers_appendix(lang, lessons)
    toc += appendix_toc
    site_name = re.search(r"<title>(.*?)</title>", template, re.S).group(1).split(" - ")[-1].strip()
    toc_html = "".join(f'<li class="toc-h{level}"><a href="#{anchor}">{html.escape(text)}</a></li>'
                       for anchor, text, level in toc)
    cover = (f'<section class="print-cover"><h1>{html.escape(site_name)}</h1>'
             f'<p class="print-subtitle">{html.escape(ui["subtitle"])}</p>'
             f'<p>{html.escape(ui["language"])}</p>'
             f'<p>{html.escape(ui["built"].format(date=date_text(lang, ui)))}</p></section>'
             f'<nav class="print-toc"><h2>{html.escape(ui["contents"])}</h2><ol>{toc_html}</ol></nav>')
    page_css = f"""<style>
@page {{ size: A4; margin: 16mm 15mm 18mm;
  @bottom-center {{ content: "{ui['page']}" counter(page, {ui['counter']});
    font-family: {'Vazirmatn' if lang == 'fa' else 'sans-serif'}; font-size: 9pt; color: #555; }} }}
@page :first {{ @bottom-center {{ content: none; }} }}
.print-cover {{ break-after: page; padding-top: 30vh; text-align: center; }}
.print-cover h1 {{ font-size: 2.4em; margin-bottom: .4em; }}
.print-subtitle {{ font-size: 1.3em; }}
.print-toc {{ break-after: page; }}
.print-toc ol {{ list-style: none; padding: 0; }}
.print-toc .toc-h1 {{ font-weight: 700; margin-top: .8em; }} .print-toc .toc-h2 {{ margin-inline-start: 1.5em; }}
.print-toc a {{ text-decoration: none; color: inherit; }}
.print-lesson {{ break-before: page; }}
.md-main__inner {{ margin: 0; }} .md-content {{ max-width: none; }}
.md-typeset figure.chart {{ break-inside: avoid; }}
</style>"""
    article = f'<article class="md-content__inner md-typeset">{cover}{"".join(lessons)}{appendix}</article>'
    out = ARTICLE.sub(lambda m: article, template, count=1).replace("</head>", page_css + "</head>", 1)
    target = folder(lang) / "print.html"
    target.write_text(out, encoding="utf-8")
    return target


def main() -> int:
    from pypdf import PdfReader
    if not (OUT / "index.html").exists():
        print("build/offline is missing: run tools/offline.py first (make site does)", file=sys.stderr)
        return 1
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    # Every PDF is made in a staging folder and moved into place only when all succeeded:
    # a failed run leaves the previous set whole, never a new file beside an old one.
    staging = DOWNLOADS / ".pdf-staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    made = {}
    try:
        with sync_playwright() as p:
            browser = launch(p)
            for lang in languages():
                src = print_page(lang)
                page = browser.new_page(viewport={"width": 760, "height": 1000})
                errors = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.emulate_media(media="print")
                page.goto(src.as_uri())
                page.wait_for_function(ALL_CHARTS_RENDERED,
                                       timeout=60000)
                page.evaluate("document.fonts.ready")
                page.wait_for_function("document.fonts.status === 'loaded'")
                if errors:
                    raise SystemExit(f"{src}: {errors}")
                target = staging / f"attention-course-{lang}.pdf"
                page.pdf(path=str(target), format="A4", print_background=True, prefer_css_page_size=True,
                         outline=True, tagged=True)
                page.close()
                pages = len(PdfReader(str(target)).pages)  # a PDF pypdf cannot read stops the run here
                made[f"pdf-{lang}"] = target
                print(f"pdf: {target.name} ({pages} pages, {target.stat().st_size / 1e6:.1f} MB)")
            browser.close()
        for target in made.values():
            os.replace(target, DOWNLOADS / target.name)
        record({key: target.name for key, target in made.items()})
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
