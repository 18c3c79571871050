"""A reader focuses a number with the keyboard, reads where it comes from, and one key press later sees its code."""
import pytest
import yaml

from conftest import LANGS, ROOT, open_page, page_citing, palette, TABLE_PAGES


def tip_words(lang: str) -> str:
    """The tooltip's fixed words in this language (the text before the first placeholder)."""
    tip = yaml.safe_load((ROOT / "scripts/i18n" / lang / "site.yml").read_text(encoding="utf-8"))["ui"]["provenance"]["tip"]
    return tip.split("{", 1)[0].strip()


@pytest.mark.parametrize("lang", LANGS)
def test_focused_number_says_where_it_comes_from(browser, base_url, lang):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    p = open_page(ctx, base_url, lang, page_citing("sa_scaling/by_d[d=256].pmax_raw"), charts=False)  # its text
    number = p.locator('a.src[data-source="sa_scaling/by_d[d=256].pmax_raw"]').first
    number.focus()
    assert p.evaluate("document.activeElement.dataset.source") == "sa_scaling/by_d[d=256].pmax_raw"
    # the tooltip is drawn on focus, in the page's language, naming experiment and key
    shown = p.evaluate("""() => {
        const el = document.activeElement, after = getComputedStyle(el, '::after');
        return {content: after.content, display: after.display, visible: after.content !== 'none'};
    }""")
    assert shown["visible"] and tip_words(lang) in shown["content"], shown
    assert "sa_scaling" in shown["content"] and "by_d[d=256].pmax_raw" in shown["content"]
    # its accessible description is the entry's sentence, which names the experiment's file
    described = p.evaluate("document.getElementById(document.activeElement.getAttribute('aria-describedby')).textContent")
    assert "scripts/experiments/sa_scaling.py" in described
    # Enter follows the link to the entry, whose code opens with one more click
    p.keyboard.press("Enter")
    p.wait_for_function("location.hash === '#src-sa_scaling'")
    entry = p.locator("#src-sa_scaling")
    assert entry.is_visible()
    entry.locator("details > summary").click()
    code = entry.locator("details pre code")
    code.wait_for(state="visible")  # loaded when opened (course_build/code_listings.py)
    assert "def compute" in code.inner_text()
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_code_listings_load_when_opened(browser, base_url, lang):
    """The page arrives without the listings; opening an entry brings its code, highlighted, with a copy
    button, and nothing else's."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    p = open_page(ctx, base_url, lang, page_citing("sa_toy/"), charts=False)   # the page whose numbers come from sa_toy
    loaded = lambda: p.evaluate("performance.getEntriesByType('resource').map(e => e.name)"
                                ".filter(n => n.includes('/assets/code/'))")
    assert p.locator(".provenance-entry pre").count() == 0 and loaded() == []
    entries = p.locator(".provenance-entry")
    assert entries.count() >= 2
    entry = p.locator("#src-sa_toy")
    entry.scroll_into_view_if_needed()
    entry.locator("details > summary").click()
    code = entry.locator("details pre code")
    code.wait_for(state="visible")
    src = (ROOT / "scripts/experiments/sa_toy.py").read_text(encoding="utf-8")
    assert code.inner_text().strip() == src.strip()
    assert code.locator("span.kn").count() > 0, "the listing lost its highlighting"
    button = entry.locator("pre .md-code__button[data-md-type=copy]")
    assert button.count() == 1 and button.get_attribute("data-clipboard-target") == "#__code_src-sa_toy > code"
    assert button.get_attribute("title"), "the copy button has no name"
    assert [n.rsplit("/", 1)[1] for n in loaded()] == ["sa_toy.js"]
    # closing and opening again keeps one listing
    entry.locator("details > summary").click()
    entry.locator("details > summary").click()
    assert entry.locator("pre").count() == 1
    assert p.locator(".provenance-entry pre").count() == 1 and not p.errors, p.errors
    ctx.close()


DECORATION = "e => { const s = getComputedStyle(e); return [s.textDecorationLine, s.textDecorationStyle]; }"


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("lang", LANGS)
def test_numbers_are_quiet_until_hovered_or_focused(browser, base_url, lang, scheme):
    """Issue 25, item 4: a computed number (in prose and in a table) has no underline at rest; hovered it
    shows its dotted line; focused from the keyboard, its dotted line and a focus ring. It stays a link."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    # numbers in prose and in a table; the charts are not read
    p = open_page(ctx, base_url, lang, TABLE_PAGES[0], init_script=palette(scheme), charts=False)
    assert p.evaluate("document.body.getAttribute('data-md-color-scheme')") == scheme
    for where in ("p a.src", "td a.src"):
        number = p.locator(f".md-typeset {where}").first
        number.evaluate("async e => { e.scrollIntoView({block: 'center'}); await new Promise(r => setTimeout(r, 100)); }")
        assert number.evaluate("e => e.tagName") == "A" and number.get_attribute("href").startswith("#src-")
        p.mouse.move(0, 0)
        assert number.evaluate(DECORATION) == ["none", "solid"], f"{lang} {scheme} {where}: underlined at rest"
        # keyboard focus: Tab from the element before it lands on it (the focus is visible)
        number.evaluate("e => { const t = document.createElement('button'); t.id = 'before-number'; "
                        "e.parentNode.insertBefore(t, e); }")
        p.locator("#before-number").focus()
        p.keyboard.press("Tab")
        assert number.evaluate("e => e === document.activeElement"), "Tab reaches the number"
        assert number.evaluate(DECORATION) == ["underline", "dotted"], f"{lang} {scheme} {where}: focused"
        ring = number.evaluate("e => { const s = getComputedStyle(e); return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0; }")
        assert ring, f"{lang} {scheme} {where}: keyboard focus shows no ring"
        p.evaluate("document.activeElement.blur(); document.getElementById('before-number').remove()")
        assert number.evaluate(DECORATION) == ["none", "solid"]
        number.hover()
        assert number.evaluate(DECORATION) == ["underline", "dotted"], f"{lang} {scheme} {where}: hovered"
        p.mouse.move(0, 0)
    ctx.close()
