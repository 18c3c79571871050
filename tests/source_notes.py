"""A computed number's source note (its tooltip: course.css a.src::after, placed by assets/js/source-notes.js) is
drawn whole on the screen, on keyboard focus and on hover, for the number on a chapter page that stands nearest the
far end of its line (the right in Ukrainian, the left in Persian), where a note hung from the number's start ran
past the screen's edge on a phone (and, on a desktop, past the text column, which clips it). Read from the pixels:
a band through the note, the screen with the note against the screen without it.
The check runs on the pages the phone and the desktop walks open (tests/test_browser_phone.py,
tests/test_browser_desktop.py): `check_note(notes, p, lang, page)` on each page, `assert_placement_was_tested(notes)`
at the end of the walk."""
from io import BytesIO

import pytest

from conftest import LANGS, LESSON_PAGES
from tools.browser import NEXT_FRAME

# The shown number (outside tables, which set their notes apart) nearest the far end of its line, given an id.
FARTHEST = """() => {
  const shown = [...document.querySelectorAll('.md-content a.src')].filter(a => !a.closest('table')
      && a.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true}));
  if (!shown.length) return null;
  const rtl = getComputedStyle(shown[0]).direction === 'rtl';
  const far = a => rtl ? -a.getBoundingClientRect().right : a.getBoundingClientRect().left;
  const a = shown.reduce((best, e) => far(e) > far(best) ? e : best);
  a.id = a.id || 'farthest-number';
  return a.id;
}"""
# A number's box, its note's full width (padding included) and whether a note hung from the number's start would
# pass the text column or the screen.
NOTE = """a => {
  const r = a.getBoundingClientRect(), t = getComputedStyle(a, '::after'), rtl = getComputedStyle(a).direction === 'rtl';
  const width = parseFloat(t.width) + (t.boxSizing === 'border-box' ? 0
      : parseFloat(t.paddingLeft) + parseFloat(t.paddingRight));
  const col = a.closest('.md-content').getBoundingClientRect();
  return {bottom: r.bottom, x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2, width: width,
          would_pass: rtl ? r.right - width < Math.max(col.left, 0) : r.left + width > Math.min(col.right, innerWidth)};
}"""


# Every chart charts.js was asked to draw by the scroll that brought the number here is drawn (the charts near the
# screen, and those it held back until the first scroll): a chart's drawing moves the text under it by the difference
# from its reserved height, which is not the note's doing.
CHARTS_SETTLED = f"""async () => {{
  const frame = {NEXT_FRAME};
  if (!document.querySelector('.chart-view')) return;
  while (!window.courseCharts) await frame();     // charts.js, loaded after the page's own load event
  for (let asked = -1; ;) {{
    await frame(); await frame();   // the scroll's events and the observers' callbacks have run
    const now = await window.courseCharts.settled();
    if (now === asked) return;
    asked = now;
  }}
}}"""


def settle(p):
    p.evaluate(f"async () => {{ const frame = {NEXT_FRAME}; await frame(); await frame(); }}")


def band(p, top: float, width: int):
    """The screen's pixels in a band 6 px high starting 5 px below the number (below its focus ring, inside
    its note), as an image."""
    from PIL import Image
    shot = p.screenshot(clip={"x": 0, "y": round(top) + 5, "width": width, "height": 6})
    return Image.open(BytesIO(shot)).convert("RGB")


def drawn(without, with_):
    """The columns where the note changed the band: (left, right) in CSS px, or None."""
    from PIL import ImageChops
    box = ImageChops.difference(without, with_).getbbox()
    return (box[0], box[2]) if box else None


def farthest_note_stays_whole(p, lang: str, page: str):
    """On an open page: the note of its farthest number drawn whole on the screen, on focus and on hover (asserted).
    Returns whether a note hung from that number's start would have passed the edge (None: the page shows no
    computed number outside tables), for the walk's check that the placement was put to the test at all."""
    width = p.viewport_size["width"]
    ident = p.evaluate(FARTHEST)
    if ident is None:
        return None
    number = p.locator(f"#{ident}")
    number.evaluate("e => e.scrollIntoView({block: 'center'})")
    p.evaluate(CHARTS_SETTLED)
    settle(p)
    bare = None   # the band without a note, once the page stands where the note is read
    for how in ("focus", "hover"):
        at = number.evaluate(NOTE)
        if how == "focus":
            number.focus()
        else:
            p.mouse.move(at["x"], at["y"])
        settle(p)
        note = number.evaluate(NOTE)   # where the number is now (focusing may scroll the page)
        shown = band(p, note["bottom"], width)
        if how == "focus":
            number.evaluate("e => e.blur()")
        else:
            p.mouse.move(1, 1)         # the page's header
        settle(p)
        assert number.evaluate(NOTE)["bottom"] == note["bottom"], f"{lang}/{page}: the page moved as the note went"
        # the hover's note stands where the focus's did (the page did not move): the same bare band serves both
        if bare is None or bare[0] != note["bottom"]:
            bare = note["bottom"], band(p, note["bottom"], width)
        span = drawn(bare[1], shown)
        assert span, f"{lang}/{page}: on {how}, the number {number.inner_text()!r} shows no source note"
        left, right = span
        assert left > 0 and right < width and abs((right - left) - note["width"]) <= 2, \
            f"{lang}/{page}: on {how}, the note of {number.inner_text()!r} is drawn over x = {left}..{right} " \
            f"of the screen's 0..{width}, {right - left} px of its {note['width']:.0f}: not whole on the screen"
    return note["would_pass"]


FAILED = "failed"


def check_note(notes: dict, p, lang: str, page: str) -> None:
    """farthest_note_stays_whole on one page of a walk, its answer kept in `notes` (FAILED until the check passes,
    so that the end-of-walk check points at the page's own failure)."""
    notes[lang, page] = FAILED
    notes[lang, page] = farthest_note_stays_whole(p, lang, page)


def assert_placement_was_tested(notes: dict) -> None:
    """No blind pass: in every language some chapter page shows a computed number, and on some page a note hung
    from its number's start would have passed the edge (the placement was put to the test)."""
    for lang in LANGS:
        seen = {page: v for (lg, page), v in notes.items() if lg == lang}
        if FAILED in seen.values():
            pytest.skip(f"{lang}: a page's source note failed its check (above)")
        assert len(seen) == len(LESSON_PAGES), f"{lang}: run the whole module ({len(seen)} pages read)"
        assert any(v is not None for v in seen.values()), f"{lang}: no chapter page shows a computed number"
        assert any(seen.values()), f"{lang}: no number's note would pass the edge: the placement went unchecked"
