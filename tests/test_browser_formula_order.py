"""Formulas on right-to-left pages as the reader sees them (issue 24, Persian formulas and digits).

Read from the rendered page, not from its source: where each piece of a formula and of the number that
goes with it is drawn. In a right-to-left paragraph a formula and a number written next to it («$L$ = ۳۲»)
are two left-to-right islands the paragraph orders right to left, so a Persian reader saw «۳۲ = L»; a
formula and its number are one left-to-right unit. Digits a formula draws are the page's digits; the
TeX source KaTeX keeps in <annotation> (never drawn; what a copy of the formula as TeX gives) keeps
Latin digits, and the MathML a screen reader reads has the page's digits, as drawn.
Every page of each right-to-left language (from the course model), every formula on it, solutions opened.
"""
import re

import pytest

from conftest import pages, open_page
from scripts.common import course

RTL = [l.code for l in course.languages() if l.rtl]
OTHER_DIGITS = [l.code for l in course.languages() if l.numerals != "0123456789"]

# Every solution opened (they load on demand) and every lesson block laid out (content-visibility).
PREPARE = """async () => {
  const style = document.createElement('style');
  style.textContent = '* { content-visibility: visible !important; }';
  document.head.appendChild(style);
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const t0 = Date.now();
  while (document.querySelector('details.exercise-solution[data-src]') && Date.now() - t0 < 10000)
    await new Promise(r => setTimeout(r, 50));
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return !document.querySelector('details.exercise-solution[data-src]');
}"""

# A formula's drawn pieces (the children of its top row), and the number written with it: a number link
# (a.src) right after the formula, with nothing or only a relation sign between them in the source. Each
# piece as its box; a unit is read in source order and must be drawn left to right on one line.
UNITS = r"""() => {
  const box = el => { const r = el.getBoundingClientRect(); return {l: r.left, r: r.right, t: r.top, b: r.bottom}; };
  const text = n => (n.textContent || '').replace(/\s+/g, ' ').trim();
  const out = [];
  for (const m of document.querySelectorAll('article .math')) {
    const math = m.querySelector('math');
    if (!math || !m.getClientRects().length) continue;
    const sem = math.querySelector('semantics');
    const row = sem && sem.firstElementChild && sem.firstElementChild.localName === 'mrow' ? sem.firstElementChild : (sem || math).firstElementChild;
    const pieces = [...(row && row.localName === 'mrow' ? row.children : [row])].filter(Boolean)
      .filter(c => { const r = c.getBoundingClientRect(); return r.width > 0 && r.height > 0 && text(c).replace(/[\u2061-\u2064]/g, ''); })
      .map(c => ({text: text(c), ...box(c)}));
    const item = {tex: (math.querySelector('annotation') || {}).textContent || '', pieces, number: null, between: ''};
    // what follows the formula in the source, up to the next element
    let n = m.nextSibling, between = '';
    while (n && n.nodeType === Node.TEXT_NODE) { between += n.textContent; n = n.nextSibling; }
    if (n && n.nodeType === Node.ELEMENT_NODE && /^[\s=≈≥≤<>]*$/.test(between)) {
      const num = n.matches('a.src') ? n : (n.children.length === 1 && n.firstElementChild.matches('a.src') ? n.firstElementChild : null);
      if (num) { item.number = {text: text(num), ...box(num)}; item.between = between.trim(); }
    }
    out.push(item);
  }
  return out;
}"""

DRAWN_TEXT = """() => [...document.querySelectorAll('article math')].map(m => {
  const c = m.cloneNode(true); c.querySelectorAll('annotation, annotation-xml').forEach(a => a.remove());
  return {tex: (m.querySelector('annotation') || {}).textContent || '', drawn: c.textContent};
})"""


@pytest.fixture(scope="module")
def read(context, base_url):
    """What each script reads from a page laid out for reading (solutions loaded, every block open), the page
    opened once for the three tests below and without drawing its charts (they read formulas and text)."""
    seen = {}

    def get(lang, page, script):
        if (lang, page) not in seen:
            p = open_page(context, base_url, lang, page, charts=False)
            try:
                assert p.evaluate(PREPARE), f"{lang}/{page}: a solution did not load"
                seen[lang, page] = {s: p.evaluate(s) for s in (UNITS, DRAWN_TEXT, LINK_WORDS)}
            finally:
                p.close()
        return seen[lang, page][script]
    return get


def _same_line(a, b) -> bool:
    return min(a["b"], b["b"]) - max(a["t"], b["t"]) > 0.3 * min(a["b"] - a["t"], b["b"] - b["t"])


@pytest.mark.parametrize("lang", RTL)
@pytest.mark.parametrize("page", pages())
def test_formula_and_its_number_read_left_to_right(read, lang, page):
    units = read(lang, page, UNITS)
    wrong = []
    for u in units:
        pieces = u["pieces"]
        for a, b in zip(pieces, pieces[1:]):
            if _same_line(a, b) and b["l"] < a["l"] - 0.5:
                wrong.append(f"${u['tex']}$: «{b['text']}» drawn left of «{a['text']}», which comes before it")
        num = u["number"]
        if num is None or not pieces:
            continue
        last = pieces[-1]
        shown = f"${u['tex']}$ {u['between']} {num['text']}".replace("  ", " ")
        if not _same_line(last, num):
            wrong.append(f"{shown}: the number is on another line than its formula")
        elif num["l"] < last["r"] - 0.5:
            wrong.append(f"{shown}: drawn as «{num['text']} … {u['tex']}» (the number left of its formula)")
        if u["between"]:
            wrong.append(f"{shown}: «{u['between']}» stands between the formula and its number outside the "
                         "formula (write the number inside it: $x = {{ v: … }}$)")
    assert not wrong, f"{lang}/{page}: {len(wrong)} formulas read out of order:\n" + "\n".join(wrong)


@pytest.mark.parametrize("lang", OTHER_DIGITS)
@pytest.mark.parametrize("page", pages())
def test_formulas_draw_the_pages_digits(read, lang, page):
    maths = read(lang, page, DRAWN_TEXT)
    latin = [f"${m['tex']}$ draws «{m['drawn']}»" for m in maths if re.search(r"[0-9]", m["drawn"])]
    assert not latin, f"{lang}/{page}: Latin digits in {len(latin)} formulas:\n" + "\n".join(latin)


# Words inside a number link (a date «۹ آذر ۱۴۰۵», a spread «… (از … تا …)»): where each word is drawn.
LINK_WORDS = r"""() => {
  const out = [];
  for (const a of document.querySelectorAll('article a.src')) {
    const t = a.textContent;
    // words of the page's script (a letter, not Latin): vectors and numbers are left to right by design
    if (!/[^\P{L}A-Za-z]/u.test(t) || !a.getClientRects().length) continue;
    const walker = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
    const words = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.textContent.matchAll(/\S+/g)) {
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const b = r.getBoundingClientRect();
        if (b.width) words.push({text: m[0], l: b.left, r: b.right, t: b.top, b: b.bottom});
      }
    }
    out.push({text: t.replace(/\s+/g, ' ').trim(), words});
  }
  return out;
}"""


@pytest.mark.parametrize("lang", RTL)
@pytest.mark.parametrize("page", [p for p in pages() if p != "index"])
def test_words_in_a_number_read_in_the_pages_direction(read, lang, page):
    """A value written in words of the page («۹ آذر ۱۴۰۵», measured dates) reads right to left like its
    sentence: each word is drawn left of the one before it."""
    links = read(lang, page, LINK_WORDS)
    wrong = [f"«{l['text']}»: «{b['text']}» drawn right of «{a['text']}», which comes before it"
             for l in links for a, b in zip(l["words"], l["words"][1:])
             if _same_line(a, b) and b["r"] > a["l"] + 0.5]
    assert not wrong, f"{lang}/{page}:\n" + "\n".join(wrong)
