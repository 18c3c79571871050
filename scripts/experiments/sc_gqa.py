"""Sharing key/value heads (MQA, GQA): the exact special cases, the cache they save, and one measured trade-off.

Grouped-query attention (Ainslie et al. 2023) gives H query heads only G key/value heads: query head h
uses the keys and values of group ⌊h / (H/G)⌋. G = H is multi-head attention (Vaswani et al. 2017);
G = 1 is multi-query attention (Shazeer 2019). The cache keeps G key/value heads instead of H, so it is
divided by the group factor H/G.

1. Special cases, checked numerically in float64 (seeded draws, n tokens, H heads of size hs):
   grouped attention (one vectorised computation, keys and values repeated over each group's query
   heads) against a per-head loop of the course's attention (scripts/common/attention.py) with each
   head's own keys and values (multi-head), and against the same loop where every head reads one
   shared key and value head (multi-query). Equal within NOISE_BOUND (relative to the output's scale).
2. The cache per token and layer for H = 8, hs = 64 and each G: 2 × G × hs numbers.
3. A trade-off measured on a task of the course: the toy translator of scripts/experiments/ca_trained.py
   (same corpus, same split, same training set-up and cross-attention head), its decoder's causal
   self-attention given HEADS query heads and G ∈ GROUPS key/value heads (1 = MQA, 2, HEADS = MHA),
   trained with each seed of SEEDS for EPOCHS epochs (fewer than ca_trained's, to keep the build short;
   the same for every G; the translator already translates most held-out sentences after a few).
   Measured on the held-out sentences: exact translations (greedy decoding, all sentences in one batch:
   held_out) and the mean cross-entropy per target token (teacher forcing; lower is better, and it
   moves before accuracy does). Reported per seed and over seeds, whatever they show.
   Only the decoder's self-attention keeps a growing cache while generating (the cross-attention's keys
   and values come from the source, computed once), so the cache column counts that one.

Keys returned:
  noise_bound                              relative bound for "equal within float64 rounding"
  check: {n, heads, head_size, seed, gqa_all_equals_mha, gqa_one_equals_mqa, groups_checked}
                                           the two special cases (true when below the bound)
  cache_by_groups: [{groups, group_factor, numbers_per_token_layer}]   for 8 heads of size 64
  task: {heads, head_size, d, groups, seeds, n_seeds, epochs, n_test}  the trade-off's set-up
  by_groups: [{groups, group_factor, kind, params, cache_numbers_per_token,
               over_seeds: {translation_accuracy, test_loss} ({mean, sd, min, max}),
               per_seed: [{seed, translation_accuracy, test_loss}]}]
                                           kind: "mqa", "gqa" or "mha"
  loss_spread_overlaps                     true when the test-loss ranges over seeds of all group counts
                                           overlap (no group count is apart from the others)
  paired_vs_mha: [{groups, loss_diff, accuracy_diff}]   per seed, this group count's test loss and
                                           accuracy minus multi-head attention's with the same seed
                                           (every other layer starts from the same draw and the
                                           batches come in the same order), over the seeds
                                           ({mean, sd, min, max}): the seed's own luck cancels out
  sources                                  citations
measure() (machine-dependent): train_s, train_cpu_s (mean seconds in one run's training loop, wall and
CPU), epochs, n_runs.
"""
from __future__ import annotations

import math

import numpy as np
import torch
from torch import nn

from scripts.common.attention import attention_steps
from scripts.common.published_models import citation
from scripts.common.training import Stopwatch, deterministic, map_seeds, over_seeds, seconds_per_seed
from scripts.experiments import ca_trained

SEED = 27
NOISE_BOUND = 1e-12
CHECK_N, CHECK_H, CHECK_HS = 12, 8, 16
CACHE_H, CACHE_HS = 8, 64
HEADS = 4
GROUPS = (1, 2, 4)
SEEDS = (17, 18, 19, 20, 21)   # ca_trained's seeds
EPOCHS = 5
LAST_TRAINING = {}   # the last compute()'s Stopwatches, for measure() (never in the data)


def grouped(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """q (H, n, hs); k, v (G, n, hs), G dividing H → output (H, n, hs), one vectorised computation."""
    rep = q.shape[0] // k.shape[0]
    k, v = np.repeat(k, rep, axis=0), np.repeat(v, rep, axis=0)
    s = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    w = np.exp(s - s.max(-1, keepdims=True))
    return (w / w.sum(-1, keepdims=True)) @ v


def per_head(q, ks, vs) -> np.ndarray:
    """A loop over heads with the course's attention: head h reads ks[h], vs[h]."""
    return np.stack([attention_steps(q[h], ks[h], vs[h]).output for h in range(q.shape[0])])


def special_cases() -> dict:
    rng = np.random.default_rng(SEED)
    x = rng.normal(0, 1, (CHECK_N, CHECK_H * CHECK_HS))
    wq, wk, wv = (rng.normal(0, 0.1, (CHECK_H * CHECK_HS, CHECK_H * CHECK_HS)) for _ in range(3))
    heads = lambda a: a.reshape(CHECK_N, CHECK_H, CHECK_HS).transpose(1, 0, 2)    # noqa: E731
    q, k, v = heads(x @ wq), heads(x @ wk), heads(x @ wv)
    mha = per_head(q, k, v)
    k1, v1 = k[:1], v[:1]                                    # one key/value head (the first projection's)
    mqa = per_head(q, [k1[0]] * CHECK_H, [v1[0]] * CHECK_H)
    scale = lambda a: float(np.abs(a).max())                 # noqa: E731
    all_ok = float(np.abs(grouped(q, k, v) - mha).max()) < NOISE_BOUND * scale(mha)
    one_ok = float(np.abs(grouped(q, k1, v1) - mqa).max()) < NOISE_BOUND * scale(mqa)
    checked = []
    for g in (1, 2, 4, 8):                                    # every G: the loop with group ⌊h/(H/G)⌋
        kg, vg = k[::CHECK_H // g], v[::CHECK_H // g]
        idx = [h // (CHECK_H // g) for h in range(CHECK_H)]
        ref = per_head(q, [kg[i] for i in idx], [vg[i] for i in idx])
        checked.append(float(np.abs(grouped(q, kg, vg) - ref).max()) < NOISE_BOUND * scale(ref))
    return {"n": CHECK_N, "heads": CHECK_H, "head_size": CHECK_HS, "seed": SEED,
            "gqa_all_equals_mha": all_ok, "gqa_one_equals_mqa": one_ok,
            "groups_checked": all(checked)}


class GroupedSelfAttention(nn.Module):
    """Causal self-attention with `heads` query heads and `groups` key/value heads, called like
    nn.MultiheadAttention (query, key, value, attn_mask=True where masked) → (output, None)."""

    def __init__(self, d: int, heads: int, groups: int):
        super().__init__()
        self.heads, self.groups, self.hs = heads, groups, d // heads
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * groups * self.hs)
        self.o = nn.Linear(d, d)

    def forward(self, query, key, value, attn_mask=None, need_weights=False):
        b, n, d = query.shape
        q = self.q(query).view(b, n, self.heads, self.hs).transpose(1, 2)
        k, v = self.kv(key).view(b, n, 2, self.groups, self.hs).permute(2, 0, 3, 1, 4)
        rep = self.heads // self.groups
        k, v = k.repeat_interleave(rep, 1), v.repeat_interleave(rep, 1)
        s = q @ k.transpose(-1, -2) / math.sqrt(self.hs)
        if attn_mask is not None:
            s = s.masked_fill(attn_mask, -math.inf)
        a = torch.softmax(s, -1) @ v
        return self.o(a.transpose(1, 2).reshape(b, n, d)), None


class GroupedTranslator(ca_trained.Translator):
    def __init__(self, n_src: int, n_tgt: int, groups: int):
        super().__init__(n_src, n_tgt)
        self.self_attn = GroupedSelfAttention(ca_trained.D, HEADS, groups)


def held_out(model, rows, sv, tv) -> tuple[float, float]:
    """(exact greedy translations, mean cross-entropy per target token), all held-out sentences in one
    batch: greedy decoding extends every sentence by one word per step (the causal mask keeps a finished
    sentence's later words from changing its earlier ones), as ca_trained.translate does one at a time."""
    src, pad, tin, tout = ca_trained.batch(rows, sv, tv)
    with torch.no_grad():
        logits, _ = model(src, pad, tin)
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), tout.flatten(), ignore_index=0, reduction="sum")
        out = torch.ones(len(rows), 1, dtype=torch.long)
        for _ in range(ca_trained.MAX_TGT - 1):
            step, _ = model(src, pad, out)
            out = torch.cat([out, step[:, -1].argmax(-1, keepdim=True)], 1)
    exact = 0
    for row, ids in zip(rows, out[:, 1:].tolist()):
        words = ids[:ids.index(2)] if 2 in ids else ids
        exact += [tv.words[i] for i in words] == row[2]
    return exact / len(rows), float(loss) / int((tout != 0).sum())


def fit(groups: int, seed: int, watch: Stopwatch | None = None):
    """ca_trained's training loop with the grouped self-attention: (model, held-out rows, vocabularies)."""
    rows, test, sv, tv = ca_trained.split()
    train_rows = [r for i, r in enumerate(rows) if i not in test]
    test_rows = [r for i, r in enumerate(rows) if i in test]
    model = GroupedTranslator(len(sv.words), len(tv.words), groups)
    ca_trained.fit(model, train_rows, sv, tv, seed, EPOCHS, watch or Stopwatch())
    return model, test_rows, sv, tv


def train(job: tuple[int, int]) -> tuple[dict, Stopwatch]:
    """One (groups, seed), trained and measured on the held-out sentences; and its training loop's time."""
    groups, seed = job
    watch = Stopwatch()
    with deterministic(seed):
        model, test_rows, sv, tv = fit(groups, seed, watch)
        accuracy, loss = held_out(model, test_rows, sv, tv)
        return {"seed": seed, "translation_accuracy": accuracy, "test_loss": loss,
                "params": sum(p.numel() for p in model.parameters()), "n_test": len(test_rows)}, watch


def compute() -> dict:
    jobs = [(g, s) for g in GROUPS for s in SEEDS]
    done = map_seeds(train, jobs)
    LAST_TRAINING["watch"] = [w for _, w in done]
    runs = dict(zip(jobs, (r for r, _ in done)))
    hs = ca_trained.D // HEADS
    by_groups = []
    for g in GROUPS:
        per_seed = [{k: runs[(g, s)][k] for k in ("seed", "translation_accuracy", "test_loss")}
                    for s in SEEDS]
        by_groups.append({"groups": g, "group_factor": HEADS // g,
                          "kind": "mqa" if g == 1 else "mha" if g == HEADS else "gqa",
                          "params": runs[(g, SEEDS[0])]["params"], "cache_numbers_per_token": 2 * g * hs,
                          "per_seed": per_seed,
                          "over_seeds": over_seeds([{k: v for k, v in r.items() if k != "seed"} for r in per_seed])})
    ranges = [(r["over_seeds"]["test_loss"]["min"], r["over_seeds"]["test_loss"]["max"]) for r in by_groups]
    overlap = max(lo for lo, _ in ranges) <= min(hi for _, hi in ranges)
    mha = {s: runs[(HEADS, s)] for s in SEEDS}
    paired = [{"groups": g,
               **over_seeds([{"loss_diff": runs[(g, s)]["test_loss"] - mha[s]["test_loss"],
                              "accuracy_diff": runs[(g, s)]["translation_accuracy"] - mha[s]["translation_accuracy"]}
                             for s in SEEDS])}
              for g in GROUPS if g != HEADS]
    return {"noise_bound": NOISE_BOUND, "check": special_cases(), "paired_vs_mha": paired,
            "cache_by_groups": [{"groups": g, "group_factor": CACHE_H // g, "numbers_per_token_layer": 2 * g * CACHE_HS}
                                for g in (1, 2, 4, 8)],
            "task": {"heads": HEADS, "head_size": hs, "d": ca_trained.D, "groups": list(GROUPS),
                     "seeds": list(SEEDS), "n_seeds": len(SEEDS), "epochs": EPOCHS,
                     "n_test": runs[(GROUPS[0], SEEDS[0])]["n_test"]},
            "by_groups": by_groups, "loss_spread_overlaps": overlap,
            "sources": {"mha": citation("vaswani2017"), "mqa": citation("shazeer2019"), "gqa": citation("ainslie2023")}}


def measure() -> dict:
    """Seconds in the training loops, per (groups, seed) run (mean over the runs of the last compute() in
    this process, else a fresh one); runs train two at a time (map_seeds)."""
    if "watch" not in LAST_TRAINING:
        compute()
    return {**seconds_per_seed(LAST_TRAINING["watch"]), "epochs": EPOCHS, "n_runs": len(LAST_TRAINING["watch"])}


if __name__ == "__main__":
    import json
    import time
    t0 = time.perf_counter()
    r = compute()
    for row in r["by_groups"]:
        print(row["groups"], row["params"], json.dumps(row["over_seeds"]))
    print(json.dumps(r["check"]), r["loss_spread_overlaps"], round(time.perf_counter() - t0, 1))
