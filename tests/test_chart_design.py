"""Charts designed with the text (issue 12, defect 6): every chart text mark is at least 12 px and
keeps 4.5:1 contrast against what is behind it (a cell it sits on, or the page) in light and dark;
the plot frame is not near-white in dark."""
import pytest

from conftest import CHART_PAGES, LANGS, open_page, palette_context, SVG_CHART_PAGES

SCHEMES = ("default", "slate")

# For each visible text of each chart: its fill, font size and the colour under its centre
# (the topmost filled rect/background drawn before it in the same SVG, else the page).
MEASURE = """() => {
  const rgb = s => { const m = s.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, a, bottom) => top.slice(0, 3).map((c, i) => c * a + bottom[i] * (1 - a));
  const page = rgb(getComputedStyle(document.querySelector('.md-main')).backgroundColor)[3] === 0
    ? rgb(getComputedStyle(document.body).backgroundColor) : rgb(getComputedStyle(document.querySelector('.md-main')).backgroundColor);
  const out = [];
  for (const view of document.querySelectorAll('.chart-view')) {
    const svg = view.querySelector('svg.marks'); if (!svg) continue;
    const fills = [...svg.querySelectorAll('.mark-rect path, path.background, .mark-arc path')];
    for (const t of svg.querySelectorAll('text')) {
      const s = getComputedStyle(t), r = t.getBoundingClientRect();
      if (!t.textContent.trim() || r.width === 0 || s.visibility === 'hidden' || s.display === 'none') continue;
      let op = 1; for (let e = t; e && e !== svg; e = e.parentElement) op *= +(getComputedStyle(e).opacity || 1);
      op *= +(s.fillOpacity || 1);
      if (op < 0.05) continue;  // faded out on purpose (a hover state)
      const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      let bg = page.slice(0, 3);
      for (const f of fills) {
        if (!(t.compareDocumentPosition(f) & Node.DOCUMENT_POSITION_PRECEDING)) continue;
        const b = f.getBoundingClientRect(), fs = getComputedStyle(f);
        if (cx < b.left || cx > b.right || cy < b.top || cy > b.bottom) continue;
        const c = rgb(fs.fill); if (!c) continue;
        const a = c[3] * +(fs.fillOpacity || 1) * +(fs.opacity || 1); if (a < 0.05) continue;
        bg = over(c, a, bg);
      }
      const fill = rgb(s.fill); if (!fill) continue;
      out.push({chart: view.dataset.chart, text: t.textContent.trim().slice(0, 30), size: parseFloat(s.fontSize),
                fg: over(fill, fill[3] * op, bg), bg: bg});
    }
  }
  return out;
}"""


def luminance(c):
    ch = [(v / 255) / 12.92 if v / 255 <= 0.03928 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


FRAME_STROKES = """() => [...document.querySelectorAll('.chart-view svg.marks path.background')]
    .map(e => getComputedStyle(e).stroke).filter(s => s && s !== 'none' && !/rgba\\(.*, 0\\)$/.test(s))"""


@pytest.fixture(scope="module")
def measured(browser, base_url):
    """What the tests here read of a chart page (its SVG chart texts, its canvas chart texts, its plot frames),
    read once per language, page and scheme from the page as it loads in that scheme (the reader's stored
    choice; the switch between them is test_controls' and test_browser_desktop's), its tab then reused for the next."""
    contexts = {scheme: palette_context(browser, base_url, scheme) for scheme in SCHEMES}
    read = {}

    def get(lang, page, scheme):
        if (lang, page, scheme) not in read:
            p = open_page(contexts[scheme], base_url, lang, page)
            assert p.evaluate("document.body.dataset.mdColorScheme") == scheme
            read[lang, page, scheme] = {"svg": p.evaluate(MEASURE), "canvas": p.evaluate(CANVAS_TEXT),
                                        "frames": p.evaluate(FRAME_STROKES)}
            p.close()
        return read[lang, page, scheme]
    yield get
    for ctx in contexts.values():
        ctx.close()


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", SVG_CHART_PAGES)  # SVG text; canvas text: test_canvas_chart_text_is_painted_in_the_page_colours
def test_chart_text_contrast_and_size(measured, lang, page, scheme):
    texts = measured(lang, page, scheme)["svg"]
    assert texts, f"{lang}/{page}: no chart text measured"
    low = sorted({(t["chart"], t["text"], round(contrast(t["fg"], t["bg"]), 2),
                   tuple(round(x) for x in t["fg"]), tuple(round(x) for x in t["bg"]))
                  for t in texts if contrast(t["fg"], t["bg"]) < 4.5})
    assert not low, f"{lang}/{page} ({scheme}): chart text below 4.5:1: " + "; ".join(map(str, low[:12]))
    small = sorted({(t["chart"], t["text"], t["size"]) for t in texts if t["size"] < 12})
    assert not small, f"{lang}/{page} ({scheme}): chart text under 12 px: " + "; ".join(map(str, small[:12]))


@pytest.mark.parametrize("lang", LANGS)
def test_dark_plot_frame_is_not_near_white(measured, lang):
    strokes = measured(lang, CHART_PAGES[0], "slate")["frames"]
    import re
    for s in strokes:
        r, g, b = map(int, re.findall(r"\d+", s)[:3])
        assert min(r, g, b) < 200, f"{lang}: a near-white plot frame ({s}) in dark mode"


def test_fixed_mark_colours_keep_3_to_1_on_both_schemes():
    """Marks drawn in one colour in both schemes (no palette swap) stay visible on white and on slate."""
    from scripts.charts._palette import BACKGROUNDS, BOTH

    def lum(h):
        c = [int(h[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    for name, colour in BOTH.items():
        for bg in BACKGROUNDS:
            a, b = lum(colour), lum(bg)
            assert (max(a, b) + 0.05) / (min(a, b) + 0.05) >= 3, f"{name} {colour} on {bg}"


# A canvas-drawn chart's text as the canvas paints it: it has no CSS, so "currentColor" (and no fill)
# comes out black (Vega's canvas renderer), whatever the page's palette.
CANVAS_TEXT = """() => {
  const out = [], probe = document.createElement('span');
  document.body.appendChild(probe);
  const rgb = c => { probe.style.color = ''; probe.style.color = c; return getComputedStyle(probe).color; };
  const page = getComputedStyle(document.body).backgroundColor;
  for (const [el, res] of window.courseCharts.views) {
    if (!el.querySelector('canvas.marks')) continue;
    const walk = node => {
      if (node.marktype === 'text') for (const it of node.items) {
        const text = [].concat(it.text ?? '').join(' ').trim();
        if (!text || it.opacity === 0 || it.fillOpacity === 0) continue;
        out.push({chart: el.dataset.chart, text: text.slice(0, 40), page: page,
                  fill: !it.fill || it.fill === 'currentColor' ? 'rgb(0, 0, 0)' : rgb(it.fill)});
      }
      for (const it of node.items || []) if (it.items) it.items.forEach(walk);
    };
    walk(res.view.scenegraph().root);
  }
  probe.remove();
  return out;
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("lang", LANGS)
def test_canvas_chart_text_is_painted_in_the_page_colours(measured, lang, scheme):
    """Issue 25 (high): on a desktop the patch-attention chart is drawn on a canvas, and its readout lines,
    written in the page's text colour ("currentColor"), came out black on the dark page. Every canvas text
    keeps 4.5:1 against the page (the canvas charts' texts sit on the page, not on cells)."""
    import re

    def colour(s):
        parts = [float(x) for x in re.findall(r"[\d.]+", s)]
        return parts[:3], (parts[3] if len(parts) > 3 else 1)

    texts = [t for page in CHART_PAGES for t in measured(lang, page, scheme)["canvas"]]
    assert texts, f"{lang}: no chart drawn on a canvas (the test would prove nothing)"
    low = []
    for t in texts:
        (fg, alpha), (bg, _) = colour(t["fill"]), colour(t["page"])
        seen = [c * alpha + b * (1 - alpha) for c, b in zip(fg, bg)]
        if contrast(seen, bg) < 4.5:
            low.append((t["chart"], t["text"], t["fill"]))
    assert not low, f"{lang} ({scheme}): canvas text below 4.5:1 on the page: {low[:8]}"
