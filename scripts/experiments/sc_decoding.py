"""Generating token by token: the causal mask, and a key/value cache that gives the same logits as recomputing.

The mask. A causal decoder lets token i attend to tokens 1 … i (the scores of later ones are set to
−∞ before the softmax), so n tokens have n(n + 1)/2 allowed pairs out of n².

The model: a tiny decoder-only transformer, built and trained here in float64 (seeded; the same bytes
on every CPU): 2 blocks, each pre-norm causal attention with 4 heads of size 8 (d = 32) and a
feed-forward layer of 64, sinusoidal positions, trained for a few epochs as a language model on the
English side of the course's toy translator corpus (scripts/experiments/ca_trained.py: «the cat sat on
the mat», …). Why that data: the reader knows the sentences from the cross-attention lessons, they are
short (so training takes seconds on one core), and a trained model generates real sentences, so the
step-by-step figure shows words, not noise. Cache or not, the arithmetic is the same for any weights;
the training only makes the example readable.

Generating. Greedy decoding from a prompt, in two ways:
  recompute   at each step the whole text so far goes through the model again (every key and value of
              every earlier token is computed again);
  cached      each layer keeps the keys and values of the tokens so far; a step feeds only the new
              token, computes its query, key and value, appends the key and value, and attends over
              the cache.
The logits of the two ways agree within float64 rounding: the data states only that the largest
difference, over every step of every prompt, is below CACHE_BOUND (machine-independent); the size of the
difference itself is machine noise and goes to the timings (measure()).

Work per new token (multiplications, per layer, for a text of n tokens before the step; d model width,
f feed-forward width): recompute = n'·(4d² + 2df) + n'(n' + 1)·d with n' = n + 1 (projections and
feed-forward for every token, scores and weighted sums for the n'(n' + 1)/2 allowed pairs); cached =
4d² + 2df + 2n'd. Counted for the timed model's set-up (TIMED), so the page can set the measured time
ratio (timings) next to the ratio of work (data).

Keys returned:
  mask: [{n, pairs, allowed, share}]           allowed = n(n + 1)/2 of pairs = n², share = allowed/pairs
  model: {layers, heads, head_size, d, ffn, vocab, params, epochs, batch, lr, seed, n_sentences}
  train_loss_last_epoch                        mean cross-entropy per token in the last epoch
  cache_bound                                  the bound on |logit(cached) − logit(recomputed)|
  cache_equals_recompute                       true when every step of every prompt is below it
  same_tokens                                  true when both ways generate the same words
  prompts_compared, steps_compared             how many prompts and steps were compared
  kv_numbers_per_token                         2 × layers × heads × head size (numbers cached per token)
  example: {prompt, generated, text, tokens, matrix, steps: [{step, position, input, next, next_prob, top: [{word, prob}],
            cache_tokens, cache_numbers, attention: [layer][head][position]}]}
                                               one prompt decoded with the cache: at each step the input
                                               word, the chosen next word and the 3 likeliest, how many
                                               tokens the cache holds after the step, and the new
                                               token's attention row in each layer and head (the row of
                                               the masked matrix being filled), 3 decimals;
                                               tokens = <bos>, prompt and generated words; matrix[layer][head]
                                               = the whole causal attention matrix over them (one
                                               recomputation at the end: row i is the row step i filled,
                                               zeros above the diagonal), 3 decimals
  generations: [{prompt, text}]               every prompt's greedy output
  timed_setup: {layers, heads, d, ffn, vocab}  the model measure() times (seeded, untrained)
  work: [{n, recompute, cached, ratio}]        multiplications for one new token after n tokens
measure() (machine-dependent): for the timed model, on one thread, the time to produce one new token
after n tokens, recomputing and with the cache, for n in TIMED_LENGTHS (median of repeats, each a mean
over several calls), wall clock and CPU, and the fastest repeat: by_length: [{n, recompute_ms,
cached_ms, ratio, recompute_cpu_ms, cached_cpu_ms, cpu_ratio, recompute_min_ms, cached_min_ms,
min_ratio}], each ratio = recompute / cached. Also max_logit_diff: the
largest cached-vs-recompute difference on this machine (below CACHE_BOUND), and the machine's load
average when it was measured (a shared machine's wall clock stretches; the CPU times less).
"""
from __future__ import annotations

import math
import statistics
import time

import torch
from torch import nn

from scripts.common.training import Adam, deterministic
from scripts.experiments import ca_trained

SEED = 27
LAYERS, HEADS, D, FFN = 2, 4, 32, 64
EPOCHS, BATCH, LR = 4, 32, 3e-3
CACHE_BOUND = 1e-12
MASK_NS = (1, 2, 4, 8, 16, 64, 1024)
PROMPTS = (("the", "cat"), ("the", "dog"), ("the", "girl"), ("the", "boy"), ("the", "bird"), ("the", "mouse"))
EXAMPLE = ("the", "girl")
MAX_LEN = 14
TIMED = {"layers": 2, "heads": 4, "d": 64, "ffn": 256, "vocab": 64}
TIMED_LENGTHS = (16, 64, 256, 1024)
WORK_LENGTHS = (16, 64, 256, 1024, 4096)


def sinusoid(n: int, d: int) -> torch.Tensor:
    pos = torch.arange(n, dtype=torch.float64)[:, None]
    i = torch.arange(0, d, 2, dtype=torch.float64)
    angle = pos / torch.pow(torch.tensor(10000.0, dtype=torch.float64), i / d)
    pe = torch.zeros(n, d, dtype=torch.float64)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(angle), torch.cos(angle)
    return pe


class Block(nn.Module):
    def __init__(self, d: int, heads: int, ffn: int):
        super().__init__()
        self.heads, self.hs = heads, d // heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
        self.ffn = nn.Sequential(nn.Linear(d, ffn), nn.GELU(), nn.Linear(ffn, d))

    def split(self, x):                                   # (B, T, d) → (B, heads, T, hs)
        return x.view(x.shape[0], x.shape[1], self.heads, self.hs).transpose(1, 2)

    def forward(self, x, cache=None):
        """cache None: the whole text, causal mask. cache (k, v) or []: the new tokens only, appended."""
        h = self.ln1(x)
        q, k, v = self.split(self.q(h)), self.split(self.k(h)), self.split(self.v(h))
        if cache is not None and len(cache):
            k, v = torch.cat([cache[0], k], 2), torch.cat([cache[1], v], 2)
        s = q @ k.transpose(-1, -2) / math.sqrt(self.hs)
        t_new, t_all = q.shape[2], k.shape[2]
        allowed = torch.arange(t_all)[None, :] <= torch.arange(t_all - t_new, t_all)[:, None]
        w = torch.softmax(s.masked_fill(~allowed, -math.inf), -1)
        a = (w @ v).transpose(1, 2).reshape(x.shape)
        x = x + self.o(a)
        return x + self.ffn(self.ln2(x)), (k, v), w


class Decoder(nn.Module):
    def __init__(self, vocab: int, layers: int, heads: int, d: int, ffn: int, max_len: int = 4096):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.register_buffer("pe", sinusoid(max_len, d), persistent=False)
        self.blocks = nn.ModuleList(Block(d, heads, ffn) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids, caches=None):
        """ids (B, T). caches None: recompute everything. caches a list (one entry per block, [] at the
        start): the new tokens only; returns (logits, new caches, attention weights per block)."""
        start = 0 if caches is None or not len(caches[0]) else caches[0][0].shape[2]
        x = self.emb(ids) + self.pe[start:start + ids.shape[1]]
        new, weights = [], []
        for i, block in enumerate(self.blocks):
            x, kv, w = block(x, None if caches is None else caches[i])
            new.append(kv)
            weights.append(w)
        return self.out(self.ln(x)), new, weights


def sentences():
    """The English side of the translator corpus, each sentence once, in corpus order."""
    seen, out = set(), []
    for _, _, tgt, _ in ca_trained.corpus():
        key = " ".join(tgt)
        if key not in seen:
            seen.add(key)
            out.append(tgt)
    return out


def vocabulary(rows) -> list[str]:
    return ["<pad>", "<bos>", "<eos>"] + sorted({w for r in rows for w in r})


def train():
    rows = sentences()
    words = vocabulary(rows)
    index = {w: i for i, w in enumerate(words)}
    n = max(len(r) for r in rows) + 2
    data = torch.zeros(len(rows), n, dtype=torch.long)
    for i, r in enumerate(rows):
        ids = [1] + [index[w] for w in r] + [2]
        data[i, :len(ids)] = torch.tensor(ids)
    model = Decoder(len(words), LAYERS, HEADS, D, FFN, max_len=64)
    opt = Adam(model.parameters(), lr=LR)
    order = torch.Generator().manual_seed(SEED)
    last = []
    for epoch in range(EPOCHS):
        for idx in torch.randperm(len(rows), generator=order).split(BATCH):
            batch = data[idx]
            logits, _, _ = model(batch[:, :-1])
            loss = nn.functional.cross_entropy(logits.flatten(0, 1), batch[:, 1:].flatten(), ignore_index=0)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if epoch == EPOCHS - 1:
                last.append(loss.item())
    model.eval()
    return model, words, index, len(rows), sum(last) / len(last)


def generate(model, prompt_ids: list[int], cached: bool, max_len: int = MAX_LEN):
    """Greedy decoding; returns (ids, logits of each step, attention weights of each step)."""
    ids, logits_seq, weights_seq = list(prompt_ids), [], []
    caches = [[] for _ in model.blocks] if cached else None
    fed = 0
    with torch.no_grad():
        while len(ids) < max_len:
            if cached:
                logits, caches, w = model(torch.tensor([ids[fed:]]), caches)
                fed = len(ids)
            else:
                logits, _, w = model(torch.tensor([ids]))
            logits_seq.append(logits[0, -1])
            weights_seq.append([wl[0, :, -1] for wl in w])
            nxt = int(logits[0, -1].argmax())
            ids.append(nxt)
            if nxt == 2:
                break
    return ids, logits_seq, weights_seq


def compare(model, index) -> tuple[float, bool, int]:
    """Largest |logit difference| over every step of every prompt, whether the words agree, steps."""
    worst, same, steps = 0.0, True, 0
    for p in PROMPTS:
        ids = [1] + [index[w] for w in p]
        a, la, _ = generate(model, ids, cached=False)
        b, lb, _ = generate(model, ids, cached=True)
        same &= a == b
        for x, y in zip(la, lb):
            worst = max(worst, float((x - y).abs().max()))
            steps += 1
    return worst, same, steps


def work(n: int, s: dict) -> dict:
    n1, d, f = n + 1, s["d"], s["ffn"]
    recompute = s["layers"] * (n1 * (4 * d * d + 2 * d * f) + n1 * (n1 + 1) * d)
    cached = s["layers"] * (4 * d * d + 2 * d * f + 2 * n1 * d)
    return {"n": n, "recompute": recompute, "cached": cached, "ratio": recompute / cached}


LAST = {}


def compute() -> dict:
    with deterministic(SEED):
        model, words, index, n_sentences, loss = train()
        worst, same, steps = compare(model, index)
        LAST["max_logit_diff"] = worst
        prompt = [1] + [index[w] for w in EXAMPLE]
        ids, logits_seq, weights_seq = generate(model, prompt, cached=True)
        example_steps = []
        for t, (lg, ws) in enumerate(zip(logits_seq, weights_seq)):
            p = torch.softmax(lg, -1)
            top = torch.topk(p, 3)
            pos = len(prompt) - 1 + t
            example_steps.append({
                "step": t + 1, "position": pos, "input": words[ids[pos]], "next": words[ids[pos + 1]],
                "next_prob": float(p[ids[pos + 1]]),
                "top": [{"word": words[int(i)], "prob": float(v)} for v, i in zip(top.values, top.indices)],
                "cache_tokens": pos + 1, "cache_numbers": (pos + 1) * 2 * LAYERS * D,
                "attention": [[[round(float(x), 3) for x in w[h]] for h in range(HEADS)] for w in ws]})
        with torch.no_grad():
            _, _, full = model(torch.tensor([ids[:-1] if ids[-1] == 2 else ids]))
        matrix = [[[[round(float(x), 3) for x in row] for row in w[0, h]] for h in range(HEADS)] for w in full]
        gens = []
        for pr in PROMPTS:
            out, _, _ = generate(model, [1] + [index[w] for w in pr], cached=True)
            gens.append({"prompt": " ".join(pr), "text": " ".join(words[i] for i in out[1:] if i != 2)})
        params = sum(p.numel() for p in model.parameters())
    return {
        "mask": [{"n": n, "pairs": n * n, "allowed": n * (n + 1) // 2, "share": (n * (n + 1) // 2) / (n * n)}
                 for n in MASK_NS],
        "model": {"layers": LAYERS, "heads": HEADS, "head_size": D // HEADS, "d": D, "ffn": FFN,
                  "vocab": len(words), "params": params, "epochs": EPOCHS, "batch": BATCH, "lr": LR,
                  "seed": SEED, "n_sentences": n_sentences},
        "train_loss_last_epoch": loss,
        "cache_bound": CACHE_BOUND,
        "cache_equals_recompute": worst < CACHE_BOUND,
        "same_tokens": same,
        "prompts_compared": len(PROMPTS), "steps_compared": steps,
        "kv_numbers_per_token": 2 * LAYERS * D,
        "example": {"prompt": list(EXAMPLE), "generated": [words[i] for i in ids[len(prompt):] if i != 2],
                    "text": " ".join(words[i] for i in ids[1:] if i != 2), "steps": example_steps,
                    "tokens": [words[i] for i in ids if i != 2], "matrix": matrix},
        "generations": gens,
        "timed_setup": dict(TIMED),
        "work": [work(n, TIMED) for n in WORK_LENGTHS],
    }


REPEATS = 9
MIN_REPEAT = 0.02


def _time(f) -> tuple[float, float, float]:
    """(median wall-clock ms, median CPU ms, fastest repeat's wall-clock ms) per call: REPEATS repeats,
    each a mean over k calls (k chosen so a repeat lasts ≥ MIN_REPEAT). On a busy machine the wall clock
    grows, the CPU time and the fastest repeat less."""
    for _ in range(2):
        f()
    t0 = time.perf_counter()
    f()
    one = time.perf_counter() - t0
    k = max(1, int(MIN_REPEAT / max(one, 1e-6)))
    wall, cpu = [], []
    for _ in range(REPEATS):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(k):
            f()
        wall.append((time.perf_counter() - t0) / k * 1000)
        cpu.append((time.process_time() - c0) / k * 1000)
    return statistics.median(wall), statistics.median(cpu), min(wall)


def measure() -> dict:
    """Time for one new token after n tokens, recomputing and with the cache (one thread, no grad)."""
    if "max_logit_diff" not in LAST:
        compute()
    rows = []
    with deterministic(SEED), torch.no_grad():
        s = TIMED
        model = Decoder(s["vocab"], s["layers"], s["heads"], s["d"], s["ffn"], max_len=max(TIMED_LENGTHS) + 1).eval()
        g = torch.Generator().manual_seed(SEED)
        for n in TIMED_LENGTHS:
            ids = torch.randint(3, s["vocab"], (1, n + 1), generator=g)
            _, caches, _ = model(ids[:, :n], [[] for _ in model.blocks])
            full, full_cpu, full_min = _time(lambda: model(ids))
            step, step_cpu, step_min = _time(lambda: model(ids[:, n:], caches))
            rows.append({"n": n, "recompute_ms": full, "cached_ms": step, "ratio": full / step,
                         "recompute_cpu_ms": full_cpu, "cached_cpu_ms": step_cpu, "cpu_ratio": full_cpu / step_cpu,
                         "recompute_min_ms": full_min, "cached_min_ms": step_min, "min_ratio": full_min / step_min})
    import os
    return {"by_length": rows, "threads": 1, "dtype": "float64", "setup": dict(TIMED),
            "load_average_1min": os.getloadavg()[0],
            "max_logit_diff": LAST["max_logit_diff"], "cache_bound": CACHE_BOUND,
            "torch_version": torch.__version__}


if __name__ == "__main__":
    import json
    t0 = time.perf_counter()
    r = compute()
    print("compute", round(time.perf_counter() - t0, 2))
    ex = r.pop("example")
    print(json.dumps({k: v for k, v in r.items()}, indent=1, ensure_ascii=False))
    print(ex["text"], [(s["input"], s["next"], round(s["next_prob"], 3)) for s in ex["steps"]])
    t0 = time.perf_counter()
    print(json.dumps(measure(), indent=1))
    print("measure", round(time.perf_counter() - t0, 2))
