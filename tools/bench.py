"""`make bench`: how fast and how light the course is, each figure beside its budget.

Prints a table and writes bench/bench.json (git-ignored; machine-dependent). Measures:
  data    `scripts.run --force`, unchanged `scripts.run`, mkdocs build, offline build, PDFs (both forced), unchanged `make site`
          (which skips the offline copy and the PDFs: tools/step_cache.py)
  pages   every page in every language, cold cache in headless Debian chromium (1280×900):
          first view (gzip KB loaded before the reader scrolls), all-in (gzip KB once read to the end,
          scrolling a screen at a time), requests, the first chart's delay after it scrolls into view,
          slider → re-render p50/p95
  lighthouse  performance, accessibility, best practices, SEO on every page with Lighthouse's default
          mobile preset (simulated slow 4G, 4× CPU slowdown; npm lighthouse 12.2.3); the median of five runs
  widgets each widget's model step in the page (the ViT's forward pass, the translator's decoder step) under 4× CPU
          slowdown (CDP Emulation.setCPUThrottlingRate, Lighthouse's mobile preset), p50/p95; its model file and its
          weights+code (every script its figure loads, as served) in gzip KB; `--widgets` alone
Budgets are goals for this benchmark, not timed tests.
"""
from __future__ import annotations

import gzip
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from tools.browser import ALL_CHARTS_RENDERED, ARGS, CHROMIUM, NEXT_FRAME, launch
from tools.serve import start
from scripts.common import course

PY = sys.executable
PAGES = [(lang, page) for page in course.pages() for lang in course.codes()]
TRAIN_S = 60   # seconds each build-time training may take on 2 cores
# data_force_s: 6 min on 2 cores, both trained models over their 5 seeds
BUDGET = {"data_force_s": 360, "data_unchanged_s": 5, "site_unchanged_s": 30, "first_view_kb": 250, "all_in_kb": 400,
          "in_view_ms": 1000, "slider_p95_ms": 50, "lh_performance": 97, "lh_accessibility": 100,
          "step_p95_ms": 30, "model_kb": 150, "widget_kb": 200}   # issue 26: a widget's model step, model, weights+code
# drawn charts, without asking charts.js to draw the rest (ALL_CHARTS_RENDERED does): the reader's path
DRAWN = "[...document.querySelectorAll('.chart-view')].every(e => e.dataset.rendered === '1')"
ENV = dict(os.environ, NO_MKDOCS_2_WARNING="1")


def timed(cmd: list[str], env=None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env or ENV, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def bench_data() -> dict:
    force = timed([PY, "-m", "scripts.run", "--force"])  # never re-measures generated/timings/
    # models trained at build time report their training loop's seconds (budget TRAIN_S each),
    # measured into build/ so the committed timings stay as they are
    folder = ROOT / "build" / "bench-timings"
    timed([PY, "-m", "scripts.run", "--timings", "--timings-dir", str(folder)])
    trained = {f"train_{p.stem}_s": r["train_s"] for p in sorted(folder.glob("*.json"))
               if "train_s" in (r := json.loads(p.read_text(encoding="utf-8"))["result"])}
    return {
        "data_force_s": force,
        **trained,
        "data_unchanged_s": timed([PY, "-m", "scripts.run"]),
        "mkdocs_build_s": timed([PY, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(ROOT / "build/bench-site")]),
        "offline_s": timed([PY, "-m", "tools.offline_copy", "--force"]),  # a real build (unchanged ones are skipped)
        "pdf_s": timed([PY, "-m", "tools.pdf", "--force"]),
        "site_unchanged_s": timed(["make", "site"]),
    }


def url_for(base: str, lang: str, page: str) -> str:
    return base + course.page_path(lang, page)


SLIDER_JS = """async () => {
  // the heaviest chart that has a range input: time from input to the view re-rendered
  const figs = [...document.querySelectorAll('figure.chart')].filter(f => f.querySelector('input[type=range]'));
  if (!figs.length) return null;
  const size = f => window.courseCharts.specOf(f.querySelector('.chart-view')).length;
  figs.sort((a, b) => size(b) - size(a));
  const el = figs[0].querySelector('.chart-view');
  const view = window.courseCharts.views.get(el).view;
  const input = figs[0].querySelector('input[type=range]');
  const lo = +input.min, hi = +input.max, step = +(input.step || 1);
  const times = [];
  for (let i = 0; i < 40; i++) {
    const v = lo + ((i * 7) % Math.max(1, Math.round((hi - lo) / step) + 1)) * step;
    const t0 = performance.now();
    input.value = String(v);
    input.dispatchEvent(new Event('input', {bubbles: true}));
    await view.runAsync();
    await (NEXT_FRAME_JS)();
    times.push(performance.now() - t0);
  }
  return {chart: el.dataset.chart, times};
}""".replace("NEXT_FRAME_JS", NEXT_FRAME)


READ_TO_END_JS = """async () => {
  // a reader scrolling a screen at a time, pausing briefly on each
  const step = Math.round(innerHeight * 0.8);
  for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
    scrollTo(0, y);
    await new Promise(r => setTimeout(r, 150));
  }
}"""

# The first chart, scrolled to the middle of the screen: how long after it came into view it was drawn
# (0 when it was drawn before: charts.js starts a chart a screen ahead).
IN_VIEW_JS = """async () => {
  const el = document.querySelector('.chart-view');
  if (!el) return null;
  el.scrollIntoView({block: 'center'});
  while (el.dataset.rendered !== '1' || !el.dataset.visibleAt) await new Promise(r => setTimeout(r, 20));
  return Math.max(0, +el.dataset.renderedAt - +el.dataset.visibleAt);
}"""


def bench_pages(site: Path) -> list[dict]:
    from playwright.sync_api import sync_playwright
    server, base = start(site)
    rows = []
    with sync_playwright() as p:
        browser = launch(p)
        for lang, page in PAGES:
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})  # cold cache every page
            pg = ctx.new_page()
            sizes = []

            def on_response(r, sizes=sizes):
                try:
                    body = r.body()
                except Exception:
                    return
                sizes.append((r.url, len(body), len(gzip.compress(body, 6))))
            pg.on("response", on_response)
            pg.goto(url_for(base, lang, page), wait_until="load")
            pg.wait_for_load_state("networkidle")
            pg.wait_for_timeout(500)  # anything started late (fonts, idle callbacks) counts as first view
            first_view = sum(s[2] for s in sizes) / 1024
            in_view = pg.evaluate(IN_VIEW_JS)
            pg.evaluate(READ_TO_END_JS)
            pg.wait_for_function(DRAWN, timeout=30000)  # scrolling alone drew every chart
            pg.wait_for_load_state("networkidle")
            charts = pg.evaluate("document.querySelectorAll('.chart-view').length")
            slider = pg.evaluate(SLIDER_JS) if charts else None
            row = {"page": f"{lang}/{page}", "requests": len(sizes), "first_view_kb": first_view,
                   "raw_kb": sum(s[1] for s in sizes) / 1024, "all_in_kb": sum(s[2] for s in sizes) / 1024,
                   "charts": charts, "in_view_ms": in_view}
            if slider:
                ts = sorted(slider["times"])
                row.update(slider_chart=slider["chart"], slider_p50_ms=statistics.median(ts),
                           slider_p95_ms=ts[int(0.95 * (len(ts) - 1))])
            rows.append(row)
            ctx.close()
        browser.close()
    server.shutdown()
    return rows


# A widget's model step, timed in the page on the reader's current input (the figure's state after it starts), by
# the experiment whose model it runs: (what is timed, a JS function of (model, state) returning the step to time).
# The translator's step is its longest for the sentence: the decoder over <bos> and every word written (the step
# that writes the end); tiny-models.js recomputes every row of the prefix at each step, as the page decodes.
WIDGET_STEPS = {
    "sa_trained": ("ViT forward (one drawing)",
                   "(m, st) => { const g = Float32Array.from(st.grid); return () => tinyModels.vit(m, g); }"),
    "ca_trained": ("translator step (decoder, longest prefix)",
                   "(m, st) => { const src = tinyModels.sourceIds(m, st.source), mem = tinyModels.encode(m, src);"
                   " const tgt = [m.config.bos, ...st.words.map(w => m.target_words.indexOf(w))];"
                   " return () => tinyModels.decode(m, mem, src.length, tgt); }"),
}
STEP_RUNS, CPU_SLOWDOWN = 60, 4


def widget_pages() -> list[tuple[str, str, str]]:
    """(language, page, widget id) for every {{ widget: }} in the first language's pages."""
    from course_build.widgets import WIDGET
    lang = course.codes()[0]
    return [(lang, page, wid) for page in course.pages()
            for wid in WIDGET.findall(course.source(lang, page).read_text(encoding="utf-8"))]


def bench_widgets(site: Path) -> list[dict]:
    from urllib.parse import urljoin

    from playwright.sync_api import sync_playwright

    from course_build.widgets import declared
    server, base = start(site)
    rows = []
    with sync_playwright() as p:
        browser = launch(p)
        for lang, page, wid in widget_pages():
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            pg = ctx.new_page()
            pg.goto(url_for(base, lang, page), wait_until="load")
            fig = f"#widget-{wid}"
            pg.locator(fig).scroll_into_view_if_needed()
            pg.wait_for_function(f"() => document.querySelector('{fig}').dataset.ready === '1'", timeout=60000)
            pg.wait_for_function(f"() => document.querySelector('{fig} .widget-view').courseState", timeout=30000)
            scripts = json.loads(pg.locator(fig).get_attribute("data-scripts"))
            files = [urljoin(pg.url, s) for s in scripts]
            sizes = {s: len(gzip.compress(pg.evaluate("(u) => fetch(u).then(r => r.text())", s).encode(), 6)) / 1024
                     for s in files}
            cdp = ctx.new_cdp_session(pg)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
            for experiment in declared()[wid]["models"]:
                what, make = WIDGET_STEPS[experiment]
                times = pg.evaluate(f"""async () => {{
                    const m = globalThis.courseModels[{json.dumps(experiment)}];
                    const step = ({make})(m, document.querySelector('{fig} .widget-view').courseState), t = [];
                    for (let i = 0; i < 5; i++) step();                      // warm: weights decoded, code compiled
                    for (let i = 0; i < {STEP_RUNS}; i++) {{
                      const t0 = performance.now(); step(); t.push(performance.now() - t0);
                      await new Promise(r => setTimeout(r, 0));
                    }}
                    return t; }}""")
                ts = sorted(times)
                model = next(v for k, v in sizes.items() if k.endswith(f"/{experiment}.js"))
                rows.append({"page": f"{lang}/{page}", "widget": wid, "step": what, "runs": len(ts),
                             "cpu_slowdown": CPU_SLOWDOWN, "step_p50_ms": statistics.median(ts),
                             "step_p95_ms": ts[int(0.95 * (len(ts) - 1))], "model_kb": model,
                             "widget_kb": sum(sizes.values()),
                             "scripts": {Path(k).name: round(v, 1) for k, v in sizes.items()}})
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            ctx.close()
        browser.close()
    server.shutdown()
    return rows


def print_widgets(rows: list[dict]) -> None:
    b = BUDGET
    print(f"\n| widget | step ({CPU_SLOWDOWN}× CPU slowdown) | p50 ms | p95 ms (≤{b['step_p95_ms']}) | model gzip KB "
          f"(≤{b['model_kb']}) | weights+code gzip KB (≤{b['widget_kb']}) |\n|---|---|--:|--:|--:|--:|")
    for r in rows:
        print(f"| {r['page']} {r['widget']} | {r['step']} | {r['step_p50_ms']:.1f} | {mark(r['step_p95_ms'], b['step_p95_ms'])} | "
              f"{mark(r['model_kb'], b['model_kb'])} | {mark(r['widget_kb'], b['widget_kb'])} |")


# Lighthouse's simulated timings move a page's score by ±2–3 points between runs on this machine (fa self-attention/block:
# 93–99 in five runs on 2026-12-06); its docs advise the median of five runs
LH_RUNS = 5


def bench_lighthouse(site: Path, pages=None, runs_per_page: int = LH_RUNS, tag: str = "") -> list[dict]:
    """Each page LH_RUNS times; the run with the median performance score is reported (and kept as
    bench/lighthouse-<lang>-<page, / as ->.json), as Lighthouse's docs advise for a score that varies run to run."""
    lh = ROOT / "node_modules" / ".bin" / "lighthouse"
    if not lh.exists():
        return [{"error": "node_modules/.bin/lighthouse is missing: run npm ci"}]
    server, base = start(site)
    rows = []
    for lang, page in pages or PAGES:
        out = ROOT / "bench" / f"lighthouse{tag}-{lang}-{page.replace('/', '-')}.json"   # a section page: chapter/section
        runs, error = [], None
        for i in range(runs_per_page):
            run_out = out.with_suffix(f".run{i}.json")
            cmd = [str(lh), url_for(base, lang, page), "--quiet", "--output=json", f"--output-path={run_out}",
                   f"--chrome-path={CHROMIUM}", "--chrome-flags=--headless=new " + " ".join(ARGS),
                   "--only-categories=performance,accessibility,best-practices,seo"]  # default preset: mobile
            proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                                  env=dict(os.environ, CHROME_PATH=CHROMIUM))
            if proc.returncode or not run_out.exists():
                error = proc.stderr.strip()[-300:]
                break
            report = json.loads(run_out.read_text())
            runs.append((report["categories"]["performance"]["score"] or 0, i, run_out, report))
        if error is not None:
            rows.append({"page": f"{lang}/{page}", "error": error})
            continue
        runs.sort(key=lambda r: (r[0], r[1]))
        _, _, median_out, report = runs[len(runs) // 2]
        median_out.replace(out)
        for _, _, other, _ in runs:
            other.unlink(missing_ok=True)
        audits = report["audits"]
        rows.append({"page": f"{lang}/{page}",
                     **{f"lh_{k.replace('-', '_')}": None if v["score"] is None else round(v["score"] * 100)
                        for k, v in report["categories"].items()},  # None: Lighthouse could not score it
                     "lh_performance_runs": sorted(round(r[0] * 100) for r in runs),
                     **{f"lh_{k}_ms": round(audits[a]["numericValue"]) for k, a in
                        (("fcp", "first-contentful-paint"), ("lcp", "largest-contentful-paint"),
                         ("tbt", "total-blocking-time"))}})
    server.shutdown()
    return rows


def mark(value, budget, higher_is_better=False) -> str:
    if value is None:
        return "—"
    ok = value >= budget if higher_is_better else value <= budget
    return f"{value:.2f}".rstrip("0").rstrip(".") + (" ✓" if ok else " ✗")


# Issue 23: the stock libraries in place of our bundle (tools/vega/: our embed.js for vega-embed, our trimmed
# vega.js for Vega's published build, voronoi.js for d3-delaunay). Vega's, Vega-Lite's and vega-embed's published
# UMD builds (node_modules, pinned in package.json; never a CDN), concatenated in that order, are what a site
# would load with `<script>` tags; here they take our bundle's file name in a copy of site/, so charts.js loads
# them unchanged (vega-embed.min.js sets window.vegaEmbed from window.vega and window.vegaLite).
STOCK_BUILDS = ("vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js", "vega-embed/build/vega-embed.min.js")
OUR_BUNDLE = "assets/vendor/vega/vega-course.min.js"


def gzip_kb(data: bytes) -> float:
    return len(gzip.compress(data, 6)) / 1024


def parsed_in_the_browser(site: Path, yes: bool) -> None:
    """The chart scripts of a copy of the site: each chart's spec with its config (`yes`: for a stock vega-embed,
    which parses in the browser as the site did before issue 25) or its runtime parsed at build time, as shipped
    (course_build/chart_scripts.py writes both the same way)."""
    from course_build import chart_scripts
    chart_scripts.write_spec_scripts(site, chart_scripts.specs_with_config if yes else chart_scripts.runtimes)


def stock_site(site: Path, dest: Path) -> bytes:
    """A copy of the built site with the stock libraries where our bundle was, its charts parsed in the browser;
    returns the stock bytes."""
    import shutil
    shutil.copytree(site, dest)
    stock = b"\n;".join((ROOT / "node_modules" / f).read_bytes() for f in STOCK_BUILDS) + b"\n"
    (dest / OUR_BUNDLE).write_bytes(stock)
    parsed_in_the_browser(dest, True)
    return stock


def measure_bytes(site: Path, pages=None, resources: bool = False) -> list[dict]:
    """first-view and all-in gzip KB of every page, as bench_pages measures them (cold cache, 1280×900, read
    to the end a screen at a time), and whether every chart drew (no timings, no slider: quick); `resources`:
    each row also lists the first view's responses, [url path, gzip bytes] (first_view_breakdown sorts them)."""
    from playwright.sync_api import sync_playwright
    server, base = start(site)
    rows = []
    with sync_playwright() as p:
        browser = launch(p)
        for lang, page in pages or PAGES:
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            pg = ctx.new_page()
            sizes, errors = [], []

            def on_response(r, sizes=sizes):
                try:
                    body = r.body()
                except Exception:
                    return
                sizes.append((r.url, len(gzip.compress(body, 6))))
            pg.on("response", on_response)
            pg.on("console", lambda m, errors=errors: m.type == "error" and errors.append(m.text[:200]))
            pg.on("pageerror", lambda e, errors=errors: errors.append(str(e)[:200]))
            pg.goto(url_for(base, lang, page), wait_until="load")
            pg.wait_for_load_state("networkidle")
            pg.wait_for_timeout(500)
            first_view = sum(s[1] for s in sizes) / 1024
            first_resources = [[u.removeprefix(base), n] for u, n in sizes]
            pg.evaluate(READ_TO_END_JS)
            charts = pg.evaluate("document.querySelectorAll('.chart-view').length")
            try:
                pg.wait_for_function(DRAWN, timeout=30000)
                drawn = charts
            except Exception:
                drawn = pg.evaluate("document.querySelectorAll('.chart-view[data-rendered=\"1\"]').length")
            pg.wait_for_load_state("networkidle")
            rows.append({"page": f"{lang}/{page}", "first_view_kb": first_view, "all_in_kb": sum(s[1] for s in sizes) / 1024,
                         "charts": charts, "drawn": drawn, "errors": errors[:3],
                         **({"first_view_resources": first_resources} if resources else {})})
            ctx.close()
        browser.close()
    server.shutdown()
    return rows


# What a first view is made of: each response's path, the first matching pattern names its kind.
KINDS = (("Vega bundle", r"/vendor/vega/"), ("chart spec + data", r"/assets/charts/"),
         ("font: math", r"/vendor/math/"), ("font: Persian page", r"/vendor/vazirmatn/"),
         ("font: chart", r"/vendor/dejavu/"), ("font: Material/other", r"\.woff2?$"),
         ("Material JS", r"/assets/javascripts/"), ("Material CSS", r"/assets/stylesheets/"),
         ("our JS", r"/assets/(js|code|solutions)/.*\.js$"), ("our CSS", r"/assets/css/"),
         ("images", r"\.(svg|png|jpe?g|webp|ico|gif)$"), ("HTML", r"(/|\.html)$"), ("other", r""))


def kind_of(path: str) -> str:
    import re
    path = "/" + path.split("?")[0].split("#")[0]
    return next(name for name, pattern in KINDS if re.search(pattern, path))


def first_view_breakdown(site: Path, pages) -> list[dict]:
    """measure_bytes on `pages`, each page's first view summed by kind of resource (gzip KB)."""
    rows = measure_bytes(site, pages, resources=True)
    for r in rows:
        kinds = {}
        for path, n in r["first_view_resources"]:
            kinds[kind_of(path)] = kinds.get(kind_of(path), 0) + n / 1024
        r["first_view_kinds"] = kinds
    return rows


def print_breakdown(rows: list[dict]) -> None:
    kinds = [k for k, _ in KINDS if any(k in r["first_view_kinds"] for r in rows)]
    print(f"\n| page | first view gzip KB (≤{BUDGET['first_view_kb']}) | " + " | ".join(kinds) + " |")
    print("|---|--:|" + "--:|" * len(kinds))
    for r in rows:
        print(f"| {r['page']} | {mark(r['first_view_kb'], BUDGET['first_view_kb'])} | " +
              " | ".join(f"{r['first_view_kinds'].get(k, 0):.1f}" for k in kinds) + " |")


# One bespoke piece at a time swapped for its stock alternative, the rest as shipped: gzip KB of the chart code
# only (esbuild, as tools/vendor_assets.py builds our bundle). Chart code is one script a chapter page loads once,
# so a page's all-in KB moves by the difference (bench_stock measures the whole swap in the browser).
PIECES = {
    "voronoi.js → d3-delaunay (vega-voronoi)": {"voronoi.js": "export {voronoi as Voronoi} from 'vega-voronoi';\n"},
    "embed.js and vega.js → vega-embed over the whole vega (Vega-Lite left out)": {
        "entry.js": "import embed from 'vega-embed';\nimport * as vega from 'vega';\nembed.vega = vega;\nglobalThis.vegaEmbed = embed;\n",
        "alias_vega": None, "absent": ("vega-lite",), "parses": True},   # the whole vega under it, as vega-embed imports it
    "vega.js → the whole vega package (our embed)": {"alias_vega": None, "absent": ()},
}


def piece_variants() -> dict:
    import shutil
    esbuild = ROOT / "node_modules" / ".bin" / "esbuild"
    from tools.vendor_assets import VEGA_ABSENT
    out = {}
    for name, change in PIECES.items():
        work = ROOT / "build" / "stock-vega"   # two levels down, as tools/vega/ is: its ../../node_modules imports hold
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(ROOT / "tools" / "vega", work)
        for f, text in change.items():
            if f.endswith(".js"):
                (work / f).write_text(text)
        aliases = [] if "alias_vega" in change else [f"--alias:vega=./{work.relative_to(ROOT)}/vega.js"]
        aliases += [f"--alias:{m}=./{work.relative_to(ROOT)}/absent.js" for m in change.get("absent", VEGA_ABSENT)]
        dest = work / "out.min.js"
        proc = subprocess.run([str(esbuild), str((work / "entry.js").relative_to(ROOT)), "--bundle", "--minify",
                               "--format=iife", "--log-level=error", f"--outfile={dest}", *aliases],
                              cwd=ROOT, capture_output=True, text=True)
        out[name] = ({"error": proc.stderr.strip()[-300:]} if proc.returncode else
                     {"kb": gzip_kb(dest.read_bytes()), "raw_kb": dest.stat().st_size / 1024, "code": dest.read_bytes()})
    shutil.rmtree(ROOT / "build" / "stock-vega", ignore_errors=True)
    return out


SIZES = ("first_view_kb", "all_in_kb")


def summary(rows: list[dict]) -> dict:
    """measure_bytes rows in a few figures: pages, charts drawn, pages over each budget, the mean and the largest."""
    return {"pages": len(rows), "charts": sum(r["charts"] for r in rows), "drawn": sum(r["drawn"] for r in rows),
            **{f"over_{k}": sum(r[k] > BUDGET[k] for r in rows) for k in SIZES},
            **{f"mean_{k}": statistics.mean(r[k] for r in rows) for k in SIZES},
            **{f"max_{k}": max(r[k] for r in rows) for k in SIZES}}


def bench_stock(site: Path) -> dict:
    """Ours against the stock libraries, page by page: chart code gzip KB, first-view and all-in gzip KB, pages
    over each budget (of all pages, and of the chapter pages: those with charts), charts drawn."""
    import tempfile
    ours_code = (site / OUR_BUNDLE).read_bytes()
    pieces = piece_variants()
    with tempfile.TemporaryDirectory() as tmp:
        stock_code = stock_site(site, Path(tmp) / "site")
        variants = {"ours": measure_bytes(site), "stock": measure_bytes(Path(tmp) / "site")}
        # each piece swapped alone, measured on the chapter pages (those with charts)
        chapter = [tuple(r["page"].split("/", 1)) for r in variants["ours"] if r["charts"]]
        for name, r in pieces.items():
            if "code" in r:
                (Path(tmp) / "site" / OUR_BUNDLE).write_bytes(r.pop("code"))
                parsed_in_the_browser(Path(tmp) / "site", PIECES[name].get("parses", False))
                rows = measure_bytes(Path(tmp) / "site", chapter)
                r.update(summary(rows), rows=rows)
    out = {"versions": {m: json.loads((ROOT / "node_modules" / m / "package.json").read_text())["version"]
                        for m in ("vega", "vega-lite", "vega-embed")},
           "chart_code_kb": {"ours": gzip_kb(ours_code), "stock": gzip_kb(stock_code)},
           "chart_code_raw_kb": {"ours": len(ours_code) / 1024, "stock": len(stock_code) / 1024},
           "pages": variants, "pieces": pieces}
    for name, rows in variants.items():
        chapter = [r for r in rows if r["charts"]]
        out[name] = {**summary(rows), "chapter_pages": len(chapter),
                     **{f"chapter_{k}": v for k, v in summary(chapter).items() if k.startswith("over_")}}
    return out


# The page machinery of our own, each left out of a copy of the built site (what the site would be without it):
# is it worth keeping? Measured on the chapter pages' bytes and with Lighthouse on the longest chapter pages.
def _vendor_cuts(copy: Path) -> None:
    """chart_fonts.py left out: each chart and page font as tools/vendor_assets.py cut it (before chart_fonts.py cut
    it again); the math font is katex.py's cut, not this stage's, and stays."""
    import shutil
    for src in (ROOT / "overrides" / "assets" / "vendor").rglob("*.woff2"):
        if src.parent.name == "math":
            continue
        dest = copy / "assets" / "vendor" / src.relative_to(ROOT / "overrides" / "assets" / "vendor")
        if dest.exists():
            shutil.copy2(src, dest)


def _in_every_page(copy: Path, pattern: str, repl: str) -> None:
    import re
    for f in copy.rglob("*.html"):
        text = f.read_text(encoding="utf-8")
        new = re.sub(pattern, repl, text)
        if new != text:
            f.write_text(new, encoding="utf-8")


OWN_PIECES = {
    "chart_fonts.py (fonts cut to what charts and pages show)": _vendor_cuts,
    "font preloads (math font near the top, Persian page font)":
        lambda copy: _in_every_page(copy, r'<link rel="preload"[^>]*as="font"[^>]*>', ""),
}


def bench_own_pieces(site: Path, longest: int = 2, runs_per_page: int = LH_RUNS, pieces: dict | None = None) -> dict:
    """Each of OWN_PIECES left out of a copy of `site`: the chapter pages' first-view and all-in gzip KB, and
    Lighthouse (mobile preset, median of `runs_per_page`) on each language's `longest` chapter pages (by HTML)."""
    import shutil
    import tempfile
    chapter = [(lang, page) for lang, page in PAGES if course.chapter_of(page)]
    size = {(lang, page): (site / course.page_path(lang, page) / "index.html").stat().st_size for lang, page in chapter}
    heavy = [p for lang in course.codes()
             for p in sorted((p for p in chapter if p[0] == lang), key=lambda p: -size[p])[:longest]]
    out = {"lighthouse_pages": [f"{lang}/{page}" for lang, page in heavy]}
    with tempfile.TemporaryDirectory() as tmp:
        for name, leave_out in {"ours": None, **(pieces or OWN_PIECES)}.items():
            copy = Path(tmp) / "site"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(site, copy)
            if leave_out:
                leave_out(copy)
            rows = measure_bytes(copy, chapter)
            lh = bench_lighthouse(copy, heavy, runs_per_page, tag="-own")
            out[name] = {**summary(rows), "lighthouse": lh}
    return out


def print_own_pieces(own: dict) -> None:
    b = BUDGET
    print(f"\n| left out (rest as built) | chapter pages first view > {b['first_view_kb']} | all-in > {b['all_in_kb']} "
          "| mean first view KB | mean all-in KB | Lighthouse performance (" + ", ".join(own["lighthouse_pages"]) +
          ") | LCP ms | charts drawn |\n|---|--:|--:|--:|--:|---|---|--:|")
    for name, r in own.items():
        if name == "lighthouse_pages":
            continue
        lh = r["lighthouse"]
        perf = ", ".join(str(x.get("lh_performance", "error")) for x in lh)
        lcp = ", ".join(str(x.get("lh_lcp_ms", "?")) for x in lh)
        print(f"| {name} | {r['over_first_view_kb']}/{r['pages']} | {r['over_all_in_kb']}/{r['pages']} | "
              f"{r['mean_first_view_kb']:.1f} | {r['mean_all_in_kb']:.1f} | {perf} | {lcp} | {r['drawn']}/{r['charts']} |")


def print_stock(stock: dict) -> None:
    b = BUDGET
    v = stock["versions"]
    print(f"\n| stock (vega {v['vega']}, vega-lite {v['vega-lite']}, vega-embed {v['vega-embed']}) vs ours | ours | stock |")
    print("|---|--:|--:|")
    print(f"| chart code gzip KB | {stock['chart_code_kb']['ours']:.1f} | {stock['chart_code_kb']['stock']:.1f} |")
    for k, label in (("first_view_kb", f"first view > {b['first_view_kb']} KB"), ("all_in_kb", f"all-in > {b['all_in_kb']} KB")):
        print(f"| pages {label} | {stock['ours'][f'over_{k}']}/{stock['ours']['pages']} | "
              f"{stock['stock'][f'over_{k}']}/{stock['stock']['pages']} |")
        print(f"| chapter pages {label} | {stock['ours'][f'chapter_over_{k}']}/{stock['ours']['chapter_pages']} | "
              f"{stock['stock'][f'chapter_over_{k}']}/{stock['stock']['chapter_pages']} |")
        print(f"| largest {k.replace('_kb', '').replace('_', '-')} gzip KB | {stock['ours'][f'max_{k}']:.0f} | "
              f"{stock['stock'][f'max_{k}']:.0f} |")
    print(f"| charts drawn | {stock['ours']['drawn']}/{stock['ours']['charts']} | {stock['stock']['drawn']}/{stock['stock']['charts']} |")
    print(f"\n| one piece swapped, the rest ours | chart code gzip KB | vs ours | chapter pages first view > {b['first_view_kb']} "
          f"| chapter pages all-in > {b['all_in_kb']} | largest all-in | charts drawn |\n|---|--:|--:|--:|--:|--:|--:|")
    for name, r in stock["pieces"].items():
        print(f"| {name} | " + (f"error: {r['error'][:80]} | | | | | |" if "error" in r else
              f"{r['kb']:.1f} | {r['kb'] - stock['chart_code_kb']['ours']:+.1f} | {r['over_first_view_kb']}/{r['pages']} | "
              f"{r['over_all_in_kb']}/{r['pages']} | {r['max_all_in_kb']:.0f} | {r['drawn']}/{r['charts']} |"))
    print("\n| page | ours first view | stock first view | ours all-in | stock all-in |\n|---|--:|--:|--:|--:|")
    for o, s in zip(stock["pages"]["ours"], stock["pages"]["stock"]):
        if o["charts"]:
            print(f"| {o['page']} | {mark(o['first_view_kb'], b['first_view_kb'])} | {mark(s['first_view_kb'], b['first_view_kb'])} | "
                  f"{mark(o['all_in_kb'], b['all_in_kb'])} | {mark(s['all_in_kb'], b['all_in_kb'])} |")


def main() -> int:
    (ROOT / "bench").mkdir(exist_ok=True)
    site = ROOT / "site"
    machine = {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version(),
               "date": time.strftime("%Y-%m-%d %H:%M")}
    data = bench_data()
    pages = bench_pages(site)
    lighthouse = bench_lighthouse(site)
    stock = bench_stock(site)
    widgets = bench_widgets(site)
    result = {"machine": machine, "budgets": BUDGET, "data": data, "pages": pages, "lighthouse": lighthouse,
              "stock": stock, "widgets": widgets}
    (ROOT / "bench" / "bench.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")

    print(f"\nmachine: {machine['platform']}, {machine['cpus']} cpus, {machine['date']}\n")
    print("| step | seconds | budget |\n|---|--:|--:|")
    for k, v in data.items():
        b = BUDGET.get(k, TRAIN_S if k.startswith("train_") else None)
        print(f"| {k} | {mark(v, b) if b else f'{v:.2f}'} | {b if b else ''} |")
    b = BUDGET
    print(f"\n| page | requests | raw KB | first view gzip KB (≤{b['first_view_kb']}) | all-in gzip KB (≤{b['all_in_kb']}) "
          f"| charts | first chart after in view ms (≤{b['in_view_ms']}) | slider p50 ms | slider p95 ms (≤{b['slider_p95_ms']}) |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in pages:
        print(f"| {r['page']} | {r['requests']} | {r['raw_kb']:.0f} | {mark(r['first_view_kb'], b['first_view_kb'])} | "
              f"{mark(r['all_in_kb'], b['all_in_kb'])} | {r['charts']} | {mark(r['in_view_ms'], b['in_view_ms'])} | "
              f"{r.get('slider_p50_ms', 0):.1f} | {mark(r.get('slider_p95_ms'), b['slider_p95_ms'])} |")
    print(f"\n| page (mobile preset, median of {LH_RUNS} runs) | performance (≥{b['lh_performance']}) | runs | FCP ms | LCP ms "
          "| TBT ms | accessibility (100) | best practices | SEO |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in lighthouse:
        if "error" in r:
            print(f"| {r.get('page', '?')} | error: {r['error'][:80]} | | | | | | | |")
            continue
        print(f"| {r['page']} | {mark(r['lh_performance'], b['lh_performance'], True)} | "
              f"{', '.join(map(str, r['lh_performance_runs']))} | {r['lh_fcp_ms']} | {r['lh_lcp_ms']} | {r['lh_tbt_ms']} | "
              f"{mark(r['lh_accessibility'], 100, True)} | {r['lh_best_practices']} | {r['lh_seo']} |")
    print_stock(stock)
    print_widgets(widgets)
    print("\nwritten: bench/bench.json")
    return 0


# One comparison alone, on the built site/: `--stock` the stock libraries, `--own` our own page machinery
# (each piece left out in turn); the figures go to bench/<name>.json.
COMPARISONS = {"--stock": ("stock", bench_stock, print_stock), "--own": ("own", bench_own_pieces, print_own_pieces),
               "--widgets": ("widgets", bench_widgets, print_widgets)}


def main_comparison(flag: str) -> int:
    name, measure, show = COMPARISONS[flag]
    (ROOT / "bench").mkdir(exist_ok=True)
    result = measure(ROOT / "site")
    (ROOT / "bench" / f"{name}.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    show(result)
    print(f"\nwritten: bench/{name}.json")
    return 0


def main_first_view(pages: list[str]) -> int:
    """`--first-view lang/page …` (no page: every page): each page's first view by kind of resource, on the built
    site/ (SITE_DIR for another), written to bench/first-view.json."""
    chosen = [tuple(p.split("/", 1)) for p in pages] or None
    rows = first_view_breakdown(Path(os.environ.get("SITE_DIR", ROOT / "site")), chosen)
    (ROOT / "bench").mkdir(exist_ok=True)
    (ROOT / "bench" / "first-view.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    print_breakdown(rows)
    print("\nwritten: bench/first-view.json")
    return 0


if __name__ == "__main__":
    if "--first-view" in sys.argv:
        sys.exit(main_first_view([a for a in sys.argv[1:] if not a.startswith("--")]))
    flag = next((a for a in sys.argv[1:] if a in COMPARISONS), None)
    sys.exit(main_comparison(flag) if flag else main())
