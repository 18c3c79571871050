"""Deterministic JSON files: sorted keys, UTF-8 unescaped, trailing newline, written only when changed."""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

SIGNIFICANT = 6  # floats keep 6 significant digits: enough for every figure, stable across reruns


def _round(x):
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return x
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError(f"non-finite float {x!r} cannot go into generated JSON")
        return float(f"{x:.{SIGNIFICANT}g}")
    if isinstance(x, dict):
        return {str(k): _round(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_round(v) for v in x]
    raise TypeError(f"{type(x).__name__} is not plain JSON data; convert it (e.g. .tolist(), float())")


def dumps(obj, *, round_floats: bool = True) -> str:
    if round_floats:
        obj = _round(obj)
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=1, allow_nan=False) + "\n"


def write_if_changed(path: Path, text: str) -> bool:
    """Write text to path only when the bytes differ; return True when the file changed."""
    data = text.encode("utf-8")
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def sha256(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def read(path: Path):
    return json.loads(Path(path).read_text(encoding="utf-8"))
