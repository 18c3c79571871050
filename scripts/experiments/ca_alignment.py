"""Cross-attention alignment table (illustrative): Persian and Ukrainian source -> English target
Keys returned:
  illustrative  -- true: the weights come from hand-set vectors, not from a trained model
  method        -- how the weights are made (hand-set 4-D query/key vectors, scaled dot product, softmax)
  dims          -- names of the 4 hand-set feature dimensions
  d             -- vector size (4); the scores are divided by sqrt(d)
  target        -- the English words the decoder writes, one row each
  keys          -- {meaning: key vector} shared by both source languages (same meaning -> same key)
  queries       -- [{target, q}] one hand-set query per English word
  fa, uk        -- per source language:
      sentence        -- the source sentence
      source          -- source words in sentence order (the columns)
      meaning         -- the meaning tag of each source word (links columns across languages)
      target          -- the English words (the rows)
      matrix          -- weights, rows = target words, columns = source words, rounded to 3 decimals
      row_sums        -- sum of each unrounded row (1 up to float error)
      argmax          -- per row: index of the heaviest source word
      argmax_word     -- per row: that source word
      max_weight      -- per row: the largest weight (3 decimals)
      content_argmax_positions -- source positions picked by cat, sat, on, mat (in that order)
      monotonic       -- whether those positions never go backwards (word order kept)
      table           -- rows {target, s1..s4} for a page table (s_i = weight on source word i)
      cells           -- long format {row, col, target, source, weight} for a heat map
  spread_rows   -- indices of the rows meant to be spread out ("the")
"""
from scripts.common.attention import attention_steps

DIMS = ["animal", "action", "relation", "object"]
D = len(DIMS)

# One key per meaning, hand-set in the 4 feature dimensions above.  The same meaning gets the
# same key in both languages, so the two tables differ only by the order of their columns.
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

SOURCES = {
    "fa": {
        "sentence": "گربه روی فرش نشست",
        "source": ["گربه", "روی", "فرش", "نشست"],
        "meaning": ["cat", "on", "mat", "sit"],
    },
    "uk": {
        "sentence": "Кіт сів на килимок",
        "source": ["Кіт", "сів", "на", "килимок"],
        "meaning": ["cat", "sit", "on", "mat"],
    },
}

# Content words of the target and the meaning each is meant to find.
CONTENT = [("cat", "cat"), ("sat", "sit"), ("on", "on"), ("mat", "mat")]


def weights(meanings):
    """Unrounded cross-attention weights: rows = TARGET, columns = the given source meanings."""
    return attention_steps(QUERIES, [KEYS[m] for m in meanings]).weights.tolist()


def _one(lang):
    src = SOURCES[lang]
    w = weights(src["meaning"])
    argmax = [max(range(len(row)), key=row.__getitem__) for row in w]
    content_pos = [argmax[TARGET.index(word)] for word, _ in CONTENT]
    table = []
    cells = []
    for i, (word, row) in enumerate(zip(TARGET, w)):
        r = {"target": word}
        for j, x in enumerate(row):
            r[f"s{j + 1}"] = round(x, 3)
            cells.append({"row": i, "col": j, "target": word, "source": src["source"][j],
                          "weight": round(x, 3)})
        table.append(r)
    return {
        "sentence": src["sentence"],
        "source": list(src["source"]),
        "meaning": list(src["meaning"]),
        "target": list(TARGET),
        "matrix": [[round(x, 3) for x in row] for row in w],
        "row_sums": [sum(row) for row in w],
        "argmax": argmax,
        "argmax_word": [src["source"][j] for j in argmax],
        "max_weight": [round(max(row), 3) for row in w],
        "content_argmax_positions": content_pos,
        "monotonic": all(a <= b for a, b in zip(content_pos, content_pos[1:])),
        "table": table,
        "cells": cells,
    }


def compute():
    return {
        "illustrative": True,
        "method": "hand-set 4-D query and key vectors; score = q.k / sqrt(4); softmax over the "
                  "4 source words of each row (constructed, not trained)",
        "dims": list(DIMS),
        "d": D,
        "target": list(TARGET),
        "keys": {m: list(v) for m, v in KEYS.items()},
        "queries": [{"target": t, "q": list(q)} for t, q in zip(TARGET, QUERIES)],
        "fa": _one("fa"),
        "uk": _one("uk"),
        "spread_rows": list(SPREAD_ROWS),
    }


if __name__ == "__main__":
    import json
    print(json.dumps(compute(), ensure_ascii=False, indent=1))
