"""open_page reuses a tab a test closed (conftest.reused_tab): the page a test gets is the one a new tab would show,
nothing of the test before it carried over."""
from conftest import LANGS, open_page, pages

A, B = pages()[0], pages()[-1]
LANG = LANGS[-1]


def test_a_closed_tab_opens_the_next_page_as_a_new_tab_would(context, base_url):
    p = open_page(context, base_url, LANG, A, charts=False)
    p.evaluate("scrollTo(0, 600); console.error('from the page before')")
    p.close()
    q = open_page(context, base_url, LANG, B, charts=False)
    assert q is p, "the closed tab should have been reused"
    assert q.errors == [], "errors of the page before belong to the test before"
    assert q.evaluate("scrollY") == 0
    q.close()
    # the same address again: a new document at its top (Chromium does not restore the scroll as on a reload)
    r = open_page(context, base_url, LANG, B, charts=False)
    assert r is p
    r.evaluate("scrollTo(0, 600); window.leftover = 1")
    r.close()
    s = open_page(context, base_url, LANG, B, charts=False)
    assert s.evaluate("[scrollY, window.leftover === undefined]") == [0, True]
    s.close()


def test_a_tab_its_test_changed_is_closed_for_good(context, base_url):
    p = open_page(context, base_url, LANG, A, charts=False)
    seen = []
    p.on("console", lambda m: seen.append(m.text))  # the test's own listener: the tab is this test's alone
    p.close()
    assert p.is_closed()
    q = open_page(context, base_url, LANG, A, charts=False, init_script="window.mine = 1")
    q.close()
    assert q.is_closed(), "an init script stays with its tab: the tab must not serve another test"
    r = open_page(context, base_url, LANG, A, charts=False)
    assert r not in (p, q) and r.evaluate("window.mine === undefined")
    r.close()


def test_a_tab_closed_twice_serves_one_test(context, base_url):
    p = open_page(context, base_url, LANG, A, charts=False)
    p.close()
    p.close()   # e.g. by its test, then by a fixture's teardown
    q = open_page(context, base_url, LANG, A, charts=False)
    r = open_page(context, base_url, LANG, B, charts=False)
    assert q is p and r is not q, "one closed tab was handed to two tests"
    q.close()
    r.close()


def test_a_kept_tab_holds_no_focused_text_box(context, base_url):
    """A text box focused in a kept tab would blink its caret, a new frame twice a second, until the tab's next
    page: the tab is put back with nothing focused."""
    p = open_page(context, base_url, LANG, A, charts=False)
    p.evaluate("() => { const i = document.createElement('input'); document.body.prepend(i); i.focus(); }")
    assert p.evaluate("document.activeElement.tagName") == "INPUT"
    p.close()
    assert not p.is_closed() and p.evaluate("document.activeElement === document.body")
    q = open_page(context, base_url, LANG, B, charts=False)
    assert q is p
    q.close()
