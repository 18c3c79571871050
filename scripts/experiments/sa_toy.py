"""Self-attention by hand on four 2-number tokens (identity weights: Q = K = V = X).

Tokens t1 = [2, 0], t2 = [0, 2], t3 = [2, 2], t4 = [-2, 0]; d = 2, divisor √2.
Keys returned:
  names, tokens, d, sqrt_d          the set-up
  scores                            QKᵀ (4×4)
  scaled                            QKᵀ / √2
  exps, exp_sums                    e^(scaled) per cell and each row's sum
  weights                           the attention matrix (rows sum to 1)
  output                            weights · V (4×2)
  rows: [{token, x1, x2, s_t1.., w_t1.., y1, y2}]   one row dict per token for a table
  row_t1_pct, t4_self_pct           the t1 row and t4's weight on itself, in percent
  slider: [{x, t4, scores, weights, output}]  t4 = [x, 0] for x = -2, -1.75, …, 2; at x = 2
                                    t4 equals t1 and the t1 row gives t1, t3, t4 equal weight
  slider_long: [{x, key, weight}]   the t1 row only, long format for a line chart
  equal_at_plus2                    max |w(t1→t1) − w(t1→t3)|, |w(t1→t1) − w(t1→t4)| at x = 2
  source_claims                       the source lesson's numbers next to these
"""
import math

from scripts.common.attention import attention_steps

NAMES = ["t1", "t2", "t3", "t4"]
TOKENS = [[2.0, 0.0], [0.0, 2.0], [2.0, 2.0], [-2.0, 0.0]]
XS = [-2 + 0.25 * i for i in range(17)]


def steps(tokens):
    """Identity weights (Q = K = V = X); the exponentials unshifted, as the page computes them by hand."""
    a = attention_steps(tokens, tokens, tokens, shift=False)
    return tuple(x.tolist() for x in (a.scores, a.scaled, a.exps, a.sums, a.weights, a.output))


def compute() -> dict:
    scores, scaled, exps, sums, weights, output = steps(TOKENS)
    rows = []
    for i, name in enumerate(NAMES):
        row = {"token": name, "x1": TOKENS[i][0], "x2": TOKENS[i][1],
               "y1": output[i][0], "y2": output[i][1], "exp_sum": sums[i]}
        for j, other in enumerate(NAMES):
            row[f"s_{other}"] = scores[i][j]
            row[f"z_{other}"] = scaled[i][j]
            row[f"e_{other}"] = exps[i][j]
            row[f"w_{other}"] = weights[i][j]
        rows.append(row)

    slider, long = [], []
    for x in XS:
        toks = TOKENS[:3] + [[x, 0.0]]
        sc, _, _, _, w, out = steps(toks)
        slider.append({"x": x, "t4": [x, 0.0], "scores": sc, "weights": w, "output": out})
        for j, other in enumerate(NAMES):
            long.append({"x": x, "key": other, "weight": w[0][j]})
    w_end = slider[-1]["weights"][0]
    equal_gap = max(abs(w_end[0] - w_end[2]), abs(w_end[0] - w_end[3]))

    r2 = lambda v: round(v, 2)  # noqa: E731
    claims = [
        {"claim": "exps of row t1", "source_value": [16.92, 1.00, 16.92, 0.059],
         "computed": [r2(exps[0][0]), r2(exps[0][1]), r2(exps[0][2]), round(exps[0][3], 3)]},
        {"claim": "sum of row t1 exps", "source_value": 34.90, "computed": r2(sums[0])},
        {"claim": "row t1 t1/t2/t3 in %", "source_value": [48.5, 2.9, 48.5],
         "computed": [round(100 * weights[0][j], 1) for j in range(3)]},
        {"claim": "t4 on itself in %", "source_value": 93.8, "computed": round(100 * weights[3][3], 1)},
        {"claim": "t1 output", "source_value": [1.94, 1.03], "computed": [r2(v) for v in output[0]]},
    ]
    for c in claims:
        c["agrees"] = c["source_value"] == c["computed"]

    return {
        "names": NAMES,
        "tokens": TOKENS,
        "d": 2,
        "sqrt_d": math.sqrt(2),
        "scores": scores,
        "scaled": scaled,
        "exps": exps,
        "exp_sums": sums,
        "weights": weights,
        "output": output,
        "rows": rows,
        "row_t1_pct": [100 * w for w in weights[0]],
        "t4_self_pct": 100 * weights[3][3],
        "slider": slider,
        "slider_long": long,
        "equal_at_plus2": equal_gap,
        "source_claims": claims,
    }
