"""Build the offline copy (both languages, opens from disk with no network) and zip it.

    python tools/offline_copy.py           -> build/offline/attention-course/ and build/downloads/attention-course-offline.zip
    python tools/offline_copy.py --force   -> the same, even when nothing it is made from changed
Material's offline plugin makes search work on file://; its web-worker shim is our local copy.
Skipped when its inputs' content hash and its outputs are as its last run left them (tools/step_cache.py).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
from scripts.common.paths import DOWNLOADS, DOWNLOADS_INDEX, OFFLINE_COPY as OUT
from tools import step_cache

ZIP_NAME = "attention-course-offline.zip"
FIXED_TIME = (2026, 1, 1, 0, 0, 0)  # same bytes for the same content


STEP = "offline"


def not_ours(f: Path) -> bool:
    """Files tools/pdf.py writes into the offline copy after it was zipped: not this step's output."""
    return f.name == "print.html"


def outputs() -> list[Path]:
    """What this step makes: the copy, the archive, and the lesson pages course_build/print_pages.py saves for tools/pdf.py."""
    from course_build.print_pages import folder_for
    return [OUT, DOWNLOADS / ZIP_NAME, folder_for(OUT)]


def build() -> None:
    # mkdocs.yml's own switches (!ENV): the offline plugin on, file-style links; the folder explicitly
    env = dict(os.environ, OFFLINE="true", USE_DIRECTORY_URLS="false", NO_MKDOCS_2_WARNING="1")
    env.pop("REQUIRE_DOWNLOADS", None)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(OUT)],
                   cwd=ROOT, env=env, check=True)


def archive() -> Path:
    DOWNLOADS.mkdir(parents=True, exist_ok=True)
    target = DOWNLOADS / ZIP_NAME
    tmp = DOWNLOADS / f".{ZIP_NAME}.tmp"  # renamed when complete: a killed run leaves the old archive
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for f in sorted(OUT.rglob("*")):
            if f.is_file() and f.suffix != ".map":  # source maps: for developers, not readers
                info = zipfile.ZipInfo(str(Path("attention-course") / f.relative_to(OUT)), FIXED_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, f.read_bytes())
    os.replace(tmp, target)
    return target


def record(items: dict) -> None:
    """DOWNLOADS_INDEX (build/downloads/downloads.json): which file each download key is ({key: {"file": name}}).
    Sizes and page counts are not recorded: course_build/downloads.py reads them from the files."""
    index = DOWNLOADS_INDEX
    try:
        data = json.loads(index.read_text(encoding="utf-8")) if index.exists() else {}
    except ValueError:
        data = {}  # a broken list is rebuilt from what this run made
    data = data if isinstance(data, dict) else {}
    data.update({key: {"file": name} for key, name in items.items()})
    tmp = index.with_name(".downloads.json.tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, index)


def main(argv: list[str] | None = None) -> int:
    force = "--force" in (sys.argv[1:] if argv is None else argv)
    key = step_cache.inputs_key({"step": STEP})
    if not force and step_cache.fresh(STEP, key, outputs(), ignore=not_ours):
        n = step_cache.keep(outputs(), ignore=not_ours)
        record({"offline": ZIP_NAME})
        print(f"offline: unchanged inputs, kept {OUT.relative_to(ROOT)} and {ZIP_NAME} ({n} files touched; --force rebuilds)")
        return 0
    step_cache.forget(STEP)
    if OUT.exists():
        shutil.rmtree(OUT)
    build()
    z = archive()
    record({"offline": z.name})
    step_cache.record(STEP, key, outputs(), ignore=not_ours)
    print(f"offline: {OUT.relative_to(ROOT)} → {z.relative_to(ROOT)} ({z.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
