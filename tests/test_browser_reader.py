"""Reader-facing page defects of issue 25: what a reader sees on hover, focus, touch and in the other palette."""
import re

import pytest

from conftest import LANGS, ROOT, SCROLL_NEAR, open_page

ALPHA = """el => { const c = getComputedStyle(el, '::after');
    const m = c.backgroundColor.match(/rgba?\\(([^)]*)\\)/); const parts = m ? m[1].split(',') : [];
    return {content: c.content, display: c.display, alpha: parts.length === 4 ? parseFloat(parts[3]) : 1,
            bg: c.backgroundColor}; }"""


def page_with_table_number() -> str:
    """A page (path under docs/uk) whose built HTML has a provenance number inside a table."""
    for html in sorted((ROOT / "site").rglob("index.html")):
        if "/fa/" in str(html):
            continue
        text = html.read_text(encoding="utf-8")
        if re.search(r"<td[^>]*>(?:(?!</td>).)*class=\"src\"", text, re.S):
            rel = html.relative_to(ROOT / "site").parent.as_posix()
            return rel if rel != "." else "index"
    pytest.fail("no page has a number inside a table")


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("lang", LANGS)
def test_table_number_tooltip_on_hover_and_focus_is_opaque(browser, base_url, lang, scheme):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900},
                              color_scheme="dark" if scheme == "slate" else "light")
    p = open_page(ctx, base_url, lang, page_with_table_number(), charts=False)  # the text's numbers, not the charts
    p.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
    number = p.locator("table a.src").first
    number.evaluate(SCROLL_NEAR)
    number.hover()
    shown = number.evaluate(ALPHA)
    assert shown["content"] not in ("none", "normal") and shown["display"] != "none", shown
    assert shown["alpha"] == 1, shown
    p.mouse.move(0, 0)
    number.focus()
    p.keyboard.press("Shift+Tab"); p.keyboard.press("Tab")   # keyboard focus (:focus-visible)
    shown = p.evaluate(f"({ALPHA})(document.activeElement)")
    assert shown["content"] not in ("none", "normal") and shown["display"] != "none", shown
    assert shown["alpha"] == 1, shown
    # the paragraph tooltip is opaque too
    para = p.locator("p a.src").first
    para.evaluate(SCROLL_NEAR)
    para.hover()
    assert para.evaluate(ALPHA)["alpha"] == 1
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_switching_language_keeps_the_section_being_read(context, base_url, lang):
    """The other language's page opens at the same section (headings share anchors), not at its top."""
    from conftest import LESSON_PAGES
    other = next(code for code in LANGS if code != lang)
    # the section page with the most sections: its second one can be scrolled to the top of the window
    page = max((p for p in LESSON_PAGES if "/" in p),
               key=lambda p: (ROOT / "site" / p / "index.html").read_text(encoding="utf-8").count("<h2 id="))
    p = open_page(context, base_url, lang, page, charts=False)  # headings and the language menu
    heads = p.eval_on_selector_all(".md-content h2[id]", "els => els.map(e => e.id)")
    assert len(heads) >= 4, (page, heads)
    target = heads[1]
    p.evaluate("id => { document.getElementById(id).scrollIntoView(); window.scrollBy(0, 20); }", target)
    p.locator(f"a.md-select__link[hreflang='{other}']").dispatch_event("click")
    p.wait_for_url(re.compile(rf".*#{re.escape(target)}$"))
    assert p.evaluate("() => document.documentElement.lang") == other
    assert p.evaluate("id => Math.abs(document.getElementById(id).getBoundingClientRect().top) < 200", target)
    p.close()
