"""An untrained attention map is almost uniform: row entropy and largest weight with random Q, K, V.

A freshly initialised nn.MultiheadAttention(32, 1 head) — its Wq, Wk, Wv are what a new model
starts from — is applied to the 49 patches of each shape (standardised, embedded to d = 32 by
scripts.common.attention.embed_tokens). The attention weights it returns are summarised per row.
Keys returned:
  d, heads, seed, n_draws, ln49, uniform       the set-up and the two references
  by_shape: [{shape, mean_entropy, entropy_pct, mean_row_max, max_over_uniform,
              min_row_entropy}]               one weight draw (seed), per shape
      entropy_pct        mean row entropy as % of ln 49 (100 % = perfectly even rows)
      max_over_uniform   mean_row_max / (1/49)
  ring                   the ring's row (quoted in prose)
  ring_draws: {entropy_pct_min, entropy_pct_max, row_max_min, row_max_max}
                         the ring over 20 other weight draws (seeds 0 … 19)
  ring_over_draws {mean_entropy, entropy_pct, mean_row_max, …: {mean, sd, min, max}}
                         the same 20 draws, every statistic's spread (what the page leads with)
  controls: [{case, score_std, entropy_pct, mean_row_max, self_weight}]
                         why the rows are flat: the ring's scores q·k/√d built from the projections
                         of the same 20 draws, averaged over them, in five cases
      independent        W_q, W_k as initialised (what the layer above computes)
      shared             W_k := W_q (each patch's query meets its own key again), same scale
      independent_unit   independent, scores rescaled so their std over the 49×49 table is 1
      shared_unit        shared, rescaled the same way
      identity           W_q = W_k = I (the lesson's «on real data» set-up, same input)
      score_std          std of q·k/√d over all 49×49 entries
      self_weight        mean weight a row gives its own patch (uniform: 1/49)
  source_claims            the source lesson's numbers next to these
"""
import numpy as np
import torch
from torch import nn

import math

from scripts.common.attention import LN49, embed_tokens, entropy_rows, single_thread, softmax_rows
from scripts.common.shapes import shape_tokens
from scripts.common.training import float64, over_seeds

D = 32
SEED = 11
N_DRAWS = 20
SHAPES = ("ring", "square", "cross", "triangle")


def weights(kind: str, seed: int) -> np.ndarray:
    x = torch.tensor(embed_tokens(shape_tokens(kind), d=D), dtype=torch.float64)[None]
    torch.manual_seed(seed)
    with float64():     # drawn and computed in float64: the same bytes on every CPU (scripts/common/training.py)
        m = nn.MultiheadAttention(D, 1, batch_first=True).eval()
    with torch.no_grad():
        _, w = m(x, x, x, need_weights=True)
    return w[0].double().numpy()


def stats(w: np.ndarray) -> dict:
    ent = entropy_rows(w)
    mx = w.max(axis=1)
    return {"mean_entropy": float(ent.mean()), "entropy_pct": float(100 * ent.mean() / LN49),
            "mean_row_max": float(mx.mean()), "max_over_uniform": float(mx.mean() * 49),
            "min_row_entropy": float(ent.min())}


CONTROL_CASES = ("independent", "shared", "independent_unit", "shared_unit", "identity")


def control_scores(x: np.ndarray, seed: int) -> dict:
    """The five cases' scaled scores for tokens x, from the W_q, W_k of the layer drawn with seed."""
    torch.manual_seed(seed)
    with float64():
        w = nn.MultiheadAttention(D, 1, batch_first=True).in_proj_weight.detach().numpy()
    wq, wk = w[:D], w[D:2 * D]                     # in_proj rows: W_q, W_k, W_v (biases start at 0)
    q = x @ wq.T
    out = {"independent": q @ (x @ wk.T).T / math.sqrt(D), "shared": q @ q.T / math.sqrt(D)}
    for case in ("independent", "shared"):
        out[case + "_unit"] = out[case] / out[case].std()
    out["identity"] = x @ x.T / math.sqrt(D)
    return out


def control_stats(scores: np.ndarray) -> dict:
    w = softmax_rows(scores)
    return {"score_std": float(scores.std()), "entropy_pct": float(100 * entropy_rows(w).mean() / LN49),
            "mean_row_max": float(w.max(axis=1).mean()), "self_weight": float(np.diag(w).mean())}


def controls() -> list:
    x = embed_tokens(shape_tokens("ring"), d=D)
    per_case = {c: [] for c in CONTROL_CASES}
    for s in range(N_DRAWS):
        for case, scores in control_scores(x, s).items():
            per_case[case].append(control_stats(scores))
    return [{"case": c, **{k: float(np.mean([r[k] for r in rows])) for k in rows[0]}}
            for c, rows in per_case.items()]


def compute() -> dict:
    with single_thread():
        rows = [{"shape": k, **stats(weights(k, SEED))} for k in SHAPES]
        draws = [stats(weights("ring", s)) for s in range(N_DRAWS)]
        control_rows = controls()
    ring = rows[0]
    spread = over_seeds(draws)
    return {
        "d": D,
        "heads": 1,
        "seed": SEED,
        "n_draws": N_DRAWS,
        "ln49": LN49,
        "uniform": 1 / 49,
        "by_shape": rows,
        "ring": ring,
        "ring_draws": {f"{short}_{end}": spread[key][end] for key, short in
                       (("entropy_pct", "entropy_pct"), ("mean_row_max", "row_max")) for end in ("min", "max")},
        "ring_over_draws": spread,
        "controls": control_rows,
        "source_claims": [
            {"claim": "mean row entropy (of ln 49 = 3.892)", "source_value": 3.863,
             "computed": round(ring["mean_entropy"], 3)},
            {"claim": "as % of uniform", "source_value": 99.3, "computed": round(ring["entropy_pct"], 1)},
            {"claim": "mean largest weight (uniform 0.020)", "source_value": 0.034,
             "computed": round(ring["mean_row_max"], 3)},
        ],
    }
