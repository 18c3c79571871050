"""Accessibility on every page of both languages, in light and dark palettes: axe-core finds no
violation; every control is reachable by keyboard, labelled in the page's language, with a visible
focus; every chart has an accessible name, a description and its data as a table."""
import re
from pathlib import Path

import pytest

from conftest import LANGS, pages, palette, palette_context, ROOT, SCROLL_NEAR, SLIDER_PAGES, switch_palette
from tools.browser import CHARTS_DRAWN

AXE = ROOT / "build" / "axe.min.js"
PERSIAN = re.compile(r"[\u0600-\u06ff]")
CYRILLIC = re.compile(r"[\u0400-\u04ff]")


# The tests run page by page (their page and language parameters are module-scoped): a page is opened once, in the
# default palette, and read by every test below before the next page; its tab then serves that page (a tab kept
# for each of the 50 pages cost each page a new tab and held them all in memory)
SHARED_PAGES = 2


@pytest.fixture(scope="module")
def context(browser, base_url):
    """The module's pages open in the light palette (a script run in each tab would keep the tab from serving the
    next page)."""
    ctx = palette_context(browser, base_url, "default")
    yield ctx
    ctx.close()


def load(shared_page, base_url, lang, page):
    """A page, opened in the default palette and shared by the tests below: the axe test switches it to the dark
    palette and leaves it there (the palettes differ only in colours), the others read it (the keyboard-slider
    test, last, moves one slider)."""
    return shared_page(lang, page, timeout=20000)


def switch_to(p, scheme: str) -> None:
    """The page in `scheme`, switched as a reader switches it (conftest.switch_palette): one page load serves both
    palettes (a second load in a dark context cost each page a renderer and a load, a quarter of this file's time)."""
    if p.evaluate("document.body.getAttribute('data-md-color-scheme')") == scheme:
        return
    # the colours as they end: a block not yet laid out (content-visibility) starts its links' colour transition
    # only when axe reads it, which then measured a colour halfway between the palettes
    p.add_style_tag(content="*, ::before, ::after { transition: none !important; }")
    switch_palette(p)
    p.evaluate(palette("default"))  # the toggle's stored choice undone: the next page opens light


NEAR = SCROLL_NEAR  # conftest: scrolled to, laid out

@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("lang", LANGS, scope="module")
@pytest.mark.parametrize("page", pages(), scope="module")
def test_axe_finds_no_violation(shared_page, base_url, lang, page, scheme):
    """Every axe rule in the light palette; in the dark one (the same page, switched) the rules about colour. The
    palettes differ only in colours (the same markup, names and order: the toggle's own label is checked in both
    by test_palette), so the other rules would check the same page twice (they were 40 % of this test's time)."""
    assert AXE.exists(), "build/axe.min.js is copied by `make assets` from the pinned axe-core"
    p = load(shared_page, base_url, lang, page)
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
