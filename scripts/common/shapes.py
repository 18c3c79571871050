"""Small seeded 28×28 shapes, cut into 4×4 patches (49 tokens of 16 numbers each).

Shapes are drawn in continuous coordinates and anti-aliased by 4×4 supersampling, so edges get
in-between grey values; light Gaussian pixel noise (seeded) is added and the result clipped to
[0, 1]. Patch order is row-major over the 7×7 grid: patch i sits at grid row i // 7, column i % 7,
and its 16 numbers are its pixels read row by row.
"""
from __future__ import annotations

import numpy as np

SIZE = 28
PATCH = 4
GRID = SIZE // PATCH          # 7
N_PATCHES = GRID * GRID       # 49
KINDS = ("ring", "square", "cross", "triangle", "disc")
NOISE = 0.05
SUPERSAMPLE = 4


def _inside(kind: str, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Membership test in normalised coordinates u, v ∈ [-1, 1] (v grows downwards)."""
    rho = np.hypot(u, v)
    if kind == "ring":
        return np.abs(rho - 0.65) <= 0.11
    if kind == "disc":
        return rho <= 0.6
    if kind == "square":  # outline
        return np.abs(np.maximum(np.abs(u), np.abs(v)) - 0.6) <= 0.11
    if kind == "cross":   # plus sign
        return ((np.abs(u) <= 0.15) & (np.abs(v) <= 0.75)) | ((np.abs(v) <= 0.15) & (np.abs(u) <= 0.75))
    if kind == "triangle":  # filled, apex up
        # half-planes of the triangle (0,-0.7), (0.7,0.6), (-0.7,0.6)
        below_base = v <= 0.6
        right_edge = 1.3 * u - 0.7 * v <= 0.49 + 1e-12   # line through (0,-0.7) and (0.7,0.6)
        left_edge = -1.3 * u - 0.7 * v <= 0.49 + 1e-12
        return below_base & right_edge & left_edge
    raise ValueError(f"unknown shape {kind!r}; choose from {KINDS}")


def draw(kind: str, size: int = SIZE) -> np.ndarray:
    """Noise-free anti-aliased shape filling a size×size canvas (float64 in [0, 1])."""
    s = SUPERSAMPLE
    c = (np.arange(size * s) + 0.5) / (size * s) * 2 - 1      # sub-pixel centres in [-1, 1]
    u, v = np.meshgrid(c, c)                                  # u: column (x), v: row (y)
    hit = _inside(kind, u, v).astype(np.float64)
    return hit.reshape(size, s, size, s).mean(axis=(1, 3))


def make_shape(kind: str, seed: int = 0, noise: float = NOISE, size: int = SIZE) -> np.ndarray:
    """A size×size shape with seeded Gaussian pixel noise (std `noise`), clipped to [0, 1]."""
    img = draw(kind, size)
    if noise:
        rng = np.random.default_rng(seed)
        img = np.clip(img + rng.normal(0.0, noise, img.shape), 0.0, 1.0)
    return img


def patches(img: np.ndarray, patch: int = PATCH) -> np.ndarray:
    """Cut an image into non-overlapping patch×patch squares → (n_patches, patch²), row-major."""
    h, w = img.shape
    if h % patch or w % patch:
        raise ValueError(f"{h}×{w} image does not split into {patch}×{patch} patches")
    g_h, g_w = h // patch, w // patch
    return img.reshape(g_h, patch, g_w, patch).transpose(0, 2, 1, 3).reshape(g_h * g_w, patch * patch)


ON_SHAPE = 0.25             # the one definition: a patch holds the shape when the shape covers a quarter of it


def on_shape(clean: np.ndarray) -> np.ndarray:
    """Which patches of a noise-free image (`draw`) hold the shape: a boolean mask over the patches.
    Every experiment counts "patches on the shape" with this (a noisy image's mean would count other ones)."""
    return patches(clean).mean(axis=1) >= ON_SHAPE


def unpatch(tokens: np.ndarray, patch: int = PATCH) -> np.ndarray:
    """Inverse of `patches` for a square grid."""
    n = tokens.shape[0]
    g = int(round(n ** 0.5))
    return tokens.reshape(g, g, patch, patch).transpose(0, 2, 1, 3).reshape(g * patch, g * patch)


SEEDS = {"ring": 101, "square": 102, "cross": 103, "triangle": 104, "disc": 105}


def standardize(img: np.ndarray) -> np.ndarray:
    """Pixels shifted and scaled to mean 0, std 1 over the whole image (the usual input
    normalisation; it also gives the empty background a value, so background patches match)."""
    return (img - img.mean()) / img.std()


def shape_tokens(kind: str, decimals: int = 4) -> np.ndarray:
    """The 49 standardised patch vectors (49×16) of the course's copy of a shape, rounded to
    `decimals` so that whatever is computed from them can be recomputed from the stored numbers."""
    return np.round(patches(standardize(make_shape(kind, seed=SEEDS[kind]))), decimals)


BLOCK_PATCHES = 3                   # the small shape covers 3×3 patches = 12×12 pixels


def corner_images(kind: str = "ring", seed: int = 0, noise: float = NOISE):
    """The same small shape in the top-left and in the bottom-right corner of a 28×28 frame.

    The shape is drawn (with its own seeded noise) in a 12×12 block aligned with the patch grid;
    the rest of the frame is exactly 0. Returns (top_left, bottom_right, perm) where perm is a
    permutation of the 49 patch indices with patches(bottom_right) == patches(top_left)[perm]:
    the second image is the first with its patches moved, not a single pixel value changed.
    """
    b = BLOCK_PATCHES * PATCH
    small = make_shape(kind, seed=seed, noise=noise, size=b)
    tl = np.zeros((SIZE, SIZE))
    br = np.zeros((SIZE, SIZE))
    tl[:b, :b] = small
    off = SIZE - b                  # 16, a multiple of the patch size
    br[off:, off:] = small
    shift = GRID - BLOCK_PATCHES    # 4 grid cells
    perm = list(range(N_PATCHES))
    for r in range(BLOCK_PATCHES):
        for c in range(BLOCK_PATCHES):
            a = r * GRID + c                        # top-left block cell
            z = (r + shift) * GRID + (c + shift)    # bottom-right block cell
            perm[a], perm[z] = z, a                 # swap: both other cells are empty (all zero)
    return tl, br, perm
