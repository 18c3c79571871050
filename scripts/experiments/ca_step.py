"""Cross-attention, one decoder step worked by hand (2-D query, keys and values)
Keys returned:
  illustrative -- true: all vectors are hand-set toy numbers
  q            -- the decoder's query for the 6th English word, (1, 1)
  d            -- vector size (2); scores are divided by sqrt(d)
  sqrt_d       -- sqrt(2)
  meanings     -- the meaning of each source word, in the order the keys are listed (the words
                  themselves, in each language's order, are in scripts/i18n/<lang>/, charts.*.example)
  keys, values -- one 2-D key and one 2-D value per source word (same order)
  scores       -- q . k for each word (full precision)
  scaled       -- scores / sqrt(d)
  weights      -- softmax(scaled)
  scores_2dp, scaled_2dp, weights_2dp -- the same, rounded to 2 decimals (what the page and the
                  snippet print)
  weights_2dp_sum -- sum of the rounded weights
  output       -- weighted sum of the values (2-D), and output_2dp
  nearest_value_meaning -- the source word whose value is closest to the output
  top          -- {index, meaning, weight, weight_1dp}: the heaviest source word
  source_claims -- each number the source lesson quotes next to what is computed here
  interactive  -- data for the slider chart: only the keys/values are stored; the browser
                  computes scores and softmax with Vega transforms from the reader's q1, q2
"""
import math

from scripts.common.attention import attention_steps

Q = (1, 1)
MEANINGS = ["cat", "on", "mat", "sit"]               # the source word of each key
KEYS = [(1, 0), (0, 1), (2, 2), (-1, 1)]
# Hand-set values (what each source word hands over when attended to).
VALUES = [(1.0, 2.0), (0.0, -1.0), (3.0, 1.0), (-2.0, 0.0)]

# Numbers printed in the source lesson for this step.
SEED_SCORES = [1, 1, 4, 0]
SEED_SCALED = [0.71, 0.71, 2.83, 0]
SEED_WEIGHTS = [0.09, 0.09, 0.77, 0.05]
SEED_ABOUT = 0.8


def _r2(x):
    # the same rounding as Python's "{:.2f}" (used by the snippet), returned as a float
    return float(f"{x:.2f}")


def step(q=Q, keys=KEYS, values=VALUES):
    a = attention_steps([q], keys, values)
    return a.scores[0].tolist(), a.scaled[0].tolist(), a.weights[0].tolist(), a.output[0].tolist()


def compute():
    scores, scaled, weights, output = step()
    top = max(range(len(weights)), key=weights.__getitem__)
    dist = [math.dist(output, v) for v in VALUES]
    nearest = min(range(len(dist)), key=dist.__getitem__)

    claims = [
        {"claim": "scores", "source_value": SEED_SCORES, "computed": [_r2(x) for x in scores],
         "agrees": [_r2(x) for x in scores] == [float(x) for x in SEED_SCORES]},
        {"claim": "scaled", "source_value": SEED_SCALED, "computed": [_r2(x) for x in scaled],
         "agrees": [_r2(x) for x in scaled] == [float(x) for x in SEED_SCALED]},
        {"claim": "weights", "source_value": SEED_WEIGHTS, "computed": [_r2(x) for x in weights],
         "agrees": [_r2(x) for x in weights] == SEED_WEIGHTS},
        {"claim": "weight on mat is about 0.8", "source_value": SEED_ABOUT,
         "computed": weights[2], "computed_1dp": round(weights[2], 1),
         "agrees": round(weights[2], 1) == SEED_ABOUT},
    ]
    return {
        "illustrative": True,
        "q": list(Q),
        "d": len(Q),
        "sqrt_d": math.sqrt(len(Q)),
        "meanings": list(MEANINGS),
        "keys": [list(k) for k in KEYS],
        "values": [list(v) for v in VALUES],
        "scores": scores,
        "scaled": scaled,
        "weights": weights,
        "scores_2dp": [_r2(x) for x in scores],
        "scaled_2dp": [_r2(x) for x in scaled],
        "weights_2dp": [_r2(x) for x in weights],
        "weights_2dp_sum": round(sum(_r2(x) for x in weights), 2),
        "output": output,
        "output_2dp": [_r2(x) for x in output],
        "nearest_value_meaning": MEANINGS[nearest],
        "top": {"index": top, "meaning": MEANINGS[top], "weight": weights[top], "weight_1dp": round(weights[top], 1)},
        "source_claims": claims,
        "interactive": {
            "computed_in_browser": True,
            "note": "only keys and values are stored; the chart computes q.k/sqrt(2), softmax "
                    "and the weighted sum of values with Vega transforms from the sliders",
            "q_default": list(Q),
            "q_min": -3,
            "q_max": 3,
            "q_step": 0.5,
            "sources": [{"i": i, "meaning": MEANINGS[i], "k1": KEYS[i][0], "k2": KEYS[i][1],
                         "v1": VALUES[i][0], "v2": VALUES[i][1]} for i in range(4)],
        },
    }
