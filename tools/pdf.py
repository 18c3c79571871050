"""Printable course notes: one A4 PDF per language, from the offline build, in Debian's chromium.

    python tools/pdf.py           -> build/downloads/attention-course-<lang>.pdf
    python tools/pdf.py --force   -> the same, even when nothing they are printed from changed
Skipped when their inputs' content hash (the offline copy they print, the sources, chromium, the system fonts,
today's date) and the PDFs are as the last run left them (tools/step_cache.py).
Each PDF: a designed cover (title, a course figure, the date in the language's calendar and digits),
contents with page numbers, the chapters in order (course.lessons()), each overview followed by its sections, the exercises' answers, page numbers
in the language's digits (CSS page margin boxes), charts as vector SVG in their initial state with
captions that say what that state shows (`print_caption` beside each chart's strings).
The lessons come from the files course_build/print_pages.py saves during the offline build (mkdocs' own page
content and toc), never from parsing the built HTML. Run tools/offline_copy.py first (make site does).

Contents page numbers: Chromium has no `target-counter`, so the page is printed once, the page of every
contents link's target is read back from the PDF (its named destinations), and the page is printed
again with those numbers, until the numbers no longer change.
"""
from __future__ import annotations

import datetime as dt
import html
import json
import os
import re
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
from tools.browser import ALL_CHARTS_RENDERED, launch
from tools.offline_copy import DOWNLOADS, OUT, not_ours, outputs as offline_outputs, record
from tools import step_cache
from course_build.exercises import find_solutions
from course_build.print_pages import SHELL_SLOT, folder_for, saved_name
from scripts.common import course, numfmt, processes
from scripts.common.i18n import strings
from scripts.common import dates

PASSES = 4  # printings at most until the contents' page numbers settle (two suffice unless a number's width moves a break)


def folder(lang: str) -> Path:
    """Where the print page is written in the offline copy: beside the first chapter page, whose head (the shell)
    it takes as it is; every chapter page sits as deep, so their asset links resolve from there too."""
    return (OUT / course.offline_path(lang, course.lesson_pages()[0])).parent


def lesson_pages(lang: str) -> list[dict]:
    """Each chapter page's saved page (course_build/print_pages.py), in course order (an overview, then its
    sections), with `name` (the page) added."""
    out = []
    for name in course.lesson_pages():
        saved = folder_for(OUT) / lang / f"{saved_name(name)}.json"
        if not saved.exists():
            raise SystemExit(f"{saved.relative_to(ROOT)} is missing: run tools/offline_copy.py (make site does); "
                             "course_build/print_pages.py must be a stage of course_build/plugin.py")
        out.append(dict(json.loads(saved.read_text(encoding="utf-8")), name=name))
    return out


def print_captions(content: str, lang: str, where: str) -> str:
    """On paper a chart stays in its initial state: its caption says what that state shows."""
    from course_build.refs import CAPTION
    charts = strings(lang)["charts"]
    head, tail = CAPTION[0].split("{chart}")
    parts, rest, found = [], content, 0
    while (at := rest.find(head)) >= 0:
        found += 1
        parts.append(rest[:at])
        chart, _, rest = rest[at + len(head):].partition(tail)
        _, closed, rest = rest.partition(CAPTION[1])
        text = charts.get(chart, {}).get("print_caption")
        if not closed or not text:
            raise SystemExit(f"{where}: chart {chart!r} has no print_caption: add one beside its strings in "
                             f"scripts/i18n/{lang}/ (what the printed, initial state shows; no sliders or hovering)")
        parts.append(f'<figcaption id="caption-{chart}" class="print-caption">{isolate(" ".join(text.split()))}</figcaption>')
    charts_here = content.count('<figure class="chart"')
    if found != charts_here:
        raise SystemExit(f"{where}: {charts_here} charts but {found} captions found: every chart's "
                         "figure ends with course_build/refs.py's CAPTION")
    return "".join(parts) + rest


def isolate(text: str) -> str:
    from course_build.bidi import isolate_formulas
    return isolate_formulas(text)


def lesson_body(page: dict, lang: str) -> str:
    """The page's content with ids prefixed by its name (two pages may share a heading id); a link to a
    chapter page becomes a link into the print page, any other relative link is read from the print page."""
    name = page["name"]
    key = saved_name(name)
    body = print_captions(page["content"], lang, f"{lang}/{name}")
    body = re.sub(r'<a class="headerlink"[^>]*>.*?</a>', "", body)
    body = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{key}--{m.group(1)}"', body)
    body = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{key}--{m.group(1)}"', body)
    return f'<section class="print-lesson">{rebase(body, name, lang)}</section>'


def rebase(body: str, name: str, lang: str) -> str:
    import posixpath
    here = posixpath.dirname(course.offline_path(lang, name))
    there = posixpath.relpath(str(folder(lang).relative_to(OUT)).replace(os.sep, "/") or ".", ".")
    printed = {course.offline_path(lang, p): p for p in course.lesson_pages()}

    def one(m: re.Match) -> str:
        attr, url = m.group(1), m.group(2)
        if re.match(r"[a-z][\w+.-]*:|#|/", url):
            return m.group(0)
        path, _, frag = url.partition("#")
        target = posixpath.normpath(posixpath.join(here, path)) if path else None
        if target in printed:
            first = next(iter(saved_toc_id(lang, printed[target])), "")
            return f'{attr}="#{saved_name(printed[target])}--{frag or first}"'
        if target is None:
            return m.group(0)
        return f'{attr}="{posixpath.relpath(target, there)}{"#" + frag if frag else ""}"'
    return re.sub(r'\b(href|src)="([^"]*)"', one, body)


def saved_toc_id(lang: str, name: str) -> list[str]:
    saved = json.loads((folder_for(OUT) / lang / f"{saved_name(name)}.json").read_text(encoding="utf-8"))
    return [h["id"] for h in saved["toc"]]


def contents_entries(pages: list[dict]) -> list[dict]:
    """Chapters, then their parts in print order: the overview's own sections, then each section page (its
    heading): [{"anchor", "title", "children": [...]}] from each page's own toc."""
    out = []
    for page in pages:
        key = saved_name(page["name"])
        if page["name"] in course.lessons():
            for h1 in page["toc"]:
                out.append({"anchor": f'{key}--{h1["id"]}', "title": h1["title"],
                            "children": [{"anchor": f'{key}--{h2["id"]}', "title": h2["title"], "children": []}
                                         for h2 in h1["children"]]})
        else:
            for h1 in page["toc"]:
                out[-1]["children"].append({"anchor": f'{key}--{h1["id"]}', "title": h1["title"], "children": []})
    return out



def build_date() -> dt.date:
    """The day the build started: SOURCE_DATE_EPOCH (the reproducible-builds convention, UTC), else today. The
    Makefile sets it once per `make` run, so a `make test` that crosses midnight prints and checks one date."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return dt.datetime.fromtimestamp(int(epoch), dt.timezone.utc).date() if epoch else dt.date.today()


def date_text(lang: str, ui: dict | None = None, today: dt.date | None = None) -> str:
    """The cover's date in the language's calendar and digits (scripts/common/dates.py)."""
    return dates.date_text(today or build_date(), lang)


def answers_appendix(lang: str, lessons: list[str]) -> tuple[str, list[dict]]:
    """The exercises' answers and worked solutions, lesson by lesson, numbered as in the lessons
    (their closed <details class="exercise-solution"> moved to the end; print CSS hides them in place)."""
    title = strings(lang)["exercises"]["ui"]["answers"]
    parts = []
    for body in lessons:
        found = find_solutions(body)   # by the marks course_build/exercises.py writes around each solution
        if not found:
            continue
        h1 = re.search(r"<h1[^>]*>(.*?)</h1>", body, re.S)
        parts.append(f"<h2>{h1.group(1) if h1 else ''}</h2>")
        for _, _, _, number, solution in found:   # number: the exercise's title, «Вправа 3»
            parts.append(f'<div class="print-answer"><h3>{html.escape(number)}</h3>{solution}</div>')
    if not parts:
        return "", []
    section = f'<section class="print-answers"><h1 id="answers">{html.escape(title)}</h1>{"".join(parts)}</section>'
    return section, [{"anchor": "answers", "title": title, "children": []}]


def site_texts(lang: str) -> tuple[str, str]:
    """The language's site name and description, as the i18n plugin's settings give them in mkdocs.yml."""
    config = course.mkdocs_config()
    entry = next(e for e in course._i18n_plugin(config)["languages"] if e["locale"] == lang)
    return entry.get("site_name", config["site_name"]), entry.get("site_description", config.get("site_description", ""))


def contents_html(entries: list[dict], numbers: dict[str, int], lang: str, title: str) -> str:
    def items(level: list[dict], cls: str) -> str:
        out = []
        for e in level:
            page = numfmt.fmt(numbers.get(e["anchor"], 88), "d", lang)  # 88: a placeholder as wide as most numbers
            sub = f'<ol class="toc-sections">{items(e["children"], "toc-section")}</ol>' if e["children"] else ""
            out.append(f'<li class="{cls}"><a href="#{e["anchor"]}"><span class="toc-title">{isolate(e["title"])}</span>'
                       f'<span class="toc-page">{page}</span></a>{sub}</li>')
        return "".join(out)
    return f'<nav class="print-toc"><h2>{html.escape(title)}</h2><ol class="toc-lessons">{items(entries, "toc-lesson")}</ol></nav>'


def cover_html(lang: str, ui: dict) -> str:
    name, _ = site_texts(lang)
    svg = OUT / "assets" / "charts" / lang / f"{ui['cover_chart']}.svg"
    if not svg.exists():
        raise SystemExit(f"{svg} is missing: ui.print.cover_chart in scripts/i18n/{lang}/site.yml must name a chart "
                         "(its static SVG is copied by the build)")
    src = os.path.relpath(svg, folder(lang)).replace(os.sep, "/")
    return (f'<section class="print-cover"><p class="print-kicker">{html.escape(ui["subtitle"])}</p>'
            f'<h1>{html.escape(name)}</h1><p class="print-tagline">{html.escape(ui["tagline"])}</p>'
            f'<figure class="print-cover-figure"><img src="{src}" alt=""></figure>'
            f'<p class="print-date">{html.escape(ui["built"].format(date=date_text(lang, ui)))}</p></section>')


def print_page(lang: str, numbers: dict[str, int] | None = None) -> tuple[Path, list[dict]]:
    """Write <offline>/<lang folder>/print.html; returns it and the contents entries (for the page numbers)."""
    ui = strings(lang)["ui"]["print"]
    pages = lesson_pages(lang)
    lessons = [lesson_body(p, lang) for p in pages]
    appendix, appendix_entry = answers_appendix(lang, lessons)
    entries = contents_entries(pages) + appendix_entry
    article = (f'<article class="md-content__inner md-typeset print-notes">{cover_html(lang, ui)}'
               f'{contents_html(entries, numbers or {}, lang, ui["contents"])}{"".join(lessons)}{appendix}</article>')
    page_css = f"""<style>
@page {{ size: A4; margin: 16mm 15mm 18mm;
  @bottom-center {{ content: "{ui['page']}" counter(page, {ui['counter']});
    font-family: {course.language(lang).font['page']}; font-size: 9pt; color: #555; }} }}
@page :first {{ @bottom-center {{ content: none; }} }}
</style>"""
    # the head of a page that shows charts (an overview may show none, and then loads no chart script); every
    # chapter page sits as deep in the copy, so its links resolve from folder(lang)
    shell = next((p["shell"] for p in pages if "assets/js/charts" in p["shell"]), pages[0]["shell"])
    out = shell.replace(SHELL_SLOT, article, 1).replace("</head>", page_css + "</head>", 1)
    target = folder(lang) / "print.html"
    target.write_text(out, encoding="utf-8")
    return target, entries


def anchors(entries: list[dict]) -> list[str]:
    return [a for e in entries for a in [e["anchor"], *anchors(e["children"])]]


def target_pages(path: Path, wanted: list[str]) -> dict[str, int]:
    """Page (1-based, as the page footer counts) of each contents link's target, from the PDF's
    named destinations (Chromium names each linked element's id)."""
    from pypdf import PdfReader
    reader = PdfReader(str(path))
    dests = {name.lstrip("/"): d for name, d in reader.named_destinations.items()}  # pypdf keeps the name's "/"
    missing = [a for a in wanted if a not in dests]
    if missing:
        raise SystemExit(f"{path.name}: no destination in the PDF for contents entries {missing[:5]}: "
                         "a heading id changed between the toc and the content?")
    return {a: reader.get_destination_page_number(dests[a]) + 1 for a in wanted}


# A glyph standing for several Arabic-script characters (the lam-alef ligature «لا», «ه» with its hamza «هٔ»)
# is mapped by Chromium's ToUnicode to those characters in reading order. Viewers read a right-to-left line
# in drawn order and reverse it character by character, so such a glyph came back reversed: PDFium (Chrome's
# viewer) and poppler (pdftotext, Evince, Okular) gave «الیه» for «لایه» and «همٔه» for «همهٔ», and a search
# for the word found nothing. These glyphs only ever stand in right-to-left text: their map is written in
# drawn order, so the viewers' reversal gives the word as written.
_ARABIC_SCRIPT = re.compile("[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]")
_MAP_ENTRY = re.compile(rb"(<[0-9A-Fa-f]+>\s*)<([0-9A-Fa-f]{8,})>")


def _drawn_order(cmap: bytes) -> bytes:
    def one(m: re.Match) -> bytes:
        chars = bytes.fromhex(m.group(2).decode()).decode("utf-16-be")
        if len(chars) > 1 and all(_ARABIC_SCRIPT.match(c) for c in chars):
            return m.group(1) + b"<" + chars[::-1].encode("utf-16-be").hex().upper().encode() + b">"
        return m.group(0)
    return _MAP_ENTRY.sub(one, cmap)


def copyable_right_to_left(writer) -> int:
    """Rewrite each font's ToUnicode map so a right-to-left cluster copies and searches as written (above);
    returns how many entries changed."""
    seen, changed = set(), 0
    for page in writer.pages:
        fonts = (page.get("/Resources") or {}).get("/Font")
        for ref in (fonts.get_object().values() if fonts else ()):
            to_unicode = ref.get_object().get("/ToUnicode")
            if to_unicode is None or getattr(to_unicode, "idnum", None) in seen:
                continue
            seen.add(getattr(to_unicode, "idnum", None))
            stream = to_unicode.get_object()
            before = stream.get_data()
            after = _drawn_order(before)
            if after != before:
                stream.set_data(after)
                changed += 1
    return changed


def set_metadata(path: Path, lang: str, ui: dict) -> None:
    """Title once (Chromium takes it from <title>, which reads «lesson - site»), author, subject, language;
    right-to-left clusters that copy as written (copyable_right_to_left)."""
    from pypdf import PdfWriter
    from pypdf.generic import NameObject, TextStringObject
    name, description = site_texts(lang)
    writer = PdfWriter(clone_from=str(path))
    copyable_right_to_left(writer)
    writer.add_metadata({"/Title": name, "/Author": ui["author"], "/Subject": description,
                         "/Creator": "tools/pdf.py (Chromium)"})
    writer._root_object[NameObject("/Lang")] = TextStringObject(lang)
    tmp = path.with_suffix(".meta.tmp")
    with open(tmp, "wb") as f:
        writer.write(f)
    os.replace(tmp, path)


# What print hides leaves the page before it is printed: the provenance notes' code listings (collapsed, never
# printed, course.css) hold ~110 000 of the print page's 143 000 elements, and Chromium's printing walked them all:
# 50 s a printing, 8 s without them (4 printings per `make site`). Nothing printed changes.
DROP_UNPRINTED = """() => {
  const drop = el => { if (getComputedStyle(el).display === "none") el.remove(); else [...el.children].forEach(drop); };
  drop(document.body);
}"""


def render(browser, src: Path, target: Path, title: str) -> None:
    page = browser.new_page(viewport={"width": 760, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.emulate_media(media="print")
    page.goto(src.as_uri())
    page.wait_for_function(ALL_CHARTS_RENDERED, timeout=60000)
    page.evaluate("document.fonts.ready")
    page.wait_for_function("document.fonts.status === 'loaded' && [...document.images].every(i => i.complete)")
    if errors:
        raise SystemExit(f"{src}: {errors}")
    page.evaluate(DROP_UNPRINTED)
    page.evaluate("t => { document.title = t; }", title)
    page.pdf(path=str(target), format="A4", print_background=True, prefer_css_page_size=True,
             outline=True, tagged=True)
    page.close()


def make_pdf(browser, lang: str, target: Path) -> int:
    """Print until the contents' page numbers match where their headings landed; returns the page count."""
    from pypdf import PdfReader
    ui = strings(lang)["ui"]["print"]
    numbers: dict[str, int] = {}
    for _ in range(PASSES):
        src, entries = print_page(lang, numbers)
        render(browser, src, target, site_texts(lang)[0])
        found = target_pages(target, anchors(entries))
        if found == numbers:
            break
        numbers = found
    else:
        raise SystemExit(f"{target.name}: the contents' page numbers did not settle in {PASSES} printings")
    set_metadata(target, lang, ui)
    return len(PdfReader(str(target)).pages)  # a PDF pypdf cannot read stops the run here


def print_language(lang: str, target: Path) -> int:
    """One language's PDF in a browser of its own (a worker process of main()); returns its page count."""
    with sync_playwright() as p:
        browser = launch(p)
        try:
            return make_pdf(browser, lang, target)
        finally:
            browser.close()


STEP = "pdf"
# Debian packages that shape a printed page (their versions are part of the PDFs' inputs; absent ones list empty)
SYSTEM_PACKAGES = ("chromium*", "fonts-*", "libfontconfig*", "libfreetype*", "libharfbuzz*", "poppler-utils")


def pdf_files() -> list[Path]:
    return [DOWNLOADS / f"attention-course-{lang}.pdf" for lang in course.codes()]


def inputs_key() -> str:
    """The sources and environment (step_cache), plus what only printing reads: the offline copy as it stands
    (without the print pages this step writes into it), chromium, the fonts it may fall back to, the cover's date."""
    from tools.browser import CHROMIUM
    fonts = step_cache.command_output(["fc-list", "--format", "%{file}|%{family}|%{style}\n"])
    return step_cache.inputs_key({
        "step": STEP, "printed": step_cache.digests(offline_outputs(), ignore=not_ours),
        "chromium": step_cache.command_output([CHROMIUM, "--version"]), "fonts": sorted(fonts.splitlines()),
        "system": step_cache.command_output(["dpkg-query", "-W", "-f", "${Package} ${Version}\\n", *SYSTEM_PACKAGES]),
        "dates": {lang: date_text(lang) for lang in course.codes()}})


def main(argv: list[str] | None = None) -> int:
    if not (OUT / "index.html").exists():
        print("build/offline is missing: run tools/offline_copy.py first (make site does)", file=sys.stderr)
        return 1
    force = "--force" in (sys.argv[1:] if argv is None else argv)
    key = inputs_key()
    if not force and step_cache.fresh(STEP, key, pdf_files()):
        step_cache.keep(pdf_files())
        record({f"pdf-{lang}": f"attention-course-{lang}.pdf" for lang in course.codes()})
        print(f"pdf: unchanged inputs, kept {', '.join(p.name for p in pdf_files())} (--force prints again)")
        return 0
    step_cache.forget(STEP)
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    # Every PDF is made in a staging folder and moved into place only when all succeeded:
    # a failed run leaves the previous set whole, never a new file beside an old one.
    staging = DOWNLOADS / ".pdf-staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        langs = course.codes()
        # the languages side by side, each in a browser of its own (one printing keeps one core busy: both PDFs
        # 53 s → 32 s on 2 cores); spawned, not forked, as Playwright's driver wants
        targets = {lang: staging / f"attention-course-{lang}.pdf" for lang in langs}
        for (lang, target), pages in processes.side_by_side(print_language, list(targets.items())):
            print(f"pdf: {target.name} ({pages} pages, {target.stat().st_size / 1e6:.1f} MB)")
        made = {f"pdf-{lang}": targets[lang] for lang in langs}
        for target in made.values():
            os.replace(target, DOWNLOADS / target.name)
        record({name: target.name for name, target in made.items()})
        step_cache.record(STEP, key, pdf_files())
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
