"""What training changes: a one-block vision transformer trained on the course's shapes, its attention before and after.

The model is the lesson's set-up made trainable: each 28×28 image is cut into 49 patches of 4×4
(scripts.common.shapes), each patch becomes a token of width D through one linear layer, a learned
position vector is added, and one more token (the class token) is put in front. One transformer
block (pre-norm; H heads of attention, then a small MLP) follows, and a linear layer reads the
class token to tell the shapes apart. In the attention every query (the class token and the 49
patches) sees the 49 patches as keys, so every attention row is a distribution over exactly 49
patches and its entropy is measured against ln 49. With one block, the class token's row is the
only row the classifier's output depends on: the patch rows feed tokens nothing reads afterwards.

Images: the 4 shapes of the lesson drawn at a random size and place in a 28×28 frame, with
Gaussian pixel noise, standardised like the lesson's images. Trained from scratch (no download),
seeded and deterministic, in float64 (the same bytes on every CPU: scripts/common/training.py); the
same held-out images and the same architecture are measured before training (epoch 0) and after
each epoch. The model is trained once per seed in SEEDS: the images are the same for every seed
(drawn with SEED), the seed sets the initial weights and the order of the batches. Every number
below is the model of SEED (the one the pictures show); `over_seeds` gives each one's spread.

A second step, after everything above is measured, for the page's drawing widget only: each seed's trained
model is trained DRAW_EPOCHS more epochs on a mix of outlines drawn with the page's brush
(scripts/common/strokes.py, their own seed, none the same grid as a held-out or validation outline) and the
first of the lesson's filled training images; `drawing` reports how these fine-tuned models read the held-out
outlines and the held-out filled images. Every other key is the lesson's model, before this step; the exported
weights (export(), the widget's model) are the pictured seed's fine-tuned ones.
Three sets of outlines, each its own seed: the training ones (DRAW_STROKE_SEED), the validation ones
(VAL_STROKE_SEED) on which, with as many validation images of the lesson's kind (VAL_IMAGE_SEED), the step's
settings were chosen, and the held-out ones (STROKE_SEED) used for nothing but the figures reported.
`python -m tools.tune_drawing` prints the choice's table; share of the validation outlines / images read right
(passes: epochs × (outlines + filled images), what the step costs):

    epochs  outlines  filled images   passes   seed 13: outlines  images   seed 14: outlines  images
         2    16 000          4 000   40 000             90.50 %  94.70 %             91.40 %  96.60 %
         3    12 000          3 000   45 000             91.20 %  95.25 %             92.10 %  97.00 %   chosen
         3    11 000          4 000   45 000             90.50 %  96.05 %             91.55 %  97.30 %
         4     9 000          2 250   45 000             90.05 %  94.55 %             91.35 %  96.85 %
         5     7 200          1 800   45 000             90.15 %  95.25 %             90.50 %  96.45 %
         5     8 000          2 000   50 000              90.7 %   95.1 %              91.4 %   96.6 %
         3    16 000          4 000   60 000             91.95 %  95.35 %             92.85 %  97.20 %
         4    12 000          3 000   60 000             92.30 %  94.95 %             92.70 %  96.90 %
         5     9 600          2 400   60 000             92.00 %  95.10 %             93.10 %  96.80 %
         5    16 000          2 000   90 000              94.0 %   93.5 %              94.0 %   95.2 %
         5    16 000          4 000  100 000              93.5 %   95.5 %              94.2 %   96.7 %   chosen before 2026-12-06
         5    32 000          4 000  180 000              95.3 %   94.5 %                   —        —
        10    16 000          4 000  200 000              95.1 %   96.8 %                   —        —
    (— : a setting tried on seed 13 only.)

3 epochs on 12 000 outlines and 3 000 images: the best mean of the two shares over both seeds (TUNED_ON) among the
settings of at most MAX_PASSES passes (a near tie with 3 epochs on 11 000 + 4 000: 93.89 against 93.85). The bound
is the build's: `make data FORCE=1` runs the step once per seed, and with the earlier 100 000 passes the whole run
took ~756 CPU-seconds, so at least 378 s on 2 cores against its budget of 360 s (issue 21); the README gives the
run's figure with 45 000. Longer settings with at least as many outlines read more validation outlines right
(91.95–95.3 %; the 50 000 one, 5 epochs on 8 000 + 2 000, fewer), at that cost, for a held-out figure already above
the 90 % the widget needs.

Keys returned:
  seed, seeds, n_seeds                             the pictured model's seed; all seeds trained
  over_seeds {<key as below>: {mean, sd, min, max}}  every number of per_seed's runs, over the seeds
                                                   (test_accuracy, untrained_accuracy, *_entropy_pct,
                                                   patch_rows, on_shape, by_shape, checkpoints)
  per_seed [{seed, <the same keys>}]               each seed's numbers
  settled {epoch, share, accuracy, entropy_pct}    the first epoch by which the seeds' mean class-token
                                                   entropy has fallen `share` of its whole fall, and
                                                   the spread of accuracy and entropy at that epoch
  n_train, n_test, epochs, batch, lr, d, heads, head_dim, mlp, params   the set-up
  sizes {min, max}, noise                          how the shapes vary
  shapes                                           the classes, in order
  test_accuracy, untrained_accuracy                share of held-out images classified right
  stroke_accuracy, n_strokes, brush                share of n_strokes shapes drawn as outlines with the
                                                   page's brush (scripts/common/strokes.py; the held-out
                                                   outlines: never trained on nor used to choose anything,
                                                   the same drawings for every seed) classified right
  untrained_entropy_pct, trained_entropy_pct       class-token row, mean entropy as % of ln 49
                                                   (over heads and held-out images)
  patch_rows {untrained_entropy_pct, trained_entropy_pct}  the same for the 49 patch rows
  on_shape {untrained, trained, patch_share, trained_over_share}
                                                   class-token attention landing on patches that
                                                   contain the shape, and the share of such patches
  checkpoints {"<epoch>": {accuracy, entropy_pct, patch_entropy_pct, on_shape}}  epoch 0 = untrained
  examples {<shape>: {patches, on_shape_patches, untrained, trained}}  the lesson's copy of each
      shape (scripts.common.shapes.SEEDS): its 49 standardised patches (2 decimals), which patches
      hold the shape, and per state {heads {"<h>": {q, k, entropy_pct, on_shape}}}: per head the
      scaled queries q (50 rows: class token, then patches) and keys k (49 patch rows), 2 decimals,
      so a page can recompute softmax(q·k) for any query; entropy_pct / on_shape of the class row
  drawing {epochs, lr, lr_schedule, batch, n_strokes_train, n_filled_train, stroke_seed, n_validation,
           passes, max_passes, tuned_on,
           seeds_of_sets {training_outlines, validation_outlines, validation_images, held_out_outlines},
           stroke_accuracy, test_accuracy, validation_accuracy, validation_image_accuracy,
           per_seed [{seed, <the same four>, test_points_lost}], over_seeds {<the same five>}}
                                                   the second step (above): the fine-tuned models' share of
                                                   the n_strokes held-out outlines, of the n_test held-out
                                                   filled images, and of the n_validation validation outlines
                                                   and validation images (the settings were chosen on these)
                                                   classified right, the pictured seed's at the top;
                                                   stroke_seed is the training outlines' seed; passes: epochs ×
                                                   (outlines + filled images), chosen among settings of at most max_passes on the
                                                   lesson models of the seeds tuned_on; test_points_lost: the
                                                   held-out images' share lost in the step, in percentage points
  by_shape {<shape>: {untrained_entropy_pct, trained_entropy_pct, untrained_on_shape,
                      trained_on_shape, on_shape_patches, patch_share, trained_over_share}}
                                                   the examples' class rows, averaged over heads;
                                                   one image per shape, not the held-out set
"""
from __future__ import annotations

import functools

import numpy as np
import torch
from torch import nn

from scripts.common.attention import LN49, entropy_rows
from scripts.common.shapes import GRID, N_PATCHES, PATCH, SIZE, draw, make_shape, on_shape, patches, standardize
from scripts.common.shapes import SEEDS as SEEDS_OF_SHAPES
from scripts.common.strokes import BRUSH, strokes
from scripts.common import weights
from scripts.common.training import Adam, Stopwatch, deterministic, map_seeds, over_seeds, parameters, seconds_per_seed

SEED = 13                   # the images, and the model the pictures show
SEEDS = (13, 14, 15, 16, 17)   # every trained number is reported over these (mean, range)
SHAPES = ("ring", "square", "cross", "triangle")
N_TRAIN, N_TEST = 6000, 1000
EPOCHS, BATCH, LR = 14, 100, 3e-3
D, HEADS, MLP = 16, 4, 64
SETTLED = 0.8               # "the map is mostly set": this share of the entropy's fall is behind it
SIZES = (12, SIZE)          # the side of the shape's square, in pixels
NOISE = 0.1
N_STROKES = 2000            # held-out outlines drawn with the page's brush: how the model reads a reader's drawing
STROKE_SEED = 2617          # a seed no choice was made on (2613 was: its outlines chose the first version's settings)
N_VAL_STROKES = 2000        # validation outlines: the second step's settings were chosen on these (docstring)
VAL_STROKE_SEED = 2615
VAL_IMAGE_SEED = 2616       # as many validation images of the lesson's kind
# the second step, for the drawing widget only (the module's docstring): more epochs on brush outlines and filled shapes
DRAW_EPOCHS, DRAW_LR = 3, 3e-3   # the learning rate falls linearly to 0 over the step's batches
N_DRAW_STROKES = 12000      # outlines drawn with the page's brush, their own seed (never a held-out or validation one)
N_DRAW_FILLED = 3000        # the first of the lesson's filled training images, so the model keeps reading them
DRAW_STROKE_SEED = 2614
MAX_PASSES = 45000          # the step's settings were chosen among those of at most this many epochs × (outlines + images)
TUNED_ON = (13, 14)         # the seeds whose lesson models the settings were chosen on (the docstring's table)
LAST_TRAINING = {}          # the last training's Stopwatches, for measure() (never in the data), and the
                            # pictured model's fine-tuned parameters, for export()


def images(n: int, rng: np.random.Generator):
    """n noisy shapes of random kind, size and place → (patch tokens n×49×16, labels, on-shape masks)."""
    x = np.empty((n, N_PATCHES, PATCH * PATCH))
    y = rng.integers(0, len(SHAPES), n)
    mask = np.empty((n, N_PATCHES), dtype=bool)
    for i in range(n):
        size = int(rng.integers(SIZES[0], SIZES[1] + 1))
        r, c = rng.integers(0, SIZE - size + 1, 2)
        clean = np.zeros((SIZE, SIZE))
        clean[r:r + size, c:c + size] = draw(SHAPES[y[i]], size)
        img = np.clip(clean + rng.normal(0.0, NOISE, clean.shape), 0.0, 1.0)
        x[i] = patches(standardize(img))
        mask[i] = on_shape(clean)
    return torch.tensor(x), torch.tensor(y), mask


class TinyViT(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(PATCH * PATCH, D)
        self.cls = nn.Parameter(torch.randn(1, 1, D) * 0.02)   # random: a real query from the start
        self.pos = nn.Parameter(torch.randn(1, N_PATCHES, D) * 0.02)
        self.ln1, self.ln2, self.ln_out = nn.LayerNorm(D), nn.LayerNorm(D), nn.LayerNorm(D)
        self.attn = nn.MultiheadAttention(D, HEADS, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(D, MLP), nn.GELU(), nn.Linear(MLP, D))
        self.head = nn.Linear(D, len(SHAPES))
        mask = torch.zeros(N_PATCHES + 1, N_PATCHES + 1, dtype=torch.bool)
        mask[:, 0] = True                      # no query looks at the class token: rows over 49 patches
        self.register_buffer("mask", mask)

    def forward(self, x, weights: bool = False):
        t = torch.cat([self.cls.expand(len(x), -1, -1), self.embed(x) + self.pos], dim=1)
        h = self.ln1(t)
        a, w = self.attn(h, h, h, attn_mask=self.mask, need_weights=weights, average_attn_weights=False)
        t = t + a
        t = t + self.mlp(self.ln2(t))
        return self.head(self.ln_out(t[:, 0])), w

    def queries_keys(self, x):
        """Per head, scaled queries (all 50 tokens) and keys (the 49 patches): softmax(q kᵀ) = the weights."""
        t = torch.cat([self.cls.expand(len(x), -1, -1), self.embed(x) + self.pos], dim=1)
        h = self.ln1(t)
        wq, wk, _ = self.attn.in_proj_weight.chunk(3)
        bq, bk, _ = self.attn.in_proj_bias.chunk(3)
        hd = D // HEADS
        q = ((h @ wq.T + bq) / hd ** 0.5).unflatten(-1, (HEADS, hd)).transpose(1, 2)
        k = (h @ wk.T + bk).unflatten(-1, (HEADS, hd)).transpose(1, 2)[:, :, 1:]
        return q, k


def measure_attention(model, x, y, mask) -> dict:
    """Accuracy, and the class row's and patch rows' entropy and on-shape share, on held-out images."""
    model.eval()
    with torch.no_grad():
        logits, w = model(x, weights=True)
    w = w.double().numpy()[:, :, :, 1:]                      # (n, heads, 50, 49)
    cls = w[:, :, 0]
    return {"accuracy": float((logits.argmax(1) == y).double().mean()),
            "entropy_pct": float(100 * entropy_rows(cls).mean() / LN49),
            "patch_entropy_pct": float(100 * entropy_rows(w[:, :, 1:]).mean() / LN49),
            "on_shape": float((cls * mask[:, None, :]).sum(-1).mean())}


def example_maps(model, kind: str, tokens: torch.Tensor, on: np.ndarray) -> dict:
    model.eval()
    with torch.no_grad():
        q, k = model.queries_keys(tokens[None])
        _, w = model(tokens[None], weights=True)
    heads = {}
    for h in range(HEADS):
        weights = torch.softmax(q[0, h] @ k[0, h].T, -1)
        assert torch.allclose(weights, w[0, h, :, 1:], atol=1e-12), "q·k does not give the model's weights"
        row = weights[0].double().numpy()
        heads[str(h + 1)] = {"q": np.round(q[0, h].double().numpy(), 2).tolist(),
                             "k": np.round(k[0, h].double().numpy(), 2).tolist(),
                             "entropy_pct": float(100 * entropy_rows(row) / LN49),
                             "on_shape": float(row[on].sum())}
    return {"heads": heads}


def outlines(seed: int, n: int) -> tuple:
    """n outlines drawn with the page's brush (scripts/common/strokes.py), as patch tokens, and labels."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(SHAPES), n)
    x = np.stack([patches(standardize(strokes(SHAPES[k], rng, SIZES))) for k in y])
    return torch.tensor(x), torch.tensor(y)


@functools.cache
def stroke_data() -> tuple:
    """The held-out outlines: the reported figures, nothing chosen on them."""
    return outlines(STROKE_SEED, N_STROKES)


@functools.cache
def validation_data() -> tuple:
    """The validation outlines: the second step's settings were chosen on these."""
    return outlines(VAL_STROKE_SEED, N_VAL_STROKES)


@functools.cache
def validation_images() -> tuple:
    """Validation images of the lesson's kind (their own seed): the second step's settings were chosen on
    these too, never on the lesson's held-out images."""
    x, y, _ = images(N_VAL_STROKES, np.random.default_rng(VAL_IMAGE_SEED))
    return x, y


@functools.cache
def drawing_data(n_strokes: int = N_DRAW_STROKES, n_filled: int = N_DRAW_FILLED) -> tuple:
    """The second step's training images: n_strokes brush outlines drawn with their own seed, one after
    another, an outline that gives the same grid as a held-out or validation one left out (a small shape can),
    then the first n_filled of the lesson's filled training images."""
    held = {t.numpy().tobytes() for t in (*stroke_data()[0], *validation_data()[0])}
    rng = np.random.default_rng(DRAW_STROKE_SEED)
    x, y = [], []
    while len(x) < n_strokes:
        k = int(rng.integers(0, len(SHAPES)))
        tokens = patches(standardize(strokes(SHAPES[k], rng, SIZES)))
        if tokens.tobytes() not in held:
            x.append(tokens)
            y.append(k)
    x_tr, y_tr = data()[:2]
    return (torch.cat([torch.tensor(np.stack(x)), x_tr[:n_filled]]),
            torch.cat([torch.tensor(y), y_tr[:n_filled]]))


def accuracy(model, x, y) -> float:
    model.eval()
    with torch.no_grad():
        return float((model(x)[0].argmax(1) == y).double().mean())


def fine_tune(model, seed: int, watch: Stopwatch, epochs: int = DRAW_EPOCHS, n_strokes: int = N_DRAW_STROKES,
              n_filled: int = N_DRAW_FILLED) -> dict:
    """The second step: DRAW_EPOCHS more epochs of the trained `model` (in place) on drawing_data(), a new
    optimiser whose learning rate falls linearly from DRAW_LR to 0, the batches in an order of their own
    (seeded by `seed`); its accuracy on the held-out outlines, the held-out filled images, the validation outlines
    and the validation images."""
    x, y = drawing_data(n_strokes, n_filled)
    _, _, x_te, y_te, _ = data()
    x_st, y_st = stroke_data()
    opt = Adam(model.parameters(), lr=DRAW_LR)
    steps = epochs * -(-len(x) // BATCH)
    falling = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: 1 - step / steps)
    order = torch.Generator().manual_seed(DRAW_STROKE_SEED * 100 + seed)
    for _ in range(epochs):
        model.train()
        with watch.running():
            for idx in torch.randperm(len(x), generator=order).split(BATCH):
                loss = nn.functional.cross_entropy(model(x[idx])[0], y[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
                falling.step()
    return {"stroke_accuracy": accuracy(model, x_st, y_st), "test_accuracy": accuracy(model, x_te, y_te),
            "validation_accuracy": accuracy(model, *validation_data()),
            "validation_image_accuracy": accuracy(model, *validation_images())}


@functools.cache
def data() -> tuple:
    """The training and held-out images, the same for every seed (drawn with SEED)."""
    rng = np.random.default_rng(SEED)
    x_tr, y_tr, _ = images(N_TRAIN, rng)
    x_te, y_te, m_te = images(N_TEST, rng)
    return x_tr, y_tr, x_te, y_te, m_te


def train_lesson(model, seed: int, watch: Stopwatch, after_epoch=lambda epoch: None, epochs: int = EPOCHS) -> None:
    """The lesson's training of `model` (in place): EPOCHS epochs over the training images (or its first
    `epochs`), the batches in the order `seed` gives; `after_epoch(epoch)` after each."""
    x_tr, y_tr = data()[:2]
    opt = Adam(model.parameters(), lr=LR)
    order = torch.Generator().manual_seed(seed)
    for epoch in range(1, epochs + 1):
        model.train()
        with watch.running():
            for idx in torch.randperm(N_TRAIN, generator=order).split(BATCH):
                loss = nn.functional.cross_entropy(model(x_tr[idx])[0], y_tr[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
        after_epoch(epoch)


def train(seed: int) -> tuple[dict, dict, Stopwatch, dict, Stopwatch, dict]:
    """Train once with `seed` (initial weights, batch order) and measure; then the second step (fine_tune).
    Return (measurements, examples, seconds, the fine-tuned model's measurements, its seconds, its
    parameters by name). Both steps in this process; compute() runs them as two (map_seeds' `then`)."""
    first = lesson_step(seed)
    return (*first[:3], *drawing_step(seed, first))


def lesson_step(seed: int, epochs: int = EPOCHS) -> tuple[dict, dict, Stopwatch, dict]:
    """The lesson's training and every number of it: (measurements, examples, seconds, the model's state).
    `epochs` fewer than EPOCHS: the same run cut short, its checkpoints so far the same bytes (the suite's
    retraining check)."""
    watch = Stopwatch()
    _, _, x_te, y_te, m_te = data()
    with deterministic(seed):
        ex_tokens = {s: torch.tensor(patches(standardize(make_shape(s, seed=SEEDS_OF_SHAPES[s])))) for s in SHAPES}
        ex_on = {s: on_shape(draw(s)) for s in SHAPES}
        model = TinyViT()
        checkpoints = {"0": measure_attention(model, x_te, y_te, m_te)}
        examples = {s: {"untrained": example_maps(model, s, ex_tokens[s], ex_on[s])} for s in SHAPES}
        train_lesson(model, seed, watch,
                     lambda epoch: checkpoints.update({str(epoch): measure_attention(model, x_te, y_te, m_te)}), epochs)
        for s in SHAPES:
            examples[s]["trained"] = example_maps(model, s, ex_tokens[s], ex_on[s])
            examples[s]["patches"] = np.round(ex_tokens[s].numpy(), 2).tolist()
            examples[s]["on_shape_patches"] = [int(i) for i in np.flatnonzero(ex_on[s])]
        share = float(m_te.mean())
        params = sum(p.numel() for p in model.parameters())
        x_st, y_st = stroke_data()
        with torch.no_grad():
            stroke_accuracy = float((model(x_st)[0].argmax(1) == y_st).double().mean())
    return ({"checkpoints": checkpoints, "patch_share": share, "params": params, "stroke_accuracy": stroke_accuracy},
            examples, watch, model.state_dict())


def drawing_step(seed: int, lesson: tuple) -> tuple[dict, Stopwatch, dict]:
    """The second step on the model lesson_step(seed) trained (its state, the last of `lesson`): (the
    fine-tuned model's measurements, its seconds, its parameters by name). The step draws nothing from torch's
    seeded stream (its batch order has a generator of its own), so it gives the same bytes in a process of its own."""
    draw_watch = Stopwatch()
    with deterministic(seed):
        model = TinyViT()
        model.load_state_dict(lesson[-1])
        drawing = fine_tune(model, seed, draw_watch)
    return drawing, draw_watch, parameters(model)


def _mean(example: dict, state: str, key: str) -> float:
    return float(np.mean([h[key] for h in example[state]["heads"].values()]))


def summary(result: dict, examples: dict) -> dict:
    """One run's numbers, the keys the page states (and over_seeds spreads)."""
    ck = result["checkpoints"]
    first, last = ck["0"], ck[str(EPOCHS)]
    return {
        "test_accuracy": last["accuracy"], "untrained_accuracy": first["accuracy"],
        "stroke_accuracy": result["stroke_accuracy"],
        "untrained_entropy_pct": first["entropy_pct"], "trained_entropy_pct": last["entropy_pct"],
        "patch_rows": {"untrained_entropy_pct": first["patch_entropy_pct"],
                       "trained_entropy_pct": last["patch_entropy_pct"]},
        "on_shape": {"untrained": first["on_shape"], "trained": last["on_shape"],
                     "patch_share": result["patch_share"],
                     "trained_over_share": last["on_shape"] / result["patch_share"]},
        "checkpoints": ck,
        "by_shape": {s: {"untrained_entropy_pct": _mean(e, "untrained", "entropy_pct"),
                         "trained_entropy_pct": _mean(e, "trained", "entropy_pct"),
                         "untrained_on_shape": _mean(e, "untrained", "on_shape"),
                         "trained_on_shape": _mean(e, "trained", "on_shape"),
                         # the shapes cover very different shares of their image: the lift over that
                         # share, not the raw on-shape weight, compares how much each shape draws the eye
                         "on_shape_patches": len(e["on_shape_patches"]),
                         "patch_share": len(e["on_shape_patches"]) / N_PATCHES,
                         "trained_over_share": _mean(e, "trained", "on_shape")
                         / (len(e["on_shape_patches"]) / N_PATCHES)} for s, e in examples.items()},
    }


def compute() -> dict:
    # pinned: trained on the portable kernel path whatever the CPU, so the exported weights are the same
    # bytes everywhere (scripts/common/training.py PINNED)
    steps = map_seeds(lesson_step, SEEDS, pinned=True, then=drawing_step)
    runs = {seed: (*lesson[:3], *drawing) for seed, (lesson, drawing) in zip(SEEDS, steps)}
    LAST_TRAINING["watch"] = [run[2] for run in runs.values()]
    LAST_TRAINING["draw_watch"] = [run[4] for run in runs.values()]
    LAST_TRAINING["parameters"] = runs[SEED][-1]
    per_seed = [{"seed": seed, **summary(*runs[seed][:2])} for seed in SEEDS]
    # how many percentage points of the held-out images each seed's model loses in the second step
    drawn = [{"seed": seed, **runs[seed][3], "test_points_lost":
              100 * (runs[seed][0]["checkpoints"][str(EPOCHS)]["accuracy"] - runs[seed][3]["test_accuracy"])}
             for seed in SEEDS]
    result, examples = runs[SEED][:2]
    return {
        "seed": SEED, "seeds": list(SEEDS), "n_seeds": len(SEEDS),
        "n_train": N_TRAIN, "n_test": N_TEST, "epochs": EPOCHS, "batch": BATCH, "lr": LR,
        "d": D, "heads": HEADS, "head_dim": D // HEADS, "mlp": MLP, "params": result["params"],
        "sizes": {"min": SIZES[0], "max": SIZES[1]}, "noise": NOISE, "shapes": list(SHAPES),
        "n_strokes": N_STROKES, "brush": BRUSH,
        **summary(result, examples),
        "examples": examples,
        "per_seed": per_seed,
        "over_seeds": (spread := over_seeds([{k: v for k, v in r.items() if k != "seed"} for r in per_seed])),
        "settled": {"epoch": (e := settled_epoch(spread["checkpoints"])), "share": SETTLED,
                    **{k: spread["checkpoints"][str(e)][k] for k in ("accuracy", "entropy_pct")}},
        "drawing": {"epochs": DRAW_EPOCHS, "lr": DRAW_LR, "lr_schedule": "linear to 0", "batch": BATCH, "n_strokes_train": N_DRAW_STROKES,
                    "n_filled_train": N_DRAW_FILLED, "stroke_seed": DRAW_STROKE_SEED, "n_validation": N_VAL_STROKES,
                    "passes": DRAW_EPOCHS * (N_DRAW_STROKES + N_DRAW_FILLED), "max_passes": MAX_PASSES,
                    "tuned_on": list(TUNED_ON),
                    "seeds_of_sets": {"training_outlines": DRAW_STROKE_SEED, "validation_outlines": VAL_STROKE_SEED,
                                      "validation_images": VAL_IMAGE_SEED, "held_out_outlines": STROKE_SEED},
                    **runs[SEED][3],
                    "per_seed": drawn,
                    "over_seeds": over_seeds([{k: v for k, v in r.items() if k != "seed"} for r in drawn])},
    }


def settled_epoch(checkpoints: dict) -> int:
    """The first epoch by which the mean class-token entropy has fallen SETTLED of its whole fall."""
    mean = {int(e): c["entropy_pct"]["mean"] for e, c in checkpoints.items()}
    start, end = mean[0], mean[EPOCHS]
    return next(e for e in sorted(mean) if start - mean[e] >= SETTLED * (start - end))


def measure() -> dict:
    """Seconds spent in the training loop, per seed (mean over the seeds; the last compute() in this
    process, else a fresh run), and in the second step's (`drawing`). Seeds train side by side
    (scripts/common/training.py map_seeds)."""
    if "watch" not in LAST_TRAINING:
        compute()
    drawing = seconds_per_seed(LAST_TRAINING["draw_watch"])
    return {**seconds_per_seed(LAST_TRAINING["watch"]), "epochs": EPOCHS,
            "n_train": N_TRAIN, "n_seeds": len(SEEDS),
            "drawing": {**drawing, "epochs": DRAW_EPOCHS, "n_train": N_DRAW_STROKES + N_DRAW_FILLED}}


def export() -> str:
    """The pictured model (SEED) after the second step (fine_tune: the drawing widget's model), for the page's
    own forward pass (overrides/assets/js/tiny-models.js): the set-up it needs and the fine-tuned parameters
    (the last compute() in this process, else a fresh run), in float32 (scripts/common/weights.py)."""
    if "parameters" not in LAST_TRAINING:
        compute()
    return weights.script("sa_trained", {
        "seed": SEED, "tensors": LAST_TRAINING["parameters"], "dtype": "float32",
        "fine_tuned": {"epochs": DRAW_EPOCHS, "n_strokes_train": N_DRAW_STROKES, "n_filled_train": N_DRAW_FILLED},
        "config": {"size": SIZE, "patch": PATCH, "d": D, "heads": HEADS, "mlp": MLP,
                   "classes": list(SHAPES), "ln_eps": nn.LayerNorm(D).eps}})


if __name__ == "__main__":
    import json
    import time
    t0 = time.perf_counter()
    r = compute()
    print(json.dumps({k: v for k, v in r.items() if k not in ("examples",)}, indent=1))
    print("train", measure(), "total", time.perf_counter() - t0)
