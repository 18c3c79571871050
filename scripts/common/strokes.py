"""Shapes drawn by hand on the 28×28 grid: the brush of the page's drawing grid, and seeded strokes drawn with it.

The brush (the page's grid does the same, overrides/assets/js/draw-shape.js): a stroke is a line through
points in grid coordinates (x to the right, y down, both from 0 to 28; cell (r, c) has its centre at
(c + 0.5, r + 0.5)); every cell whose centre lies within BRUSH cells of the line is set to 1. Nothing is grey.

`strokes(kind, rng)` draws one of the lesson's shapes the way a reader might: its outline (a triangle too,
though the lesson's triangle is filled) at a random size and place, each corner and each point of a
circle moved a little, as a hand does. The lesson's model never trains on these: held-out ones (their own
seed) measure how it reads a drawing made with the grid's brush (scripts/experiments/sa_trained.py
`stroke_accuracy`); others (another seed) fine-tune it for the drawing widget, measured on the same held-out
ones (`drawing`), its settings chosen on validation outlines (a third seed) and validation images.
"""
from __future__ import annotations

import numpy as np

from scripts.common.shapes import SIZE

BRUSH = 1.5          # cells: a line about 3 cells wide, as thick as the lesson's ring
WOBBLE = 0.05        # how far a hand moves each point, as a share of the shape's half-size
RING_POINTS = 24

# each shape's outline in the shape's own box, u and v in [-1, 1] (v down), as scripts/common/shapes.py draws it
OUTLINES = {
    "ring": [[(0.65 * np.cos(a), 0.65 * np.sin(a)) for a in np.linspace(0, 2 * np.pi, RING_POINTS + 1)]],
    "square": [[(-0.6, -0.6), (0.6, -0.6), (0.6, 0.6), (-0.6, 0.6), (-0.6, -0.6)]],
    "cross": [[(0.0, -0.75), (0.0, 0.75)], [(-0.75, 0.0), (0.75, 0.0)]],
    "triangle": [[(0.0, -0.7), (0.7, 0.6), (-0.7, 0.6), (0.0, -0.7)]],
}
CLOSED = {kind: [bool(np.allclose(line[0], line[-1])) for line in lines] for kind, lines in OUTLINES.items()}


def paint(grid: np.ndarray, points, brush: float = BRUSH) -> np.ndarray:
    """Set to 1 every cell whose centre is within `brush` of the line through `points` [(x, y), ...]. All segments
    at once (one array per segment and cell: `make data` draws 20 000 outlines, segment by segment it took 6 s),
    each cell's distance to each segment computed as for one segment alone, so the same cells are set."""
    size = grid.shape[0]
    cy, cx = (np.mgrid[0:size, 0:size] + 0.5)[:, None]          # (1, size, size) each, against (segments, 1, 1)
    pts = np.asarray(points, dtype=np.float64)
    if len(pts) == 1:
        pts = np.concatenate([pts, pts])
    x0, y0 = pts[:-1, 0, None, None], pts[:-1, 1, None, None]
    dx, dy = pts[1:, 0, None, None] - x0, pts[1:, 1, None, None] - y0
    length2 = dx * dx + dy * dy
    along = (cx - x0) * dx + (cy - y0) * dy
    t = np.clip(np.divide(along, length2, out=np.zeros_like(along), where=length2 != 0), 0, 1)  # a point: t = 0
    grid[(np.hypot(cx - (x0 + t * dx), cy - (y0 + t * dy)) <= brush).any(axis=0)] = 1.0
    return grid


def strokes(kind: str, rng: np.random.Generator, sizes: tuple[int, int] = (12, SIZE)) -> np.ndarray:
    """A SIZE×SIZE drawing of `kind`'s outline with the brush: a random size (the side of its box, in
    cells) and place, every point moved by WOBBLE of the half-size (a corner shared by two points moves once)."""
    side = int(rng.integers(sizes[0], sizes[1] + 1))
    top, left = rng.integers(0, SIZE - side + 1, 2)
    half = side / 2
    grid = np.zeros((SIZE, SIZE))
    for line, closed in zip(OUTLINES[kind], CLOSED[kind]):
        moved = np.asarray(line) + rng.normal(0.0, WOBBLE, (len(line), 2))
        if closed:       # a closed outline stays closed
            moved[-1] = moved[0]
        paint(grid, [(left + half * (1 + u), top + half * (1 + v)) for u, v in moved])
    return grid
