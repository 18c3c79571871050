"""The site builds strictly, and a reference that does not resolve stops the build naming page and id."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def build(docs: Path | None, out: Path) -> subprocess.CompletedProcess:
    cfg = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", SITE_DIR=str(out))
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml")]
    if docs is not None:  # a copy of the project with altered docs, same hooks and data
        tmp_cfg = docs.parent / "mkdocs.yml"
        tmp_cfg.write_text(cfg.replace("docs_dir: docs", f"docs_dir: {docs}"), encoding="utf-8")
        for d in ("hooks", "overrides", "generated", "scripts", "node_modules", "tools"):
            if not (docs.parent / d).exists():
                (docs.parent / d).symlink_to(ROOT / d)
        cmd[-1] = str(tmp_cfg)
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)


def test_strict_build_passes_without_warnings(tmp_path):
    proc = build(None, tmp_path / "site")
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "WARNING" not in proc.stderr, proc.stderr
    assert (tmp_path / "site/index.html").exists() and (tmp_path / "site/fa/index.html").exists()


@pytest.mark.parametrize("bad,named", [
    ("{{ chart: no_such_chart }}", "no_such_chart"),
    ("{{ v: scaling/at.999.raw | .2f }}", "scaling/at.999.raw"),
    ("{{ v: no_such_data/x }}", "no_such_data"),
    ("{{ table: scaling/curve | d:d nope:.2f }}", "nope"),
    ("{{ v: scaling/uniform | .2x }}", ".2x"),
    ("{{ frobnicate: x }}", "frobnicate"),
])
def test_unresolved_reference_fails_naming_page_and_id(tmp_path, bad, named):
    docs = tmp_path / "proj" / "docs"
    shutil.copytree(ROOT / "docs", docs)
    page = docs / "fa" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + f"\n\n{bad}\n", encoding="utf-8")
    proc = build(docs, tmp_path / "site")
    assert proc.returncode != 0, f"{bad!r} should fail the build"
    assert "docs/fa/index.md" in proc.stderr and named in proc.stderr, proc.stderr[-2000:]
