"""On a phone, every page of both languages read once for three checks (the tests run page by page: a page is opened
once, its charts drawn, and read by each test below before the next page; three modules each opened these pages in
a phone context of their own). The phone: 390 × 844 CSS px, touch, a mobile screen (Debian's chromium emulating it).
- Issue 25 item 2: a sentence that tells the reader to use a control says hover to a mouse and tap to a finger
  (course_build/pointer.py, scripts/i18n/<lang>/pointer.yml): no page shows a hover instruction, and each such
  sentence shows its tap wording.
- Issue 25: every chart control (radio options, checkboxes, sliders, menus, buttons and the disclosures of a chart)
  and every exercise control is at least 44×44 CSS px to a finger, on every chapter page with a chart or an exercise.
- A computed number's source note stays whole on the screen (tests/source_notes.py).
- Issue 12 defect 5: with every data table opened, nothing is wider than the phone or clipped (a table or formula
  wider than the column scrolls inside its own container)."""
import re

import pytest

from conftest import CHART_PAGES, EXERCISE_PAGES, LANGS, LESSON_PAGES, NEXT_FRAME, OPEN_DETAILS, pages
from scripts.common import course
from scripts.common.i18n import strings
from source_notes import assert_placement_was_tested, check_note

SHARED_PAGES = 1
WIDTH = 390


@pytest.fixture(scope="module")
def context(browser):
    """The module's phone (shared_page opens its pages here): the tap-target CSS keys on `(pointer: coarse)`."""
    ctx = browser.new_context(viewport={"width": WIDTH, "height": 844}, device_scale_factor=1, has_touch=True,
                              is_mobile=True)
    yield ctx
    ctx.close()


# ── Tap, not hover ──────────────────────────────────────────────────────────────────────────────
SAY = re.compile(r"\{\{\s*say:\s*([\w-]+)\s*\}\}")


def words(lang: str, key: str) -> list[re.Pattern]:
    return [re.compile(w, re.I) for w in strings(lang)["pointer"][key]]


def instructing_pages() -> list[str]:
    """Pages whose source, in some language, tells the reader to point at something (a hover word), or that
    show a chart whose caption does, or that say something ({{ say: }}): they follow the text when it moves."""
    out = []
    for page in pages():
        for lang in LANGS:
            src = course.source(lang, page).read_text(encoding="utf-8")
            charts = re.findall(r"\{\{\s*chart:\s*([\w-]+)\s*\}\}", src)
            described = " ".join(strings(lang)["charts"].get(c, {}).get("description", "") for c in charts)
            if SAY.search(src) or set(charts) & set(strings(lang)["pointer"].get("charts", {})) or any(
                    w.search(src + " " + described) for w in words(lang, "hover_words")):
                out.append(page)
                break
    return out


PAGES = instructing_pages()
SHOWN = "() => document.querySelector('article').innerText"




def test_some_pages_instruct():
    assert len(PAGES) >= 5, PAGES


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", PAGES, scope="module")
def test_a_touch_screen_reads_tap_not_hover(shared_page, lang, page):
    p = shared_page(lang, page)
    shown = re.sub(r"\s+", " ", p.evaluate(SHOWN))
    hovering = [m.group(0) for w in words(lang, "hover_words") for m in w.finditer(shown)]
    assert not hovering, f"{lang}/{page} tells a finger to hover: {hovering}"
    said = strings(lang)["pointer"]
    src = course.source(lang, page).read_text(encoding="utf-8")
    expected = [said["say"][k].get("tap") for k in SAY.findall(src)]
    charts = re.findall(r"\{\{\s*chart:\s*([\w-]+)\s*\}\}", src)
    expected += [said["charts"][c].get("tap") for c in charts if c in said.get("charts", {})]
    for tap in filter(None, expected):
        wording = re.sub(r"\s+", " ", tap).strip()
        assert wording in shown, f"{lang}/{page}: the tap wording «{wording}» is not shown"


# ── Source notes (tests/source_notes.py), before the tests below scroll the page ───────────────
NOTES = {}


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", LESSON_PAGES, scope="module")
def test_a_numbers_source_note_stays_whole_on_the_screen(shared_page, lang, page):
    """The farthest number's note, on focus and on hover, whole on a 390 px screen."""
    check_note(NOTES, shared_page(lang, page), lang, page)


# ── Targets a finger can hit ────────────────────────────────────────────────────────────────────
TAP_PAGES = tuple(p for p in LESSON_PAGES if p in CHART_PAGES or p in EXERCISE_PAGES)
MIN = 44  # CSS px: WCAG 2.5.5 (target size), Apple's and Material's touch guidance

# Every control a finger can use, and the box a tap lands in: a radio button or a checkbox is taken by its
# whole label (tapping its words picks it); anything else by its own box. Each is scrolled to first (a chart's
# controls and an exercise's form are put in the page when they near the viewport: charts.js, exercises.js).
MEASURE = """async (min) => {
  const frame = %s;
  const sel = ['figure.chart .vega-bind input', 'figure.chart .vega-bind select', 'figure.chart .vega-bind button',
               'figure.chart .vega-embed > details > summary', 'figure.chart details.chart-data > summary',
               '.exercise input', '.exercise button', '.exercise select', '.exercise summary'].join(', ');
  const out = [], seen = new Set();
  for (const el of document.querySelectorAll(sel)) {
    if (el.type === 'hidden') continue;
    const target = (el.type === 'radio' || el.type === 'checkbox') ? (el.closest('label') || el) : el;
    if (seen.has(target)) continue;
    seen.add(target);
    target.scrollIntoView({block: 'center'}); await frame(); await frame();
    if (target.closest('[hidden]') || getComputedStyle(target).display === 'none') continue;  // not shown now
    const r = target.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.width < min - 0.5 || r.height < min - 0.5) {
      const where = target.closest('figure.chart, .exercise');
      out.push(`${where ? where.id : '?'} ${target.tagName.toLowerCase()}${el !== target ? '(' + el.type + ')' : el.type ? '[' + el.type + ']' : ''} «${(target.textContent || '').trim().slice(0, 24)}»: ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
    }
  }
  return out;
}""" % NEXT_FRAME


def test_the_touch_viewport_is_coarse(shared_page):
    """The CSS of the fix keys on `(pointer: coarse)`: the emulated phone must report it."""
    p = shared_page(LANGS[0], TAP_PAGES[0])
    assert p.evaluate("matchMedia('(pointer: coarse)').matches && !matchMedia('(hover: hover)').matches")


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", TAP_PAGES, scope="module")
def test_every_control_is_big_enough_for_a_finger(shared_page, lang, page):
    p = shared_page(lang, page)
    small = p.evaluate(MEASURE, MIN)
    assert not p.errors, p.errors
    assert not small, f"{lang}/{page}: controls smaller than {MIN}×{MIN} px on a touch screen:\n  " + "\n  ".join(small)


# ── Nothing wider than the phone (last: it opens every data table) ──────────────────────────────
# Elements that stick out of the viewport (and are not inside a scroll container that fits it), and
# containers that clip their content. Off-canvas by design: Material's drawer, search and menus;
# KaTeX's screen-reader MathML and the clipped tail of a root sign; SVG internals.
OVERFLOW = """() => {
  const vw = document.documentElement.clientWidth, out = [];
  const scrolls = a => ['auto', 'scroll'].includes(getComputedStyle(a).overflowX);
  const inScroller = el => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
      if (scrolls(a)) { const r = a.getBoundingClientRect(); if (r.right <= vw + 1 && r.left >= -1) return true; }
    return false;
  };
  const skip = el => (el instanceof SVGElement && !(el instanceof SVGSVGElement)) ||
    el.closest('.md-sidebar, .md-search, .md-dialog, [hidden], .md-header__topic, .md-tooltip, .md-select, .katex-mathml, .hide-tail');
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || skip(el)) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden') continue;
    const what = el.tagName + '.' + String(el.className.baseVal ?? el.className).slice(0, 30) + ' «' + (el.textContent || '').trim().slice(0, 40) + '»';
    if ((r.right > vw + 1 || r.left < -1) && !inScroller(el)) out.push(`${what} spans ${Math.round(r.left)}..${Math.round(r.right)} px`);
    else if (['hidden', 'clip'].includes(s.overflowX) && el.scrollWidth > el.clientWidth + 1 && el.children.length)
      out.push(`${what} clips ${el.scrollWidth} px of content to ${el.clientWidth} px`);
  }
  return out;
}"""


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", pages(), scope="module")
def test_nothing_is_wider_than_a_phone(shared_page, lang, page):
    """At 390 px, with every data table opened, no element sticks out of the viewport or is clipped
    (a table or formula wider than the column scrolls inside its own container)."""
    p = shared_page(lang, page)
    p.evaluate(OPEN_DETAILS)
    p.wait_for_timeout(100)
    bad = p.evaluate(OVERFLOW)
    assert not bad, f"{lang}/{page} at {WIDTH} px: {bad[:8]}"
    assert p.evaluate("document.documentElement.scrollWidth") <= WIDTH
    # radio options keep their circle and label on one line; Latin/Ukrainian phrases in Persian
    # lines («Attention Is All You Need») are not broken across lines
    for label in p.locator("figure.chart .vega-bind-radio label").all():
        rects = label.evaluate("l => [...l.getClientRects()].length")
        assert rects == 1, f"{lang}/{page}: radio option «{label.inner_text()}» wraps"
    broken = p.evaluate("""() => [...document.querySelectorAll('[dir=rtl] .md-typeset bdi[lang]')]
        .filter(b => new Set([...b.getClientRects()].map(r => Math.round(r.top))).size > 1).map(b => b.textContent)""")
    assert not broken, f"{lang}/{page}: phrases broken across lines: {broken}"


def test_some_source_note_was_placed_away_from_the_edge(browser):
    assert_placement_was_tested(NOTES)
