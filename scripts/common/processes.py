"""Work side by side in spawned processes: the one pool behind the runner (experiments, then charts:
scripts/run.py), an experiment's seeds (scripts/common/training.py `map_seeds`) and the PDFs' languages
(tools/pdf.py).

A job's result never depends on the process it runs in: each experiment seeds and pins what it uses, and
`make reproduce` compares the bytes. Processes are spawned, not forked: a fork would inherit this process's
torch threads and kernel path (training.PINNED is read when a process starts).
"""
from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os

PROCESSES = 2   # the cores of the machine the budgets are set for; never more than it has


@contextlib.contextmanager
def environment(env: dict | None):
    """os.environ with `env` added while the block runs (a spawned process starts with this process's), then as
    it was."""
    saved = {k: os.environ.get(k) for k in env or {}}
    os.environ.update(env or {})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def side_by_side(fn, jobs: list[tuple], *, then=None, here: bool = False, env: dict | None = None, call=None):
    """Yield (args, result) for every `args` of `jobs` as it ends, where result is fn(*args), or with `then`
    (fn(*args), then(*args, fn(*args))). Jobs start in the order given on up to PROCESSES spawned processes;
    with `here`, or when one process is all there is, they run in this process, one after another.
    `then` is a second step queued as soon as its job's first ends, behind the first steps not yet started: with
    five seeds on two processes no process waits out a third round alone. `env` is added to the processes'
    environment; `call(f, *args)`, when given, runs each step in its process (a check before it, say).
    fn, then and call must be module-level (a process imports them by name). On an error, what has not
    started never will."""
    jobs = [tuple(args) for args in jobs]
    workers = min(PROCESSES, os.cpu_count() or 1, len(jobs))
    # with an environment to start in (training.PINNED), even one job on one core runs in a process of its own
    if here or (workers <= 1 and env is None):
        for args in jobs:
            first = fn(*args)
            yield args, first if then is None else (first, then(*args, first))
        return
    step = (lambda f, *a: (call, f, *a)) if call else (lambda f, *a: (f, *a))
    with environment(env), concurrent.futures.ProcessPoolExecutor(
            max(workers, 1), mp_context=multiprocessing.get_context("spawn")) as pool:
        running = {pool.submit(*step(fn, *args)): args for args in jobs}
        firsts = {}
        try:
            while running:
                done, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: jobs.index(running[f])):
                    args = running.pop(future)
                    if then is None:
                        yield args, future.result()
                    elif args not in firsts:
                        firsts[args] = future.result()
                        running[pool.submit(*step(then, *args, firsts[args]))] = args
                    else:
                        yield args, (firsts.pop(args), future.result())
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
