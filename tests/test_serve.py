"""`mkdocs serve` keeps working while a maintainer edits: in a copy of the project, the served site
follows an edit to an experiment, to a chart builder, to a string file and to a page, each read back
from the server (course_build/live_data.py recomputes generated/; course_build/plugin.py resets the
stages' state per rebuild, without which the second rebuild fails)."""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT
from scripts.common import course

pytestmark = pytest.mark.slow  # a copy of the project and a server in a subprocess: make test only

COPIED = ("docs", "course_build", "scripts", "generated", "overrides", "tools")
WAIT = 300  # seconds for one rebuild to show (2 busy cores: a rebuild recomputes and builds both languages)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path}: {old!r} is not there once (the test's anchor moved)"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_serve_follows_edits_to_an_experiment_a_builder_a_string_file_and_a_page(tmp_path):
    proj = tmp_path / "proj"
    for name in COPIED:
        shutil.copytree(ROOT / name, proj / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("mkdocs.yml", "pyproject.toml", "requirements.txt"):
        shutil.copy(ROOT / name, proj / name)
    (proj / "node_modules").symlink_to(ROOT / "node_modules")
    port = free_port()
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONDONTWRITEBYTECODE="1", SITE_URL=f"http://127.0.0.1:{port}/")
    for k in ("SITE_DIR", "OFFLINE", "REQUIRE_DOWNLOADS", "USE_DIRECTORY_URLS"):
        env.pop(k, None)
    log = open(tmp_path / "serve.log", "w")
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
                              cwd=proj, env=env, stdout=log, stderr=subprocess.STDOUT)
    lang = course.languages()[0].code  # the default language is served at the root
    base = f"http://127.0.0.1:{port}/"

    def shows(path: str, text: str) -> None:
        """Wait until the served `path` holds `text` (a regular expression)."""
        deadline = time.monotonic() + WAIT
        body = ""
        while time.monotonic() < deadline:
            assert server.poll() is None, f"mkdocs serve stopped:\n{(tmp_path / 'serve.log').read_text()[-3000:]}"
            try:
                body = urllib.request.urlopen(base + path, timeout=10).read().decode("utf-8")
                if re.search(text, body):
                    return
            except OSError:
                pass
            time.sleep(1)
        pytest.fail(f"{path} never showed {text!r} in {WAIT} s; the server said:\n"
                    f"{(tmp_path / 'serve.log').read_text()[-3000:]}")

    try:
        shows("self-attention/formula/", r"t_3 \\cdot t_3")  # up
        # an experiment: t3 = [3, 2] makes t3·t3 = 13 (was 8), a number the formula page shows
        edit(proj / "scripts/experiments/sa_toy.py", "[2.0, 2.0], [-2.0, 0.0]", "[3.0, 2.0], [-2.0, 0.0]")
        shows("self-attention/formula/", r'data-source="sa_toy/scores\.2\.2"[^>]*><span class="num">13<')
        # a chart builder (the dashed rule's pattern, read from the chart's served spec), a string file (a
        # chart's title, which its figure caption carries) and a page, saved together: one rebuild must follow
        # all three (a second rebuild after the first: the stages' state is reset again)
        edit(proj / "scripts/charts/sqrt_scaling.py", "strokeDash=[4, 3]", "strokeDash=[7, 3]")
        strings = next(p for p in (proj / "scripts/i18n" / lang).glob("*.yml")
                       if "    title: Найбільша вага в рядку softmax із 49 елементів" in p.read_text(encoding="utf-8"))
        edit(strings, "title: Найбільша вага в рядку softmax із 49 елементів", "title: Заголовок після правки")
        page = proj / "docs" / lang / "self-attention/formula.md"
        page.write_text(page.read_text(encoding="utf-8") + "\nАбзац, дописаний під час перегляду.\n", encoding="utf-8")
        shows(f"assets/charts/{lang}/sqrt_scaling.js", r"\[7,3\]")
        shows("self-attention/scaling/", "Заголовок після правки")
        shows("self-attention/formula/", "Абзац, дописаний під час перегляду")
    finally:
        server.terminate()
        server.wait(30)
        log.close()
