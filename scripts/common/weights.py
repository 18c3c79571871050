"""A trained model's weights as a script a page can load, also from file:// (a script, never a fetch).

An experiment that trains a model may define `export()`, returning `script(name, {"seed", "config", "dtype",
"tensors", ...})`: the pictured model's set-up (whatever the page's forward pass needs to rebuild it,
vocabularies included) and its parameters by their torch names. The runner writes it as
generated/models/<experiment>.js; overrides/assets/js/tiny-models.js reads it.

Each tensor is rounded once from its float64 value to `dtype`, float32 or float16 (IEEE round-to-nearest-even).
The same bits on every CPU need the same float64 values, which "near" does not give (a weight 1e-10 away
may round to the neighbouring float32): the models are trained on one pinned kernel path whatever the CPU
(scripts/common/training.py PINNED), and `make reproduce` compares these files byte for byte.
float16 is for a model whose float32 numbers cannot fit the page's budget
(issue 26: 150 KB gzip a model; the translator's 74 849 float32 numbers take 265 KB gzip, their float16
ones 139 KB): its weights move by at most half a float16 step (about 0.05 %), and the page still computes
in float32. The numbers are stored as bytes, in base64, most significant byte of every number first, then
the next byte of every number, and so on: the bytes of the sign and exponent, alike from one number to the
next, then compress well (decimal text would take twice the bytes, and six digits would not be float32).
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np

from scripts.common import jsonio

GLOBAL = "courseModels"   # the script adds its model to globalThis.courseModels under the experiment's name


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
    # jsonio's rounding and key order, on one line: no one reads the weights by eye, and the page loads fewer bytes
    body = json.dumps(json.loads(jsonio.dumps(model)), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (f"// {name}: the trained model of the pictured seed, written by scripts/run.py from "
            f"scripts/experiments/{name}.py (export); do not edit.\n"
            f"(globalThis.{GLOBAL} = globalThis.{GLOBAL} || {{}})[{json.dumps(name)}] = {body};\n")


def read(path: Path) -> dict:
    """A model file back in Python: its JSON, with "tensors" {name: float32 array} (tests, tools)."""
    text = Path(path).read_text(encoding="utf-8")
    model = json.loads(text[text.index("] = ") + 4:].rstrip().rstrip(";"))
    w = model["weights"]
    raw = np.frombuffer(base64.b64decode(w["data"]), dtype=np.uint8)
    size = np.dtype(DTYPES[w["dtype"]]).itemsize
    by_byte = np.ascontiguousarray(raw.reshape(size, -1)[::-1].T)                # back to little-endian numbers
    flat = by_byte.view(DTYPES[w["dtype"]]).ravel().astype(np.float32)
    model["tensors"] = {name: flat[t["offset"]:t["offset"] + int(np.prod(t["shape"]))].reshape(t["shape"])
                        for name, t in w["tensors"].items()}
    return model
