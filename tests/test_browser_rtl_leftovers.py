"""Digits, minus signs and Latin names on right-to-left pages, read where the reader sees them (issue 24,
Persian digits and bidi leftovers).

- A chart's controls and readouts write numbers as the page does: a slider's label («log₁₀ n» had a base in
  Latin subscript digits), its readout and every text the chart draws, at the first state and with each slider
  at either end, hold no Latin digit (subscripts included) and no hyphen-minus before a number (the
  language's minus sign, `minus:` in scripts/i18n/<lang>/language.yml).
- A Latin name joined by a hyphen («ViT-B/16») is drawn left to right: cut at the hyphen, a right-to-left
  heading showed «B/16-ViT».
"""
import re

import pytest

from conftest import CHART_PAGES, MODEL_NAMES, open_page, pages
from scripts.common import course

OTHER_DIGITS = [l.code for l in course.languages() if l.numerals != "0123456789"]
RTL = [l.code for l in course.languages() if l.rtl]
# A number in Latin digits (Conv1d is a name), or a logarithm's base in Latin subscript digits («log₁₀ n»:
# a base is a number). An index's subscript (t₁, q₂) names a variable, as the tables' `sub` format writes it.
LATIN = re.compile(r"(?<![A-Za-z0-9])[0-9]+(?![A-Za-z0-9])|log[\u2080-\u2089]+")
HYPHEN_MINUS = re.compile(r"(?<![A-Za-z0-9])-(?=[0-9\u06f0-\u06f9\u0660-\u0669])")

TEXTS = """async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const out = [];
  const read = (fig, state) => {
    const id = (fig.querySelector('.chart-view') || {dataset: {}}).dataset.chart + (state ? ' [' + state + ']' : '');
    // as shown: innerText leaves out what is hidden (Vega's own readout, replaced by ours)
    const texts = [...fig.querySelectorAll('.vega-bind-name, .vega-bind-radio label, output.chart-readout, .vega-bind option')]
      .map(e => e.innerText);
    texts.push(...[...fig.querySelectorAll('.chart-view svg text')].map(t => t.textContent));
    for (const t of texts) if (t.trim()) out.push([id, t.trim()]);
  };
  for (const fig of document.querySelectorAll('figure.chart')) {
    read(fig, '');
    for (const input of fig.querySelectorAll('.vega-bind input[type=range]')) {
      for (const v of [input.min, input.max]) {
        input.value = v;
        input.dispatchEvent(new Event('input', {bubbles: true}));
        input.dispatchEvent(new Event('change', {bubbles: true}));
        await frame(); await new Promise(r => setTimeout(r, 100));
        read(fig, input.name + '=' + v);
      }
    }
  }
  return out;
}"""

# Where the first and the last letter of each hyphen-joined Latin name are drawn, in every heading,
# paragraph, list item, table cell and caption of the article (details opened).
NAMES = r"""() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const out = [];
  const NAME = /[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9\/]+)+/g;
  for (const el of document.querySelectorAll('article h1, article h2, article h3, article p, article li, article td, article th, article figcaption')) {
    if (!el.getClientRects().length || el.closest('code, pre, .math')) continue;
    const nodes = [], walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let text = '';
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement.closest('code, pre, .math, a.headerlink')) continue;
      nodes.push([n, text.length]); text += n.textContent;
    }
    const charBox = i => {
      let k = nodes.length - 1; while (k > 0 && nodes[k][1] > i) k--;
      const [n, at] = nodes[k], r = document.createRange();
      r.setStart(n, i - at); r.setEnd(n, i - at + 1);
      const b = r.getBoundingClientRect(); return {x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2, h: b.height};
    };
    for (const m of text.matchAll(NAME)) {
      const first = charBox(m.index), last = charBox(m.index + m[0].length - 1);
      if (!first.h || !last.h || Math.abs(first.y - last.y) > first.h / 2) continue;   // wrapped: not comparable
      out.push({name: m[0], ltr: first.x < last.x});
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", OTHER_DIGITS)
@pytest.mark.parametrize("page", CHART_PAGES)
def test_chart_controls_and_readouts_write_the_page_numbers(context, base_url, lang, page):
    p = open_page(context, base_url, lang, page)
    texts = p.evaluate(TEXTS)
    p.close()
    latin = sorted({f"{chart}: «{t}»" for chart, t in texts if LATIN.search(MODEL_NAMES.sub(" ", t))})
    minus = sorted({f"{chart}: «{t}»" for chart, t in texts if HYPHEN_MINUS.search(t)})
    assert texts, f"{lang}/{page}: no chart text read"
    assert not latin, f"{lang}/{page}: Latin digits in a chart's controls or text: {latin[:8]}"
    assert not minus, f"{lang}/{page}: a hyphen-minus for a negative number (use the language's minus): {minus[:8]}"


@pytest.mark.parametrize("lang", RTL)
@pytest.mark.parametrize("page", pages())
def test_hyphenated_latin_names_read_left_to_right(context, base_url, lang, page):
    p = open_page(context, base_url, lang, page, charts=False)  # the text's names: headings, paragraphs, tables
    names = p.evaluate(NAMES)
    p.close()
    wrong = sorted({n["name"] for n in names if not n["ltr"]})
    assert not wrong, f"{lang}/{page}: drawn right to left (its pieces swapped): {wrong}"
