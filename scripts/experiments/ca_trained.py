"""A small translator trained at build time: its learned cross-attention next to the gold word alignment.

Corpus: every sentence of a small Persian grammar with its English translation. Persian puts the
verb last and marks the object with «را»; English is subject–verb–object with articles, so the word
orders cross and the gold alignment (which Persian word each English content word translates) is
known for every sentence. Three sentence shapes:
  intransitive  S PREP PLACE V          → the S V PREP the PLACE          (گربه روی فرش نشست)
  transitive    S O را V                → the S V the O
  placing       S O را PREP PLACE V     → the S V the O PREP the PLACE
A seeded share of the sentences is held out (the seed sentence «گربه روی فرش نشست» among them).

Why this architecture: an encoder–decoder transformer whose encoder has no self-attention — each
source word becomes its embedding plus a position vector, then a position-wise feed-forward layer,
so each memory vector still stands for one Persian word. The decoder has one block: causal
self-attention over what it has written (that tells it which slot comes next), then one
cross-attention head over the memory, then a feed-forward layer. The only way source words reach
the output is that single cross-attention head, so where it looks is what the model reads: its
weights are the model's alignment, not a by-product. (With encoder self-attention, a verb's
meaning could be copied to other positions and the head could read it from anywhere.)

Measured on held-out sentences: exact-match translation (greedy decoding), and for each English
content word, whether the cross-attention row at the step that writes it (teacher forcing) puts its
largest weight on the gold Persian word. English articles have no Persian source word; they are
reported apart. Two probes outside the grammar say where the model fails: an object moved to the
front (Persian allows it) and a sentence longer than any in training.

Trained in float64 (the same bytes on every CPU: scripts/common/training.py), once per seed in SEEDS:
the corpus split is the same for every seed (drawn with SEED), the seed sets the initial weights and
the order of the batches. Every number below is the model of SEED (the one the pictures show);
`over_seeds` gives each one's spread.

Keys returned:
  seed, seeds, n_seeds                                       the pictured model's seed; all seeds trained
  over_seeds {<key>: {mean, sd, min, max} or {count, of}}    per_seed's numbers over the seeds (a yes/no:
                                                             how many seeds said yes)
  per_seed [{seed, translation_accuracy, alignment_accuracy, by_kind, articles, probes_correct,
             source_sentence {correct, content_on_gold, min_gold_weight}}]   each seed's numbers
  d, ffn, self_heads, epochs, batch, lr, params              the set-up
  n_sentences, n_train, n_test, held_out_share                corpus sizes
  translation_accuracy        held-out sentences translated exactly (greedy)
  alignment_accuracy          held-out content words whose strongest weight is on the gold word
  content_words               how many held-out content words that is
  by_kind {<sentence shape>: {n_test, translation_accuracy, alignment_accuracy}}
  articles {n, mean_max_weight, on_next_noun}   held-out «the» rows: largest weight, and the share
                              whose strongest weight is on the noun the article comes before
  sentences {<id>: {kind, source, target, output, correct, in_training, gold, matrix, argmax,
                    words, articles, min_gold_weight, content_on_gold, *_text}}
                              ids: source_sentence, transitive, placing (held out) and the probes scrambled,
                              longer. matrix rows = target words (teacher forcing), columns = source
                              words, 3 decimals; gold[i] = source index or null.
                              weights: the same rows unrounded (6 significant digits, as all data):
                              what the page's own translator («Напиши речення», tiny-models.js) is checked
                              against
                              words {<English content word>: {gold, gold_weight, top, top_weight, on_gold}}
                              articles {before_<next word>: {top, top_weight}}  the «the» rows
  probes_correct {scrambled, longer}   whether each probe was translated right
"""
from __future__ import annotations

import base64
import itertools

import numpy as np
import torch
from torch import nn

from scripts.common import weights
from scripts.common.training import Adam, Stopwatch, deterministic, map_seeds, over_seeds, parameters, seconds_per_seed

SEED = 17                      # the corpus split, and the model the pictures show
SEEDS = (17, 18, 19, 20, 21)   # every trained number is reported over these (mean, range)
D, FFN, SELF_HEADS = 64, 128, 2
EPOCHS, BATCH, LR = 30, 32, 2e-3
HELD_OUT = 0.3
MAX_SRC, MAX_TGT = 8, 12
LAST_TRAINING = {}   # the last training's Stopwatches, for measure() (never in the data), and the pictured
                     # model's parameters, for export()

# Persian word → English word (identifiers of the corpus; readers' glosses live in scripts/i18n/).
SUBJECTS = {"گربه": "cat", "سگ": "dog", "موش": "mouse", "پرنده": "bird", "پسر": "boy", "دختر": "girl"}
THINGS = {"سیب": "apple", "کتاب": "book", "توپ": "ball", "نان": "bread"}
PLACES = {"فرش": "mat", "میز": "table", "جعبه": "box", "درخت": "tree", "تخت": "bed"}
PREPS = {"روی": "on", "زیر": "under", "کنار": "beside", "پشت": "behind"}
V_INTR = {"نشست": "sat", "خوابید": "slept", "ایستاد": "stood", "دوید": "ran"}
V_TR = {"دید": "saw", "گرفت": "caught", "خورد": "ate", "آورد": "brought"}
V_PUT = {"گذاشت": "put", "انداخت": "dropped"}
RA = "را"
SEED_SENTENCE = "گربه روی فرش نشست"
PICKED = {"source_sentence": SEED_SENTENCE, "transitive": "سگ موش را دید", "placing": "دختر کتاب را زیر میز گذاشت"}


def sentence(kind, s, v, o=None, p=None, n=None):
    """(source words, target words, gold source index per target word or None)."""
    if kind == "intransitive":                       # S PREP N V → the S V PREP the N
        src = [s, p, n, v]
        tgt = [("the", None), (SUBJECTS[s], 0), (V_INTR[v], 3), (PREPS[p], 1), ("the", None), (PLACES[n], 2)]
    elif kind == "transitive":                       # S O را V → the S V the O
        src = [s, o, RA, v]
        tgt = [("the", None), (SUBJECTS[s], 0), (V_TR[v], 3), ("the", None), ({**SUBJECTS, **THINGS}[o], 1)]
    else:                                            # S O را PREP N V → the S V the O PREP the N
        src = [s, o, RA, p, n, v]
        tgt = [("the", None), (SUBJECTS[s], 0), (V_PUT[v], 5), ("the", None), (THINGS[o], 1),
               (PREPS[p], 3), ("the", None), (PLACES[n], 4)]
    return src, [w for w, _ in tgt], [g for _, g in tgt]


def corpus() -> list[tuple[str, list, list, list]]:
    out = []
    for s, p, n, v in itertools.product(SUBJECTS, PREPS, PLACES, V_INTR):
        out.append(("intransitive", *sentence("intransitive", s, v, p=p, n=n)))
    for s, o, v in itertools.product(SUBJECTS, {**SUBJECTS, **THINGS}, V_TR):
        if o != s:
            out.append(("transitive", *sentence("transitive", s, v, o=o)))
    for s, o, p, n, v in itertools.product(SUBJECTS, THINGS, PREPS, PLACES, V_PUT):
        out.append(("placing", *sentence("placing", s, v, o=o, p=p, n=n)))
    return out


def probes() -> dict:
    """Outside the grammar: the object moved to the front, and two places in one sentence."""
    return {"scrambled": ("scrambled", ["موش", RA, "سگ", "دید"], ["the", "dog", "saw", "the", "mouse"],
                          [None, 2, 3, None, 0]),
            "longer": ("longer", ["گربه", "روی", "فرش", "کنار", "میز", "خوابید"],
                       ["the", "cat", "slept", "on", "the", "mat", "beside", "the", "table"],
                       [None, 0, 5, 1, None, 2, 3, None, 4])}


class Translator(nn.Module):
    def __init__(self, n_src: int, n_tgt: int):
        super().__init__()
        self.src_emb, self.tgt_emb = nn.Embedding(n_src, D), nn.Embedding(n_tgt, D)
        self.src_pos, self.tgt_pos = nn.Embedding(MAX_SRC, D), nn.Embedding(MAX_TGT, D)
        self.enc_ffn = nn.Sequential(nn.LayerNorm(D), nn.Linear(D, FFN), nn.GELU(), nn.Linear(FFN, D))
        self.enc_ln = nn.LayerNorm(D)
        self.ln_self, self.ln_cross, self.ln_ffn, self.ln_out = (nn.LayerNorm(D) for _ in range(4))
        self.self_attn = nn.MultiheadAttention(D, SELF_HEADS, batch_first=True)
        self.cross = nn.MultiheadAttention(D, 1, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(D, FFN), nn.GELU(), nn.Linear(FFN, D))
        self.out = nn.Linear(D, n_tgt)

    def forward(self, src, src_pad, tgt_in):
        ps, pt = torch.arange(src.shape[1]), torch.arange(tgt_in.shape[1])
        m = self.src_emb(src) + self.src_pos(ps)
        m = self.enc_ln(m + self.enc_ffn(m))                       # one memory vector per source word
        x = self.tgt_emb(tgt_in) + self.tgt_pos(pt)
        causal = torch.triu(torch.ones(len(pt), len(pt), dtype=torch.bool), 1)
        h = self.ln_self(x)
        x = x + self.self_attn(h, h, h, attn_mask=causal, need_weights=False)[0]
        h = self.ln_cross(x)
        a, w = self.cross(h, m, m, key_padding_mask=src_pad, need_weights=True)
        x = x + a
        x = x + self.ffn(self.ln_ffn(x))
        return self.out(self.ln_out(x)), w


class Vocab:
    def __init__(self, words):
        self.words = ["<pad>", "<bos>", "<eos>"] + sorted(set(words))
        self.index = {w: i for i, w in enumerate(self.words)}

    def ids(self, words):
        return [self.index[w] for w in words]


def batch(rows, sv: Vocab, tv: Vocab):
    n_s = max(len(r[1]) for r in rows)
    n_t = max(len(r[2]) for r in rows) + 1
    src = torch.zeros(len(rows), n_s, dtype=torch.long)
    tin = torch.zeros(len(rows), n_t, dtype=torch.long)
    tout = torch.zeros(len(rows), n_t, dtype=torch.long)
    for i, (_, s, t, _) in enumerate(rows):
        src[i, :len(s)] = torch.tensor(sv.ids(s))
        tin[i, :len(t) + 1] = torch.tensor([1] + tv.ids(t))
        tout[i, :len(t) + 1] = torch.tensor(tv.ids(t) + [2])
    return src, src == 0, tin, tout


def translate(model, words, sv: Vocab, tv: Vocab) -> list[str]:
    src = torch.tensor([sv.ids(words)])
    out = [1]
    with torch.no_grad():
        for _ in range(MAX_TGT - 1):
            logits, _ = model(src, src == 0, torch.tensor([out]))
            nxt = int(logits[0, -1].argmax())
            if nxt == 2:
                break
            out.append(nxt)
    return [tv.words[i] for i in out[1:]]


def cross_weights(model, row, sv, tv) -> np.ndarray:
    """Cross-attention rows at the steps that write each target word (teacher forcing): len(tgt) × len(src)."""
    src, pad, tin, _ = batch([row], sv, tv)
    with torch.no_grad():
        _, w = model(src, pad, tin)
    return w[0, :len(row[2])].double().numpy()


def split():
    """(all sentences, held-out indices, source and target vocabularies): the same for every seed."""
    rows = corpus()
    sv = Vocab([w for r in rows for w in r[1]])
    tv = Vocab([w for r in rows for w in r[2]])
    rng = np.random.default_rng(SEED)
    seed_i = next(i for i, r in enumerate(rows) if " ".join(r[1]) == SEED_SENTENCE)
    test = set(rng.permutation([i for i in range(len(rows)) if i != seed_i])[:round(HELD_OUT * len(rows)) - 1])
    test.add(seed_i)
    return rows, test, sv, tv


def train(seed: int):
    """Train once with `seed` (initial weights, batch order); return (measurements, seconds, the trained
    parameters by name)."""
    rows, test, sv, tv = split()
    watch = Stopwatch()
    with deterministic(seed):
        train_rows = [r for i, r in enumerate(rows) if i not in test]
        test_rows = [r for i, r in enumerate(rows) if i in test]
        model = Translator(len(sv.words), len(tv.words))
        fit(model, train_rows, sv, tv, seed, EPOCHS, watch)
        result = evaluate(model, test_rows, sv, tv)
        result["sentences"] = examples(model, rows, test, sv, tv)
        result.update(n_sentences=len(rows), n_train=len(train_rows), n_test=len(test_rows),
                      params=sum(p.numel() for p in model.parameters()))
    return result, watch, parameters(model)


def fit(model, train_rows, sv, tv, seed: int, epochs: int, watch: Stopwatch) -> None:
    """The training loop (Adam at LR, cross-entropy over the target words, batches of BATCH in an order drawn
    from `seed`), timed by `watch`; sc_gqa trains its grouped translators with it too."""
    opt = Adam(model.parameters(), lr=LR)
    order = torch.Generator().manual_seed(seed)
    with watch.running():
        for _ in range(epochs):
            model.train()
            for idx in torch.randperm(len(train_rows), generator=order).split(BATCH):
                src, pad, tin, tout = batch([train_rows[i] for i in idx], sv, tv)
                logits, _ = model(src, pad, tin)
                loss = nn.functional.cross_entropy(logits.flatten(0, 1), tout.flatten(), ignore_index=0)
                opt.zero_grad()
                loss.backward()
                opt.step()
    model.eval()


def evaluate(model, test_rows, sv, tv) -> dict:
    kinds = {}
    articles = []
    for row in test_rows:
        kind, src, tgt, gold = row
        k = kinds.setdefault(kind, {"n": 0, "exact": 0, "words": 0, "hits": 0})
        k["n"] += 1
        k["exact"] += translate(model, src, sv, tv) == tgt
        w = cross_weights(model, row, sv, tv)
        for i, g in enumerate(gold):
            if g is not None:
                k["words"] += 1
                k["hits"] += int(w[i].argmax()) == g
            elif i + 1 < len(gold) and gold[i + 1] is not None:
                articles.append((float(w[i].max()), int(w[i].argmax()) == gold[i + 1]))
    total = {f: sum(k[f] for k in kinds.values()) for f in ("n", "exact", "words", "hits")}
    return {
        "translation_accuracy": total["exact"] / total["n"],
        "alignment_accuracy": total["hits"] / total["words"],
        "content_words": total["words"],
        "by_kind": {kind: {"n_test": k["n"], "translation_accuracy": k["exact"] / k["n"],
                           "alignment_accuracy": k["hits"] / k["words"]} for kind, k in sorted(kinds.items())},
        "articles": {"n": len(articles), "mean_max_weight": float(np.mean([a[0] for a in articles])),
                     "on_next_noun": float(np.mean([a[1] for a in articles]))},
    }


def _two_places(w) -> list:
    """The weights as the page prints them: each rounded once from its exact value, as the text's
    `.2f` references round `top_weight`, so the chart and the text never disagree in the last digit
    (rounding an already rounded 0.685 would give 0.69 where the text says 0.68)."""
    return [[float(f"{v:.2f}") for v in row] for row in w.tolist()]


def examples(model, rows, test, sv, tv) -> dict:
    by_text = {" ".join(r[1]): i for i, r in enumerate(rows)}
    chosen = {sid: rows[by_text[text]] for sid, text in PICKED.items()}
    chosen.update(probes())
    out = {}
    for sid, row in chosen.items():
        kind, src, tgt, gold = row
        w = cross_weights(model, row, sv, tv)
        output = translate(model, src, sv, tv)
        i = by_text.get(" ".join(src))
        words = {tgt[j]: {"gold": src[g], "gold_weight": float(w[j, g]), "top": src[int(w[j].argmax())],
                          "top_weight": float(w[j].max()), "on_gold": int(w[j].argmax()) == g}
                 for j, g in enumerate(gold) if g is not None}
        articles = {f"before_{tgt[j + 1]}": {"top": src[int(w[j].argmax())], "top_weight": float(w[j].max())}
                    for j, g in enumerate(gold) if g is None and j + 1 < len(tgt)}
        out[sid] = {"kind": kind, "source": src, "target": tgt, "output": output, "correct": output == tgt,
                    "source_text": " ".join(src), "target_text": " ".join(tgt), "output_text": " ".join(output),
                    "in_training": i is not None and i not in test, "gold": gold,
                    "matrix": _two_places(w), "weights": w.tolist(), "argmax": [int(a) for a in w.argmax(1)],
                    "words": words, "articles": articles,
                    "min_gold_weight": min(v["gold_weight"] for v in words.values()),
                    "content_on_gold": all(v["on_gold"] for v in words.values())}
    return out


def summary(result: dict) -> dict:
    """One run's numbers that the page states (and over_seeds spreads)."""
    s = result["sentences"]
    seed = s["source_sentence"]
    return {"translation_accuracy": result["translation_accuracy"],
            "alignment_accuracy": result["alignment_accuracy"],
            "by_kind": result["by_kind"], "articles": result["articles"],
            "probes_correct": {k: s[k]["correct"] for k in probes()},
            "source_sentence": {"correct": seed["correct"], "content_on_gold": seed["content_on_gold"],
                                "min_gold_weight": seed["min_gold_weight"]}}


def compute() -> dict:
    # pinned: trained on the portable kernel path whatever the CPU, so the exported weights are the same
    # bytes everywhere (scripts/common/training.py PINNED)
    runs = dict(zip(SEEDS, map_seeds(train, SEEDS, pinned=True)))
    LAST_TRAINING["watch"] = [w for _, w, _ in runs.values()]
    LAST_TRAINING["parameters"] = runs[SEED][2]
    result, _, _ = runs[SEED]
    per_seed = [{"seed": seed, **summary(runs[seed][0])} for seed in SEEDS]
    return {"seed": SEED, "seeds": list(SEEDS), "n_seeds": len(SEEDS),
            "d": D, "ffn": FFN, "self_heads": SELF_HEADS, "epochs": EPOCHS, "batch": BATCH,
            "lr": LR, "held_out_share": HELD_OUT, **result,
            "probes_correct": per_seed[SEEDS.index(SEED)]["probes_correct"],
            "per_seed": per_seed,
            "over_seeds": over_seeds([{k: v for k, v in r.items() if k != "seed"} for r in per_seed])}


def measure() -> dict:
    """Seconds spent in the training loop, per seed (mean over the seeds; the last compute() in this
    process, else a fresh run). Seeds train side by side (scripts/common/training.py map_seeds)."""
    if "watch" not in LAST_TRAINING:
        compute()
    return {**seconds_per_seed(LAST_TRAINING["watch"]), "epochs": EPOCHS,
            "n_seeds": len(SEEDS)}


# The grammar as the page's «Напиши речення» reads it (export): each word's class, and for each sentence shape
# the classes its slots take, in the order corpus() takes them (the object of «دید» may be an animal or a thing).
CLASSES = {"animal": SUBJECTS, "thing": THINGS, "place": PLACES, "prep": PREPS,
           "v_intr": V_INTR, "v_tr": V_TR, "v_put": V_PUT, "ra": {RA: None}}
SLOTS = {"intransitive": [["animal"], ["prep"], ["place"], ["v_intr"]],
         "transitive": [["animal"], ["animal", "thing"], ["ra"], ["v_tr"]],
         "placing": [["animal"], ["thing"], ["ra"], ["prep"], ["place"], ["v_put"]]}
# the probes' shapes (probes()): Persian sentences with a right English, built as no training sentence is
PROBE_SLOTS = {"scrambled": [["animal", "thing"], ["ra"], ["animal"], ["v_tr"]],
               "longer": [["animal"], ["prep"], ["place"], ["prep"], ["place"], ["v_intr"]]}


def grammar(rows, test) -> dict:
    """What the page needs to say whether its translation is right: each word class's words (in corpus()
    order) and each word's English; each shape's slots (the classes each takes), its English as a template
    (an English word as it is, or a number: the English of the source word in that slot, from sentence()'s
    gold alignment), and the pairs of slots that must differ (corpus() leaves out «سگ سگ را دید»); the probes'
    shapes too (`probe`: the corpus has no sentence built so, but the English is known); and which
    of the corpus's sentences were held out of training: one bit a sentence (base64, most significant bit
    first), in the order the slots' words give, shape after shape, the last slot changing fastest: corpus()'s
    order, checked here."""
    classes = {c: list(words) for c, words in CLASSES.items()}
    shapes, order = [], []
    for kind, slots in SLOTS.items():
        example = next(r for r in rows if r[0] == kind)
        src, tgt, gold = sentence(kind, **dict(zip(_ROLES[kind], [example[1][i] for i in _AT[kind]])))
        assert src == example[1] and tgt == example[2], kind
        distinct = [[0, 1]] if kind == "transitive" else []
        shapes.append({"kind": kind, "slots": slots, "distinct": distinct,
                       "target": [t if g is None else g for t, g in zip(tgt, gold)]})
        for words in itertools.product(*[[w for c in slot for w in classes[c]] for slot in slots]):
            if all(words[i] != words[j] for i, j in distinct):
                order.append(list(words))
    assert order == [r[1] for r in rows], "the exported grammar does not enumerate corpus() in its order"
    for kind, slots in PROBE_SLOTS.items():          # outside the corpus: no sentence of theirs was trained on
        _, src, tgt, gold = probes()[kind]
        assert all(any(w in CLASSES[c] for c in slot) for w, slot in zip(src, slots)), kind
        shapes.append({"kind": kind, "slots": slots, "distinct": [[0, 2]] if kind == "scrambled" else [],
                       "target": [t if g is None else g for t, g in zip(tgt, gold)], "probe": True})
    bits = np.zeros(-(-len(rows) // 8) * 8, dtype=np.uint8)
    bits[sorted(test)] = 1
    return {"classes": classes, "english": {w: e for d in CLASSES.values() for w, e in d.items() if e is not None},
            "shapes": shapes, "n_sentences": len(rows),
            "held_out": base64.b64encode(np.packbits(bits).tobytes()).decode("ascii")}


_ROLES = {"intransitive": ("s", "p", "n", "v"), "transitive": ("s", "o", "v"), "placing": ("s", "o", "p", "n", "v")}
_AT = {"intransitive": (0, 1, 2, 3), "transitive": (0, 1, 3), "placing": (0, 1, 3, 4, 5)}


def export() -> str:
    """The pictured model (SEED) for the page's own forward pass (overrides/assets/js/tiny-models.js): the
    set-up and vocabularies greedy decoding needs and the trained parameters (the last compute() in this
    process, else a fresh run), in float16 (scripts/common/weights.py)."""
    if "parameters" not in LAST_TRAINING:
        compute()
    rows, test, sv, tv = split()
    # float16: its float32 numbers would be about 265 KB gzip, over the page's 150 (scripts/common/weights.py)
    return weights.script("ca_trained", {
        "seed": SEED, "tensors": LAST_TRAINING["parameters"], "dtype": "float16",
        "config": {"d": D, "ffn": FFN, "self_heads": SELF_HEADS, "cross_heads": 1,
                   "max_src": MAX_SRC, "max_tgt": MAX_TGT, "ln_eps": nn.LayerNorm(D).eps,
                   "pad": sv.index["<pad>"], "bos": tv.index["<bos>"], "eos": tv.index["<eos>"]},
        "source_words": sv.words, "target_words": tv.words, "grammar": grammar(rows, test)})


if __name__ == "__main__":
    import json
    import time
    t0 = time.perf_counter()
    r = compute()
    print(json.dumps({k: v for k, v in r.items() if k != "sentences"}, indent=1, ensure_ascii=False))
    for sid, e in r["sentences"].items():
        print(sid, " ".join(e["source"]), "→", " ".join(e["output"]), e["correct"], e["content_on_gold"], e["argmax"])
    print("train", measure(), "total", time.perf_counter() - t0)
