"""Attention does not see order: permutation equivariance, checked on the 49 tokens of a shape.

Tokens: the ring's 49 standardised patches, embedded to d = 32 (scripts.common.attention.
embed_tokens). f is a freshly initialised nn.MultiheadAttention(32, 4 heads). For a random
permutation P we compare f(P x) with P f(x), as max |difference| over all 49 × 32 numbers:
  * attention without positional encoding: equal up to rounding;
  * attention with a random positional encoding e added (f(P x + e) vs P f(x + e)): e belongs to
    the positions, not to the tokens, so it does not move with them;
  * Conv1d(32, 32, kernel 3, padding 1) along the token sequence, as the contrast.
The positional encoding is drawn once, N(0, 0.1²) per entry: small next to the token entries
(std ≈ 0.94). How large the "with PE" error is depends on that choice (it grows in proportion to
the PE's size, see pe_sweep); what does not depend on it is that it is far above rounding noise.

Layers and draws are made in float64 (a float32 draw's last bit depends on the CPU's kernel path),
and the float32 run rounds the same draws to float32; the numbers here are computed in float64, so
they are the same on every CPU. Without PE the difference is rounding noise, and the size of noise is
a fact about the machine's arithmetic, not about attention: the data says only that it stays below
a bound (NOISE_BOUND, per number format: in float32, as models run, and in float64), for every
permutation and for the corners; measure() writes the sizes themselves, with the machine, to
generated/timings/sa_equivariance.json.
Keys returned:
  d, heads, n_tokens, shape, seed      the set-up
  noise_bound {float32, float64}       the bound the differences without PE stay below
  no_pe_below_bound {float32, float64} true when every difference without PE (all permutations,
                                       the corners' pooled outputs and logits) is below it
  err_pe, err_conv                     max |f(Px) − P f(x)| for the main permutation, float64
  out_scale, out_scale_conv            mean |f(x)| of the attention (no PE) and conv outputs
  pe_std, token_std                    std of the positional encoding and of the token entries
  pe_sweep: [{pe_std, err_pe}]         the main permutation's error for PEs of other sizes (the
                                       same draw, rescaled)
  table: [{op, err}]                   the two rows with an error above noise (op: "attention_pe", "conv")
  permutations: [{i, perm, err_pe, err_conv}]   8 seeded permutations, for the "shuffle" interactive
                                       (perm[j] = which token goes to slot j)
  smallest_pe                          min err_pe over those permutations
  patches                              the ring's 49×16 patch vectors (3 decimals) to draw
  corners: {kind, pooled_diff_pe, pooled_scale, perm_is_patch_move}
      the same small shape in the top-left vs the bottom-right corner (the second image is the
      first with its patches moved); attention outputs mean-pooled over the 49 tokens: without PE
      the pooled vectors differ by rounding noise only (in no_pe_below_bound), so any linear
      classifier gives both the same score; with the PE added, max |pooled_TL − pooled_BR|
  source_claims                          the source lesson's numbers next to these
"""
import numpy as np
import torch
from torch import nn

from scripts.common.attention import embed_tokens, single_thread
from scripts.common.shapes import corner_images, patches, shape_tokens, standardize
from scripts.common.training import float64

D = 32
HEADS = 4
SHAPE = "ring"
SEED = 7
N_PERMS = 8
PE_STD = 0.1
PE_SWEEP = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


NOISE_BOUND = {"float32": 1e-6, "float64": 1e-12}   # far above each format's rounding, far below err_pe
DTYPES = {"float32": torch.float32, "float64": torch.float64}
LAST = {}   # the last run's noise sizes, for measure() (never in the data)


def max_err(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a - b).abs().max())


def run(dtype: torch.dtype) -> dict:
    """Every measurement in one number format (layers and draws the same in both)."""
    with single_thread(), torch.no_grad():
        torch.manual_seed(SEED)
        with float64():
            mha = nn.MultiheadAttention(D, HEADS, batch_first=True).eval().to(dtype)
            conv = nn.Conv1d(D, D, kernel_size=3, padding=1).to(dtype)
        gen = torch.Generator().manual_seed(SEED)

        x = torch.tensor(embed_tokens(shape_tokens(SHAPE), d=D), dtype=dtype)
        noise = torch.randn(x.shape, generator=gen, dtype=torch.float64).to(dtype)
        pe = noise * PE_STD

        def attn(t):
            return mha(t[None], t[None], t[None], need_weights=False)[0][0]

        def conv_tokens(t):                       # Conv1d wants (batch, channels, length)
            return conv(t.T[None])[0].T

        y, y_pe, y_conv = attn(x), attn(x + pe), conv_tokens(x)
        perms = [torch.randperm(x.shape[0], generator=gen) for _ in range(N_PERMS)]
        rows = [{"i": i, "perm": p.tolist(), "err_no_pe": max_err(attn(x[p]), y[p]),
                 "err_pe": max_err(attn(x[p] + pe), y_pe[p]), "err_conv": max_err(conv_tokens(x[p]), y_conv[p])}
                for i, p in enumerate(perms)]
        p0 = perms[0]
        sweep = [{"pe_std": s, "err_pe": max_err(attn(x[p0] + noise * s), attn(x + noise * s)[p0])}
                 for s in PE_SWEEP]

        # corners: the same small ring top-left vs bottom-right
        tl, br, cperm = corner_images(SHAPE, seed=SEED)
        tokens_tl, tokens_br = (np.round(patches(standardize(img)), 4) for img in (tl, br))
        xt = torch.tensor(embed_tokens(tokens_tl, d=D), dtype=dtype)
        xb = torch.tensor(embed_tokens(tokens_br, d=D), dtype=dtype)
        pooled_t, pooled_b = attn(xt).mean(0), attn(xb).mean(0)
        with float64():
            clf = nn.Linear(D, 1).to(dtype)
        return {"x": x, "y": y, "y_conv": y_conv, "rows": rows, "sweep": sweep,
                # the claim is about the images' patches; once embedded, a row's last bits may depend on its
                # place in the matrix product (AVX-512 OpenBLAS), which is rounding noise like the rest
                "moved": bool(np.array_equal(tokens_br, tokens_tl[cperm])),
                "pooled_diff_no_pe": max_err(pooled_t, pooled_b),
                "pooled_diff_pe": max_err(attn(xt + pe).mean(0), attn(xb + pe).mean(0)),
                "pooled_scale": float(pooled_t.abs().mean()),
                "logit_diff_no_pe": float((clf(pooled_t) - clf(pooled_b)).abs().max())}


def noise(r: dict) -> dict:
    """The sizes of rounding noise in one run: machine-dependent, for measure() only."""
    out_scale = float(r["y"].abs().mean())
    return {"err_no_pe": r["rows"][0]["err_no_pe"], "worst_no_pe": max(row["err_no_pe"] for row in r["rows"]),
            "rel_err_no_pe": r["rows"][0]["err_no_pe"] / out_scale,
            "pooled_diff_no_pe": r["pooled_diff_no_pe"], "logit_diff_no_pe": r["logit_diff_no_pe"]}


def compute() -> dict:
    runs = {name: run(dtype) for name, dtype in DTYPES.items()}
    LAST.update({name: noise(r) for name, r in runs.items()})
    below = {name: all(v < NOISE_BOUND[name] for k, v in LAST[name].items() if k != "rel_err_no_pe")
             for name in runs}
    r = runs["float64"]
    x, y, rows = r["x"], r["y"], r["rows"]
    err_pe, err_conv = rows[0]["err_pe"], rows[0]["err_conv"]
    out_scale = float(y.abs().mean())
    return {
        "d": D,
        "heads": HEADS,
        "n_tokens": int(x.shape[0]),
        "shape": SHAPE,
        "seed": SEED,
        "noise_bound": NOISE_BOUND,
        "no_pe_below_bound": below,
        "pe_std": PE_STD,
        "token_std": float(x.std()),
        "pe_sweep": r["sweep"],
        "err_pe": err_pe,
        "err_conv": err_conv,
        "out_scale": out_scale,
        "out_scale_conv": float(r["y_conv"].abs().mean()),
        "table": [{"op": "attention_pe", "err": err_pe}, {"op": "conv", "err": err_conv}],
        "permutations": [{k: v for k, v in row.items() if k != "err_no_pe"} for row in rows],
        "smallest_pe": min(row["err_pe"] for row in rows),
        "patches": np.round(shape_tokens(SHAPE), 3).tolist(),
        "corners": {
            "kind": SHAPE,
            "perm_is_patch_move": r["moved"],
            "pooled_diff_pe": r["pooled_diff_pe"],
            "pooled_scale": r["pooled_scale"],
        },
        "source_claims": [
            {"claim": "attention without PE, max difference (float32)", "source_value": 1.8e-7,
             "computed_below": NOISE_BOUND["float32"]},
            {"claim": "attention with PE, max difference", "source_value": 0.135, "computed": err_pe},
            {"claim": "Conv1d(3), max difference", "source_value": 1.700, "computed": err_conv},
            {"claim": "output scale mean |f(x)|", "source_value": 0.82, "computed": out_scale},
        ],
    }


def measure() -> dict:
    """The sizes of the rounding noise without PE, per number format, on this machine."""
    if not LAST:
        compute()
    return {name: dict(sizes) for name, sizes in LAST.items()}


if __name__ == "__main__":
    import json
    r = compute()
    r["permutations"] = [{k: v for k, v in row.items() if k != "perm"} for row in r["permutations"]]
    r.pop("patches")
    print(json.dumps(r, ensure_ascii=False, indent=1))
    print(json.dumps(measure(), indent=1))
