"""`make bench`: how fast and how light the course is, each figure beside its budget.

Prints a table and writes bench/bench.json (git-ignored; machine-dependent). Measures:
  data    `scripts.run --force`, unchanged `scripts.run`, mkdocs build, offline build, PDFs, unchanged `make site`
  pages   home and both lessons in both languages, cold cache in headless Debian chromium: bytes
          (raw and gzip), requests, time to first chart and to all charts, slider → re-render p50/p95
  lighthouse  performance, accessibility, best practices, SEO on the lesson pages (npm lighthouse 12.2.3)
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
sys.path.insert(0, str(ROOT / "tools"))
from browser import ALL_CHARTS_RENDERED, ARGS, CHROMIUM, launch  # noqa: E402
from serve import start  # noqa: E402
sys.path.insert(0, str(ROOT))
from scripts.common import course  # noqa: E402

PY = sys.executable
PAGES = [(lang, page) for page in ("index", *course.lessons()) for lang in course.codes()]
TRAIN_S = 60   # seconds each build-time training may take on 2 cores
BUDGET = {"data_force_s": 180, "data_unchanged_s": 5, "site_unchanged_s": 30, "page_gzip_kb": 450, "first_chart_ms": 1000,
          "all_charts_ms": 2000, "slider_p95_ms": 50, "lh_performance": 95, "lh_accessibility": 100}
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
        "offline_s": timed([PY, "tools/offline_copy.py"]),
        "pdf_s": timed([PY, "tools/pdf.py"]),
        "site_unchanged_s": timed(["make", "site"]),
    }


def url_for(base: str, lang: str, page: str) -> str:
    return base + course.page_path(lang, page)


SLIDER_JS = """async () => {
  // the heaviest chart that has a range input: time from input to the view re-rendered
  const figs = [...document.querySelectorAll('figure.chart')].filter(f => f.querySelector('input[type=range]'));
  if (!figs.length) return null;
  figs.sort((a, b) => b.querySelector('.chart-view').dataset.spec.length - a.querySelector('.chart-view').dataset.spec.length);
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
    await new Promise(r => requestAnimationFrame(() => r()));
    times.push(performance.now() - t0);
  }
  return {chart: el.dataset.chart, times};
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
            pg.wait_for_function(ALL_CHARTS_RENDERED,
                                 timeout=30000)
            pg.wait_for_load_state("networkidle")
            times = pg.evaluate("[...document.querySelectorAll('.chart-view')].map(e => +e.dataset.renderedAt)")
            slider = pg.evaluate(SLIDER_JS)
            row = {"page": f"{lang}/{page}", "requests": len(sizes),
                   "raw_kb": sum(s[1] for s in sizes) / 1024, "gzip_kb": sum(s[2] for s in sizes) / 1024,
                   "charts": len(times),
                   "first_chart_ms": min(times) if times else None, "all_charts_ms": max(times) if times else None}
            if slider:
                ts = sorted(slider["times"])
                row.update(slider_chart=slider["chart"], slider_p50_ms=statistics.median(ts),
                           slider_p95_ms=ts[int(0.95 * (len(ts) - 1))])
            rows.append(row)
            ctx.close()
        browser.close()
    server.shutdown()
    return rows


def bench_lighthouse(site: Path) -> list[dict]:
    lh = ROOT / "node_modules" / ".bin" / "lighthouse"
    if not lh.exists():
        return [{"error": "node_modules/.bin/lighthouse is missing: run npm ci"}]
    server, base = start(site)
    rows = []
    for lang, page in PAGES:
        if page == "index":
            continue
        out = ROOT / "bench" / f"lighthouse-{lang}-{page}.json"
        cmd = [str(lh), url_for(base, lang, page), "--quiet", "--output=json", f"--output-path={out}",
               f"--chrome-path={CHROMIUM}", "--chrome-flags=--headless=new " + " ".join(ARGS),
               "--only-categories=performance,accessibility,best-practices,seo", "--preset=desktop"]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                              env=dict(os.environ, CHROME_PATH=CHROMIUM))
        if proc.returncode or not out.exists():
            rows.append({"page": f"{lang}/{page}", "error": proc.stderr.strip()[-300:]})
            continue
        cats = json.loads(out.read_text())["categories"]
        rows.append({"page": f"{lang}/{page}", **{f"lh_{k.replace('-', '_')}": round(v["score"] * 100) for k, v in cats.items()}})
    server.shutdown()
    return rows


def mark(value, budget, higher_is_better=False) -> str:
    if value is None:
        return "—"
    ok = value >= budget if higher_is_better else value <= budget
    return f"{value:.2f}".rstrip("0").rstrip(".") + (" ✓" if ok else " ✗")


def main() -> int:
    (ROOT / "bench").mkdir(exist_ok=True)
    site = ROOT / "site"
    machine = {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version(),
               "date": time.strftime("%Y-%m-%d %H:%M")}
    data = bench_data()
    pages = bench_pages(site)
    lighthouse = bench_lighthouse(site)
    result = {"machine": machine, "budgets": BUDGET, "data": data, "pages": pages, "lighthouse": lighthouse}
    (ROOT / "bench" / "bench.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")

    print(f"\nmachine: {machine['platform']}, {machine['cpus']} cpus, {machine['date']}\n")
    print("| step | seconds | budget |\n|---|--:|--:|")
    for k, v in data.items():
        b = BUDGET.get(k, TRAIN_S if k.startswith("train_") else None)
        print(f"| {k} | {mark(v, b) if b else f'{v:.2f}'} | {b if b else ''} |")
    print("\n| page | requests | raw KB | gzip KB (≤450) | charts | first chart ms (≤1000) | all charts ms (≤2000) | slider p50 ms | slider p95 ms (≤50) |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in pages:
        print(f"| {r['page']} | {r['requests']} | {r['raw_kb']:.0f} | {mark(r['gzip_kb'], 450)} | {r['charts']} | "
              f"{mark(r['first_chart_ms'], 1000)} | {mark(r['all_charts_ms'], 2000)} | "
              f"{r.get('slider_p50_ms', 0):.1f} | {mark(r.get('slider_p95_ms'), 50)} |")
    print("\n| page | performance (≥95) | accessibility (100) | best practices | SEO |\n|---|--:|--:|--:|--:|")
    for r in lighthouse:
        if "error" in r:
            print(f"| {r.get('page', '?')} | error: {r['error'][:80]} | | | |")
            continue
        print(f"| {r['page']} | {mark(r['lh_performance'], 95, True)} | {mark(r['lh_accessibility'], 100, True)} | "
              f"{r['lh_best_practices']} | {r['lh_seo']} |")
    print("\nwritten: bench/bench.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
