"""Copy the pinned front-end files from node_modules/ into overrides/assets/vendor/ (git-ignored).

Nothing is fetched at run time: the site ships these copies. KaTeX's stylesheet is trimmed to its
woff2 fonts (every browser we target reads woff2), and only the Vazirmatn weights we use are kept.
"""
import re
import shutil
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


def main() -> int:
    if not NM.is_dir():
        print("node_modules/ is missing: run `npm ci` first (make assets does)", file=sys.stderr)
        return 1
    copy(NM / "vega/build/vega.min.js", OUT / "vega/vega.min.js")
    copy(NM / "vega-embed/build/vega-embed.min.js", OUT / "vega/vega-embed.min.js")
    # the offline build's web-worker shim for file:// (Material names a CDN copy unless given ours)
    copy(NM / "iframe-worker/shim/index.js", OUT / "iframe-worker/shim.js")
    css = (NM / "katex/dist/katex.min.css").read_text(encoding="utf-8")
    # keep only the woff2 source of each @font-face
    css = re.sub(r',url\(fonts/[^)]+\.woff\) format\("woff"\)', "", css)
    css = re.sub(r',url\(fonts/[^)]+\.ttf\) format\("truetype"\)', "", css)
    (OUT / "katex").mkdir(parents=True, exist_ok=True)
    if "format(\"woff\")" in css or ".ttf" in css:
        raise SystemExit("KaTeX CSS layout changed: update the woff2-only trimming in tools/vendor_assets.py")
    (OUT / "katex/katex.min.css").write_text(css, encoding="utf-8")
    for font in (NM / "katex/dist/fonts").glob("*.woff2"):
        copy(font, OUT / "katex/fonts" / font.name)
    for w in VAZIR_WEIGHTS:
        copy(NM / f"vazirmatn/fonts/webfonts/Vazirmatn-{w}.woff2", OUT / f"vazirmatn/Vazirmatn-{w}.woff2")
    copy(NM / "axe-core/axe.min.js", ROOT / "build" / "axe.min.js")  # tests only, never shipped
    print(f"assets: vendor files in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
