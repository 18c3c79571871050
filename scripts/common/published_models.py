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

# The documents the presets and the chapter cite: key, then (authors, year, title, venue, arXiv id, link).
REFERENCE_FIELDS = ("authors", "year", "title", "venue", "arxiv", "url")
REFERENCES = {k: dict(zip(REFERENCE_FIELDS, row)) for k, row in {
    "vaswani2017": ("Vaswani et al.", 2017, "Attention Is All You Need", "NeurIPS 2017", "1706.03762", "https://arxiv.org/abs/1706.03762"),
    "radford2019": ("Radford et al.", 2019, "Language Models are Unsupervised Multitask Learners", "OpenAI technical report", None, "https://openai.com/index/better-language-models/"),
    "gpt2_hparams": ("OpenAI", 2019, "gpt-2: models/124M/hparams.json (released code and model)", "GitHub repository openai/gpt-2", None, "https://github.com/openai/gpt-2"),
    "touvron2023": ("Touvron et al.", 2023, "Llama 2: Open Foundation and Fine-Tuned Chat Models", "arXiv preprint", "2307.09288", "https://arxiv.org/abs/2307.09288"),
    "llama2_7b_config": ("Meta", 2023, "meta-llama/Llama-2-7b-hf: config.json", "Hugging Face model repository", None, "https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json"),
    "llama2_70b_config": ("Meta", 2023, "meta-llama/Llama-2-70b-hf: config.json", "Hugging Face model repository", None, "https://huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json"),
    "jiang2023": ("Jiang et al.", 2023, "Mistral 7B", "arXiv preprint", "2310.06825", "https://arxiv.org/abs/2310.06825"),
    "zhang2022": ("Zhang et al.", 2022, "OPT: Open Pre-trained Transformer Language Models", "arXiv preprint", "2205.01068", "https://arxiv.org/abs/2205.01068"),
    "shazeer2019": ("Shazeer", 2019, "Fast Transformer Decoding: One Write-Head is All You Need", "arXiv preprint", "1911.02150", "https://arxiv.org/abs/1911.02150"),
    "ainslie2023": ("Ainslie et al.", 2023, "GQA: Training Generalized Multi-Query Transformer Models from Multi-Head Checkpoints", "EMNLP 2023", "2305.13245", "https://arxiv.org/abs/2305.13245"),
    "dao2022": ("Dao et al.", 2022, "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness", "NeurIPS 2022", "2205.14135", "https://arxiv.org/abs/2205.14135"),
    "milakov2018": ("Milakov and Gimelshein", 2018, "Online normalizer calculation for softmax", "arXiv preprint", "1805.02867", "https://arxiv.org/abs/1805.02867"),
    "kwon2023": ("Kwon et al.", 2023, "Efficient Memory Management for Large Language Model Serving with PagedAttention", "SOSP 2023", "2309.06180", "https://arxiv.org/abs/2309.06180"),
}.items()}

# One row a model, in the order of COLUMNS (the fields above), then its sources.
COLUMNS = ("id", "name", "layers", "heads", "kv_heads", "head_size", "d_model", "context", "params",
           "params_as_stated", "bytes_per_number", "window")
ROWS = [
    ("gpt2_small", "GPT-2 small", 12, 12, 12, 64, 768, 1024, 117e6, "117M", 4, None),
    ("llama2_7b", "Llama 2 7B", 32, 32, 32, 128, 4096, 4096, 7e9, "7B", 2, None),
    ("llama2_70b", "Llama 2 70B", 80, 64, 8, 128, 8192, 4096, 70e9, "70B", 2, None),
    ("mistral_7b", "Mistral 7B", 32, 32, 8, 128, 4096, 8192, 7e9, "7B", 2, 4096),
    ("opt_13b", "OPT-13B", 40, 40, 40, 128, 5120, 2048, 13e9, "13B", 2, None),
]
SOURCES = {
    "gpt2_small": [{"ref": "radford2019", "gives": "layers, d_model, context, params (Table 2, section 2.3)"},
                   {"ref": "gpt2_hparams", "gives": "heads (n_head = 12)"}],
    "llama2_7b": [{"ref": "touvron2023", "gives": "params, context, no GQA at 7B (Table 1)"},
                  {"ref": "llama2_7b_config", "gives": "layers, heads, kv_heads, d_model"}],
    "llama2_70b": [{"ref": "touvron2023", "gives": "params, context, GQA at 70B (Table 1)"},
                   {"ref": "llama2_70b_config", "gives": "layers, heads, kv_heads, d_model"}],
    "mistral_7b": [{"ref": "jiang2023", "gives": "every number (Table 1: n_layers, n_heads, n_kv_heads, head_dim, "
                                                 "dim, window_size, context_len)"}],
    "opt_13b": [{"ref": "zhang2022", "gives": "layers, heads, d_model, params (Table 1), context"},
                {"ref": "kwon2023", "gives": "its cache: 800 KB a token in FP16, up to 1.6 GB a request"}],
}
PRESETS = [{**dict(zip(COLUMNS, row)), "sources": SOURCES[row[0]]} for row in ROWS]

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
