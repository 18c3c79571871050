"""Debian's chromium for everything that opens a page (tests, PDFs, screenshots, bench), never a
browser downloaded by Playwright. The flags keep a headless root run from reaching for the network."""
import os

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Debian's old headless shell of the same chromium (package chromium-headless-shell): the same Blink at the same
# version without the browser around it, what the tests open pages in (it loads a page in half the time: 50
# pages 12.2 s against 24.6 s, 2 cores). PDFs, screenshots and the bench keep the full browser readers use.
HEADLESS_SHELL = os.environ.get("CHROMIUM_SHELL", "/usr/bin/chromium-headless-shell")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
# A promise for the next frame, or for 100 ms when no frame comes: a headless Chromium on a busy machine
# can stop producing frames, and a wait on requestAnimationFrame alone then never returns (CI stop 28 hung
# on one until the job's 90 minutes ran out). Every script that waits for a frame uses this one.
NEXT_FRAME = ("() => new Promise(r => { const t = setTimeout(r, 100); "
              "requestAnimationFrame(() => { clearTimeout(t); setTimeout(r, 0); }); })")
# a promise kept once every chart of the page has run what its last input asked and drawn it (a Vega view's
# runAsync waits for its renderer), then a frame: what a test awaits after moving a control or the mouse, on any load
CHARTS_DRAWN = ("() => Promise.all([...(window.courseCharts ? window.courseCharts.views.values() : [])]"
                ".map(r => r.view.runAsync())).then(" + NEXT_FRAME + ")")
# true once assets/js/charts.js has drawn every chart of the page. Charts are drawn as the reader
# scrolls; a script that needs them all (tests, PDF, screenshots, bench) asks for them all at once.
ALL_CHARTS_RENDERED = ("(window.courseCharts && window.courseCharts.renderAll(), "
                       "[...document.querySelectorAll('.chart-view')].every(e => e.dataset.rendered === '1'))")


def launch(playwright, shell: bool = False):
    """Debian's chromium, or with `shell` its headless shell (tests)."""
    exe = HEADLESS_SHELL if shell else CHROMIUM
    if not os.path.exists(exe):
        raise SystemExit(f"{exe} is missing: `make browser` installs Debian's chromium and its headless shell")
    return playwright.chromium.launch(executable_path=exe, args=ARGS)
