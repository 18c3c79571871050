"""The learned-alignment chart keeps its height whichever sentence is picked (issue 25: switching sentences
changed the chart's height and the page jumped). Every option of its list, both languages, desktop and
phone: the chart's drawing and the place of the element after the figure stay within a pixel."""
import pytest

from conftest import LANGS, NEXT_FRAME, open_page, page_with_chart

CHART = "ca_learned_alignment"
# For each option of the chart's list, in order, then the first again: the drawing's height and the top of
# the element after the figure, measured from the top of the document.
HEIGHTS = f"""async (id) => {{
  const frame = {NEXT_FRAME};
  const fig = document.querySelector('#chart-' + id), select = fig.querySelector('.vega-bind select');
  const after = fig.closest('figure').nextElementSibling, out = [];
  const measure = (name) => {{
    const svg = fig.querySelector('svg.marks');
    out.push({{option: name, height: svg.getBoundingClientRect().height,
               below: after.getBoundingClientRect().top + window.scrollY}});
  }};
  measure(select.value);
  for (const value of [...[...select.options].map(o => o.value), select.value]) {{
    select.value = value; select.dispatchEvent(new Event('change', {{bubbles: true}}));
    await frame(); await frame(); await new Promise(r => setTimeout(r, 300)); await frame();
    measure(value);
  }}
  return out;
}}"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
def test_alignment_height_stable_across_sentences(sized, base_url, lang, width):
    p = open_page(sized(width), base_url, lang, page_with_chart(CHART))
    try:
        p.locator(f"#chart-{CHART}").scroll_into_view_if_needed()
        seen = p.evaluate(HEIGHTS, CHART)
    finally:
        p.close()
    assert len(seen) > 2, f"{lang}: the chart's list offers no sentence to switch to"
    first = seen[0]
    moved = [f"{s['option']}: height {s['height']:.0f} (first {first['height']:.0f}), "
             f"next element at {s['below']:.0f} (first {first['below']:.0f})" for s in seen
             if abs(s["height"] - first["height"]) > 1 or abs(s["below"] - first["below"]) > 1]
    assert not moved, f"{lang} at {width} px: the chart's height moves with the sentence: {moved}"


# After the window changes size (a phone turned, a window dragged) and comes back, the chart is as tall as
# it was and every text still lies inside its drawing: the lines under the matrix wrap at the new width,
# and the view was laid out before they did, cutting the last line off (seen on a phone's last sentence).
AFTER_RESIZE = f"""async ([id, phase]) => {{
  const frame = {NEXT_FRAME};
  const fig = document.querySelector('#chart-' + id), svg = () => fig.querySelector('svg.marks');
  if (phase === 'pick') {{
    const select = fig.querySelector('.vega-bind select');
    select.value = select.options[select.options.length - 1].value;
    select.dispatchEvent(new Event('change', {{bubbles: true}}));
  }}
  await frame(); await frame(); await new Promise(r => setTimeout(r, 400)); await frame();
  const box = svg().getBoundingClientRect();
  const out = [...svg().querySelectorAll('text')].filter(t => t.textContent.trim())
    .map(t => [t.textContent, t.getBoundingClientRect()]).filter(([, r]) => r.bottom > box.bottom + 1 || r.top < box.top - 1)
    .map(([s, r]) => `«${{s}}» outside the drawing: from ${{Math.round(r.top - box.top)}} to ${{Math.round(r.bottom - box.top)}} px of ${{Math.round(box.height)}}`);
  return {{height: box.height, outside: out}};
}}"""


@pytest.mark.parametrize("lang", LANGS)
def test_alignment_keeps_its_height_after_a_resize(browser, base_url, lang):
    ctx = browser.new_context(viewport={"width": 390, "height": 900})
    try:
        p = open_page(ctx, base_url, lang, page_with_chart(CHART))
        p.locator(f"#chart-{CHART}").scroll_into_view_if_needed()
        before = p.evaluate(AFTER_RESIZE, [CHART, "pick"])
        p.set_viewport_size({"width": 430, "height": 900})
        p.evaluate(AFTER_RESIZE, [CHART, ""])
        p.set_viewport_size({"width": 390, "height": 900})
        after = p.evaluate(AFTER_RESIZE, [CHART, ""])
    finally:
        ctx.close()
    assert not before["outside"], f"{lang}: {before['outside']}"
    assert abs(after["height"] - before["height"]) <= 1 and not after["outside"], \
        f"{lang}: height {before['height']:.0f} before a resize, {after['height']:.0f} after; {after['outside']}"
