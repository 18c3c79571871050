"""Attention does not see order: permutation equivariance, checked on the 49 tokens of a shape.

Tokens: the ring's 49 standardised patches, embedded to d = 32 (scripts.common.attention.
embed_tokens). f is a freshly initialised nn.MultiheadAttention(32, 4 heads) in float32. For a
random permutation P we compare f(P x) with P f(x), as max |difference| over all 49 × 32 numbers:
  * attention without positional encoding: equal up to float32 rounding;
  * attention with a random positional encoding e added (f(P x + e) vs P f(x + e)): e belongs to
    the positions, not to the tokens, so it does not move with them;
  * Conv1d(32, 32, kernel 3, padding 1) along the token sequence, as the contrast.
The positional encoding is drawn once, N(0, 0.1²) per entry: small next to the token entries
(std ≈ 0.94). How large the "with PE" error is depends on that choice (it grows in proportion to
the PE's size, see pe_sweep); what does not depend on it is that it is far above float noise.
Keys returned:
  d, heads, n_tokens, shape, seed      the set-up
  err_no_pe, err_pe, err_conv          max |f(Px) − P f(x)| for the main permutation
  out_scale, out_scale_conv            mean |f(x)| of the attention (no PE) and conv outputs
  rel_err_no_pe                        err_no_pe / out_scale
  pe_std, token_std                    std of the positional encoding and of the token entries
  pe_sweep: [{pe_std, err_pe}]         the main permutation's error for PEs of other sizes (the
                                       same draw, rescaled)
  table: [{op, err}]                   the three rows (op: "attention", "attention_pe", "conv")
  permutations: [{i, perm, err_no_pe, err_pe, err_conv}]   8 seeded permutations, for the
                                       "shuffle" interactive (perm[j] = which token goes to slot j)
  worst_no_pe, smallest_pe             max err_no_pe and min err_pe over those permutations
  patches                              the ring's 49×16 patch vectors (3 decimals) to draw
  corners: {kind, pooled_diff_no_pe, pooled_diff_pe, pooled_scale, logit_diff_no_pe,
            perm_is_patch_move}
      the same small shape in the top-left vs the bottom-right corner (the second image is the
      first with its patches moved); attention without PE, outputs mean-pooled over the 49 tokens:
      max |pooled_TL − pooled_BR| (float noise → any linear classifier gives both the same
      score), the same with the PE added, and a random linear classifier's |logit difference|
  source_claims                          the source lesson's numbers next to these
"""
import numpy as np
import torch
from torch import nn

from scripts.common.attention import embed_tokens, single_thread
from scripts.common.shapes import corner_images, patches, shape_tokens, standardize

D = 32
HEADS = 4
SHAPE = "ring"
SEED = 7
N_PERMS = 8
PE_STD = 0.1
PE_SWEEP = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


def max_err(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a - b).abs().max())


def compute() -> dict:
    with single_thread(), torch.no_grad():
        torch.manual_seed(SEED)
        mha = nn.MultiheadAttention(D, HEADS, batch_first=True).eval()
        conv = nn.Conv1d(D, D, kernel_size=3, padding=1)
        gen = torch.Generator().manual_seed(SEED)

        x = torch.tensor(embed_tokens(shape_tokens(SHAPE), d=D), dtype=torch.float32)
        noise = torch.randn(x.shape, generator=gen)
        pe = noise * PE_STD

        def attn(t):
            return mha(t[None], t[None], t[None], need_weights=False)[0][0]

        def conv_tokens(t):                       # Conv1d wants (batch, channels, length)
            return conv(t.T[None])[0].T

        y, y_pe, y_conv = attn(x), attn(x + pe), conv_tokens(x)

        def errors(perm):
            return (max_err(attn(x[perm]), y[perm]),
                    max_err(attn(x[perm] + pe), y_pe[perm]),
                    max_err(conv_tokens(x[perm]), y_conv[perm]))

        perms = [torch.randperm(x.shape[0], generator=gen) for _ in range(N_PERMS)]
        rows = []
        for i, p in enumerate(perms):
            e0, e1, e2 = errors(p)
            rows.append({"i": i, "perm": p.tolist(), "err_no_pe": e0, "err_pe": e1, "err_conv": e2})
        err_no_pe, err_pe, err_conv = rows[0]["err_no_pe"], rows[0]["err_pe"], rows[0]["err_conv"]
        out_scale = float(y.abs().mean())
        p0 = perms[0]
        sweep = [{"pe_std": s, "err_pe": max_err(attn(x[p0] + noise * s), attn(x + noise * s)[p0])}
                 for s in PE_SWEEP]

        # corners: the same small ring top-left vs bottom-right
        tl, br, cperm = corner_images(SHAPE, seed=SEED)
        xt = torch.tensor(embed_tokens(np.round(patches(standardize(tl)), 4), d=D), dtype=torch.float32)
        xb = torch.tensor(embed_tokens(np.round(patches(standardize(br)), 4), d=D), dtype=torch.float32)
        moved = bool(torch.equal(xb, xt[cperm]))
        pooled_t, pooled_b = attn(xt).mean(0), attn(xb).mean(0)
        pooled_t_pe, pooled_b_pe = attn(xt + pe).mean(0), attn(xb + pe).mean(0)
        clf = nn.Linear(D, 1)
        logit_diff = float((clf(pooled_t) - clf(pooled_b)).abs().max())

    table = [{"op": "attention", "err": err_no_pe},
             {"op": "attention_pe", "err": err_pe},
             {"op": "conv", "err": err_conv}]
    return {
        "d": D,
        "heads": HEADS,
        "n_tokens": int(x.shape[0]),
        "shape": SHAPE,
        "seed": SEED,
        "pe_std": PE_STD,
        "token_std": float(x.std()),
        "pe_sweep": sweep,
        "err_no_pe": err_no_pe,
        "err_pe": err_pe,
        "err_conv": err_conv,
        "out_scale": out_scale,
        "out_scale_conv": float(y_conv.abs().mean()),
        "rel_err_no_pe": err_no_pe / out_scale,
        "table": table,
        "permutations": rows,
        "worst_no_pe": max(r["err_no_pe"] for r in rows),
        "smallest_pe": min(r["err_pe"] for r in rows),
        "patches": np.round(shape_tokens(SHAPE), 3).tolist(),
        "corners": {
            "kind": SHAPE,
            "perm_is_patch_move": moved,
            "pooled_diff_no_pe": max_err(pooled_t, pooled_b),
            "pooled_diff_pe": max_err(pooled_t_pe, pooled_b_pe),
            "pooled_scale": float(pooled_t.abs().mean()),
            "logit_diff_no_pe": logit_diff,
        },
        "source_claims": [
            {"claim": "attention without PE, max difference", "source_value": 1.8e-7, "computed": err_no_pe},
            {"claim": "attention with PE, max difference", "source_value": 0.135, "computed": err_pe},
            {"claim": "Conv1d(3), max difference", "source_value": 1.700, "computed": err_conv},
            {"claim": "output scale mean |f(x)|", "source_value": 0.82, "computed": out_scale},
        ],
    }


if __name__ == "__main__":
    import json
    r = compute()
    r["permutations"] = [{k: v for k, v in row.items() if k != "perm"} for row in r["permutations"]]
    r.pop("patches")
    print(json.dumps(r, ensure_ascii=False, indent=1))
