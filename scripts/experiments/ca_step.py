"""Cross-attention, one decoder step worked by hand (2-D query, keys and values)
Keys returned:
  illustrative -- true: all vectors are hand-set toy numbers
  q            -- the decoder's query for the 6th English word, (1, 1)
  d            -- vector size (2); scores are divided by sqrt(d)
  sqrt_d       -- sqrt(2)
  words_fa     -- the four source words in the order the keys are listed (Persian sentence order)
  words_uk     -- the Ukrainian word with the same meaning at each of those positions
  uk_sentence  -- the Ukrainian source sentence; uk_order = its word order as indices into words_uk
  keys, values -- one 2-D key and one 2-D value per source word (same order)
  scores       -- q . k for each word (full precision)
  scaled       -- scores / sqrt(d)
  weights      -- softmax(scaled)
  scores_2dp, scaled_2dp, weights_2dp -- the same, rounded to 2 decimals (what the page and the
                  snippet print)
  weights_2dp_sum -- sum of the rounded weights
  output       -- weighted sum of the values (2-D), and output_2dp
  nearest_value_word_fa / _uk -- the source word whose value is closest to the output
  top          -- {index, word_fa, word_uk, weight, weight_1dp}: the heaviest source word
  seed_claims  -- each number the source lesson quotes next to what is computed here
  uk_rows, fa_rows -- table rows {word, k1, k2, v1, v2, score, scaled, weight} in each page's
                  sentence order (fa: keys order, uk: Ukrainian sentence order)
  interactive  -- data for the slider chart: only the keys/values are stored; the browser
                  computes scores and softmax with Vega transforms from the reader's q1, q2
"""
import math

from scripts.common.attention import attention_steps

Q = (1, 1)
WORDS_FA = ["گربه", "روی", "فرش", "نشست"]
WORDS_UK = ["кіт", "на", "килимок", "сів"]          # same meaning, same position
UK_SENTENCE = "Кіт сів на килимок"
UK_ORDER = [0, 3, 1, 2]                               # Кіт, сів, на, килимок
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

    def rows(order, words):
        return [{"word": words[i], "k1": KEYS[i][0], "k2": KEYS[i][1],
                 "v1": VALUES[i][0], "v2": VALUES[i][1], "score": scores[i],
                 "scaled": scaled[i], "weight": weights[i]} for i in order]

    claims = [
        {"claim": "scores", "seed": SEED_SCORES, "computed": [_r2(x) for x in scores],
         "agrees": [_r2(x) for x in scores] == [float(x) for x in SEED_SCORES]},
        {"claim": "scaled", "seed": SEED_SCALED, "computed": [_r2(x) for x in scaled],
         "agrees": [_r2(x) for x in scaled] == [float(x) for x in SEED_SCALED]},
        {"claim": "weights", "seed": SEED_WEIGHTS, "computed": [_r2(x) for x in weights],
         "agrees": [_r2(x) for x in weights] == SEED_WEIGHTS},
        {"claim": "weight on فرش is about 0.8", "seed": SEED_ABOUT,
         "computed": weights[2], "computed_1dp": round(weights[2], 1),
         "agrees": round(weights[2], 1) == SEED_ABOUT},
    ]
    return {
        "illustrative": True,
        "q": list(Q),
        "d": len(Q),
        "sqrt_d": math.sqrt(len(Q)),
        "words_fa": list(WORDS_FA),
        "words_uk": list(WORDS_UK),
        "uk_sentence": UK_SENTENCE,
        "uk_order": list(UK_ORDER),
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
        "nearest_value_word_fa": WORDS_FA[nearest],
        "nearest_value_word_uk": WORDS_UK[nearest],
        "top": {"index": top, "word_fa": WORDS_FA[top], "word_uk": WORDS_UK[top],
                "weight": weights[top], "weight_1dp": round(weights[top], 1)},
        "seed_claims": claims,
        "fa_rows": rows(range(4), WORDS_FA),
        "uk_rows": rows(UK_ORDER, WORDS_UK),
        "interactive": {
            "computed_in_browser": True,
            "note": "only keys and values are stored; the chart computes q.k/sqrt(2), softmax "
                    "and the weighted sum of values with Vega transforms from the sliders",
            "q_default": list(Q),
            "q_min": -3,
            "q_max": 3,
            "q_step": 0.5,
            "sources": [{"i": i, "word_fa": WORDS_FA[i], "word_uk": WORDS_UK[i],
                         "k1": KEYS[i][0], "k2": KEYS[i][1],
                         "v1": VALUES[i][0], "v2": VALUES[i][1]} for i in range(4)],
        },
    }


if __name__ == "__main__":
    import json
    print(json.dumps(compute(), ensure_ascii=False, indent=1))
