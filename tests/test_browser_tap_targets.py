"""Issue 25: on a touch screen every chart control (radio options, checkboxes, sliders, menus, buttons and
the disclosures of a chart) and every exercise control is at least 44×44 CSS px to a finger, on every chapter
page with a chart or an exercise, in every language."""
import pytest

from conftest import CHART_PAGES, EXERCISE_PAGES, LANGS, LESSON_PAGES, NEXT_FRAME, open_page

PAGES = tuple(p for p in LESSON_PAGES if p in CHART_PAGES or p in EXERCISE_PAGES)
MIN = 44  # CSS px: WCAG 2.5.5 (target size), Apple's and Material's touch guidance

# Every control a finger can use, and the box a tap lands in: a radio button or a checkbox is taken by its
# whole label (tapping its words picks it); anything else by its own box. Each is scrolled to first (a chart's
# controls and an exercise's form are put in the page when they near the viewport: charts.js, exercises.js).
MEASURE = """async (min) => {
  const frame = %s;
  const sel = ['figure.chart .vega-bind input', 'figure.chart .vega-bind select', 'figure.chart .vega-bind button',
               'figure.chart .vega-embed > details > summary', 'figure.chart details.chart-data > summary',
               '.exercise input', '.exercise button', '.exercise select', '.exercise summary'].join(', ');
  const out = [], seen = new Set();
  for (const el of document.querySelectorAll(sel)) {
    if (el.type === 'hidden') continue;
    const target = (el.type === 'radio' || el.type === 'checkbox') ? (el.closest('label') || el) : el;
    if (seen.has(target)) continue;
    seen.add(target);
    target.scrollIntoView({block: 'center'}); await frame(); await frame();
    if (target.closest('[hidden]') || getComputedStyle(target).display === 'none') continue;  // not shown now
    const r = target.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.width < min - 0.5 || r.height < min - 0.5) {
      const where = target.closest('figure.chart, .exercise');
      out.push(`${where ? where.id : '?'} ${target.tagName.toLowerCase()}${el !== target ? '(' + el.type + ')' : el.type ? '[' + el.type + ']' : ''} «${(target.textContent || '').trim().slice(0, 24)}»: ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
    }
  }
  return out;
}""" % NEXT_FRAME


@pytest.fixture(scope="module")
def touch(browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    yield ctx
    ctx.close()


def test_the_touch_viewport_is_coarse(touch, base_url):
    """The CSS of the fix keys on `(pointer: coarse)`: the emulated phone must report it."""
    p = open_page(touch, base_url, LANGS[0], PAGES[0])
    assert p.evaluate("matchMedia('(pointer: coarse)').matches && !matchMedia('(hover: hover)').matches")
    p.close()


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_control_is_big_enough_for_a_finger(touch, base_url, lang, page):
    p = open_page(touch, base_url, lang, page)
    small = p.evaluate(MEASURE, MIN)
    assert not p.errors, p.errors
    p.close()
    assert not small, f"{lang}/{page}: controls smaller than {MIN}×{MIN} px on a touch screen:\n  " + "\n  ".join(small)
