"""Shared fixtures: the built site served under its GitHub Pages path, the offline copy unzipped once,
Debian's chromium (one per session, one 1280×900 context per test module), and one way to open a page."""
from __future__ import annotations

import json
import os
import re
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
from tools.browser import ALL_CHARTS_RENDERED as RENDERED, HEADLESS_SHELL, NEXT_FRAME  # shared with tools/
from scripts.common import course  # the course model: languages and lessons

LANGS = tuple(course.codes())
LESSONS = course.lessons()              # the chapters: each one's overview page
LESSON_PAGES = course.lesson_pages()    # every page of every chapter, in reading order


# The published models' names keep their Latin digits on every page («GPT-2 small», «Llama 2 7B»: names, not
# numbers; scripts/common/published_models.py): tests that look for Latin digits take them out first.
def _model_names():
    from scripts.common.published_models import PRESETS
    return re.compile("|".join(re.escape(m["name"]) for m in PRESETS))


MODEL_NAMES = _model_names()

def pages_showing(kind: str) -> tuple[str, ...]:
    """The chapter pages whose default-language source shows a `{{ <kind>: … }}` reference (chart,
    exercise, table), in reading order: a test of such pages follows the text when it moves."""
    lang = course.default_language().code
    pattern = re.compile(r"\{\{\s*" + re.escape(kind) + r"\s*:")
    return tuple(p for p in LESSON_PAGES if pattern.search(course.source(lang, p).read_text(encoding="utf-8")))


def _charts_of(page: str) -> list[str]:
    lang = course.default_language().code
    return re.findall(r"\{\{\s*chart:\s*([\w-]+)\s*\}\}", course.source(lang, page).read_text(encoding="utf-8"))


CHART_PAGES = pages_showing("chart")
EXERCISE_PAGES = pages_showing("exercise")
TABLE_PAGES = pages_showing("table")
# pages with a chart that has a slider (a range input in its generated Vega spec)
SLIDER_PAGES = tuple(p for p in CHART_PAGES if any(
    '"input": "range"' in (ROOT / "generated" / "charts" / course.default_language().code / f"{c}.vg.json")
    .read_text(encoding="utf-8") for c in _charts_of(p)))


def _on_canvas(chart: str) -> bool:
    """The chart asks for a canvas on screen (usermeta.renderer in its generated spec, assets/js/charts.js)."""
    spec = json.loads((ROOT / "generated" / "charts" / course.default_language().code / f"{chart}.vg.json")
                      .read_text(encoding="utf-8"))
    return (spec.get("usermeta") or {}).get("renderer") == "canvas"


# pages with a chart drawn as SVG on screen (text and slider tests read its SVG; a canvas chart is read
# by the tests of canvas charts)
SVG_CHART_PAGES = tuple(p for p in CHART_PAGES if not all(_on_canvas(c) for c in _charts_of(p)))


def pages() -> list[str]:
    """Page paths without language, e.g. 'index', 'self-attention' (a chapter's overview), 'self-attention/formula'."""
    return sorted(course.pages())


# Scrolled to, as a reader reaches it, and two frames given: what is put in the page as it nears the viewport
# (a chart, an exercise's form) arrives in the rendering steps after the scroll. `locator.evaluate(SCROLL_NEAR)`.
SCROLL_NEAR = f"async e => {{ const frame = {NEXT_FRAME}; e.scrollIntoView({{block: 'center'}}); await frame(); await frame(); }}"
# axe-core, copied from the pinned npm package by `make assets`; and a style that ends every colour transition at once
# (axe would read a colour halfway between two palettes)
AXE = ROOT / "build" / "axe.min.js"
NO_TRANSITIONS = "*, ::before, ::after { transition: none !important; }"
# every data table and other disclosure of the text opened (a chart's own menu left closed)
OPEN_DETAILS = """() => document.querySelectorAll('.md-typeset details').forEach(d => {
  if (!d.closest('.vega-embed')) d.open = true; })"""


def page_with_chart(chart: str) -> str:
    """The page (without language) whose default-language source shows `{{ chart: <chart> }}`, so a test of
    one chart follows it when the text moves it (the home page shows no interactive chart)."""
    lang = course.default_language().code
    hits = [p for p in pages() if re.search(r"\{\{\s*chart:\s*" + re.escape(chart) + r"\s*\}\}",
                                              course.source(lang, p).read_text(encoding="utf-8"))]
    assert hits, f"no page shows the chart {chart}"
    return hits[0]


def page_citing(text: str) -> str:
    """The first page (without language) whose default-language source holds `text`, e.g. a reference's
    key: a test of one number follows it when the text moves it."""
    lang = course.default_language().code
    hits = [p for p in pages() if text in course.source(lang, p).read_text(encoding="utf-8")]
    assert hits, f"no page holds {text!r}"
    return hits[0]


def page_url(base: str, lang: str, page: str) -> str:
    return base + course.page_path(lang, page)


# What `make site` reads, and what it writes that tests read: an output older than any input is stale.
SITE_INPUTS = ("mkdocs.yml", "docs", "course_build", "overrides", "generated", "scripts/i18n", "scripts/common",
               "tools/offline_copy.py", "tools/pdf.py", "tools/browser.py")


def build_outputs(site: Path) -> dict[str, list[Path]]:
    """What `make site` writes that tests read, by part: a test needs only the part it reads fresh (the
    PDFs take minutes to print, and a test of the site alone should not wait for them)."""
    downloads = ROOT / "build" / "downloads"   # the originals (site/downloads holds copies made by mkdocs)
    return {"site": [site / "index.html"],
            "offline": [ROOT / "build" / "offline" / "attention-course" / "index.html",
                        downloads / "attention-course-offline.zip"],
            "pdf": [downloads / f"attention-course-{lang}.pdf" for lang in LANGS]}


def stale_outputs(site: Path, parts=("site", "offline", "pdf")) -> list[str]:
    """Outputs of `make site` that are missing or older than the newest of their inputs (by mtime; a
    clean clone's inputs are all older than a build made after it). `make site` skips the offline copy and
    the PDFs when the content hash of their inputs is unchanged and then touches them (tools/step_cache.py,
    which hashes every input listed here: tests/test_step_cache.py checks it)."""
    newest = max(f.stat().st_mtime for name in SITE_INPUTS for f in
                 ([ROOT / name] if (ROOT / name).is_file() else (ROOT / name).rglob("*"))
                 if f.is_file() and "__pycache__" not in f.parts and not f.name.startswith("."))  # .lock, .copied
    outputs = [o for part in parts for o in build_outputs(site)[part]]
    return [str(o) for o in outputs if not o.exists() or o.stat().st_mtime < newest]


def require_fresh(site: Path, *parts: str) -> None:
    stale = stale_outputs(site, parts)
    if stale:  # tests must never pass on an old build
        pytest.fail(f"older than what they are built from (or missing): {', '.join(stale)}: run `make site` "
                    "(make test does it)")


def printed(site_dir: Path, lang: str) -> Path:
    """A language's PDF as the site serves it, once the PDFs are fresh."""
    require_fresh(site_dir, "pdf")
    path = site_dir / "downloads" / f"attention-course-{lang}.pdf"
    assert path.exists(), "make site should put both PDFs in site/downloads/"
    return path


def archive(site_dir: Path) -> Path:
    """The offline archive as the site serves it, once the offline copy is fresh."""
    require_fresh(site_dir, "offline")
    path = site_dir / "downloads" / "attention-course-offline.zip"
    assert path.exists(), "make site should put the offline archive in site/downloads/"
    return path


@pytest.fixture(scope="session")
def site_dir() -> Path:
    site = Path(os.environ.get("SITE_DIR", ROOT / "site"))
    if not (site / "index.html").exists():
        pytest.fail(f"{site} is not built: run `make site` (make test does it)")
    require_fresh(site, "site")
    return site


@pytest.fixture(scope="session")
def base_url(site_dir):
    from tools.serve import start
    server, url = start(site_dir)
    yield url
    server.shutdown()


SHELL = os.path.exists(HEADLESS_SHELL)  # Debian's headless shell of the same chromium, when installed (tools/browser.py)


def pytest_report_header(config):
    from tools.browser import CHROMIUM
    if SHELL:
        return f"browser tests: {HEADLESS_SHELL}"
    return f"browser tests: {CHROMIUM} ({HEADLESS_SHELL} is missing: `make browser` installs it; pages load twice as fast)"


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    from tools.browser import launch
    with sync_playwright() as p:
        b = launch(p, shell=SHELL)
        yield b
        b.close()


def data(name: str):
    """generated/data/<name>.json, as the pages read it."""
    return json.loads((ROOT / "generated" / "data" / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def context(browser):
    """One desktop-sized browser context per test module (modules that need another size or a stored
    palette make their own)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


@pytest.fixture(scope="module")
def sized(browser):
    """sized(width): a context of that viewport width (900 px high), one per width for the test module. A test opens
    its page in it and closes it; the next test's page then reuses the tab (conftest.reused_tab): a new context
    and tab per test cost a page load twice (0.50 against 0.29 CPU-s a chapter page here)."""
    made = {}

    def get(width: int):
        if width not in made:
            made[width] = browser.new_context(viewport={"width": width, "height": 900})
        return made[width]
    yield get
    for ctx in made.values():
        ctx.close()


@pytest.fixture(scope="session")
def offline_copy(site_dir, tmp_path_factory) -> Path:
    """The offline archive as a reader gets it: unzipped (once per session) into a temporary folder."""
    dest = tmp_path_factory.mktemp("offline")
    with zipfile.ZipFile(archive(site_dir)) as z:
        z.extractall(dest)
    return dest / "attention-course"


def local_url(offline_root: Path, lang: str, page: str) -> str:
    """A page of the offline copy (plain .html files, no directory URLs) as a file:// URL."""
    return (offline_root / course.offline_path(lang, page)).as_uri()


# The palette a reader chose, as the page's own toggle stores it (Material's key under the site's path): as a script
# that stores it before the page's own scripts read it, or as a context's stored state (every page of the context
# opens in it, and its tabs stay reusable, reused_tab)
PALETTE_KEY = "/attention-course/.__palette"


def palette_value(scheme: str) -> str:
    return json.dumps({"index": 0 if scheme == "default" else 1,
                       "color": {"media": "", "scheme": scheme, "primary": "indigo", "accent": "indigo"}})


def palette(scheme: str) -> str:
    return f"localStorage.setItem({PALETTE_KEY!r}, {palette_value(scheme)!r})"


def palette_state(base_url: str, scheme: str) -> dict:
    from urllib.parse import urlparse
    u = urlparse(base_url)
    return {"cookies": [], "origins": [{"origin": f"{u.scheme}://{u.netloc}",
                                        "localStorage": [{"name": PALETTE_KEY, "value": palette_value(scheme)}]}]}


def palette_context(browser, base_url: str, scheme: str, **options):
    """A desktop-sized context (1280 × 900) whose pages open in `scheme`, the toggle's stored choice: stored in the
    context, not by a script in each tab, so its tabs stay reusable (reused_tab)."""
    return browser.new_context(viewport={"width": 1280, "height": 900}, storage_state=palette_state(base_url, scheme),
                               **options)


# every chart of the page drawn again since `old` (each chart's data-rendered-at before)
REDRAWN_SINCE = """old => [...document.querySelectorAll('.chart-view')].every((e, i) =>
    e.dataset.rendered === '1' && e.dataset.renderedAt !== old[i])"""


def switch_palette(p) -> None:
    """The header's light/dark toggle clicked, as a reader switches, and every chart of the page (all drawn before)
    drawn again in the new colours."""
    stamps = p.evaluate("[...document.querySelectorAll('.chart-view')].map(e => e.dataset.renderedAt)")
    p.locator("label[for^='__palette']:visible").first.click()
    p.wait_for_function(REDRAWN_SINCE, arg=stamps, timeout=30000)


# A tab a test closes waits for the next page of its context: a new tab starts a renderer process, a third of a
# page's cost (100 chapter pages with their charts, 2 cores, Chromium and the server: 0.76 CPU-s a page in new
# tabs, 0.57 in one tab, 0.39 once the server lets the tab keep its files as GitHub Pages does; the suite opens
# about 1 300 pages). A test
# that changes its tab itself (the calls below) has it to itself: closing it closes it.
TAB_CHANGES = ("add_init_script", "route", "route_from_har", "on", "once", "expose_function", "expose_binding",
               "set_viewport_size", "emulate_media", "set_extra_http_headers", "set_default_timeout",
               "set_default_navigation_timeout", "add_locator_handler")


def reused_tab(context):
    """A tab for open_page: one a test of this context closed, else a new one whose close() puts it back."""
    idle = context.__dict__.setdefault("course_idle_tabs", [])
    while idle:
        p = idle.pop()
        if not p.is_closed():
            return p
    p = context.new_page()
    p.changed_by_test, p.undo = False, []
    for name in TAB_CHANGES:
        def changed(*args, _call=getattr(p, name), **kwargs):
            p.changed_by_test = True
            return _call(*args, **kwargs)
        setattr(p, name, changed)
    close = p.close

    def put_back(**kwargs):
        if p.changed_by_test or kwargs or p.is_closed():
            return close(**kwargs)
        for undo in p.undo:
            undo()
        p.undo = []
        # a text box left focused blinks its caret, a frame drawn twice a second for as long as the tab is kept: ten
        # such tabs cost a third of a core here (most of it Chromium's compositor), in every test after
        try:
            p.evaluate("document.activeElement && document.activeElement.blur()")
        except Exception:  # the tab is between pages (its test closed it mid-navigation): it is not kept
            return close()
        if p not in idle:  # closed twice (a test, then its fixture's teardown): still one tab for one test
            idle.append(p)
    p.close = put_back
    return p


def open_page(context, where, lang, page, *, init_script=None, only_this_site=False, timeout=30000, charts=True):
    """How every browser test opens a page, served (`where` is the base URL) or from the offline copy
    on disk (`where` is its folder, a Path): console and page errors gathered in `p.errors`, the HTTP
    status checked when served, every chart rendered before it returns. `init_script` runs before the
    page's own scripts (e.g. a stored palette); with `only_this_site`, requests leaving the site (or,
    from disk, leaving the disk) are aborted and listed in `p.outside`.
    A test that reads only the text passes `charts=False`: the page loaded with its fonts, charts left to draw
    as a reader's scrolling would ask (drawing every chart is most of a page's cost in the suite).
    The tab may be one another test closed (reused_tab): what this function sets up on it is undone when it closes."""
    from urllib.parse import urlparse
    from playwright.sync_api import Page
    offline = isinstance(where, Path)
    url = local_url(where, lang, page) if offline else page_url(where, lang, page)
    p = reused_tab(context)
    p.errors, p.outside = [], []

    def listen(event, handler):
        Page.on(p, event, handler)
        p.undo.append(lambda: Page.remove_listener(p, event, handler))
    listen("console", lambda m: p.errors.append(m.text) if m.type == "error" else None)
    listen("pageerror", lambda e: p.errors.append(str(e)))
    if init_script:
        p.add_init_script(init_script)  # stays with the tab: the tab is this test's alone
    if only_this_site:
        host = None if offline else urlparse(where).netloc

        # only the requests that leave are routed (and aborted; a regular expression is matched in the browser's
        # driver, so the site's own requests go straight through instead of each waiting for this process)
        leaves = re.compile(r"^(?!file:)" if offline else r"^https?://(?!" + re.escape(host) + r"(?:[/?#]|$))")

        def route(r):
            p.outside.append(r.request.url)
            return r.abort()
        Page.route(p, leaves, route)
        p.undo.append(lambda: Page.unroute(p, leaves, route))
    resp = p.goto(url)
    if not offline:
        assert resp.ok, f"{lang}/{page}: HTTP {resp.status}"
    if charts:
        p.wait_for_function(RENDERED, timeout=timeout)
    else:
        p.evaluate("document.fonts.ready.then(() => true)")
    return p


@pytest.fixture(scope="module")
def shared_page(request, context, base_url):
    """Served pages opened once per test module and kept open, for tests that only read a page or
    each work a chart no other test of the module reads (tests run in file order: readers first).
    Options (open_page's keywords) are part of the key.
    A module whose tests run page by page (its `page` and `lang` parameters module-scoped:
    `@pytest.mark.parametrize("page", pages(), scope="module")`, which pytest orders by) sets SHARED_PAGES = n:
    then only the n pages used last stay open, and a page's tab goes to the next page (conftest.reused_tab)."""
    opened = {}   # in the order of last use
    keep = getattr(request.module, "SHARED_PAGES", None)

    def get(lang, page, **options):
        key = (lang, page, tuple(sorted(options.items())))
        if key not in opened:
            while keep and len(opened) >= keep:
                opened.pop(next(iter(opened))).close()
            opened[key] = open_page(context, base_url, lang, page, **options)
        opened[key] = opened.pop(key)
        return opened[key]
    yield get
    for p in opened.values():
        p.close()


def assert_fits_the_screen(p, selector: str, width: int) -> None:
    """Nothing inside `selector` sticks out of a `width`-px screen, and the page does not scroll sideways."""
    wide = p.evaluate("""s => [...document.querySelectorAll(s + ' *')]
        .filter(e => { const r = e.getBoundingClientRect(); return r.right > innerWidth + 1 || r.left < -1; })
        .map(e => e.className || e.tagName)""", selector)
    assert not wide, f"{selector}: past the screen's edge: {wide}"
    assert p.evaluate("document.documentElement.scrollWidth") <= width


# JS helpers for browser tests: a chart's Vega view, and the items of the marks whose name starts with a prefix
VIEW = "(id) => window.courseCharts.views.get(document.querySelector('#chart-' + id + ' .chart-view')).view"
ITEMS = """([id, prefix]) => {
  const view = window.courseCharts.views.get(document.querySelector('#chart-' + id + ' .chart-view')).view;
  const out = [];
  const walk = (node) => {
    if (!node || !node.items) return;
    if (node.marktype && node.marktype !== 'group' && node.name && node.name.startsWith(prefix)) {
      node.items.forEach(it => out.push({text: Array.isArray(it.text) ? it.text.join('\\n') : (it.text ?? null),
                                         datum: Object.fromEntries(Object.entries(it.datum || {})
                                           .filter(([k, v]) => typeof v !== 'object' || v === null))}));
    }
    node.items.forEach(walk);
  };
  walk(view.scenegraph().root);
  return out;
}"""
# The screen centre of the first item of a mark whose name starts with `prefix` and whose datum passes `test`
# (a JS expression of d), scrolled to mid-screen (clear of the sticky header): its own element when the chart
# draws SVG, else its bounds on the canvas offset by the groups holding it, the view's origin and padding
# (where Vega's canvas handler picks). For page.mouse.move(x, y).
MARK_CENTRE = """([id, prefix, test]) => {
  const view = window.courseCharts.views.get(document.querySelector('#chart-' + id + ' .chart-view')).view;
  let hit = null;
  const walk = (node) => { if (!node || !node.items || hit) return;
    if (node.marktype && node.marktype !== 'group' && node.name && node.name.startsWith(prefix))
      hit = node.items.find(it => (new Function('d', 'return ' + test))(it.datum));
    node.items.forEach(walk); };
  walk(view.scenegraph().root);
  if (!hit) throw new Error('no item of ' + prefix + ' with ' + test);
  const drawing = document.querySelector('#chart-' + id + ' .marks');
  let x = (hit.bounds.x1 + hit.bounds.x2) / 2, y = (hit.bounds.y1 + hit.bounds.y2) / 2;
  for (let g = hit.mark.group; g; g = g.mark && g.mark.group) { x += g.x || 0; y += g.y || 0; }
  const at = () => { if (hit._svg) { const r = hit._svg.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; }
                     const r = drawing.getBoundingClientRect(), o = view.origin(), pad = view.padding();
                     return {x: r.x + o[0] + pad.left + x, y: r.y + o[1] + pad.top + y}; };
  scrollBy(0, at().y - innerHeight / 2);
  return at();
}"""


# ── Tiers ──────────────────────────────────────────────────────────────────────────────────────
# `make check` runs what needs neither a browser, nor a built site, nor a slow subprocess (marked
# `slow` where it is defined); `make test` runs everything. The marks come from the fixtures a test uses,
# so a new browser or site test lands in its tier without being marked.
BROWSER_FIXTURES = {"browser", "context", "shared_page", "sized"}
SITE_FIXTURES = {"site_dir", "base_url", "offline_copy"}
SLOW_FIXTURES = {"proj"}   # tests/test_pipeline.py: a copy of the project that scripts.run recomputes in a subprocess


def pytest_collection_modifyitems(config, items):
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if used & SITE_FIXTURES:
            item.add_marker(pytest.mark.site)
        if used & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)
    # Longest first: `make test` deals whole files to its workers in this order (xdist --dist loadfile
    # --no-loadscope-reorder: by default xdist re-sorts files by their number of tests, which sent the
    # one-test serve file last, running alone), so the files that build in a subprocess start at once and
    # the short ones fill in around them.
    cost = {}
    for item in items:
        kind = 2 if item.get_closest_marker("slow") else 1 if item.get_closest_marker("browser") else 0
        cost[item.path] = max(cost.get(item.path, 0), kind)
    items.sort(key=lambda item: -cost[item.path])   # stable: a file's own order is kept
