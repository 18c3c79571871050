"""The page's own forward pass (overrides/assets/js/tiny-models.js, run under node) against the torch models
of the two trained experiments: logits and every attention weight within 1e-4 of torch in float64, and the
same greedy translations. Twice: with the trained weights the build ships (generated/models/<experiment>.js,
read back by scripts/common/weights.py and loaded into the experiments' own classes), and with seeded random
ones (every parameter, biases and LayerNorms included, then moved by seeded noise so none is 0 or 1),
encoded here in the same format. The ViT goes as float32, the translator as float16 (both of the file's
number formats); torch gets the same rounded weights: the only difference left is the JavaScript's
arithmetic."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch

from scripts.common import shapes, weights
from scripts.common.training import float64
from scripts.experiments import ca_trained as ca
from scripts.experiments import sa_trained as sa

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "overrides" / "assets" / "js" / "tiny-models.js"
TOLERANCE = 1e-4
N_RANDOM_DRAWINGS = 60
N_TRAINING_SENTENCES = 60    # besides every held-out sentence and the probes
PICTURED = {" ".join(r[1]) for r in ca.probes().values()} | set(ca.PICKED.values())
MODEL_SEED = 2026
DTYPES = weights.DTYPES
encode = weights.encode   # the format tiny-models.js reads (the shipped files are written with it)

# Reads the inputs (a JSON file named on the command line), runs them through tiny-models.js, prints JSON.
DRIVER = r"""
const fs = require("fs");
const [js, vitFile, caFile, inputs] = process.argv.slice(1);
const tm = require(js); require(vitFile); require(caFile);
const vit = globalThis.courseModels.sa_trained, tr = globalThis.courseModels.ca_trained;
const { images, sentences } = JSON.parse(fs.readFileSync(inputs, "utf8"));
const arr = x => Array.from(x);
const out = {
  vit: images.map(img => { const r = tm.vit(vit, img);
                           return { logits: arr(r.logits), attention: r.attention.map(h => h.map(arr)) }; }),
  greedy: sentences.map(s => { const r = tm.translate(tr, s.source);
    return { words: r.words, steps: r.steps.map(st => ({ word: st.word, logits: arr(st.logits),
                                                        self: st.self.map(arr), cross: arr(st.cross) })) }; }),
  forced: sentences.map(s => { const r = tm.translatorForward(tr, s.source, s.target);
    return { logits: r.logits.map(arr), self: r.self.map(h => h.map(arr)), cross: r.cross.map(arr) }; }),
};
process.stdout.write(JSON.stringify(out));
"""


def random_model(make, seed: int, dtype: str):
    """The experiment's own module in float64, seeded and randomly initialised, every parameter then moved by
    seeded noise and rounded to `dtype` (as the page gets it): (the torch model, its parameters by name)."""
    with float64():
        torch.manual_seed(seed)
        model = make()
        with torch.no_grad():
            for p in model.parameters():
                p.add_(0.2 * torch.randn_like(p))
                p.copy_(torch.from_numpy(p.detach().numpy().astype(DTYPES[dtype]).astype(np.float64)))
    return model.eval(), {name: p.detach().numpy().copy() for name, p in model.named_parameters()}


def model_script(name: str, model: dict) -> str:
    """A model as a page would load it: one statement adding it to globalThis.courseModels."""
    return f"(globalThis.courseModels = globalThis.courseModels || {{}})[{json.dumps(name)}] = {json.dumps(model)};\n"


def trained_model(name: str, make):
    """The shipped model file's weights (generated/models/), as the page gets them, in the experiment's own
    class in float64: (the torch model, the file's path)."""
    path = ROOT / "generated" / "models" / f"{name}.js"
    tensors = weights.read(path)["tensors"]
    with float64():
        model = make()
        with torch.no_grad():
            params = dict(model.named_parameters())
            assert set(params) == set(tensors), f"{path.name}: other parameters than {make}"
            for key, p in params.items():
                p.copy_(torch.from_numpy(tensors[key].astype(np.float64)))
    return model.eval(), path


@pytest.fixture(scope="module", params=["random", "trained"])
def models(request):
    """{name: (torch model, the model file tiny-models.js reads)} for both architectures: seeded random
    weights, then the trained ones the build ships."""
    _, _, sv, tv = ca.split()
    if request.param == "trained":
        return {"sa_trained": trained_model("sa_trained", sa.TinyViT),
                "ca_trained": trained_model("ca_trained", lambda: ca.Translator(len(sv.words), len(tv.words)))}
    vit, vit_params = random_model(sa.TinyViT, MODEL_SEED, "float32")
    tr, tr_params = random_model(lambda: ca.Translator(len(sv.words), len(tv.words)), MODEL_SEED, "float16")
    return {
        "sa_trained": (vit, {"config": {"size": sa.SIZE, "patch": sa.PATCH, "d": sa.D, "heads": sa.HEADS,
                                        "mlp": sa.MLP, "classes": list(sa.SHAPES),
                                        "ln_eps": torch.nn.LayerNorm(sa.D).eps},
                             "weights": encode(vit_params, "float32")}),
        "ca_trained": (tr, {"config": {"d": ca.D, "ffn": ca.FFN, "self_heads": ca.SELF_HEADS, "cross_heads": 1,
                                       "max_src": ca.MAX_SRC, "max_tgt": ca.MAX_TGT,
                                       "ln_eps": torch.nn.LayerNorm(ca.D).eps, "pad": sv.index["<pad>"],
                                       "bos": tv.index["<bos>"], "eos": tv.index["<eos>"]},
                            "source_words": sv.words, "target_words": tv.words,
                            "weights": encode(tr_params, "float16")}),
    }


def drawings() -> list[np.ndarray]:
    """The lesson's copy of each shape, then seeded random 28×28 drawings: shapes of every kind at a random
    size and place (some noisy), random strokes, and scattered cells."""
    rng = np.random.default_rng(2026)
    out = [shapes.make_shape(s, seed=shapes.SEEDS[s]) for s in shapes.KINDS]
    while len(out) < len(shapes.KINDS) + N_RANDOM_DRAWINGS:
        img = np.zeros((shapes.SIZE, shapes.SIZE))
        kind = len(out) % 3
        if kind == 0:                                   # a shape, as the experiment draws them
            size = int(rng.integers(8, shapes.SIZE + 1))
            r, c = rng.integers(0, shapes.SIZE - size + 1, 2)
            img[r:r + size, c:c + size] = shapes.draw(str(rng.choice(shapes.KINDS)), size)
            img = np.clip(img + rng.normal(0, float(rng.choice([0, 0.1])), img.shape), 0, 1)
        elif kind == 1:                                 # a few straight strokes of a 2-pixel brush
            for _ in range(int(rng.integers(1, 5))):
                (r0, c0), (r1, c1) = rng.integers(0, shapes.SIZE - 1, (2, 2))
                for t in np.linspace(0, 1, 40):
                    r, c = int(round(r0 + t * (r1 - r0))), int(round(c0 + t * (c1 - c0)))
                    img[r:r + 2, c:c + 2] = 1.0
        else:                                           # scattered cells, some grey
            img[rng.random(img.shape) < rng.uniform(0.05, 0.4)] = rng.choice([0.5, 1.0])
        out.append(img)
    return out


def sentences() -> list[dict]:
    """Every held-out sentence, the probes outside the grammar, and seeded training sentences."""
    rows, test, _, _ = ca.split()
    rng = np.random.default_rng(2026)
    train = [i for i in range(len(rows)) if i not in test]
    chosen = sorted(test) + sorted(rng.choice(train, N_TRAINING_SENTENCES, replace=False).tolist())
    picked = [rows[i] for i in chosen] + list(ca.probes().values())
    return [{"source": r[1], "target": r[2]} for r in picked]


def largest(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(np.abs(a - b).max())


@pytest.fixture(scope="module")
def inputs():
    return {"images": drawings(), "sentences": sentences()}


@pytest.fixture(scope="module")
def js(models, inputs, tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    files = {}
    for name, (_, model) in models.items():
        if isinstance(model, Path):                          # a shipped file, as the page loads it
            files[name] = model
        else:
            files[name] = folder / f"{name}.js"
            files[name].write_text(model_script(name, model), encoding="utf-8")
    path = folder / "inputs.json"
    path.write_text(json.dumps({"images": [img.ravel().tolist() for img in inputs["images"]],
                                "sentences": inputs["sentences"]}), encoding="utf-8")
    proc = subprocess.run(["node", "-e", DRIVER, str(JS), str(files["sa_trained"]),
                           str(files["ca_trained"]), str(path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def self_attention_weights(model):
    """Make the translator's decoder self-attention hand out its per-head weights (forward() asks for none),
    without touching its arithmetic: returns the dict the last forward's weights land in."""
    seen, forward = {}, model.self_attn.forward

    def with_weights(*args, **kwargs):
        out = forward(*args, **{**kwargs, "need_weights": True, "average_attn_weights": False})
        seen["weights"] = out[1]
        return out
    model.self_attn.forward = with_weights
    return seen


def test_vit_logits_and_every_attention_weight_match_torch(models, inputs, js, request):
    model = models["sa_trained"][0]
    images = inputs["images"]
    assert len(images) >= 50
    x = torch.tensor(np.stack([shapes.patches(shapes.standardize(img)) for img in images]))
    with torch.no_grad():
        logits, w = model(x, weights=True)
    worst_logit = largest([r["logits"] for r in js["vit"]], logits.numpy())
    # every query (class token, then the 49 patches) over the 49 patches, per head (the class token is no key)
    assert float(w[..., 0].abs().max()) == 0.0
    worst_weight = largest([r["attention"] for r in js["vit"]], w[..., 1:].numpy())
    print(f"\nViT, {request.node.callspec.params['models']} weights: {len(images)} drawings; largest difference "
          f"from torch: logits {worst_logit:.1e}, "
          f"attention {worst_weight:.1e}")
    assert worst_logit < TOLERANCE and worst_weight < TOLERANCE


def test_translator_greedy_decoding_logits_and_attention_match_torch(models, inputs, js, request):
    model = models["ca_trained"][0]
    _, _, sv, tv = ca.split()
    seen = self_attention_weights(model)
    worst = {"logits": 0.0, "self": 0.0, "cross": 0.0}
    sents = inputs["sentences"]

    def torch_run(targets):
        """One batched pass (padding is masked: a row reads only its own sentence's words and, causally, its
        own earlier words): logits, decoder self-attention per head, cross-attention."""
        src, pad, tin, _ = ca.batch([(None, s["source"], t, None) for s, t in zip(sents, targets)], sv, tv)
        with torch.no_grad():
            logits, cross = model(src, pad, tin)
        return logits.numpy(), seen["weights"].numpy(), cross.numpy()

    def compare(key, page, ours):
        worst[key] = max(worst[key], largest(page, ours))

    # greedy: the page's words, checked as translate() decides them (each the largest score after the
    # words before it, then <eos> unless the length ran out); step i is row i of one causal pass
    logits, self_w, cross = torch_run([g["words"] for g in js["greedy"]])
    n_steps = 0
    for k, (s, greedy) in enumerate(zip(sents, js["greedy"])):
        chosen = [tv.index[w] for w in greedy["words"]]
        ends = len(greedy["steps"]) == len(chosen) + 1
        assert list(logits[k, :len(greedy["steps"])].argmax(-1)) == chosen + ([tv.index["<eos>"]] if ends else []), \
            f"{' '.join(s['source'])}: torch would not write {greedy['words']}"
        assert ends or len(chosen) == ca.MAX_TGT - 1
        n_steps += len(greedy["steps"])
        n_src = len(s["source"])
        for i, step in enumerate(greedy["steps"]):
            compare("logits", step["logits"], logits[k, i])
            compare("cross", step["cross"], cross[k, i, :n_src])
            compare("self", step["self"], self_w[k, :, i, :i + 1])
    # teacher forcing (the gold English words given), as the lesson measures the alignment
    logits, self_w, cross = torch_run([s["target"] for s in sents])
    for k, (s, forced) in enumerate(zip(sents, js["forced"])):
        n_tgt, n_src = len(s["target"]) + 1, len(s["source"])
        compare("logits", forced["logits"], logits[k, :n_tgt])
        compare("cross", forced["cross"], cross[k, :n_tgt, :n_src])
        compare("self", forced["self"], self_w[k, :, :n_tgt, :n_tgt])
    # and the experiment's own translate(), one sentence at a time, on the sentences the lesson pictures
    for s, greedy in zip(sents, js["greedy"]):
        if " ".join(s["source"]) in PICTURED:
            assert ca.translate(model, s["source"], sv, tv) == greedy["words"]
    print(f"\ntranslator, {request.node.callspec.params['models']} weights: {len(inputs['sentences'])} sentences "
          f"({n_steps} greedy steps, and teacher forcing); "
          "largest difference from torch: " + ", ".join(f"{k} {v:.1e}" for k, v in worst.items()))
    assert len(inputs["sentences"]) >= 50
    assert max(worst.values()) < TOLERANCE, worst


# The grammar the translator's file carries for «Напиши речення» (ca_trained.py grammar()), read by the page's
# own code (overrides/assets/js/write-sentence.js grammarOf) under node: every corpus sentence gets its English
# and whether it was held out, as the experiment split it; the probes get theirs; a sentence the grammar has no
# shape for gets none.
GRAMMAR_DRIVER = r"""
const fs = require("fs");
const [ws, caFile, inputs] = process.argv.slice(1);
const { grammarOf, words } = require(ws); require(caFile);
const g = grammarOf(globalThis.courseModels.ca_trained);
const sentences = JSON.parse(fs.readFileSync(inputs, "utf8"));
process.stdout.write(JSON.stringify({ size: g.size, found: sentences.map(s => g.match(words(s))) }));
"""


def test_the_exported_grammar_gives_every_sentence_its_english_and_split(tmp_path):
    rows, test, _, _ = ca.split()
    probes = ca.probes()
    repeat = ["سگ سگ را دید"]                       # a shape of the grammar, a sentence corpus() leaves out
    outside = ["سگ دید", "نشست گربه روی فرش"]
    typed = [" ".join(r[1]) for r in rows] + [" ".join(p[1]) for p in probes.values()] + repeat + outside
    typed.append("گربه روي فرش نشست.")                # Arabic yeh and a full stop, as a keyboard may give them
    path = tmp_path / "sentences.json"
    path.write_text(json.dumps(typed, ensure_ascii=False), encoding="utf-8")
    proc = subprocess.run(["node", "-e", GRAMMAR_DRIVER, str(ROOT / "overrides" / "assets" / "js" / "write-sentence.js"),
                           str(ROOT / "generated" / "models" / "ca_trained.js"), str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert out["size"] == len(rows)
    found = out["found"]
    for i, (row, f) in enumerate(zip(rows, found)):
        assert f == {"kind": row[0], "target": row[2], "status": "held_out" if i in test else "trained"}, (row[1], f)
    for (kind, p), f in zip(probes.items(), found[len(rows):]):
        assert f == {"kind": kind, "target": p[2], "status": "probe"}, (kind, f)
    assert found[-4] == {"kind": "transitive", "target": ["the", "dog", "saw", "the", "dog"], "status": "repeat"}
    assert found[-3] is None and found[-2] is None
    seed = rows.index(next(r for r in rows if " ".join(r[1]) == ca.SEED_SENTENCE))
    assert found[-1] == found[seed] and found[-1]["status"] == "held_out"
    print(f"\ngrammar: {len(rows)} corpus sentences ({len(test)} held out), {len(probes)} probes, "
          f"{len(repeat)} repeat, {len(outside)} outside")
