"""What a chart writes, read in Debian's chromium: digits in the page's own numerals (power-of-ten axes
and readouts included), and, on a phone and a desktop, no text running outside its chart or over other
text, whatever the controls are set to."""
import re

import pytest

from conftest import CHART_PAGES, LANGS, NEXT_FRAME, ROOT, open_page
from scripts.common import course

LATIN = re.compile(r"(?<![A-Za-z0-9])[0-9]+(?![A-Za-z0-9])")   # a number, not part of a name (Conv1d)
TEXTS = """() => [...document.querySelectorAll('figure.chart .chart-view svg text')]
  .map(t => t.textContent).filter(s => s.trim())"""
# Every text mark of every chart, as drawn and again after each control is set to each end (a range) or
# each option: its box (the advance across, the ink up and down, rotated with the label) must lie inside
# the chart's SVG and overlap no other text box by more than SLACK px.
TEXT_FAULTS = """async (controls = true) => {
  const SLACK = 2;
  const faults = [];
  const visible = t => t.textContent.trim() && getComputedStyle(t).opacity !== '0' && t.getAttribute('opacity') !== '0'
     && getComputedStyle(t).visibility !== 'hidden';
  // a text's box as four screen corners (rotated labels stay rotated boxes)
  // the box is the line box trimmed to the ink above and below (a Persian font's line box reaches far
  // beyond its letters); across, the advance
  const pen = document.createElement('canvas').getContext('2d');
  function corners(t) {
    const b = t.getBBox(), m = t.getScreenCTM(), s = getComputedStyle(t);
    pen.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const k = pen.measureText(t.textContent);
    const top = Math.max(0, k.fontBoundingBoxAscent - k.actualBoundingBoxAscent);
    const bottom = Math.max(0, k.fontBoundingBoxDescent - k.actualBoundingBoxDescent);
    const y0 = b.y + top, y1 = Math.max(y0, b.y + b.height - bottom);
    return [[b.x, y0], [b.x + b.width, y0], [b.x + b.width, y1], [b.x, y1]]
      .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
  }
  // how deep two convex boxes overlap: the least overlap over the separating axes (0 when apart)
  function depth(p, q) {
    let least = Infinity;
    for (const poly of [p, q]) for (let i = 0; i < 4; i++) {
      const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % 4];
      let nx = y1 - y2, ny = x2 - x1; const len = Math.hypot(nx, ny); if (!len) continue; nx /= len; ny /= len;
      const proj = s => s.map(([x, y]) => x * nx + y * ny);
      const a = proj(p), b = proj(q);
      const o = Math.min(Math.max(...a), Math.max(...b)) - Math.max(Math.min(...a), Math.min(...b));
      if (o <= 0) return 0;
      least = Math.min(least, o);
    }
    return least;
  }
  function check(view, state) {
    const svg = view.querySelector('svg.marks'); if (!svg) return;
    const box = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].filter(visible).map(t => ({t: t.textContent, c: corners(t)}))
      .filter(x => x.c[0][0] !== x.c[2][0] || x.c[0][1] !== x.c[2][1]);
    const id = view.dataset.chart + (state ? ' [' + state + ']' : '');
    for (const x of texts) {
      const xs = x.c.map(p => p[0]), ys = x.c.map(p => p[1]);
      if (Math.min(...xs) < box.left - SLACK || Math.max(...xs) > box.right + SLACK || Math.min(...ys) < box.top - SLACK || Math.max(...ys) > box.bottom + SLACK)
        faults.push(`${id}: outside «${x.t}» [${Math.round(Math.min(...xs)-box.left)},${Math.round(Math.max(...xs)-box.left)}]x[${Math.round(Math.min(...ys)-box.top)},${Math.round(Math.max(...ys)-box.top)}] of ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const d = depth(texts[i].c, texts[j].c);
      if (d > SLACK) faults.push(`${id}: overlap «${texts[i].t}» × «${texts[j].t}» by ${Math.round(d)}`);
    }
  }
  const frame = NEXT_FRAME_JS, settle = async () => { await frame(); await frame(); await new Promise(r => setTimeout(r, 150)); };
  for (const view of document.querySelectorAll('.chart-view')) {
    check(view, '');
    if (!controls) continue;
    const fig = view.closest('figure') || view;
    for (const input of fig.querySelectorAll('.vega-bind input, .vega-bind select')) {
      let values = [];
      if (input.type === 'range') values = [input.min, input.max];
      else if (input.type === 'radio' || input.type === 'checkbox') values = [input.value];
      else if (input.tagName === 'SELECT') values = [...input.options].map(o => o.value);
      for (const v of values) {
        if (input.type === 'radio' || input.type === 'checkbox') input.click();
        else { input.value = v; input.dispatchEvent(new Event('input', {bubbles: true})); input.dispatchEvent(new Event('change', {bubbles: true})); }
        await settle();
        check(view, input.name + '=' + v);
      }
    }
  }
  return [...new Set(faults)];
}""".replace("NEXT_FRAME_JS", NEXT_FRAME)
OTHER_NUMERALS = [c for c in LANGS if course.language(c).numerals != "0123456789"]


@pytest.mark.parametrize("lang", OTHER_NUMERALS)
@pytest.mark.parametrize("page", course.lessons())
def test_chart_numbers_use_the_page_numerals(context, base_url, lang, page):
    p = open_page(context, base_url, lang, page)
    latin = [s for s in p.evaluate(TEXTS) if LATIN.search(s)]
    p.close()
    assert not latin, f"{lang}/{page}: chart text with Latin digits: {latin[:8]}"


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", course.lessons())
def test_chart_text_stays_inside_its_chart_and_apart(sized, base_url, lang, page, width):
    p = open_page(sized(width), base_url, lang, page)
    try:
        faults = p.evaluate(TEXT_FAULTS)
    finally:
        p.close()
    assert not faults, f"{lang}/{page} at {width} px: {len(faults)} text faults: {faults[:8]}"


def test_the_text_check_sees_text_outside_and_text_on_text(context, base_url):
    """The check above is no blind pass: a label pushed past the chart's edge, and a copy of a label
    drawn over it, are both reported."""
    lang = course.default_language().code
    svg_page = next(pg for pg in CHART_PAGES if any(          # the first page with a chart drawn as SVG
        '"renderer": "canvas"' not in (ROOT / "generated" / "charts" / lang / f"{c}.vg.json").read_text(encoding="utf-8")
        for c in re.findall(r"\{\{\s*chart:\s*([\w-]+)\s*\}\}", course.source(lang, pg).read_text(encoding="utf-8"))))
    p = open_page(context, base_url, lang, svg_page)
    p.evaluate("""() => {
      const svg = document.querySelector('.chart-view svg.marks');
      const t = [...svg.querySelectorAll('text')].find(x => x.textContent.trim().length > 3);
      const copy = t.cloneNode(true); copy.setAttribute('dx', '3'); t.parentNode.appendChild(copy);
      const far = t.cloneNode(true); far.setAttribute('x', String(svg.getBoundingClientRect().width * 3));
      t.parentNode.appendChild(far);
    }""")
    faults = p.evaluate(TEXT_FAULTS, False)
    p.close()
    assert any(": outside " in f for f in faults), faults
    assert any(": overlap " in f for f in faults), faults
