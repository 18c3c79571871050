"""What every build-time training shares: a fixed, deterministic torch set-up and a timer.

Two runs give identical numbers: seeded, deterministic algorithms, a fixed number of threads (the
order of floating-point sums depends on it), and float64 throughout (`float64()`, also used by the
experiments that draw untrained layers). In float32 the same seeded run gave other bytes under
another CPU's kernel path: torch compiles its CPU kernels once per instruction set (AVX-512, AVX2,
portable), and even a random draw's last bit differs between them (a fused multiply-add in one, not
in the other); trained values then moved in their third digit. In float64 such differences stay
near 10⁻¹⁶ and vanish in the six significant digits generated/ keeps: `make reproduce` checks it
under two other kernel paths.

Near is not equal, and a model whose weights the page runs (generated/models/) must be the same bytes:
the ViT's float64 weights trained on this machine's AVX-512 path and on the portable path differed by up
to 2.9e-10, and 16 of its 4 452 float32 weights rounded the other way. So `map_seeds(..., pinned=True)`
trains in worker processes started on one kernel path, the portable one, whatever the CPU (`PINNED`):
torch's default kernels (ATEN_CPU_CAPABILITY), MKL's SSE2 branch (MKL_CBWR=COMPATIBLE), numpy's
baseline, OpenBLAS's oldest x86-64 kernels, and glibc's libm without its FMA versions (GLIBC_TUNABLES):
torch's default kernels call libm's exp, log, erf…, and glibc picks an FMA version of exp on a CPU that
has FMA, which differs in the last bit for about 7 inputs in 10 000 (measured; the ViT's weights then
moved by 4.3e-10 and 17 float32 weights flipped against the portable path without it). The workers
check that they run the pinned code (`check_pinned`) before training.

One library call still depends on the CPU under all of that: torch's float64 square root of a tensor is not the
correctly rounded one (1 331 of 100 000 values off by an ulp on an AVX-512 CPU, 14 700 of them on CPUs without
AVX-512; numpy's and math's agree with each other everywhere), and Adam takes one in every step. Retrained here,
on an AVX-512 CPU with AVX512-FP16, the translator's and the ViT's exported weights came out other bytes than
committed (the ViT: 22 of its 4 452 float32 weights). So the trainings step with `Adam`, below: torch's Adam with
numpy's square root.
"""
from __future__ import annotations

import contextlib
import math
import time

import numpy as np
import torch

from scripts.common import processes

THREADS = 1   # fixed: sums must not depend on the core count; one thread also suffers least on a busy machine


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
    old_fill = torch.utils.deterministic.fill_uninitialized_memory
    torch.set_num_threads(THREADS)
    torch.use_deterministic_algorithms(True)
    # deterministic mode also fills every new uninitialised tensor with NaN, a guard against kernels that read
    # memory before writing it: ~3 % of a training step here, for results that are the same bytes without it
    torch.utils.deterministic.fill_uninitialized_memory = False
    torch.manual_seed(seed)
    try:
        with float64():
            yield
    finally:
        torch.utils.deterministic.fill_uninitialized_memory = old_fill
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


# The portable code path of every library a training runs, whatever the CPU (read when a process starts,
# so only a new process can take it): see the docstring. Each names the oldest x86-64 code it has.
PINNED = {
    "ATEN_CPU_CAPABILITY": "default",                      # torch: kernels compiled for plain x86-64
    "MKL_CBWR": "COMPATIBLE",                              # MKL (torch's float64 matrix products): SSE2 branch
    "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR",   # numpy: its baseline only
    "OPENBLAS_CORETYPE": "Prescott",                       # numpy's OpenBLAS: its SSE3 kernels
    "GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4",  # glibc's libm: exp, log… without FMA
}
MKL_CBWR_BRANCH, MKL_CBWR_COMPATIBLE = 1, 3   # mkl_cbwr_get's question and answer (mkl_cbwr.h)
# an input on which glibc 2.36's exp differs between its FMA version (…9d) and its generic one (…9c)
LIBM_CANARY = (14.494450730958675, "0x1.e164adf18fe9cp+20")


def check_pinned() -> None:
    """Refuse to train unless this process runs the PINNED code: torch's default kernels, MKL's
    compatible branch and libm's generic exp (a process started without PINNED, e.g. a test calling
    train() itself, would give the bytes of this CPU only)."""
    import ctypes
    import math
    from pathlib import Path
    problems = []
    if torch.backends.cpu.get_cpu_capability() != "DEFAULT":
        problems.append(f"torch runs its {torch.backends.cpu.get_cpu_capability()} kernels")
    mkl = ctypes.CDLL(str(Path(torch.__file__).parent / "lib" / "libtorch_cpu.so"))
    if mkl.mkl_serv_cbwr_get(MKL_CBWR_BRANCH) != MKL_CBWR_COMPATIBLE:
        problems.append("MKL is not on its compatible branch")
    x, bits = LIBM_CANARY
    if math.exp(x).hex() != bits:
        problems.append(f"libm's exp({x}) = {math.exp(x).hex()}, not the generic code's {bits}")
    if problems:
        raise RuntimeError("training outside the pinned kernel path (scripts/common/training.py PINNED; "
                           "train through map_seeds(..., pinned=True)): " + "; ".join(problems))


class Adam(torch.optim.Adam):
    """torch's Adam (its single-tensor step, no weight decay, no amsgrad), with a correctly rounded square root:
    the same bytes on every CPU (the module's docstring). Learning-rate schedulers drive it as they drive Adam."""

    @torch.no_grad()
    def step(self, closure=None):
        if closure is not None or any(g["amsgrad"] or g["weight_decay"] or g["maximize"] for g in self.param_groups):
            raise ValueError("training.Adam: plain Adam only (no closure, amsgrad, weight decay or maximize)")
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state["step"] += 1
                exp_avg, exp_avg_sq, t = state["exp_avg"], state["exp_avg_sq"], state["step"]
                exp_avg.lerp_(p.grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(p.grad, p.grad, value=1 - beta2)
                step_size = group["lr"] / (1 - beta1 ** t)
                denom = (exact_sqrt(exp_avg_sq) / math.sqrt(1 - beta2 ** t)).add_(group["eps"])
                p.addcdiv_(exp_avg, denom, value=-step_size)


def exact_sqrt(t: torch.Tensor) -> torch.Tensor:
    """The correctly rounded square root of a CPU tensor (numpy's; torch's own is not, and differs by CPU)."""
    return torch.from_numpy(np.sqrt(t.detach().numpy()))


def pinned_call(fn, *args):
    """fn(*args) after check_pinned() (what a pinned worker runs)."""
    check_pinned()
    return fn(*args)


def map_seeds(fn, seeds, pinned: bool = False, then=None) -> list:
    """[fn(seed) for seed in seeds], on up to processes.PROCESSES worker processes (scripts/common/processes.py). Each
    worker runs one seed on THREADS threads, exactly as a serial run would, so the results are the same bytes;
    fn must be a module-level function (workers import it by name). pinned=True: always in new processes
    started with PINNED (even one seed on one core), each checking it before it trains: the same bytes on
    every x86-64 CPU, not only on this one.
    then: a second step, then(seed, fn(seed)), also module-level; returns [(fn(seed), then(seed, fn(seed)))].
    A seed's second step is queued as soon as its first ends, behind the first steps not yet started: with
    five seeds on two workers no worker waits out a third round alone (sa_trained: 341 s → ~280 s)."""
    done = dict(processes.side_by_side(fn, [(seed,) for seed in seeds], then=then,
                                       env=PINNED if pinned else None, call=pinned_call if pinned else None))
    return [done[seed,] for seed in seeds]


def parameters(model) -> dict:
    """A torch module's parameters by name, as float64 arrays (picklable: they leave a worker process)."""
    return {name: p.detach().double().numpy().copy() for name, p in model.named_parameters()}
