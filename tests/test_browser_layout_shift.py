"""Nothing on the first screen jumps when a script fills its part in late (issue 25: Lighthouse's layout shift on a
phone). The text is drawn first and the chart code, the exercises' script and the chart specs arrive after it (here
held back DELAY_MS, so the page is certainly painted before them, as on a slow phone; Chromium paints a page's
first frames ~0.5 s after it starts, and a script held back less came in before them): a chart keeps the room it
will take (course_build/chart_scripts.py room) and shows once drawn whole, and a chapter's progress
box keeps its place, unseen, until it is filled (course.css `.course-js`). Every page with a chart or a progress
box, both languages, at Lighthouse's phone size; the layout shifts the browser reports (PerformanceObserver,
as Lighthouse reads them) sum to under BUDGET (Lighthouse calls under 0.1 good; the language menu's own
~0.002 on every page is in it)."""
import re

import pytest

from conftest import CHART_PAGES, LANGS, LESSONS, page_url
from tools.browser import NEXT_FRAME

PHONE = {"viewport": {"width": 412, "height": 823}, "device_scale_factor": 1.75, "is_mobile": True, "has_touch": True}
DELAY_MS = 1000
BUDGET = 0.01
LATE = re.compile(r"/assets/(vendor/vega/[^/]+\.js|js/exercises\.js|charts/.+\.js)(\?.*)?$")
SHIFTS = """window.__shifts = [];
new PerformanceObserver(list => list.getEntries().forEach(e => {
  if (!e.hadRecentInput) window.__shifts.push({value: e.value, sources: e.sources.map(s => s.node ?
    (s.node.nodeName + "." + (typeof s.node.className === "string" ? s.node.className : "")).slice(0, 60) +
    " " + Math.round(s.previousRect.y) + "→" + Math.round(s.currentRect.y) : "?")});
})).observe({type: "layout-shift", buffered: true});"""
# what the first screen holds is filled in: its charts drawn, the progress box shown
SETTLED = """() => [...document.querySelectorAll('.chart-view')]
    .filter(e => e.getBoundingClientRect().top < innerHeight).every(e => e.dataset.rendered === '1')
  && [...document.querySelectorAll('.chapter-progress')].every(e => !e.hidden)"""


# when the page was first painted, and when the first late script arrived (the test is blind unless before)
TIMES = """() => ({painted: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
  late: Math.min(...performance.getEntriesByType('resource').filter(r => window.__late.test(r.name)).map(r => r.responseEnd))})"""
BATCH = 4  # pages loading at once (the held scripts are most of a page's time here)


@pytest.fixture(scope="module")
def slow_url(site_dir):
    """The site served as tools/serve.py serves it, the LATE scripts each held back DELAY_MS (its server gives each
    request a thread, so pages loading at once wait side by side)."""
    import time
    from tools.serve import Handler, start

    class Slow(Handler):
        def send_head(self):
            if LATE.search(self.path):
                time.sleep(DELAY_MS / 1000)
            return super().send_head()
    # max_age=0: every page asks for its scripts again and gets them late (kept ten minutes, as GitHub Pages lets a
    # browser keep them, the next pages of the context would have them at once and the test would see nothing)
    server, url = start(site_dir, handler_class=Slow, max_age=0)
    yield url
    server.shutdown()


@pytest.mark.parametrize("lang", LANGS)
def test_late_scripts_move_nothing_on_the_first_screen(browser, slow_url, lang):
    ctx = browser.new_context(**PHONE)
    ctx.add_init_script(SHIFTS + f"\nwindow.__late = new RegExp({LATE.pattern!r});")
    moved, blind, filled = [], [], 0
    pages = sorted(set(CHART_PAGES) | set(LESSONS))
    try:
        for at in range(0, len(pages), BATCH):
            opened = []
            for page in pages[at:at + BATCH]:
                p = ctx.new_page()
                p.goto(page_url(slow_url, lang, page), wait_until="commit")
                opened.append((page, p))
            for page, p in opened:
                p.wait_for_function(SETTLED, timeout=30000)
                filled += p.evaluate("""() => [...document.querySelectorAll('.chart-view, .chapter-progress')]
                    .filter(e => e.getBoundingClientRect().top < innerHeight).length""")
                for _ in range(3):
                    p.evaluate(NEXT_FRAME)
                times = p.evaluate(TIMES)
                if not times["painted"] or times["painted"] >= times["late"]:
                    blind.append(f"{lang}/{page}: first painted at {times['painted']} ms, a late script in at {times['late']} ms")
                shifts = p.evaluate("window.__shifts")
                total = sum(s["value"] for s in shifts)
                if total >= BUDGET:
                    moved.append(f"{lang}/{page}: {total:.3f} " + "; ".join(
                        f"{s['value']:.3f} ({', '.join(s['sources'])})" for s in shifts))
                p.close()
    finally:
        ctx.close()
    assert filled, "no page holds a chart or a progress box on its first screen: the test shows nothing"
    assert not blind, "pages not painted before their late scripts came (raise DELAY_MS or lower BATCH):\n" + "\n".join(blind)
    assert not moved, "layout shifts on the first screen while late scripts filled it in:\n" + "\n".join(moved)
