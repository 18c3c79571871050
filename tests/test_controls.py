"""Controls and text that read right in both languages (issue 12, defects 1–5 and 7), in Debian's
chromium: slider readouts in the page's digits and decimal sign after drag, click and keys; sliders
that run the way their axis runs; formula fragments isolated in their written order; chosen values kept
across the light/dark switch; the theme toggle, search count and download notes worded for each language;
the decimal comma in the static charts and the PDF. What is read on every page (no space before a comma,
the root sign before its argument, the decimal comma on screen) is read in test_browser_desktop.py's one
walk through the pages, and nothing wider than a 390 px phone in test_browser_phone.py's."""
import re

import pytest

from conftest import (CHART_PAGES, LANGS, LESSON_PAGES, NEXT_FRAME, ROOT, SCROLL_NEAR, SLIDER_PAGES,
                      open_page, page_with_chart, palette, palette_context, switch_palette)
from scripts.common import course, numfmt
from scripts.common.i18n import strings
from tools.browser import CHARTS_DRAWN

VIEW = "(id) => window.courseCharts.views.get(document.querySelector('#chart-' + id + ' .chart-view')).view"


def localized(text: str, lang: str) -> str:
    """A slider value as the page writes it: numfmt's digits, decimal sign and minus."""
    loc = numfmt.LOCALES[lang]
    return numfmt.localize_digits(text.replace(".", loc["decimal"]).replace("-", loc["minus"]), lang)


def shared(shared_page, lang, page):
    """Pages opened once per module for the tests of defect 7 (they read them)."""
    return shared_page(lang, page)


def sliders(p):
    return p.locator("figure.chart .vega-bind input[type=range]")


def readout(slider):
    return slider.locator("xpath=following-sibling::output[1]")


# ── Defect 1: readouts ──────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", SLIDER_PAGES)
def test_slider_readouts_stay_in_the_page_language(context, base_url, lang, page):
    """After a drag, a click and arrow keys, every readout shows the slider's value in the page's
    digits and decimal sign, and Vega's own (Latin, point) readout stays hidden."""
    p = open_page(context, base_url, lang, page)
    n = sliders(p).count()
    assert n, f"{lang}/{page}: no chart slider found"
    latin = re.compile(r"[0-9.]" if lang != "uk" else r"\.")
    for i in range(n):
        s = sliders(p).nth(i)
        s.scroll_into_view_if_needed()
        box = s.bounding_box()
        y = box["y"] + box["height"] / 2
        p.mouse.move(box["x"] + 4, y)                             # drag the thumb across
        p.mouse.down()
        p.mouse.move(box["x"] + box["width"] * 0.63, y, steps=5)
        p.mouse.up()
        seen = [(s.input_value(), readout(s).inner_text())]
        p.mouse.click(box["x"] + box["width"] * 0.29, y)          # click on the track
        seen.append((s.input_value(), readout(s).inner_text()))
        s.focus()
        for key in ("ArrowRight", "ArrowRight", "ArrowLeft", "End", "Home", "ArrowRight"):
            p.keyboard.press(key)
            seen.append((s.input_value(), readout(s).inner_text()))
        assert len({v for v, _ in seen}) > 2, f"{lang}/{page} slider {i}: the value did not move: {seen}"
        for value, shown in seen:
            assert shown == localized(value, lang), f"{lang}/{page} slider {i}: value {value} shown as {shown!r}"
            assert not latin.search(shown), f"{lang}/{page} slider {i}: {shown!r}"
        assert s.get_attribute("aria-valuetext") == seen[-1][1]
        assert not s.locator("xpath=following-sibling::span[1]").is_visible(), "Vega's readout should be hidden"
    assert not p.errors, p.errors
    p.close()


# ── Defect 3: direction ─────────────────────────────────────────────────────────────────────────
RULE_XS = """(id) => {
  const view = window.courseCharts.views.get(document.querySelector('#chart-' + id + ' .chart-view')).view;
  const xs = [];
  const walk = n => { if (!n || !n.items) return;
    if (n.marktype === 'rule') n.items.forEach(it => xs.push(it.x));
    n.items.forEach(walk); };
  walk(view.scenegraph().root);
  return xs;
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_sliders_run_the_way_their_axis_runs(context, base_url, lang):
    """Every chart slider is laid out left to right like the charts' axes; on the √d chart, moving
    the thumb to the right raises d and moves the marker to the right, in Persian too."""
    p = open_page(context, base_url, lang, page_with_chart("sqrt_scaling"))
    dirs = p.evaluate("[...document.querySelectorAll('figure.chart input[type=range]')].map(i => getComputedStyle(i).direction)")
    assert dirs and set(dirs) == {"ltr"}, dirs
    s = p.locator("#chart-sqrt_scaling input[type=range]")
    # scrolled in, its block (content-visibility: auto) is laid out and hit-testable from the next frame
    s.evaluate(SCROLL_NEAR)
    box = s.bounding_box()
    y = box["y"] + box["height"] / 2
    p.mouse.click(box["x"] + box["width"] * 0.2, y)
    p.evaluate(CHARTS_DRAWN)
    left_value, left_xs = float(s.input_value()), p.evaluate(f"({RULE_XS})('sqrt_scaling')")
    p.mouse.click(box["x"] + box["width"] * 0.8, y)
    p.evaluate(CHARTS_DRAWN)
    right_value, right_xs = float(s.input_value()), p.evaluate(f"({RULE_XS})('sqrt_scaling')")
    assert right_value > left_value, f"{lang}: the slider's right end should be its high end"
    moved = [(a, b) for a, b in zip(left_xs, right_xs) if a != b]
    assert moved and all(b > a for a, b in moved), f"{lang}: the marker should move right with the thumb: {moved}"
    p.close()


# ── Defect 2: formula fragments in Persian HTML text (their order on the page: test_browser_desktop.py) ──
def test_isolate_formulas_wraps_fragments_not_words():
    from course_build.bidi import isolate_formulas
    out = isolate_formulas("بدون تقسیم بر √d (d = ۳۲) و nn.MultiheadAttention، نه receptive field.")
    assert '<bdi dir="ltr">√d</bdi>' in out and '<bdi dir="ltr">d = ۳۲</bdi>' in out
    assert '<bdi dir="ltr">nn.MultiheadAttention</bdi>' in out
    assert "receptive field." in out, "plain Latin words need no isolation"
    hostile = isolate_formulas('وزن <img src=x onerror=alert(1)> & "c"')
    assert "<img" not in hostile and "&lt;img" in hostile and "&amp;" in hostile
    assert isolate_formulas("max |f(Px) − P·f(x)|، مقیاس").startswith('<bdi dir="ltr">max |f(Px) − P·f(x)|</bdi>')
    # a model's name joined by a hyphen is one fragment: «ViT-B/16» cut after the hyphen read «B/16-ViT»
    assert '<bdi dir="ltr">ViT-B/16</bdi>' in isolate_formulas("سهم کدگذاری موقعیتی از پارامترهای ViT-B/16")
    assert "— " in isolate_formulas("بلوک pre-LN — درست"), "a dash between words is no joiner"


# ── Defect 4: light/dark keeps the reader's choices ─────────────────────────────────────────────
STATE = """() => [...document.querySelectorAll('.chart-view')].map(el => {
  const view = window.courseCharts.views.get(el).view;
  const bound = [...el.querySelectorAll('.vega-bind [name]')].map(i => i.name);
  const stores = Object.keys(view.getState({data: n => /_store$/.test(n), signals: () => false}).data || {});
  return {chart: el.dataset.chart,
          signals: Object.fromEntries(bound.map(n => [n, view.signal(n)])),
          stores: Object.fromEntries(stores.map(n => [n, view.data(n).map(t => t.values)])),
          inputs: [...el.querySelectorAll('.vega-bind input, .vega-bind select')].map(i =>
                  i.type === 'radio' || i.type === 'checkbox' ? i.checked : i.value),
          readouts: [...el.querySelectorAll('output.chart-readout')].map(o => o.textContent)};
})"""


def _chart_spec(chart: str) -> str:
    return (ROOT / "generated" / "charts" / course.default_language().code / f"{chart}.vg.json").read_text(encoding="utf-8")


def _charts_on(page: str) -> list[str]:
    src = course.source(course.default_language().code, page).read_text(encoding="utf-8")
    return re.findall(r"\{\{\s*chart:\s*([\w-]+)\s*\}\}", src)


# the chart pages where a reader can choose something: a bound control (slider, radio, checkbox, select)
# or a hover pick kept in a selection store
CHOICE_PAGES = tuple(p for p in CHART_PAGES if any(
    '"bind"' in _chart_spec(c) or '_store"' in _chart_spec(c) for c in _charts_on(p)))
STORES = "(id) => { const v = window.courseCharts.views.get(document.querySelector('#chart-' + id + ' .chart-view')).view;" \
         " return Object.keys(v.getState({data: n => /_store$/.test(n), signals: () => false}).data || {})" \
         ".reduce((n, s) => n + v.data(s).length, 0); }"
# Every chart's dataflow run to its end (what the reader's last event set off: signals, selection stores,
# readouts), then a frame: the page as the reader then sees it (instead of a fixed wait)
SETTLED = f"""async () => {{ await Promise.all([...document.querySelectorAll('.chart-view')].map(e => {{
  const r = window.courseCharts.views.get(e); return r && r.view.runAsync(); }})); await ({NEXT_FRAME})(); }}"""
# one chart's run to its end, then its selection stores' size (STORES)
STORES_SETTLED = "async (id) => { const v = window.courseCharts.views.get(document.querySelector('#chart-' + id + " \
                 "' .chart-view')).view; await v.runAsync(); return (" + STORES + ")(id); }"


# the colour of a chart's text: an SVG chart's as drawn, a canvas chart's from its scenegraph (what it paints)
TEXT_FILL = """() => { const t = document.querySelector('.chart-view svg.marks text');
  if (t) return getComputedStyle(t).fill;
  let fill = null;
  const walk = node => { if (fill || !node || !node.items) return;
    if (node.marktype === 'text' && node.items.length) { fill = node.items[0].fill; return; }
    node.items.forEach(walk); };
  for (const el of document.querySelectorAll('.chart-view')) walk(window.courseCharts.views.get(el).view.scenegraph().root);
  return fill; }"""


@pytest.fixture(scope="module")
def light(browser, base_url):
    """A context whose pages open in the light palette (the toggle's stored choice; each page's test stores it
    again before its tab is put back for the next page, conftest.reused_tab)."""
    ctx = palette_context(browser, base_url, "default", color_scheme="light")
    yield ctx
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_theme_switch_keeps_every_chosen_value(light, base_url, lang):
    """On every chart page where a reader can choose (since the chapter split no page holds every kind of
    control, so the test goes through all of them): every slider to its upper quarter, every radio group
    to its last option, every checkbox flipped, every select to its last option, a hover pick on every
    chart that keeps one; then the light/dark switch redraws the charts and every choice is still there."""
    worked = {"range": 0, "radio": 0, "checkbox": 0, "select": 0}
    moved, picked = [], []
    assert CHOICE_PAGES, "no chart page has a control or a hover pick"
    for page in CHOICE_PAGES:
        p = open_page(light, base_url, lang, page)
        assert p.evaluate("document.body.dataset.mdColorScheme") == "default"
        for i in range(sliders(p).count()):                     # every slider to its upper quarter
            s = sliders(p).nth(i)
            s.scroll_into_view_if_needed()
            box = s.bounding_box()
            p.mouse.click(box["x"] + box["width"] * 0.77, box["y"] + box["height"] / 2)
            worked["range"] += 1
        # each choice drawn before the next, at a reader's pace (a choice may load the rows it shows, charts.js
        # rowsOnDemand): in one clean-clone run, a radio clicked while the earlier choices were still being drawn
        # kept its old state (Playwright: "did not change its state"; not reproduced alone, nor under load)
        p.evaluate(SETTLED)
        for radio in p.locator("figure.chart .vega-bind-radio").all():   # every radio group to its last option
            radio.locator("input").last.check()
            p.evaluate(SETTLED)
            worked["radio"] += 1
        for box in p.locator("figure.chart .vega-bind input[type=checkbox]").all():
            box.set_checked(not box.is_checked())
            p.evaluate(SETTLED)
            worked["checkbox"] += 1
        for sel in p.locator("figure.chart .vega-bind select").all():   # every select to its last option
            sel.select_option(index=sel.locator("option").count() - 1)
            p.evaluate(SETTLED)
            worked["select"] += 1
        hover = [c for c in _charts_on(page) if '_store"' in _chart_spec(c)]
        for chart in hover:                                     # a persistent hover pick (canvas or SVG on screen)
            marks = p.locator(f"#chart-{chart} .marks")
            marks.scroll_into_view_if_needed()
            mbox = marks.bounding_box()
            for fx, fy in ((0.3, 0.8), (0.5, 0.5), (0.3, 0.3), (0.7, 0.5), (0.5, 0.7), (0.2, 0.5)):
                p.mouse.move(mbox["x"] + mbox["width"] * fx, mbox["y"] + mbox["height"] * fy)
                if p.evaluate(STORES_SETTLED, chart):
                    break
            p.mouse.move(mbox["x"] + 2, mbox["y"] + 2)
        p.evaluate(SETTLED)
        before = p.evaluate(STATE)
        colour = p.evaluate(TEXT_FILL)
        assert colour, f"{lang}/{page}: no chart text to compare"
        switch_palette(p)
        p.evaluate(SETTLED)
        after = p.evaluate(STATE)
        assert p.evaluate("document.body.dataset.mdColorScheme") == "slate"
        assert p.evaluate(TEXT_FILL) != colour, \
            f"{lang}/{page}: the charts should have been redrawn in the dark palette"
        for b, a in zip(before, after):
            assert a == b, f"{lang}/{page}: {b['chart']} lost the reader's choice across the theme switch"
        initial = {c["chart"]: c for c in before}
        moved += [c["chart"] for c in before if c["signals"]]
        for chart in hover:
            st = initial[chart]["stores"]
            assert st and all(v for v in st.values()), f"{lang}/{page}: the hover pick of {chart} should be part of the kept state"
            picked.append(chart)
        p.evaluate(palette("default"))   # the reader's choice undone: the next page opens light
        p.close()
    assert len(moved) >= 5 and picked, f"{lang}: charts with a choice {moved}, hover picks {picked}"
    assert all(worked.values()), f"{lang}: every kind of control should have been worked: {worked}"


# ── Defect 7: small text faults ─────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("lang", LANGS)
def test_theme_toggle_speaks_the_page_language(shared_page, lang):
    p = shared(shared_page, lang, "index")
    names = p.evaluate("[...document.querySelectorAll('label[for^=__palette]')].map(l => l.title)")
    assert sorted(names) == sorted(strings(lang)["ui"]["palette"].values())
    script = re.compile(r"[\u0600-\u06ff]" if lang == "fa" else r"[\u0400-\u04ff]")
    assert all(script.search(n) for n in names), names


@pytest.mark.parametrize("lang", LANGS)
def test_download_notes_end_their_sentence(shared_page, lang):
    """Each download (a link with its size, or the note that the file is online) closes with a
    full stop, and the note links to the online course."""
    p = shared(shared_page, lang, "index")
    items = p.locator("li:has(a[download]), li:has(a[href^='http'])").all()
    assert len(items) >= 2
    for li in items:
        text = li.inner_text()
        link = li.locator("a[download], a[href^='http']").first.inner_text()
        i, depth = text.index(link) + len(link), 0
        while i < len(text):                                   # to the end of the "(…)" after the link
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
            if depth <= 0 and text[i - 1] == ")":
                break
        assert text[i:i + 1] == ".", f"{lang}: no full stop after «{text[:i]}»"


def test_offline_note_links_to_the_online_page():
    from types import SimpleNamespace
    from course_build.worker_shim import not_here_note
    for lang in LANGS:
        ui = strings(lang)["ui"]["downloads"]
        note = not_here_note(ui, SimpleNamespace(canonical_url="https://example.org/course/fa/"))
        assert f'<a href="https://example.org/course/fa/">{ui["site_link"]}</a>' in note
        assert note.startswith("(") and note.endswith(")")


def test_ukrainian_search_count_reads_right(context, base_url):
    """Material's «Знайдено 2 збігів» is wrong Ukrainian; the count now follows a colon."""
    p = open_page(context, base_url, "uk", "index")
    box = p.locator("input.md-search__input")
    box.click()
    box.fill("уваг")
    box.press("End")
    p.wait_for_function("document.querySelector('.md-search-result__meta').textContent.match(/\\d/)", timeout=15000)
    meta = p.locator(".md-search-result__meta").inner_text()
    assert re.fullmatch(r"Знайдено збігів: \d+|Знайдено 1 збіг", meta), meta
    p.close()


# ── Ukrainian decimal comma wherever a reader sees a number (on the pages: test_browser_desktop.py) ──
POINT_DECIMAL = re.compile(r"(?<![\w./])\d+\.\d+(?![\w.])")   # 0.77 — but not versions (2.14.1), names (glibc2.36) or arXiv ids in links (abs/1409.0473)


def test_ukrainian_static_charts_write_a_decimal_comma():
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent / "generated" / "charts" / "uk"
    for svg in sorted(root.glob("*.svg")):
        texts = " | ".join(re.findall(r"<text[^>]*>([^<]*)</text>", svg.read_text(encoding="utf-8")))
        assert not POINT_DECIMAL.findall(texts), f"{svg.name}: {POINT_DECIMAL.findall(texts)[:5]}"


def test_ukrainian_pdf_writes_a_decimal_comma(site_dir):
    """Every point-decimal in the uk PDF's text is one that a code block or formula of the lessons
    holds (those keep the point); all other numbers have a comma."""
    import subprocess
    from conftest import printed
    pdf = printed(site_dir, "uk")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    allowed = set()
    for page in LESSON_PAGES:
        html = (site_dir / page / "index.html").read_text(encoding="utf-8")
        for block in re.findall(r"<(?:pre|code)[^>]*>(.*?)</(?:pre|code)>|<annotation[^>]*>(.*?)</annotation>", html, re.S):
            allowed |= set(POINT_DECIMAL.findall(re.sub(r"<[^>]+>", "", " ".join(block))))
    stray = sorted(set(POINT_DECIMAL.findall(text)) - allowed)
    assert not stray, f"uk PDF: numbers with a decimal point outside code and formulas: {stray[:10]}"
    assert re.search(r"\d,\d", text)
