"""Shared fixtures: the built site served under its GitHub Pages path, and Debian's chromium."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
from browser import ALL_CHARTS_RENDERED as RENDERED  # noqa: E402  (shared with tools/)
from scripts.common import course  # noqa: E402  (the course model: languages and lessons)

LANGS = tuple(course.codes())
LESSONS = course.lessons()


def pages() -> list[str]:
    """Page paths without language, e.g. 'index', 'self-attention'."""
    return sorted(course.pages())


def page_with_chart(chart: str) -> str:
    """The page (without language) whose default-language source shows `{{ chart: <chart> }}`, so a test of
    one chart follows it when the text moves it (the home page shows no interactive chart)."""
    docs = ROOT / "docs" / course.default_language().code
    hits = [p for p in pages() if re.search(r"\{\{\s*chart:\s*" + re.escape(chart) + r"\s*\}\}",
                                              (docs / f"{p}.md").read_text(encoding="utf-8"))]
    assert hits, f"no page shows the chart {chart}"
    return hits[0]


def page_url(base: str, lang: str, page: str) -> str:
    return base + course.page_path(lang, page)


@pytest.fixture(scope="session")
def site_dir() -> Path:
    site = Path(os.environ.get("SITE_DIR", ROOT / "site"))
    if not (site / "index.html").exists():
        pytest.fail(f"{site} is not built: run `make site` (make test does it)")
    return site


@pytest.fixture(scope="session")
def base_url(site_dir):
    from serve import start
    server, url = start(site_dir)
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    from browser import launch
    with sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()


def open_page(context, base_url, lang, page, *, init_script=None, only_this_site=False, timeout=30000):
    """How every browser test opens a page of the built site: console and page errors gathered in
    `p.errors`, the HTTP status checked, every chart rendered before it returns. `init_script` runs
    before the page's own scripts (e.g. a stored palette); with `only_this_site`, requests leaving the
    site are aborted and listed in `p.outside`."""
    from urllib.parse import urlparse
    p = context.new_page()
    p.errors, p.outside = [], []
    p.on("console", lambda m: p.errors.append(m.text) if m.type == "error" else None)
    p.on("pageerror", lambda e: p.errors.append(str(e)))
    if init_script:
        p.add_init_script(init_script)
    if only_this_site:
        host = urlparse(base_url).netloc

        def route(r):
            u = urlparse(r.request.url)
            if u.scheme in ("http", "https") and u.netloc != host:
                p.outside.append(r.request.url)
                return r.abort()
            return r.continue_()
        p.route("**/*", route)
    resp = p.goto(page_url(base_url, lang, page))
    assert resp.ok, f"{lang}/{page}: HTTP {resp.status}"
    p.wait_for_function(RENDERED, timeout=timeout)
    return p


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
