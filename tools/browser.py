"""Debian's chromium for everything that opens a page (tests, PDFs, screenshots, bench), never a
browser downloaded by Playwright. The flags keep a headless root run from reaching for the network."""
import os

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
# A promise for the next frame, or for 100 ms when no frame comes: a headless Chromium on a busy machine
# can stop producing frames, and a wait on requestAnimationFrame alone then never returns (CI stop 28 hung
# on one until the job's 90 minutes ran out). Every script that waits for a frame uses this one.
NEXT_FRAME = ("() => new Promise(r => { const t = setTimeout(r, 100); "
              "requestAnimationFrame(() => { clearTimeout(t); setTimeout(r, 0); }); })")
# true once assets/js/charts.js has drawn every chart of the page. Charts are drawn as the reader
# scrolls; a script that needs them all (tests, PDF, screenshots, bench) asks for them all at once.
ALL_CHARTS_RENDERED = ("(window.courseCharts && window.courseCharts.renderAll(), "
                       "[...document.querySelectorAll('.chart-view')].every(e => e.dataset.rendered === '1'))")


def launch(playwright):
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"{CHROMIUM} is missing: `make browser` installs Debian's chromium")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
