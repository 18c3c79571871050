"""Hovering a chart's marks in Debian's chromium: no tooltip row reads «undefined» or «NaN» (issue 25: the
training chart's nearest-point tooltip read «величина undefined»)."""
import pytest

from conftest import CHART_PAGES, LANGS, open_page
from scripts.common import course

# Every item of a chart that carries a tooltip (item.tooltip, what Vega's hover handler hands the tooltip
# handler: the invisible cells of nearest-point selections and canvas marks included) and that a pointer can
# reach (its bounds have an area: a bar of height 0, e.g. the block chart's naive NaN bars whose NaN is the
# lesson's point and written above them, is never hovered), its text as the page's own tooltip handler
# (vega-tooltip, view.tooltip()) writes it into #vg-tooltip-element. Returns [chart, text] for each text
# holding «undefined» or «NaN», and how many items were read.
EVERY_TOOLTIP = """(view) => {
  const v = window.courseCharts.views.get(view).view, handler = v.tooltip(), bad = [];
  let read = 0;
  const el = () => document.querySelector('#vg-tooltip-element');
  const walk = node => { if (!node || !node.items) return;
    for (const item of node.items) {
      const b = item.bounds;
      if (item.tooltip != null && b && b.x2 > b.x1 && b.y2 > b.y1) {
        handler(null, {clientX: 0, clientY: 0, pageX: 0, pageY: 0}, item, item.tooltip);
        read++;
        const t = el() && el().classList.contains('visible') ? el().innerText : '';
        if (t.includes('undefined') || t.includes('NaN')) bad.push([view.dataset.chart, t]);
      }
      walk(item);
    } };
  walk(v.scenegraph().root);
  handler(null, {clientX: 0, clientY: 0, pageX: 0, pageY: 0}, null, null);   // hidden again
  return [bad, read];
}"""
# Where the mouse finds the marks that carry a tooltip: the screen centres (page coordinates) of PER_CHART
# items of the chart, shared among its marks that carry one and spread over each mark's items: an SVG item's
# own element, a canvas item's bounds offset by the groups holding it, the view's origin and padding (where
# Vega's canvas handler picks). Every item's text is read by EVERY_TOOLTIP; the mouse shows that hovering
# gets those tooltips on screen (a canvas chart redraws on every move, so the mouse samples).
PER_CHART = 12
TARGETS = """(view, perChart) => {
  const v = window.courseCharts.views.get(view).view, out = [], marks = [];
  const drawing = view.querySelector('.marks'), r = drawing.getBoundingClientRect(), o = v.origin(), pad = v.padding();
  const centre = item => {
    if (item._svg) { const b = item._svg.getBoundingClientRect();
                     return b.width || b.height ? [b.x + b.width / 2, b.y + b.height / 2 + scrollY] : null; }
    let x = (item.bounds.x1 + item.bounds.x2) / 2, y = (item.bounds.y1 + item.bounds.y2) / 2;
    for (let g = item.mark.group; g; g = g.mark && g.mark.group) { x += g.x || 0; y += g.y || 0; }
    return [r.x + o[0] + pad.left + x, r.y + o[1] + pad.top + y + scrollY];
  };
  const walk = node => { if (!node || !node.items) return;
    if (node.marktype && node.marktype !== 'group') {
      const tipped = node.items.filter(it => it.tooltip != null);
      if (tipped.length) marks.push(tipped);
    }
    node.items.forEach(walk); };
  walk(v.scenegraph().root);
  const perMark = Math.ceil(perChart / Math.max(1, marks.length));
  for (const tipped of marks) {
    const step = tipped.length / Math.min(perMark, tipped.length);
    for (let i = 0; i < tipped.length; i += step) { const c = centre(tipped[Math.floor(i)]); if (c) out.push(c); }
  }
  return out;
}"""
TIP = """() => { const t = document.querySelector('#vg-tooltip-element');
  return t && t.classList.contains('visible') ? t.innerText : null; }"""
HEADER = 120   # px under the top of the screen kept clear of the sticky header


def hover_marks(p, view):
    """Moves the mouse over the marks of one chart that carry a tooltip; returns the tooltip texts shown."""
    texts = []
    view.scroll_into_view_if_needed()
    height = p.viewport_size["height"]
    top = p.evaluate("scrollY")
    for x, y in view.evaluate(TARGETS, PER_CHART):
        if not top + HEADER <= y <= top + height - 40:   # off screen: brought to mid-screen
            top = p.evaluate("y => { scrollTo(0, y); return scrollY; }", y - height / 2)
        p.mouse.move(x, y - top)
        texts.append(p.evaluate(TIP))
    return texts


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", CHART_PAGES)
def test_no_tooltip_reads_undefined(context, base_url, lang, page):
    """Every tooltip of every chart of the page, as the page's tooltip handler writes it, and the tooltips the
    mouse shows over the marks that carry one (a sample of their items, canvas and Voronoi cells too)."""
    bad = []
    p = open_page(context, base_url, lang, page)
    try:
        for view in p.locator(".chart-view").all():
            chart = view.get_attribute("data-chart")
            for text in hover_marks(p, view):
                if text and ("undefined" in text or "NaN" in text):
                    bad.append(f"{chart} (hovered): {' | '.join(text.split())}")
            wrong, _ = view.evaluate(EVERY_TOOLTIP)
            bad += [f"{c}: {' | '.join(t.split())}" for c, t in wrong]
    finally:
        p.close()
    assert not bad, f"{lang}/{page}: {len(bad)} tooltips with undefined values: {sorted(set(bad))[:4]}"


def test_the_pages_have_tooltips_to_read(context, base_url):
    """No blind pass: hovering the training chart shows tooltips at all, and its tooltips are read."""
    page = next(p for p in CHART_PAGES if "sa_training_progress" in course.source(course.default_language().code, p)
                .read_text(encoding="utf-8"))
    p = open_page(context, base_url, course.default_language().code, page)
    try:
        view = p.locator("#chart-sa_training_progress .chart-view")
        texts = hover_marks(p, view)
        _, read = view.evaluate(EVERY_TOOLTIP)
    finally:
        p.close()
    assert any(texts), "no tooltip appeared over the training chart"
    assert read, "no item of the training chart carries a tooltip"
