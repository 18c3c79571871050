"""Shared fixtures: the built site served under its GitHub Pages path, and Debian's chromium."""
from __future__ import annotations

import os
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
