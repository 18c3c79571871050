"""A reader focuses a number with the keyboard, reads where it comes from, and one key press later sees its code."""
import pytest
import yaml

from conftest import LANGS, ROOT, open_page


def tip_words(lang: str) -> str:
    """The tooltip's fixed words in this language (the text before the first placeholder)."""
    tip = yaml.safe_load((ROOT / "scripts/i18n" / lang / "site.yml").read_text(encoding="utf-8"))["ui"]["provenance"]["tip"]
    return tip.split("{", 1)[0].strip()


@pytest.mark.parametrize("lang", LANGS)
def test_focused_number_says_where_it_comes_from(browser, base_url, lang):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    p = open_page(ctx, base_url, lang, "self-attention")
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
    code = entry.locator("details code")
    assert code.is_visible() and "def compute" in code.inner_text()
    ctx.close()
