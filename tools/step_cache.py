"""Skip a build step of `make site` (the offline copy, the PDFs) when nothing it is made from changed.

A step is skipped when the content hash of its inputs equals the one recorded after its last successful
run AND every output it recorded is still there with the same bytes; mtimes are never trusted for this.
Inputs are everything that can change the output, on the side of including: the sources (INPUTS: docs,
generated data, the page assembly (course_build/), overrides with the vendored files, scripts, tools, mkdocs.yml, the pinned package
lists), the installed Python and npm packages, Python's and node's versions, the mkdocs.yml switches read
from the environment; each step adds its own (the PDFs: the offline copy they print, chromium's version,
the system fonts, today's date on the cover).
A skipped step touches its outputs, so tests/conftest.py's guard (an output older than an input is stale)
holds: the outputs are as new as a rebuild would make them, because a rebuild would make the same thing.
Records: build/stamps/<step>.json = {"inputs": <hash>, "outputs": {<path>: <sha256>}}.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from scripts.common.paths import BUILD

STAMPS = BUILD / "stamps"
# Every source a build of the site reads (tests/test_step_cache.py checks tests/conftest.py's SITE_INPUTS are among them)
INPUTS = ("mkdocs.yml", "docs", "generated", "course_build", "overrides", "scripts", "tools", "requirements.txt",
          "package.json", "package-lock.json", "node_modules/.package-lock.json", "LICENSE", "LICENSE-text.md")
ENV_SWITCHES = ("SITE_URL", "SITE_DIR", "USE_DIRECTORY_URLS", "OFFLINE", "REQUIRE_DOWNLOADS")  # mkdocs.yml's !ENV
SKIP_PARTS = {"__pycache__", ".pytest_cache"}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def files(paths, root: Path = ROOT, ignore=lambda p: False) -> list[Path]:
    """The files under `paths` (files or folders, relative to root or absolute), sorted; a missing path is none."""
    out = []
    for name in paths:
        p = root / name
        found = [p] if p.is_file() else (f for f in p.rglob("*") if f.is_file()) if p.is_dir() else []
        out += [f for f in found if not SKIP_PARTS & set(f.parts) and f.suffix != ".pyc" and not ignore(f)]
    return sorted(set(out))


def digests(paths, root: Path = ROOT, ignore=lambda p: False) -> dict[str, str]:
    """{path relative to root: sha256 of its bytes} for every file under `paths`."""
    return {f.relative_to(root).as_posix(): sha256(f.read_bytes()) for f in files(paths, root, ignore)}


def command_output(cmd: list[str]) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError) as err:
        return f"unavailable: {type(err).__name__}"


def environment() -> dict:
    """What outside the sources shapes a build: interpreter, installed packages, node, mkdocs.yml's switches."""
    packages = sorted(f"{d.metadata['Name']}=={d.version}".lower() for d in metadata.distributions())
    return {"python": platform.python_version(), "packages": packages, "node": command_output(["node", "--version"]),
            "env": {k: os.environ.get(k) for k in ENV_SWITCHES}}


def inputs_key(extra: dict | None = None, root: Path = ROOT) -> str:
    """One hash of the sources, the environment and a step's own inputs (`extra`, JSON-able)."""
    parts = {"sources": digests(INPUTS, root), "environment": environment(), "step": extra or {}}
    return sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode())


def _stamp(step: str, root: Path) -> Path:
    return root / STAMPS.relative_to(ROOT) / f"{step}.json"


def fresh(step: str, key: str, outputs, root: Path = ROOT, ignore=lambda p: False) -> bool:
    """True when `step` last succeeded with these inputs and its outputs are still the bytes it made."""
    stamp = _stamp(step, root)
    try:
        recorded = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (isinstance(recorded, dict) and recorded.get("inputs") == key and bool(recorded.get("outputs"))
            and recorded["outputs"] == digests(outputs, root, ignore))


def forget(step: str, root: Path = ROOT) -> None:
    """Before a step runs: a run that fails half-way must not leave its old record standing."""
    _stamp(step, root).unlink(missing_ok=True)


def record(step: str, key: str, outputs, root: Path = ROOT, ignore=lambda p: False) -> None:
    """After a step succeeded: its inputs' hash and its outputs' bytes."""
    made = digests(outputs, root, ignore)
    if not made:
        raise SystemExit(f"{step}: no outputs to record under {[str(o) for o in outputs]}: the step made nothing?")
    stamp = _stamp(step, root)
    stamp.parent.mkdir(parents=True, exist_ok=True)
    tmp = stamp.with_suffix(".tmp")
    tmp.write_text(json.dumps({"inputs": key, "outputs": made}, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, stamp)


def keep(outputs, root: Path = ROOT, ignore=lambda p: False) -> int:
    """A skipped step's outputs count as made now (what a rebuild would write): touch them. Returns how many."""
    kept = files(outputs, root, ignore)
    for f in kept:
        os.utime(f)
    return len(kept)
