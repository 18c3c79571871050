"""Where a reference's number lives in generated/: `sa_scaling/by_d[d=256].pmax_raw` → the file, the key path,
the row chosen by what it is (course_build/refs.py resolves references with these; tests ask them too).

A row of a list of records is chosen by its fields (`by_d[d=256]`, `params[d=64,heads=4]`), never by position:
a positional index into a list of records, an unknown file or key, or a malformed path stops the build, naming
the page (and line) and what to write instead.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from mkdocs.exceptions import PluginError

from course_build import provenance

ROOT = Path(__file__).resolve().parent.parent
GEN = ROOT / "generated"


def data_file(name: str) -> str:
    """A reference's file under generated/: 'sa_cost' -> 'data/sa_cost.json', 'timings:sa_cost' -> 'timings/sa_cost.json'."""
    return f"timings/{name.split(':', 1)[1]}.json" if name.startswith("timings:") else f"data/{name}.json"


def missing_data(name: str) -> str:
    """What to do when a reference's file does not exist: `make data` computes data, `make timings` measures."""
    if name.startswith("timings:"):
        return (f"no generated/{data_file(name)}: run `make timings` (it runs measure() of "
                f"scripts/experiments/{provenance.experiment_of(name)}.py on this machine)")
    return f"no generated/{data_file(name)} (write scripts/experiments/{name}.py and run `make data`)"


@lru_cache(maxsize=None)
def dataset(name: str):
    path = GEN / data_file(name)
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


PATH_PART = re.compile(r"(?P<key>[^.\[\]]+)(?P<sels>(?:\[[^\[\]]*\])*)(?:\.|$)")


def _scalar(text: str):
    """A selector's value: an int or float when it reads as one, else the text (quotes optional)."""
    text = text.strip()
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text.strip("'\"")


def _matches(row: dict, field: str, want) -> bool:
    have = row.get(field)
    if isinstance(have, bool) or isinstance(want, str) or not isinstance(have, (int, float)):
        return str(have) == str(want)
    return float(have) == float(want)


def records(node) -> bool:
    return isinstance(node, list) and bool(node) and all(isinstance(r, dict) for r in node)


def row_selector(rows: list, i: int, prefer=()) -> str:
    """`[field=value]` naming row i by a field whose value no other row has (for messages, data-source)."""
    fields = [*prefer, *rows[i]]
    for f in dict.fromkeys(fields):
        v = rows[i].get(f)
        if isinstance(v, (int, float, str)) and not isinstance(v, bool) and "]" not in str(v) and "," not in str(v) \
                and sum(_matches(r, f, v) for r in rows) == 1:
            return f"[{f}={v}]"
    for a in rows[i]:
        for b in rows[i]:
            va, vb = rows[i][a], rows[i][b]
            if a < b and all(isinstance(v, (int, float, str)) for v in (va, vb)) \
                    and sum(_matches(r, a, va) and _matches(r, b, vb) for r in rows) == 1:
                return f"[{a}={va},{b}={vb}]"
    return f"[{i}]"


def _select(rows, sel: str, ref: str, where: str):
    if not records(rows):
        raise PluginError(f"{where}: {ref!r}: [{sel}] selects a row, but this is not a list of records")
    conds = []
    for cond in filter(None, (c.strip() for c in sel.split(","))):
        field, eq, value = cond.partition("=")
        if not eq or not field.strip():
            raise PluginError(f"{where}: {ref!r}: write a row selector as [field=value] or [a=1,b=2], not [{sel}]")
        conds.append((field.strip(), _scalar(value)))
    if not conds:
        raise PluginError(f"{where}: {ref!r}: empty row selector []")
    hits = [r for r in rows if all(_matches(r, f, v) for f, v in conds)]
    if len(hits) != 1:
        raise PluginError(f"{where}: {ref!r}: [{sel}] matches {len(hits)} rows, not one "
                          f"(fields: {', '.join(rows[0])}; add a field to the selector)")
    return hits[0]


def lookup(ref: str, where: str):
    """'sa_scaling/by_d[d=256].pmax_raw' -> generated/data/sa_scaling.json ["by_d"][the row with d = 256]["pmax_raw"]."""
    name, _, path = ref.partition("/")
    node = dataset(name)
    if node is None:
        raise PluginError(f"{where}: unknown data {name!r} in {{{{ … {ref} }}}}: {missing_data(name)}")
    pos = 0
    while pos < len(path):
        m = PATH_PART.match(path, pos)
        if not m:
            raise PluginError(f"{where}: malformed key path {ref!r} at {path[pos:]!r}: "
                              "write key.key[field=value].key (see README, References in pages)")
        pos = m.end()
        part = m["key"]
        if records(node) and part.lstrip("-").isdigit():
            i = int(part)
            hint = f"{row_selector(node, i)}" if -len(node) <= i < len(node) else "[field=value]"
            fixed = name + "/" + path[:m.start()].rstrip(".") + hint + ("." + path[m.end():] if m.end() < len(path) else "")
            raise PluginError(f"{where}: positional index {part!r} into a list of records in {ref!r}: select the "
                              f"row by what it is, e.g. {fixed}")
        if isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise PluginError(f"{where}: unknown key {ref!r}: {part!r} is not in it (see generated/{data_file(name)})")
        for sel in re.findall(r"\[([^\[\]]*)\]", m["sels"]):
            node = _select(node, sel, ref, where)
    return node
