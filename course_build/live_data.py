"""Under `mkdocs serve`, recompute what changed in generated/ before each rebuild.

mkdocs.yml watches scripts/: editing an experiment, a chart builder or a string file starts a rebuild,
and this stage first runs `python -m scripts.run` (it writes only what changed, so an edit to a page
costs a freshness check). A separate process, so an edited builder is imported afresh. `mkdocs build`
never recomputes: `make data` does, and the build reads what generated/ holds.
"""
from __future__ import annotations

import subprocess
import sys

from mkdocs.exceptions import PluginError

from scripts.common.paths import ROOT

_serving = False


def on_startup(command: str, **kwargs) -> None:
    global _serving
    _serving = command == "serve"


def on_pre_build(config, **kwargs) -> None:
    if not _serving:
        return
    done = subprocess.run([sys.executable, "-m", "scripts.run"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise PluginError("generated/ could not be recomputed (python -m scripts.run):\n"
                          + (done.stdout + done.stderr).strip()[-4000:])
