"""The one attention helper (scripts/common/attention.py) against torch's scaled_dot_product_attention."""
import numpy as np
import pytest
import torch
import torch.nn.functional as F

from scripts.common.attention import attention_steps, softmax_rows


def _qkv(seed=0, shape=(2, 3, 7, 16), n_keys=5):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(*shape, generator=g, dtype=torch.float64)
    k, v = (torch.randn(*shape[:-2], n_keys, shape[-1], generator=g, dtype=torch.float64) for _ in range(2))
    return q, k, v


@pytest.mark.parametrize("divisor", [None, 2.0])
def test_matches_torch_without_mask(divisor):
    q, k, v = _qkv()
    a = attention_steps(q.numpy(), k.numpy(), v.numpy(), divisor=divisor)
    ref = F.scaled_dot_product_attention(q, k, v, scale=None if divisor is None else 1 / divisor)
    assert np.allclose(a.output, ref.numpy(), rtol=0, atol=1e-12)
    d = q.shape[-1] ** 0.5 if divisor is None else divisor
    # every intermediate is the step its name says, and the weights are torch's
    assert np.allclose(a.scores, (q @ k.transpose(-2, -1)).numpy(), atol=1e-12)
    assert np.allclose(a.scaled, a.scores / d, atol=1e-12)
    assert np.allclose(a.exps, np.exp(a.scaled - a.scaled.max(-1, keepdims=True)), atol=1e-12)
    assert np.allclose(a.sums, a.exps.sum(-1), atol=1e-12)
    assert np.allclose(a.weights, torch.softmax(torch.from_numpy(a.scaled), -1).numpy(), atol=1e-12)


def test_matches_torch_with_mask():
    q, k, v = _qkv(seed=1, shape=(6, 8), n_keys=6)
    mask = torch.tril(torch.ones(6, 6, dtype=torch.bool))          # causal: row i sees keys 0..i
    a = attention_steps(q.numpy(), k.numpy(), v.numpy(), mask=mask.numpy())
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert np.allclose(a.output, ref.numpy(), rtol=0, atol=1e-12)
    assert (a.weights[~mask.numpy()] == 0).all() and np.isneginf(a.scaled[~mask.numpy()]).all()
    assert np.allclose(a.weights.sum(-1), 1.0)


def test_unshifted_exponentials_give_the_same_weights():
    q, k, v = _qkv(seed=2, shape=(4, 2), n_keys=4)
    shifted = attention_steps(q.numpy(), k.numpy(), v.numpy())
    plain = attention_steps(q.numpy(), k.numpy(), v.numpy(), shift=False)
    assert np.allclose(plain.exps, np.exp(plain.scaled)) and np.allclose(plain.weights, shifted.weights)


def test_softmax_rows_is_the_helpers_softmax():
    s = np.random.default_rng(0).normal(size=(5, 49))
    assert np.allclose(softmax_rows(s), torch.softmax(torch.tensor(s), -1).numpy())
