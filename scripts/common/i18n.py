"""Strings per language: every scripts/i18n/<lang>/*.yml merged into one dict.

One file per area (site.yml, self-attention.yml, cross-attention.yml …) so lessons can be edited
side by side; a key defined in two files is an error, not a silent override.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

SAFE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
I18N = Path(__file__).resolve().parent.parent / "i18n"

try:  # in the site build, mkdocs prints a PluginError as a plain message (no traceback)
    from mkdocs.exceptions import PluginError as _Base
except ImportError:  # pragma: no cover - mkdocs is a pinned dependency
    _Base = Exception


class StringsError(_Base):
    """A strings file that cannot be read, or a string that is missing; the message says where."""


class MissingString(StringsError, KeyError):
    """A key no scripts/i18n/<lang>/*.yml file defines (a KeyError too, so .get-style code still works)."""

    def __str__(self) -> str:
        return self.args[0]


class Strings(dict):
    """One language's strings; a missing key names the language, the full key and what to do."""

    def __init__(self, data=(), lang: str = "", path: str = ""):
        super().__init__(data)
        self.lang, self.path = lang, path

    def __missing__(self, key):
        raise MissingString(f"scripts/i18n/{self.lang}/*.yml has no {self.path}{key}: add it there "
                            "(and the same key in every other language's folder)")


def _wrap(node, lang: str, path: str = ""):
    if isinstance(node, dict):
        return Strings({k: _wrap(v, lang, f"{path}{k}.") for k, v in node.items()}, lang, path)
    if isinstance(node, list):
        return [_wrap(v, lang, f"{path}{i}.") for i, v in enumerate(node)]
    return node


def languages() -> list[str]:
    """The course's languages (scripts/common/course.py: mkdocs.yml's i18n plugin), in its order."""
    from scripts.common import course
    return course.codes()


def _merge(into: dict, new: dict, where: str, path: str = "") -> None:
    for key, value in new.items():
        if key in into and isinstance(into[key], dict) and isinstance(value, dict):
            _merge(into[key], value, where, f"{path}{key}.")
        elif key in into:
            raise StringsError(f"{where}: {path}{key} is already defined in another file of its folder; keep one")
        else:
            into[key] = value


def load(f: Path, text: str | None = None) -> dict:
    """One strings file (its text when already read); a YAML error names the file and the line."""
    rel = f.relative_to(I18N.parent.parent)
    try:
        # libyaml's parser under the same safe rules, when PyYAML has it: every build, data run and test process
        # reads the strings (all 22 files, the same dicts: 0.13 s in Python, 0.01 s in C)
        data = yaml.load(f.read_text(encoding="utf-8") if text is None else text, Loader=SAFE) or {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise StringsError(f"{rel}{line}: YAML error ({problem}): fix the file (quote a value that "
                           "holds ': ' or starts with a special character)") from None
    if not isinstance(data, dict):
        raise StringsError(f"{rel}: expected keys (a YAML mapping) at the top, got {type(data).__name__}")
    return data


def strings(lang: str) -> dict:
    files = sorted((I18N / lang).glob("*.yml"))
    if not files:
        raise StringsError(f"no strings for {lang!r}: add scripts/i18n/{lang}/*.yml")
    return _wrap(_merged(tuple((f, f.read_text(encoding="utf-8")) for f in files)), lang)


@lru_cache(maxsize=32)
def _merged(texts: tuple[tuple[Path, str], ...]) -> dict:
    """The files merged, parsed once per content (a build asks for a language's strings dozens of times);
    never handed out as is: _wrap copies every container."""
    out: dict = {}
    for f, text in texts:
        _merge(out, load(f, text), str(f.relative_to(I18N.parent.parent)))
    return out


class Reading(Strings):
    """One dict of strings that remembers which of its keys code read (`read`): scripts/run.py hands a chart's
    strings to its builder so, and refuses a key the builder never read (strings_problems)."""

    def __init__(self, strings: Strings):
        super().__init__(strings, strings.lang, strings.path)
        self.read: set = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key):  # `if "subtitle" in t`: an optional key, read when present
        self.read.add(key)
        return super().__contains__(key)

    def __iter__(self):  # a builder that walks its strings reads them all
        self.read.update(super().keys())
        return super().__iter__()

    def items(self):
        self.read.update(super().keys())
        return super().items()

    def values(self):
        self.read.update(super().keys())
        return super().values()


def tree(lang: str) -> dict:
    """A language's strings as plain data, without its `language:` block (metadata with optional keys,
    checked by scripts/common/course.py)."""
    import copy
    files = sorted((I18N / lang).glob("*.yml"))
    merged = _merged(tuple((f, f.read_text(encoding="utf-8")) for f in files))
    return copy.deepcopy({k: v for k, v in merged.items() if k != "language"})


def key_file(lang: str, path: list) -> str:
    """The file of scripts/i18n/<lang>/ that defines a key path (['charts', 'sa_cost', 'title']), or the folder."""
    for f in sorted((I18N / lang).glob("*.yml")):
        node = load(f)
        for part in path:
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None:
            return str(f.relative_to(I18N.parent.parent))
    return f"scripts/i18n/{lang}/"


def shared_schema(nodes: list, unknown: str) -> dict:
    """A JSON Schema of what every one of `nodes` (one per language) holds: a mapping in all of them allows
    only the keys all of them have. `unknown` (an "x-unknown" note, ignored by the validator) says why
    another key is refused; strings_problems puts it in the message."""
    if not all(isinstance(n, dict) for n in nodes):
        return {}
    keys = [k for k in nodes[0] if all(k in n for n in nodes)]
    return {"type": "object", "properties": {k: shared_schema([n[k] for n in nodes], unknown) for k in keys},
            "additionalProperties": False, "x-unknown": unknown}


def strings_problems(lang: str, data: dict, schema: dict) -> list[str]:
    """Every way a language's strings break the schema, each naming the file, the key and what to do."""
    import jsonschema
    out = []
    for err in sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path)):
        path = list(err.absolute_path)
        if err.validator == "additionalProperties":
            for key in [k for k in err.instance if k not in err.schema.get("properties", {})]:
                out.append(f"{key_file(lang, path + [key])}: {'.'.join(map(str, path + [key]))}: "
                           + err.schema.get("x-unknown", "not expected: remove it").format(key=key))
        elif err.validator == "required":
            for key in [k for k in err.validator_value if k not in err.instance]:
                out.append(f"{key_file(lang, path)}: {'.'.join(map(str, path + [key]))} is missing: "
                           + err.schema.get("x-missing", "add it").format(key=key))
        else:
            out.append(f"{key_file(lang, path)}: {'.'.join(map(str, path)) or 'the top'}: {err.message}")
    return out
