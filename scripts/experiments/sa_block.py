"""From the operation to the block: residual and pre-LayerNorm, the shapes, the causal mask, stable softmax.

The lesson's model sizes (d, heads, MLP width, batch) are sa_trained's, read from its code; its
tokens are the 49 patches and the class token. The causal example is sa_toy's four tokens.
Everything is float64 torch / numpy except the float32 softmax, which is the point of that part.
Keys returned:
  model                 {d, heads, head_dim, mlp, batch, patches, tokens}
  block                 one pre-LN block x + Attn(LN(x)), then + MLP(LN(·)): params (sum of numel), its
                        parts (attn 4d² + 4d, norms 2·2d, mlp 2·d·m + m + d), in/out shape, same_shape,
                        identity_gap (W_o and the MLP's last layer at zero: max |block(x) − x|, pre-LN)
                        and post_ln_gap (the same for post-LN LN(x + Attn(x)): the norm stays on the path)
  shapes                [{name, dims, sizes, numbers}] what a real implementation carries, for one batch
  weights_over_q        numbers in the attention weights over numbers in Q (= n / (d/h))
  causal                the four tokens under the causal mask: n, allowed, total, masked (scaled, −∞ as
                        None), weights, rows [{token, w_t1..}], row_sums, upper_max, unchanged (rows whose
                        weights the mask leaves as they were), first_row
  pairs                 [{n, allowed, total}] allowed pairs n(n+1)/2, counted in a mask, for a few n
  softmax               float32: exp_max (the largest float32 x with exp(x) finite), exp_next (the next
                        float32, where exp gives inf), ln_max (ln of float32's largest number), f32_max;
                        normal: the t1 row (naive, stable float64; max_gap_f64, max_gap_f32: the largest gap between
                        the two ways; gap_ulps_f64, gap_ulps_f32: the same in units in the last place of
                        the largest weight);
                        large: the t1 row × LARGE (logits, naive and stable float32 with status per key,
                        stable float64 for reference)
  slider                [{scale, key, method, weight, status}] the t1 row × scale in float32, both ways
  overflow_scale        the smallest slider scale at which naive float32 gives nan
  overflow_logit        the row's largest score at that scale
  overflow_before       the slider scale just below it (naive still gives numbers), with
  overflow_before_logit its largest score: the break lies between the two
"""
import math

import numpy as np
import torch
from torch import nn

from scripts.common.attention import attention_steps
from scripts.common.shapes import N_PATCHES
from scripts.common.training import deterministic
from scripts.experiments.sa_toy import NAMES, TOKENS
from scripts.experiments.sa_trained import BATCH, D, HEADS, MLP

SEED = 22
SCALES = list(range(1, 41))     # the slider: the t1 row's scaled scores times 1, 2, …, 40
LARGE = SCALES[-1]
PAIR_NS = (4, 8, 16, 50)


class Block(nn.Module):
    """One pre-LN transformer block, as in sa_trained's TinyViT: x + Attn(LN(x)), then + MLP(LN(·))."""

    def __init__(self, d: int, heads: int, mlp: int, pre: bool = True):
        super().__init__()
        self.pre = pre
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, mlp), nn.GELU(), nn.Linear(mlp, d))

    def forward(self, x):
        if not self.pre:                       # post-LN (the 2017 paper): the norm after each sum
            x = self.ln1(x + self.attn(x, x, x, need_weights=False)[0])
            return self.ln2(x + self.mlp(x))
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


def block_params(d: int, heads: int, mlp: int) -> dict:
    """One block's parameters counted with numel, and the formula's parts."""
    with deterministic(SEED):
        counted = sum(p.numel() for p in Block(d, heads, mlp).parameters())
    parts = {"attn": 4 * d * d + 4 * d, "norms": 2 * 2 * d, "mlp": 2 * d * mlp + mlp + d}
    assert counted == sum(parts.values()), (counted, parts)
    return {"params": counted, **parts}


def zero_sublayers(block: Block) -> None:
    """W_o and the MLP's last layer (and their biases) at zero: each branch adds exactly 0."""
    with torch.no_grad():
        for p in (*block.attn.out_proj.parameters(), *block.mlp[2].parameters()):
            p.zero_()


def block_part() -> dict:
    tokens = N_PATCHES + 1
    with deterministic(SEED):
        x = torch.randn(BATCH, tokens, D)
        block = Block(D, HEADS, MLP)
        y = block(x)
        zero_sublayers(block)
        identity_gap = (block(x) - x).abs().max().item()
        post = Block(D, HEADS, MLP, pre=False)
        zero_sublayers(post)
        post_gap = (post(x) - x).abs().max().item()
    return {**block_params(D, HEADS, MLP), "in_shape": list(x.shape), "out_shape": list(y.shape),
            "same_shape": list(x.shape) == list(y.shape), "identity_gap": identity_gap, "post_ln_gap": post_gap}


def shapes_part() -> tuple[list, float]:
    """The tensors of one batch through one attention layer, with their sizes (checked against torch)."""
    b, n, d, h = BATCH, N_PATCHES + 1, D, HEADS
    with deterministic(SEED):
        x = torch.randn(b, n, d)
        attn = nn.MultiheadAttention(d, h, batch_first=True)
        out, w = attn(x, x, x, need_weights=True, average_attn_weights=False)
        q = (x @ attn.in_proj_weight.chunk(3)[0].T).view(b, n, h, d // h).transpose(1, 2)
    rows = [("x", ["B", "n", "d"], list(x.shape)), ("qkv", ["B", "h", "n", "d/h"], list(q.shape)),
            ("weights", ["B", "h", "n", "n"], list(w.shape)), ("out", ["B", "n", "d"], list(out.shape))]
    assert rows[1][2] == [b, h, n, d // h] and rows[2][2] == [b, h, n, n] and rows[3][2] == [b, n, d]
    table = [{"name": name, "dims": dims, "sizes": sizes, "numbers": math.prod(sizes)} for name, dims, sizes in rows]
    return table, table[2]["numbers"] / table[1]["numbers"]


def causal_part() -> dict:
    n = len(TOKENS)
    mask = np.tril(np.ones((n, n), dtype=bool))
    plain = attention_steps(TOKENS, TOKENS, TOKENS)
    masked = attention_steps(TOKENS, TOKENS, TOKENS, mask=mask)
    w = masked.weights
    sub = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")          # t₁ as the page writes it (no Latin digit on a fa page)
    rows = [{"token": NAMES[i].translate(sub), **{f"w_{NAMES[j]}": float(w[i, j]) for j in range(n)}} for i in range(n)]
    unchanged = [NAMES[i] for i in range(n) if np.abs(w[i] - plain.weights[i]).max() < 1e-12]
    return {"n": n, "allowed": int(mask.sum()), "total": n * n, "formula": n * (n + 1) // 2,
            "masked": [[None if math.isinf(v) else float(v) for v in row] for row in masked.scaled],
            "weights": w.tolist(), "rows": rows, "row_sums": w.sum(axis=1).tolist(),
            "upper_max": float(np.abs(w[np.triu_indices(n, 1)]).max()), "unchanged": unchanged,
            "first_row": w[0].tolist(), "plain_first_row": plain.weights[0].tolist()}


def pairs_part() -> list:
    out = []
    for n in PAIR_NS:
        counted = int(np.tril(np.ones((n, n), dtype=bool)).sum())
        assert counted == n * (n + 1) // 2
        out.append({"n": n, "allowed": counted, "total": n * n, "share": counted / (n * n)})
    return out


FLT_MAX = float(np.finfo(np.float32).max)
OVERFLOW = 2.0 ** 128 * (1 - 2.0 ** -25)    # the smallest real that rounds to float32 infinity


def exp32(x) -> np.float32:
    """e^x rounded to float32, as an exact float32 exp would give it. numpy's own float32 exp has one
    kernel per instruction set, and they differ in the last bit; float64 libm rounded once to float32 does not."""
    x = float(np.float32(x))
    v = math.exp(x) if x < 709 else math.inf
    return np.float32(math.inf) if v >= OVERFLOW else np.float32(v)


def softmax32(z, stable: bool):
    """Softmax of one row in float32, naive e^z / Σ e^z or with the row's maximum subtracted first.
    Each step rounds to float32; the sum runs left to right (numpy's may reorder by CPU)."""
    z = np.asarray(z, dtype=np.float32)
    shift = z.max() if stable else np.float32(0)
    e = np.array([exp32(np.float32(v - shift)) for v in z], dtype=np.float32)
    total = np.float32(0)
    for v in e:
        total = np.float32(total + v)
    with np.errstate(invalid="ignore"):
        return e / total


def softmax64(z, stable: bool):
    """The same in float64, with libm's exp and a left-to-right sum (numpy's exp and sum vary by CPU)."""
    z = [float(v) for v in z]
    shift = max(z) if stable else 0.0
    e = [math.exp(v - shift) for v in z]
    total = 0.0
    for v in e:
        total += v
    return np.array([v / total for v in e])


def ulps(gap: float, of: float, dtype) -> float:
    """A gap in units in the last place of `of` (the spacing of its format there)."""
    return gap / float(np.spacing(dtype(of)))


def status(v) -> str:
    return "nan" if math.isnan(v) else "inf" if math.isinf(v) else "number"


def finite(v):
    return None if not math.isfinite(v) else float(v)


def exp_bound() -> dict:
    """The largest float32 x with exp(x) finite in float32, found by stepping float32 by float32 (exp32)."""
    x = np.float32(np.log(FLT_MAX))
    while np.isfinite(exp32(x)):
        x = np.nextafter(x, np.float32(np.inf))
    while not np.isfinite(exp32(x)):
        x = np.nextafter(x, np.float32(-np.inf))
    nxt = np.nextafter(x, np.float32(np.inf))
    assert np.isfinite(exp32(x)) and np.isinf(exp32(nxt))
    return {"exp_max": float(x), "exp_next": float(nxt), "ln_max": math.log(FLT_MAX), "f32_max": FLT_MAX}


def gaps(row) -> dict:
    """How far the naive and the stable way land apart on a normal row: the largest gap, in float64 and in
    float32, also in units in the last place of the largest weight (both ways are computed the same on
    every CPU: exp32, softmax64)."""
    out = {}
    for name, f, dtype in (("f64", softmax64, np.float64), ("f32", softmax32, np.float32)):
        naive, stable = (np.asarray(f(row, s), dtype=np.float64) for s in (False, True))
        gap = float(np.abs(naive - stable).max())
        out[f"max_gap_{name}"] = gap
        out[f"gap_ulps_{name}"] = round(ulps(gap, stable.max(), dtype), 6)
    return out


def softmax_part() -> tuple[dict, list, int]:
    row = attention_steps(TOKENS, TOKENS, TOKENS).scaled[0]      # t1's scaled scores
    normal = {"logits": row.tolist(), "naive": softmax64(row, False).tolist(), "stable": softmax64(row, True).tolist(),
              **gaps(row)}
    big = np.float32(LARGE) * row.astype(np.float32)
    naive, stable = softmax32(big, False), softmax32(big, True)
    large = {"scale": LARGE, "logits": big.astype(np.float64).tolist(), "max_logit": float(big.max()),
             "naive": [finite(v) for v in naive], "naive_status": [status(v) for v in naive],
             "stable": [finite(v) for v in stable], "stable_status": [status(v) for v in stable],
             "exact": softmax64(LARGE * row, True).tolist()}
    slider, first = [], None
    for s in SCALES:
        z = np.float32(s) * row.astype(np.float32)
        for method in ("naive", "stable"):
            w = softmax32(z, method == "stable")
            for j, v in enumerate(w):
                slider.append({"scale": s, "key": j, "method": method, "weight": finite(v), "status": status(v),
                               "max_logit": float(z.max())})
            if method == "naive" and first is None and any(math.isnan(v) for v in w):
                first = s
    return {**exp_bound(), "normal": normal, "large": large}, slider, first


def compute() -> dict:
    shapes, ratio = shapes_part()
    soft, slider, first = softmax_part()
    return {
        "model": {"d": D, "heads": HEADS, "head_dim": D // HEADS, "mlp": MLP, "batch": BATCH,
                  "patches": N_PATCHES, "tokens": N_PATCHES + 1},
        "block": block_part(),
        "shapes": shapes,
        "weights_over_q": ratio,
        "causal": causal_part(),
        "pairs": pairs_part(),
        "softmax": soft,
        "slider": slider,
        "overflow_scale": first,
        "overflow_logit": next(r["max_logit"] for r in slider if r["scale"] == first),
        "overflow_before": first - 1,
        "overflow_before_logit": next(r["max_logit"] for r in slider if r["scale"] == first - 1),
    }
