"""A chart-only font (course_build/chart_fonts.py) is served as a subset that still draws every chart character
with the pinned font's own glyphs and advances (so live charts measure text as the static SVG did)."""
import html
import io
import json
import re

import pytest
from fontTools.ttLib import TTFont

from conftest import open_page, SVG_CHART_PAGES
from course_build import chart_fonts
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
@pytest.mark.parametrize("lesson", SVG_CHART_PAGES)  # the text an SVG chart draws (a canvas keeps no text to read)
def test_every_drawn_chart_character_is_in_the_served_font(sized, base_url, site_dir, lang, lesson):
    family = course.language(lang).font["chart"]
    faces = served(site_dir, family)
    full = TTFont(str(fonts.files(family)[0])).getBestCmap()
    covered = set.intersection(*(set(f.getBestCmap()) for f in faces.values()))
    p = open_page(sized(1280), base_url, lang, lesson)
    drawn = p.evaluate("[...document.querySelectorAll('.chart-view svg text')].map(t => t.textContent).join('')")
    p.close()
    assert drawn, f"{lang}/{lesson}: no chart text drawn"
    missing = sorted({c for c in drawn if ord(c) in full and ord(c) not in covered})
    assert not missing, f"{lang}/{lesson}: charts draw {missing} that the served {family} subset lacks"


PAGE_FAMILIES = chart_fonts.page_families()
SHOWN = re.compile(r'<(script|style)\b.*?</\1>|<[^>]*?\b(?:title|alt|placeholder|aria-label|data-tip)="([^"]*)"[^>]*>|<[^>]*>', re.S)


def shown_text(page_html: str) -> str:
    """What a page shows: its text and the attributes a reader sees (tooltips, placeholders, labels)."""
    return html.unescape(SHOWN.sub(lambda m: " " + (m.group(2) or "") + " ", page_html))


def test_some_page_font_is_pinned():
    assert PAGE_FAMILIES, "no language sets its pages in a pinned family: nothing to cut to the pages"


@pytest.mark.parametrize("family", sorted(PAGE_FAMILIES))
def test_page_font_subset_shows_every_page(site_dir, family):
    """The served page font is a cut (course_build/chart_fonts.py) that still has every character the pages of
    its languages show, with the pinned font's advances."""
    faces = served(site_dir, family)
    assert faces, f"{family}: no face served under site/assets/vendor/"
    for name, small in faces.items():
        full = TTFont(str(fonts.folder(family) / name))
        full_cmap, cmap = full.getBestCmap(), small.getBestCmap()
        assert len(cmap) < len(full_cmap) / 2, f"{name}: {len(cmap)} of {len(full_cmap)} characters: not cut to the pages"
        # the pages, and the exercise solutions they load when opened (course_build/exercise_solutions.py)
        solutions = {f"solutions/{js.stem}": "".join(json.loads(js.read_text(encoding="utf-8")[len("courseSolutions.define("):-3]).values())
                     for js in sorted((site_dir / "assets" / "solutions").glob("*.js"))}
        assert solutions, "no solution scripts under site/assets/solutions/"
        for lang in PAGE_FAMILIES[family]:
            pages = {f"{lang}/{page}": (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")
                     for page in course.pages()}
            for page, source in {**pages, **solutions}.items():
                shown = shown_text(source)
                lacking = sorted({c for c in shown if ord(c) in full_cmap and ord(c) not in cmap})
                assert not lacking, f"{page}: the served {name} lacks {lacking}"
                wide, narrow = full["hmtx"].metrics, small["hmtx"].metrics
                changed = sorted({c for c in shown if ord(c) in cmap and wide[full_cmap[ord(c)]][0] != narrow[cmap[ord(c)]][0]})
                assert not changed, f"{name}: advances differ from the pinned font for {changed[:10]}"


CSS_FEATURES = {"tabular-nums": "tnum", "oldstyle-nums": "onum", "lining-nums": "lnum", "small-caps": "smcp",
                "slashed-zero": "zero", "diagonal-fractions": "frac"}


def asked_features(site_dir) -> set[str]:
    """OpenType features the site's stylesheets ask for (font-variant keywords, font-feature-settings)."""
    css = "".join(p.read_text(encoding="utf-8") for p in sorted(site_dir.glob("assets/**/*.css")))
    out = {tag for word, tag in CSS_FEATURES.items() if word in css}
    for settings in re.findall(r"font-feature-settings:([^;}]*)", css):
        out.update(re.findall(r'"(\w{4})"', settings))
    return out


@pytest.mark.parametrize("family", sorted(set(PAGE_FAMILIES) | set(FAMILIES)))
def test_served_font_keeps_the_features_the_css_asks_for(site_dir, family):
    """Every cut font (page or chart-only) keeps the shaping features and those the stylesheets ask for."""
    asked = asked_features(site_dir)
    assert "tnum" in asked, "course.css asks for tabular-nums (tables): the check reads the stylesheets"
    tags = lambda font: {r.FeatureTag for t in ("GSUB", "GPOS") if t in font for r in font[t].table.FeatureList.FeatureRecord}  # noqa: E731
    for name, small in served(site_dir, family).items():
        full = TTFont(str(fonts.folder(family) / name))
        lost = (asked & tags(full)) - tags(small)
        assert not lost, f"{name}: the served cut dropped {sorted(lost)}, which the stylesheets ask for"
        # the features a browser applies by itself that do something for the served characters (a cut
        # keeping every feature keeps them)
        applied = {"init", "medi", "fina", "isol", "rlig", "ccmp", "locl", "calt", "liga", "clig", "curs", "kern", "mark", "mkmk"}
        shaping = applied & tags(all_features_cut(full, small))
        assert shaping <= tags(small), f"{name}: shaping features dropped: {sorted(shaping - tags(small))}"


def all_features_cut(full: TTFont, small: TTFont) -> TTFont:
    """The pinned font cut to the served font's characters, keeping every layout feature."""
    from fontTools import subset
    options = subset.Options(layout_features=["*"], ignore_missing_unicodes=True)
    cut = subset.Subsetter(options)
    cut.populate(unicodes=small.getBestCmap())
    font = TTFont(full.reader.file.name)
    cut.subset(font)
    return font
