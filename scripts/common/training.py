"""What every build-time training shares: a fixed, deterministic torch set-up and a timer.

Two runs on one machine give identical numbers: seeded, deterministic algorithms, a fixed number of
threads (the order of floating-point sums depends on it). Another CPU may still change the last
digits, so pages round what they show.
"""
from __future__ import annotations

import contextlib
import time

import torch

THREADS = 1   # fixed: sums must not depend on the core count; one thread also suffers least on a busy machine


@contextlib.contextmanager
def deterministic(seed: int):
    """Seed torch, force deterministic kernels and THREADS threads; restore the old settings after."""
    old_threads = torch.get_num_threads()
    old_det = torch.are_deterministic_algorithms_enabled()
    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(seed)
    try:
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
