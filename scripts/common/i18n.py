"""Strings per language: every scripts/i18n/<lang>/*.yml merged into one dict.

One file per area (site.yml, self-attention.yml, cross-attention.yml …) so lessons can be edited
side by side; a key defined in two files is an error, not a silent override.
"""
from __future__ import annotations

from pathlib import Path

import yaml

I18N = Path(__file__).resolve().parent.parent / "i18n"


def languages() -> list[str]:
    return sorted(p.name for p in I18N.iterdir() if p.is_dir())


def _merge(into: dict, new: dict, where: str, path: str = "") -> None:
    for key, value in new.items():
        if key in into and isinstance(into[key], dict) and isinstance(value, dict):
            _merge(into[key], value, where, f"{path}{key}.")
        elif key in into:
            raise ValueError(f"{where}: {path}{key} is already defined in another file of its folder")
        else:
            into[key] = value


def strings(lang: str) -> dict:
    out: dict = {}
    files = sorted((I18N / lang).glob("*.yml"))
    if not files:
        raise FileNotFoundError(f"no strings for {lang!r}: add scripts/i18n/{lang}/*.yml")
    for f in files:
        _merge(out, yaml.safe_load(f.read_text(encoding="utf-8")) or {}, str(f.relative_to(I18N.parent.parent)))
    return out


def source_text(lang: str) -> str:
    """All of a language's string files, for content hashes."""
    return "\0".join(f.read_text(encoding="utf-8") for f in sorted((I18N / lang).glob("*.yml")))
