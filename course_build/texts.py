"""A language's strings (scripts/i18n/<lang>/*.yml) as the stages read them: read once per build, not once per
use (they asked about 350 times a build, each a fresh copy of every file; course_build/plugin.py clears this
when a build starts). The stages only read what it gives."""
from __future__ import annotations

from functools import lru_cache

from scripts.common import i18n


@lru_cache(maxsize=None)
def strings(lang: str) -> dict:
    return i18n.strings(lang)
