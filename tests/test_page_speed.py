"""Lighthouse ≥ 97 and slider p95 ≤ 50 ms (issue 12): what can be asserted cheaply of the levers used.

- an in-page link lands on its heading;
- the 2 401-cell patch-attention dashboard draws on a canvas on screen, as SVG in print media;
- a right-to-left page is no wider than a phone before any script runs (the language menu stays on screen),
  and preloads the fonts it is set in;
- an exercise far down is laid out only as the reader nears it, and clips no tooltip.
"""
import re

import pytest

from conftest import (CHART_PAGES, EXERCISE_PAGES, LANGS, LESSON_PAGES, open_page, page_url, page_with_chart, pages,
                      reused_tab)
from scripts.common import course

from tools.browser import ALL_CHARTS_RENDERED, NEXT_FRAME

HEAVY = "sa_patch_attention"
RTL = [lang.code for lang in course.languages() if lang.rtl]
# pages holding a block that is laid out only when it nears the screen (course.css: exercises), or a chart
SKIPPING_PAGES = tuple(p for p in LESSON_PAGES if p in {*CHART_PAGES, *EXERCISE_PAGES})


@pytest.mark.parametrize("lang", LANGS)
def test_in_page_link_lands_on_its_heading(context, base_url, lang):
    page = CHART_PAGES[0]
    p = open_page(context, base_url, lang, page)
    target = p.evaluate("[...document.querySelectorAll('article h2[id]')].at(-2).id")  # far down the page
    p.goto(page_url(base_url, lang, page) + "#" + target)
    p.wait_for_timeout(500)
    top = p.evaluate(f"document.getElementById({target!r}).getBoundingClientRect().top")
    assert 0 <= top < 200, f"{lang}/{page}#{target}: the heading is at {top:.0f} px, not at the top"
    p.close()


@pytest.mark.parametrize("lang", LANGS)
def test_heavy_heatmap_is_a_canvas_on_screen_and_svg_on_paper(browser, base_url, lang):
    page = page_with_chart(HEAVY)
    for media, drawing in (("screen", "canvas"), ("print", "svg")):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        p = ctx.new_page()
        p.emulate_media(media=media)
        p.goto(page_url(base_url, lang, page), wait_until="load")
        p.wait_for_function(ALL_CHARTS_RENDERED, timeout=60000)
        assert p.locator(f"#chart-{HEAVY} {drawing}.marks").count() == 1, f"{lang} {media}: not a {drawing}"
        assert p.locator(f"#chart-{HEAVY} .marks").get_attribute("aria-hidden") == "true"
        others = p.evaluate(f"[...document.querySelectorAll('.chart-view:not([data-chart={HEAVY}]) .marks')]"
                            ".map(e => e.tagName.toLowerCase())")
        assert set(others) <= {"svg"}, f"{lang} {media}: the other charts should stay SVG"
        ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_only_the_heavy_heatmap_asks_for_a_canvas(context, base_url, lang):
    """The other charts stay SVG on screen (their text is read, searched and measured): every chart of
    every other chart page (the heavy chart's page now holds it alone)."""
    heavy, drawn = page_with_chart(HEAVY), 0
    for page in CHART_PAGES:
        if page == heavy:
            continue
        p = open_page(context, base_url, lang, page)
        marks = p.evaluate("[...document.querySelectorAll('.chart-view .marks')].map(e => e.tagName.toLowerCase())")
        assert marks and set(marks) == {"svg"}, f"{lang}/{page}: {marks}: the other charts should stay SVG"
        drawn += len(marks)
        p.close()
    assert drawn, f"{lang}: no other chart page"


@pytest.fixture(scope="module")
def phone_without_scripts(browser):
    """A phone that runs no script, for the module: each test's tab is closed into the next (conftest.reused_tab)."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False, is_mobile=True)
    yield ctx
    ctx.close()


@pytest.fixture(scope="module")
def lighthouse_phone(browser):
    """Lighthouse's phone screen, for the module (tabs reused as above)."""
    ctx = browser.new_context(viewport={"width": 412, "height": 823})
    yield ctx
    ctx.close()


@pytest.mark.parametrize("lang", RTL)
@pytest.mark.parametrize("page", pages())
def test_rtl_page_is_no_wider_than_a_phone_before_scripts(phone_without_scripts, base_url, lang, page):
    """Material's closed language menu reached past the left edge: the page was wider than the phone
    until Material's script ran, then everything shifted (Lighthouse: layout shift)."""
    p = reused_tab(phone_without_scripts)
    p.goto(page_url(base_url, lang, page), wait_until="load")
    width = p.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1] == 390, f"{lang}/{page}: {width[0]} px wide at 390 px without scripts"
    fonts = p.evaluate("[...document.querySelectorAll('link[rel=preload][as=font]')].map(l => l.href)")
    assert fonts and all(f.endswith(".woff2") for f in fonts), f"{lang}/{page}: its fonts are not preloaded"
    p.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", SKIPPING_PAGES)
def test_nothing_in_the_lesson_sits_on_the_footer_before_scrolling(lighthouse_phone, base_url, lang, page):
    """A skipped block keeps a rough placeholder height; its content may run past it into the next block,
    but never onto the footer (Lighthouse's contrast audit read the footer's dark colour behind a summary
    of the last block). Checked on a phone, as Lighthouse's mobile run sees the page, without scrolling."""
    p = reused_tab(lighthouse_phone)
    p.goto(page_url(base_url, lang, page))
    p.wait_for_load_state("load")
    over = p.evaluate("""() => {
      const top = document.querySelector('footer').getBoundingClientRect().top;
      return [...document.querySelectorAll('article :is(p, li, summary, figure, table, h2, h3)')]
        .filter(e => e.checkVisibility() && e.getBoundingClientRect().bottom > top + 1)  // not inside a closed <details>
        .map(e => e.tagName + ' ' + e.textContent.trim().slice(0, 40));
    }""")
    assert not over, f"{lang}/{page}: on the footer: {over[:5]}"
    p.close()


def test_code_blocks_are_focusable_before_material_sets_them_up(site_dir):
    """Material sets a code block up (copy button, tabindex on a scrolling one) when it nears the screen
    (`content.lazy`): the block is focusable from the start (course_build/markup.py), so a keyboard reader can
    reach one that scrolls before it was set up."""
    found = 0
    for lang in LANGS:
        for page in course.pages():
            html = (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")
            codes = re.findall(r'<div class="language-[\w-]+ highlight"><pre>(?:<span></span>)?(<code[^>]*>)', html)
            assert all('tabindex="0"' in c for c in codes), f"{lang}/{page}: {codes}"
            found += len(codes)
    assert found, "no code block found: the pattern no longer matches the highlighted markup"


def test_no_script_holds_back_the_first_paint(site_dir):
    """Every script a page loads is deferred (overrides/main.html, course_build/exercises.py): the text is drawn
    before any script arrives, and Material's bundle runs once the page is parsed."""
    for lang in LANGS:
        for page in course.pages():
            html = (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")
            tags = re.findall(r"<script\b[^>]*\bsrc=[^>]*>", html)
            assert tags, f"{lang}/{page}: no script found"
            blocking = [t for t in tags if not re.search(r"\s(defer|async)[\s>=]", t)]
            assert not blocking, f"{lang}/{page}: parser-blocking scripts {blocking}"


@pytest.mark.parametrize("lang", LANGS)
def test_fonts_of_a_formula_near_the_first_screen_are_preloaded_and_used(context, base_url, offline_copy, lang):
    """course_build/katex.py: a lesson whose first formula is near the top asks for the math font with the
    stylesheets; the browser uses it (a preload nobody uses only costs bandwidth); a page without a
    formula and the offline copy (file://, where a font preload is refused) ask for none."""
    page = CHART_PAGES[0]
    p = open_page(context, base_url, lang, page)
    preloaded = p.evaluate("[...document.querySelectorAll('link[rel=preload][as=font]')].map(l => l.href)"
                           ".filter(h => h.includes('/math/'))")
    assert [h.rsplit("/", 1)[1] for h in preloaded] == ["STIXTwoMath-Regular.woff2"], preloaded
    used = p.evaluate("""async () => { await document.fonts.ready;
        return [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family); }""")
    assert "STIX Two Math" in used, f"{lang}/{page}: preloaded but not used: {used}"
    assert not p.errors, p.errors
    p.close()
    offline_page = offline_copy / f"{course.language(lang).prefix}{page}.html"  # plain .html files (conftest.local_url)
    head = offline_page.read_text(encoding="utf-8").split("</head>")[0]
    assert "vendor/math/" not in head, f"offline {lang}/{page}: a font preload from file:// is refused"
    p = open_page(context, base_url, lang, "glossary")
    assert p.evaluate("document.querySelectorAll('link[rel=preload][href*=\"/math/\"]').length") == 0
    assert p.locator(".katex").count() == 0, "the glossary now has a formula: pick another page without one"
    p.close()


def test_the_math_font_draws_every_formula_character(site_dir):
    """course_build/katex.py cuts the math font to what the formulas show: every character of every built page's
    formulas (the TeX annotation left out) and the italic form a browser draws for each one-letter identifier
    (MathML's math-auto) are in the served font, or are characters it never had (Persian digits: the page font)."""
    import html as html_
    import io
    from fontTools.ttLib import TTFont
    from course_build import katex
    served = set(TTFont(io.BytesIO((site_dir / katex.SITE_FONT).read_bytes())).getBestCmap())
    pinned = set(TTFont(str(katex.FONT)).getBestCmap())
    missing = {}
    for page in site_dir.rglob("*.html"):
        for m in re.finditer(r"<math\b.*?</math>", page.read_text(encoding="utf-8"), re.S):
            formula = html_.unescape(katex.ANNOTATION.sub("", m.group(0)))
            wanted = {ord(c) for c in katex.TAG.sub("", formula)} | katex.italic_forms(formula)
            for c in (wanted & pinned) - served:
                missing.setdefault(chr(c), page.relative_to(site_dir).as_posix())
    assert not missing, f"the served math font lacks {missing}"
    assert len(served) < 0.8 * len(pinned) or len(pinned) < 300, "the math font is no longer cut"


# an exercise three screens or more below the top (Chromium starts laying out a skipped block a screen and a half
# from the viewport, plus its clip margin)
FAR = "e => e.getBoundingClientRect().top > 3 * innerHeight"
LAID_OUT = "id => document.getElementById(id).firstElementChild.checkVisibility({contentVisibilityAuto: true})"
# a point inside the focused number's tooltip, in its bottom padding near its far end (no glyph there), on screen;
# the tooltip's box is read from its computed size, below the number, pulled back from the screen's edge
# (course.css a.src::after, assets/js/source-notes.js)
TIP_POINT = """a => {
  const r = a.getBoundingClientRect(), t = getComputedStyle(a, '::after');
  if (t.content === 'none') return null;
  const w = parseFloat(t.width), h = parseFloat(t.height), rtl = getComputedStyle(a).direction === 'rtl';
  const pull = parseFloat(getComputedStyle(a).getPropertyValue('--src-tip-pull')) || 0;  // source-notes.js
  const left = rtl ? r.right + pull - w : r.left - pull, right = left + w;
  const x = rtl ? Math.max(left + 10, 10) : Math.min(right - 10, innerWidth - 10);
  const box = a.closest('.exercise').getBoundingClientRect();
  return {x: Math.round(x), y: Math.round(r.bottom + h - 2), colour: t.backgroundColor, below_the_box: r.bottom + h - box.bottom};
}"""


def pixel(p, x: int, y: int) -> tuple[int, int, int]:
    from io import BytesIO
    from PIL import Image
    return Image.open(BytesIO(p.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1}))).convert("RGB").getpixel((0, 0))


@pytest.mark.parametrize("lang", LANGS)
def test_exercises_far_down_wait_to_be_laid_out_and_clip_no_tooltip(browser, base_url, lang):
    """On a phone an exercise three screens down is not laid out at load (course.css, content-visibility;
    Lighthouse's blocking time on the longest pages), it is once the reader scrolls to it, and the tooltip of its
    last number (its solution and hint opened), running past the exercise's bottom, is drawn there: neither clipped
    by the exercise (paint containment) nor covered by what follows it."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    spilled = 0
    for page in EXERCISE_PAGES:
        p = open_page(ctx, base_url, lang, page, charts=False)
        p.evaluate(NEXT_FRAME)
        p.evaluate(NEXT_FRAME)   # the browser decides what is near the screen as it draws a frame
        far = p.evaluate(f"[...document.querySelectorAll('.md-typeset > .exercise')].filter({FAR}).map(e => e.id)")
        laid_out = [i for i in far if p.evaluate(LAID_OUT, i)]
        assert not laid_out, f"{lang}/{page}: laid out at load, three screens down: {laid_out}"
        for i in far:
            ex = p.locator(f"#{i}")
            ex.scroll_into_view_if_needed()
            p.wait_for_function(LAID_OUT, arg=i, timeout=5000)
            solution = ex.locator("details.exercise-solution")
            if solution.count():
                solution.locator("summary").focus()   # from the keyboard: the number's focus below is then visible
                p.keyboard.press("Enter")             # its body loads as it opens
                p.wait_for_function("id => !document.querySelector(`#${id} details.exercise-solution > "
                                    ".exercise-solution-elsewhere`)", arg=i, timeout=10000)   # its body came
            ex.evaluate("e => e.querySelectorAll('.exercise-hint').forEach(h => h.hidden = false)")
            if not ex.locator("a.src:visible").count():
                continue
            number = ex.locator("a.src:visible").last
            number.evaluate("e => e.scrollIntoView({block: 'center'})")
            number.focus()
            p.evaluate(NEXT_FRAME)
            tip = number.evaluate(TIP_POINT)
            assert tip, f"{lang}/{page}: #{i}: the focused number shows no tooltip"
            want = tuple(int(float(v)) for v in re.findall(r"[\d.]+", tip["colour"])[:3])
            got = pixel(p, tip["x"], tip["y"])
            assert max(abs(a - b) for a, b in zip(got, want)) <= 8, \
                f"{lang}/{page}: #{i}: at the tooltip's foot ({tip['x']}, {tip['y']}) the screen shows {got}, not its {want}"
            spilled += tip["below_the_box"] > 0
            break   # one exercise a page
        p.close()
    ctx.close()
    assert spilled, f"{lang}: no far exercise's last tooltip runs past the exercise's bottom: the clip went unchecked"
