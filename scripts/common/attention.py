"""Plain scaled dot-product attention and the row statistics the lessons quote.

`attention` is written out step by step (scores → divide → softmax → weighted sum) so that every
intermediate can be shown; tests compare it with torch.nn.functional.scaled_dot_product_attention.
"""
from __future__ import annotations

import contextlib
import math

import numpy as np
import torch

LN49 = math.log(49)


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, divisor: float | None = None):
    """softmax(q kᵀ / divisor) v over the last two dims; divisor defaults to √d (d = q.shape[-1]).

    Returns (weights, output).
    """
    if divisor is None:
        divisor = math.sqrt(q.shape[-1])
    scores = q @ k.transpose(-2, -1) / divisor
    weights = torch.softmax(scores, dim=-1)
    return weights, weights @ v


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    """Row-wise softmax (numerically stable) of a numpy array, over the last axis."""
    z = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def entropy_rows(p: np.ndarray) -> np.ndarray:
    """Shannon entropy in nats of each row of probabilities (0 · ln 0 taken as 0)."""
    p = np.asarray(p, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    return -terms.sum(axis=-1)


def embed_tokens(tokens: np.ndarray, d: int = 32, seed: int = 32) -> np.ndarray:
    """A fixed, seeded random linear embedding tokens @ W with W ~ N(0, 1/n_in) (no bias).

    Stands in for the patch-embedding layer of an untrained model: each 16-number patch becomes a
    d-number token while keeping its overall scale.
    """
    rng = np.random.default_rng(seed)
    n_in = tokens.shape[-1]
    w = rng.standard_normal((n_in, d)) / math.sqrt(n_in)
    return tokens @ w


def rounded(a, nd: int):
    """numpy array / tensor → nested python lists of floats rounded to nd decimals."""
    if isinstance(a, torch.Tensor):
        a = a.detach().cpu().double().numpy()
    return np.round(np.asarray(a, dtype=np.float64), nd).tolist()


@contextlib.contextmanager
def single_thread():
    """Run torch on one CPU thread (bitwise-reproducible reductions), restoring the old setting."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(old)
