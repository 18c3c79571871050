"""One term per concept: the variants a language's editor struck out appear nowhere a reader reads.

Each language lists its rules in `tests/terms/<code>.yml`:

    - use: розмірність            # the one term (shown in the failure message)
      not: ['\\bширин\\w*']       # regular expressions (case-insensitive) of the struck-out variants
      why: d is a dimension, not a width

Searched: the language's pages (`docs/<code>/`) and its string files (`scripts/i18n/<code>/`: charts, tables,
exercises, glossary notes). Code listings and front matter are text a reader reads too, so nothing is skipped.
"""
import re

import pytest
import yaml

from conftest import ROOT
from scripts.common import course

LANGS = [lang.code for lang in course.languages()]


def rules(lang):
    path = ROOT / "tests" / "terms" / f"{lang}.yml"
    if not path.exists():
        return []
    return yaml.safe_load(path.read_text(encoding="utf-8")) or []


def texts(lang) -> list[tuple]:
    """(path, lines) of every page and string file of the language, read once for all the rules."""
    return [(path, path.read_text(encoding="utf-8").splitlines())
            for folder in (ROOT / "docs" / lang, ROOT / "scripts" / "i18n" / lang)
            for path in sorted(folder.rglob("*")) if path.suffix in (".md", ".yml")]


@pytest.mark.parametrize("lang", LANGS)
def test_rules_are_well_formed(lang):
    for rule in rules(lang):
        assert set(rule) <= {"use", "not", "why"} and rule.get("use") and rule.get("not"), \
            f"tests/terms/{lang}.yml: each rule needs `use:` and `not:` (a list of patterns): {rule}"
        for pattern in rule["not"]:
            re.compile(pattern)


@pytest.mark.parametrize("lang", LANGS)
def test_one_term_per_concept(lang):
    found, files = [], texts(lang)
    for rule in rules(lang):
        for pattern in rule["not"]:
            rx = re.compile(pattern, re.I)
            for path, lines in files:
                for n, line in enumerate(lines, 1):
                    for m in rx.finditer(line):
                        found.append(f"{path.relative_to(ROOT)}:{n}: «{m.group(0)}» → use «{rule['use']}»"
                                     + (f" ({rule['why']})" if rule.get("why") else ""))
    assert not found, f"{lang}: {len(found)} struck-out variants:\n" + "\n".join(found[:60])
