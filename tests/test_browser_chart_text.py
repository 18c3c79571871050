"""What a chart writes, read in Debian's chromium: digits in the page's own numerals (power-of-ten axes
and readouts included), and, on a phone, no chart title or subtitle running outside its chart."""
import re

import pytest

from conftest import LANGS, open_page
from scripts.common import course

LATIN = re.compile(r"(?<![A-Za-z0-9])[0-9]+(?![A-Za-z0-9])")   # a number, not part of a name (Conv1d)
TEXTS = """() => [...document.querySelectorAll('figure.chart .chart-view svg text')]
  .map(t => t.textContent).filter(s => s.trim())"""
OUTSIDE = """() => {
  const out = [];
  document.querySelectorAll('figure.chart .chart-view svg.marks').forEach(svg => {
    const box = svg.getBoundingClientRect();
    svg.querySelectorAll('g.role-title text').forEach(t => {
      if (!t.textContent.trim() || getComputedStyle(t).opacity === '0' || t.getAttribute('opacity') === '0') return;
      const r = t.getBoundingClientRect();
      if (r.width && (r.left < box.left - 1 || r.right > box.right + 1))
        out.push(svg.closest('figure').id + ': ' + t.textContent + ` [${Math.round(r.left - box.left)}, ${Math.round(r.right - box.left)}] of ${Math.round(box.width)}`);
    });
  });
  return out;
}"""
OTHER_NUMERALS = [c for c in LANGS if course.language(c).numerals != "0123456789"]


@pytest.mark.parametrize("lang", OTHER_NUMERALS)
@pytest.mark.parametrize("page", course.lessons())
def test_chart_numbers_use_the_page_numerals(context, base_url, lang, page):
    p = open_page(context, base_url, lang, page)
    latin = [s for s in p.evaluate(TEXTS) if LATIN.search(s)]
    p.close()
    assert not latin, f"{lang}/{page}: chart text with Latin digits: {latin[:8]}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", course.lessons())
def test_chart_titles_stay_inside_their_chart_on_a_phone(browser, base_url, lang, page):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        p = open_page(ctx, base_url, lang, page)
        outside = p.evaluate(OUTSIDE)
    finally:
        ctx.close()
    assert not outside, f"{lang}/{page} at 390 px: {outside[:8]}"
