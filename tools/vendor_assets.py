"""Copy the pinned front-end files from node_modules/ into overrides/assets/vendor/ (git-ignored).

Nothing is fetched at run time: the site ships these copies. KaTeX's stylesheet is trimmed to its
woff2 fonts (every browser we target reads woff2), and only the Vazirmatn weights we use are kept.
Vega and our small embed are bundled into one script with only what our charts use (tools/vega/, built
with the pinned esbuild; tests/test_vega_bundle.py checks every generated spec against it).
"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NM = ROOT / "node_modules"
OUT = ROOT / "overrides" / "assets" / "vendor"
VAZIR_WEIGHTS = ("Regular", "Bold")


def copy(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    if not dest.exists() or dest.read_bytes() != src.read_bytes():
        shutil.copyfile(src, dest)


# Persian text, the Latin words and digits that appear in it, punctuation and bidi controls; Persian
# pages need nothing else from Vazirmatn, and the subset is about half the size of the full font.
UNICODES = ("U+0020-007E,U+00A0-00FF,U+00D7,U+00F7,U+0600-06FF,U+200C-200F,U+2010-2027,U+202A-202F,"
            "U+2030-205E,U+2066-2069,U+2070-209F,U+2190-2193,U+2212,U+221A,U+FB50-FDFF,U+FE70-FEFF")


# Ukrainian charts (DejaVu Sans, scripts/common/fonts.py): Latin, Cyrillic, the punctuation, arrows
# and math signs chart text uses; the same file vl-convert measured the static SVG with.
UNICODES_CYRILLIC = ("U+0020-007E,U+00A0-00FF,U+00D7,U+00F7,U+0400-04FF,U+2010-2027,U+2030-205E,"
                     "U+2066-2069,U+2070-209F,U+2190-2193,U+2212,U+221A,U+2248,U+2260,U+2264,U+2265")


def subset(src: Path, dest: Path, unicodes: str = UNICODES) -> None:
    from fontTools import subset as ft
    if dest.exists() and dest.stat().st_mtime > src.stat().st_mtime and dest.stat().st_mtime > Path(__file__).stat().st_mtime:
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    ft.main([str(src), f"--unicodes={unicodes}", "--layout-features=*", "--flavor=woff2",
             f"--output-file={dest}", "--no-hinting", "--desubroutinize"])


# Our Vega (tools/vega/vega.js) stands in for the "vega" package; these modules, should anything import
# them again, are replaced by the stand-ins of tools/vega/absent.js (what each one was for is written there),
# and vega-expression (the expression parser and code generator: charts are parsed at build time) by
# tools/vega/expression.js.
VEGA_BUNDLE = "vega/vega-course.min.js"
VEGA_ABSENT = ("vega-lite", "vega-interpreter", "vega-themes", "d3-geo", "d3-scale-chromatic", "topojson-client",
               "d3-time", "d3-time-format", "vega-time", "d3-dsv", "d3-ease")
VEGA_STAND_INS = {"vega": "vega.js", "vega-expression": "expression.js"}


def bundle_vega() -> None:
    """Our embed (tools/vega/embed.js) over our trimmed Vega, minified into one script that sets window.vegaEmbed."""
    esbuild = NM / ".bin" / "esbuild"
    if not esbuild.exists():
        raise SystemExit("node_modules/.bin/esbuild is missing: run `npm ci` (package.json pins it; make assets does)")
    tmp = ROOT / "build" / "vega-course.min.js"
    tmp.parent.mkdir(parents=True, exist_ok=True)
    aliases = ([f"--alias:{m}=./tools/vega/{f}" for m, f in VEGA_STAND_INS.items()]
               + [f"--alias:{m}=./tools/vega/absent.js" for m in VEGA_ABSENT])
    subprocess.run([str(esbuild), "tools/vega/entry.js", "--bundle", "--minify", "--format=iife",
                    "--log-level=warning", f"--outfile={tmp}", *aliases], cwd=ROOT, check=True)
    copy(tmp, OUT / VEGA_BUNDLE)
    for old in (OUT / "vega").iterdir():  # earlier copies (vega.min.js, vega-embed.min.js) would ship too
        if old.name != Path(VEGA_BUNDLE).name:
            old.unlink()


def main() -> int:
    if not NM.is_dir():
        print("node_modules/ is missing: run `npm ci` first (make assets does)", file=sys.stderr)
        return 1
    bundle_vega()
    # the offline build's web-worker shim for file:// (Material names a CDN copy unless given ours)
    copy(NM / "iframe-worker/shim/index.js", OUT / "iframe-worker/shim.js")
    # formulas are MathML (course_build/katex.py): one math font, cut to the formulas' characters after the build
    copy(NM / "@fontsource/stix-two-math/files/stix-two-math-latin-400-normal.woff2", OUT / "math/STIXTwoMath-Regular.woff2")
    for gone in (OUT / "katex",):   # KaTeX's HTML output needed its stylesheet and fonts; MathML does not
        if gone.is_dir():
            shutil.rmtree(gone)
    for w in VAZIR_WEIGHTS:
        subset(NM / f"vazirmatn/fonts/ttf/Vazirmatn-{w}.ttf", OUT / f"vazirmatn/Vazirmatn-{w}.woff2")
    for name in ("DejaVuSans", "DejaVuSans-Bold"):
        subset(NM / f"dejavu-fonts-ttf/ttf/{name}.ttf", OUT / f"dejavu/{name}.woff2", UNICODES_CYRILLIC)
    copy(NM / "axe-core/axe.min.js", ROOT / "build" / "axe.min.js")  # tests only, never shipped
    print(f"assets: vendor files in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
