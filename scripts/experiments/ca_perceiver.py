"""Few latent queries over a huge input: cross-attention pairs M*N vs self-attention pairs N^2
Keys returned:
  image_side   -- 224 (a 224x224 image)
  n_image      -- number of pixels, 224*224
  examples     -- table rows {n, m, cross_pairs, self_pairs, ratio, latent_share}: the image with
                  M latent queries; cross_pairs = M*N query-key pairs of the latents looking at
                  the input, self_pairs = N*N pairs if every pixel were a query, ratio = N/M,
                  latent_share = M/N
  linearity    -- {n, m, cross_pairs_n, cross_pairs_2n, cross_growth, self_pairs_n,
                  self_pairs_2n, self_growth}: doubling N doubles cross pairs, quadruples self pairs
  grid         -- data for the interactive chart: {n: 25 log-spaced input sizes from 1 000 to
                  1 000 000, m: latent counts}; only these are stored, the chart computes
                  M*N, N*N and their ratio with Vega transforms (computed_in_browser = true)
"""
SIDE = 224
M_EXAMPLES = [256, 512]
M_GRID = [64, 128, 256, 512, 1024]
GRID_POINTS = 25


def cross_pairs(n, m):
    return m * n


def self_pairs(n):
    return n * n


def compute():
    n = SIDE * SIDE
    examples = [{
        "n": n, "m": m,
        "cross_pairs": cross_pairs(n, m),
        "self_pairs": self_pairs(n),
        "ratio": self_pairs(n) / cross_pairs(n, m),
        "latent_share": m / n,
    } for m in M_EXAMPLES]
    m = M_EXAMPLES[0]
    lin = {
        "n": n, "m": m,
        "cross_pairs_n": cross_pairs(n, m), "cross_pairs_2n": cross_pairs(2 * n, m),
        "self_pairs_n": self_pairs(n), "self_pairs_2n": self_pairs(2 * n),
    }
    lin["cross_growth"] = lin["cross_pairs_2n"] / lin["cross_pairs_n"]
    lin["self_growth"] = lin["self_pairs_2n"] / lin["self_pairs_n"]
    n_grid = [int(round(10 ** (3 + 3 * i / (GRID_POINTS - 1)))) for i in range(GRID_POINTS)]
    return {
        "image_side": SIDE,
        "n_image": n,
        "examples": examples,
        "linearity": lin,
        "grid": {
            "computed_in_browser": True,
            "note": "only N and M are stored; the chart computes M*N, N*N and N/M itself",
            "n": n_grid,
            "m": list(M_GRID),
        },
    }
