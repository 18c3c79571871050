"""The fonts charts are drawn with, each from a pinned npm package (package.json), never the system.

A language names its chart font and that font's files in one place, the `font:` block of
scripts/i18n/<lang>/language.yml (read by scripts/common/course.py); the static SVG (vl-convert), the
live chart (course_build/refs.py) and the pages' @font-face (tools/vendor_assets.py,
overrides/assets/css/course.css) all use that one family, so text is measured the same everywhere.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"



def families() -> dict[str, tuple[str, tuple[str, ...]]]:
    """family -> (folder of TTF files inside node_modules, the faces charts use: regular, bold,
    italics where the family has them; a chart may ask for fontStyle="italic"), from every language."""
    from scripts.common import course
    return {lang.font["chart"]: (lang.font["files"], tuple(lang.font["faces"])) for lang in course.languages()}


def family(lang: str) -> str:
    """The pinned family a language's charts are drawn with."""
    from scripts.common import course
    return course.language(lang).font["chart"]


class FontError(SystemExit):
    """A chart font that is unknown or not installed (SystemExit: the runner stops with this message)."""


def files(family: str) -> list[Path]:
    """The TTF files of a family; stops, saying what to do, when the family is unknown or missing."""
    known = families()
    if family not in known:
        raise FontError(f"chart font {family!r} is not one of {sorted(known)}: name it with its npm package's "
                        "TTF folder and faces in the `font:` block of scripts/i18n/<lang>/language.yml "
                        "(chart, files, faces; the package pinned in package.json)")
    folder, names = known[family]
    paths = [NODE_MODULES / folder / n for n in names]
    missing = [str(p.relative_to(ROOT)) for p in paths if not p.is_file()]
    if missing:
        raise FontError(f"chart font {family!r} is missing ({', '.join(missing)}): run `npm ci` "
                        "(make assets does); charts are never drawn with whatever fonts the machine has")
    named = {p.name: _family_name(p) for p in paths}
    wrong = {n: f for n, f in named.items() if f != family}
    if wrong:
        raise FontError(f"chart font {family!r}: the files named for it are another family ({wrong}): make "
                        "`chart:` in scripts/i18n/<lang>/language.yml (font:) the family its `files` hold")
    return paths


def _family_name(path: Path) -> str:
    """The family a renderer knows the file by (typographic family, else the legacy one)."""
    from fontTools.ttLib import TTFont
    name = TTFont(str(path), lazy=True)["name"]
    return name.getDebugName(16) or name.getDebugName(1)


def folder(family: str) -> Path:
    files(family)
    return NODE_MODULES / families()[family][0]


def advances(path: Path) -> dict[int, int]:
    """Character -> advance width: all that text measurement (and so the SVG's layout) depends on."""
    from fontTools.ttLib import TTFont
    font = TTFont(str(path), lazy=True)
    metrics = font["hmtx"].metrics
    return {c: metrics[g][0] * 2048 // font["head"].unitsPerEm for c, g in font.getBestCmap().items()}


def system_copies(family: str) -> list[Path]:
    """Installed system fonts of the same family name (fontconfig's list; none when it is absent)."""
    import shutil
    import subprocess
    if not shutil.which("fc-list"):
        return []
    out = subprocess.run(["fc-list", f":family={family}", "file"], capture_output=True, text=True).stdout
    return sorted(Path(line.split(":")[0]) for line in out.splitlines() if line.strip())


def check_no_shadowing(family: str) -> None:
    """vl-convert also sees the system's fonts, and a system copy of the same family may be the one
    it measures with. That is harmless only when its advance widths equal the pinned file's (true of
    Debian's DejaVu Sans 2.37); otherwise stop instead of drawing with whatever the machine has."""
    for sys_file in system_copies(family):
        theirs = advances(sys_file)
        same_style = next((p for p in files(family) if _style(p) == _style(sys_file)), None)
        if same_style is None:
            continue
        ours = advances(same_style)
        differ = [chr(c) for c in ours.keys() & theirs.keys() if ours[c] != theirs[c]]
        if differ:
            raise FontError(f"the system font {sys_file} is also {family!r} but measures text differently "
                            f"(e.g. {''.join(sorted(differ)[:10])!r}), so charts would differ from the committed "
                            "ones: remove that font package on this machine, or pin another family in "
                            "scripts/i18n/<lang>/language.yml (font:)")


def _style(path: Path) -> tuple[int, int, bool]:
    """(weight, width, italic): how a renderer picks a face within a family."""
    from fontTools.ttLib import TTFont
    os2 = TTFont(str(path), lazy=True)["OS/2"]
    return os2.usWeightClass, os2.usWidthClass, bool(os2.fsSelection & 1)
