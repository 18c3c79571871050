"""One contract for every experiment the runner finds (scripts/experiments/*.py), so none is left out
by a hand-made list: a title, a compute(), committed data in canonical form, no timing in the data."""
from __future__ import annotations

import importlib
import json

import pytest

from scripts import run
from scripts.common import jsonio

EXPERIMENTS = run.names("experiments")
TIMING_WORDS = ("seconds", "elapsed", "wall", "_ms", "_s\"")


def test_the_runner_finds_experiments():
    assert len(EXPERIMENTS) >= 10


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_experiment_contract(name):
    mod = importlib.import_module(f"scripts.experiments.{name}")
    title = (mod.__doc__ or "").strip().splitlines()
    assert title and title[0].strip(), f"scripts/experiments/{name}.py: its docstring's first line is its title"
    assert callable(getattr(mod, "compute", None)), f"scripts/experiments/{name}.py: define compute()"
    path = run.GEN / "data" / f"{name}.json"
    assert path.exists(), f"{path} is missing: run `make data`"
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict) and data, f"{path}: compute() returns a non-empty dict"
    assert text == jsonio.dumps(data), f"{path}: not in the runner's canonical form (rounding, sorted keys)"
    # Machine-dependent timings belong in measure() -> generated/timings/, never in the data.
    assert not any(w in text for w in TIMING_WORDS), f"{path}: timing-like key in data; move it to measure()"
