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
  finetune: {image_size, seq_length, pos_embedding}
                         the larger input ViT-B/16 is fine-tuned at: the size torchvision's own
                         fine-tuned weights (IMAGENET1K_SWAG_E2E_V1) expect, read from their metadata
                         (nothing is downloaded), and the positions a model built for it has; the
                         table of image_size must be interpolated to these
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
    big = torchvision.models.ViT_B_16_Weights.IMAGENET1K_SWAG_E2E_V1.meta["min_size"][0]
    big_pos = torchvision.models.vit_b_16(weights=None, image_size=big).encoder.pos_embedding
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
        "finetune": {"image_size": big, "seq_length": int(big_pos.shape[1]), "pos_embedding": big_pos.numel()},
        "source_claims": [
            {"claim": "position-embedding parameters (≈151 thousand)", "source_value": 151000,
             "computed": pos},
            {"claim": "total (≈86 million)", "source_value": 86000000, "computed": total},
            {"claim": "share in %", "source_value": 0.175, "computed": round(100 * pos / total, 3),
             "agrees": round(100 * pos / total, 3) == 0.175},
        ],
    }
