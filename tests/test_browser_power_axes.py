"""Log axes as a reader sees them (issue 25), both languages, on a desktop and a phone: every label of an
axis on a logarithmic scale lies inside its chart and over no other, a power of ten is ONE text (its
exponent drawn as a second text floated loose: «10  12» on the frame, «10 6» past the axis end), and a page
whose digits are not Latin shows no Latin digit (superscripts included) in those labels. The charts with
a log scale are found in their generated Vega specs, so a new one is checked too."""
import json
import math

import pytest

from conftest import LANGS, ROOT, open_page, page_with_chart
from scripts.common import course

LATIN = "0123456789⁰¹²³⁴⁵⁶⁷⁸⁹"
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"


def log_scales(spec) -> set[str]:
    """Names of the spec's log scales, in any group."""
    out = set()
    if isinstance(spec, dict):
        out |= {s["name"] for s in spec.get("scales") or [] if s.get("type") == "log"}
        for value in spec.values():
            out |= log_scales(value)
    elif isinstance(spec, list):
        for value in spec:
            out |= log_scales(value)
    return out


def _charts() -> dict[str, set[str]]:
    lang = course.default_language().code
    out = {}
    for f in sorted((ROOT / "generated" / "charts" / lang).glob("*.vg.json")):
        names = log_scales(json.loads(f.read_text(encoding="utf-8")))
        if names:
            out[f.name.removesuffix(".vg.json")] = names
    return out


LOG_CHARTS = _charts()

# Each label of an axis on one of the given scales: its text, tick value, scale, orient and screen box,
# and the chart's box (Vega's SVG renderer keeps each item's element as item._svg).
LABELS = """([id, scales]) => {
  const fig = document.querySelector('#chart-' + id);
  const view = window.courseCharts.views.get(fig.querySelector('.chart-view')).view;
  const svg = fig.querySelector('svg.marks'), box = svg.getBoundingClientRect(), out = [];
  const walk = (node, axis) => {
    if (!node || !node.items) return;
    if (node.role === 'axis') axis = node.items[0] && node.items[0].datum;
    if (node.role === 'axis-label' && axis && scales.includes(axis.scale))
      for (const it of node.items) {
        const el = it._svg, r = el && el.getBoundingClientRect();
        const shown = el && el.textContent.trim() && (it.opacity ?? 1) > 0 && getComputedStyle(el).visibility !== 'hidden';
        if (shown) out.push({text: el.textContent, value: it.datum.value, scale: axis.scale, orient: axis.orient,
                             box: [r.left, r.top, r.right, r.bottom]});
      }
    node.items.forEach(it => walk(it, axis));
  };
  walk(view.scenegraph().root, null);
  return {labels: out, chart: [box.left, box.top, box.right, box.bottom]};
}"""


def _digits(text: str, lang) -> str:
    """The text's digits as Latin ones (the page's numerals and superscripts read as digits)."""
    table = str.maketrans(lang.numerals + SUPERSCRIPTS, "0123456789" * 2)
    return "".join(ch for ch in text.translate(table) if ch.isdigit())


def faults(found: dict, lang) -> list[str]:
    out, labels = [], found["labels"]
    left, top, right, bottom = found["chart"]
    for x in labels:
        l, t, r, b = x["box"]
        if l < left - 0.5 or r > right + 0.5 or t < top - 0.5 or b > bottom + 0.5:
            out.append(f"«{x['text']}» outside the chart: {[round(v - o) for v, o in zip(x['box'], found['chart'])]}")
        if lang.numerals != "0123456789" and any(ch in LATIN for ch in x["text"]):
            out.append(f"«{x['text']}» has a Latin digit")
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            w = min(a["box"][2], b["box"][2]) - max(a["box"][0], b["box"][0])
            h = min(a["box"][3], b["box"][3]) - max(a["box"][1], b["box"][1])
            if w > 0.5 and h > 0.5:
                out.append(f"«{a['text']}» × «{b['text']}» overlap by {w:.0f}×{h:.0f} px")
    at = {}
    for x in labels:
        at.setdefault((x["scale"], x["orient"], x["value"]), []).append(x["text"])
    for (scale, orient, value), texts in at.items():
        if len(texts) > 1:
            out.append(f"{scale} at {value:g}: {len(texts)} texts {texts} for one tick")
        k = math.log10(value) if value > 0 else 0.5
        if abs(k - round(k)) < 1e-9 and len(texts) == 1:
            digits, k = _digits(texts[0], lang), round(k)
            plain = str(round(value)) if k >= 0 else None
            if digits != plain and not (digits.startswith("10") and digits[2:] == str(abs(k))):
                out.append(f"{scale} at {value:g}: «{texts[0]}» does not write 10 to the {k} in one text")
    return out


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chart", sorted(LOG_CHARTS))
def test_log_axis_labels_one_text_inside_and_apart(sized, base_url, chart, lang, width):
    p = open_page(sized(width), base_url, lang, page_with_chart(chart))
    try:
        p.locator(f"#chart-{chart}").scroll_into_view_if_needed()
        found = p.evaluate(LABELS, [chart, sorted(LOG_CHARTS[chart])])
    finally:
        p.close()
    assert found["labels"], f"{lang}/{chart}: no label on its log axes"
    bad = faults(found, course.language(lang))
    assert not bad, f"{lang}/{chart} at {width} px: {bad[:8]}"


def test_charts_with_a_power_axis_are_found():
    """The two charts issue 25 names are among those checked."""
    assert {"ca_perceiver", "sa_permutation"} <= set(LOG_CHARTS)
