"""Languages and lessons are data: no code outside the course model names a language code or a
lesson slug (scripts/common/course.py and scripts/i18n/<lang>/ are the registry).

Python: every string literal except docstrings (f-strings included); JavaScript: every string and
template literal. Comments and docstrings may speak of "the Persian pages"; code may not branch on one.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT
from scripts.common import course

FOLDERS = ("scripts", "course_build", "tools", "overrides/assets/js")
REGISTRY = (ROOT / "scripts/common/course.py", ROOT / "scripts/i18n")


def names_pattern() -> re.Pattern:
    words = sorted({*course.codes(), *course.lessons()}, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])")


def code_files():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".js", ".cjs") or "vendor" in path.parts or "__pycache__" in path.parts:
                continue
            if any(path == r or r in path.parents for r in REGISTRY):
                continue
            yield path


def python_strings(source: str):
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


JS_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`|//[^\n]*|/\*.*?\*/', re.S)


def js_strings(source: str):
    for m in JS_STRING.finditer(source):
        if not m.group().startswith("/"):  # comments are skipped
            yield source.count("\n", 0, m.start()) + 1, m.group()[1:-1]


def test_no_language_code_or_lesson_slug_outside_the_registry():
    pattern = names_pattern()
    found = []
    for path in code_files():
        source = path.read_text(encoding="utf-8")
        strings = python_strings(source) if path.suffix == ".py" else js_strings(source)
        found += [f"{path.relative_to(ROOT)}:{line}: {text!r}" for line, text in strings if pattern.search(text)]
    assert not found, ("name languages and lessons through scripts/common/course.py (languages(), lessons(), "
                       "page_path()), not in code:\n  " + "\n  ".join(found))


def test_the_check_sees_a_code_and_a_slug():
    """The check is not vacuous: a literal naming a language or a lesson is found, a docstring is not."""
    pattern = names_pattern()
    lang, lesson = course.codes()[-1], course.lessons()[0]
    sample = f'"""About {lesson}."""\nif lang == "{lang}":\n    url = "{lesson}/"\n'
    assert [line for line, text in python_strings(sample) if pattern.search(text)] == [2, 3]
    assert [line for line, text in js_strings(f'// {lang}\nvar x = "{lang}";') if pattern.search(text)] == [2]
