"""How the drawing widget's second step was chosen (scripts/experiments/sa_trained.py, its docstring): each
setting tried on the validation outlines and validation images only, never on the held-out sets the page reports.

    python -m tools.tune_drawing 13,14 5:16000:2000 5:16000:4000     seeds, then epochs:outlines:filled images

Prints one row per seed and setting: the share of the validation outlines and of the validation images read right,
and the seconds the step took on this machine.
"""
from __future__ import annotations

import copy
import sys
import time

from scripts.common.training import Stopwatch, deterministic
from scripts.experiments import sa_trained as sa


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    seeds = [int(s) for s in argv[0].split(",")]
    settings = [tuple(int(n) for n in a.split(":")) for a in argv[1:]]
    print("| seed | epochs | outlines | filled images | validation outlines | validation images | seconds |")
    print("|--:|--:|--:|--:|--:|--:|--:|")
    for seed in seeds:
        with deterministic(seed):              # the lesson's model of this seed, as sa_trained.train makes it
            lesson = sa.TinyViT()
            sa.train_lesson(lesson, seed, Stopwatch())
        for epochs, n_strokes, n_filled in settings:
            model = copy.deepcopy(lesson)
            start = time.perf_counter()
            with deterministic(seed):
                r = sa.fine_tune(model, seed, Stopwatch(), epochs, n_strokes, n_filled)
            print(f"| {seed} | {epochs} | {n_strokes} | {n_filled} | {r['validation_accuracy']:.4f} | "
                  f"{r['validation_image_accuracy']:.4f} | {time.perf_counter() - start:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
