"""A chart-only font (hooks/chart_fonts.py) is served as a subset that still draws every chart character
with the pinned font's own glyphs and advances (so live charts measure text as the static SVG did)."""
import io

import pytest
from fontTools.ttLib import TTFont

from conftest import LESSONS, open_page
from hooks import chart_fonts
from scripts.common import course, fonts

FAMILIES = chart_fonts.chart_only_families()
CHART_ONLY_LANGS = [l.code for l in course.languages() if l.font["chart"] in FAMILIES]


def served(site_dir, family: str) -> dict[str, TTFont]:
    out = {}
    for ttf in fonts.files(family):
        found = list((site_dir / "assets" / "vendor").glob(f"*/{ttf.stem}.woff2"))
        if found:
            out[ttf.name] = TTFont(io.BytesIO(found[0].read_bytes()))
    return out


def test_some_chart_font_is_chart_only():
    assert FAMILIES, "no language draws charts with a font its pages do not use: nothing to subset"


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_subset_covers_the_charts_with_the_pinned_glyphs(site_dir, family):
    faces = served(site_dir, family)
    assert faces, f"{family}: no face served under site/assets/vendor/"
    for name, small in faces.items():
        full = TTFont(str(fonts.folder(family) / name))
        full_cmap, cmap = full.getBestCmap(), small.getBestCmap()
        want = {ord(c) for c in FAMILIES[family]} & set(full_cmap)
        assert not want - set(cmap), f"{name}: the served subset lacks {sorted(chr(c) for c in want - set(cmap))}"
        assert len(cmap) < len(full_cmap) / 4, f"{name}: {len(cmap)} of {len(full_cmap)} characters: not a subset"
        wide, narrow = full["hmtx"].metrics, small["hmtx"].metrics
        changed = [chr(c) for c in want if wide[full_cmap[c]][0] != narrow[cmap[c]][0]]
        assert not changed, f"{name}: advances differ from the pinned font for {changed[:10]}"


@pytest.mark.parametrize("lang", CHART_ONLY_LANGS)
@pytest.mark.parametrize("lesson", LESSONS)
def test_every_drawn_chart_character_is_in_the_served_font(browser, base_url, site_dir, lang, lesson):
    family = course.language(lang).font["chart"]
    faces = served(site_dir, family)
    full = TTFont(str(fonts.files(family)[0])).getBestCmap()
    covered = set.intersection(*(set(f.getBestCmap()) for f in faces.values()))
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    p = open_page(ctx, base_url, lang, lesson)
    drawn = p.evaluate("[...document.querySelectorAll('.chart-view svg text')].map(t => t.textContent).join('')")
    ctx.close()
    assert drawn, f"{lang}/{lesson}: no chart text drawn"
    missing = sorted({c for c in drawn if ord(c) in full and ord(c) not in covered})
    assert not missing, f"{lang}/{lesson}: charts draw {missing} that the served {family} subset lacks"
