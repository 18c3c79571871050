"""generated/ is fresh, deterministic in form, and the i18n strings of both languages mirror each other."""
import json
import subprocess
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent


def test_generated_is_fresh():
    proc = subprocess.run([sys.executable, "-m", "scripts.run", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_json_files_are_canonical():
    from scripts.common import jsonio
    for path in sorted((ROOT / "generated").rglob("*.json")):
        text = path.read_text(encoding="utf-8")
        obj = json.loads(text)
        assert text == jsonio.dumps(obj, round_floats=False), f"{path} is not in canonical form (sorted, UTF-8, newline)"
        assert "\\u0" not in text or "timings" in str(path), f"{path} escapes non-ASCII text"


def test_every_experiment_has_data_and_every_data_file_an_experiment():
    exps = {p.stem for p in (ROOT / "scripts/experiments").glob("*.py") if not p.stem.startswith("_")}
    data = {p.stem for p in (ROOT / "generated/data").glob("*.json")}
    assert exps == data, f"without data: {exps - data}; orphaned data: {data - exps}"


def test_timings_live_apart_with_their_machine():
    for path in (ROOT / "generated/timings").glob("*.json"):
        t = json.loads(path.read_text(encoding="utf-8"))
        assert {"platform", "processor", "cpus"} <= set(t["machine"])
    manifest = json.loads((ROOT / "generated/manifest.json").read_text(encoding="utf-8"))
    assert "timings" not in json.dumps(manifest), "timings must not take part in freshness checks"


def keys(node, prefix=""):
    if isinstance(node, dict):
        out = set()
        for k, v in node.items():
            out |= keys(v, f"{prefix}{k}.")
        return out
    return {prefix.rstrip(".")}


def test_i18n_files_mirror_each_other():
    """Every language's strings have the default language's keys. The `language:` block
    (language.yml) is metadata, checked by scripts/common/course.py, and may have optional keys."""
    from scripts.common import course
    from scripts.common.i18n import strings
    default = course.default_language().code
    ours = {k for k in keys(strings(default)) if not k.startswith("language.")}
    for lang in course.codes():
        theirs = {k for k in keys(strings(lang)) if not k.startswith("language.")}
        assert ours == theirs, f"only {default}: {ours - theirs}; only {lang}: {theirs - ours}"


def test_rerun_on_unchanged_tree_computes_nothing():
    proc = subprocess.run([sys.executable, "-m", "scripts.run"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert " 0/" in proc.stdout.splitlines()[-1] and "computed" not in "\n".join(proc.stdout.splitlines()[:-1]), proc.stdout


def test_static_svg_ids_do_not_depend_on_render_order():
    """vl-convert's clip/gradient counters run across renders; the same chart must give the same bytes."""
    from scripts.charts._render import stable_svg
    a = '<g clip-path="url(#clip7)"/><clipPath id="clip7"/><path fill="url(#gradient_4)"/><linearGradient id="gradient_4"/>'
    b = '<g clip-path="url(#clip2)"/><clipPath id="clip2"/><path fill="url(#gradient_0)"/><linearGradient id="gradient_0"/>'
    assert stable_svg(a) == stable_svg(b)
    assert "clip1" in stable_svg(a) and "gradient_0" in stable_svg(a)
