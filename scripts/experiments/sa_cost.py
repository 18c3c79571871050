"""The price is quadratic: tokens, pairs and multiplications against the patch size (28×28 frame).

Counting multiplications for one attention layer of width d on n tokens:
  attention matrix   QKᵀ (n·n·d) and weights·V (n·n·d)            → 2·n²·d
  projections        Wq, Wk, Wv and the output matrix, each n·d·d → 4·n·d²
They are equal at 2n²d = 4nd², i.e. n = 2d (64 tokens for d = 32).
Keys returned:
  frame, d                 28 and 32
  by_patch: [{patch, grid, tokens, pairs, mult_matrix, mult_proj, matrix_over_proj}]
                           patch sizes 14, 7, 4, 2
  patch_options            every patch size that divides 28 (for the two-slider chart; the
                           browser applies the same two formulas)
  d_options                widths offered by that chart
  break_even_tokens        n where 2n²d = 4nd², i.e. 2d
  pairs_growth             pairs at patch 2 / pairs at patch 14
  measured_counts: [{tokens, mult_total, mult_step, mult_ratio, matrix_share}]
                           multiplications of the timed layer (d = 64) at each timed size:
                           mult_total = 2n²d + 4nd², mult_step = its growth from the previous timed
                           size (null for the first), mult_ratio = its growth from 49 tokens (as
                           the timings' time_ratio), matrix_share = 2n²d / mult_total
  source_claims              the source lesson's table next to this one
measure() (machine-dependent, not part of compute): forward time of nn.MultiheadAttention
(d = 64, 1 head, batch 1, one CPU thread, no grad) for 49, 196, 784, 1568 and 3136 tokens, in two
ways: need_weights=False (torch's fused scaled-dot-product kernel, the fast path used in practice)
and need_weights=True (the n×n weight matrix is built and returned). After warm-up each size is timed in R repeats; a repeat runs the layer k times in a
row (k chosen so a repeat lasts ≥ ~20 ms) and gives the mean time per call. Returned:
  by_tokens: [{tokens, pairs, median_ms, min_ms, max_ms, q1_ms, q3_ms, repeats, calls_per_repeat,
               time_ratio, pair_ratio}]   need_weights=False; ratios against 49 tokens (medians)
  by_tokens_weights        the same rows for need_weights=True
  threads, d, heads, torch_version
"""
import statistics
import time

import torch
from torch import nn

from scripts.common.attention import single_thread

FRAME = 28
D = 32
PATCHES = (14, 7, 4, 2)
D_OPTIONS = (8, 16, 32, 64, 128, 256)

SEED_ROWS = {  # patch: (tokens, pairs, matrix, projections)
    14: (4, 16, 1024, 16384),
    7: (16, 256, 16384, 65536),
    4: (49, 2401, 153664, 200704),
    2: (196, 38416, 2458624, 802816),
}


def counts(patch: int, d: int = D) -> dict:
    grid = FRAME // patch
    n = grid * grid
    return {"patch": patch, "grid": grid, "tokens": n, "pairs": n * n,
            "mult_matrix": 2 * n * n * d, "mult_proj": 4 * n * d * d,
            "matrix_over_proj": (2 * n * n * d) / (4 * n * d * d)}


def measured_counts() -> list:
    """What the timed layer multiplies at each timed size (the timings' own d)."""
    rows, prev = [], None
    for n in MEASURE_TOKENS:
        matrix, proj = 2 * n * n * MEASURE_D, 4 * n * MEASURE_D * MEASURE_D
        total = matrix + proj
        rows.append({"tokens": n, "mult_total": total, "mult_step": None if prev is None else total / prev,
                     "mult_ratio": total / (rows[0]["mult_total"] if rows else total),
                     "matrix_share": matrix / total})
        prev = total
    return rows


def compute() -> dict:
    rows = [counts(p) for p in PATCHES]
    claims = []
    for r in rows:
        seed = SEED_ROWS[r["patch"]]
        ours = (r["tokens"], r["pairs"], r["mult_matrix"], r["mult_proj"])
        claims.append({"claim": f"patch {r['patch']}: tokens, pairs, matrix, projections",
                       "source_value": list(seed), "computed": list(ours), "agrees": tuple(seed) == ours})
    return {
        "frame": FRAME,
        "d": D,
        "by_patch": rows,
        "patch_options": [p for p in range(1, FRAME + 1) if FRAME % p == 0],
        "d_options": list(D_OPTIONS),
        "break_even_tokens": 2 * D,
        "pairs_growth": rows[-1]["pairs"] / rows[0]["pairs"],
        "measured_counts": measured_counts(),
        "source_claims": claims,
    }


MEASURE_TOKENS = (49, 196, 784, 1568, 3136)
MEASURE_D = 64
REPEATS = 15
MIN_REPEAT_S = 0.02


def _time_calls(f, k: int) -> float:
    t0 = time.perf_counter()
    for _ in range(k):
        f()
    return (time.perf_counter() - t0) / k


def _measure(need_weights: bool) -> list:
    rows = []
    torch.manual_seed(0)
    m = nn.MultiheadAttention(MEASURE_D, 1, batch_first=True).eval()
    for n in MEASURE_TOKENS:
        x = torch.randn(1, n, MEASURE_D)

        def f():
            return m(x, x, x, need_weights=need_weights)

        for _ in range(3):                       # warm-up
            f()
        one = _time_calls(f, 1)
        k = max(1, int(MIN_REPEAT_S / max(one, 1e-6)))
        samples = sorted(_time_calls(f, k) * 1000 for _ in range(REPEATS))
        q = statistics.quantiles(samples, n=4)
        rows.append({"tokens": n, "pairs": n * n, "median_ms": statistics.median(samples),
                     "min_ms": samples[0], "max_ms": samples[-1], "q1_ms": q[0], "q3_ms": q[2],
                     "repeats": REPEATS, "calls_per_repeat": k})
    base = rows[0]
    for r in rows:
        r["time_ratio"] = r["median_ms"] / base["median_ms"]
        r["pair_ratio"] = r["pairs"] / base["pairs"]
    return rows


def measure() -> dict:
    with single_thread(), torch.no_grad():
        fused = _measure(need_weights=False)
        weights = _measure(need_weights=True)
    return {"by_tokens": fused, "by_tokens_weights": weights, "threads": 1, "d": MEASURE_D,
            "heads": 1, "torch_version": torch.__version__}


if __name__ == "__main__":
    import json
    print(json.dumps(compute(), ensure_ascii=False, indent=1))
    print(json.dumps(measure(), ensure_ascii=False, indent=1))
