"""The course's own scripts and stylesheet are served minified (issue 12, lighter pages): the sources in
overrides/assets/js/ and overrides/assets/css/ keep their comments (about half their size), the copies
in the built site (and so in the offline copy) are minified by the pinned esbuild, in place. Nothing
else changes: esbuild only minifies (no bundling, no lowering to older syntax), and top-level names of a
plain script stay as they are, so other scripts and the tests still find them.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
SOURCES = ROOT / "overrides" / "assets"
FOLDERS = ("js", "css")  # ours; vendor/ holds copies that are minified already (or fonts)


def on_post_build(config, **kwargs) -> None:
    if not ESBUILD.exists():
        raise SystemExit("node_modules/.bin/esbuild is missing: run `npm ci` (package.json pins it; make assets does)")
    site = Path(config["site_dir"]) / "assets"
    for folder in FOLDERS:
        files = sorted(f.name for f in (SOURCES / folder).iterdir() if f.suffix in (".js", ".css"))
        built = [str(site / folder / name) for name in files if (site / folder / name).exists()]
        if built:
            subprocess.run([str(ESBUILD), *built, "--minify", "--log-level=warning", "--allow-overwrite",
                            f"--outdir={site / folder}"], check=True)
