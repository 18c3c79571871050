"""Receptive field of stacked 3×3 convolutions versus attention over 7×7 patches.

Keys returned:
  frame, kernel, patch, n_patches    the set-up: 28×28 frame, 3×3 kernels (stride 1, padding 1),
                                     4×4 patches → 49 tokens
  by_layers: [{layers, rf, kernel_weights, center_share, attention_share, attention_pairs}]
                                     for L = 0 … 14: receptive-field side rf = 2L + 1, kernel numbers
                                     in the stack 9L (one channel), share of the 28×28 frame that can
                                     reach the central output pixel (row/col 13, clipped at the
                                     borders), and for attention: share 1.0 and 49² pairs at any L
  layers_for_27, rf_at_13            smallest L with 2L + 1 ≥ 27 (the seed's "13 layers give 27×27")
  kernel_weights_for_27              9 · layers_for_27
  layers_for_28                      smallest L with 2L + 1 ≥ 28 (a full 28×28 window: 14)
  layers_center_full                 smallest L at which the central pixel's field covers the frame
  layers_corner_to_corner            smallest L at which the top-left output pixel's field
                                     reaches the bottom-right input pixel (27)
  attention_pairs                    49² = 2401
  source_claims                        the source lesson's numbers next to these
"""
FRAME = 28
KERNEL = 3
PATCH = 4
L_MAX = 14
CENTER = 13   # 0-based row/column of the output pixel whose field is drawn


def rf(layers: int) -> int:
    """Side of the receptive field of L stacked 3×3, stride-1 convolutions."""
    return 2 * layers + 1


def covered_side(center: int, layers: int) -> int:
    """How many rows (or columns) of the frame lie within the field of the pixel at `center`."""
    lo, hi = max(center - layers, 0), min(center + layers, FRAME - 1)
    return hi - lo + 1


def smallest(pred) -> int:
    layers = 0
    while not pred(layers):
        layers += 1
    return layers


def compute() -> dict:
    n_patches = (FRAME // PATCH) ** 2
    pairs = n_patches ** 2
    rows = []
    for layers in range(L_MAX + 1):
        side = covered_side(CENTER, layers)
        rows.append({
            "layers": layers,
            "rf": rf(layers),
            "kernel_weights": KERNEL * KERNEL * layers,
            "center_share": side * side / FRAME ** 2,
            "attention_share": 1.0,
            "attention_pairs": pairs,
        })
    l27 = smallest(lambda n: rf(n) >= FRAME - 1)
    l28 = smallest(lambda n: rf(n) >= FRAME)
    l_center = smallest(lambda n: covered_side(CENTER, n) == FRAME)
    l_corner = smallest(lambda n: 0 + n >= FRAME - 1)   # field of output (0, 0) spans [0, L]
    return {
        "frame": FRAME,
        "kernel": KERNEL,
        "patch": PATCH,
        "n_patches": n_patches,
        "by_layers": rows,
        "layers_for_27": l27,
        "rf_at_13": rf(13),
        "layers_for_28": l28,
        "layers_center_full": l_center,
        "layers_corner_to_corner": l_corner,
        "kernel_weights_for_27": KERNEL * KERNEL * l27,
        "attention_pairs": pairs,
        "source_claims": [
            {"claim": "13 layers give a 27×27 field (2·13 + 1)", "source_value": 27, "computed": rf(13),
             "agrees": rf(13) == 27},
            {"claim": "layers needed for ~the whole frame", "source_value": 13, "computed": l27,
             "agrees": l27 == 13,
             "note": "13 reaches 27×27; a full 28×28 window needs 14"},
            {"claim": "attention pairs for 7×7 patches", "source_value": 2401, "computed": pairs,
             "agrees": pairs == 2401},
        ],
    }
