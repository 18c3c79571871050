"""Sliding-window attention: how far a token reaches over the layers, and what the window does to the cache.

Convention (the one of Mistral 7B's rolling buffer cache, Jiang et al. 2023): with window W a query at
position i sees the keys of positions i − W + 1 … i, itself included, so each layer keeps at most W
tokens of keys and values. One layer moves information W − 1 positions forward; stacked, L layers let
the last token depend on L × (W − 1) earlier tokens (L(W − 1) + 1 positions with itself) — "window ×
layers" up to the one position each layer's own token takes. The paper rounds it to W × L ("a
theoretical attention span of approximately 131K tokens" for W = 4 096, L = 32).

The reach is computed, not assumed: on a small sequence the band masks of L layers are multiplied as
boolean matrices (which inputs can reach which output), and the count is compared with the formula.
The cache of full causal attention grows with the context; with a window it stops at W tokens per
layer: bytes per token from scripts/common/published_models.py (Mistral 7B, its own format).
Keys returned:
  small: {n, windows, layers}                the brute-force set-up
  reach: [{window, layers, reach, formula, positions}]
                                             reach = earlier inputs the last token depends on (brute
                                             force), formula = layers × (window − 1), positions = reach + 1
  reach_matches_formula                      true when every brute-force count equals the formula
  example: {window, layers, influence}       one case drawn for the figure: influence[l][j] = 1 when
                                             input j reaches the last token after l + 1 layers
  model: {id, name, window, layers, kv_heads, head_size, bytes_per_number, bytes_per_token,
          reach, window_times_layers}        the published model with a window
  cache_by_context: [{context, full_bytes, window_bytes, full_gib, window_gib, saving}]
                                             one sequence's cache, full attention vs the window;
                                             saving = full / window
  saving_at_32k                              the paper's "8x" at 32 768 tokens, recomputed
  source                                     citation of the paper
"""
from __future__ import annotations

import numpy as np

from scripts.common.published_models import citation, kv_bytes_per_token, preset

N = 40
WINDOWS = (2, 3, 4, 6)
LAYERS = (1, 2, 3, 4, 5, 6)
EXAMPLE = (4, 4)           # window, layers drawn for the figure
CONTEXTS = (1024, 4096, 8192, 16384, 32768, 131072)
GIB = 2 ** 30


def band(n: int, w: int) -> np.ndarray:
    """mask[i, j] = query i sees key j: j ≤ i and i − j < w."""
    i, j = np.indices((n, n))
    return (j <= i) & (i - j < w)


def influence(n: int, w: int, layers: int) -> list[np.ndarray]:
    """After each layer: which inputs reach which positions (boolean n × n)."""
    m, reach, out = band(n, w).astype(np.int64), np.eye(n, dtype=np.int64), []
    for _ in range(layers):
        reach = ((m @ reach) > 0).astype(np.int64)
        out.append(reach.astype(bool))
    return out


def compute() -> dict:
    rows = []
    for w in WINDOWS:
        steps = influence(N, w, max(LAYERS))
        for layers in LAYERS:
            seen = int(steps[layers - 1][N - 1].sum())
            rows.append({"window": w, "layers": layers, "reach": seen - 1, "formula": layers * (w - 1),
                         "positions": seen})
    w, layers = EXAMPLE
    ex = influence(N, w, layers)
    m = preset("mistral_7b")
    per_token = kv_bytes_per_token(m["layers"], m["kv_heads"], m["head_size"], m["bytes_per_number"])
    cache = []
    for n in CONTEXTS:
        full, win = per_token * n, per_token * min(n, m["window"])
        cache.append({"context": n, "full_bytes": full, "window_bytes": win, "full_gib": full / GIB,
                      "window_gib": win / GIB, "saving": full / win})
    return {"small": {"n": N, "windows": list(WINDOWS), "layers": list(LAYERS)},
            "reach": rows,
            "reach_matches_formula": all(r["reach"] == r["formula"] for r in rows),
            "example": {"window": w, "layers": layers,
                        "influence": [step[N - 1].astype(int).tolist() for step in ex]},
            "model": {"id": m["id"], "name": m["name"], "window": m["window"], "layers": m["layers"],
                      "kv_heads": m["kv_heads"], "head_size": m["head_size"],
                      "bytes_per_number": m["bytes_per_number"], "bytes_per_token": per_token,
                      "reach": m["layers"] * (m["window"] - 1), "window_times_layers": m["layers"] * m["window"]},
            "cache_by_context": cache,
            "saving_at_32k": next(c["saving"] for c in cache if c["context"] == 32768),
            "source": citation("jiang2023")}


if __name__ == "__main__":
    import json
    r = compute()
    r.pop("example")
    print(json.dumps(r, indent=1))
