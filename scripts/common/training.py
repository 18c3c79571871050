"""What every build-time training shares: a fixed, deterministic torch set-up and a timer.

Two runs give identical numbers: seeded, deterministic algorithms, a fixed number of threads (the
order of floating-point sums depends on it), and float64 throughout (`float64()`, also used by the
experiments that draw untrained layers). In float32 the same seeded run gave other bytes under
another CPU's kernel path: torch compiles its CPU kernels once per instruction set (AVX-512, AVX2,
portable), and even a random draw's last bit differs between them (a fused multiply-add in one, not
in the other); trained values then moved in their third digit. In float64 such differences stay
near 10⁻¹⁶ and vanish in the six significant digits generated/ keeps: `make reproduce` checks it
under two other kernel paths.
"""
from __future__ import annotations

import contextlib
import time

import numpy as np
import torch

THREADS = 1   # fixed: sums must not depend on the core count; one thread also suffers least on a busy machine
PROCESSES = 2  # seeds trained side by side (each on THREADS threads: the bytes of a serial run)


@contextlib.contextmanager
def float64():
    """New tensors, layers and random draws in float64 (restored after): the same bytes on every CPU."""
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.set_default_dtype(old)


@contextlib.contextmanager
def deterministic(seed: int):
    """Seed torch, force deterministic kernels, THREADS threads and float64; restore the old settings after."""
    old_threads = torch.get_num_threads()
    old_det = torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(seed)
    try:
        with float64():
            yield
    finally:
        torch.use_deterministic_algorithms(old_det)
        torch.set_num_threads(old_threads)


class Stopwatch:
    """Seconds of the training loops only, wall-clock and CPU (kept out of the data: machine-dependent;
    on a busy shared machine the wall clock grows while the CPU time stays about the same)."""

    def __init__(self):
        self.seconds = 0.0
        self.cpu_seconds = 0.0

    @contextlib.contextmanager
    def running(self):
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.seconds += time.perf_counter() - t0
            self.cpu_seconds += time.process_time() - c0


def seconds_per_seed(watches: list[Stopwatch]) -> dict:
    """The training loops' mean wall-clock and CPU seconds over the seeds' stopwatches (for measure())."""
    return {"train_s": round(sum(w.seconds for w in watches) / len(watches), 1),
            "train_cpu_s": round(sum(w.cpu_seconds for w in watches) / len(watches), 1)}


def over_seeds(results: list[dict]) -> dict:
    """The spread of every number the runs share, key by key: {mean, sd, min, max} for a number,
    {count, of} for a yes/no (how many runs said yes). Lists and strings are left out (they belong
    to one run, e.g. the pictures)."""
    first = results[0]
    if isinstance(first, bool):
        return {"count": sum(bool(r) for r in results), "of": len(results)}
    if isinstance(first, (int, float)):
        values = np.array(results, dtype=np.float64)
        return {"mean": float(values.mean()), "sd": float(values.std(ddof=1)) if len(values) > 1 else 0.0,
                "min": float(values.min()), "max": float(values.max())}
    if isinstance(first, dict):
        return {k: over_seeds([r[k] for r in results]) for k in first
                if all(k in r for r in results) and not isinstance(first[k], (list, str))
                and first[k] is not None}
    raise TypeError(f"over_seeds: {type(first).__name__} is not a number, yes/no or dict")


def map_seeds(fn, seeds) -> list:
    """[fn(seed) for seed in seeds], on up to PROCESSES worker processes. Each worker runs one seed on
    THREADS threads, exactly as a serial run would, so the results are the same bytes; fn must be a
    module-level function (workers import it by name)."""
    import concurrent.futures
    import multiprocessing
    import os
    workers = min(len(seeds), PROCESSES, os.cpu_count() or 1)
    if workers <= 1:
        return [fn(seed) for seed in seeds]
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(fn, seeds))
