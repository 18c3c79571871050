"""The light/dark toggle (issue 12, Lighthouse): the palette is applied before the page's content is
parsed (overrides/partials/javascripts/palette.html), so nothing restyles the whole page after it is
drawn; the toggle (the same script) behaves as Material's did: the reader's system setting when
nothing is stored, a click or Enter switches, the choice is kept across pages and from disk."""

import pytest
from mkdocs.exceptions import PluginError

from conftest import CHART_PAGES, LANGS, local_url, page_url, ROOT

# Records every change to <body>'s attributes with whether the page was still being parsed: a change
# during parsing restyles what has been parsed so far (the header), one after it the whole page.
WATCH_BODY = """
window.__bodyChanges = [];
new MutationObserver(records => records.forEach(r => {
  if (r.target === document.body) window.__bodyChanges.push([r.attributeName, document.readyState]);
})).observe(document, { attributes: true, subtree: true });
"""


def scheme_of(p):
    return p.evaluate("[document.body.getAttribute('data-md-color-scheme'), "
                      "document.querySelector('meta[name=color-scheme]').content, "
                      "[...document.querySelectorAll('label[for^=__palette]')].filter(l => !l.hidden).length]")


@pytest.mark.parametrize("system, scheme, meta", [("light", "default", "light"), ("dark", "slate", "dark")])
def test_with_nothing_stored_the_page_follows_the_system_and_is_not_restyled_after_parsing(
        browser, base_url, system, scheme, meta):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=system)
    for lang in LANGS:
        p = ctx.new_page()
        p.add_init_script(WATCH_BODY)
        p.goto(page_url(base_url, lang, CHART_PAGES[0]), wait_until="load")
        p.wait_for_timeout(500)
        assert scheme_of(p) == [scheme, meta, 1], f"{lang}: {system} system"
        late = [name for name, state in p.evaluate("window.__bodyChanges") if state != "loading"]
        assert not late, f"{lang}: <body> changed after the page was parsed (each restyles the page): {late}"
        assert p.evaluate("localStorage.length") == 0, f"{lang}: a choice was stored the reader never made"
        p.close()
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_click_or_enter_switches_and_the_choice_is_kept(browser, base_url, offline_copy, lang):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    p = ctx.new_page()
    errors = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("console", lambda m: m.type == "error" and errors.append(m.text))
    p.goto(page_url(base_url, lang, "index"))
    light_title = p.locator("label[for^='__palette']:visible").get_attribute("title")
    p.locator("label[for^='__palette']:visible").click()
    assert scheme_of(p) == ["slate", "dark", 1]
    assert p.locator("label[for^='__palette']:visible").get_attribute("title") != light_title
    assert not p.evaluate("document.body.hasAttribute('data-md-color-switching')"), "transitions stay off"
    p.goto(page_url(base_url, lang, "glossary"))  # another page of the site: the choice is kept
    assert scheme_of(p) == ["slate", "dark", 1]
    p.focus("input[name=__palette]:checked")
    p.keyboard.press("Enter")
    assert scheme_of(p) == ["default", "light", 1]
    assert p.evaluate("document.activeElement.matches('input[name=__palette]:checked')"), "focus follows"
    p.reload()
    assert scheme_of(p) == ["default", "light", 1]
    assert not errors, errors
    ctx.close()
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    p = ctx.new_page()  # from disk: the same toggle, the choice kept from page to page
    p.goto(local_url(offline_copy, lang, "index"))
    p.locator("label[for^='__palette']:visible").click()
    p.goto(local_url(offline_copy, lang, "glossary"))
    assert scheme_of(p) == ["slate", "dark", 1]
    ctx.close()


def test_an_automatic_palette_option_fails_the_build():
    """Material's automatic option (media "(prefers-color-scheme)") is not handled by the course's toggle:
    the build says so instead of shipping a toggle that does nothing."""
    from course_build import chrome
    config = {"theme": {"language": LANGS[0], "palette": [{"media": "(prefers-color-scheme)", "toggle": {}}]},
              "extra": {"source_url": "https://example.org/src"}}
    with pytest.raises(PluginError, match="prefers-color-scheme.*not supported"):
        chrome.on_config(config)
