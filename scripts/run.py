"""Run every experiment and chart builder once; write generated/ deterministically.

    python -m scripts.run            recompute what changed (content-hash manifest)
    python -m scripts.run --force    recompute everything
    python -m scripts.run --check    fail, naming files, when generated/ is stale
    python -m scripts.run --timings  also re-measure machine-dependent timings

Nothing here is imported by the site; pages only read generated/.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.metadata as md
import json
import platform
import sys
import time
from pathlib import Path

from scripts.common import jsonio

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
GEN = ROOT / "generated"
MANIFEST = GEN / "manifest.json"
LIBS = ("numpy", "torch", "torchvision", "altair", "vl-convert-python")


def names(folder: str) -> list[str]:
    return sorted(p.stem for p in (SCRIPTS / folder).glob("*.py") if not p.stem.startswith("_"))


from scripts.common.i18n import languages, strings as i18n  # noqa: E402


def lib_versions() -> dict:
    out = {"python": platform.python_version()}
    for lib in LIBS:
        try:
            out[lib] = md.version(lib)
        except md.PackageNotFoundError:
            out[lib] = None
    return out


def local_imports(path: Path, seen: set | None = None) -> set:
    """scripts/common modules a file imports, followed through each other (read, not imported)."""
    import ast
    seen = set() if seen is None else seen
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        mods = []
        if isinstance(node, ast.ImportFrom) and node.module:
            mods = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        for mod in mods:
            dep = ROOT / (mod.replace(".", "/") + ".py")
            if mod.startswith("scripts.common") and dep.exists() and dep not in seen:
                seen.add(dep)
                local_imports(dep, seen)
    return seen


def experiment_key(name: str, versions: dict) -> str:
    """Changes when the module, a scripts/common module it uses, or a library version changes."""
    src = SCRIPTS / "experiments" / f"{name}.py"
    parts = [src.read_text(encoding="utf-8")]
    parts += [p.read_text(encoding="utf-8") for p in sorted(local_imports(src))]
    parts.append(json.dumps(versions, sort_keys=True))
    return jsonio.sha256("\0".join(parts))


def chart_key(chart: str, deps: list[str], strings: dict, data_hashes: dict, versions: dict) -> str:
    src = SCRIPTS / "charts" / f"{chart}.py"
    parts = [src.read_text(encoding="utf-8"),
             *(p.read_text(encoding="utf-8") for p in sorted(local_imports(src))),
             json.dumps(strings, sort_keys=True, ensure_ascii=False),
             json.dumps({d: data_hashes.get(d) for d in deps}, sort_keys=True),
             json.dumps(versions, sort_keys=True)]
    shared = sorted((SCRIPTS / "charts").glob("_*.py"))  # the renderer and helpers every chart uses
    shared += sorted(set().union(*(local_imports(p) for p in shared)))
    parts += [p.read_text(encoding="utf-8") for p in shared]
    return jsonio.sha256("\0".join(parts))


def chart_deps(chart: str) -> list[str]:
    """DATA = [...] read from the builder's source, so a skip needs no import."""
    import ast
    tree = ast.parse((SCRIPTS / "charts" / f"{chart}.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "DATA" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise SystemExit(f"scripts/charts/{chart}.py: add DATA = ['<experiment>', ...] naming the data it reads")


def fresh(entry: dict | None, key: str) -> bool:
    """True when the manifest entry was made from these inputs and its outputs are untouched."""
    if not entry or entry.get("key") != key:
        return False
    for rel, digest in entry["outputs"].items():
        p = ROOT / rel
        if not p.exists() or jsonio.sha256(p.read_bytes()) != digest:
            return False
    return True


def plan(manifest: dict) -> tuple[list, list]:
    """Which experiments and charts are stale: [(name, key)], [(chart, lang, key)]."""
    versions = lib_versions()
    exps, stale_names = [], set()
    data_hashes = {}
    for name in names("experiments"):
        key = experiment_key(name, versions)
        data_hashes[name] = key
        if not fresh(manifest.get("experiments", {}).get(name), key):
            exps.append((name, key))
            stale_names.add(name)
    charts = []
    for lang in languages():
        strings = i18n(lang).get("charts", {})
        for chart in names("charts"):
            deps = chart_deps(chart)
            unknown = [d for d in deps if d not in data_hashes]
            if unknown:
                raise SystemExit(f"scripts/charts/{chart}.py reads unknown experiment(s) {unknown}")
            if chart not in strings:
                raise SystemExit(f"scripts/i18n/{lang}/ has no charts.{chart}: add its strings")
            key = chart_key(chart, deps, strings[chart], data_hashes, versions)
            if not fresh(manifest.get("charts", {}).get(f"{lang}/{chart}"), key):
                charts.append((chart, lang, key))
    return exps, charts


def run_experiment(name: str) -> tuple[dict, dict]:
    mod = importlib.import_module(f"scripts.experiments.{name}")
    data = mod.compute()
    text = jsonio.dumps(data)
    out = GEN / "data" / f"{name}.json"
    jsonio.write_if_changed(out, text)
    return {str(out.relative_to(ROOT)): jsonio.sha256(text)}, mod


def run_chart(chart: str, lang: str) -> dict:
    from scripts.charts._render import render
    return render(chart, lang, i18n(lang))


def measure_timings(name: str, mod) -> None:
    if not hasattr(mod, "measure"):
        return
    t0 = time.perf_counter()
    result = mod.measure()
    machine = {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
               "cpus": __import__("os").cpu_count(), "python": platform.python_version(),
               "torch": lib_versions().get("torch"), "measured": time.strftime("%Y-%m-%d")}
    jsonio.write_if_changed(GEN / "timings" / f"{name}.json",
                            jsonio.dumps({"machine": machine, "result": result}))
    print(f"  timed    {name:<28} {time.perf_counter() - t0:6.2f} s  (generated/timings/{name}.json)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--force", action="store_true", help="recompute everything")
    ap.add_argument("--check", action="store_true", help="fail when generated/ is stale")
    ap.add_argument("--timings", action="store_true", help="re-measure timings (machine-dependent)")
    args = ap.parse_args(argv)
    import fcntl
    GEN.mkdir(exist_ok=True)
    with open(GEN / ".lock", "w") as lock:  # two runs at once would race on the manifest
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _run(args)


def _run(args) -> int:
    t_start = time.perf_counter()
    manifest = jsonio.read(MANIFEST) if MANIFEST.exists() else {}
    if args.force:
        manifest = {}
    exps, charts = plan(manifest)
    if args.check:
        stale = [f"generated/data/{n}.json (scripts/experiments/{n}.py)" for n, _ in exps]
        stale += [f"generated/charts/{l}/{c}.json (scripts/charts/{c}.py)" for c, l, _ in charts]
        if stale:
            print("generated/ is stale; run `make data` and commit generated/:\n  " + "\n  ".join(stale))
            return 1
        print("generated/ is fresh")
        return 0
    manifest.setdefault("experiments", {})
    manifest.setdefault("charts", {})
    n_exp, n_chart = len(names("experiments")), len(names("charts")) * len(languages())
    for name, key in exps:
        t0 = time.perf_counter()
        outputs, mod = run_experiment(name)
        manifest["experiments"][name] = {"key": key, "outputs": outputs}
        print(f"  computed {name:<28} {time.perf_counter() - t0:6.2f} s")
        if args.timings or args.force or not (GEN / "timings" / f"{name}.json").exists():
            measure_timings(name, mod)
    if args.timings and not exps:
        for name in names("experiments"):
            measure_timings(name, importlib.import_module(f"scripts.experiments.{name}"))
    for chart, lang, key in charts:
        t0 = time.perf_counter()
        manifest["charts"][f"{lang}/{chart}"] = {"key": key, "outputs": run_chart(chart, lang)}
        print(f"  built    {lang}/{chart:<25} {time.perf_counter() - t0:6.2f} s")
    # Forget entries whose module was deleted, so the manifest describes exactly what exists.
    manifest["experiments"] = {k: v for k, v in manifest["experiments"].items() if k in names("experiments")}
    manifest["charts"] = {k: v for k, v in manifest["charts"].items()
                          if k.split("/")[0] in languages() and k.split("/")[1] in names("charts")}
    jsonio.write_if_changed(MANIFEST, jsonio.dumps(manifest, round_floats=False))
    print(f"data: {len(exps)}/{n_exp} experiments computed, {n_exp - len(exps)} skipped; "
          f"{len(charts)}/{n_chart} charts built, {n_chart - len(charts)} skipped; "
          f"{time.perf_counter() - t_start:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
