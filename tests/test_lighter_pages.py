"""Lighter pages (issue 12): charts load as the reader scrolls (the page's text comes first, Vega and
a chart's spec arrive when the chart nears the viewport, scrolling alone draws every chart, served and
from disk), and the search index loads when search is opened."""
from contextlib import closing

import pytest

from conftest import CHART_PAGES, LANGS, local_url, NEXT_FRAME, page_url
from scripts.common import course

# drawn without asking charts.js for the rest (tools/browser.py ALL_CHARTS_RENDERED asks)
DRAWN = "[...document.querySelectorAll('.chart-view')].every(e => e.dataset.rendered === '1')"
# The reader reads to the end, one screen at a time, and looks at each screen until its charts are drawn
# (each position is drawn at least once, as a reader's would be: a script that scrolled on between two
# frames would skip a position the page never saw). Returns, for a screen whose charts were not all
# drawn within 15 s, the charts still waiting and their state. Bounded: a frame is awaited 100 ms at
# most (tools/browser.py NEXT_FRAME), a screen is at least 300 px and waited
# on 15 s at most, the whole read 4 minutes.
READ_TO_END = """async () => {
  const frame = NEXT_FRAME_JS;
  const onScreen = e => { const r = e.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
  const begin = performance.now();
  for (let y = 0; y < document.documentElement.scrollHeight; y += Math.max(300, Math.round(innerHeight * 0.8))) {
    if (performance.now() - begin > 240000) return [`read not finished in 4 minutes (at ${y} px)`];
    scrollTo(0, y);
    const start = performance.now();
    for (;;) {
      await frame();
      const waiting = [...document.querySelectorAll('.chart-view')].filter(e => onScreen(e) && e.dataset.rendered !== '1');
      if (!waiting.length) break;
      if (performance.now() - start > 15000 || waiting.some(e => e.dataset.rendered === 'error'))
        return waiting.map(e => `${e.dataset.chart}: ${e.dataset.rendered === undefined ? 'never started' :
          e.dataset.rendered === '' ? 'still rendering' : 'error'} (screen at ${y} px, innerHeight ${innerHeight})`);
    }
  }
  return [];
}""".replace("NEXT_FRAME_JS", NEXT_FRAME)


# 800 ms since the page's load event: what a page loads by itself, before the reader moves, has had time to ask
LOADED_AWHILE = """() => { const n = performance.getEntriesByType('navigation')[0];
  return !!n && n.loadEventEnd > 0 && performance.now() - n.loadEventEnd >= 800; }"""


def opened(browser, url, wait=True):
    """A fresh 1280 × 900 context with the page loaded in it and left alone 800 ms, its requests and errors
    listed. With wait=False it returns as the page starts to load: `settled` then waits for the same state,
    so a test that reads pages in turn lets the next one load and sit while it works the current one."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    p = ctx.new_page()
    requested, errors = [], []
    p.on("request", lambda r: requested.append(r.url))
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("console", lambda m: m.type == "error" and errors.append(m.text))
    p.on("requestfailed", lambda r: errors.append(f"{r.url}: {r.failure}"))
    p.goto(url, wait_until="load" if wait else "commit")
    if wait:
        p.wait_for_timeout(800)
    return ctx, p, requested, errors


def settled(opening):
    """A page opened with wait=False, once it has loaded and sat 800 ms untouched (as opened() leaves it)."""
    ctx, p, requested, errors = opening
    p.wait_for_load_state("load")
    p.wait_for_function(LOADED_AWHILE, polling=100, timeout=30000)
    return ctx, p, requested, errors


def in_turn(browser, urls):
    """The pages of `urls` as opened() gives them, one at a time; each next one loads (and sits its 800 ms)
    in its own context while the test works the current one. Use it closed (contextlib.closing): a failure
    closes the contexts still open."""
    urls = list(urls)
    nxt = opened(browser, urls[0], wait=False) if urls else None
    try:
        for i in range(len(urls)):
            current, nxt = settled(nxt), None
            try:
                nxt = opened(browser, urls[i + 1], wait=False) if i + 1 < len(urls) else None
                yield current
            finally:
                current[0].close()
    finally:
        if nxt:
            nxt[0].close()


# "far below the screen": a chart whose top, at load, is more than FAR screens down (charts.js draws a
# chart on the screen at load, and one within 600 px below it, LOOKAHEAD, once the reader first scrolls)
FAR = 2
FAR_CHARTS = f"""() => [...document.querySelectorAll('.chart-view')]
  .filter(e => e.getBoundingClientRect().top + scrollY > {FAR} * innerHeight)
  .map(e => [e.dataset.chart, e.dataset.src.split('/').pop(), e.dataset.rendered ?? null])"""


# charts just below the first screen (within charts.js's LOOKAHEAD, 600 px) at load: [chart, spec file, state]
JUST_BELOW = """() => [...document.querySelectorAll('.chart-view')]
  .filter(e => { const top = e.getBoundingClientRect().top; return top > innerHeight && top < innerHeight + 600; })
  .map(e => [e.dataset.chart, e.dataset.src.split('/').pop(), e.dataset.rendered ?? null])"""


def check_just_below_waits_for_the_first_scroll(p, requested, errors, where) -> int:
    """Issue 25 (first view): a chart just below the first screen loads nothing before the reader moves
    (no Vega on a page whose first screen shows no chart); the first scroll, however small, draws it while
    it is still below the screen (the look-ahead keeps it ready before it shows). Returns how many pages
    had such a chart (0 or 1)."""
    below = p.evaluate(JUST_BELOW)
    if not below:
        return 0
    on_screen = p.evaluate("[...document.querySelectorAll('.chart-view')]"
                           ".filter(e => e.getBoundingClientRect().top < innerHeight).length")
    for chart, key, rendered in below:
        assert rendered is None, f"{where}: {chart} was drawn before the reader scrolled"
        assert not [u for u in requested if u.endswith("/" + key)], f"{where}: {chart}'s spec loaded"
    if not on_screen:
        assert not [u for u in requested if u.endswith("/vega-course.min.js")], \
            f"{where}: Vega loaded with no chart on the first screen"
    p.mouse.wheel(0, 40)
    p.wait_for_function(f"""() => {[c for c, _, _ in below]}.every(name =>
        document.querySelector(`.chart-view[data-chart="${{name}}"]`).dataset.rendered === '1')""", timeout=30000)
    still_below = p.evaluate("[...document.querySelectorAll('.chart-view')]"
                             ".filter(e => e.getBoundingClientRect().top > innerHeight).map(e => e.dataset.chart)")
    assert {c for c, _, _ in below} <= set(still_below), f"{where}: the scroll brought it on screen"
    assert not errors, f"{where}: {errors}"
    return 1


def check_lazy_then_drawn(p, requested, errors, where, far=None):
    """Returns how many charts start far below the first screen (`far`, read at load, or read now): none of
    them was drawn, nor its spec loaded, before the reader scrolled more than a wheel step; then reading to
    the end draws every chart of the page."""
    far = p.evaluate(FAR_CHARTS) if far is None else far
    for chart, key, rendered in far:
        assert rendered is None, f"{where}: {chart}, {FAR}+ screens down, was drawn before the reader scrolled"
        assert not [u for u in requested if u.endswith("/" + key)], f"{where}: {chart}'s spec loaded before it was near"
    assert p.locator(".math .katex").count() == p.locator(".math").count(), f"{where}: formulas wait for the charts"
    waiting = p.evaluate(READ_TO_END)
    assert not waiting, f"{where}: charts on screen not drawn: {waiting}; errors: {errors}"
    p.wait_for_function(DRAWN, timeout=30000)
    assert p.locator(".chart-view :is(svg, canvas).marks").count() == p.locator(".chart-view").count()
    assert sum(u.endswith("/vega-course.min.js") for u in requested) == 1, f"{where}: Vega loaded more than once"
    assert not errors, f"{where}: {errors}"
    return len(far)


@pytest.mark.parametrize("lang", LANGS)
def test_charts_load_as_the_reader_scrolls(browser, base_url, lang):
    """Every chart page: a chart just below the first screen waits for the reader's first scroll (some page
    of the language has one); scrolling alone draws every chart; a chart far below the first screen waits
    for the reader (some page has one, else the laziness would go unchecked). One visit a page for both."""
    far = below = 0
    with closing(in_turn(browser, [page_url(base_url, lang, lesson) for lesson in CHART_PAGES])) as opened_in_turn:
        for lesson, (ctx, p, requested, errors) in zip(CHART_PAGES, opened_in_turn):
            far_here = p.evaluate(FAR_CHARTS)     # read at load, before the first scroll below moves the page
            below += check_just_below_waits_for_the_first_scroll(p, requested, errors, f"{lang}/{lesson}")
            far += check_lazy_then_drawn(p, requested, errors, f"{lang}/{lesson}", far_here)
    assert below, f"{lang}: no chart page has a chart just below its first screen"
    assert far, f"{lang}: no chart starts {FAR} screens below the top of its page"


@pytest.mark.parametrize("lang", LANGS)
def test_charts_load_as_the_reader_scrolls_from_disk(browser, offline_copy, lang):
    """The offline copy (file://): spec scripts and Vega load from disk as the reader scrolls (read on the
    first chart page with a chart far below its first screen)."""
    for lesson in CHART_PAGES:
        ctx, p, requested, errors = opened(browser, local_url(offline_copy, lang, lesson))
        if p.evaluate(FAR_CHARTS):
            assert check_lazy_then_drawn(p, requested, errors, f"{lang}/{lesson} from disk")
            ctx.close()
            return
        ctx.close()
    pytest.fail(f"{lang}: no chart starts {FAR} screens below the top of its page")


@pytest.mark.parametrize("lang", LANGS)
def test_pages_without_charts_load_no_chart_code(browser, base_url, site_dir, lang):
    # only pages whose built HTML holds no chart are opened (charts.js draws into the .chart-view
    # elements the build writes; it creates none)
    chartless = [page for page in course.pages() if 'class="chart-view' not in
                 (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")]
    for page in chartless:
        ctx, p, requested, _ = opened(browser, page_url(base_url, lang, page))
        assert not p.locator(".chart-view").count(), f"{lang}/{page}"
        assert not [u for u in requested if "/vega" in u or u.endswith("/charts.js")], f"{lang}/{page}"
        ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_search_index_loads_when_search_opens(browser, base_url, lang):
    ctx, p, requested, _ = opened(browser, page_url(base_url, lang, "index"))
    index = lambda: [u for u in requested if u.endswith("/search/search_index.json")]  # noqa: E731
    worker = lambda: [u for u in requested if "/assets/javascripts/workers/search." in u]  # noqa: E731
    assert not index(), f"{lang}: the search index loaded before search was opened"
    assert not worker(), f"{lang}: the search worker loaded before search was opened"
    with p.expect_request(lambda r: r.url.endswith("/search/search_index.json"), timeout=20000):
        p.locator(".md-search__input").click()  # the search field (a phone opens it with the header button)
    p.wait_for_timeout(500)  # a second load of either would come now
    assert len(index()) == 1, f"{lang}: opening search did not load the index once"
    assert len(worker()) == 1, f"{lang}: opening search did not start the search worker once"
    p.keyboard.type("softmax")
    p.wait_for_selector(".md-search-result__item", timeout=10000)
    ctx.close()


def test_our_scripts_and_stylesheet_are_served_minified(site_dir, offline_copy):
    """course_build/minify.py: the site and the offline copy serve the course's own scripts and stylesheet
    without their comments and spaces (at most 70 % of the source), and what they define is still there."""
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent / "overrides" / "assets"
    sources = sorted([*root.glob("js/*.js"), *root.glob("css/*.css")])
    assert sources
    for built_root in (site_dir / "assets", offline_copy / "assets"):
        for src in sources:
            built = built_root / src.parent.name / src.name
            text = built.read_text(encoding="utf-8")
            assert len(text) <= 0.7 * src.stat().st_size, f"{built}: not minified ({len(text)} of {src.stat().st_size} bytes)"
            assert "\n  " not in text, f"{built}: indented lines left"
    charts = (site_dir / "assets" / "js" / "charts.js").read_text(encoding="utf-8")
    assert "courseCharts" in charts and "renderAll" in charts, "charts.js lost the names tools/browser.py calls"


def _script_json(path, call):
    """The JSON argument(s) of a spec or part script: courseCharts.<call>(key, [part,] {...});"""
    import json
    text = path.read_text(encoding="utf-8")
    assert text.startswith(f"courseCharts.{call}(") and text.endswith(");\n"), path
    return json.loads("[" + text[len(f"courseCharts.{call}("):-len(");\n")] + "]")


def _runtime_rows(runtime: dict, name: str) -> list:
    """The rows a chart's runtime (course_build/chart_scripts.py) ingests into its dataset `name`: the values of
    the operator the parser marks as that dataset's input."""
    found = [op["value"]["$ingest"] for op in runtime["operators"]
             if "input" in (op.get("data") or {}).get(name, []) and "$ingest" in (op.get("value") or {})]
    assert len(found) == 1, f"dataset {name}: {len(found)} inputs with rows in the runtime"
    return found[0]


def test_split_charts_ship_the_initial_rows_and_every_other_row_in_parts(site_dir):
    """A chart split by its controls (usermeta.parts): its spec script holds exactly the rows of the controls'
    initial values, each part script the rows of its values, and together they hold every row of the
    generated spec, once; charts without parts get no part scripts. The script holds the spec's runtime (parsed
    at build time), which for a chart without parts is the generated spec's, unchanged."""
    import json
    from conftest import ROOT
    from course_build import chart_scripts
    split = 0
    for lang in LANGS:
        for vg in sorted((ROOT / "generated" / "charts" / lang).glob("*.vg.json")):
            chart = vg.name[:-len(".vg.json")]
            full = json.loads(vg.read_text(encoding="utf-8"))
            folder = site_dir / "assets" / "charts" / lang
            key, spec = _script_json(folder / f"{chart}.js", "define")
            assert set(spec) == {"usermeta", "runtime"}, f"{lang}/{chart}: {sorted(spec)}"
            parts = (full.get("usermeta") or {}).get("parts")
            found = sorted(p.name for p in folder.glob(f"{chart}.*.js"))
            if not parts:
                made = json.loads(chart_scripts.runtimes({key: (full, lang)})[key])
                assert not found and spec["usermeta"] == full.get("usermeta", {}) and spec["runtime"] == made, \
                    f"{lang}/{chart}: parts without a split: {found}"
                continue
            split += 1
            first = {s["name"]: s["value"] for s in full["signals"] if "value" in s}
            files = spec["usermeta"]["parts"]["files"]
            assert found == sorted(files.values()), (lang, chart, found)
            for name, signals in parts["data"].items():
                rows = {json.dumps(r, sort_keys=True) for r in next(d for d in full["data"] if d["name"] == name)["values"]}
                inline = _runtime_rows(spec["runtime"], name)
                assert inline and all([r[s] for s in signals] == [first[s] for s in signals] for r in inline), name
                shipped = [json.dumps(r, sort_keys=True) for r in inline]
                for part, file in files.items():
                    k, p, data = _script_json(folder / file, "part")
                    assert (k, p) == (key, part)
                    got = data.get(name, [])
                    assert all(".".join(str(r[s]) for s in signals) == part for r in got), (chart, part, name)
                    shipped += [json.dumps(r, sort_keys=True) for r in got]
                assert len(shipped) == len(rows) and set(shipped) == rows, f"{lang}/{chart}: {name} rows lost or doubled"
    assert split >= 2 * len(LANGS), "sa_trained_maps and sa_patch_attention are split by their controls"


@pytest.mark.parametrize("lang", LANGS)
def test_a_font_that_never_arrives_holds_back_no_chart(browser, base_url, lang):
    """Charts are drawn one at a time, each once its font is loaded: a font request that never ends (a
    stalled connection) gets one wait per page, then every chart is drawn in the fallback font."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    p = ctx.new_page()
    stalled = []
    p.route("**/*.woff2", lambda route: stalled.append(route.request.url))  # never answered
    p.goto(page_url(base_url, lang, CHART_PAGES[0]), wait_until="domcontentloaded")
    p.evaluate("() => { window.courseCharts.renderAll(); }")  # not awaited: the charts are watched below
    p.wait_for_function(DRAWN, timeout=30000)
    assert stalled, f"{lang}: no font was requested, so none stalled"
    assert p.locator(".chart-view :is(svg, canvas).marks").count() == p.locator(".chart-view").count()
    ctx.close()
