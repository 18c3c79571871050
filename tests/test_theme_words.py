"""Theme words, chart words and code listings in the page's language (issue 24, untranslated or mixed).

- Every string of Material's that a page shows is the project's (overrides/partials/languages/<lang>.html),
  never Material's stock one: in the page's chrome and in the strings its script reads (the __config JSON);
  the contents' title is the PDF's (`ui.print.contents`).
- The counts Material's script writes into «# …» are in the language's digits (a Persian page said «3 نتیجه»).
- No page anywhere in the site says «Permanent link».
- A chart's or table's words use the glossary's term, not the English one («softmax» on a Persian chart).
- Each experiment's code listing, kept as code, is introduced in the page's language (`ui.provenance.listing`).
- Words the editors retired stay retired (RETIRED, by language).
"""
import html
import json
import re

import pytest

from conftest import LANGS, open_page
from course_build import refs
from scripts.charts._render import _nodes
from scripts.common import course
from scripts.common.i18n import strings

PARTIAL_ENTRY = re.compile(r'^\s*"([\w.]+)": "((?:[^"\\]|\\.)*)",?$', re.M)

# words native editors struck out (issue 24), per language: the page, the theme and the strings must not say them
RETIRED = {
    "uk": ["Пошук розпочато", "Не знайдено запиту", "Перейти до змісту", "Хедер", "Футер", "хвилин",
           "Розпочніть писати"],
    "fa": ["خودت را بسنج", "فهرست موضوعات", "جستجو", "سند یافت"],
}


def partial(path) -> dict[str, str]:
    text = re.sub(r"\{#.*?#\}", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {k: json.loads(f'"{v}"') for k, v in PARTIAL_ENTRY.findall(text)}


def ours(lang: str) -> dict[str, str]:
    return partial(course.ROOT / "overrides" / "partials" / "languages" / f"{lang}.html")


def stock(lang: str) -> dict[str, str]:
    import material
    from pathlib import Path
    return partial(Path(material.__file__).parent / "templates" / "partials" / "languages" / f"{lang}.html")


def built_pages(site_dir, lang: str):
    for page in course.pages():
        yield page, (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")


def chrome_of(page_html: str) -> str:
    """The page without its lesson text (Material's header, navigation, contents, search, footer)."""
    return re.sub(r'<article class="md-content__inner.*?</article>', "", page_html, flags=re.S)


@pytest.mark.parametrize("lang", LANGS)
def test_materials_strings_on_every_page_are_the_projects(site_dir, lang):
    mine, theirs = ours(lang), stock(lang)
    replaced = {k: v for k, v in theirs.items() if mine.get(k) != v and len(v) > 2 and k not in ("language", "direction")}
    contents = strings(lang)["ui"]["print"]["contents"]
    assert mine["toc"] == contents, f"{lang}.html: the contents are «{mine['toc']}», the PDF's «{contents}»"
    for page, page_html in built_pages(site_dir, lang):
        config = json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>',
                                      page_html, re.S).group(1))
        wrong = {k: v for k, v in config["translations"].items() if mine.get(k) != v}
        assert not wrong, f"{lang}/{page}: the script's strings are not the project's: {wrong}"
        chrome = html.unescape(chrome_of(page_html))
        assert f'placeholder="{mine["search.placeholder"]}"' in chrome, f"{lang}/{page}: search placeholder"
        titles = re.findall(r'<nav class="md-nav md-nav--secondary" aria-label="([^"]*)"', chrome)
        titles += re.findall(r'<label class="md-nav__title" for="__toc">.*?</span>\s*(.*?)\s*</label>', chrome, re.S)
        assert titles and set(titles) == {contents}, f"{lang}/{page}: contents titled {titles}, not «{contents}»"
        stocked = sorted({f"{k}: {v}" for k, v in replaced.items() if v.replace("#", "").strip() in chrome})
        assert not stocked, f"{lang}/{page}: Material's stock strings show: {stocked}"


def test_no_permanent_link_anywhere(site_dir):
    """Every built HTML file (lessons, 404 pages, the search page), in every language."""
    found = [str(f.relative_to(site_dir)) for f in site_dir.rglob("*.html")
             if "Permanent link" in f.read_text(encoding="utf-8")]
    assert not found, f"«Permanent link» in {found}"


@pytest.mark.parametrize("lang", sorted(RETIRED))
def test_retired_words_are_gone(site_dir, lang):
    sources = [course.ROOT / "overrides" / "partials" / "languages" / f"{lang}.html",
               *sorted((course.ROOT / "scripts" / "i18n" / lang).glob("*.yml"))]
    # what the files say to readers: Jinja comments ({# … #}) explain what was replaced and may quote it
    texts = [(str(f.relative_to(course.ROOT)), re.sub(r"\{#.*?#\}", "", f.read_text(encoding="utf-8"), flags=re.S))
             for f in sources]
    texts += [(f"site {lang}/{page}", html.unescape(h)) for page, h in built_pages(site_dir, lang)]
    found = [(where, w) for where, t in texts for w in RETIRED[lang] if w in t]
    assert not found, f"{lang}: retired words still there: {found}"


def test_ukrainian_theme_strings_agree_and_use_the_apostrophe():
    """«# хвилин» is wrong for 2–4 (Material has one and other forms only): a count stands where every number
    reads right; the apostrophe is ʼ (U+02BC) as in the lessons; the reader is «ти»."""
    mine = ours("uk")
    assert not [v for v in mine.values() if "'" in v or "’" in v], "uk.html: a straight or curly apostrophe"
    for key in ("readtime.other", "search.result.other", "search.result.more.other"):
        assert re.search("(: #|#\u00a0хв)$", mine[key]), f"uk.html {key}: «{mine[key]}» agrees with one number only" \
            " (or breaks before «хв»: a no-break space keeps it with its number)"
    assert not re.search(r"\b\w+іть\b", mine["search.result.placeholder"]), mine["search.result.placeholder"]


def _query(lang: str) -> str:
    """A word every language's course says often: the glossary's first term."""
    glossary = (course.ROOT / "docs" / lang / "glossary.md").read_text(encoding="utf-8")
    return re.search(r"^\| (?!-)([^|<]+?) \| <bdi", glossary, re.M).group(1).split()[0]


COUNTS = ".md-search-result__meta, .md-search-result__more > summary > div"


@pytest.mark.parametrize("lang", LANGS)
def test_search_counts_in_the_languages_digits(context, base_url, lang):
    digits = course.language(lang).numerals
    p = open_page(context, base_url, lang, "index")
    box = p.locator("input.md-search__input")
    box.click()
    box.fill(_query(lang))
    box.press("End")
    p.wait_for_function("document.querySelector('.md-search-result__item')", timeout=15000)
    p.wait_for_function("/[0-9\u0660-\u0669\u06f0-\u06f9]/.test(document.querySelector('.md-search-result__meta').textContent)",
                        timeout=15000)
    shown = p.locator(COUNTS).all_inner_texts()
    p.close()
    assert shown and all(re.search(r"\d", s) for s in shown[:1]), shown
    wrong = [s for s in shown if set(re.findall(r"\d", s)) - set(digits)]
    assert not wrong, f"{lang}: counts not in the digits {digits}: {wrong}"


def _flat(x):
    """Every string in a strings file's part, however nested."""
    return [n for n in _nodes(x) if isinstance(n, str)]


@pytest.mark.parametrize("lang", LANGS)
def test_chart_and_table_words_use_the_glossarys_terms(lang):
    """An English term the glossary translates appears in a chart's or table's words only as the gloss after
    the term, «(softmax)»; placeholders ({epoch}) are names, not words."""
    glossary = (course.ROOT / "docs" / lang / "glossary.md").read_text(encoding="utf-8")
    terms = [(t.strip(), en.strip()) for t, en in
             re.findall(r'^\| ([^|]+?) \|.*?<bdi lang="en">([^<]+)</bdi> \|', glossary, re.M)]
    assert len(terms) > 10, f"docs/{lang}/glossary.md: its table was not read"
    said = [s for part in ("charts", "tables") for s in _flat(strings(lang).get(part) or {})]
    found = [(en, s) for term, en in terms if term.lower() != en.lower() for s in said
             if re.search(r"(?<![\w({])" + re.escape(en) + r"(?![\w)}])", s, re.I)]
    assert not found, f"{lang}: English where the glossary has a term: {found}"


@pytest.mark.parametrize("lang", LANGS)
def test_each_listing_is_introduced_in_the_pages_language(lang):
    md = refs.provenance_md(["sa_toy", "exercises"], lang)
    intros = re.findall(r'<p class="listing-intro">(.*?)</p>', md)
    assert len(intros) == 2, md
    for exp, intro in zip(["sa_toy", "exercises"], intros):
        path = refs.provenance.source_file(exp).relative_to(course.ROOT).as_posix()
        want = strings(lang)["ui"]["provenance"]["listing"].format(file=path)
        assert html.unescape(re.sub(r"<[^>]+>", "", intro)) == want
        assert f'<code dir="ltr">{path}</code>' in intro   # the path keeps its own direction in a right-to-left line
    # the intro sits inside the disclosure, before the listing that course_build/code_listings.py moves out
    assert md.index('class="listing-intro"') < md.index("<!-- listing ")


@pytest.mark.parametrize("lang", LANGS)
def test_every_built_listing_has_its_introduction(site_dir, lang):
    want_text = strings(lang)["ui"]["provenance"]["listing"]
    seen = 0
    for page, page_html in built_pages(site_dir, lang):
        for details in re.findall(r'<section class="provenance-entry".*?<details.*?</details>', page_html, re.S):
            seen += 1
            intro = re.search(r'<p class="listing-intro">(.*?)</p>', details, re.S)
            assert intro, f"{lang}/{page}: a code listing without its introduction"
            file = re.search(r'<code dir="ltr">([^<]*)</code>', intro.group(1)).group(1)
            assert html.unescape(re.sub(r"<[^>]+>", "", intro.group(1))) == want_text.format(file=html.unescape(file))
    assert seen > 10, f"{lang}: only {seen} listings found"
