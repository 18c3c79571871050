"""The fonts charts are drawn with, each from a pinned npm package (package.json), never the system.

A language names its chart font in scripts/i18n/<lang>/site.yml (`ui.chart_font`); the static SVG
(vl-convert), the live chart (hooks/refs.py) and the pages' @font-face (tools/vendor_assets.py,
overrides/assets/css/course.css) all use that one family, so text is measured the same everywhere.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"

# family -> (folder of TTF files inside node_modules, the files charts use: regular, bold)
FAMILIES = {
    "Vazirmatn": ("vazirmatn/fonts/ttf", ("Vazirmatn-Regular.ttf", "Vazirmatn-Bold.ttf")),
    "DejaVu Sans": ("dejavu-fonts-ttf/ttf", ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")),
}


class FontError(SystemExit):
    """A chart font that is unknown or not installed (SystemExit: the runner stops with this message)."""


def files(family: str) -> list[Path]:
    """The TTF files of a family; stops, saying what to do, when the family is unknown or missing."""
    if family not in FAMILIES:
        raise FontError(f"chart font {family!r} is not one of {sorted(FAMILIES)}: add it to FAMILIES in "
                        "scripts/common/fonts.py with its npm package's TTF files (pinned in package.json)")
    folder, names = FAMILIES[family]
    paths = [NODE_MODULES / folder / n for n in names]
    missing = [str(p.relative_to(ROOT)) for p in paths if not p.is_file()]
    if missing:
        raise FontError(f"chart font {family!r} is missing ({', '.join(missing)}): run `npm ci` "
                        "(make assets does); charts are never drawn with whatever fonts the machine has")
    return paths


def folder(family: str) -> Path:
    files(family)
    return NODE_MODULES / FAMILIES[family][0]
