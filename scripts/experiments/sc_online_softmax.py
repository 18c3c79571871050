"""FlashAttention's idea in numpy: softmax block by block (online softmax), tiled attention, and its memory traffic.

1. Online softmax (Milakov & Gimelshein 2018). A row of scores arrives in blocks. Kept: the running
   maximum m and the running sum l of exp(score − m). When a block raises the maximum from m to m',
   the sum so far is rescaled by exp(m − m') before the block's own terms are added; at the end
   weight_j = exp(score_j − m) / l. One pass, no second look at old scores, and the result is the
   exact softmax up to float64 rounding: NOISE_BOUND (a relative bound) is what the data states.
   Checked on seeded rows of several lengths and block sizes, and on scores near 1000, where a
   softmax without the maximum (exp of the raw scores) overflows.
2. Tiled attention (FlashAttention, Dao et al. 2022, Algorithm 1). Q, K, V live in slow memory (HBM);
   a fast memory (SRAM) holds M numbers. Keys and values are loaded Bc rows at a time (outer loop),
   queries Br rows at a time (inner loop, Bc = ⌈M / 4d⌉, Br = min(Bc, d), as in the paper); each
   query block keeps its output O, running maxima m and sums l in HBM between outer steps. The
   output equals exact attention (softmax(QKᵀ/√d)V) within NOISE_BOUND, relative to the output's scale.
3. Memory traffic: numbers moved between HBM and SRAM, counted by the tiled code itself as it loads
   and stores (on a small case) and by the same loops without arithmetic (at the size of the grid):
     standard attention (the paper's Algorithm 0: S = QKᵀ written, read; P = softmax(S) written,
     read; O = PV written)   4N² + 4Nd  — Θ(Nd + N²), whatever M is;
     tiled                    Nd + 2N (O, l, m set) + 2Nd (K, V once) + Tc · (3Nd + 4N)
                              (Q, O, l, m read and O, l, m written once per key block; Tc = ⌈N / Bc⌉)
                              — Θ(N²d² / M).
Keys returned:
  noise_bound                         relative bound for "equal within float64 rounding"
  softmax_check: {rows, lengths, blocks, below_bound}
                                      seeded rows × lengths × block sizes, all within the bound
  overflow: {scores, naive_finite, online_below_bound}   scores near 1000: exp overflows without
                                      the maximum; the online result still equals the exact one
  trace: {scores, values, block, steps: [{step, start, stop, block_scores, block_max, max_before,
          max_after, rescale, sum_before, sum_after, weights_so_far, output_so_far}],
          online, exact, output, output_exact, below_bound}
                                      one short row arriving in blocks (the figure): weights_so_far =
                                      exp(score − running max) / running sum over the scores seen so
                                      far (the row as it stands), output_so_far the running weighted
                                      mean of the values; online / exact the final rows
  attention_check: {n, d, cases: [{sram, bc, br}], below_bound}   tiled = exact attention
  counted_equals_loops                the counts the tiled code made equal the count-only loops
  traffic: {n, d, standard, rows: [{sram, bc, br, tc, tr, tiled, standard, theta_standard,
            theta_tiled, tiled_over_theta, standard_over_tiled}]}
                                      the grid over SRAM sizes (numbers); theta_* = Nd + N², N²d²/M
  min_tiled_share                     tiled / standard at the largest SRAM of the grid
  crossover_sram                      the smallest SRAM of the grid where the tiled loops move fewer
                                      numbers than standard attention (below it, re-reading Q and O
                                      for every small key block costs more than writing S and P once)
  paper_figure2: {figure, seq_len, head_dim, heads, batch, gpu, standard: {gflops, hbm_gb, runtime (milliseconds, as printed)}, flash: {…},
                 block_plateau, hbm_ratio, runtime_ratio, gflops_ratio}
                                      the paper's measured figures, quoted with their set-up (PAPER_FIGURE2),
                                      and their ratios (standard / flash; flash / standard for the FLOPs)
  sources                             citations (Milakov & Gimelshein 2018; Dao et al. 2022)
"""
from __future__ import annotations

import math

import numpy as np

from scripts.common.published_models import citation

SEED = 27
NOISE_BOUND = 1e-12
LENGTHS = (1, 7, 64, 1000)
BLOCKS = (1, 3, 16, 128)
ROWS = 20
TRACE_SCORES = (1.2, -0.4, 0.3, 2.5, 0.9, -1.1, 3.1, 1.7)   # chosen so that the maximum grows twice
TRACE_VALUES = (1.0, -2.0, 0.5, 3.0, -1.0, 2.0, 0.0, -0.5)
TRACE_BLOCK = 3
ATT_N, ATT_D = 96, 8
ATT_SRAM = (64, 128, 256, 1024, 4096)
GRID_N, GRID_D = 4096, 64
GRID_SRAM = tuple(2 ** k for k in range(10, 21))
# The paper's own measurement, quoted (not recomputed): Dao et al. 2022, Figure 2 (left), forward + backward
# pass of attention in GPT-2 medium (sequence length 1 024, head dimension 64, 16 heads, batch 64) on an
# A100 GPU; and Figure 2 (middle): past a key block of 256 the forward runtime stops falling.
PAPER_FIGURE2 = {"figure": 2, "seq_len": 1024, "head_dim": 64, "heads": 16, "batch": 64, "gpu": "A100",
                 "standard": {"gflops": 66.6, "hbm_gb": 40.3, "runtime": 41.7},
                 "flash": {"gflops": 75.2, "hbm_gb": 4.4, "runtime": 7.3},
                 "block_plateau": 256}


def exact_softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def online_softmax(x: np.ndarray, block: int, values: np.ndarray | None = None, trace: list | None = None):
    """Weights of one row, seen block by block; with values, also the running weighted mean."""
    m, l, o = -math.inf, 0.0, 0.0
    for start in range(0, len(x), block):
        b = x[start:start + block]
        m_new = max(m, float(b.max()))
        rescale = math.exp(m - m_new) if m != -math.inf else 0.0
        e = np.exp(b - m_new)
        l_new = l * rescale + float(e.sum())
        if values is not None:
            o = (o * l * rescale + float(e @ values[start:start + block])) / l_new
        if trace is not None:
            seen = x[:start + len(b)]
            trace.append({"step": len(trace) + 1, "start": start, "stop": start + len(b),
                          "block_scores": b.tolist(), "block_max": float(b.max()),
                          "max_before": None if m == -math.inf else m, "max_after": m_new,
                          "rescale": None if m == -math.inf else rescale,
                          "sum_before": l, "sum_after": l_new,
                          "weights_so_far": (np.exp(seen - m_new) / l_new).tolist(),
                          "output_so_far": o if values is not None else None})
        m, l = m_new, l_new
    return np.exp(x - m) / l, o


def rel_diff(a, b) -> float:
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), np.finfo(float).tiny)))


class Traffic:
    """Numbers moved between HBM and SRAM."""

    def __init__(self):
        self.reads = self.writes = 0

    def read(self, a):
        self.reads += int(np.size(a))
        return a

    def write(self, a):
        self.writes += int(np.size(a))
        return a

    @property
    def total(self):
        return self.reads + self.writes


def blocks_for(sram: int, d: int) -> tuple[int, int]:
    bc = math.ceil(sram / (4 * d))
    return bc, min(bc, d)


def tiled_attention(q, k, v, sram: int, traffic: Traffic | None = None) -> np.ndarray:
    """FlashAttention's Algorithm 1 (forward, no mask, no dropout), counting HBM reads and writes."""
    t = traffic or Traffic()
    n, d = q.shape
    bc, br = blocks_for(sram, d)
    scale = 1 / math.sqrt(d)
    o, l, m = np.zeros((n, d)), np.zeros(n), np.full(n, -math.inf)
    t.write(o), t.write(l), t.write(m)
    for j in range(0, n, bc):
        kj, vj = t.read(k[j:j + bc]), t.read(v[j:j + bc])
        for i in range(0, n, br):
            qi, oi, li, mi = t.read(q[i:i + br]), t.read(o[i:i + br]), t.read(l[i:i + br]), t.read(m[i:i + br])
            s = qi @ kj.T * scale
            m_blk = s.max(axis=1)
            p = np.exp(s - m_blk[:, None])
            l_blk = p.sum(axis=1)
            m_new = np.maximum(mi, m_blk)
            a, b = np.exp(mi - m_new), np.exp(m_blk - m_new)
            l_new = a * li + b * l_blk
            o[i:i + br] = t.write(((li * a)[:, None] * oi + b[:, None] * (p @ vj)) / l_new[:, None])
            l[i:i + br], m[i:i + br] = t.write(l_new), t.write(m_new)
    return o


def tiled_traffic(n: int, d: int, sram: int) -> int:
    """The same loops as tiled_attention, counting only."""
    bc, br = blocks_for(sram, d)
    total = n * d + 2 * n
    for j in range(0, n, bc):
        rows_j = min(bc, n - j)
        total += 2 * rows_j * d
        for i in range(0, n, br):
            rows_i = min(br, n - i)
            total += 2 * rows_i * d + 2 * rows_i + rows_i * d + 2 * rows_i
    return total


def standard_traffic(n: int, d: int) -> int:
    """Algorithm 0: read Q, K, write S; read S, write P; read P, V, write O."""
    return (2 * n * d + n * n) + (n * n + n * n) + (n * n + n * d + n * d)


def exact_attention(q, k, v):
    s = q @ k.T / math.sqrt(q.shape[1])
    p = np.exp(s - s.max(axis=1, keepdims=True))
    return (p / p.sum(axis=1, keepdims=True)) @ v


def worst_softmax_diff(rng) -> float:
    """The largest relative difference between online and exact softmax over ROWS random rows of each length
    in LENGTHS, each cut into each block size in BLOCKS (draws from `rng` in that order)."""
    worst = 0.0
    for _ in range(ROWS):
        for n in LENGTHS:
            x = rng.normal(0, 3, n)
            for b in BLOCKS:
                worst = max(worst, rel_diff(online_softmax(x, b)[0], exact_softmax(x)))
    return worst


def compute() -> dict:
    rng = np.random.default_rng(SEED)
    worst = worst_softmax_diff(rng)
    big = np.array([1000.0, 998.0, 1001.5, 999.0, 1003.0])
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(big) / np.exp(big).sum()
    big_ok = rel_diff(online_softmax(big, 2)[0], exact_softmax(big)) < NOISE_BOUND

    scores, values = np.array(TRACE_SCORES), np.array(TRACE_VALUES)
    steps = []
    online, out = online_softmax(scores, TRACE_BLOCK, values, steps)
    exact = exact_softmax(scores)
    trace = {"scores": list(TRACE_SCORES), "values": list(TRACE_VALUES), "block": TRACE_BLOCK, "steps": steps,
             "online": online.tolist(), "exact": exact.tolist(), "output": out, "output_exact": float(exact @ values),
             "below_bound": rel_diff(online, exact) < NOISE_BOUND
             and abs(out - float(exact @ values)) < NOISE_BOUND * float(np.abs(values).max())}

    q, k, v = (rng.normal(0, 1, (ATT_N, ATT_D)) for _ in range(3))
    ref = exact_attention(q, k, v)
    cases, att_ok, counted_ok = [], True, True
    for sram in ATT_SRAM:
        t = Traffic()
        got = tiled_attention(q, k, v, sram, t)
        att_ok &= float(np.abs(got - ref).max()) < NOISE_BOUND * float(np.abs(ref).max())
        counted_ok &= t.total == tiled_traffic(ATT_N, ATT_D, sram)
        bc, br = blocks_for(sram, ATT_D)
        cases.append({"sram": sram, "bc": bc, "br": br})

    n, d = GRID_N, GRID_D
    std = standard_traffic(n, d)
    rows = []
    for sram in GRID_SRAM:
        bc, br = blocks_for(sram, d)
        tiled = tiled_traffic(n, d, sram)
        theta_t = n * n * d * d // sram if (n * n * d * d) % sram == 0 else n * n * d * d / sram   # exact when whole
        rows.append({"sram": sram, "bc": bc, "br": br, "tc": math.ceil(n / bc), "tr": math.ceil(n / br),
                     "tiled": tiled, "standard": std, "theta_standard": n * d + n * n, "theta_tiled": theta_t,
                     "tiled_over_theta": tiled / theta_t, "standard_over_tiled": std / tiled})
    return {"noise_bound": NOISE_BOUND,
            "softmax_check": {"rows": ROWS, "lengths": list(LENGTHS), "blocks": list(BLOCKS),
                              "below_bound": worst < NOISE_BOUND},
            "overflow": {"scores": big.tolist(), "naive_finite": bool(np.all(np.isfinite(naive))),
                         "online_below_bound": big_ok},
            "trace": trace,
            "attention_check": {"n": ATT_N, "d": ATT_D, "cases": cases, "below_bound": bool(att_ok)},
            "counted_equals_loops": bool(counted_ok),
            "traffic": {"n": n, "d": d, "standard": std, "rows": rows},
            "min_tiled_share": rows[-1]["tiled"] / std,
            "crossover_sram": next(r["sram"] for r in rows if r["tiled"] < std),
            "paper_figure2": dict(PAPER_FIGURE2, hbm_ratio=PAPER_FIGURE2["standard"]["hbm_gb"] / PAPER_FIGURE2["flash"]["hbm_gb"],
                                  runtime_ratio=PAPER_FIGURE2["standard"]["runtime"] / PAPER_FIGURE2["flash"]["runtime"],
                                  gflops_ratio=PAPER_FIGURE2["flash"]["gflops"] / PAPER_FIGURE2["standard"]["gflops"]),
            "sources": {"online_softmax": citation("milakov2018"), "flash_attention": citation("dao2022")}}


def measure() -> dict:
    """The size of the float64 rounding differences themselves, on this machine (the data states only
    that they stay below NOISE_BOUND)."""
    rng = np.random.default_rng(SEED)
    worst = worst_softmax_diff(rng)
    q, k, v = (rng.normal(0, 1, (ATT_N, ATT_D)) for _ in range(3))
    ref = exact_attention(q, k, v)
    att = max(float(np.abs(tiled_attention(q, k, v, s) - ref).max()) / float(np.abs(ref).max()) for s in ATT_SRAM)
    return {"softmax_rel_diff": worst, "attention_rel_diff": att, "noise_bound": NOISE_BOUND}


if __name__ == "__main__":
    import json
    r = compute()
    print(json.dumps({k: v for k, v in r.items() if k not in ("trace", "traffic")}, indent=1))
    for row in r["traffic"]["rows"]:
        print(row["sram"], row["bc"], row["br"], row["tc"], row["tiled"], row["standard"],
              round(row["tiled_over_theta"], 2), round(row["standard_over_tiled"], 2))
    print(json.dumps(measure()))
