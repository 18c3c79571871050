"""A third language and a third lesson are data, not code: in a copy of the project, add a language
`xx` (the default language's pages and strings, its own numerals) and a lesson (one chart, one
value reference) by touching only the places the README's "add a language" / "add a lesson" rows
name; the chart build, the strict site build and the parity test then pass for them.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT
from scripts.common import course

pytestmark = pytest.mark.slow  # every test here builds in a subprocess: make test only

NEW, LESSON, SECTION = "xx", "third-lesson", "one-idea"
NUMERALS = "٠١٢٣٤٥٦٧٨٩"  # Arabic-Indic: none of the existing languages writes with them
COPIED = ("docs", "course_build", "scripts", "generated", "overrides", "tests", "tools")


def run(proj: Path, *cmd: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONDONTWRITEBYTECODE="1")
    for k in ("SITE_DIR", "OFFLINE", "REQUIRE_DOWNLOADS", "USE_DIRECTORY_URLS"):
        env.pop(k, None)
    return subprocess.run([sys.executable, *cmd], cwd=proj, env=env, capture_output=True, text=True)


def add_language(proj: Path, base: str) -> None:
    """mkdocs.yml's i18n entry, scripts/i18n/xx/ (language.yml with its numerals), docs/xx/,
    Material's strings for the code (overrides/partials/languages/xx.html), typed set-up counts."""
    cfg = proj / "mkdocs.yml"
    text = cfg.read_text(encoding="utf-8")
    entry = f"        - locale: {NEW}\n          name: Test language\n          build: true\n"
    text, n = re.subn(r"(      languages:\n(?:        .*\n|          .*\n)+)", lambda m: m.group(1) + entry, text, count=1)
    assert n == 1, "mkdocs.yml: the i18n plugin's languages list was not found"
    cfg.write_text(text, encoding="utf-8")
    shutil.copytree(proj / "scripts/i18n" / base, proj / "scripts/i18n" / NEW)
    meta = proj / "scripts/i18n" / NEW / "language.yml"
    meta.write_text(re.sub(r'numerals: "[^"]*"', f'numerals: "{NUMERALS}"', meta.read_text(encoding="utf-8")),
                    encoding="utf-8")
    shutil.copytree(proj / "docs" / base, proj / "docs" / NEW)
    partial = proj / "overrides/partials/languages" / f"{base}.html"
    if partial.exists():
        source = partial
    else:  # Material's own strings for the base language
        import material
        source = Path(material.__file__).parent / "templates/partials/languages" / f"{base}.html"
    # Material's strings in the new language's digits («1 збіг» → «١ збіг»), as its translator would write them
    digits = str.maketrans("0123456789", NUMERALS)
    strings_line = re.compile(r'^(\s*"[\w.]+": ")(.*)(",?)$', re.M)
    (proj / "overrides/partials/languages" / f"{NEW}.html").write_text(strings_line.sub(
        lambda m: m.group(1) + m.group(2).translate(digits) + m.group(3), source.read_text(encoding="utf-8")),
        encoding="utf-8")
    typed = proj / "tests/typed_numbers.yml"
    allowed = yaml.safe_load(typed.read_text(encoding="utf-8"))
    allowed["by_language"][NEW] = list(allowed["by_language"].get(base, []))
    typed.write_text(yaml.safe_dump(allowed, allow_unicode=True, sort_keys=False), encoding="utf-8")


def add_lesson(proj: Path) -> None:
    """A chapter of its own in the nav, after the last one: its overview (front matter `lesson: true`, a
    chart and a value) and one section page, in every language."""
    cfg = proj / "mkdocs.yml"
    text = cfg.read_text(encoding="utf-8")
    last = course.page_file(course.lesson_pages()[-1])
    line = next((l for l in text.splitlines(keepends=True) if l.strip() == f"- {last}"), None)
    assert line, f"mkdocs.yml: no nav line for {last}"
    entry = f"  - {LESSON}:\n      - {LESSON}/index.md\n      - {LESSON}/{SECTION}.md\n"
    cfg.write_text(text.replace(line, line + entry, 1), encoding="utf-8")
    for folder in sorted(p for p in (proj / "docs").iterdir() if p.is_dir()):
        (folder / LESSON).mkdir()
        (folder / LESSON / "index.md").write_text(
            "---\npromise: What a third lesson gives its reader.\nlesson: true\n---\n\n# Lesson three { #lesson-three }\n\n"
            "The toy vectors have {{ v: sa_toy/d | d }} components.\n\n"
            "{{ chart: sqrt_scaling }}\n\n{{ sections }}\n\n{{ provenance }}\n", encoding="utf-8")
        (folder / LESSON / f"{SECTION}.md").write_text(f"# One idea {{ #{SECTION} }}\n\nA short section.\n",
                                                      encoding="utf-8")


@pytest.fixture(scope="module")
def proj(tmp_path_factory) -> Path:
    proj = tmp_path_factory.mktemp("course") / "proj"
    proj.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", ".lock", ".pytest_cache")
    for d in COPIED:
        shutil.copytree(ROOT / d, proj / d, ignore=ignore, symlinks=True)
    for f in ("mkdocs.yml", "package.json"):
        shutil.copy(ROOT / f, proj / f)
    (proj / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    add_language(proj, course.default_language().code)
    add_lesson(proj)
    return proj


def test_the_copy_declares_the_new_language_and_lesson(proj):
    out = run(proj, "-c", "from scripts.common import course; print(course.codes()[-1], course.lessons()[-1])")
    assert out.stdout.split() == [NEW, LESSON], out.stderr[-2000:]


def test_charts_build_for_the_new_language(proj):
    out = run(proj, "-m", "scripts.run")
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    charts = proj / "generated/charts" / NEW
    assert {p.name for p in charts.glob("*.vg.json")} == {p.name for p in (ROOT / "generated/charts" /
                                                                           course.default_language().code).glob("*.vg.json")}
    svg = (charts / "sqrt_scaling.svg").read_text(encoding="utf-8")
    assert any(c in svg for c in NUMERALS), "the new language's charts should write its numerals"
    assert run(proj, "-m", "scripts.run", "--check").returncode == 0


def test_strict_build_and_parity_pass(proj):
    test_charts_build_for_the_new_language(proj)  # the pages read the new language's charts
    site = proj.parent / "site"
    out = run(proj, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site))
    assert out.returncode == 0, out.stderr[-3000:]
    page = (site / NEW / LESSON / "index.html").read_text(encoding="utf-8")
    assert 'class="chart' in page and "sqrt_scaling" in page
    assert f">{NUMERALS[2]}<" in page, "the value reference should be written in the new numerals"
    assert (site / LESSON / "index.html").exists()
    home = (site / NEW / "index.html").read_text(encoding="utf-8")  # the home page's cards follow the nav
    cards = re.findall(r'<article class="lesson-card" data-lesson="([\w-]+)"', home)
    assert cards == [*course.lessons(), LESSON], cards
    card = home[home.index(f'data-lesson="{LESSON}"'):]
    assert "What a third lesson gives its reader." in card.split("</article>")[0]
    assert re.search(f"[{NUMERALS}]", card.split("</article>")[0]), "the card's numbers in the new numerals"
    out = run(proj, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_parity.py", "tests/test_course.py",
              "tests/test_registry_only.py")
    assert out.returncode == 0, out.stdout[-3000:]
    assert re.search(r"\d+ passed", out.stdout)


BARE = "bare-lesson"


def test_a_lesson_with_no_chart_exercise_or_table_passes_the_everyday_tier(tmp_path):
    """Tests about lessons hold for any lesson: in a copy with one more chapter whose pages hold only
    text (no chart, value, exercise, table or provenance), the strict build and `make check`'s tier pass."""
    proj = tmp_path / "proj"
    ignore = shutil.ignore_patterns("__pycache__", ".lock", ".pytest_cache")
    for d in COPIED:
        shutil.copytree(ROOT / d, proj / d, ignore=ignore, symlinks=True)
    for f in ("mkdocs.yml", "package.json", "pyproject.toml", "README.md", "Makefile", "requirements.txt"):
        shutil.copy(ROOT / f, proj / f)
    shutil.copytree(ROOT / ".github", proj / ".github")
    (proj / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    cfg = proj / "mkdocs.yml"
    text = cfg.read_text(encoding="utf-8")
    last = course.page_file(course.lesson_pages()[-1])
    line = next(l for l in text.splitlines(keepends=True) if l.strip() == f"- {last}")
    cfg.write_text(text.replace(line, line + f"  - {BARE}:\n      - {BARE}/index.md\n      - {BARE}/{SECTION}.md\n", 1),
                   encoding="utf-8")
    for folder in sorted(p for p in (proj / "docs").iterdir() if p.is_dir()):
        (folder / BARE).mkdir()
        (folder / BARE / "index.md").write_text(
            "---\npromise: A chapter of words alone.\nlesson: true\n---\n\n# Words alone { #words-alone }\n\n"
            "Nothing here is computed.\n\n{{ sections }}\n", encoding="utf-8")
        (folder / BARE / f"{SECTION}.md").write_text(f"# One idea {{ #{SECTION} }}\n\nA short section.\n", encoding="utf-8")
    out = run(proj, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(tmp_path / "site"))
    assert out.returncode == 0, out.stderr[-3000:]
    out = run(proj, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not browser and not site and not slow",
              "tests")
    assert out.returncode == 0, out.stdout[-4000:]
    assert re.search(r"\d+ passed", out.stdout)
