"""Check-yourself exercises: every answer and every number in a worked solution, computed here.

One key per exercise id (the id pages use in `{{ exercise: <id> }}`), each a dict:
  kind        "number" (typed answer), "choice" (one option is right) or "derivation" (worked solution only)
  answer      number: the exact value; choice: the key of the right option
  fmt         number: how the answer is printed (a scripts/common/numfmt.py spec)
  decimals    number: places the reader is asked for; an answer within half a unit of the last
              place is "right"
  close       number: an answer within this distance is "close" (stated under the question)
  options     choice: option keys in the order shown; their words live in scripts/i18n/<lang>/exercises.yml
  other keys  the exercise's parameters and the intermediate numbers its solution quotes
Parameters differ from the lessons' own examples on purpose, so the lesson cannot be copied.
"""
import math

import numpy as np
import torch
from torch import nn

from scripts.experiments.sa_toy import TOKENS, steps


def number(answer, decimals: int, close: float, fmt: str | None = None, **values) -> dict:
    return {"kind": "number", "answer": answer, "decimals": decimals, "close": close,
            "right": 0.5 * 10 ** -decimals, "fmt": fmt or (f".{decimals}f" if decimals else ",d"), **values}


def softmax(z):
    e = [math.exp(v - max(z)) for v in z]
    return [v / sum(e) for v in e]


def sa_rf_layers() -> dict:
    """Smallest L with 2L + 1 >= side: the receptive field of L 3×3 layers spans the frame."""
    side = 64
    layers = next(n for n in range(side) if 2 * n + 1 >= side)
    # no "close" band: one layer fewer (rf_before < side) is the off-by-one the exercise is about
    return number(layers, 0, 0, fmt="d", side=side, rf=2 * layers + 1, rf_before=2 * layers - 1)


def sa_weight_t4() -> dict:
    """The lesson's four tokens with t4 moved to [x, 0]: weight of t1's row on t4."""
    x = 1.0
    tokens = TOKENS[:3] + [[x, 0.0]]
    scores, scaled, exps, sums, weights, _ = steps(tokens)
    return number(weights[0][3], 3, 0.01, x=x, score=scores[0][3], scaled=scaled[0][3], exp=exps[0][3],
                  exp_sum=sums[0], exp_self=exps[0][0], exp_t2=exps[0][1])


def sa_row_unchanged() -> dict:
    """Which row of the attention matrix keeps its weights while t4 = [x, 0] moves from −2 to 2."""
    names = ["t1", "t2", "t3", "t4"]
    rows = np.array([steps(TOKENS[:3] + [[x, 0.0]])[4] for x in np.linspace(-2, 2, 17)])  # (x, row, col)
    spread = rows.max(axis=0) - rows.min(axis=0)                                             # (row, col)
    still = [names[i] for i in range(3) if spread[i].max() < 1e-12]  # t4's own row moves with its query
    assert len(still) == 1, still
    i = names.index(still[0])
    return {"kind": "choice", "answer": still[0], "options": names[:3], "score_t4": 0,
            "weight_t4": steps(TOKENS)[4][i][3], "moved_most": names[int(np.argmax(spread[:3].max(axis=1)))]}


def sa_entropy() -> dict:
    p = [0.5, 0.25, 0.25]
    h = -sum(v * math.log(v) for v in p)
    return number(h, 3, 0.02, p1=p[0], p2=p[1], p3=p[2], ln2=math.log(2), h_max=math.log(len(p)))


def sa_dot_std() -> dict:
    """Typical size (standard deviation) of q·k for unit-variance entries, d = 512: √d; checked by sampling."""
    d = 512
    g = torch.Generator().manual_seed(0)
    q, k = torch.randn(20000, d, generator=g, dtype=torch.float64), torch.randn(20000, d, generator=g, dtype=torch.float64)
    sampled = float((q * k).sum(dim=1).std())
    return number(math.sqrt(d), 1, 0.5, d=d, var=d, sampled=sampled, samples=20000)


def sa_grad_uniform() -> dict:
    """Σ a(1 − a) for a uniform row of n: 1 − 1/n."""
    n = 49
    a = 1 / n
    return number(n * a * (1 - a), 4, 0.002, n=n, numerator=n - 1, a=a)


def sa_grad_identity() -> dict:
    """Σ p(1 − p) = 1 − Σ p², shown on the lesson's row t1."""
    p = steps(TOKENS)[4][0]
    return {"kind": "derivation", "lhs": sum(v * (1 - v) for v in p), "sum_sq": sum(v * v for v in p),
            "rhs": 1 - sum(v * v for v in p), "p1": p[0], "p2": p[1], "p3": p[2], "p4": p[3]}


def sa_params() -> dict:
    """nn.MultiheadAttention(d, H): 4d² + 4d parameters, counted with numel."""
    d, heads = 96, 6
    counted = sum(p.numel() for p in nn.MultiheadAttention(d, heads).parameters())
    formula = 4 * d * d + 4 * d
    assert counted == formula, (counted, formula)
    return number(counted, 0, 0, d=d, heads=heads, head_dim=d // heads, weights=4 * d * d, biases=4 * d,
                  one_head=d * (d // heads))


def sa_permutation() -> dict:
    """Why f(PX) = P f(X); the solution quotes the lesson's float32 check (generated/data/sa_equivariance.json)."""
    return {"kind": "derivation"}


def sa_pe_params() -> dict:
    """Learned position table of a ViT at a larger image: (patches + class token) × d."""
    image, patch, d = 384, 16, 768
    grid = image // patch
    positions = grid * grid + 1
    return number(positions * d, 0, 0, image=image, patch=patch, d=d, grid=grid, patches=grid * grid,
                  positions=positions)


def sa_cost_ratio() -> dict:
    """2n²d / 4nd² = n / 2d for a 56×56 frame cut into 4×4 patches, d = 64."""
    frame, patch, d = 56, 4, 64
    n = (frame // patch) ** 2
    matrix, proj = 2 * n * n * d, 4 * n * d * d
    return number(matrix / proj, 2, 0.05, frame=frame, patch=patch, d=d, n=n, grid=frame // patch,
                  matrix=matrix, proj=proj, break_even=2 * d)


def ca_shape() -> dict:
    written, source = 7, 9
    return number(written * source, 0, 0, written=written, source=source)


def ca_step_weight() -> dict:
    """The lesson's keys with another query: weight on the third word (the one the step picks).
    The query is chosen so the answer is far from the lesson's own 0.77 (more than `close` away)."""
    q = [0.0, 2.0]
    keys = [[1, 0], [0, 1], [2, 2], [-1, 1]]
    root_d = math.sqrt(len(q))                     # d = 2
    scores = [float(np.dot(q, k)) for k in keys]
    scaled = [s / root_d for s in scores]
    w = softmax(scaled)
    assert int(np.argmax(w)) == 2  # the question asks about the word the step picks
    lesson = softmax([float(np.dot([1, 1], k)) / root_d for k in keys])[2]  # the lesson's q = (1, 1)
    assert abs(w[2] - lesson) > 0.02, (w[2], lesson)
    return number(w[2], 2, 0.02, q=q, q1=q[0], q2=q[1], s1=scores[0], s2=scores[1], s3=scores[2], s4=scores[3],
                  z1=scaled[0], z2=scaled[1], z3=scaled[2], z4=scaled[3], w1=w[0], w2=w[1], w4=w[3],
                  exp_sum=sum(math.exp(z) for z in scaled))


def ca_mask_choice() -> dict:
    """The decoder's self-attention: position i may see j ≤ i (lower triangle, diagonal included)."""
    n = 6
    causal = [[int(j <= i) for j in range(n)] for i in range(n)]
    return {"kind": "choice", "answer": "causal", "options": ["none", "causal", "future"],
            "n": n, "allowed": sum(map(sum, causal)), "total": n * n}


def ca_causal_cells() -> dict:
    n = 10
    allowed = sum(1 for i in range(n) for j in range(n) if j <= i)
    return number(allowed, 0, 0, n=n, total=n * n, formula=n * (n + 1) // 2)


def ca_kv_count() -> dict:
    """Projections through W_K and W_V: rebuilt at every step vs built once."""
    src, tgt = 12, 15
    recompute, once = 2 * src * tgt, 2 * src
    return number(recompute, 0, 0, src=src, tgt=tgt, once=once, saved=recompute - once, ratio=recompute / once)


def ca_kv_why() -> dict:
    """Why K and V are built once, on the lesson's example sentence (scripts/experiments/ca_masks.py)."""
    from scripts.experiments.ca_masks import CASES
    _, src, tgt = CASES[0]
    return {"kind": "derivation", "src": src, "tgt": tgt, "recompute": tgt * 2 * src, "once": 2 * src}


def ca_perceiver_ratio() -> dict:
    side, m = 96, 64
    n = side * side
    return number(n * n / (m * n), 0, 0, side=side, m=m, n=n, cross=m * n, self_pairs=n * n)


def sa_block_params() -> dict:
    """One pre-LN block (attention, two LayerNorms, MLP d → m → d) of another size, counted with numel."""
    from scripts.experiments.sa_block import block_params
    d, heads, mlp = 32, 8, 128
    c = block_params(d, heads, mlp)
    return number(c["params"], 0, 0, d=d, heads=heads, mlp=mlp, attn=c["attn"], norms=c["norms"],
                  mlp_params=c["mlp"])


def sa_block_zeros() -> dict:
    """Weights the causal mask sets to zero in an n × n attention matrix: the upper triangle, n(n − 1)/2."""
    n = 12
    zeros = int(np.triu(np.ones((n, n), dtype=bool), 1).sum())
    assert zeros == n * (n - 1) // 2
    return number(zeros, 0, 0, n=n, total=n * n, allowed=n * n - zeros)


def sa_block_mask_row() -> dict:
    """Which row of the lesson's four-token attention matrix the causal mask leaves as it was."""
    from scripts.experiments.sa_block import causal_part
    causal = causal_part()
    assert len(causal["unchanged"]) == 1, causal["unchanged"]
    return {"kind": "choice", "answer": causal["unchanged"][0], "options": ["t1", "t2", "t3", "t4"], "n": causal["n"], "first_weight": causal["first_row"][0]}


def sa_block_exp16() -> dict:
    """The largest float16 argument of exp with a finite result (the lesson computes float32's)."""
    big = np.finfo(np.float16).max
    x = np.float16(np.log(np.float32(big)))
    with np.errstate(over="ignore"):
        while np.isfinite(np.exp(x)):
            x = np.nextafter(x, np.float16(np.inf))
        while not np.isfinite(np.exp(x)):
            x = np.nextafter(x, np.float16(-np.inf))
        nxt = np.nextafter(x, np.float16(np.inf))
        # three places: 11.09 (two) is stored as the next float16, 11.09375, whose exp is inf;
        # the checked answer rounded to three places must still be x in float16
        assert np.float16(round(float(x), 3)) == x and np.isinf(np.exp(nxt))
    return number(float(x), 3, 0.01, f16_max=float(big), ln_max=math.log(float(big)), next=float(nxt))


# --- attention at scale -----------------------------------------------------------------------------

def sc_causal_pairs() -> dict:
    """Allowed query-key pairs of a causal decoder over n tokens: n(n + 1)/2 of n²."""
    n = 12
    allowed = n * (n + 1) // 2
    return number(allowed, 0, 0, n=n, pairs=n * n, masked=n * n - allowed, share=allowed / (n * n))


def sc_cache_reuse() -> dict:
    """What a KV cache keeps for each token already processed (and what it does not)."""
    layers, heads, head_size = 6, 8, 64
    return {"kind": "choice", "answer": "keys_values", "options": ["queries", "keys_values", "weights", "logits"],
            "layers": layers, "heads": heads, "head_size": head_size,
            "per_token": 2 * layers * heads * head_size}


def sc_cache_bytes() -> dict:
    """KiB per token of a made-up model: 2 × layers × kv heads × head size × bytes."""
    from scripts.common.published_models import kv_bytes_per_token
    layers, kv_heads, head_size, nbytes = 24, 16, 64, 2
    b = kv_bytes_per_token(layers, kv_heads, head_size, nbytes)
    return number(b // 1024, 0, 0, layers=layers, kv_heads=kv_heads, head_size=head_size, bytes=nbytes,
                  bytes_per_token=b, numbers=b // nbytes)


def sc_cache_batch() -> dict:
    """GiB of cache for a context and a batch: bytes per token × tokens × texts."""
    from scripts.common.published_models import kv_bytes_per_token
    layers, kv_heads, head_size, nbytes, context, batch = 28, 4, 128, 2, 32768, 8
    b = kv_bytes_per_token(layers, kv_heads, head_size, nbytes)
    total = b * context * batch
    return number(total / 2 ** 30, 1, 0.5, layers=layers, kv_heads=kv_heads, head_size=head_size, bytes=nbytes,
                  context=context, batch=batch, bytes_per_token=b, kib_per_token=b / 1024, total=total)


def sc_gqa_factor() -> dict:
    """The cache of multi-head attention divided by the group factor heads / kv heads."""
    heads, kv_heads, mha_gib = 48, 8, 3.0
    return number(mha_gib * kv_heads / heads, 2, 0.05, heads=heads, kv_heads=kv_heads, mha_gib=mha_gib,
                  factor=heads // kv_heads)


def sc_gqa_extremes() -> dict:
    """Grouped attention with as many key/value groups as query heads."""
    heads = 16
    return {"kind": "choice", "answer": "mha", "options": ["mqa", "mha", "neither"], "heads": heads, "one": 1}


def sc_online_rescale() -> dict:
    """One online-softmax update: running max m and sum l, then a block that raises the maximum."""
    m, l, block = 2.0, 3.0, [4.0, 1.0]
    m_new = max(m, *block)
    rescale = math.exp(m - m_new)
    terms = [math.exp(x - m_new) for x in block]
    new_sum = l * rescale + sum(terms)
    # checked against the softmax of whole rows: any earlier scores with this maximum and sum give the same
    return number(new_sum, 3, 0.02, m=m, l=l, b1=block[0], b2=block[1], m_new=m_new, rescale=rescale,
                  old_part=l * rescale, t1=terms[0], t2=terms[1])


def sc_online_exact() -> dict:
    """Why online softmax ends exactly at softmax: after the last block m is the row's maximum and l the
    sum of exp(s − m) over the whole row; checked on a row of the exercise's own (two blocks)."""
    row, block = [0.5, 2.0, -1.0, 3.0], 2
    m, l = -math.inf, 0.0
    for i in range(0, len(row), block):
        part = row[i:i + block]
        m_new = max(m, *part)
        l = l * math.exp(m - m_new) + sum(math.exp(x - m_new) for x in part)
        m = m_new
    online = [math.exp(x - m) / l for x in row]
    exact = softmax(row)
    return {"kind": "derivation", "m": m, "l": l, "w_last": online[-1], "w_last_exact": exact[-1],
            "diff": max(abs(a - b) for a, b in zip(online, exact)), "s4": row[-1]}


def sc_traffic_ratio() -> dict:
    """Standard attention moves 4N² + 4Nd numbers: the share of the N × N matrices S and P, N / (N + d)."""
    n, d = 1024, 128
    square, vectors = 4 * n * n, 4 * n * d
    return number(100 * square / (square + vectors), 1, 0.5, fmt=".1f", n=n, d=d, square=square, vectors=vectors,
                  total=square + vectors)


def sc_window_layers() -> dict:
    """Fewest layers for a window W to reach R earlier tokens: L(W − 1) ≥ R."""
    window, target = 512, 16384
    layers = math.ceil(target / (window - 1))
    return number(layers, 0, 0, fmt="d", window=window, target=target, step=window - 1,
                  reach=layers * (window - 1), reach_before=(layers - 1) * (window - 1),
                  naive=math.ceil(target / window))


def sc_window_cache() -> dict:
    """A sliding window's cache: W tokens per layer, whatever the context."""
    from scripts.common.published_models import kv_bytes_per_token
    layers, kv_heads, head_size, nbytes, window, context, batch = 24, 8, 128, 2, 2048, 32768, 4
    b = kv_bytes_per_token(layers, kv_heads, head_size, nbytes)
    return number(b * window * batch / 2 ** 30, 2, 0.05, layers=layers, kv_heads=kv_heads, head_size=head_size,
                  bytes=nbytes, window=window, context=context, batch=batch, bytes_per_token=b,
                  kib_per_token=b / 1024, full_gib=b * context * batch / 2 ** 30, saving=context / window)


EXERCISES = [sa_rf_layers, sa_weight_t4, sa_row_unchanged, sa_entropy, sa_dot_std, sa_grad_uniform,
             sa_grad_identity, sa_params, sa_permutation, sa_pe_params, sa_cost_ratio,
             ca_shape, ca_step_weight, ca_mask_choice, ca_causal_cells, ca_kv_count, ca_kv_why, ca_perceiver_ratio,
             sa_block_params, sa_block_zeros, sa_block_mask_row, sa_block_exp16,
             sc_causal_pairs, sc_cache_reuse, sc_cache_bytes, sc_cache_batch, sc_gqa_factor, sc_gqa_extremes,
             sc_online_rescale, sc_online_exact, sc_traffic_ratio, sc_window_layers, sc_window_cache]


def compute() -> dict:
    return {f.__name__: f() for f in EXERCISES}


if __name__ == "__main__":
    import json
    print(json.dumps(compute(), ensure_ascii=False, indent=1))
