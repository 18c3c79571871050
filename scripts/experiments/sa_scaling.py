"""Why the scores are divided by √d: variance of q·k and what softmax does with it, for d = 4 … 256.

For each d, 200 attention matrices of 49 queries × 49 keys (9 800 rows of 49 scores) are drawn with
independent N(0, 1) entries in q and k. Each row is turned into softmax weights once from the raw
q·k and once from q·k / √d. (The curve over d = 1 … 1024 for the foundations chart is in the
`scaling` experiment; it is not repeated here.)
Keys returned:
  n_keys, n_matrices, n_rows, seed, ln49, uniform   the set-up and the two references
  by_d: [{d, var_raw, var_scaled, pmax_raw, pmax_scaled, ent_raw, ent_scaled,
          grad_raw, grad_scaled, grad_ratio, grad_raw_per_4x}]
      var_*      variance of all 9 800 × 49 scores, raw and divided by √d (theory: d and 1)
      pmax_*     mean over rows of the largest softmax weight
      ent_*      mean row entropy in nats (ln 49 = 3.892 is an even row)
      grad_*     mean over rows of Σ p(1 − p), how much a softmax row responds to its inputs
      grad_ratio grad_scaled / grad_raw: "how many times worse" without the division
      grad_raw_per_4x  grad_raw of this d over grad_raw of the previous d (d grows 4× a row;
                  null for the first): the factor Σp(1−p) shrinks by per 4× of d
  source_claims    the source lesson's table next to these numbers
"""
import math

import numpy as np

from scripts.common.attention import LN49, entropy_rows, softmax_rows

DS = (4, 16, 64, 256)
N_KEYS = 49
N_MATRICES = 200
SEED = 1904

SEED_TABLE = {  # d: (var, pmax raw, pmax scaled, ent raw, ent scaled, grad raw, grad scaled, ratio)
    4: (3.99, 0.300, 0.123, 2.599, 3.442, 0.827, 0.948, 1.1),
    16: (16.06, 0.599, 0.126, 1.284, 3.427, 0.534, 0.949, 1.8),
    64: (63.96, 0.798, 0.126, 0.555, 3.427, 0.281, 0.950, 3.4),
    256: (255.50, 0.903, 0.127, 0.249, 3.425, 0.138, 0.950, 6.9),
}


def row_stats(scores: np.ndarray):
    p = softmax_rows(scores)
    return (float(p.max(axis=-1).mean()), float(entropy_rows(p).mean()),
            float((p * (1 - p)).sum(axis=-1).mean()))


def compute() -> dict:
    rng = np.random.default_rng(SEED)
    rows, claims = [], []
    for d in DS:
        q = rng.standard_normal((N_MATRICES, N_KEYS, d))
        k = rng.standard_normal((N_MATRICES, N_KEYS, d))
        s = q @ k.transpose(0, 2, 1)                    # (200, 49, 49): 9 800 rows of 49
        scaled = s / math.sqrt(d)
        pmax_r, ent_r, grad_r = row_stats(s)
        pmax_s, ent_s, grad_s = row_stats(scaled)
        row = {"d": d, "var_raw": float(s.var()), "var_scaled": float(scaled.var()),
               "pmax_raw": pmax_r, "pmax_scaled": pmax_s, "ent_raw": ent_r, "ent_scaled": ent_s,
               "grad_raw": grad_r, "grad_scaled": grad_s, "grad_ratio": grad_s / grad_r}
        row["grad_raw_per_4x"] = grad_r / rows[-1]["grad_raw"] if rows else None
        rows.append(row)
        seed = SEED_TABLE[d]
        ours = (round(row["var_raw"], 2), round(pmax_r, 3), round(pmax_s, 3), round(ent_r, 3),
                round(ent_s, 3), round(grad_r, 3), round(grad_s, 3), round(grad_s / grad_r, 1))
        claims.append({"claim": f"d = {d}: var, pmax raw/scaled, entropy raw/scaled, "
                                f"Σp(1−p) raw/scaled, ratio",
                       "source_value": list(seed), "computed": list(ours)})
    return {
        "n_keys": N_KEYS,
        "n_matrices": N_MATRICES,
        "n_rows": N_MATRICES * N_KEYS,
        "seed": SEED,
        "ln49": LN49,
        "uniform": 1 / N_KEYS,
        "by_d": rows,
        "source_claims": claims,
    }
