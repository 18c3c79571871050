"""Screenshots of pages as a reader sees them (Debian chromium), for looking, not for tests.

    python -m tools.shoot [--site site] [--out build/shots] [--dark] [page ...]   (pages as in the nav; default: index)
    -> build/shots/<lang>-<page>-<width>.png, 1280 and 390 px wide, full page; with --dark also
       <lang>-<page>-<width>-dark.png (the reader's system asks for dark: Material's slate palette)
"""
import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

from tools.browser import ALL_CHARTS_RENDERED, launch
from tools.serve import ROOT, start
from scripts.common import course, paths


def main(pages, site: Path = paths.SITE, out: Path = paths.BUILD / "shots", schemes=("light",)):
    out.mkdir(parents=True, exist_ok=True)
    server, base = start(site)
    with sync_playwright() as p:
        browser = launch(p)
        for width, scheme in ((w, s) for w in (1280, 390) for s in schemes):
            ctx = browser.new_context(viewport={"width": width, "height": 900}, device_scale_factor=1,
                                      color_scheme=scheme)
            page = ctx.new_page()
            for lang in course.codes():
                for name in pages:
                    page.goto(base + course.page_path(lang, name))
                    page.wait_for_function(ALL_CHARTS_RENDERED, timeout=15000)
                    # what a reader sees at each place once scrolled there: content-visibility: auto leaves
                    # off-screen parts undrawn in a full-page shot (the glossary's chapters, course.css)
                    page.add_style_tag(content="* { content-visibility: visible !important; }")
                    page.wait_for_timeout(300)
                    f = out / f"{lang}-{name}-{width}{'' if scheme == 'light' else '-' + scheme}.png"
                    page.screenshot(path=str(f), full_page=True)
                    print(f)
            ctx.close()
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", type=Path, default=paths.SITE, help="the built site to serve")
    ap.add_argument("--out", type=Path, default=paths.BUILD / "shots", help="where the PNGs go")
    ap.add_argument("--dark", action="store_true", help="dark scheme too")
    ap.add_argument("pages", nargs="*", default=["index"])
    args = ap.parse_args()
    main(args.pages, args.site, args.out, ("light", "dark") if args.dark else ("light",))
