"""Figures numbered per lesson in captions («Рис. 3», «شکل ۳», in the page's digits), `{{ fig: }}`
links to a figure by its number (an unknown id fails the build), and the footer's licence and
plain link to the source repository on every page of both languages."""
import re

import pytest
from mkdocs.exceptions import PluginError

from conftest import CHART_PAGES, LANGS, pages, ROOT
from scripts.common import course, i18n, numfmt

FIG_NUM = re.compile(r'<figcaption id="caption-([\w-]+)"><span class="fig-num">([^<]*)</span>')


def html_of(site_dir, lang, page):
    return (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", CHART_PAGES)
def test_captions_number_figures_in_page_order(site_dir, lang, page):
    html = html_of(site_dir, lang, page)
    charts = re.findall(r'<figure class="chart" id="chart-([\w-]+)"', html)
    numbered = FIG_NUM.findall(html)
    assert charts and [c for c, _ in numbered] == charts, f"{lang}/{page}: every figure's caption starts with its number"
    fmt = i18n.strings(lang)["ui"]["figure"]
    for i, (chart, label) in enumerate(numbered, 1):
        assert label == fmt.format(n=numfmt.fmt(i, "d", lang)), f"{lang}/{page}: {chart} is figure {i}, caption says {label!r}"
        if course.language(lang).numerals[0] != "0":
            assert not re.search(r"[0-9]", label), f"{lang}/{page}: {label!r} not in the page's digits"


def _render(lang, markdown):
    from types import SimpleNamespace
    from course_build import refs
    page = SimpleNamespace(file=SimpleNamespace(src_uri=f"{lang}/x.md"), meta={}, url="x/")
    return refs.on_page_markdown(markdown, page, {"theme": {"language": lang}}, None)


@pytest.mark.parametrize("lang", LANGS)
def test_fig_reference_links_to_its_numbered_figure(lang):
    out = _render(lang, "{{ chart: sa_cost }}\n\n{{ chart: sqrt_scaling }}\n\nSee {{ fig: sqrt_scaling }}.\n\n{{ provenance }}\n")
    want = i18n.strings(lang)["ui"]["figure_ref"].format(n=numfmt.fmt(2, "d", lang))
    assert f'<a class="fig-ref" href="#chart-sqrt_scaling">{want}</a>' in out


@pytest.mark.parametrize("lang", LANGS)
def test_fig_reference_to_an_unknown_figure_fails(lang):
    with pytest.raises(PluginError, match="names no figure"):
        _render(lang, "{{ chart: sa_cost }}\n\n{{ fig: no_such_chart }}\n\n{{ provenance }}\n")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", pages())
def test_footer_has_licence_and_source_link(site_dir, lang, page):
    html = html_of(site_dir, lang, page)
    foot = i18n.strings(lang)["ui"]["footer"]
    assert foot["licence"] in html, f"{lang}/{page}: no licence in the footer"
    m = re.search(r'<a class="course-source" href="([^"]+)">([^<]+)</a>', html)
    assert m and m.group(1).startswith("https://github.com/") and m.group(2) == foot["source"]
    assert "api.github.com" not in html and 'class="md-source"' not in html, "no repo_url (it calls GitHub's API)"
    assert (ROOT / "LICENSE").exists() and (ROOT / "LICENSE-text.md").exists()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", [*pages(), "404"])
def test_header_and_footer_are_named_in_the_pages_language(site_dir, lang, page):
    """The header's and footer's navigation landmarks take the language's own words (site.yml
    ui.landmarks), not Material's («Хедер», «Футер», fa «پاورقی»: a footnote)."""
    html = ((site_dir / course.language(lang).prefix / "404.html").read_text(encoding="utf-8") if page == "404"
            else html_of(site_dir, lang, page))
    names = i18n.strings(lang)["ui"]["landmarks"]
    for part in ("header", "footer"):
        found = re.findall(rf'<nav class="md-{part}__inner md-grid" aria-label="([^"]*)"', html)
        if page == "404" and part == "footer" and not found:
            continue                                   # the 404 page has no previous/next footer
        assert found == [names[part]], f"{lang}/{page}: the {part} is named {found}, not {names[part]!r}"
    assert not {"Хедер", "Футер", "پاورقی", "سرتیتر"} & set(re.findall(r'aria-label="([^"]*)"', html))
