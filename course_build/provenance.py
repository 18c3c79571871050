"""What a page's "How these numbers were computed" part says about one experiment, read from its file.

Title (the module docstring's first line), the random seeds it sets (every manual_seed/default_rng/…
call in it and in the project modules it imports, with the constants they use), the versions of the
libraries it imports (as installed: the runner keys every experiment on them, so fresh data was made
with these), and its source file, which the page includes as it is (pymdownx.snippets).
"""
from __future__ import annotations

import ast
import importlib.metadata as md
import platform
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = ROOT / "scripts" / "experiments"
SEED_CALLS = {"manual_seed", "default_rng", "seed", "RandomState", "Random", "Generator"}


def experiment_of(dataset: str) -> str:
    """'timings:sa_cost' -> 'sa_cost': timings are measured by the experiment's own module."""
    return dataset.split(":", 1)[-1]


def source_file(name: str) -> Path:
    return EXPERIMENTS / f"{name}.py"


@lru_cache(maxsize=None)
def _tree(path: Path) -> ast.Module:
    """A source file parsed once per build (every page asks again for the experiments it shows; read only)."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@lru_cache(maxsize=None)
def _imports(path: Path) -> tuple[tuple[str, int], ...]:
    """(module, level) of every import in a file, `from a import b` also as a.b; walked once per file, not once
    per experiment that imports it."""
    out = []
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [(node.module, node.level)] + [(f"{node.module}.{a.name}", node.level) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(a.name, 0) for a in node.names]
    return tuple(out)


def _project_imports(path: Path, seen: set[Path]) -> None:
    for mod, _ in _imports(path):
        dep = ROOT / (mod.replace(".", "/") + ".py")
        if mod.startswith("scripts.") and dep.exists() and dep not in seen:
            seen.add(dep)
            _project_imports(dep, seen)


@lru_cache(maxsize=None)
def _files(name: str) -> tuple[Path, ...]:
    seen: set[Path] = set()
    _project_imports(source_file(name), seen)
    return (source_file(name), *sorted(seen - {source_file(name)}))


def _constants(tree: ast.Module) -> dict[str, str]:
    """NAME = <literal> at module level and parameter defaults, to show what a seed call uses."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out[t.id] = repr(node.value.value)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args.args[len(node.args.args) - len(node.args.defaults):]
            for a, d in zip(args, node.args.defaults):
                if isinstance(d, ast.Constant):
                    out.setdefault(a.arg, repr(d.value))
    return out


@lru_cache(maxsize=None)
def _file_seeds(path: Path) -> tuple[tuple[str, str], ...]:
    """seeds() of one file, read once per file."""
    tree = _tree(path)
    consts = _constants(tree)
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if fn not in SEED_CALLS or not node.args:
            continue
        used = sorted({n.id for a in node.args for n in ast.walk(a) if isinstance(n, ast.Name) and n.id in consts})
        note = "  # " + ", ".join(f"{n} = {consts[n]}" for n in used) if used else ""
        item = (str(path.relative_to(ROOT)), ast.unparse(node) + note)
        if item not in out:
            out.append(item)
    return tuple(out)


@lru_cache(maxsize=None)
def seeds(name: str) -> tuple[tuple[str, str], ...]:
    """(file, call) for every seeding call, e.g. ('scripts/experiments/sa_heads.py', 'torch.manual_seed(SEED)  # SEED = 4')."""
    return tuple(item for path in _files(name) for item in _file_seeds(path))


@lru_cache(maxsize=None)
def _distributions() -> dict:
    """Import name → distributions, read once a build: it lists every installed file (about half the build's time
    when read per experiment)."""
    return md.packages_distributions()


@lru_cache(maxsize=None)
def _version(dist: str) -> str:
    return md.version(dist)


@lru_cache(maxsize=None)
def libraries(name: str) -> tuple[str, ...]:
    """'numpy 2.3.1', 'torch 2.14.1' … for the third-party packages the experiment's code imports."""
    dists = _distributions()
    found = set()
    for path in _files(name):
        for mod, level in _imports(path):
            top = mod.split(".")[0]
            if level or (ROOT / top).is_dir():  # the course's own code (installed editable), not a library
                continue
            for dist in dists.get(top, []):
                found.add(f"{dist} {_version(dist)}")
    return (f"Python {platform.python_version()}", *sorted(found, key=str.lower))


@lru_cache(maxsize=None)
def title(name: str) -> str:
    doc = ast.get_docstring(_tree(source_file(name))) or ""
    return doc.strip().splitlines()[0] if doc.strip() else name


def chart_data(chart: str) -> list[str]:
    """DATA = [...] of a chart builder (read, not imported), the experiments its data table shows."""
    for node in _tree(ROOT / "scripts" / "charts" / f"{chart}.py").body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "DATA" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return []
