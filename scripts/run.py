"""Run every experiment and chart builder once; write generated/ deterministically.

    python -m scripts.run            recompute what changed (content-hash manifest)
    python -m scripts.run --force    recompute everything
    python -m scripts.run --check    fail, naming files, when generated/ is stale
    python -m scripts.run --timings  also re-measure machine-dependent timings (only this flag does)

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

from scripts.common import jsonio, processes

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
GEN = ROOT / "generated"
MANIFEST = GEN / "manifest.json"
LIBS = ("numpy", "torch", "torchvision", "altair", "vl-convert-python")


def names(folder: str) -> list[str]:
    return sorted(p.stem for p in (SCRIPTS / folder).glob("*.py") if not p.stem.startswith("_"))


from scripts.common.i18n import Reading, languages, shared_schema, strings as i18n, strings_problems, tree  # noqa: E402


def lib_versions() -> dict:
    out = {"python": platform.python_version()}
    for lib in LIBS:
        try:
            out[lib] = md.version(lib)
        except md.PackageNotFoundError:
            out[lib] = None
    return out


# Each file is read once per content: one run keys 42 charts in each language over the same ~70 modules, which
# re-parsed every file hundreds of times (`make data` with nothing to do: 2.9 s, most of it here). Kept by path
# with the text it was made from, so a long-lived process (mkdocs serve) sees every edit: its tree, and what is
# derived from the tree as it is first asked for (the dump, the imported names).
_KNOWN: dict[Path, dict] = {}


def _known(path: Path) -> dict:
    import ast
    text = path.read_text(encoding="utf-8")
    kept = _KNOWN.get(path)
    if kept is None or kept["text"] != text:
        try:
            tree = ast.parse(text, filename=str(path))
        except SyntaxError as err:
            raise SystemExit(f"{path.relative_to(ROOT)}:{err.lineno}: syntax error ({err.msg}): "
                             "fix it, then run `make data`") from None
        kept = _KNOWN[path] = {"text": text, "tree": tree}
    return kept


def parse(path: Path):
    """A project file's syntax tree; a syntax error stops the run naming the file and line."""
    return _known(path)["tree"]


def code_text(path: Path) -> str:
    """What a module does, without its comments and layout: a comment-only edit keeps every key
    (and so the manifest and all of generated/) byte-identical."""
    import ast
    kept = _known(path)
    if "dump" not in kept:
        kept["dump"] = f"{path.relative_to(ROOT)}\n{ast.dump(kept['tree'])}"
    return kept["dump"]


def module_file(mod: str) -> Path | None:
    """The project file of a dotted module name under scripts/, or None (a library)."""
    if mod != "scripts" and not mod.startswith("scripts."):
        return None
    base = ROOT / mod.replace(".", "/")
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


def imported_names(path: Path) -> list[str]:
    """The dotted names a file imports (relative imports made absolute), read once per content of the file."""
    import ast
    kept = _known(path)
    if "names" in kept:
        return kept["names"]
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names = []
    for node in ast.walk(kept["tree"]):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from . import x / from .x import y
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names += [base] + [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names]
    kept["names"] = names
    return names


def local_imports(path: Path, seen: set | None = None) -> set:
    """Every project module (scripts/…) a file imports, followed transitively: common helpers,
    experiments imported by experiments, chart helpers (read, not imported)."""
    seen = set() if seen is None else seen
    for mod in imported_names(path):
        dep = module_file(mod)  # looked up each time: a module may be added or deleted while mkdocs serve runs
        if dep is not None and dep != path and dep not in seen:
            seen.add(dep)
            local_imports(dep, seen)
    return seen


def experiment_key(name: str, versions: dict) -> str:
    """Changes when what the module does changes, or any project module it imports (transitively),
    the JSON rules that shape its file (scripts/common/jsonio.py), or a library version."""
    src = SCRIPTS / "experiments" / f"{name}.py"
    deps = local_imports(src) | {SCRIPTS / "common" / "jsonio.py"}
    parts = [code_text(src)] + [code_text(p) for p in sorted(deps - {src})]
    parts.append(json.dumps(versions, sort_keys=True))
    return jsonio.sha256("\0".join(parts))


def shared_chart_modules() -> list[Path]:
    """The renderer and helpers every chart uses (scripts/charts/_*.py) and what they import."""
    shared = set((SCRIPTS / "charts").glob("_*.py"))
    for p in list(shared):
        shared |= local_imports(p)
    return sorted(shared)


def data_hash(name: str) -> str | None:
    """The content of an experiment's data file: a chart depends on the numbers, not on the code."""
    p = GEN / "data" / f"{name}.json"
    return jsonio.sha256(p.read_bytes()) if p.exists() else None


def font_hash(family: str) -> str:
    from scripts.common import fonts
    return jsonio.sha256(b"".join(jsonio.sha256(p.read_bytes()).encode() for p in fonts.files(family)))


def chart_key(chart: str, lang: str, deps: list[str], strings: dict, versions: dict, shared: list[Path]) -> str:
    """Changes when the builder (or a module it imports), a shared chart module, the chart's strings,
    the language's chart font, the content of the data it reads, or a library version changes."""
    src = SCRIPTS / "charts" / f"{chart}.py"
    from scripts.common import fonts
    family = fonts.family(lang)
    parts = [code_text(src),
             *(code_text(p) for p in sorted(local_imports(src) | set(shared))),
             json.dumps(strings["charts"][chart], sort_keys=True, ensure_ascii=False),
             json.dumps({d: data_hash(d) for d in deps}, sort_keys=True),
             json.dumps({"font": family, "files": font_hash(family)}, sort_keys=True),
             json.dumps(versions, sort_keys=True)]
    return jsonio.sha256("\0".join(parts))


def chart_deps(chart: str) -> list[str]:
    """DATA = [...] read from the builder's source, so a skip needs no import."""
    import ast
    tree = parse(SCRIPTS / "charts" / f"{chart}.py")
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "DATA" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise SystemExit(f"scripts/charts/{chart}.py: add DATA = ['<experiment>', ...] naming the data it reads")


def defines(name: str, function: str) -> bool:
    """True when the experiment defines `function` at its top level (read from the source: no import)."""
    import ast
    return any(isinstance(n, ast.FunctionDef) and n.name == function
               for n in parse(SCRIPTS / "experiments" / f"{name}.py").body)


def has_measure(name: str) -> bool:
    """True when the experiment defines measure() (so generated/timings/<name>.json is its output)."""
    return defines(name, "measure")


def model_file(name: str) -> Path | None:
    """generated/models/<name>.js when the experiment defines export() (a trained model the page runs), else None."""
    return GEN / "models" / f"{name}.js" if defines(name, "export") else None


CHART_SUFFIXES = (".json", ".vg.json", ".svg", ".table.json")


def expected_files() -> set[Path]:
    """Every file in generated/ that a current experiment or builder produces (plus the manifest)."""
    out = {MANIFEST, GEN / ".lock"}
    for name in names("experiments"):
        out.add(GEN / "data" / f"{name}.json")
        if model_file(name):
            out.add(model_file(name))
        if has_measure(name):
            out.add(GEN / "timings" / f"{name}.json")
    for lang in languages():
        for chart in names("charts"):
            out |= {GEN / "charts" / lang / f"{chart}{s}" for s in CHART_SUFFIXES}
    return out


def orphans() -> list[Path]:
    """Files in generated/ that no current experiment or builder produces (a deleted module's
    leftovers, a hand-made file): pages must not be able to show them."""
    expected = expected_files()
    return sorted(p for p in GEN.rglob("*") if p.is_file() and p not in expected)


# What the runner writes in the manifest: per experiment and per "<lang>/<chart>", the key its inputs gave
# and the digest of each output. Checked when read, so a hand-edited or foreign file is refused, not half-used.
_ENTRY = {"type": "object", "required": ["key", "outputs"],
          "properties": {"key": {"type": "string"},
                         "outputs": {"type": "object", "additionalProperties": {"type": "string"}}}}
MANIFEST_SCHEMA = {"type": "object", "additionalProperties": False,
                   "properties": {"experiments": {"type": "object", "additionalProperties": _ENTRY},
                                  "charts": {"type": "object", "additionalProperties": _ENTRY}}}


def read_manifest() -> dict:
    if not MANIFEST.exists():
        return {}
    rel = MANIFEST.relative_to(ROOT)
    try:
        manifest = jsonio.read(MANIFEST)
    except (ValueError, UnicodeDecodeError) as err:
        raise SystemExit(f"{rel} is corrupt ({err}): run `make data FORCE=1` "
                         "(python -m scripts.run --force), which recomputes everything and rewrites it") from None
    import jsonschema
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(MANIFEST_SCHEMA).iter_errors(manifest))
    if error is not None:
        where = ".".join(map(str, error.absolute_path)) or "the top"
        raise SystemExit(f"{rel} is not a manifest this runner wrote (at {where}: {error.message}): run "
                         "`make data FORCE=1` (python -m scripts.run --force), which recomputes everything and rewrites it")
    return manifest


def fresh(entry: dict | None, key: str) -> bool:
    """True when the manifest entry was made from these inputs and its outputs are untouched."""
    if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("outputs"), dict):
        return False
    for rel, digest in entry["outputs"].items():
        p = ROOT / rel
        if not p.exists() or jsonio.sha256(p.read_bytes()) != digest:
            return False
    return True


def plan_experiments(manifest: dict, versions: dict) -> list:
    """Stale experiments: [(name, key)]."""
    exps = []
    for name in names("experiments"):
        key = experiment_key(name, versions)
        if not fresh(manifest.get("experiments", {}).get(name), key):
            exps.append((name, key))
    return exps


def plan_charts(manifest: dict, versions: dict) -> list:
    """Stale charts given the data files as they are now: [(chart, lang, key)]."""
    known = set(names("experiments"))
    shared = shared_chart_modules()
    charts = []
    for lang in languages():
        strings = i18n(lang)
        for chart in names("charts"):
            deps = chart_deps(chart)
            unknown = [d for d in deps if d not in known]
            if unknown:
                raise SystemExit(f"scripts/charts/{chart}.py reads unknown experiment(s) {unknown}")
            key = chart_key(chart, lang, deps, strings, versions, shared)
            if not fresh(manifest.get("charts", {}).get(f"{lang}/{chart}"), key):
                charts.append((chart, lang, key))
    return charts


# A chart's title and description are shown by its page (course_build/refs.py, course_build/home.py) and print_caption on
# paper (tools/pdf.py), whatever its builder reads: every chart has them.
PAGE_KEYS = ("title", "description", "print_caption")
WRAPPED = ("(a string wrapped onto a next line that holds ': ' turns that line into a key: put the string back "
           "on one line, quote it or fold it with >-)")


def strings_schema(lang: str, trees: dict, reads: dict) -> dict:
    """What the language's strings may hold, as a JSON Schema: the keys every language has and no other
    (a key one language alone has is a wrapped line or a missing translation); under `charts`, one entry per
    builder, each with PAGE_KEYS; and where its builder was run in this process (reads["<lang>/<chart>"]:
    the keys it read), only the keys it read and PAGE_KEYS. Unread keys are refused even when every
    language has them: nothing would show them."""
    nodes = list(trees.values())
    schema = shared_schema(nodes, "every language needs the same keys and not all have this one: add it to "
                                  f"those that lack it, or remove it {WRAPPED}")
    schema.setdefault("properties", {})
    schema["required"] = ["charts"]
    charts = {}
    for chart in names("charts"):
        node = shared_schema([n.get("charts", {}).get(chart, {}) for n in nodes], schema["x-unknown"])
        node.update(required=list(PAGE_KEYS), **{"x-missing": "every chart's page and PDF show it: add it"})
        if f"{lang}/{chart}" in reads:
            read = sorted(set(reads[f"{lang}/{chart}"]) | set(PAGE_KEYS))
            node["properties"] = {k: node.get("properties", {}).get(k, {}) for k in read}
            node["x-unknown"] = (f"scripts/charts/{chart}.py does not read it, nor do the page and PDF "
                                 f"({', '.join(PAGE_KEYS)}): remove it, or read it in the builder {WRAPPED}")
        charts[chart] = node
    schema["properties"]["charts"] = {
        "type": "object", "properties": charts, "required": list(charts), "additionalProperties": False,
        "x-unknown": "no scripts/charts/{key}.py draws such a chart: remove it, or write the builder",
        "x-missing": "scripts/charts/{key}.py draws it: add its strings (" + ", ".join(PAGE_KEYS) + ", and what it reads)"}
    return schema


def check_strings(reads: dict) -> None:
    """Refuse strings no code reads and strings code needs that are missing, naming file, key and what to do.
    Run before anything is computed (reads empty), and again after the charts were drawn, with the keys each
    builder read (the manifest is not written then, so `make check-data` still calls those charts stale)."""
    trees = {lang: tree(lang) for lang in languages()}
    problems = [p for lang in trees for p in strings_problems(lang, trees[lang], strings_schema(lang, trees, reads))]
    if problems:
        raise SystemExit("strings the site cannot show right (scripts/i18n/):\n  " + "\n  ".join(problems))


def run_experiment(name: str) -> tuple[dict, object]:
    mod = importlib.import_module(f"scripts.experiments.{name}")
    data = mod.compute()
    try:
        text = jsonio.dumps(data)
    except jsonio.DataError as err:
        raise SystemExit(f"scripts/experiments/{name}.py: compute() returned {err}: fix the computation "
                         "(generated/ holds finite, plain JSON numbers only)") from None
    out = GEN / "data" / f"{name}.json"
    jsonio.write_if_changed(out, text)
    outputs = {str(out.relative_to(ROOT)): jsonio.sha256(text)}
    model = model_file(name)
    if model:   # export() writes the model compute() just trained, in this process (scripts/common/weights.py)
        script = mod.export()
        jsonio.write_if_changed(model, script)
        outputs[str(model.relative_to(ROOT))] = jsonio.sha256(script)
    return outputs, mod


SIDE_BY_SIDE_FROM = 4   # fewer jobs run in this process: starting a process (imports) costs more than they do


def side_by_side(fn, jobs: list[tuple]):
    """Yield (args, fn(*args)) for every `args` of `jobs` as it ends: SIDE_BY_SIDE_FROM jobs or more side by side
    in spawned processes (scripts/common/processes.py), started in the order given; fewer, here, one after
    another. Run one after another, the experiments left a core waiting through every short one and every chart
    (`make data FORCE=1` 344 s on 2 cores). fn must be module-level."""
    return processes.side_by_side(fn, jobs, here=len(jobs) < SIDE_BY_SIDE_FROM)


def compute_one(name: str, first_timings: bool) -> tuple[dict, float]:
    """run_experiment(name) and its seconds; with `first_timings`, also its timings when it has none yet (a new
    experiment's first; re-measured only when asked), in the same process, whose compute() they may reuse."""
    t0 = time.perf_counter()
    outputs, mod = run_experiment(name)
    seconds = time.perf_counter() - t0
    if first_timings and not (GEN / "timings" / f"{name}.json").exists():
        measure_timings(name, mod)
    return outputs, seconds


def build_one(chart: str, lang: str) -> tuple[dict, set, float]:
    """run_chart(chart, lang) and its seconds."""
    t0 = time.perf_counter()
    return (*run_chart(chart, lang), time.perf_counter() - t0)


def run_chart(chart: str, lang: str) -> tuple[dict, set]:
    """The chart's files, and the keys of its strings the builder read (for check_strings)."""
    from scripts.charts._render import render
    strings = i18n(lang)
    t = strings["charts"][chart] = Reading(strings["charts"][chart])
    return render(chart, lang, strings), t.read


def measure_timings(name: str, mod, folder: Path | None = None) -> None:
    """generated/timings/<name>.json, or <folder>/<name>.json (tools/bench.py measures without touching the tree)."""
    if not hasattr(mod, "measure"):
        return
    t0 = time.perf_counter()
    result = mod.measure()
    machine = {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
               "cpus": __import__("os").cpu_count(), "python": platform.python_version(),
               "torch": lib_versions().get("torch"), "measured": time.strftime("%Y-%m-%d")}
    out = (folder or GEN / "timings") / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    jsonio.write_if_changed(out, jsonio.dumps({"machine": machine, "result": result}))
    print(f"  timed    {name:<28} {time.perf_counter() - t0:6.2f} s  ({out.relative_to(ROOT) if out.is_relative_to(ROOT) else out})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--force", action="store_true", help="recompute everything")
    ap.add_argument("--check", action="store_true", help="fail when generated/ is stale")
    ap.add_argument("--timings", action="store_true", help="re-measure timings (machine-dependent); the only "
                    "thing that does: --force recomputes data and charts, not timings")
    ap.add_argument("--timings-dir", type=Path, default=None,
                    help="with --timings: write them here instead of generated/timings/ (tools/bench.py)")
    args = ap.parse_args(argv)
    import fcntl
    from scripts.common.i18n import StringsError
    GEN.mkdir(exist_ok=True)
    with open(GEN / ".lock", "w") as lock:  # two runs at once would race on the manifest
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return _run(args)
        except StringsError as err:  # a YAML error or a missing string: the message names file and key
            raise SystemExit(str(err)) from None


def _run(args) -> int:
    t_start = time.perf_counter()
    manifest = {} if args.force else read_manifest()  # FORCE recovers from a corrupt manifest
    check_strings({})
    versions = lib_versions()
    exps = plan_experiments(manifest, versions)
    if args.check:
        stale = [f"generated/data/{n}.json (scripts/experiments/{n}.py)" for n, _ in exps]
        stale += [f"generated/charts/{l}/{c}.json (scripts/charts/{c}.py)"
                  for c, l, _ in plan_charts(manifest, versions)]
        extra = [f"{p.relative_to(ROOT)} (no experiment or chart builder makes it)" for p in orphans()]
        if stale or extra:
            print("generated/ is stale; run `make data` and commit generated/:\n  " + "\n  ".join(stale + extra))
            return 1
        print("generated/ is fresh")
        return 0
    manifest.setdefault("experiments", {})
    manifest.setdefault("charts", {})
    n_exp, n_chart = len(names("experiments")), len(names("charts")) * len(languages())
    keys = dict(exps)
    # the experiments that train a model the page runs first: they are the longest (each trains its seeds in
    # processes of its own), so the short ones fill in around them
    order = sorted(keys, key=lambda name: model_file(name) is None)
    for (name, _), (outputs, seconds) in side_by_side(compute_one, [(name, not args.timings) for name in order]):
        manifest["experiments"][name] = {"key": keys[name], "outputs": outputs}
        print(f"  computed {name:<28} {seconds:6.2f} s", flush=True)
    if args.timings:  # only this flag re-measures (not --force: timings are machine-dependent)
        for name in names("experiments"):
            measure_timings(name, importlib.import_module(f"scripts.experiments.{name}"), args.timings_dir)
    # Charts are planned after the data is written: a chart is redrawn only when the numbers it
    # reads (or its own inputs) changed, not when an experiment was merely recomputed.
    charts = plan_charts(manifest, versions)
    keys = {(chart, lang): key for chart, lang, key in charts}
    reads = {}
    for (chart, lang), (outputs, read, seconds) in side_by_side(build_one, list(keys)):
        reads[f"{lang}/{chart}"] = read
        manifest["charts"][f"{lang}/{chart}"] = {"key": keys[chart, lang], "outputs": outputs}
        print(f"  built    {lang}/{chart:<25} {seconds:6.2f} s", flush=True)
    if reads:  # a chart's strings changed or it was drawn anew: its builder says which keys it reads
        check_strings(reads)
    # Forget entries whose module was deleted, so the manifest describes exactly what exists.
    manifest["experiments"] = {k: v for k, v in manifest["experiments"].items() if k in names("experiments")}
    manifest["charts"] = {k: v for k, v in manifest["charts"].items()
                          if k.split("/")[0] in languages() and k.split("/")[-1] in names("charts")}
    for p in orphans():
        p.unlink()
        print(f"  removed  {p.relative_to(ROOT)} (no experiment or chart builder makes it)")
    for d in sorted((p for p in GEN.rglob("*") if p.is_dir()), reverse=True):
        if not any(d.iterdir()):
            d.rmdir()
    jsonio.write_if_changed(MANIFEST, jsonio.dumps(manifest, round_floats=False))
    print(f"data: {len(exps)}/{n_exp} experiments computed, {n_exp - len(exps)} skipped; "
          f"{len(charts)}/{n_chart} charts built, {n_chart - len(charts)} skipped; "
          f"{time.perf_counter() - t_start:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
