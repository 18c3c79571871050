"""On a desktop (1280 × 900), every page of both languages read once for the checks below (the tests run page by
page: a page is opened once, in the light palette, its charts drawn, and read by each test below in file order
before the next page; four modules each opened these pages before).
- It renders cleanly: no console error, nothing fetched from outside the site, its language and direction, every
  chart drawn; a Persian page's charts in Persian digits and its text in Vazirmatn.
- No space (nor a code box's padding) before a comma or a semicolon (issue 12 defect 7).
- A computed number's source note stays whole on the screen (tests/source_notes.py).
- Accessibility, in the light and the dark palette: axe-core finds no violation; every control is reachable by
  keyboard, labelled in the page's language, with a visible focus; every chart has an accessible name, a
  description and its data as a table; a slider works from the keyboard (last: it moves one).
- √d in a figure caption or a data-table header reads √d, not d√ (issue 12 defect 2).
- A language that writes a decimal comma shows «0,77», never «0.77», in its text, tables, charts and readouts."""
import re

import pytest

from conftest import (AXE, CHART_PAGES, LANGS, LESSON_PAGES, MODEL_NAMES, NO_TRANSITIONS, OPEN_DETAILS, pages, palette,
                      palette_context, SCROLL_NEAR, SLIDER_PAGES, switch_palette)
from scripts.common import course, numfmt
from source_notes import assert_placement_was_tested, check_note
from tools.browser import CHARTS_DRAWN, NEXT_FRAME

PERSIAN = re.compile(r"[\u0600-\u06ff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


# The tests run page by page (their page and language parameters are module-scoped): a page is opened once, in the
# default palette, and read by every test below before the next page; its tab then serves the next page (a tab kept
# for each of the 50 pages cost each page a new tab and held them all in memory)
SHARED_PAGES = 2
# what the tests below record, page by page, for the checks that hold for a language or a chapter (run last, on the
# same worker: `make test` deals whole files to its workers, --dist loadfile)
SEEN = {"notes": {}, "roots": {}, "text": {}, "charts": {}}


@pytest.fixture(scope="module")
def context(browser, base_url):
    """The module's pages open in the light palette (a script run in each tab would keep the tab from serving the
    next page)."""
    ctx = palette_context(browser, base_url, "default")
    yield ctx
    ctx.close()


def load(shared_page, base_url, lang, page):
    """A page, opened in the default palette (requests leaving the site aborted and listed) and shared by the tests
    below: the axe test switches it to the dark palette and leaves it there (the palettes differ only in colours),
    the others read it; the decimal-comma test then moves every slider, and the keyboard-slider test, last, one."""
    return shared_page(lang, page, only_this_site=True, timeout=20000)


# the text every chart shows: an SVG chart's text elements and readouts, a canvas chart's text marks (what it
# paints, from its scenegraph), so a page whose only chart is a canvas is read too
# (with `readouts`, the sliders' readouts too)
CHART_TEXT = """(readouts) => {
  const out = [...document.querySelectorAll('.chart-view svg.marks text' + (readouts ? ', output.chart-readout' : ''))]
    .map(t => t.textContent);
  const walk = node => { if (!node || !node.items) return;
    if (node.marktype === 'text') node.items.forEach(it => out.push(Array.isArray(it.text) ? it.text.join(' ') : String(it.text ?? '')));
    node.items.forEach(walk); };
  for (const el of document.querySelectorAll('.chart-view'))
    if (el.querySelector('canvas.marks')) walk(window.courseCharts.views.get(el).view.scenegraph().root);
  return out.join(' | ');
}"""


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", pages(), scope="module")
def test_page_renders_cleanly(shared_page, base_url, lang, page):
    p = load(shared_page, base_url, lang, page)
    p.wait_for_load_state("networkidle")
    assert not p.errors, f"{lang}/{page}: console errors {p.errors}"
    assert not p.outside, f"{lang}/{page}: requests leaving the site {p.outside}"
    assert p.evaluate("document.documentElement.lang") == lang
    direction = p.evaluate("getComputedStyle(document.body).direction")
    assert direction == ("rtl" if lang == "fa" else "ltr")
    n = p.locator(".chart-view").count()
    assert p.locator(".chart-view :is(svg, canvas).marks").count() == n   # canvas: a chart that asks for one
    if lang == "fa" and n:
        texts = p.evaluate(CHART_TEXT, False)   # SVG text as drawn, a canvas chart's from its scenegraph
        assert any(c in texts for c in "۰۱۲۳۴۵۶۷۸۹"), "Persian charts should show Persian digits"
        # the published models' names keep their digits («Llama 2 7B», as test_browser_rtl_leftovers reads them)
        names = MODEL_NAMES.sub(" ", texts)
        assert not any(c in names for c in "0123456789".replace("2", "")), f"Latin digits in a Persian chart: {names[:200]}"
        font = p.evaluate("getComputedStyle(document.querySelector('.md-typeset')).fontFamily")
        assert "Vazirmatn" in font


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", LESSON_PAGES, scope="module")
def test_no_space_before_a_comma(shared_page, base_url, lang, page):
    """«Conv1d ،»: no space (nor a code box's padding) before a comma or semicolon."""
    p = load(shared_page, base_url, lang, page)
    text = p.evaluate("document.querySelector('.md-typeset').innerText")
    assert not re.search(r"\S[ \u00a0][،؛,;]", text), re.findall(r".{12}[ \u00a0][،؛,;].{5}", text)[:5]
    gaps = p.evaluate("""() => [...document.querySelectorAll('.md-typeset code + .after-code')].map(s => {
        const c = s.previousElementSibling.getBoundingClientRect(), r = s.getBoundingClientRect();
        return Math.min(Math.abs(r.left - c.right), Math.abs(c.left - r.right)); })""")
    assert all(g < 2.5 for g in gaps), f"{lang}/{page}: comma set apart from its code by {gaps} px"


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", LESSON_PAGES, scope="module")
def test_a_numbers_source_note_stays_whole_on_the_screen(shared_page, base_url, lang, page):
    """tests/source_notes.py: the farthest number's note, on focus and on hover, whole on a 1280 px screen and
    inside the text column (read before anything below scrolls the page or opens its tables)."""
    check_note(SEEN["notes"], load(shared_page, base_url, lang, page), lang, page)


def switch_to(p, scheme: str) -> None:
    """The page in `scheme`, switched as a reader switches it (conftest.switch_palette): one page load serves both
    palettes (a second load in a dark context cost each page a renderer and a load, a quarter of this file's time)."""
    if p.evaluate("document.body.getAttribute('data-md-color-scheme')") == scheme:
        return
    # the colours as they end: a block not yet laid out (content-visibility) starts its links' colour transition
    # only when axe reads it, which then measured a colour halfway between the palettes
    p.add_style_tag(content=NO_TRANSITIONS)
    switch_palette(p)
    p.evaluate(palette("default"))  # the toggle's stored choice undone: the next page opens light


NEAR = SCROLL_NEAR  # conftest: scrolled to, laid out
# What the page builds only as the reader nears it (a widget's controls, an exercise's form) built, so that axe reads
# it too (reading the page as it loads left the draw-shape and sentence widgets' buttons unread: 2.3 : 1 on the dark
# palette, found when another test had scrolled to them); then back to the top
BUILD_NEAR = f"""async () => {{
  const frame = {NEXT_FRAME};
  for (const e of document.querySelectorAll('[data-widget], .exercise')) {{
    e.scrollIntoView({{block: 'center'}}); await frame(); await frame(); }}
  const waiting = () => [...document.querySelectorAll('[data-widget]')].filter(w => !w.dataset.ready)
    .map(w => w.dataset.widget + (w.dataset.failed ? ': ' + w.dataset.failed : ' not ready after 20 s'));
  for (const until = Date.now() + 20000; Date.now() < until && waiting().some(w => !w.includes(': ')); ) await frame();
  scrollTo(0, 0); await frame();
  // what the scroll set moving (the header's title swapping back, the contents' highlight) has ended: axe would
  // read a colour halfway
  await Promise.race([Promise.all(document.getAnimations().map(a => a.finished.catch(() => null))),
                      new Promise(r => setTimeout(r, 3000))]);
  return waiting();
}}"""


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", pages(), scope="module")
def test_axe_finds_no_violation(shared_page, base_url, lang, page, scheme):
    """Every axe rule in the light palette; in the dark one (the same page, switched) the rules about colour. The
    palettes differ only in colours (the same markup, names and order: the toggle's own label is checked in both
    by test_palette), so the other rules would check the same page twice (they were 40 % of this test's time)."""
    assert AXE.exists(), "build/axe.min.js is copied by `make assets` from the pinned axe-core"
    p = load(shared_page, base_url, lang, page)
    if scheme == "default":   # first: the dark palette's pass reads the same built page
        unbuilt = p.evaluate(BUILD_NEAR)
        assert not unbuilt and not p.errors, f"{lang}/{page}: not built for axe to read: {unbuilt} {p.errors}"
    switch_to(p, scheme)
    assert p.evaluate("document.body.getAttribute('data-md-color-scheme')") == scheme
    if not p.evaluate("'axe' in window"):
        p.add_script_tag(path=str(AXE))
    only = "" if scheme == "default" else ", runOnly: {type: 'rule', values: ['color-contrast', 'link-in-text-block']}"
    result = p.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']%s})).violations
        .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))""" % only)
    assert not result, f"{lang}/{page} ({scheme}): " + "; ".join(f"{v['id']}: {v['help']} at {v['nodes']}" for v in result)


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", pages(), scope="module")
def test_controls_keyboard_labelled_focus_visible(shared_page, base_url, lang, page):
    p = load(shared_page, base_url, lang, page)
    controls = p.locator(".chart-view input, .chart-view select, .chart-view button")
    script = PERSIAN if lang == "fa" else CYRILLIC
    for i in range(controls.count()):
        c = controls.nth(i)
        if not c.is_visible():
            continue
        c.evaluate(NEAR)  # text far down a lesson is laid out (innerText) once the reader nears it
        label = c.evaluate("""e => (e.labels && e.labels[0] ? e.labels[0].innerText : '') + ' ' +
                                 (e.getAttribute('aria-label') || '') + ' ' + (e.closest('label') ? e.closest('label').innerText : '') + ' ' +
                                 (e.closest('.vega-bind') ? e.closest('.vega-bind').querySelector('.vega-bind-name').innerText : '')""")
        assert script.search(label) or re.search(r"[A-Za-z]\w*\s*[₀-₉]|\bd\b", label), \
            f"{lang}/{page}: control {i} has no label in the page's language: {label!r}"
        assert c.evaluate("e => e.tabIndex") >= 0, f"{lang}/{page}: control {i} is not reachable by Tab"
        c.focus()
        ring = c.evaluate("""e => { const s = getComputedStyle(e);
             return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0 || s.boxShadow !== 'none'; }""")
        assert ring, f"{lang}/{page}: control {i} shows no focus ring"


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", pages(), scope="module")
def test_every_chart_is_named_described_and_has_a_data_table(shared_page, base_url, lang, page):
    p = load(shared_page, base_url, lang, page)
    figs = p.locator("figure.chart")
    for i in range(figs.count()):
        f = figs.nth(i)
        f.evaluate(NEAR)  # text far down a lesson is laid out (inner_text) once the reader nears it
        name = f.locator(".chart-view").get_attribute("aria-label")
        assert name and (PERSIAN if lang == "fa" else CYRILLIC).search(name)
        assert f.locator("figcaption").inner_text().strip()
        table = f.locator("details.chart-data table")
        assert table.count() == 1, f"{lang}/{page}: chart {i} has no data table"
        assert table.locator("th").count() >= 1 and table.locator("td").count() >= 1


# ── √ before its argument, the decimal comma (issue 12 defect 2; test_controls before) ──────────
ORDER = """() => {
  const out = [];
  for (const el of document.querySelectorAll('figure.chart figcaption, figure.chart th, figure.chart caption')) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.parentElement.checkVisibility()) continue;  // not drawn (e.g. a caption's print wording on screen)
      for (let i = t.data.indexOf('√'); i >= 0 && i + 1 < t.data.length; i = t.data.indexOf('√', i + 1)) {
        const r = document.createRange();
        r.setStart(t, i); r.setEnd(t, i + 1); const root = r.getBoundingClientRect();
        r.setStart(t, i + 1); r.setEnd(t, i + 2); const arg = r.getBoundingClientRect();
        out.push({text: t.data.slice(Math.max(0, i - 10), i + 4), root: root.left, arg: arg.left});
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", pages(), scope="module")
def test_root_sign_stays_before_its_argument_in_captions_and_headers(shared_page, base_url, lang, page):
    """√d in a figure caption or a data-table header reads √d, not d√ (the data tables opened)."""
    p = load(shared_page, base_url, lang, page)
    p.evaluate(OPEN_DETAILS)
    found = p.evaluate(ORDER)
    SEEN["roots"].setdefault(lang, []).extend(f["text"] for f in found)
    wrong = [f["text"] for f in found if not f["root"] < f["arg"]]
    assert not wrong, f"{lang}/{page}: the root sign is drawn after its argument in {wrong}"


POINT_DECIMAL = re.compile(r"(?<![\w./])\d+\.\d+(?![\w.])")   # 0.77 — but not versions (2.14.1), names (glibc2.36) or arXiv ids in links (abs/1409.0473)
VISIBLE_TEXT = """() => {
  const skip = 'pre, code, .katex, .math, script, style, svg';
  const walker = document.createTreeWalker(document.querySelector('.md-content'), NodeFilter.SHOW_TEXT);
  const out = [];
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const el = t.parentElement;
    if (el && !el.closest(skip) && el.checkVisibility()) out.push(t.data);
  }
  return out.join(' ');
}"""
COMMA = tuple(lang for lang in LANGS if numfmt.LOCALES[lang]["decimal"] == ",")   # the languages writing 0,77


@pytest.mark.parametrize("lang", COMMA, scope="module")
@pytest.mark.parametrize("page", pages(), scope="module")
def test_a_decimal_comma_language_never_shows_a_decimal_point(shared_page, base_url, lang, page):
    """Text, tables, chart axes and labels, and readouts (as drawn first, then after moving every slider) show
    «0,77», never «0.77»; code and formulas keep the point."""
    p = load(shared_page, base_url, lang, page)
    p.evaluate(OPEN_DETAILS)
    text = p.evaluate(VISIBLE_TEXT)
    charts = p.evaluate(CHART_TEXT, True)
    SEEN["text"][lang, page], SEEN["charts"][lang, page] = text, charts
    sliders = p.locator("figure.chart .vega-bind input[type=range]")
    for i in range(sliders.count()):
        s = sliders.nth(i)
        s.scroll_into_view_if_needed()
        box = s.bounding_box()
        p.mouse.click(box["x"] + box["width"] * 0.37, box["y"] + box["height"] / 2)
        p.evaluate(CHARTS_DRAWN)
        charts += " | " + p.evaluate(CHART_TEXT, True)
    p.mouse.move(1, 1)   # off the charts (the page's header): the slider test below starts from no hover
    assert not POINT_DECIMAL.findall(text), f"{lang}/{page}: {POINT_DECIMAL.findall(text)[:8]}"
    assert not POINT_DECIMAL.findall(charts), f"{lang}/{page} charts: {POINT_DECIMAL.findall(charts)[:8]}"


@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", SLIDER_PAGES, scope="module")
def test_slider_operable_with_keyboard(shared_page, base_url, lang, page):
    """Tab to a chart's slider and press an arrow key: the value and the drawing change."""
    p = load(shared_page, base_url, lang, page)
    slider = p.locator(".chart-view input[type=range]").first
    fig = slider.locator("xpath=ancestor::figure[1]")
    # the drawing: an SVG's markup, or a canvas's pixels (the patch-attention chart draws on a canvas)
    drawing = lambda: fig.locator(".marks").first.evaluate(  # noqa: E731
        "m => m.tagName.toLowerCase() === 'canvas' ? m.toDataURL() : m.innerHTML")
    before_svg = drawing()
    slider.focus()
    assert p.evaluate("document.activeElement.type") == "range"
    before = slider.input_value()
    p.keyboard.press("ArrowRight" if float(before) < float(slider.get_attribute("max")) else "ArrowLeft")
    p.evaluate(CHARTS_DRAWN)
    assert slider.input_value() != before
    assert drawing() != before_svg, f"{lang}/{page}: the chart did not redraw"


# ── What holds for a language or a chapter, from what the page-by-page tests above recorded ─────
def test_some_source_note_was_placed_away_from_the_edge(browser):
    assert_placement_was_tested(SEEN["notes"])


def test_root_signs_are_read_in_several_captions_and_headers(browser):
    for lang in LANGS:
        assert len(SEEN["roots"].get(lang, ())) >= 3, \
            f"{lang}: expected √ in several captions and headers, found {SEEN['roots'].get(lang)} (run the whole module)"


def test_every_chapter_with_charts_shows_decimal_commas(browser):
    """A chapter with charts shows decimal numbers, with a comma, in its text and in its charts (since the
    split into short section pages, one page may show only whole numbers, e.g. a mask of 0 and 1: the
    claim holds for the chapter)."""
    assert COMMA, "no language writes a decimal comma: the checks above went unused"
    for lang in COMMA:
        for chapter in course.lessons():
            chapter_pages = [chapter, *course.sections(chapter)]
            if not set(chapter_pages) & set(CHART_PAGES):
                continue
            assert all((lang, page) in SEEN["text"] for page in chapter_pages), f"{lang}/{chapter}: run the whole module"
            texts = [SEEN["text"][lang, page] for page in chapter_pages]
            charts = [SEEN["charts"][lang, page] for page in chapter_pages if page in CHART_PAGES]
            assert any(re.search(r"\d,\d", x) for x in texts), f"{lang}/{chapter}: no page of the chapter shows a decimal comma"
            assert any(re.search(r"\d,\d", x) for x in charts), f"{lang}/{chapter}: no chart of the chapter shows a decimal comma"
