"""Cross-attention has no mask, and its keys and values are projected once
Keys returned:
  target, source -- the example: 6 English target words, the meanings of the 4 source words (their
                  words, in each language's order, are in scripts/i18n/<lang>/, charts.*.example)
  causal       -- decoder self-attention mask: {rows, cols, shape, allowed, total, matrix}
                  (6x6 lower-triangular, 1 = may look, 0 = hidden)
  cross        -- cross-attention "mask": {rows, cols, shape, allowed, total, matrix} (6x4, all 1)
  d            -- model width used for the multiplication counts (512)
  mults_per_projection -- d*d multiplications to project one vector
  projections  -- table rows, one per example {case, n_src, n_tgt, recompute, once, saved,
                  ratio, recompute_mults, once_mults, saved_mults}; "recompute" = make K and V of
                  the encoder output again at every decoder step (n_tgt*2*n_src projection
                  applications), "once" = make them once and reuse (2*n_src)
  counted      -- the same projection counts obtained by running a toy decoder loop (numpy,
                  small width) with a counter, both ways, plus whether both ways give identical
                  outputs (max_abs_diff)
"""
import numpy as np

from scripts.common.attention import attention_steps

TARGET = ["the", "cat", "sat", "on", "the", "mat"]
SOURCE = ["cat", "sit", "on", "mat"]
D = 512
CASES = [("example", 4, 6), ("longer", 20, 25)]


def _mask_info(matrix):
    rows, cols = len(matrix), len(matrix[0])
    allowed = sum(sum(r) for r in matrix)
    return {"rows": rows, "cols": cols, "shape": [rows, cols], "allowed": int(allowed),
            "total": rows * cols, "matrix": matrix}


class _Counter:
    def __init__(self):
        self.n = 0


def _toy_decode(n_src, n_tgt, cache, width=8, seed=0):
    """Run n_tgt decoder steps of cross-attention; count projections of encoder vectors."""
    rng = np.random.default_rng(seed)
    enc = rng.standard_normal((n_src, width))
    w_k = rng.standard_normal((width, width)) / np.sqrt(width)
    w_v = rng.standard_normal((width, width)) / np.sqrt(width)
    queries = rng.standard_normal((n_tgt, width))
    counter = _Counter()

    def project(w, rows):
        counter.n += rows.shape[0]          # one application per vector projected
        return rows @ w

    outputs = []
    k = v = None
    for t in range(n_tgt):
        if k is None or not cache:
            k = project(w_k, enc)
            v = project(w_v, enc)
        outputs.append(attention_steps(queries[t:t + 1], k, v).output[0])
    return counter.n, np.array(outputs)


def compute():
    n_t, n_s = len(TARGET), len(SOURCE)
    causal = [[1 if j <= i else 0 for j in range(n_t)] for i in range(n_t)]
    cross = [[1 for _ in range(n_s)] for _ in range(n_t)]

    per = D * D
    rows = []
    counted = []
    for name, n_src, n_tgt in CASES:
        recompute = n_tgt * 2 * n_src
        once = 2 * n_src
        rows.append({
            "case": name, "n_src": n_src, "n_tgt": n_tgt,
            "recompute": recompute, "once": once, "saved": recompute - once,
            "ratio": recompute / once,
            "recompute_mults": recompute * per, "once_mults": once * per,
            "saved_mults": (recompute - once) * per,
        })
        n_re, out_re = _toy_decode(n_src, n_tgt, cache=False)
        n_once, out_once = _toy_decode(n_src, n_tgt, cache=True)
        counted.append({
            "case": name, "n_src": n_src, "n_tgt": n_tgt,
            "recompute": int(n_re), "once": int(n_once),
            "max_abs_diff": float(np.max(np.abs(out_re - out_once))),
        })
    return {
        "target": list(TARGET),
        "source": list(SOURCE),
        "causal": _mask_info(causal),
        "cross": _mask_info(cross),
        "d": D,
        "mults_per_projection": per,
        "projections": rows,
        "counted": counted,
    }
