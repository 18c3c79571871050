"""The README's reference examples ("References in pages") are real: each one builds, so a reader
who copies one into a page gets a number, table, chart or link, not a failed build."""
from __future__ import annotations

import re

import pytest

from conftest import ROOT
from scripts.common import course
from test_build import build, copy_docs

SECTION = re.compile(r"^### References in pages.*?(?=^### )", re.S | re.M)
EXAMPLE = re.compile(r"`(\{\{ (?:chart|v|table|download)\s*:.*?\}\}|\{\{ provenance \}\})`")
TIMINGS_PATH = re.compile(r"`(timings:[a-z_]+/[^`\s]+)`")
BLOCK = ("chart", "table", "provenance")   # forms that stand on their own line


def examples() -> list[str]:
    section = SECTION.search((ROOT / "README.md").read_text(encoding="utf-8")).group()
    found = [m.replace(r"\|", "|") for m in EXAMPLE.findall(section)]
    # `{{ v: x }}` is the README's example of a reference shown literally in code, not a real one
    found = [e for e in found if not re.match(r"\{\{ (?:v|table): [^/]*\}\}$", e)]
    found += [f"{{{{ v: {path} }}}}" for path in TIMINGS_PATH.findall(section)]
    return list(dict.fromkeys(found))


def test_the_readme_has_examples_of_every_form():
    kinds = {re.match(r"\{\{ (\w+)", e).group(1) for e in examples()}
    assert kinds >= {"chart", "v", "table", "download", "provenance"}, kinds
    assert any(e.startswith("{{ v: timings:") for e in examples())


@pytest.mark.slow  # a build in a subprocess, or a training: make test only
def test_the_readme_examples_build(tmp_path):
    refs = [e for e in examples() if e != "{{ provenance }}"]
    extra = "\n\n".join(refs) + "\n\n{{ provenance }}"   # provenance is a page's last part
    page = f"{course.default_language().code}/{course.page_file(course.lessons()[0])}"   # a chapter's overview
    docs, _ = copy_docs(tmp_path, "", page)
    target = docs / page
    text = target.read_text(encoding="utf-8").replace("{{ provenance }}", "")
    target.write_text(text.rstrip() + "\n\n" + extra + "\n", encoding="utf-8")
    proc = build(docs, tmp_path / "site")
    assert proc.returncode == 0, "a README example does not build:\n" + proc.stderr[-3000:]
