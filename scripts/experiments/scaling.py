"""Why divide by √d: the typical largest softmax weight of a 49-wide row against d.

For each d (1 … 1024, log-spaced) a query q and 49 keys have independent N(0, 1) entries; we take
the softmax of the row of scores, once as q·k and once as q·k / √d. Given q, the 49 scores q·kⱼ
are independent N(0, |q|²), so a row is drawn exactly as |q|·zⱼ with |q|² ~ χ²(d) and zⱼ ~ N(0, 1):
the cost no longer grows with d, and 20 000 rows per d keep the curve's noise near 0.001.
Keys returned:
  n_keys, rows_per_d, seed        the set-up
  curve: [{d, series, pmax}]      mean largest weight per row; series is "raw" or "scaled"
  at: {"<d>": {raw, scaled}}      the same for a few d quoted in prose (4, 16, 64, 256, 1024)
  uniform                          1/49, the weight of a perfectly even row
"""
import numpy as np

from scripts.common.attention import softmax_rows

N_KEYS = 49
ROWS = 20_000
SEED = 19
QUOTED = (4, 16, 64, 256, 1024)


def grid() -> list[int]:
    """Whole d from 1 to 1024, about five points per doubling, no repeats."""
    return sorted({int(round(2 ** (k / 5))) for k in range(0, 51)})


def mean_max_softmax(scores: np.ndarray) -> float:
    return float(softmax_rows(scores).max(axis=1).mean())


def compute() -> dict:
    rng = np.random.default_rng(SEED)
    curve, at = [], {}
    for d in grid():
        q_norm = np.sqrt(rng.chisquare(d, size=(ROWS, 1)))
        s = q_norm * rng.standard_normal((ROWS, N_KEYS))
        raw, scaled = mean_max_softmax(s), mean_max_softmax(s / np.sqrt(d))
        curve += [{"d": d, "series": "raw", "pmax": raw}, {"d": d, "series": "scaled", "pmax": scaled}]
        if d in QUOTED:
            at[str(d)] = {"raw": raw, "scaled": scaled}
    return {"n_keys": N_KEYS, "rows_per_d": ROWS, "seed": SEED, "curve": curve, "at": at,
            "uniform": 1 / N_KEYS}
