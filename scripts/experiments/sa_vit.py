"""What geometry costs in a real model: the position embedding's share of ViT-B/16's parameters.

torchvision.models.vit_b_16(weights=None) is built locally (random initialisation, nothing is
downloaded) and its parameters are counted with numel.
Keys returned:
  model, image_size, patch_size, hidden_dim, seq_length   the configuration read off the model
  total                  all parameters
  pos_embedding          encoder.pos_embedding.numel() = seq_length × hidden_dim (197 × 768)
  pos_share              pos_embedding / total (a fraction; the page formats it as %)
  class_token            class_token.numel()
  conv_proj              the patch-embedding convolution's parameters (weight + bias)
  parts: [{part, params, share}]   a small table: position embedding, class token, patch
                         embedding, the rest
  source_claims            the source lesson's numbers next to these
"""
import torch
import torchvision


def compute() -> dict:
    torch.manual_seed(0)   # the initial values do not matter here, only the shapes
    m = torchvision.models.vit_b_16(weights=None)
    total = sum(p.numel() for p in m.parameters())
    pos = m.encoder.pos_embedding.numel()
    cls = m.class_token.numel()
    conv = sum(p.numel() for p in m.conv_proj.parameters())
    rest = total - pos - cls - conv
    parts = [{"part": name, "params": n, "share": n / total}
             for name, n in (("pos_embedding", pos), ("class_token", cls), ("conv_proj", conv),
                             ("rest", rest))]
    return {
        "model": "vit_b_16",
        "image_size": m.image_size,
        "patch_size": m.patch_size,
        "hidden_dim": m.hidden_dim,
        "seq_length": int(m.encoder.pos_embedding.shape[1]),
        "total": total,
        "pos_embedding": pos,
        "pos_share": pos / total,
        "class_token": cls,
        "conv_proj": conv,
        "parts": parts,
        "source_claims": [
            {"claim": "position-embedding parameters (≈151 thousand)", "source_value": 151000,
             "computed": pos},
            {"claim": "total (≈86 million)", "source_value": 86000000, "computed": total},
            {"claim": "share in %", "source_value": 0.175, "computed": round(100 * pos / total, 3),
             "agrees": round(100 * pos / total, 3) == 0.175},
        ],
    }
