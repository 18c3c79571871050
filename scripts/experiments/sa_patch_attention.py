"""Attention between the 49 patches of a 28×28 shape with identity weights (Q = K = V = patch).

Each shape (seeded, light pixel noise, pixels standardised to mean 0 and std 1 over the image) is
cut into 49 patches of 4×4 = 16 numbers; the raw scores are QKᵀ of the patch vectors (d = 16). Only the raw inputs are stored: the page's divisor slider
recomputes softmax(scores / divisor) in the browser. Statistics are given for divisor 4 = √16.
Keys returned:
  shapes                 the shape names, in order
  d, divisor, ln49, uniform, row_example   16, 4.0, ln 49, 1/49, and the row quoted in prose (10)
  by_shape: {name: {patches, scores, entropy_rows, max_rows, mean_entropy, mean_row_max,
                    entropy_pct}}
      patches            49×16 patch vectors (4 decimals; scores are computed from these)
      scores             49×49 raw QKᵀ (3 decimals; values run from about −15 to 50)
      entropy_rows       entropy (nats) of each attention row at divisor 4
      max_rows           largest weight of each row at divisor 4
      mean_entropy, mean_row_max, entropy_pct   averages over the 49 rows; entropy as % of ln 49
  on_shape_cover         0.25: a patch is on the shape when the shape covers this share of it
                         (scripts.common.shapes.on_shape, the definition sa_trained uses too)
  summary: [{shape, mean_entropy, entropy_pct, mean_row_max, row10_entropy, on_shape, on_shape_row_weight}]
      one row per shape; on_shape = patches on the shape; on_shape_row_weight = the weight a row of
      such a patch gives to patches on the shape, averaged over those rows (divisor 4)
  ring_by_divisor: [{divisor, mean_entropy, mean_row_max, row10_entropy}]   the ring at a few
      divisors (1, 2, 4, 8, 16), for prose next to the slider
  source_claims            the source lesson's ring numbers next to ours (different generator: they differ)
"""
import numpy as np

from scripts.common.attention import LN49, entropy_rows, softmax_rows
from scripts.common.shapes import ON_SHAPE, draw, on_shape, shape_tokens

SHAPES = ("ring", "square", "cross", "triangle")
DIVISOR = 4.0
ROW = 10
DIVISORS = (1.0, 2.0, 4.0, 8.0, 16.0)


def row_stats(scores: np.ndarray, divisor: float):
    p = softmax_rows(scores / divisor)
    return entropy_rows(p), p.max(axis=1)


def compute() -> dict:
    by_shape, summary = {}, []
    for kind in SHAPES:
        x = shape_tokens(kind)
        s = np.round(x @ x.T, 3)
        ent, mx = row_stats(s, DIVISOR)
        on = on_shape(draw(kind))
        p = softmax_rows(s / DIVISOR)
        by_shape[kind] = {
            "patches": x.tolist(),
            "scores": s.tolist(),
            "entropy_rows": np.round(ent, 4).tolist(),
            "max_rows": np.round(mx, 4).tolist(),
            "mean_entropy": float(ent.mean()),
            "mean_row_max": float(mx.mean()),
            "entropy_pct": float(100 * ent.mean() / LN49),
        }
        summary.append({
            "shape": kind,
            "mean_entropy": float(ent.mean()),
            "entropy_pct": float(100 * ent.mean() / LN49),
            "mean_row_max": float(mx.mean()),
            "row10_entropy": float(ent[ROW]),
            "on_shape": int(on.sum()),
            "on_shape_row_weight": float(p[on][:, on].sum(axis=1).mean()),
        })

    ring_s = np.asarray(by_shape["ring"]["scores"])
    ring_by_div = []
    for dv in DIVISORS:
        ent, mx = row_stats(ring_s, dv)
        ring_by_div.append({"divisor": dv, "mean_entropy": float(ent.mean()),
                            "mean_row_max": float(mx.mean()), "row10_entropy": float(ent[ROW])})

    ring = summary[0]
    return {
        "shapes": list(SHAPES),
        "d": 16,
        "on_shape_cover": ON_SHAPE,
        "divisor": DIVISOR,
        "ln49": LN49,
        "uniform": 1 / 49,
        "row_example": ROW,
        "by_shape": by_shape,
        "summary": summary,
        "ring_by_divisor": ring_by_div,
        "source_claims": [
            {"claim": "ring, divisor 4, entropy of row 10", "source_value": 2.718,
             "computed": round(ring["row10_entropy"], 3), "agrees": False,
             "note": "own shape generator; not expected to match"},
            {"claim": "ring, divisor 4, mean row maximum", "source_value": 0.3700,
             "computed": round(ring["mean_row_max"], 4), "agrees": False,
             "note": "own shape generator; not expected to match"},
            {"claim": "ln 49", "source_value": 3.892, "computed": round(LN49, 3),
             "agrees": round(LN49, 3) == 3.892},
            {"claim": "1/49", "source_value": 0.0204, "computed": round(1 / 49, 4),
             "agrees": round(1 / 49, 4) == 0.0204},
        ],
    }


if __name__ == "__main__":
    import json
    r = compute()
    print(json.dumps({k: v for k, v in r.items() if k != "by_shape"}, ensure_ascii=False, indent=1))
