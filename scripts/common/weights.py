"""A trained model's weights as a script a page can load, also from file:// (a script, never a fetch).

An experiment that trains a model may define `export()`, returning {"seed", "config", "dtype", "tensors", ...}:
the pictured model's set-up (whatever the page's forward pass needs to rebuild it, vocabularies included)
and its parameters by their torch names. The runner writes it as generated/models/<experiment>.js with
`script()`; overrides/assets/js/tiny-models.js reads it.

Each tensor is rounded once from its float64 value to `dtype`, float32 or float16 (IEEE round-to-nearest-even).
The float64 training agrees between CPU kernel paths only to about 10⁻¹⁰ (measured on the portable path:
the ViT's weights within 2.9·10⁻¹⁰, the translator's within 3.1·10⁻¹²), so a weight that close to a rounding
boundary can round to the neighbouring float32 on another CPU: tools/reproduce.py accepts a model file whose
numbers are each within one step of the committed ones, or within AGREEMENT for numbers so near 0 that a
step is smaller (`same_model`), the rest identical.
float16 is for a model whose float32 numbers cannot fit the page's budget (issue 26: 150 KB gzip a model;
the translator's 74 849 float32 numbers take 265 KB gzip, their float16 ones 139 KB): its weights move by
at most half a float16 step (about 0.05 %), and the page still computes in float32. The numbers are stored as bytes, in base64, most significant byte of every number first, then
the next byte of every number, and so on: the bytes of the sign and exponent, alike from one number to the
next, then compress well (decimal text would take twice the bytes, and six digits would not be float32).
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np

from scripts.common import jsonio

AGREEMENT = 1e-9         # how near the float64 training lands between kernel paths (2.9e-10 measured), with room
GLOBAL = "courseModels"   # the script adds its model to globalThis.courseModels under the experiment's name


def parameters(model) -> dict:
    """A torch module's parameters by name, as float64 arrays (picklable: they leave a worker process)."""
    return {name: p.detach().double().numpy().copy() for name, p in model.named_parameters()}


DTYPES = {"float32": "<f4", "float16": "<f2"}


def encode(tensors: dict, dtype: str) -> dict:
    """{"dtype", "data": base64 of the bytes of every tensor's numbers (tensors one after another), most
    significant byte of every number first (see above), "tensors": {name: {"shape", "offset"}}}, offsets
    counted in numbers."""
    chunks, index, offset = [], {}, 0
    for name, value in tensors.items():
        a = np.asarray(value, dtype=np.float64).astype(DTYPES[dtype])
        index[name] = {"shape": list(a.shape), "offset": offset}
        chunks.append(a.ravel())
        offset += a.size
    flat = np.ascontiguousarray(np.concatenate(chunks))
    by_byte = flat.view(np.uint8).reshape(flat.size, flat.itemsize)           # little-endian: last = most significant
    planes = b"".join(by_byte[:, k].tobytes() for k in reversed(range(flat.itemsize)))
    return {"dtype": dtype, "data": base64.b64encode(planes).decode("ascii"), "tensors": index}


def script(name: str, exported: dict) -> str:
    """The model file: one statement adding the model to the global (no module system needed on file://)."""
    model = {**{k: v for k, v in exported.items() if k not in ("tensors", "dtype")},
             "weights": encode(exported["tensors"], exported.get("dtype", "float32"))}
    body = jsonio.dumps(model).rstrip("\n")
    return (f"// {name}: the trained model of the pictured seed, written by scripts/run.py from "
            f"scripts/experiments/{name}.py (export); do not edit.\n"
            f"(globalThis.{GLOBAL} = globalThis.{GLOBAL} || {{}})[{json.dumps(name)}] = {body};\n")


def read(path: Path) -> dict:
    """A model file back in Python: its JSON, with "tensors" {name: float32 array} (tests, tools)."""
    return parse(Path(path).read_text(encoding="utf-8"))


def parse(text: str) -> dict:
    """read() from the file's text."""
    model = json.loads(text[text.index("] = ") + 4:].rstrip().rstrip(";"))
    w = model["weights"]
    raw = np.frombuffer(base64.b64decode(w["data"]), dtype=np.uint8)
    size = np.dtype(DTYPES[w["dtype"]]).itemsize
    by_byte = np.ascontiguousarray(raw.reshape(size, -1)[::-1].T)                # back to little-endian numbers
    flat = by_byte.view(DTYPES[w["dtype"]]).ravel().astype(np.float32)
    model["tensors"] = {name: flat[t["offset"]:t["offset"] + int(np.prod(t["shape"]))].reshape(t["shape"])
                        for name, t in sorted(w["tensors"].items(), key=lambda kv: kv[1]["offset"])}   # stored order
    return model


def same_model(a: str, b: str) -> tuple[bool, int]:
    """(whether two model files hold the same model, how many numbers differ): the same set-up, vocabularies,
    dtype and shapes, and every number equal, one step of the dtype away from the other, or within AGREEMENT
    of it (see above)."""
    ma, mb = parse(a), parse(b)
    ta, tb = ma.pop("tensors"), mb.pop("tensors")
    if ({**ma, "weights": {**ma["weights"], "data": None}} != {**mb, "weights": {**mb["weights"], "data": None}}):
        return False, -1
    dtype = DTYPES[ma["weights"]["dtype"]]
    moved = 0
    for name, x in ta.items():
        x, y = x.astype(dtype), tb[name].astype(dtype)
        step = np.spacing(np.maximum(np.abs(x), np.abs(y))).astype(np.float64)   # one step of the dtype there
        if not np.all(np.abs(x.astype(np.float64) - y.astype(np.float64)) <= np.maximum(step, AGREEMENT)):
            return False, -1
        moved += int((x != y).sum())
    return True, moved
