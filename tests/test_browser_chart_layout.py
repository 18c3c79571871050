"""Crowded charts (issue 25's, and the dense ones of issue 27's chapter), on a phone and a desktop, both
languages: no text over other text or out of its chart, at every control setting (the check of
test_browser_chart_text, run on the section page of each)."""
import pytest

from conftest import LANGS, open_page, page_with_chart
from test_browser_chart_text import TEXT_FAULTS

CHARTS = ("sqrt_scaling", "sa_heads", "ca_learned_alignment", "sc_cache_calculator", "sc_decoding_steps", "sc_traffic",
          "sc_online_softmax_steps")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chart", CHARTS)
def test_chart_text_apart_and_inside(sized, base_url, chart, lang, width):
    p = open_page(sized(width), base_url, lang, page_with_chart(chart))
    try:
        faults = [f for f in p.evaluate(TEXT_FAULTS) if f.startswith(chart + ":") or f.startswith(chart + " [")]
    finally:
        p.close()
    assert not faults, f"{lang}/{chart} at {width} px: {len(faults)} text faults: {faults[:8]}"


# Stricter than the shared check, for the charts issue 25 found crowded: the x axis's labels at least GAP px
# apart, and every mark text and axis label at least GAP px inside the chart's drawing (touching the edge read as cut off).
GAP = 4
CLEARANCE = """([id, gap]) => {
  const svg = document.querySelector('#chart-' + id + ' svg.marks'), box = svg.getBoundingClientRect(), out = [];
  const shown = t => t.textContent.trim() && getComputedStyle(t).opacity !== '0' && t.getAttribute('opacity') !== '0';
  for (const t of [...svg.querySelectorAll('.role-mark text, .role-axis-label text')].filter(shown)) {
    const r = t.getBoundingClientRect();
    if (r.left < box.left + gap || r.right > box.right - gap) out.push(`«${t.textContent}» within ${gap} px of the side`);
  }
  for (const axis of svg.querySelectorAll('.role-axis')) {
    const labels = [...axis.querySelectorAll('.role-axis-label text')].filter(shown).map(t => [t.textContent, t.getBoundingClientRect()]);
    const tops = labels.map(([, r]) => r.top);
    if (labels.length < 2 || Math.max(...tops) - Math.min(...tops) > 3) continue;  // a vertical axis
    labels.sort((a, b) => a[1].left - b[1].left);
    for (let i = 1; i < labels.length; i++)
      if (labels[i][1].left - labels[i - 1][1].right < gap) out.push(`«${labels[i - 1][0]}» «${labels[i][0]}» under ${gap} px apart`);
  }
  return out;
}"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chart", CHARTS)
def test_phone_labels_keep_clear(sized, base_url, chart, lang):
    p = open_page(sized(390), base_url, lang, page_with_chart(chart))
    try:
        faults = p.evaluate(CLEARANCE, [chart, GAP])
    finally:
        p.close()
    assert not faults, f"{lang}/{chart} at 390 px: {faults[:8]}"


# The learned-alignment chart at every sentence of its list: its column headers (word and gloss) stand
# level on a desktop and clear of the cells (the glosses ran into the first row's values).
HEADERS = """async (id) => {
  const fig = document.querySelector('#chart-' + id), select = fig.querySelector('.vega-bind select'), out = [];
  for (const option of [...select.options]) {
    select.value = option.value; select.dispatchEvent(new Event('change', {bubbles: true}));
    await new Promise(r => setTimeout(r, 300));
    const svg = fig.querySelector('svg.marks');
    const cells = [...svg.querySelectorAll('.mark-rect path')].map(e => e.getBoundingClientRect()).filter(b => b.width && b.height);
    const top = Math.min(...cells.map(b => b.top));
    for (const axis of svg.querySelectorAll('.role-axis')) {
      const labels = [...axis.querySelectorAll('.role-axis-label text')];
      for (const t of labels) {
        const b = t.getBoundingClientRect(), rot = t.getAttribute('transform') || '';
        if (/rotate\\((?!0\\))/.test(rot)) out.push(`${option.value}: «${t.textContent}» rotated`);
        if (b.bottom < top + 4 && b.top < top) continue;            // a column header above the cells
        if (b.right > Math.min(...cells.map(c => c.left)) + 1 && b.top < top)
          out.push(`${option.value}: «${t.textContent}» reaches ${Math.round(b.bottom - top)} px into the cells`);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_alignment_headers_level_and_clear_of_cells(sized, base_url, lang):
    p = open_page(sized(1280), base_url, lang, page_with_chart("ca_learned_alignment"))
    try:
        faults = p.evaluate(HEADERS, "ca_learned_alignment")
    finally:
        p.close()
    assert not faults, f"{lang}: {faults[:8]}"
