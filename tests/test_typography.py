"""Typography a language's editor asks for, checked where it can be checked mechanically (issue 24).

Each language lists its rules in `tests/typography/<code>.yml` (a language without the file has none yet):

    nbsp_before: ['%', 'мс']    # after a number or a {{ reference }}: a no-break space, never a plain one or a line end
    nbsp_after: ['№', 'Рис.']   # a no-break space after the mark, never a plain one or a line end
    bound: ['та ін.']           # no plain space inside the abbreviation or before it (it stays with the name)
    relation_not: ['«\\w+ — \\w+»']   # regular expressions of relation dashes the language does not write
    tables_have_titles: true    # every table of a lesson page has its «: title» line above it

Searched: the language's pages (`docs/<code>/`), its string files (`scripts/i18n/<code>/`) and its theme strings
(`overrides/partials/languages/<code>.html`). Numbers the formatter writes are checked by calling it. Charts: every
axis that writes integers groups thousands (1 024), in every language.
"""
import json
import re

import pytest
import yaml

from conftest import ROOT
from scripts.charts._render import _dicts
from scripts.common import course, numfmt

LANGS = [lang.code for lang in course.languages()]
NBSP = "\u00a0"


def rules(lang) -> dict:
    path = ROOT / "tests" / "typography" / f"{lang}.yml"
    return (yaml.safe_load(path.read_text(encoding="utf-8")) or {}) if path.exists() else {}


def texts(lang) -> list[tuple]:
    """(path, text) of every page, string file and theme string file of the language."""
    files = [p for folder in (ROOT / "docs" / lang, ROOT / "scripts" / "i18n" / lang)
             for p in sorted(folder.rglob("*")) if p.suffix in (".md", ".yml")]
    theme = ROOT / "overrides" / "partials" / "languages" / f"{lang}.html"
    return [(p, p.read_text(encoding="utf-8")) for p in files + ([theme] if theme.exists() else [])]


def where(path, text: str, m: re.Match) -> str:
    line = text.count("\n", 0, m.start()) + 1
    return f"{path.relative_to(ROOT)}:{line}: «{m.group(0).strip()}»"


def violations(lang) -> list[str]:
    r, found = rules(lang), []
    checks = []
    for unit in r.get("nbsp_before", []):      # a plain space or a line break between a number and its unit
        checks.append(re.compile(r"(?:\d|\}\}|\}|#)[ \t]*\n?[ \t]+" + re.escape(unit) + r"(?!\w)|(?:\d|\}\})\n" + re.escape(unit) + r"(?!\w)"))
    for mark in r.get("nbsp_after", []):
        checks.append(re.compile(r"(?<!\w)" + re.escape(mark) + r"(?:[ \t]+(?=\S)|[ \t]*\n)"))
    for abbr in r.get("bound", []):
        first, rest = abbr.split(" ", 1)
        whole = r"(?<!\w)" + re.escape(first) + "[ \t\n\u00a0]+" + re.escape(rest)
        checks.append(re.compile(r"\S[ \t\n]+" + whole + "|(?<!\\w)" + re.escape(first) + r"[ \t\n]+" + re.escape(rest)))
    checks += [re.compile(p) for p in r.get("relation_not", [])]
    for path, text in texts(lang):
        for rx in checks:
            found += [where(path, text, m) for m in rx.finditer(text)]
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_no_plain_space_where_the_line_must_not_break(lang):
    found = violations(lang)
    assert not found, f"{lang}: {len(found)} places:\n" + "\n".join(found[:60])


@pytest.mark.parametrize("lang", LANGS)
def test_the_formatter_keeps_a_number_with_its_percent_sign(lang):
    """Numbers the pages get from references: the percent sign never sits after a plain space."""
    for value, spec in ((0.485, ".1%"), (0.00175, ".3%"), (12.5, ".0%")):
        text = numfmt.fmt(value, spec, lang)
        assert " %" not in text and "\n" not in text, f"{lang}: {text!r}"
        if rules(lang).get("nbsp_before") and "%" in rules(lang)["nbsp_before"]:
            assert text.endswith(NBSP + "%"), f"{lang}: {text!r} (a no-break space before %)"
    assert " " not in numfmt.fmt(1024, ",d", lang), "a thousands separator that lets a number break"


TITLE_LINE = re.compile(r"^[ \t]*: \S")
TABLE_START = re.compile(r"^[ \t]*(\|.*\|[ \t]*|\{\{ table: .*\}\})$")


@pytest.mark.parametrize("lang", LANGS)
def test_every_lesson_table_has_a_title(lang):
    if not rules(lang).get("tables_have_titles"):
        pytest.skip(f"tests/typography/{lang}.yml does not ask for table titles yet")
    bare = []
    for page in sorted((ROOT / "docs" / lang).rglob("*.md")):
        if page.name == "glossary.md" or page.parent == ROOT / "docs" / lang:
            continue
        lines = page.read_text(encoding="utf-8").split("\n")
        for n, line in enumerate(lines):
            previous = lines[n - 1] if n else ""
            if TABLE_START.match(line) and not TABLE_START.match(previous):   # the first line of a table
                above = [x for x in lines[:n] if x.strip()][-1:]
                if not (above and TITLE_LINE.match(above[0])):
                    bare.append(f"{page.relative_to(ROOT)}:{n + 1}: {line.strip()[:60]}")
    assert not bare, f"{lang}: tables without a «: title» line above them:\n" + "\n".join(bare)


def axes(spec):
    """Every axis of a Vega spec, however deep."""
    return [d for d in _dicts(spec) if "orient" in d and "scale" in d]


@pytest.mark.parametrize("lang", LANGS)
def test_chart_axes_group_thousands(lang):
    """An axis that writes whole numbers writes 1 024, not 1024 (d3's ",d"), whatever its values today."""
    bare = []
    for path in sorted((ROOT / "generated" / "charts" / lang).glob("*.vg.json")):
        for axis in axes(json.loads(path.read_text(encoding="utf-8"))):
            label = json.dumps(axis.get("encode", {}).get("labels", {}))
            if axis.get("format") == "d" or re.search(r"format\([^)]*, ?\\?'d\\?'\)", label):
                bare.append(f"{path.name}: axis {axis.get('scale')} ({axis.get('title')})")
    assert not bare, f"{lang}: integer axes without grouping:\n" + "\n".join(bare)
