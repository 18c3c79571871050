"""Formulas and a slider in Debian's chromium: KaTeX's formulas read left to right on a Persian page, and the √d
slider changes its chart (every page rendering cleanly, in both languages: test_browser_desktop.py)."""

import pytest

from conftest import LANGS, page_with_chart
from tools.browser import CHARTS_DRAWN


def opened(shared_page, lang, page):
    """Each page once per module, shared: the tests below read it, and the one that moves a slider
    moves only its own chart's."""
    return shared_page(lang, page, only_this_site=True, timeout=20000)


@pytest.mark.parametrize("lang", LANGS)
def test_math_is_rendered_and_left_to_right(shared_page, lang):
    p = opened(shared_page, lang, "index")
    errors = p.errors
    assert p.locator(".katex").count() > 0, "formulas should be KaTeX HTML"
    assert p.evaluate("getComputedStyle(document.querySelector('.katex')).direction") == "ltr"


@pytest.mark.parametrize("lang", LANGS)
def test_sqrt_slider_moves_the_marker(shared_page, lang):
    p = opened(shared_page, lang, page_with_chart("sqrt_scaling"))
    errors = p.errors
    fig = p.locator("#chart-sqrt_scaling")
    before = fig.locator("svg.marks").inner_html()
    slider = fig.locator("input[type=range]")
    slider.fill("2")
    p.evaluate(CHARTS_DRAWN)
    after = fig.locator("svg.marks").inner_html()
    assert before != after, "moving the slider should redraw the marker"
    labels = p.evaluate("""() => window.courseCharts.views.get(document.querySelector('#chart-sqrt_scaling .chart-view'))
                             .view.signal('log2d')""")
    assert labels == 2


def test_language_switch_leads_to_the_same_page(shared_page):
    p = opened(shared_page, "uk", "index")
    href = p.locator("a[hreflang='fa']").first.get_attribute("href")
    assert href and "fa/" in href


@pytest.mark.parametrize("lang,word,other", [("uk", "увага", "توجه"), ("fa", "توجه", "увага")])
def test_search_finds_the_page_language_only(shared_page, lang, word, other):
    """Each language searches its own index: results link inside the page's language (a word of
    the other language is found only where this language's pages quote it, e.g. the glossary)."""
    p = opened(shared_page, lang, "index")
    errors = p.errors
    box = p.locator(".md-search__input")
    links = "document.querySelectorAll('.md-search-result__link').length"
    for query in (word, other):
        # from an empty list, then until results come: the index loads when search opens, and a fixed wait
        # missed it on a busy machine (CI: 0 results for «توجه»)
        box.fill("")
        box.press("End")
        p.wait_for_function(f"() => {links} === 0", timeout=10000)
        box.fill(query)
        box.press("End")
        p.wait_for_function(f"() => {links} >= {3 if query == word else 1}", timeout=20000)
        p.wait_for_timeout(300)      # the list is written in one go; let it finish
        hrefs = p.locator(".md-search-result__link").evaluate_all("links => links.map(a => a.href)")
        if query == word:
            assert len(hrefs) >= 3, f"{lang}: {query!r} should be found on several pages"
        assert hrefs and all(("/fa/" in h) == (lang == "fa") for h in hrefs), f"{lang}: {query!r} → {hrefs}"
    box.blur()  # the page stays open for the module: a focused box blinks its caret, a frame twice a second
    assert not errors, errors
