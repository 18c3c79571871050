"""Downloads are verified from the files themselves, each language has its own 404 page (GitHub Pages
and `make serve`), and a missing page string stops the build naming it. Builds run in a copy of the
project in tmp_path, so build/downloads/ and the strings can be altered freely."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def project(dest: Path) -> Path:
    """course_build/ and scripts/ copied (they locate the project from their own path); the rest linked."""
    dest.mkdir(parents=True)
    for d in ("course_build", "scripts"):
        shutil.copytree(ROOT / d, dest / d, ignore=shutil.ignore_patterns("__pycache__"))
    for d in ("docs", "generated", "overrides", "node_modules", "tools"):
        (dest / d).symlink_to((ROOT / d).resolve())
    shutil.copyfile(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    return dest


def build(proj: Path, out: Path, **env) -> subprocess.CompletedProcess:
    full = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONDONTWRITEBYTECODE="1", SITE_DIR=str(out), **env)
    for k in ("OFFLINE", "REQUIRE_DOWNLOADS"):
        if k not in env:
            full.pop(k, None)
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f",
                           str(proj / "mkdocs.yml")], cwd=proj, env=full, capture_output=True, text=True)


def languages() -> list[str]:
    from scripts.common.i18n import languages as langs
    return langs()


def default_language() -> str:
    """The language served at the site root (mkdocs.yml theme.language)."""
    return re.search(r"^theme:\n(?:  .*\n)*?  language: (\w+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"),
                     re.M).group(1)


def other_languages() -> list[str]:
    return [lang for lang in languages() if lang != default_language()]


def make_downloads(proj: Path, entries: dict | None = None, pages: int = 3) -> Path:
    """Real files (a zip, one PDF per language with `pages` pages) and their list."""
    from pypdf import PdfWriter
    folder = proj / "build" / "downloads"
    folder.mkdir(parents=True)
    with zipfile.ZipFile(folder / "attention-course-offline.zip", "w") as z:
        z.writestr("attention-course/index.html", "<!doctype html><title>x</title>")
    listed = {"offline": {"file": "attention-course-offline.zip"}}
    for lang in languages():
        w = PdfWriter()
        for _ in range(pages):
            w.add_blank_page(width=595, height=842)
        with open(folder / f"attention-course-{lang}.pdf", "wb") as f:
            w.write(f)
        listed[f"pdf-{lang}"] = {"file": f"attention-course-{lang}.pdf"}
    listed.update(entries or {})
    (folder / "downloads.json").write_text(json.dumps(listed), encoding="utf-8")
    return folder


def download_text(site: Path, lang: str) -> str:
    from scripts.common.i18n import strings
    page = (site / ("" if lang == default_language() else lang) / "index.html").read_text(encoding="utf-8")
    ui = strings(lang)["ui"]["downloads"]
    m = re.search(re.escape(ui["pdf"]) + r"</a>\s*\(([^)]*)\)", page)
    assert m, f"{lang}: no PDF download link on the home page"
    return m.group(1)


def test_a_listed_size_or_page_count_is_ignored(tmp_path, monkeypatch):
    """What a page says of a download (course_build/refs.py reads downloads.item) is read from the file itself:
    a size and a page count written into the list are not believed."""
    from course_build import downloads
    proj = tmp_path / "proj"
    lang = languages()[0]
    folder = make_downloads(proj, {f"pdf-{lang}": {"file": f"attention-course-{lang}.pdf", "bytes": 1, "pages": 99}})
    monkeypatch.setattr(downloads, "ROOT", proj)
    monkeypatch.setattr(downloads, "DOWNLOADS", folder)
    monkeypatch.setattr(downloads, "INDEX", folder / "downloads.json")
    item = downloads.item(f"pdf-{lang}")
    assert item["pages"] == 3 and item["bytes"] == (folder / f"attention-course-{lang}.pdf").stat().st_size, item


def test_the_home_page_gives_the_published_pdfs_own_page_counts(site_dir):
    """The site as `make site` publishes it (no build of its own: the one above is a unit of it): each home page
    gives its PDF's page count as the published file has it, and the published files are the ones made in
    build/downloads/."""
    from course_build.downloads import pdf_pages
    from scripts.common import numfmt
    for lang in languages():
        pdf = site_dir / "downloads" / f"attention-course-{lang}.pdf"
        pages = pdf_pages(pdf)
        said = download_text(site_dir, lang)
        assert re.search(rf"(?<!\d){re.escape(numfmt.fmt(pages, 'd', lang))}(?!\d)", said), \
            f"{lang}: the home page does not say {pages} pages: {said!r}"
        assert pdf.read_bytes() == (ROOT / "build" / "downloads" / pdf.name).read_bytes()


@pytest.mark.slow  # a build in a subprocess, or a training: make test only
@pytest.mark.parametrize("damage,named", [
    ("fake_pdf", "not a valid PDF"),
    ("missing_pdf", "does not exist"),
    ("fake_zip", "not a valid zip"),
    ("bad_entry", "must be"),
])
def test_fake_or_missing_download_fails_the_build(tmp_path, damage, named):
    proj = project(tmp_path / "proj")
    folder = make_downloads(proj)
    lang = languages()[0]
    if damage == "fake_pdf":
        (folder / f"attention-course-{lang}.pdf").write_bytes(b"%PDF-")  # 5 bytes, once published as "9 pages"
    elif damage == "missing_pdf":
        (folder / f"attention-course-{lang}.pdf").unlink()
    elif damage == "fake_zip":
        (folder / "attention-course-offline.zip").write_bytes(b"PK\x03\x04 not really")
    else:
        listed = json.loads((folder / "downloads.json").read_text(encoding="utf-8"))
        listed[f"pdf-{lang}"] = "attention-course.pdf"
        (folder / "downloads.json").write_text(json.dumps(listed), encoding="utf-8")
    proc = build(proj, tmp_path / "site", REQUIRE_DOWNLOADS="1")
    assert proc.returncode != 0, f"{damage} should fail the build"
    assert "build/downloads/downloads.json" in proc.stderr and named in proc.stderr, proc.stderr[-2000:]
    assert "make site" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.slow  # a build in a subprocess, or a training: make test only
def test_missing_ui_string_names_language_and_key(tmp_path):
    proj = project(tmp_path / "proj")
    lang = languages()[-1]
    p = proj / "scripts/i18n" / lang / "site.yml"
    p.write_text(re.sub(r"\n  chart_data: [^\n]*", "", p.read_text(encoding="utf-8"), count=1), encoding="utf-8")
    proc = build(proj, tmp_path / "site")
    assert proc.returncode != 0
    assert f"scripts/i18n/{lang}/" in proc.stderr and "ui.chart_data" in proc.stderr, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr


# ---- 404 per language ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(site_dir) -> Path:
    """The site `make site` built (checked fresh by conftest): the 404 pages readers get."""
    return site_dir


def html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', page).group(1)


def test_each_language_has_its_own_404(built):
    from scripts.common.i18n import strings
    default, others = default_language(), other_languages()
    assert others
    root = (built / "404.html").read_text(encoding="utf-8")
    assert html_lang(root) == default and strings(default)["ui"]["not_found"]["title"] in root
    for lang in others:
        page = (built / lang / "404.html").read_text(encoding="utf-8")
        assert html_lang(page) == lang and strings(lang)["ui"]["not_found"]["title"] in page
        assert f"'{lang}'" in root.replace('"', "'"), "the root 404 must switch to this language's page"
    assert "404 - Not found" not in root


def test_root_404_switches_by_path(built):
    """The switch is a plain script: run it with node against a path under each language folder."""
    from tools.serve import base_path
    root = (built / "404.html").read_text(encoding="utf-8")
    script = re.search(r"<script>(\(function\(\)\{var b=.*?)</script>", root).group(1)
    base, lang = base_path(), other_languages()[0]
    for path, expect in ((f"{base}{lang}/nope/", f"{base}{lang}/404.html"), (f"{base}{lang}/a/b", f"{base}{lang}/404.html"),
                         (f"{base}nope/", None), (f"{base}{lang}/404.html", None)):
        js = (f"var moved=null;var location={{pathname:{json.dumps(path)},replace:function(u){{moved=u;}}}};"
              f"{script};console.log(JSON.stringify(moved));")
        out = subprocess.run(["node", "-e", js], capture_output=True, text=True, check=True).stdout.strip()
        assert json.loads(out) == expect, (path, out)


def test_serve_answers_missing_paths_with_the_language_404(built):
    from tools.serve import base_path, start
    server, url = start(built)
    try:
        default, other = default_language(), other_languages()[0]
        for path, lang in (("nope/", default), ("self-attention/nope", default), (f"{other}/nope", other),
                           (f"{other}/self-attention/nope/", other)):
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(url + path)
            assert err.value.code == 404
            body = err.value.read().decode("utf-8")
            assert html_lang(body) == lang, path
            assert "Error response" not in body
        assert urllib.request.urlopen(url + f"{other}/").status == 200
        with pytest.raises(urllib.error.HTTPError) as err:  # outside the project path
            urllib.request.urlopen(url.split(base_path())[0] + "/elsewhere/")
        assert err.value.code == 404 and html_lang(err.value.read().decode("utf-8")) == default
    finally:
        server.shutdown()


def test_served_files_may_be_kept_ten_minutes_as_github_pages_lets_them(built):
    """The tests' server says what GitHub Pages says (Cache-Control: max-age=600), compressed or not, so a tab
    keeps a page's files for the next page; `python -m tools.serve` (a preview rebuilt under it) says no-cache."""
    from tools.serve import start
    for options, expect in (({}, "max-age=600"), ({"max_age": 0}, "no-cache")):
        server, url = start(built, **options)
        try:
            for path in ("", "assets/images/favicon.png"):   # a page (sent gzip-compressed) and an image (as it is)
                req = urllib.request.Request(url + path, headers={"Accept-Encoding": "gzip"})
                with urllib.request.urlopen(req) as r:
                    assert r.headers["Cache-Control"] == expect, (path, dict(r.headers))
        finally:
            server.shutdown()
