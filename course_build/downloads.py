"""The files the site offers for download (offline archive, PDFs), checked before a page links them.

tools/offline_copy.py and tools/pdf.py list what they made in build/downloads/downloads.json (scripts/common/paths.py)
({key: {"file": name}}); the size and page count a reader sees are read here from the file itself,
never trusted from the list, and a missing or broken file stops the build.
"""
from __future__ import annotations

import json
import zipfile
from functools import lru_cache
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
from scripts.common.paths import DOWNLOADS, DOWNLOADS_INDEX as INDEX

REMAKE = "run `make site` (tools/offline_copy.py, then tools/pdf.py) to make it again"


def listed() -> dict:
    """downloads.json as written by the tools ({} when nothing was made yet)."""
    if not INDEX.exists():
        return {}
    try:
        data = json.loads(INDEX.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        raise PluginError(f"{INDEX.relative_to(ROOT)} is corrupt ({err}): delete it and {REMAKE}") from None
    if not isinstance(data, dict):
        raise PluginError(f"{INDEX.relative_to(ROOT)} must map keys to {{\"file\": …}}: delete it and {REMAKE}")
    return data


def pdf_pages(path: Path) -> int:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError
    try:
        n = len(PdfReader(str(path), strict=True).pages)
    except (PyPdfError, ValueError, OSError, KeyError) as err:
        raise ValueError(f"not a valid PDF ({type(err).__name__}: {err})") from None
    if n < 1:
        raise ValueError("a PDF with no pages")
    return n


def zip_ok(path: Path) -> None:
    try:
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()
            empty = not z.namelist()
    except (zipfile.BadZipFile, OSError) as err:
        raise ValueError(f"not a valid zip archive ({err})") from None
    if bad or empty:
        raise ValueError(f"a broken zip archive ({'bad entry ' + bad if bad else 'no files'})")


@lru_cache(maxsize=None)
def _measure(path: str, mtime_ns: int, size: int) -> dict:
    p = Path(path)
    if p.suffix == ".pdf":
        return {"bytes": size, "pages": pdf_pages(p)}
    if p.suffix == ".zip":
        zip_ok(p)
        return {"bytes": size}
    raise ValueError("neither .pdf nor .zip")


def item(key: str) -> dict | None:
    """{"file", "path", "bytes"[, "pages"]} read from the file itself, or None when not listed."""
    entry = listed().get(key)
    if entry is None:
        return None
    where = f"{INDEX.relative_to(ROOT)}: entry {key!r}"
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str) or "/" in entry["file"]:
        raise PluginError(f"{where} must be {{\"file\": \"<name in build/downloads/>\"}}; got {entry!r}: {REMAKE}")
    path = DOWNLOADS / entry["file"]
    if not path.is_file():
        raise PluginError(f"{where} lists {path.relative_to(ROOT)}, which does not exist: {REMAKE}")
    stat = path.stat()
    try:
        facts = _measure(str(path), stat.st_mtime_ns, stat.st_size)
    except ValueError as err:
        raise PluginError(f"{where}: {path.relative_to(ROOT)} is {err}: {REMAKE}") from None
    return {"file": entry["file"], "path": path, **facts}


def all_items() -> list[dict]:
    """Every listed download, each checked (the site copies them all)."""
    return [item(k) for k in sorted(listed())]
