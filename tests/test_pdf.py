"""The printed notes: one A4 PDF per language with cover, contents, the lessons, page numbers in the
language, embedded fonts, every lesson heading findable as text, and no slider text; contents page
numbers that point where the headings really are, nested contents, no page left mostly empty by a
figure, print captions, metadata with the title once."""
import functools
import re
import unicodedata
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from scripts.common import course

ROOT = Path(__file__).resolve().parent.parent
HEADING = re.compile(r"^#{1,2}\s+(.*?)\s*(?:\{\s*#[\w-]+\s*\})?\s*$", re.M)


def pdf(site_dir, lang) -> Path:
    from conftest import printed
    return printed(site_dir, lang)


BIDI_AND_HAMZA = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u0654"))


def text(path: Path) -> str:
    """The PDF's text; bidi controls and the hamza (which pdftotext moves around) dropped. Read once per
    file version (several tests read the same PDF)."""
    st = path.stat()
    return _text(str(path), st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=8)
def _text(path: str, mtime_ns: int, size: int) -> str:
    out = subprocess.run(["pdftotext", "-layout", path, "-"], capture_output=True, text=True, check=True).stdout
    return out.translate(BIDI_AND_HAMZA)


def squash(s: str) -> str:
    """pdftotext may break and reorder words of RTL lines: compare words, not whole lines."""
    return re.sub(r"\s+", " ", s)


@pytest.mark.parametrize("lang", course.codes())
def test_pdf_shape_and_fonts(site_dir, lang):
    path = pdf(site_dir, lang)
    reader = PdfReader(str(path))
    assert len(reader.pages) >= 4
    box = reader.pages[0].mediabox
    assert abs(float(box.width) - 595) < 2 and abs(float(box.height) - 842) < 2, "A4"
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    rows = [l for l in fonts.splitlines()[2:] if l.strip()]
    assert rows and all(re.search(r"\byes\b", l.split()[-5]) or " yes " in l for l in rows), fonts
    if lang == "fa":
        assert "Vazirmatn" in fonts


@pytest.mark.parametrize("lang", course.codes())
def test_pdf_has_every_heading_and_no_controls(site_dir, lang):
    body = squash(text(pdf(site_dir, lang)))
    # pdftotext gives the lam-alef ligature back as alef, lam («بالا» → «باال»): both sides compare without it
    lam_alef = lambda t: unicodedata.normalize("NFKC", t).replace("\u0644\u0627", "").replace("\u0627\u0644", "")  # noqa: E731
    words_in_pdf = set(re.findall(r"[\w\u200c]+", lam_alef(body)))
    for lesson in course.lesson_pages():
        md = course.source(lang, lesson).read_text(encoding="utf-8")
        for heading in HEADING.findall(md):
            plain = re.sub(r"\$[^$]*\$|`[^`]*`", "", heading).translate(BIDI_AND_HAMZA)
            words = [w for w in re.findall(r"[\w\u200c]+", plain) if len(w) > 2]
            missing = [w for w in words if lam_alef(w) not in words_in_pdf]
            assert not missing, f"{lang} PDF lacks heading «{heading}» (words {missing})"
    assert "log₂ d" not in body and "log2d" not in body, "slider labels should not be printed"


def test_printed_strings_are_in_the_language(site_dir):
    fa = text(pdf(site_dir, "fa"))
    uk = text(pdf(site_dir, "uk"))
    assert "فهرست" in fa and "صفحه" in fa and re.search(r"[۱-۹]", fa)
    assert "Зміст" in uk and "Сторінка" in uk
    assert "Table of Contents" not in fa + uk and "Page " not in fa + uk


def test_cover_date_in_the_language_calendar():
    """Solar Hijri in Persian (jdatetime), Gregorian in Ukrainian, each in its own digits."""
    import datetime as dt
    from tools.pdf import date_text
    from scripts.common.i18n import strings
    fa, uk = strings("fa")["ui"]["print"], strings("uk")["ui"]["print"]
    assert date_text("fa", fa, dt.date(2026, 3, 21)) == "۱ فروردین ۱۴۰۵"      # Nowruz 1405
    assert date_text("fa", fa, dt.date(2026, 11, 30)) == "۹ آذر ۱۴۰۵"
    assert date_text("fa", fa, dt.date(2024, 3, 19)) == "۲۹ اسفند ۱۴۰۲"      # last day of 1402
    assert date_text("uk", uk, dt.date(2026, 11, 30)) == "30\u00a0листопада 2026\u00a0року"


def test_cover_date_is_the_builds_day(monkeypatch):
    """SOURCE_DATE_EPOCH (set once per `make` run) names the cover's day, so a `make test` that crosses midnight
    finds the PDFs it printed before midnight made from today's inputs; without it, today."""
    import datetime as dt
    from tools import pdf
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(dt.datetime(2026, 11, 30, 23, 59, tzinfo=dt.timezone.utc).timestamp())))
    assert pdf.build_date() == dt.date(2026, 11, 30)
    assert pdf.date_text("uk") == pdf.date_text("uk", today=dt.date(2026, 11, 30))
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert pdf.build_date() == dt.date.today()


# ── Contents, layout, captions, metadata (issue 12, printed notes) ─────────────────────────────
from scripts.common.i18n import strings  # noqa: E402

LANGS = course.codes()
H12 = re.compile(r"^(#{1,2})\s+(.*?)\s*\{\s*#([\w-]+)\s*\}\s*$", re.M)


def page_text(path: Path, n: int) -> str:
    out = subprocess.run(["pdftotext", "-layout", "-f", str(n), "-l", str(n), str(path), "-"],
                         capture_output=True, text=True, check=True).stdout
    return out.translate(BIDI_AND_HAMZA)


MARKS = dict.fromkeys(range(0x064B, 0x0660))  # Arabic-script vowel marks: pdftotext moves them around


def words(s: str) -> set[str]:
    return set(re.findall(r"[\w\u200c]+", s.translate(MARKS)))


def headings(lang: str) -> list[tuple[int, str, str]]:
    """(level, title, anchor) as the contents lists them, in course order: each chapter's h1 and the h2s of its
    overview, then each section page's heading (its h1) one level down."""
    out = []
    for lesson in course.lessons():
        md = course.source(lang, lesson).read_text(encoding="utf-8")
        # the `{{ provenance }}` line becomes a section too ("How these numbers were computed", course_build/refs.py)
        heading = strings(lang)["ui"]["provenance"]["heading"]
        md = md.replace("{{ provenance }}", f"## {heading} {{ #provenance }}")
        out += [(len(h), t, f"{lesson}--{i}") for h, t, i in H12.findall(md)]
        for section in course.sections(lesson):
            md = course.source(lang, section).read_text(encoding="utf-8")
            out += [(2, t, f"{section.replace('/', '--')}--{i}") for h, t, i in H12.findall(md) if h == "#"]
    return out


def title_words(title: str) -> list[str]:
    plain = re.sub(r"\$[^$]*\$|`[^`]*`", "", title).translate(BIDI_AND_HAMZA).translate(MARKS)
    return [w for w in re.findall(r"[\w\u200c]+", plain) if len(w) > 2]


def lesson_starts(reader: PdfReader) -> set[int]:
    """Pages (1-based) where a lesson or the appendix begins: the outline's top level (the h1s)."""
    tops = {reader.get_destination_page_number(o) + 1 for o in reader.outline if not isinstance(o, list)}
    return tops - {1}  # the cover's title is an h1 too


def contents_lines(path: Path, lang: str) -> list[tuple[str, str]]:
    """(line, its number as printed) of every contents line that ends in a page number."""
    reader = PdfReader(str(path))
    first_lesson = min(lesson_starts(reader))
    digits = course.language(lang).numerals
    footer = strings(lang)["ui"]["print"]["page"].strip().translate(BIDI_AND_HAMZA)
    lines = []
    for n in range(2, first_lesson):
        for line in page_text(path, n).splitlines():
            m = re.search(f"[{digits}]+", line)
            if m and footer not in line:  # a contents line: title, leader, number (not the page footer)
                lines.append((line, m.group(0)))
    return lines


@pytest.mark.parametrize("lang", LANGS)
def test_contents_page_numbers_are_where_the_headings_are(site_dir, lang):
    path = pdf(site_dir, lang)
    digits = course.language(lang).numerals
    lines = contents_lines(path, lang)
    expected = headings(lang)
    answers = strings(lang)["exercises"]["ui"]["answers"]
    assert len(lines) == len(expected) + 1, f"{lang}: one contents line per lesson, section and the answers: {lines}"
    numbers = []
    for (line, number), (level, title, _) in zip(lines, expected + [(1, answers, "answers")]):
        assert not (set("0123456789") - set(digits)) & set(line), f"{lang}: Latin digits in a contents line «{line}»"
        page = int(number.translate(str.maketrans(digits, "0123456789")))
        missing = [w for w in title_words(title) if w not in words(squash(page_text(path, page)))]
        assert not missing, f"{lang}: contents says «{title}» is on page {page}, but that page lacks {missing}"
        assert not set(title_words(title)) - words(line), f"{lang}: contents line «{line}» is not «{title}»"
        numbers.append(page)
    assert numbers == sorted(numbers), f"{lang}: contents page numbers run backwards: {numbers}"


@pytest.mark.parametrize("lang", LANGS)
def test_contents_is_nested_lessons_then_sections(site_dir, lang):
    """Section links are indented from their lesson's link on the side the language starts from."""
    reader = PdfReader(str(pdf(site_dir, lang)))
    starts = lesson_starts(reader)
    level = {anchor: lvl for lvl, _, anchor in headings(lang)}
    rects = {1: [], 2: []}
    for page in reader.pages[1:min(starts) - 1]:
        for annot in page.get("/Annots") or []:
            a = annot.get_object()
            dest = str(a.get("/Dest", "")).lstrip("/")
            if dest in level:
                rects[level[dest]].append([float(v) for v in a["/Rect"]])
    assert len(rects[1]) == len(course.lessons()) and rects[2], f"{lang}: contents links {rects}"
    if course.language(lang).rtl:  # indented from the right
        assert max(r[2] for r in rects[2]) < min(r[2] for r in rects[1]) - 10
    else:
        assert min(r[0] for r in rects[2]) > max(r[0] for r in rects[1]) + 10


def emptiness(path: Path) -> list[float]:
    """For each page, the share of the text area (between the page margins) left blank at its foot."""
    from PIL import Image
    import tempfile
    out = []
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(["pdftoppm", "-gray", "-r", "30", str(path), f"{d}/p"], check=True)
        for f in sorted(Path(d).glob("p-*.pgm")):
            im = Image.open(f)
            w, h = im.size
            px = im.load()
            top, bottom = int(h * 16 / 297), int(h * (297 - 18) / 297)   # tools/pdf.py's @page margins
            ink = [y for y in range(top, bottom) if any(px[x, y] < 200 for x in range(w))]
            out.append((bottom - (ink[-1] if ink else top)) / (bottom - top))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_left_mostly_empty(site_dir, lang):
    """A figure that moves to the next page leaves at most ~40 % of a page blank, except before a
    lesson or the appendix (which start on a new page) and on the last page."""
    path = pdf(site_dir, lang)
    starts = lesson_starts(PdfReader(str(path)))
    blank = emptiness(path)
    loose = [(n, f"{e:.0%}") for n, e in enumerate(blank, 1)
             if e > 0.42 and n + 1 not in starts and n != len(blank) and n != 1]
    assert not loose, f"{lang}: pages more than 40 % empty (page, blank share): {loose}"


SCREEN_ONLY = {"uk": ("повзун", "наведи", "наведення", "перемикач", "мишу"), "fa": ("لغزنده", "ببرید", "کادر انتخاب")}


@pytest.mark.parametrize("lang", LANGS)
def test_print_captions_say_what_the_page_shows(site_dir, lang):
    body = words(squash(text(pdf(site_dir, lang))))
    charts = strings(lang)["charts"]
    used = set()
    for lesson in course.lesson_pages():
        used |= set(re.findall(r"\{\{\s*chart:\s*([\w-]+)\s*\}\}",
                               course.source(lang, lesson).read_text(encoding="utf-8")))
    assert used
    for chart in sorted(used):
        caption = charts[chart].get("print_caption", "")
        assert caption, f"{lang}: chart {chart} has no print_caption"
        assert not any(w in caption.lower() for w in SCREEN_ONLY.get(lang, ())), f"{lang}/{chart}: «{caption}»"
        missing = [w for w in title_words(caption) if w not in body]  # pdftotext mangles a few Persian words
        assert len(missing) <= len(title_words(caption)) // 5, f"{lang}: the printed caption of {chart} is not in the PDF (missing {missing})"


@pytest.mark.parametrize("lang", LANGS)
def test_metadata_title_once_author_subject_language(site_dir, lang):
    from tools.pdf import site_texts
    reader = PdfReader(str(pdf(site_dir, lang)))
    meta = reader.metadata
    name, description = site_texts(lang)
    assert meta.title == name, f"{lang}: PDF title {meta.title!r}, expected the course name once"
    assert meta.author and meta.subject == description
    assert str(reader.trailer["/Root"].get("/Lang")) == lang


@pytest.mark.parametrize("lang", course.codes())
def test_no_screen_only_instruction_on_paper(site_dir, lang):
    """Issue 24 «Paper»: a sentence that tells the reader to use a control has a paper wording (the printed
    state, course_build/pointer.py); the PDF holds none of the language's screen words (scripts/i18n/<lang>/
    pointer.yml `pointer.screen_words`, the one list)."""
    from scripts.common.i18n import strings
    body = squash(text(pdf(site_dir, lang))).replace("\u200c", "")
    found = []
    for word in strings(lang)["pointer"]["screen_words"]:
        for m in re.finditer(word.replace("\u200c", ""), body, re.I):
            found.append(body[max(0, m.start() - 40):m.end() + 40])
    assert not found, f"{lang}: the PDF still tells the reader to use a screen control:\n  " + "\n  ".join(found)


@pytest.mark.parametrize("lang", [l.code for l in course.languages() if l.rtl])
def test_right_to_left_words_copy_and_search_as_written(site_dir, lang):
    """A word holding a glyph for several characters (lam-alef «لا», «هٔ») is read from the PDF as written,
    nothing dropped: pdftotext gave «الیه» for «لایه» and «همٔه» for «همهٔ», as Chrome's viewer did, so a
    search found neither (tools/pdf.py copyable_right_to_left)."""
    raw = subprocess.run(["pdftotext", str(pdf(site_dir, lang)), "-"], capture_output=True, text=True,
                         check=True).stdout
    found = set(re.findall(r"[\w\u200c\u0654]+", raw.translate(dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")))))
    clusters = ("\u0644\u0627", "\u0647\u0654")
    wanted = set()
    for lesson in course.lesson_pages():
        for heading in HEADING.findall(course.source(lang, lesson).read_text(encoding="utf-8")):
            plain = re.sub(r"\$[^$]*\$|`[^`]*`|\{[^}]*\}", "", heading)
            wanted |= {w for w in re.findall(r"[\w\u200c\u0654]+", plain) if any(c in w for c in clusters)}
    assert wanted, f"{lang}: no heading word with «لا» or «هٔ» to look for"
    missing = sorted(w for w in wanted if w not in found)
    assert not missing, f"{lang}: words the PDF does not give back as written: {missing}"
