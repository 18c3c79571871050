"""Published model configurations and the papers they come from: set-up data, typed once, with sources.

No weights are downloaded: every number here is read from a paper's table or a released configuration
file, and each preset names where (`sources`: one record per document, `gives` says which numbers it
gives). The experiments that need them (sc_cache_size, sc_window) import this table, so a change
here recomputes them; their data carries the presets, so the chapter's charts read the same numbers.

Fields of a preset:
  id            a stable identifier (rows are selected by it)
  name          the model as its authors name it
  layers        transformer blocks (each keeps its own keys and values)
  heads         query heads per layer
  kv_heads      key/value heads per layer (= heads for multi-head attention; fewer with MQA/GQA)
  head_size     numbers per head vector (d_model / heads)
  d_model       width of the model
  context       the longest context it was trained for, in tokens
  params        parameter count as its paper states it (a rounded figure: "7B" is 7e9)
  params_as_stated  the paper's own words for it
  bytes_per_number  the number format of the released weights (4 = float32, 2 = float16/bfloat16)
  window        sliding-window size in tokens, or None (full causal attention)
  sources       [{ref, gives}]: ref is a key of REFERENCES
"""
from __future__ import annotations

REFERENCES = {
    "vaswani2017": {"authors": "Vaswani et al.", "year": 2017, "title": "Attention Is All You Need",
                    "venue": "NeurIPS 2017", "arxiv": "1706.03762", "url": "https://arxiv.org/abs/1706.03762"},
    "radford2019": {"authors": "Radford et al.", "year": 2019,
                    "title": "Language Models are Unsupervised Multitask Learners", "venue": "OpenAI technical report",
                    "arxiv": None,
                    "url": "https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf"},
    "gpt2_hparams": {"authors": "OpenAI", "year": 2019, "title": "gpt-2: models/124M/hparams.json (released code and model)",
                     "venue": "GitHub repository openai/gpt-2", "arxiv": None,
                     "url": "https://github.com/openai/gpt-2"},
    "touvron2023": {"authors": "Touvron et al.", "year": 2023,
                    "title": "Llama 2: Open Foundation and Fine-Tuned Chat Models", "venue": "arXiv preprint",
                    "arxiv": "2307.09288", "url": "https://arxiv.org/abs/2307.09288"},
    "llama2_7b_config": {"authors": "Meta", "year": 2023, "title": "meta-llama/Llama-2-7b-hf: config.json",
                         "venue": "Hugging Face model repository", "arxiv": None,
                         "url": "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json"},
    "llama2_70b_config": {"authors": "Meta", "year": 2023, "title": "meta-llama/Llama-2-70b-hf: config.json",
                          "venue": "Hugging Face model repository", "arxiv": None,
                          "url": "https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json"},
    "jiang2023": {"authors": "Jiang et al.", "year": 2023, "title": "Mistral 7B", "venue": "arXiv preprint",
                  "arxiv": "2310.06825", "url": "https://arxiv.org/abs/2310.06825"},
    "zhang2022": {"authors": "Zhang et al.", "year": 2022, "title": "OPT: Open Pre-trained Transformer Language Models",
                  "venue": "arXiv preprint", "arxiv": "2205.01068", "url": "https://arxiv.org/abs/2205.01068"},
    "shazeer2019": {"authors": "Shazeer", "year": 2019, "title": "Fast Transformer Decoding: One Write-Head is All You Need",
                    "venue": "arXiv preprint", "arxiv": "1911.02150", "url": "https://arxiv.org/abs/1911.02150"},
    "ainslie2023": {"authors": "Ainslie et al.", "year": 2023,
                    "title": "GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints",
                    "venue": "EMNLP 2023", "arxiv": "2305.13245", "url": "https://arxiv.org/abs/2305.13245"},
    "dao2022": {"authors": "Dao et al.", "year": 2022,
                "title": "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness",
                "venue": "NeurIPS 2022", "arxiv": "2205.14135", "url": "https://arxiv.org/abs/2205.14135"},
    "milakov2018": {"authors": "Milakov and Gimelshein", "year": 2018, "title": "Online normalizer calculation for softmax",
                    "venue": "arXiv preprint", "arxiv": "1805.02867", "url": "https://arxiv.org/abs/1805.02867"},
    "kwon2023": {"authors": "Kwon et al.", "year": 2023,
                 "title": "Efficient Memory Management for Large Language Model Serving with PagedAttention",
                 "venue": "SOSP 2023", "arxiv": "2309.06180", "url": "https://arxiv.org/abs/2309.06180"},
}

PRESETS = [
    {"id": "gpt2_small", "name": "GPT-2 small", "layers": 12, "heads": 12, "kv_heads": 12, "head_size": 64,
     "d_model": 768, "context": 1024, "params": 117e6, "params_as_stated": "117M",
     "bytes_per_number": 4, "window": None,
     "sources": [{"ref": "radford2019", "gives": "layers, d_model, context, params (Table 2, section 2.3)"},
                 {"ref": "gpt2_hparams", "gives": "heads (n_head = 12)"}]},
    {"id": "llama2_7b", "name": "Llama 2 7B", "layers": 32, "heads": 32, "kv_heads": 32, "head_size": 128,
     "d_model": 4096, "context": 4096, "params": 7e9, "params_as_stated": "7B",
     "bytes_per_number": 2, "window": None,
     "sources": [{"ref": "touvron2023", "gives": "params, context, no GQA at 7B (Table 1)"},
                 {"ref": "llama2_7b_config", "gives": "layers, heads, kv_heads, d_model"}]},
    {"id": "llama2_70b", "name": "Llama 2 70B", "layers": 80, "heads": 64, "kv_heads": 8, "head_size": 128,
     "d_model": 8192, "context": 4096, "params": 70e9, "params_as_stated": "70B",
     "bytes_per_number": 2, "window": None,
     "sources": [{"ref": "touvron2023", "gives": "params, context, GQA at 70B (Table 1)"},
                 {"ref": "llama2_70b_config", "gives": "layers, heads, kv_heads, d_model"}]},
    {"id": "mistral_7b", "name": "Mistral 7B", "layers": 32, "heads": 32, "kv_heads": 8, "head_size": 128,
     "d_model": 4096, "context": 8192, "params": 7e9, "params_as_stated": "7B",
     "bytes_per_number": 2, "window": 4096,
     "sources": [{"ref": "jiang2023", "gives": "every number (Table 1: n_layers, n_heads, n_kv_heads, head_dim, "
                                               "dim, window_size, context_len)"}]},
    {"id": "opt_13b", "name": "OPT-13B", "layers": 40, "heads": 40, "kv_heads": 40, "head_size": 128,
     "d_model": 5120, "context": 2048, "params": 13e9, "params_as_stated": "13B",
     "bytes_per_number": 2, "window": None,
     "sources": [{"ref": "zhang2022", "gives": "layers, heads, d_model, params (Table 1), context"},
                 {"ref": "kwon2023", "gives": "its cache: 800 KB a token in FP16, up to 1.6 GB a request"}]},
]

# Number formats a reader can pick, bytes per number.
FORMATS = [{"format": "float32", "bytes": 4}, {"format": "float16", "bytes": 2},
           {"format": "bfloat16", "bytes": 2}, {"format": "int8", "bytes": 1}]


def preset(pid: str) -> dict:
    return next(p for p in PRESETS if p["id"] == pid)


def citation(ref: str) -> str:
    """One line: authors year, «title», venue, arXiv id, link."""
    r = REFERENCES[ref]
    parts = [f"{r['authors']} {r['year']}", r["title"], r["venue"]]
    if r["arxiv"]:
        parts.append(f"arXiv:{r['arxiv']}")
    parts.append(r["url"])
    return ". ".join(parts)


def kv_bytes_per_token(layers: int, kv_heads: int, head_size: int, bytes_per_number: float) -> int | float:
    """2 (a key and a value) × layers × key/value heads × head size × bytes per number."""
    return 2 * layers * kv_heads * head_size * bytes_per_number
