"""Hovering a chart's marks in Debian's chromium: no tooltip row reads «undefined» or «NaN» (issue 25: the
training chart's nearest-point tooltip read «величина undefined»)."""
import pytest

from conftest import CHART_PAGES, LANGS, open_page
from scripts.common import course

# screen points to hover in a chart: the centres of up to 40 of its drawn marks (SVG), spread over the
# list, and a 12 × 6 grid over the view (canvas charts, and the invisible cells of nearest-point selections)
TARGETS = """(view) => {
  const r = view.getBoundingClientRect(), out = [];
  const marks = [...view.querySelectorAll('svg .role-mark > path, svg .role-mark > rect, svg .role-mark > g')];
  const step = Math.max(1, Math.floor(marks.length / 40));
  for (let i = 0; i < marks.length; i += step) {
    const b = marks[i].getBoundingClientRect();
    if (b.width || b.height) out.push([b.x + b.width / 2, b.y + b.height / 2]);
  }
  for (let i = 1; i <= 12; i++) for (let j = 1; j <= 6; j++) out.push([r.x + r.width * i / 13, r.y + r.height * j / 7]);
  return out;
}"""
TIP = """() => { const t = document.querySelector('#vg-tooltip-element');
  return t && t.classList.contains('visible') ? t.innerText : null; }"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", CHART_PAGES)
def test_no_tooltip_reads_undefined(browser, base_url, lang, page):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    bad, seen = [], 0
    try:
        p = open_page(ctx, base_url, lang, page)
        for view in p.locator(".chart-view").all():
            view.scroll_into_view_if_needed()
            for x, y in view.evaluate(TARGETS):
                p.mouse.move(x, y)
                text = p.evaluate(TIP)
                if text:
                    seen += 1
                    if "undefined" in text or "NaN" in text:
                        bad.append(f"{view.get_attribute('data-chart')}: {' | '.join(text.split())}")
    finally:
        ctx.close()
    assert not bad, f"{lang}/{page}: {len(bad)} tooltips with undefined values: {sorted(set(bad))[:4]}"


def test_the_pages_have_tooltips_to_read(browser, base_url):
    """No blind pass: hovering the training chart shows tooltips at all."""
    page = next(p for p in CHART_PAGES if "sa_training_progress" in course.source(course.default_language().code, p)
                .read_text(encoding="utf-8"))
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        p = open_page(ctx, base_url, course.default_language().code, page)
        view = p.locator("#chart-sa_training_progress .chart-view")
        view.scroll_into_view_if_needed()
        texts = []
        for x, y in view.evaluate(TARGETS):
            p.mouse.move(x, y)
            texts.append(p.evaluate(TIP))
    finally:
        ctx.close()
    assert any(texts), "no tooltip appeared over the training chart"
