"""Several heads: the same parameter count, different weighted sums (nn.MultiheadAttention).

Parameters are counted as sum(p.numel() for p in m.parameters()) next to the formula 4d² + 4d
(Wq, Wk, Wv, Wout of d×d plus a bias of d each). Head behaviour is measured with freshly
initialised random weights on the 49 patches of the ring: each standardised 16-number patch is
mapped to d = 32 numbers by a fixed seeded random linear embedding (scripts.common.attention.
embed_tokens); a d = 16 variant feeds the patches in directly.
Keys returned:
  shape, seed       the shape whose patches are used (ring) and the seed of the weight draw
  n_draws           how many weight draws the *_avg, *_min, *_max fields and over_draws summarise
  params: [{d, heads, head_dim, formula, counted}]   the parameter table
  by_heads: [{d, heads, head_dim, distinct_targets, mean_corr}]
      distinct_targets  per query token, how many different key tokens are the argmax of the
                        heads' rows, averaged over the 49 tokens (at most `heads`)
      mean_corr         mean Pearson correlation between two heads' 49×49 attention matrices,
                        over all pairs of heads (null for one head)
      distinct_chance   what `heads` independent uniform picks among the 49 tokens give on average,
                        49·(1 − (48/49)^heads): near-uniform untrained rows put their argmax at random,
                        so distinct_avg is compared with this, not with `heads`
      argmax_half_patches  over all draws, heads and tokens, the fewest patches that together are the
                        argmax half of the time: the picks are not spread evenly over the 49 patches
      distinct_from_freq   what `heads` independent picks with those observed argmax frequencies give,
                        Σ_j (1 − (1 − p_j)^heads): uneven picks explain why distinct_avg sits below chance
      over_draws {distinct, corr: {mean, sd, min, max}}   distinct targets and the heads' mean
                        correlation over the n_draws weight draws (corr: more than one head only)
  four_heads            the d = 32, 4-head row (the numbers quoted in prose)
  four_heads_d16        the d = 16, 4-head row (4 numbers per head)
  patches: {n, n_distinct, min_distance}   the ring's 16-number patches: how many differ and the
      smallest Euclidean distance between two of them (0 would mean identical patches, whose
      equal keys tie in every head's argmax and so lower the distinct-target count)
  interactive: {d, head_counts, q, k, same_qk_for_all_head_counts, note}
      For the "pick a patch, see where each head looks" chart. Storing every head's rows for
      1 + 2 + 4 + 8 = 15 heads would be 15 × 49 × 49 ≈ 36 000 numbers; instead q = X Wq + bq and
      k = X Wk + bk (49×32, 4 decimals) are stored once. With one seed, nn.MultiheadAttention draws
      the same in_proj weights whatever the head count (checked: same_qk_for_all_head_counts), so
      for H heads head h is columns h·32/H … (h+1)·32/H − 1 of q and k; the browser computes
      softmax(q_h k_hᵀ / √(32/H)) row by row.
  source_claims       the source lesson's numbers next to these
"""
import itertools

import numpy as np
import torch
from torch import nn

from scripts.common.attention import embed_tokens, rounded, single_thread
from scripts.common.shapes import shape_tokens
from scripts.common.training import float64, over_seeds

SEED = 4
N_SEEDS = 20
# every head count the chart offers at its width, and the source lesson's cases (SOURCE_CASES)
PARAM_CASES = ((32, 1), (32, 2), (32, 4), (32, 8), (768, 1), (768, 12))
SOURCE_CASES = ((32, 1), (32, 4), (32, 8), (768, 1), (768, 12))
HEAD_COUNTS = (1, 2, 4, 8)
SHAPE = "ring"


def count(d: int, heads: int) -> int:
    torch.manual_seed(0)
    m = nn.MultiheadAttention(d, heads)
    return sum(p.numel() for p in m.parameters())


def make_mha(d: int, heads: int, seed: int = SEED) -> nn.MultiheadAttention:
    torch.manual_seed(seed)
    with float64():     # drawn and computed in float64: the same bytes on every CPU (scripts/common/training.py)
        return nn.MultiheadAttention(d, heads, batch_first=True).eval()


def head_weights(x: torch.Tensor, heads: int, seed: int = SEED) -> np.ndarray:
    """(heads, 49, 49) attention weights of a fresh seeded nn.MultiheadAttention."""
    m = make_mha(x.shape[-1], heads, seed)
    with torch.no_grad():
        _, w = m(x[None], x[None], x[None], need_weights=True, average_attn_weights=False)
    return w[0].double().numpy()


def q_k(x: torch.Tensor, heads: int):
    m = make_mha(x.shape[-1], heads)
    d = x.shape[-1]
    with torch.no_grad():
        proj = x @ m.in_proj_weight.T + m.in_proj_bias
    return proj[:, :d], proj[:, d:2 * d]


def argmax_spread(targets: list, heads: int):
    """From the argmax targets of all draws: how few patches take half the picks, and the expected
    distinct count of `heads` independent picks with the observed frequencies."""
    counts = np.bincount(np.concatenate([t.ravel() for t in targets]), minlength=targets[0].shape[1])
    p = counts / counts.sum()
    half = int(np.searchsorted(np.cumsum(np.sort(p)[::-1]), 0.5) + 1)
    return half, float(np.sum(1 - (1 - p) ** heads))


def head_stats(w: np.ndarray):
    heads = w.shape[0]
    targets = w.argmax(axis=2)                                  # (heads, 49)
    distinct = float(np.mean([len(set(targets[:, i])) for i in range(w.shape[1])]))
    if heads == 1:
        return distinct, None
    flat = w.reshape(heads, -1)
    corr = np.corrcoef(flat)
    pairs = [corr[a, b] for a, b in itertools.combinations(range(heads), 2)]
    return distinct, float(np.mean(pairs))


def chance_distinct(n_tokens: int, heads: int) -> float:
    """Expected number of different values among `heads` independent uniform picks of n_tokens."""
    return n_tokens * (1 - ((n_tokens - 1) / n_tokens) ** heads)


def compute() -> dict:
    with single_thread():
        params = [{"d": d, "heads": h, "head_dim": d // h, "formula": 4 * d * d + 4 * d,
                   "counted": count(d, h)} for d, h in PARAM_CASES]

        patches16 = shape_tokens(SHAPE)
        x32 = torch.tensor(embed_tokens(patches16, d=32), dtype=torch.float64)
        x16 = torch.tensor(patches16, dtype=torch.float64)
        by_heads = []
        for x in (x32, x16):
            for h in HEAD_COUNTS:
                distinct, corr = head_stats(head_weights(x, h))
                weights = [head_weights(x, h, s) for s in range(N_SEEDS)]
                many = [head_stats(w) for w in weights]
                half, from_freq = argmax_spread([w.argmax(axis=2) for w in weights], h)
                spread = over_seeds([{"distinct": m[0], "corr": m[1]} for m in many])
                # the table's flat columns are the spread's own numbers (a table reads one level of keys)
                row = {"d": x.shape[-1], "heads": h, "head_dim": x.shape[-1] // h,
                       "distinct_targets": distinct, "mean_corr": corr,
                       "distinct_avg": spread["distinct"]["mean"],
                       "distinct_min": spread["distinct"]["min"],
                       "distinct_max": spread["distinct"]["max"],
                       "corr_avg": spread["corr"]["mean"] if "corr" in spread else None,
                       "distinct_chance": chance_distinct(x.shape[0], h),
                       "argmax_half_patches": half, "distinct_from_freq": from_freq,
                       "over_draws": spread}
                by_heads.append(row)

        qs, ks = zip(*(q_k(x32, h) for h in HEAD_COUNTS))
        same = all(torch.equal(qs[0], q) and torch.equal(ks[0], k) for q, k in zip(qs, ks))

    pts = np.asarray(patches16, dtype=float)
    dist = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    patches = {"n": len(pts), "n_distinct": len(np.unique(pts, axis=0)), "min_distance": float(dist.min())}
    four = next(r for r in by_heads if r["d"] == 32 and r["heads"] == 4)
    four16 = next(r for r in by_heads if r["d"] == 16 and r["heads"] == 4)
    return {
        "params": params,
        "by_heads": by_heads,
        "four_heads": four,
        "four_heads_d16": four16,
        "patches": patches,
        "shape": SHAPE,
        "seed": SEED,
        "n_draws": N_SEEDS,
        "interactive": {
            "d": 32,
            "head_counts": list(HEAD_COUNTS),
            "q": rounded(qs[0], 4),
            "k": rounded(ks[0], 4),
            "same_qk_for_all_head_counts": same,
            "note": "head h of H uses columns h*32/H .. (h+1)*32/H-1 of q and k; "
                    "weights = softmax(q_h k_h^T / sqrt(32/H)) per row",
        },
        "source_claims": [
            {"claim": "parameters 4d²+4d for d=32 and d=768, any head count",
             "source_value": [4224, 4224, 4224, 2362368, 2362368],
             "computed": [r["counted"] for r in params if (r["d"], r["heads"]) in SOURCE_CASES],
             "agrees": [r["counted"] for r in params if (r["d"], r["heads"]) in SOURCE_CASES]
             == [4224, 4224, 4224, 2362368, 2362368]},
            {"claim": "4 heads, d=32: distinct argmax targets per token", "source_value": 3.94,
             "computed": round(four["distinct_targets"], 2)},
            {"claim": "4 heads, d=32: mean correlation between heads", "source_value": -0.012,
             "computed": round(four["mean_corr"], 3)},
            {"claim": "4 heads, d=16 (interactive): distinct targets", "source_value": 3.49,
             "computed": round(four16["distinct_targets"], 2)},
            {"claim": "4 heads, d=32, distinct targets, average of 20 draws", "source_value": 3.94,
             "computed": round(four["distinct_avg"], 2)},
            {"claim": "4 heads, d=16, distinct targets, average of 20 draws", "source_value": 3.49,
             "computed": round(four16["distinct_avg"], 2)},
            {"claim": "4 heads, d=32, correlation, average of 20 draws", "source_value": -0.012,
             "computed": round(four["corr_avg"], 3)},
        ],
    }


if __name__ == "__main__":
    import json
    r = compute()
    r["interactive"] = {k: v for k, v in r["interactive"].items() if k not in ("q", "k")}
    print(json.dumps(r, ensure_ascii=False, indent=1))
