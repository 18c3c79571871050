"""The page's own forward pass (overrides/assets/js/tiny-models.js, run under node) against the torch models
of the two trained experiments, on the exported weights (generated/models/): logits and every attention
weight within 1e-4 of torch in float64, the same greedy translations, and each model file within its size
budget. The torch models are the experiments' own classes (TinyViT, Translator) with the exported weights
loaded: the only difference left is the JavaScript's arithmetic."""
from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch

from scripts import run
from scripts.common import jsonio, shapes, weights
from scripts.common.training import float64
from scripts.experiments import ca_trained as ca
from scripts.experiments import sa_trained as sa

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "overrides" / "assets" / "js" / "tiny-models.js"
TOLERANCE = 1e-4
GZIP_BUDGET = 150 * 1024     # issue 26: each model file ≤ 150 KB gzip
N_RANDOM_DRAWINGS = 60
N_TRAINING_SENTENCES = 60    # besides every held-out sentence and the probes
PICTURED = {" ".join(r[1]) for r in ca.probes().values()} | set(ca.PICKED.values())

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


def model_path(name: str) -> Path:
    return run.GEN / "models" / f"{name}.js"


def torch_model(make, exported: dict):
    """The experiment's own module, in float64, with the exported weights (every parameter, nothing else)."""
    with float64():
        model = make()
    state = model.state_dict()
    params = dict(model.named_parameters())
    assert set(exported["tensors"]) == set(params), "the model file holds exactly the model's parameters"
    for name, value in exported["tensors"].items():
        assert tuple(value.shape) == tuple(params[name].shape), name
        state[name] = torch.tensor(np.asarray(value, dtype=np.float64))
    model.load_state_dict(state)
    return model.eval()


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
def exported():
    return {name: weights.read(model_path(name)) for name in ("sa_trained", "ca_trained")}


@pytest.fixture(scope="module")
def inputs():
    return {"images": drawings(), "sentences": sentences()}


@pytest.fixture(scope="module")
def js(exported, inputs, tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny") / "inputs.json"
    path.write_text(json.dumps({"images": [img.ravel().tolist() for img in inputs["images"]],
                                "sentences": inputs["sentences"]}), encoding="utf-8")
    proc = subprocess.run(["node", "-e", DRIVER, str(JS), str(model_path("sa_trained")),
                           str(model_path("ca_trained")), str(path)], capture_output=True, text=True, timeout=300)
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


def test_vit_logits_and_every_attention_weight_match_torch(exported, inputs, js):
    model = torch_model(sa.TinyViT, exported["sa_trained"])
    images = inputs["images"]
    assert len(images) >= 50
    x = torch.tensor(np.stack([shapes.patches(shapes.standardize(img)) for img in images]))
    with torch.no_grad():
        logits, w = model(x, weights=True)
    worst_logit = largest([r["logits"] for r in js["vit"]], logits.numpy())
    # every query (class token, then the 49 patches) over the 49 patches, per head (the class token is no key)
    assert float(w[..., 0].abs().max()) == 0.0
    worst_weight = largest([r["attention"] for r in js["vit"]], w[..., 1:].numpy())
    print(f"\nViT: {len(images)} drawings; largest difference from torch: logits {worst_logit:.1e}, "
          f"attention {worst_weight:.1e}")
    assert worst_logit < TOLERANCE and worst_weight < TOLERANCE


def test_translator_greedy_decoding_logits_and_attention_match_torch(exported, inputs, js):
    model = torch_model(lambda: ca.Translator(len(exported["ca_trained"]["source_words"]),
                                              len(exported["ca_trained"]["target_words"])), exported["ca_trained"])
    _, _, sv, tv = ca.split()
    assert sv.words == exported["ca_trained"]["source_words"] and tv.words == exported["ca_trained"]["target_words"]
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
    print(f"\ntranslator: {len(inputs['sentences'])} sentences ({n_steps} greedy steps, and teacher forcing); "
          "largest difference from torch: " + ", ".join(f"{k} {v:.1e}" for k, v in worst.items()))
    assert len(inputs["sentences"]) >= 50
    assert max(worst.values()) < TOLERANCE, worst


def test_the_exported_models_show_the_lessons_numbers(exported, js, inputs):
    """The page's run of the exported weights gives what the lesson states: each shape's class-token
    entropy per head (sa_trained examples) and each pictured sentence's translation and alignment matrix
    (ca_trained sentences, printed with 2 decimals: the float16 weights give every cell the same digits)."""
    sa_data = jsonio.read(run.GEN / "data" / "sa_trained.json")
    for s in sa.SHAPES:
        page = js["vit"][shapes.KINDS.index(s)]
        for h, head in sa_data["examples"][s]["trained"]["heads"].items():
            row = np.asarray(page["attention"][int(h) - 1][0], dtype=np.float64)
            entropy_pct = 100 * float(-(row * np.log(row)).sum()) / np.log(49)
            assert abs(entropy_pct - head["entropy_pct"]) < 1e-3, (s, h, entropy_pct, head["entropy_pct"])
    ca_data = jsonio.read(run.GEN / "data" / "ca_trained.json")
    by_source = {" ".join(s["source"]): k for k, s in enumerate(inputs["sentences"])}
    for sid, sentence in ca_data["sentences"].items():
        k = by_source[" ".join(sentence["source"])]
        assert js["greedy"][k]["words"] == sentence["output"], sid
        matrix = np.asarray(js["forced"][k]["cross"])[:len(sentence["target"])]   # the <eos> row is not shown
        assert ca._two_places(matrix) == sentence["matrix"], f"{sid}: not the lesson's matrix"


@pytest.mark.parametrize("name", ["sa_trained", "ca_trained"])
def test_each_model_file_is_within_its_size_budget(name):
    raw = model_path(name).read_bytes()
    packed = len(gzip.compress(raw, 9))
    print(f"\n{name}: {len(raw) / 1024:.1f} KB, {packed / 1024:.1f} KB gzip")
    assert packed <= GZIP_BUDGET, f"{name}: {packed / 1024:.1f} KB gzip, over {GZIP_BUDGET / 1024:.0f} KB"


def test_every_model_file_comes_from_an_experiment():
    """The runner writes generated/models/<experiment>.js for each experiment that defines export(), and the
    manifest records it (so `--check` and `make reproduce` see it)."""
    made = {p.stem for p in (run.GEN / "models").glob("*.js")}
    exporting = {n for n in run.names("experiments") if run.model_file(n)}
    assert made == exporting == {"sa_trained", "ca_trained"}
    manifest = jsonio.read(run.MANIFEST)
    for name in exporting:
        assert f"generated/models/{name}.js" in manifest["experiments"][name]["outputs"]


def test_reproduce_accepts_a_model_one_rounding_step_away_and_nothing_more():
    """tools/reproduce.py: the float64 training agrees between CPU kernel paths to about 1e-10, so a weight
    may round to the neighbouring float32 (float16) there; one step is the same model (or weights.AGREEMENT,
    near 0), two steps or any other change is not, and the manifest may differ only by such a file's digest."""
    from tools.reproduce import same_up_to_rounding
    for name in ("sa_trained", "ca_trained"):
        text = model_path(name).read_text(encoding="utf-8")
        model = weights.parse(text)
        dtype = weights.DTYPES[model["weights"]["dtype"]]

        def moved(steps: int, vocabulary: bool = False) -> bytes:
            tensors = {k: v.astype(dtype) for k, v in model["tensors"].items()}
            first = next(iter(tensors))
            flat = tensors[first].reshape(-1)
            at = int(np.abs(flat).argmax())          # far from 0: one step there is far more than AGREEMENT
            for _ in range(steps):
                flat[at] = np.nextafter(flat[at], np.inf, dtype=dtype)
            exported = {k: v for k, v in model.items() if k not in ("weights", "tensors")}
            if vocabulary:
                exported["config"] = {**exported["config"], "d": exported["config"]["d"] + 1}
            out = weights.script(name, {**exported, "dtype": model["weights"]["dtype"], "tensors": tensors})
            return out.encode("utf-8")
        rel = f"models/{name}.js"
        assert moved(0) == text.encode("utf-8"), "script(parse(file)) gives the file back"
        assert same_up_to_rounding(rel, text.encode(), moved(1))
        assert not same_up_to_rounding(rel, text.encode(), moved(2))
        assert not same_up_to_rounding(rel, text.encode(), moved(0, vocabulary=True))
    manifest = run.MANIFEST.read_bytes()
    other = json.loads(manifest)
    other["experiments"]["sa_trained"]["outputs"]["generated/models/sa_trained.js"] = "0" * 64
    assert same_up_to_rounding("manifest.json", manifest, json.dumps(other).encode())
    other["experiments"]["sa_trained"]["outputs"]["generated/data/sa_trained.json"] = "0" * 64
    assert not same_up_to_rounding("manifest.json", manifest, json.dumps(other).encode())
    assert not same_up_to_rounding("data/sa_trained.json", b"1", b"2")
