"""The claims of the section «from the operation to the block» (docs/<lang>/self-attention/block.md),
each checked against generated/data/sa_block.json and an independent computation."""
import json
import math

import numpy as np
import pytest
import torch
from torch import nn

from conftest import ROOT

DATA = json.loads((ROOT / "generated" / "data" / "sa_block.json").read_text(encoding="utf-8"))
TRAINED = json.loads((ROOT / "generated" / "data" / "sa_trained.json").read_text(encoding="utf-8"))
TOY = json.loads((ROOT / "generated" / "data" / "sa_toy.json").read_text(encoding="utf-8"))


def test_model_sizes_are_the_lessons():
    m = DATA["model"]
    assert (m["d"], m["heads"], m["head_dim"], m["mlp"], m["batch"]) == \
        (TRAINED["d"], TRAINED["heads"], TRAINED["head_dim"], TRAINED["mlp"], TRAINED["batch"])
    assert m["tokens"] == m["patches"] + 1 == 50


def test_block_params_equal_torchs_encoder_layer_and_the_lessons_model():
    m, b = DATA["model"], DATA["block"]
    layer = nn.TransformerEncoderLayer(m["d"], m["heads"], dim_feedforward=m["mlp"], activation="gelu",
                                       norm_first=True, batch_first=True)
    assert sum(p.numel() for p in layer.parameters()) == b["params"] == b["attn"] + b["norms"] + b["mlp"]
    from scripts.experiments.sa_trained import TinyViT
    vit = TinyViT()
    in_block = sum(p.numel() for mod in (vit.ln1, vit.attn, vit.ln2, vit.mlp) for p in mod.parameters())
    assert in_block == b["params"] < TRAINED["params"]
    assert b["mlp"] > b["attn"], "the page says the MLP is the larger part"


def test_block_keeps_shape_and_a_zeroed_pre_ln_block_is_the_identity():
    b = DATA["block"]
    assert b["same_shape"] and b["in_shape"] == b["out_shape"] == [DATA["model"]["batch"], DATA["model"]["tokens"],
                                                                   DATA["model"]["d"]]
    assert b["identity_gap"] == 0.0
    assert b["post_ln_gap"] > 0.1, "post-LN keeps the norm on the path: LN(x) is not x"


def test_shapes_and_the_weights_tensor_ratio():
    s = {r["name"]: r for r in DATA["shapes"]}
    m = DATA["model"]
    B, n, d, h = m["batch"], m["tokens"], m["d"], m["heads"]
    assert s["x"]["sizes"] == [B, n, d] and s["qkv"]["sizes"] == [B, h, n, d // h]
    assert s["weights"]["sizes"] == [B, h, n, n] and s["out"]["sizes"] == [B, n, d]
    assert all(r["numbers"] == math.prod(r["sizes"]) for r in s.values())
    assert s["qkv"]["numbers"] == s["x"]["numbers"], "splitting into heads copies nothing"
    assert DATA["weights_over_q"] == pytest.approx(n / (d // h))


def test_causal_mask_rows_sum_to_one_and_the_upper_triangle_is_zero():
    c = DATA["causal"]
    w = np.array(c["weights"])
    assert np.allclose(w.sum(axis=1), 1, atol=1e-12)
    assert np.all(w[np.triu_indices(c["n"], 1)] == 0) and c["upper_max"] == 0
    assert np.all(w[np.tril_indices(c["n"])] > 0)
    assert c["first_row"] == [1.0, 0.0, 0.0, 0.0]
    # the masked scores are the toy's scaled scores with −∞ (None) above the diagonal
    for i, row in enumerate(c["masked"]):
        for j, v in enumerate(row):
            assert (v is None) == (j > i)
            if v is not None:
                assert v == pytest.approx(TOY["scaled"][i][j])
    # the last row sees every key anyway: the mask leaves it as it was
    assert c["unchanged"] == ["t4"] and np.allclose(w[3], TOY["weights"][3], atol=1e-6)
    assert c["plain_first_row"] == pytest.approx(TOY["weights"][0], abs=1e-6)


def test_the_mask_is_what_torch_does_with_is_causal():
    x = torch.tensor(TOY["tokens"], dtype=torch.float64)[None]
    scores = x @ x.transpose(-2, -1) / math.sqrt(x.shape[-1])
    masked = scores.masked_fill(torch.ones(4, 4, dtype=torch.bool).triu(1), float("-inf")).softmax(-1)
    assert np.allclose(masked[0].numpy(), DATA["causal"]["weights"], atol=1e-12)
    # and torch's own causal attention gives the same output
    out = nn.functional.scaled_dot_product_attention(x, x, x, is_causal=True)
    assert torch.allclose(out, masked @ x, atol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 8, 16, 50, 100])
def test_allowed_pairs_are_n_n_plus_1_over_2(n):
    assert int(np.tril(np.ones((n, n))).sum()) == n * (n + 1) // 2
    for r in DATA["pairs"]:
        assert r["allowed"] == r["n"] * (r["n"] + 1) // 2 and r["total"] == r["n"] ** 2
    assert DATA["causal"]["allowed"] == DATA["causal"]["formula"] == 10


def test_float32_exp_bound():
    """Found again from below, float32 by float32 (the data keeps six significant digits of it)."""
    s = DATA["softmax"]
    x = np.float32(88.7)
    with np.errstate(over="ignore"):
        while np.isfinite(np.exp(np.nextafter(x, np.float32(np.inf)))):
            x = np.nextafter(x, np.float32(np.inf))
        assert np.isfinite(np.exp(x)) and np.isinf(np.exp(np.nextafter(x, np.float32(np.inf))))
        assert np.isinf(np.exp(np.float32(s["exp_next"]))) or s["exp_next"] == pytest.approx(float(x), rel=1e-6)
    assert s["exp_max"] == pytest.approx(float(x), rel=1e-6) and round(float(x), 2) == 88.72
    assert s["ln_max"] == pytest.approx(math.log(np.finfo(np.float32).max))
    assert s["f32_max"] == pytest.approx(float(np.finfo(np.float32).max), rel=1e-5)


def softmax(z, stable):
    z = np.asarray(z)
    e = np.exp(z - z.max()) if stable else np.exp(z)
    return e / e.sum()


def test_stable_and_naive_agree_in_float64_on_normal_rows():
    rng = np.random.default_rng(0)
    for row in [DATA["softmax"]["normal"]["logits"], *rng.normal(0, 3, (50, 49))]:
        assert np.abs(softmax(row, False) - softmax(row, True)).max() < 1e-12
    n = DATA["softmax"]["normal"]
    assert n["stable"] == pytest.approx(TOY["weights"][0], abs=1e-6)


def test_the_two_ways_differ_by_a_last_place_or_two():
    """«Стабільний softmax»: on the t1 row the naive and the stable way differ by one or two units in the
    last place of the largest weight, in float64 and in float32: only rounding. The stored gaps are
    recomputed here from the stored row with numpy's own exp (any CPU), which may round another way,
    so they are compared by size, not by bits."""
    n = DATA["softmax"]["normal"]
    row = np.asarray(n["logits"])
    for name, dtype in (("f64", np.float64), ("f32", np.float32)):
        assert 1 <= n[f"gap_ulps_{name}"] <= 2
        ulp = float(np.spacing(dtype(max(n["stable"]))))
        assert n[f"max_gap_{name}"] == pytest.approx(n[f"gap_ulps_{name}"] * ulp, rel=1e-5)
        z = row.astype(dtype)
        with np.errstate(over="ignore"):
            naive = np.exp(z) / np.exp(z).sum(dtype=dtype)
            stable = np.exp(z - z.max()) / np.exp(z - z.max()).sum(dtype=dtype)
        assert np.abs(naive.astype(np.float64) - stable.astype(np.float64)).max() <= 4 * ulp


def test_naive_float32_overflows_above_the_bound_and_stable_does_not():
    lim = DATA["softmax"]["exp_max"]
    rows = {}
    for r in DATA["slider"]:
        rows.setdefault((r["scale"], r["method"]), []).append(r)
    for (scale, method), row in rows.items():
        broken = any(r["status"] != "number" for r in row)
        if method == "stable":
            assert not broken and sum(r["weight"] for r in row) == pytest.approx(1, abs=1e-6)
        else:
            assert broken == (row[0]["max_logit"] > lim), (scale, row[0]["max_logit"])
    first = min(s for (s, m), row in rows.items() if m == "naive" and any(r["status"] == "nan" for r in row))
    assert first == DATA["overflow_scale"] and DATA["overflow_logit"] > lim
    large = DATA["softmax"]["large"]
    assert large["naive_status"] == ["nan", "number", "nan", "number"]
    assert large["stable"] == [0.5, 0.0, 0.5, 0.0] and large["exact"][1] > 0
    assert large["exact"][1] < np.finfo(np.float32).smallest_subnormal, "0 is the nearest float32"
