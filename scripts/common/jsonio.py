"""Deterministic JSON files: sorted keys, UTF-8 unescaped, trailing newline, written only when changed,
and always whole (temporary file + rename: a kill leaves the old file or the new one, never half)."""
from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path

SIGNIFICANT = 6  # floats keep 6 significant digits: enough for every figure, stable across reruns


class DataError(ValueError):
    """Data that cannot go into generated/ (a NaN, an object that is not JSON); names the key path."""


def _round(x, path: str = ""):
    if isinstance(x, bool) or x is None or isinstance(x, (int, str)):
        return x
    if isinstance(x, float):
        if not math.isfinite(x):
            raise DataError(f"non-finite number {x!r} at key path {path or '(top)'!r}")
        return float(f"{x:.{SIGNIFICANT}g}")
    if isinstance(x, dict):
        return {str(k): _round(v, f"{path}.{k}" if path else str(k)) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_round(v, f"{path}.{i}" if path else str(i)) for i, v in enumerate(x)]
    raise DataError(f"{type(x).__name__} at key path {path or '(top)'!r} is not plain JSON data; "
                    "convert it (e.g. .tolist(), float())")


def dumps(obj, *, round_floats: bool = True) -> str:
    if round_floats:
        obj = _round(obj)
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=1, allow_nan=False) + "\n"


def write_atomic(path: Path, data: bytes) -> None:
    """Write beside the target, then rename over it (atomic on one file system)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_if_changed(path: Path, text: str | bytes) -> bool:
    """Write to path only when the bytes differ; return True when the file changed."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    path = Path(path)
    if path.exists() and path.read_bytes() == data:
        return False
    write_atomic(path, data)
    return True


def sha256(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def read(path: Path):
    return json.loads(Path(path).read_text(encoding="utf-8"))
