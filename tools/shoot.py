"""Screenshots of pages as a reader sees them (Debian chromium), for looking, not for tests.

    SITE_DIR=site SHOTS_DIR=build/shots python tools/shoot.py index self-attention
    -> build/shots/<lang>-<page>-<width>.png, 1280 and 390 px wide, full page
"""
import os
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser import ALL_CHARTS_RENDERED, launch  # noqa: E402
from serve import ROOT, start  # noqa: E402
sys.path.insert(0, str(ROOT))
from scripts.common import course  # noqa: E402



def main(pages):
    out = Path(os.environ.get("SHOTS_DIR", ROOT / "build" / "shots"))
    out.mkdir(parents=True, exist_ok=True)
    server, base = start(Path(os.environ.get("SITE_DIR", ROOT / "site")))
    with sync_playwright() as p:
        browser = launch(p)
        for width in (1280, 390):
            ctx = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=1)
            page = ctx.new_page()
            for lang in course.codes():
                for name in pages:
                    page.goto(base + course.page_path(lang, name))
                    page.wait_for_function(ALL_CHARTS_RENDERED, timeout=15000)
                    page.wait_for_timeout(300)
                    f = out / f"{lang}-{name}-{width}.png"
                    page.screenshot(path=str(f), full_page=True)
                    print(f)
            ctx.close()
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main(sys.argv[1:] or ["index"])
