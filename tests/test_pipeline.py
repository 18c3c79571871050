"""The data pipeline never lets a number go silently wrong: exact dependencies, no orphans, same
bytes in a fresh process, whole files, errors that say where. Each test works in a copy of the
project in tmp_path (the worktree is never changed)."""
from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
N_EXPERIMENTS = len([p for p in (ROOT / "scripts/experiments").glob("*.py") if not p.stem.startswith("_")])


@pytest.fixture
def proj(tmp_path) -> Path:
    """A copy of what the runner reads and writes; node_modules (the pinned fonts) is shared read-only."""
    dest = tmp_path / "proj"
    dest.mkdir()
    for d in ("scripts", "generated"):
        shutil.copytree(ROOT / d, dest / d, ignore=shutil.ignore_patterns("__pycache__", ".lock"))
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")  # the course model's languages
    (dest / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    return dest


def run(proj: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "scripts.run", *args], cwd=proj, env=env,
                          capture_output=True, text=True)


def refused(proc: subprocess.CompletedProcess, *said: str) -> None:
    """The run stopped, its message holds each of `said`, and it is a message, not a traceback."""
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert all(s in proc.stderr for s in said) and "Traceback" not in proc.stderr, proc.stderr


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def test_copy_starts_fresh(proj):
    proc = run(proj, "--check")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_edit_to_imported_experiment_marks_the_importer_stale(proj):
    # ca_torch_check imports ca_step: a real change to ca_step must recompute both
    with open(proj / "scripts/experiments/ca_step.py", "a", encoding="utf-8") as f:
        f.write("\n_CHANGED = 1\n")
    proc = run(proj, "--check")
    assert proc.returncode == 1
    assert "generated/data/ca_step.json" in proc.stdout
    assert "generated/data/ca_torch_check.json" in proc.stdout, proc.stdout


def test_rounding_change_marks_all_data_stale(proj):
    edit(proj / "scripts/common/jsonio.py", "SIGNIFICANT = 6", "SIGNIFICANT = 5")
    proc = run(proj, "--check")
    assert proc.returncode == 1
    stale = [line for line in proc.stdout.splitlines() if "generated/data/" in line]
    assert len(stale) == N_EXPERIMENTS, proc.stdout


def test_comment_only_edit_changes_no_committed_byte(proj):
    before = snapshot(proj / "generated")
    for rel in ("scripts/experiments/ca_step.py", "scripts/common/attention.py", "scripts/common/jsonio.py",
                "scripts/charts/ca_step_query.py", "scripts/charts/_render.py"):
        p = proj / rel
        text = p.read_text(encoding="utf-8").replace("\ndef ", "\n# a comment, and a blank line\n\ndef ", 1)
        p.write_text("# a comment only\n" + text + "\n# trailing comment\n", encoding="utf-8")
    proc = run(proj)
    assert proc.returncode == 0, proc.stderr
    assert snapshot(proj / "generated") == before
    assert "0/" in proc.stdout.splitlines()[-1] and "built" not in proc.stdout.replace("charts built", ""), proc.stdout


def test_recomputed_but_identical_data_rebuilds_no_chart(proj):
    """A chart depends on the numbers it reads, not on its experiment's source."""
    with open(proj / "scripts/experiments/ca_step.py", "a", encoding="utf-8") as f:
        f.write("\n_UNUSED = 'changes the code, not the numbers'\n")
    before = snapshot(proj / "generated")
    proc = run(proj)
    assert proc.returncode == 0, proc.stderr
    assert "computed ca_step " in proc.stdout and "computed ca_torch_check" in proc.stdout
    assert "  built" not in proc.stdout, proc.stdout
    after = snapshot(proj / "generated")
    changed = sorted(k for k in before if before[k] != after.get(k))
    assert changed == ["manifest.json"], changed  # only the experiments' keys moved


def test_orphans_fail_the_check_and_a_run_removes_them(proj):
    (proj / "generated/data/x.json").write_text("{}\n", encoding="utf-8")
    (proj / "generated/charts/uk/gone_chart.svg").write_text("<svg/>\n", encoding="utf-8")
    (proj / "generated/timings/ca_step.json").write_text("{}\n", encoding="utf-8")  # ca_step has no measure()
    proc = run(proj, "--check")
    assert proc.returncode == 1
    for name in ("generated/data/x.json", "generated/charts/uk/gone_chart.svg", "generated/timings/ca_step.json"):
        assert name in proc.stdout, proc.stdout
    assert "generated/timings/sa_cost.json" not in proc.stdout  # sa_cost measures: its timings belong
    proc = run(proj)
    assert proc.returncode == 0, proc.stderr
    assert "removed  generated/data/x.json" in proc.stdout
    assert not (proj / "generated/data/x.json").exists() and not (proj / "generated/charts/uk/gone_chart.svg").exists()
    assert run(proj, "--check").returncode == 0


def test_deleted_builder_leaves_nothing_behind(proj):
    import yaml
    (proj / "scripts/charts/ca_masks.py").unlink()
    proc = run(proj, "--check")  # its strings are left: nothing reads them
    assert proc.returncode != 0 and "charts.ca_masks: no scripts/charts/ca_masks.py draws such a chart" in proc.stderr
    for path in (proj / "scripts/i18n").glob("*/cross-attention.yml"):
        strings = yaml.safe_load(path.read_text(encoding="utf-8"))
        del strings["charts"]["ca_masks"]
        path.write_text(yaml.safe_dump(strings, allow_unicode=True), encoding="utf-8")
    proc = run(proj, "--check")
    assert proc.returncode == 1 and "generated/charts/fa/ca_masks.svg" in proc.stdout, proc.stdout
    assert run(proj).returncode == 0
    assert not list((proj / "generated/charts").glob("*/ca_masks*"))
    assert '"fa/ca_masks"' not in (proj / "generated/manifest.json").read_text(encoding="utf-8")
    assert run(proj, "--check").returncode == 0


@pytest.mark.parametrize("lang,chart", [("uk", "ca_perceiver"), ("fa", "sa_patch_attention")])
def test_one_chart_rendered_alone_in_a_fresh_process_equals_committed_svg(proj, lang, chart):
    for f in (proj / "generated/charts" / lang).glob(f"{chart}.*"):
        f.unlink()
    code = ("from scripts.charts._render import render; from scripts.common.i18n import strings; "
            f"render({chart!r}, {lang!r}, strings({lang!r}))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=proj, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    for suffix in (".svg", ".json", ".vg.json", ".table.json"):
        committed = ROOT / "generated/charts" / lang / f"{chart}{suffix}"
        assert (proj / "generated/charts" / lang / f"{chart}{suffix}").read_bytes() == committed.read_bytes(), suffix


def test_uk_charts_name_a_pinned_font():
    from scripts.common import fonts
    from scripts.common.i18n import languages, strings
    for lang in languages():
        family = fonts.family(lang)
        assert all(p.is_file() for p in fonts.files(family))
        svg = (ROOT / "generated/charts" / lang / "ca_perceiver.svg").read_text(encoding="utf-8")
        assert f'font-family="{family}"' in svg and 'font-family="sans-serif"' not in svg


def test_unknown_chart_font_stops_with_a_clear_message(proj):
    edit(proj / "scripts/i18n/uk/language.yml", "chart: DejaVu Sans", "chart: Comic Sans")
    proc = run(proj)
    refused(proc, "Comic Sans", "language.yml")


def test_truncated_manifest_names_itself_and_what_recovers(proj):
    """The recovery it names, a full recompute from no manifest giving the committed bytes, is `make
    reproduce` (tools/reproduce.py, run by CI after the suite: five seeds of two models take minutes)."""
    manifest = proj / "generated/manifest.json"
    manifest.write_bytes(manifest.read_bytes()[:100])
    proc = run(proj)
    refused(proc, "generated/manifest.json", "make data FORCE=1")


def test_writes_are_atomic(tmp_path, monkeypatch):
    """A failure while writing leaves the old file whole, and no temporary file behind."""
    from scripts.common import jsonio
    target = tmp_path / "a.json"
    target.write_text("old\n", encoding="utf-8")

    def broken_replace(src, dst):
        raise OSError("killed mid-write")
    monkeypatch.setattr(jsonio.os, "replace", broken_replace)
    with pytest.raises(OSError):
        jsonio.write_if_changed(target, "new\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


# ---- errors that say where ------------------------------------------------------------------

def test_yaml_error_names_file_and_line(proj):
    p = proj / "scripts/i18n/fa/site.yml"
    lines = p.read_text(encoding="utf-8").splitlines()
    lines.insert(3, "  broken: [unclosed")
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = run(proj, "--check")
    refused(proc, "scripts/i18n/fa/site.yml:", "YAML")


def test_builder_syntax_error_names_the_file(proj):
    with open(proj / "scripts/charts/sa_cost.py", "a", encoding="utf-8") as f:
        f.write("\ndef broken(:\n")
    proc = run(proj, "--check")
    refused(proc, "scripts/charts/sa_cost.py:", "syntax error")


def test_nan_names_experiment_and_key_path(proj):
    edit(proj / "scripts/experiments/ca_step.py", "def compute():", "def compute():\n    return {'a': [1.0, {'b': float('nan')}]}\n\n\ndef _old_compute():")
    proc = run(proj)
    refused(proc, "scripts/experiments/ca_step.py", "a.1.b")


def test_missing_chart_string_names_chart_language_and_key(proj):
    edit(proj / "scripts/i18n/uk/cross-attention.yml", "    example: *example\n    title: \"Дві маски", "    example: *example\n    old_title: \"Дві маски")
    proc = run(proj)
    refused(proc, "scripts/i18n/uk/", "charts.ca_masks.title")


def test_system_font_of_the_same_name_that_measures_differently_stops(monkeypatch):
    """vl-convert sees system fonts too: a same-named system face with other widths must not be used."""
    from scripts.common import fonts
    impostor = fonts.files("Vazirmatn")[0]  # a regular face whose widths are not DejaVu's
    monkeypatch.setattr(fonts, "system_copies", lambda family: [impostor])
    with pytest.raises(SystemExit) as err:
        fonts.check_no_shadowing("DejaVu Sans")
    assert str(impostor) in str(err.value) and "DejaVu Sans" in str(err.value)
    monkeypatch.setattr(fonts, "system_copies", lambda family: [fonts.files("DejaVu Sans")[0]])
    fonts.check_no_shadowing("DejaVu Sans")  # the same widths: harmless


@pytest.mark.parametrize("manifest", [[], {"experiments": []}, {"charts": {"uk/sa_cost": "x"}},
                                      {"experiments": {"ca_step": {"key": 1, "outputs": {}}}}, {"other": {}}])
def test_a_manifest_of_the_wrong_shape_is_refused_naming_itself_and_force(tmp_path, monkeypatch, manifest):
    """Valid JSON that this runner did not write (hand-edited, another version's) is refused before use."""
    import json

    from scripts import run
    path = tmp_path / "generated" / "manifest.json"
    path.parent.mkdir()
    path.write_text(json.dumps(manifest), encoding="utf-8")
    monkeypatch.setattr(run, "ROOT", tmp_path)
    monkeypatch.setattr(run, "MANIFEST", path)
    with pytest.raises(SystemExit) as err:
        run.read_manifest()
    assert "generated/manifest.json" in str(err.value) and "make data FORCE=1" in str(err.value), err.value


# ---- strings no code reads, and strings code needs: refused by a schema before anything is shown -------

def test_a_chart_string_wrapped_onto_a_line_with_a_colon_is_refused(proj):
    """YAML reads the wrapped line as a new key and the title is published cut («Один крок»)."""
    edit(proj / "scripts/i18n/uk/cross-attention.yml", "    title: Один крок перехресної уваги\n",
         "    title: Один крок\n    перехресної уваги: запит і ключі\n")
    before = snapshot(proj / "generated")
    proc = run(proj)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "scripts/i18n/uk/cross-attention.yml: charts.ca_step_query.перехресної уваги:" in proc.stderr, proc.stderr
    assert "wrapped" in proc.stderr and "add it to those that lack it, or remove it" in proc.stderr, proc.stderr
    assert snapshot(proj / "generated") == before  # refused before anything was computed or drawn


def copy_strings(tmp_path, monkeypatch) -> Path:
    """scripts/i18n/ copied, and the strings module reading the copy."""
    from scripts.common import i18n
    dest = tmp_path / "scripts" / "i18n"
    shutil.copytree(ROOT / "scripts/i18n", dest)
    monkeypatch.setattr(i18n, "I18N", dest)
    return dest


def test_a_chart_string_its_builder_does_not_read_is_refused_in_every_language(tmp_path, monkeypatch):
    """Every language may have the key: nothing shows it, so it is refused once the builder says what it reads."""
    from scripts import run
    from scripts.charts import _render
    folder = copy_strings(tmp_path, monkeypatch)
    for lang in run.languages():
        edit(folder / lang / "cross-attention.yml", "  ca_masks:\n", "  ca_masks:\n    legend_old: nobody reads it\n")
    run.check_strings({})  # the languages agree: only the builder can tell

    def draw_only(chart, lang, strings):  # the builder and its table, nothing written
        _render.spec_for(chart, lang, strings)
        mod = importlib.import_module(f"scripts.charts.{chart}")
        _render.table_for(mod, chart, _render.load_data(mod.DATA), strings["charts"][chart], lang)
        return {}
    monkeypatch.setattr(_render, "render", draw_only)
    reads = {f"{lang}/ca_masks": run.run_chart("ca_masks", lang)[1] for lang in run.languages()}
    assert {"title", "y", "count"} <= reads[f"{run.languages()[0]}/ca_masks"]
    with pytest.raises(SystemExit) as err:
        run.check_strings(reads)
    for lang in run.languages():
        assert (f"scripts/i18n/{lang}/cross-attention.yml: charts.ca_masks.legend_old: scripts/charts/ca_masks.py "
                "does not read it") in str(err.value), err.value


def test_a_string_every_page_shows_missing_in_every_language_is_refused(tmp_path, monkeypatch):
    from scripts import run
    folder = copy_strings(tmp_path, monkeypatch)
    for lang in run.languages():
        path = folder / lang / "cross-attention.yml"
        lines = path.read_text(encoding="utf-8").split("\n")
        start = lines.index("  ca_masks:") + 1
        end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("      "))
        assert lines[start].startswith("    print_caption:")
        path.write_text("\n".join(lines[:start] + lines[end:]), encoding="utf-8")
    with pytest.raises(SystemExit) as err:
        run.check_strings({})
    for lang in run.languages():
        assert (f"scripts/i18n/{lang}/cross-attention.yml: charts.ca_masks.print_caption is missing: every chart's "
                "page and PDF show it: add it") in str(err.value), err.value
