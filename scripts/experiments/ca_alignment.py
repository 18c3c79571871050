"""Cross-attention alignment table (illustrative): source words by meaning -> English target
Keys returned:
  illustrative  -- true: the weights come from hand-set vectors, not from a trained model
  method        -- how the weights are made (hand-set 4-D query/key vectors, scaled dot product, softmax)
  dims          -- names of the 4 hand-set feature dimensions
  d             -- vector size (4); the scores are divided by sqrt(d)
  target        -- the English words the decoder writes, one row each
  meanings      -- the source words by meaning, one column each (the words, in each language's
                   order, are in scripts/i18n/<lang>/, charts.*.example; a language's table is this
                   one with its columns reordered: the same meaning has the same key in every language)
  keys          -- {meaning: key vector}
  queries       -- [{target, q}] one hand-set query per English word
  matrix        -- weights, rows = target words, columns = meanings, rounded to 3 decimals
  row_sums      -- sum of each unrounded row (1 up to float error)
  argmax        -- per row: the meaning of the heaviest source word
  max_weight    -- per row: the largest weight (3 decimals)
  content       -- [{target, meaning, found}]: each content word of the target, the meaning it is
                   meant to find and the one it gives most weight to
  spread_rows   -- indices of the rows meant to be spread out ("the")
"""
from scripts.common.attention import attention_steps

DIMS = ["animal", "action", "relation", "object"]
D = len(DIMS)

# One key per meaning, hand-set in the 4 feature dimensions above.  A meaning has the same key
# in every language, so the languages' tables differ only by the order of their columns.
KEYS = {
    "cat": [2.0, 0.2, 0.0, 0.4],
    "sit": [0.2, 2.0, 0.4, 0.0],
    "on": [0.0, 0.4, 2.0, 0.4],
    "mat": [0.4, 0.0, 0.4, 2.0],
}

# One query per English word being written.  Content words point hard at one dimension; the two
# articles have weak, mixed queries, so their attention stays spread out.
TARGET = ["the", "cat", "sat", "on", "the", "mat"]
QUERIES = [
    [0.6, 0.2, 0.2, 0.4],
    [2.6, 0.0, 0.0, 0.0],
    [0.0, 2.6, 0.0, 0.0],
    [0.0, 0.0, 2.6, 0.0],
    [0.3, 0.1, 0.3, 0.6],
    [0.0, 0.0, 0.0, 2.6],
]
SPREAD_ROWS = [0, 4]

# Content words of the target and the meaning each is meant to find.
CONTENT = [("cat", "cat"), ("sat", "sit"), ("on", "on"), ("mat", "mat")]


def weights(meanings):
    """Unrounded cross-attention weights: rows = TARGET, columns = the given source meanings."""
    return attention_steps(QUERIES, [KEYS[m] for m in meanings]).weights.tolist()


def compute():
    meanings = list(KEYS)
    w = weights(meanings)
    argmax = [meanings[max(range(len(row)), key=row.__getitem__)] for row in w]
    return {
        "illustrative": True,
        "method": "hand-set 4-D query and key vectors; score = q.k / sqrt(4); softmax over the "
                  "4 source words of each row (constructed, not trained)",
        "dims": list(DIMS),
        "d": D,
        "target": list(TARGET),
        "meanings": meanings,
        "keys": {m: list(v) for m, v in KEYS.items()},
        "queries": [{"target": t, "q": list(q)} for t, q in zip(TARGET, QUERIES)],
        "matrix": [[round(x, 3) for x in row] for row in w],
        "row_sums": [sum(row) for row in w],
        "argmax": argmax,
        "max_weight": [round(max(row), 3) for row in w],
        "content": [{"target": word, "meaning": m, "found": argmax[TARGET.index(word)]} for word, m in CONTENT],
        "spread_rows": list(SPREAD_ROWS),
    }
