"""How big the key/value cache gets: bytes per token for published models, then per context and batch.

While a decoder generates, each layer keeps the key and the value of every token so far for each of its
key/value heads. One token therefore costs

    bytes per token = 2 × layers × key/value heads × head size × bytes per number

and a batch of B sequences of n tokens costs B × n × that. The configurations are set-up data typed
once, with their sources, in scripts/common/published_models.py (numbers from the papers' tables and
released config files; nothing downloaded). Each model's cache is compared with its own weights
(parameter count as its paper states it × the same bytes per number).

Units: bytes, and MiB / GiB = 2²⁰ / 2³⁰ bytes (the PagedAttention paper's "800 KB" for OPT-13B is
819 200 bytes = 800 × 1 024).
Keys returned:
  formula                    the formula above, as text
  formats: [{format, bytes}] number formats the calculator offers
  presets: [{id, name, layers, heads, kv_heads, head_size, d_model, context, params, params_as_stated,
             bytes_per_number, window, group_factor, sources: [{ref, gives, citation}],
             bytes_per_token, kib_per_token, weights_bytes, weights_gib,
             full_context_bytes, full_context_gib, full_context_over_weights,
             tokens_to_match_weights}]
                             every number at the preset's own format; group_factor = heads / kv_heads;
                             full_context_* = one sequence at the model's full context;
                             tokens_to_match_weights = tokens (over the whole batch) whose cache
                             weighs as much as the weights
  by_format: [{id, format, bytes, bytes_per_token}]   each preset in each number format
  contexts, batches          the context lengths and batch sizes of the grid
  grid: [{id, context, batch, cache_bytes, cache_gib, over_weights}]
                             each preset at its own format, for each context ≤ its own and each batch
  references: {<ref>: citation}   every source named above, one line each
  checks: {opt_13b_kib_per_token, opt_13b_request_kib}   the PagedAttention paper's two OPT-13B figures
                             recomputed here: 800 KB a token (KB = 1 024 bytes), and 2 048 tokens ×
                             800 KB = 1 638 400 KB, which the paper writes "1.6 GB"
"""
from __future__ import annotations

from scripts.common.published_models import FORMATS, PRESETS, REFERENCES, citation, kv_bytes_per_token

CONTEXTS = (512, 1024, 2048, 4096, 8192, 32768)
BATCHES = (1, 8, 32)
MIB, GIB = 2 ** 20, 2 ** 30


def preset_row(p: dict) -> dict:
    per_token = kv_bytes_per_token(p["layers"], p["kv_heads"], p["head_size"], p["bytes_per_number"])
    weights = p["params"] * p["bytes_per_number"]
    full = per_token * p["context"]
    return {**{k: v for k, v in p.items() if k != "sources"},
            "sources": [{**s, "citation": citation(s["ref"])} for s in p["sources"]],
            "group_factor": p["heads"] // p["kv_heads"],
            "bytes_per_token": per_token, "kib_per_token": per_token / 1024,
            "weights_bytes": weights, "weights_gib": weights / GIB,
            "full_context_bytes": full, "full_context_gib": full / GIB,
            "full_context_over_weights": full / weights,
            "tokens_to_match_weights": weights / per_token}


def compute() -> dict:
    presets = [preset_row(p) for p in PRESETS]
    by_format = [{"id": p["id"], "format": f["format"], "bytes": f["bytes"],
                  "bytes_per_token": kv_bytes_per_token(p["layers"], p["kv_heads"], p["head_size"], f["bytes"])}
                 for p in PRESETS for f in FORMATS]
    grid = []
    for p in presets:
        for n in CONTEXTS:
            if n > p["context"]:
                continue
            for b in BATCHES:
                cache = p["bytes_per_token"] * n * b
                grid.append({"id": p["id"], "context": n, "batch": b, "cache_bytes": cache,
                             "cache_gib": cache / GIB, "over_weights": cache / p["weights_bytes"]})
    opt = next(p for p in presets if p["id"] == "opt_13b")
    refs = sorted({s["ref"] for p in PRESETS for s in p["sources"]})
    return {"formula": "2 × layers × kv_heads × head_size × bytes_per_number",
            "formats": FORMATS, "presets": presets, "by_format": by_format,
            "contexts": list(CONTEXTS), "batches": list(BATCHES), "grid": grid,
            "references": {r: citation(r) for r in refs if r in REFERENCES},
            "checks": {"opt_13b_kib_per_token": opt["kib_per_token"],
                       "opt_13b_request_kib": opt["bytes_per_token"] * opt["context"] / 1024}}


if __name__ == "__main__":
    import json
    r = compute()
    for p in r["presets"]:
        print(p["name"], p["bytes_per_token"], round(p["full_context_gib"], 3), round(p["full_context_over_weights"], 3),
              round(p["tokens_to_match_weights"]))
    print(json.dumps(r["checks"]))
