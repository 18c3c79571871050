// The course's two trained models, run in the page: the vision transformer of the self-attention lesson
// (scripts/experiments/sa_trained.py, TinyViT) and the Persian→English translator of the cross-attention
// lesson (scripts/experiments/ca_trained.py, Translator). A model is {config, weights, ...} as the build
// exports it: generated/models/<experiment>.js (scripts/common/weights.py), a script adding it to
// globalThis.courseModels, so it loads from file:// too. The self-attention lesson's «Намалюй сам» runs the
// ViT (overrides/assets/js/draw-shape.js). This file only computes; it draws nothing.
//
// Every number is a float32, as the exported weights are: each result is stored in a Float32Array, and a
// sum runs in JavaScript's double and is rounded once when stored. tests/test_tiny_models.py runs this
// file under node on many inputs against the torch models (float64) and allows 1e-4.
(function (root) {
  "use strict";

  // ── The weights ────────────────────────────────────────────────────────────────────────────────────
  // The model file holds every tensor's numbers one after another, as bytes in base64: first the most
  // significant byte of every number, then the next byte of every number, … (the bytes of sign and
  // exponent, alike from one number to the next, then compress well); "tensors" gives each one's shape and where it starts. A number is a float32 (4 bytes) or a
  // float16 (2 bytes: sign, 5 exponent bits, 10 fraction bits), turned into a float32 here.
  function float16(bits) {
    const sign = bits >> 15 ? -1 : 1, exponent = (bits >> 10) & 31, fraction = bits & 1023;
    if (exponent === 0) return sign * fraction * 2 ** -24;               // subnormal: no leading 1
    if (exponent === 31) return fraction ? NaN : sign * Infinity;
    return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
  }

  function loadWeights(model) {
    if (model.tensors) return model.tensors;             // decoded once, kept on the model
    const w = model.weights, text = atob(w.data), size = w.dtype === "float16" ? 2 : 4, count = text.length / size;
    const number = new DataView(new ArrayBuffer(4)), flat = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      for (let b = 0; b < size; b++) number.setUint8(b, text.charCodeAt(b * count + i));   // big-endian order
      flat[i] = size === 4 ? number.getFloat32(0) : float16(number.getUint16(0));
    }
    const tensors = {};
    for (const name in w.tensors) {
      const t = w.tensors[name];
      tensors[name] = flat.subarray(t.offset, t.offset + t.shape.reduce((a, b) => a * b, 1));
    }
    return (model.tensors = tensors);
  }

  // ── The lesson's operations ────────────────────────────────────────────────────────────────────────
  // A matrix of n rows and d columns is a Float32Array of n·d numbers, row after row.

  // y = x Wᵀ + b: torch's nn.Linear, with W of shape (out, in) as torch stores it.
  function linear(x, n, W, b, dIn, dOut) {
    const y = new Float32Array(n * dOut);
    for (let i = 0; i < n; i++) {
      for (let o = 0; o < dOut; o++) {
        let s = b ? b[o] : 0;
        for (let k = 0; k < dIn; k++) s += x[i * dIn + k] * W[o * dIn + k];
        y[i * dOut + o] = s;
      }
    }
    return y;
  }

  // LayerNorm of each row: (x − mean) / √(variance + ε) · γ + β, the variance divided by d (not d − 1).
  function layerNorm(x, n, d, gamma, beta, eps) {
    const y = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      let mean = 0, variance = 0;
      for (let k = 0; k < d; k++) mean += x[i * d + k];
      mean /= d;
      for (let k = 0; k < d; k++) variance += (x[i * d + k] - mean) ** 2;
      const scale = 1 / Math.sqrt(variance / d + eps);
      for (let k = 0; k < d; k++) y[i * d + k] = (x[i * d + k] - mean) * scale * gamma[k] + beta[k];
    }
    return y;
  }

  // softmax of one row of scores; a key a query may not see has the score −∞ and gets weight 0.
  // The largest score is subtracted first: the same weights, and exp never overflows.
  function softmax(scores) {
    const max = Math.max(...scores), w = new Float32Array(scores.length);
    let sum = 0;
    for (let j = 0; j < scores.length; j++) sum += (w[j] = Math.exp(scores[j] - max));
    for (let j = 0; j < scores.length; j++) w[j] /= sum;
    return w;
  }

  // GELU(x) = x·Φ(x) = x/2 · (1 + erf(x/√2)), torch's exact nn.GELU. JavaScript has no erf: Abramowitz and
  // Stegun's formula 7.1.26 is within 1.5·10⁻⁷ of it, below a float32's own rounding near 1.
  function erf(x) {
    const t = 1 / (1 + 0.3275911 * Math.abs(x));
    const p = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    const y = 1 - p * Math.exp(-x * x);
    return x < 0 ? -y : y;
  }

  function gelu(x) {
    const y = new Float32Array(x.length);
    for (let i = 0; i < x.length; i++) y[i] = 0.5 * x[i] * (1 + erf(x[i] / Math.SQRT2));
    return y;
  }

  // Multi-head attention as torch's nn.MultiheadAttention computes it (the lesson's formula, per head):
  //   Q = X_q W_qᵀ + b_q,  K = X_kv W_kᵀ + b_k,  V = X_kv W_vᵀ + b_v   (W_q, W_k, W_v stacked in in_proj)
  //   head h takes columns h·d_h … (h+1)·d_h − 1 of each, d_h = d / heads
  //   weights = softmax(Q_h K_hᵀ / √d_h) row by row, output_h = weights · V_h
  //   the heads' outputs side by side, then one more linear layer (out_proj).
  // sees(i, j) says whether query i may look at key j (the mask).
  // Returns the output rows and weights[h][i]: query i's weights over the keys, per head.
  function attention(p, prefix, xq, nq, xkv, nkv, d, heads, sees) {
    const W = p[prefix + ".in_proj_weight"], b = p[prefix + ".in_proj_bias"], dh = d / heads;   // W: 3d × d
    const q = linear(xq, nq, W.subarray(0, d * d), b.subarray(0, d), d, d);
    const k = linear(xkv, nkv, W.subarray(d * d, 2 * d * d), b.subarray(d, 2 * d), d, d);
    const v = linear(xkv, nkv, W.subarray(2 * d * d), b.subarray(2 * d), d, d);
    const joined = new Float32Array(nq * d), weights = [];
    for (let h = 0; h < heads; h++) {
      weights.push([]);
      for (let i = 0; i < nq; i++) {
        const scores = new Float32Array(nkv);
        for (let j = 0; j < nkv; j++) {
          let s = 0;
          for (let c = h * dh; c < (h + 1) * dh; c++) s += q[i * d + c] * k[j * d + c];
          scores[j] = sees(i, j) ? s / Math.sqrt(dh) : -Infinity;
        }
        const w = softmax(scores);
        weights[h].push(w);
        for (let c = h * dh; c < (h + 1) * dh; c++) {
          let s = 0;
          for (let j = 0; j < nkv; j++) s += w[j] * v[j * d + c];
          joined[i * d + c] = s;
        }
      }
    }
    const out = linear(joined, nq, p[prefix + ".out_proj.weight"], p[prefix + ".out_proj.bias"], d, d);
    return { out, weights };
  }

  function add(a, b) {
    const y = new Float32Array(a.length);
    for (let i = 0; i < a.length; i++) y[i] = a[i] + b[i];
    return y;
  }

  // A two-layer feed-forward network on each row: Linear(d → hidden), GELU, Linear(hidden → d).
  function feedForward(p, first, second, x, n, d, hidden) {
    const h = gelu(linear(x, n, p[first + ".weight"], p[first + ".bias"], d, hidden));
    return linear(h, n, p[second + ".weight"], p[second + ".bias"], hidden, d);
  }

  function norm(p, name, x, n, d, eps) {
    return layerNorm(x, n, d, p[name + ".weight"], p[name + ".bias"], eps);
  }

  // ── The vision transformer (TinyViT) ───────────────────────────────────────────────────────────────
  // From a size×size drawing (numbers in [0, 1], row after row) to the model's input, as
  // scripts/common/shapes.py does it: standardise the whole image (mean 0, standard deviation 1, divided by
  // the pixel count), then cut it into patch×patch squares, row-major, each read row by row.
  function vitTokens(model, image) {
    const { size, patch } = model.config, grid = size / patch, n = size * size;
    let mean = 0, variance = 0;
    for (let i = 0; i < n; i++) mean += image[i];
    mean /= n;
    for (let i = 0; i < n; i++) variance += (image[i] - mean) ** 2;
    const sd = Math.sqrt(variance / n);
    const tokens = new Float32Array(n);
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const token = Math.floor(r / patch) * grid + Math.floor(c / patch), at = (r % patch) * patch + (c % patch);
        // an empty (uniform) drawing has no spread: every standardised pixel is 0 then (torch would divide by 0)
        tokens[token * patch * patch + at] = sd > 0 ? (image[r * size + c] - mean) / sd : 0;
      }
    }
    return tokens;
  }

  // The class token, then one token per patch: embed(patch) + its position. One pre-norm block: attention
  // over LayerNorm(t) added to t, then the MLP over LayerNorm(t) added to t; the class token's final
  // vector, normalised, gives one score (logit) per shape. No query looks at the class token: every
  // attention row is a distribution over the patches only.
  // Returns {logits, probabilities, attention}: attention[h][i] = query i's weights over the patches,
  // head h; query 0 is the class token, query 1 + p is patch p.
  function vit(model, image) {
    const p = loadWeights(model), { d, heads, mlp, size, patch, ln_eps: eps } = model.config;
    const nPatch = (size / patch) ** 2, n = nPatch + 1, inDim = patch * patch;
    const x = vitTokens(model, image);
    const embedded = linear(x, nPatch, p["embed.weight"], p["embed.bias"], inDim, d);
    const t = new Float32Array(n * d);
    t.set(p["cls"]);
    for (let i = 0; i < nPatch * d; i++) t[d + i] = embedded[i] + p["pos"][i];
    const h = norm(p, "ln1", t, n, d, eps);
    const a = attention(p, "attn", h, n, h, n, d, heads, (i, j) => j > 0);
    // The classifier reads the class token alone, so only its row goes on (the patch rows feed nothing).
    const cls = add(t.subarray(0, d), a.out.subarray(0, d));
    const after = add(cls, feedForward(p, "mlp.0", "mlp.2", norm(p, "ln2", cls, 1, d, eps), 1, d, mlp));
    const logits = linear(norm(p, "ln_out", after, 1, d, eps), 1, p["head.weight"], p["head.bias"], d,
                          model.config.classes.length);
    return { logits, probabilities: softmax(logits), attention: a.weights.map(rows => rows.map(w => w.subarray(1))) };
  }

  // ── The translator ─────────────────────────────────────────────────────────────────────────────────
  // Word ids of a Persian sentence; an unknown word is an error that names it (the page checks first).
  function sourceIds(model, words) {
    const index = new Map(model.source_words.map((w, i) => [w, i]));
    // <pad>, <bos> and <eos> come first in both vocabularies (ca_trained.py Vocab): not words a reader writes
    const special = [model.config.pad, model.config.bos, model.config.eos];
    const unknown = words.filter(w => !index.has(w) || special.includes(index.get(w)));
    if (unknown.length) throw new Error("unknown words: " + unknown.join(" "));
    if (words.length > model.config.max_src) throw new Error("longer than " + model.config.max_src + " words");
    return words.map(w => index.get(w));
  }

  // The encoder has no attention: each source word becomes its embedding plus its position's, then one
  // feed-forward layer (pre-norm inside, added back, then LayerNorm). One memory vector per Persian word.
  function encode(model, src) {
    const p = loadWeights(model), { d, ffn, ln_eps: eps } = model.config, n = src.length;
    const m = new Float32Array(n * d);
    src.forEach((id, i) => {
      for (let c = 0; c < d; c++) m[i * d + c] = p["src_emb.weight"][id * d + c] + p["src_pos.weight"][i * d + c];
    });
    const f = feedForward(p, "enc_ffn.1", "enc_ffn.3", norm(p, "enc_ffn.0", m, n, d, eps), n, d, ffn);
    return norm(p, "enc_ln", add(m, f), n, d, eps);
  }

  // One decoder block over the target words written so far (tgt: ids, <bos> first), reading the memory:
  // causal self-attention (word i sees words 0…i), then cross-attention (one head: each target word's query
  // over the Persian words), then a feed-forward layer; each pre-norm and added back. Returns {logits[i]:
  // the scores of the word after word i, self[h][i], cross[i]: word i's weights over the source words}.
  function decode(model, memory, nSrc, tgt) {
    const p = loadWeights(model), c = model.config, d = c.d, eps = c.ln_eps, n = tgt.length;
    let x = new Float32Array(n * d);
    tgt.forEach((id, i) => {
      for (let k = 0; k < d; k++) x[i * d + k] = p["tgt_emb.weight"][id * d + k] + p["tgt_pos.weight"][i * d + k];
    });
    const hs = norm(p, "ln_self", x, n, d, eps);
    const self = attention(p, "self_attn", hs, n, hs, n, d, c.self_heads, (i, j) => j <= i);
    x = add(x, self.out);
    const cross = attention(p, "cross", norm(p, "ln_cross", x, n, d, eps), n, memory, nSrc, d, c.cross_heads,
                            () => true);
    x = add(x, cross.out);
    x = add(x, feedForward(p, "ffn.0", "ffn.2", norm(p, "ln_ffn", x, n, d, eps), n, d, c.ffn));
    const nWords = model.target_words.length;
    const all = linear(norm(p, "ln_out", x, n, d, eps), n, p["out.weight"], p["out.bias"], d, nWords);
    const logits = [...Array(n).keys()].map(i => all.subarray(i * nWords, (i + 1) * nWords));
    return { logits, self: self.weights, cross: cross.weights[0] };
  }

  // Teacher forcing, as the lesson measures the alignment: the gold English words given, each step's
  // weights read at once. target: English words (without <bos>).
  function translatorForward(model, sourceWords, targetWords) {
    const src = sourceIds(model, sourceWords), index = new Map(model.target_words.map((w, i) => [w, i]));
    const unknown = targetWords.filter(w => !index.has(w));
    if (unknown.length) throw new Error("unknown English words: " + unknown.join(" "));
    const tgt = [model.config.bos, ...targetWords.map(w => index.get(w))];
    return decode(model, encode(model, src), src.length, tgt);
  }

  // Greedy decoding, as scripts/experiments/ca_trained.py translate(): start from <bos>, write the word with
  // the largest score, feed it back, stop at <eos> or after max_tgt − 1 words. The memory is computed once;
  // with a causal decoder the rows of words already written do not change, so each step is the last row.
  // Returns {words, steps: [{word (null for <eos>), logits, self[h] (the step's row), cross (its row)}]}.
  function translate(model, sourceWords) {
    const src = sourceIds(model, sourceWords), memory = encode(model, src), c = model.config;
    const out = [c.bos], steps = [];
    for (let step = 0; step < c.max_tgt - 1; step++) {
      const r = decode(model, memory, src.length, out), last = out.length - 1, logits = r.logits[last];
      let next = 0;
      for (let j = 1; j < logits.length; j++) if (logits[j] > logits[next]) next = j;   // first of equals, as torch
      steps.push({ word: next === c.eos ? null : model.target_words[next], logits,
                   self: r.self.map(rows => rows[last].subarray(0, last + 1)), cross: r.cross[last] });
      if (next === c.eos) break;
      out.push(next);
    }
    return { words: out.slice(1).map(id => model.target_words[id]), steps };
  }

  const api = { float16, loadWeights, linear, layerNorm, softmax, erf, gelu, attention, vitTokens, vit,
                sourceIds, encode, decode, translatorForward, translate };
  root.tinyModels = api;
  if (typeof module === "object" && module.exports) module.exports = api;
})(globalThis);
