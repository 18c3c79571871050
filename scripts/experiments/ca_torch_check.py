"""PyTorch check of cross-attention: queries from one sequence, keys/values from another
Keys returned:
  torch_version -- the torch used
  mha           -- nn.MultiheadAttention with query = 6 decoder tokens, key = value = 4 encoder
                   tokens: {n_query, n_key, embed_dim, num_heads, weights_shape, output_shape,
                   rows_sum_to_1 (within 1e-6), mask_used}
  sdpa_step     -- the worked step (q = (1, 1), 4 keys and values from ca_step) through
                   F.scaled_dot_product_attention in float64: {weights_torch, output_torch, tolerance,
                   matches (hand weights and output equal torch's within tolerance)}; the weights are
                   read out by feeding the 4x4 identity matrix as the values
  perceiver_toy -- torch cross-attention of M latents over N inputs vs self-attention of the
                   inputs: {m, n, cross_weights_shape, cross_entries, self_weights_shape,
                   self_entries, rows_sum_to_1}
"""
import torch
import torch.nn.functional as F

from scripts.experiments import ca_step

SEED = 0
TOL = 1e-6


def _mha():
    torch.manual_seed(SEED)
    n_q, n_k, dim, heads = 6, 4, 8, 2
    mha = torch.nn.MultiheadAttention(dim, heads, batch_first=True)
    dec = torch.randn(1, n_q, dim)
    enc = torch.randn(1, n_k, dim)
    with torch.no_grad():
        out, w = mha(dec, enc, enc, need_weights=True, average_attn_weights=True)
    return {
        "n_query": n_q, "n_key": n_k, "embed_dim": dim, "num_heads": heads,
        "weights_shape": list(w.shape[1:]),
        "output_shape": list(out.shape[1:]),
        "rows_sum_to_1": bool((w.sum(-1) - 1).abs().max() < TOL),
        "mask_used": False,
    }


def _sdpa_step():
    _, _, weights, output = ca_step.step()
    q = torch.tensor([[list(ca_step.Q)]], dtype=torch.float64)           # (1, 1, 2)
    k = torch.tensor([ca_step.KEYS], dtype=torch.float64)               # (1, 4, 2)
    v = torch.tensor([ca_step.VALUES], dtype=torch.float64)             # (1, 4, 2)
    eye = torch.eye(len(ca_step.KEYS), dtype=torch.float64).unsqueeze(0)
    w_t = F.scaled_dot_product_attention(q, k, eye)[0, 0]               # weights as output
    o_t = F.scaled_dot_product_attention(q, k, v)[0, 0]
    dw = float((w_t - torch.tensor(weights, dtype=torch.float64)).abs().max())
    do = float((o_t - torch.tensor(output, dtype=torch.float64)).abs().max())
    return {
        "weights_torch": [float(x) for x in w_t],
        "output_torch": [float(x) for x in o_t],
        "tolerance": TOL,
        "matches": dw < TOL and do < TOL,
    }


def _perceiver_toy():
    torch.manual_seed(SEED)
    m, n, dim = 8, 64, 16
    latents = torch.randn(m, dim)
    inputs = torch.randn(n, dim)
    scale = dim ** 0.5
    cross = torch.softmax(latents @ inputs.T / scale, dim=-1)
    self_w = torch.softmax(inputs @ inputs.T / scale, dim=-1)
    return {
        "m": m, "n": n,
        "cross_weights_shape": list(cross.shape), "cross_entries": int(cross.numel()),
        "self_weights_shape": list(self_w.shape), "self_entries": int(self_w.numel()),
        "rows_sum_to_1": bool((cross.sum(-1) - 1).abs().max() < TOL),
    }


def compute():
    return {
        "torch_version": torch.__version__.split("+")[0],
        "mha": _mha(),
        "sdpa_step": _sdpa_step(),
        "perceiver_toy": _perceiver_toy(),
    }
