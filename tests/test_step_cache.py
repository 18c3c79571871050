"""`make site` skips the offline copy and the PDFs only when nothing they are made from changed (content hash,
tools/step_cache.py): an unchanged run keeps the same bytes and leaves no output looking stale; a changed doc
page, hook or generated file rebuilds. Rebuilds run in a copy of the project in tmp_path (the worktree is
never changed); the unchanged runs use the worktree's own build, as `make site` left it."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import SITE_INPUTS, stale_outputs
from scripts.common import course

ROOT = Path(__file__).resolve().parent.parent
from tools import offline_copy
from tools import pdf
from tools import step_cache

pytestmark = pytest.mark.slow  # every test here builds in a subprocess: make test only

ENV = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", NO_MKDOCS_2_WARNING="1")
DEFAULT = course.default_language().code


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(tool: str, root: Path = ROOT, *args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", f"tools.{tool.removesuffix('.py')}", *args], cwd=root, env=ENV, capture_output=True, text=True)
    assert proc.returncode == 0, f"tools/{tool} failed:\n{proc.stdout}\n{proc.stderr[-2000:]}"
    return proc


def test_every_input_the_stale_guard_watches_is_hashed():
    """A skipped step touches its outputs, so the guard in conftest.py trusts them: that is sound only if
    every input the guard watches is part of the hash (a change to it then rebuilds instead)."""
    for name in SITE_INPUTS:
        assert any(name == i or name.startswith(i + "/") for i in step_cache.INPUTS), \
            f"{name} is watched by tests/conftest.py SITE_INPUTS but not hashed by tools/step_cache.py INPUTS: add it"


def test_unchanged_inputs_skip_both_steps_with_the_same_bytes(site_dir):
    outputs = [offline_copy.DOWNLOADS / offline_copy.ZIP_NAME, offline_copy.OUT / "index.html", *pdf.pdf_files()]
    if not (step_cache.fresh("offline", step_cache.inputs_key({"step": "offline"}), offline_copy.outputs(),
                             ignore=offline_copy.not_ours)
            and step_cache.fresh("pdf", pdf.inputs_key(), pdf.pdf_files())):
        pytest.fail("the offline copy or the PDFs are not recorded as made from the current inputs "
                    "(a different day prints a different cover date): run `make site`")
    before = {o: (sha(o), o.stat().st_mtime_ns) for o in outputs}
    assert "unchanged inputs" in run("offline_copy.py").stdout
    assert "unchanged inputs" in run("pdf.py").stdout
    for o, (digest, mtime) in before.items():
        assert sha(o) == digest, f"{o} changed bytes on a skipped step"
        assert o.stat().st_mtime_ns >= mtime, f"{o} was not touched on a skipped step"
    assert not stale_outputs(site_dir), "a skipped step must leave its outputs as new as its inputs"


@pytest.fixture(scope="module")
def proj(tmp_path_factory) -> Path:
    """A copy of the sources and of the worktree's offline build and its record (node_modules shared read-only)."""
    dest = tmp_path_factory.mktemp("incr") / "proj"
    dest.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in step_cache.INPUTS:
        src = ROOT / name
        if name.startswith("node_modules/"):
            continue
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        elif src.is_file():
            shutil.copy2(src, dest / name)
    (dest / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    for name in (".cache", "build/offline", "build/print-pages/" + offline_copy.outputs()[2].name):
        shutil.copytree(ROOT / name, dest / name)
    (dest / "build/downloads").mkdir()
    for name in (offline_copy.ZIP_NAME, "downloads.json"):
        shutil.copy2(offline_copy.DOWNLOADS / name, dest / "build/downloads" / name)
    (dest / "build/stamps").mkdir()
    shutil.copy2(step_cache.STAMPS / "offline.json", dest / "build/stamps/offline.json")
    return dest


def offline_key(root: Path) -> str:
    return step_cache.inputs_key({"step": "offline"}, root)


def test_the_key_depends_on_content_not_on_where_or_when(proj):
    assert offline_key(proj) == offline_key(ROOT)
    page = proj / "docs" / DEFAULT / "index.md"
    os.utime(page, (1, 1))  # an old mtime, same bytes
    assert offline_key(proj) == offline_key(ROOT)


@pytest.mark.parametrize("name", ["docs/{lang}/index.md", "course_build/bidi.py", "generated/manifest.json",
                                  "overrides/assets/css/course.css", "tools/pdf.py", "mkdocs.yml"])
def test_a_changed_byte_changes_the_key(proj, name):
    path = proj / name.format(lang=DEFAULT)
    if not path.exists():
        pytest.fail(f"{name} is gone: name another file of the same kind here")
    original = path.read_bytes()
    try:
        path.write_bytes(original + b"\n")
        assert offline_key(proj) != offline_key(ROOT), f"a change to {name} must rebuild"
    finally:
        path.write_bytes(original)
    assert offline_key(proj) == offline_key(ROOT)


def test_a_changed_output_is_not_fresh(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.txt").write_text("made")
    step_cache.record("t", "k1", ["out"], root=tmp_path)
    assert step_cache.fresh("t", "k1", ["out"], root=tmp_path)
    assert not step_cache.fresh("t", "k2", ["out"], root=tmp_path), "other inputs"
    (out / "a.txt").write_text("edited")
    assert not step_cache.fresh("t", "k1", ["out"], root=tmp_path), "an output edited since"
    (out / "a.txt").write_text("made")
    (out / "b.txt").write_text("extra")
    assert not step_cache.fresh("t", "k1", ["out"], root=tmp_path), "an output added since"
    (out / "b.txt").unlink()
    step_cache.forget("t", root=tmp_path)
    assert not step_cache.fresh("t", "k1", ["out"], root=tmp_path), "no record"


def test_the_pdf_key_holds_the_cover_date(monkeypatch):
    key = pdf.inputs_key()
    monkeypatch.setattr(pdf, "date_text", lambda lang, *a, **k: "another day")
    assert pdf.inputs_key() != key, "the PDFs print today's date on the cover: a new day prints them again"


def pdf_key(root: Path) -> str:
    code = "from tools import pdf; print(pdf.inputs_key())"
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=ENV, capture_output=True, text=True,
                          check=True).stdout.strip()


def zip_page(root: Path, page: str) -> str:
    with zipfile.ZipFile(root / "build/downloads" / offline_copy.ZIP_NAME) as z:
        return z.read(f"attention-course/{page}").decode("utf-8")


def test_copy_skips_then_rebuilds_on_a_changed_input(proj):
    """In order, on the copy: unchanged → skipped; then a doc page changed → the copy is built again (its new
    sentence reaches the archive) and the PDFs' key moves; unchanged again → skipped."""
    zip_before = sha(proj / "build/downloads" / offline_copy.ZIP_NAME)
    assert "unchanged inputs" in run("offline_copy.py", proj).stdout, "the copied project should be fresh"
    assert sha(proj / "build/downloads" / offline_copy.ZIP_NAME) == zip_before
    printed = pdf_key(proj)

    page = proj / "docs" / DEFAULT / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nIncrementalSentinelWord.\n", encoding="utf-8")
    out = run("offline_copy.py", proj).stdout
    assert "unchanged" not in out, f"a changed doc page must rebuild: {out}"
    assert "IncrementalSentinelWord" in zip_page(proj, "index.html")
    assert pdf_key(proj) != printed, "the PDFs print the offline copy: a new copy prints them again"

    # that any other input (a stage, generated/, CSS, a tool, mkdocs.yml) changes the key is
    # test_a_changed_byte_changes_the_key; that a changed key rebuilds is the doc page above
    assert "unchanged inputs" in run("offline_copy.py", proj).stdout
