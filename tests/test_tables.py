"""Tables numbered per lesson like figures («Табл. 2.» / «جدول ۲.», in the page's digits) in their
caption, on screen and in the printed notes; `{{ tab: <table id> }}` links to a table by its number
(a data table by its data reference or its `#name`; an unknown or ambiguous id fails the build)."""
from __future__ import annotations

import re
from types import SimpleNamespace

import markdown
import pytest
from mkdocs.exceptions import PluginError

from conftest import LANGS, TABLE_PAGES
from scripts.common import course, numfmt
from scripts.common.i18n import strings

CAPTION = re.compile(r'<table id="([\w-]+)"><caption class="table-caption"><span class="tab-num">([^<]*)</span>(?: [^<]*)?</caption>')
FIXTURE = """# Fixture { #fixture }

Scores first, then {{ tab: weights }}; the set-up is in {{ tab: sa_heads/params }}.

: Scores of the four tokens

{{ table: sa_toy/rows | token:s s_t1:d s_t2:d }}

: A table written in the page

| written | in the page |
|---|---|
| a | b |

{{ table: sa_toy/rows | token:s w_t1:.1% #weights }}

{{ table: sa_heads/params | d:d heads:d }}

{{ provenance }}
"""


def render(lang: str, text: str, lesson: bool = True) -> str:
    """A fixture page through course_build/refs.py: Markdown references, Markdown itself, then the page's HTML step."""
    from course_build import refs
    page = SimpleNamespace(file=SimpleNamespace(src_uri=f"{lang}/fixture.md"), meta={"lesson": lesson}, url="fixture/")
    config = {"theme": {"language": lang}}
    md = refs.on_page_markdown(text, page, config, None)
    html = markdown.markdown(md, extensions=["tables", "attr_list", "md_in_html"])
    return refs.on_page_content(html, page, config, None)


def label(lang: str, key: str, n: int) -> str:
    return strings(lang)["ui"][key].format(n=numfmt.fmt(n, "d", lang))


@pytest.mark.parametrize("lang", LANGS)
def test_tables_are_numbered_in_page_order_and_referred_to_by_number(lang):
    out = render(lang, FIXTURE)
    captions = CAPTION.findall(out)
    assert [n for _, n in captions] == [label(lang, "table", i) for i in (1, 2, 3, 4)], \
        "data tables and the table written in the page, numbered in page order"
    ids = [i for i, _ in captions]
    assert len(set(ids)) == 4 and ids[2] == "tab-weights"
    assert f'<a class="tab-ref" href="#tab-weights">{label(lang, "table_ref", 3)}</a>' in out
    assert f'<a class="tab-ref" href="#{ids[3]}">{label(lang, "table_ref", 4)}</a>' in out
    if course.language(lang).numerals[0] != "0":
        assert not re.search(r"[0-9]", "".join(n for _, n in captions))


@pytest.mark.parametrize("lang", LANGS)
def test_a_title_line_above_a_table_is_its_caption(lang):
    """«: title» above a table (or its {{ table: }} line) follows the number in the caption and is not left as a
    paragraph; a table without one keeps the bare number."""
    out = render(lang, FIXTURE)
    one, two = label(lang, "table", 1), label(lang, "table", 2)
    assert f'<span class="tab-num">{one}</span> Scores of the four tokens</caption>' in out
    assert f'<span class="tab-num">{two}</span> A table written in the page</caption>' in out
    assert f'<span class="tab-num">{label(lang, "table", 3)}</span></caption>' in out
    assert "<p>: " not in out


@pytest.mark.parametrize("lang", LANGS)
def test_tables_outside_lessons_keep_no_number(lang):
    out = render(lang, FIXTURE.replace("Scores first, then {{ tab: weights }}; the set-up is in {{ tab: sa_heads/params }}.", ""),
                 lesson=False)
    assert "<table" in out and 'class="table-caption"' not in out


@pytest.mark.parametrize("bad,match", [
    ("{{ tab: no_such_table }}", "names no table"),
    ("{{ tab: sa_toy/rows }}", "names 2 tables"),           # the same rows twice, one unnamed: name them
])
def test_unknown_or_ambiguous_table_reference_fails(bad, match):
    text = FIXTURE.replace(" #weights", "").replace("{{ tab: weights }}", bad)
    with pytest.raises(PluginError, match=match):
        render(LANGS[0], text)


def test_table_reference_outside_a_lesson_fails():
    with pytest.raises(PluginError, match="lessons only"):
        render(LANGS[0], FIXTURE, lesson=False)


def test_a_table_name_is_one_word():
    with pytest.raises(PluginError, match="at most one name"):
        render(LANGS[0], FIXTURE.replace("#weights", "#weights #again"))


# ── the built site and the printed notes ──────────────────────────────────────────────────────────
def html_of(site_dir, lang, page):
    return (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lesson", TABLE_PAGES)
def test_every_lesson_table_is_numbered_alike_in_every_language(site_dir, lesson):
    """Each language numbers the same tables (same ids, in the same order) 1…N in its own digits; a
    chart's data table belongs to its figure and is not counted."""
    seen = {}
    for lang in LANGS:
        html = html_of(site_dir, lang, lesson)
        from course_build.refs import before_provenance
        body = before_provenance(html)
        tables = len(re.findall(r"<table[ >]", body)) - body.count('<table data-source="')
        captions = CAPTION.findall(body)
        assert len(captions) == tables, f"{lang}/{lesson}: {tables} tables, {len(captions)} numbered"
        assert [n for _, n in captions] == [label(lang, "table", i) for i in range(1, tables + 1)]
        seen[lang] = [i for i, _ in captions]
    assert len({tuple(v) for v in seen.values()}) == 1, f"{lesson}: the languages number different tables: {seen}"


@pytest.mark.parametrize("lang", LANGS)
def test_printed_notes_keep_the_table_numbers(site_dir, lang):
    import subprocess
    from conftest import printed
    pdf = printed(site_dir, lang)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    # pdftotext writes right-to-left lines with bidi controls, the full stop moved to the line's visual end
    plain = lambda s: re.sub(r"\s+", " ", re.sub(r"[\u202a-\u202e\u2066-\u2069.]", "", s))  # noqa: E731
    squashed = plain(text)
    for lesson in TABLE_PAGES:
        n = len(CAPTION.findall(html_of(site_dir, lang, lesson)))
        for i in (1, n):
            want = plain(label(lang, "table", i)).strip()
            assert re.search(re.escape(want) + r"(?!\d)", squashed), f"{lang} PDF: no «{want}»"
