"""The code a lesson shows its readers (scripts/snippets/*.py) speaks the page's language in its comments,
and stays one runnable file (tests/test_ca_claims.py runs it and checks what it prints)."""
import html
import io
import re
import tokenize

import pytest

from conftest import LANGS, LESSON_PAGES, ROOT
from scripts.common import course
from scripts.common.i18n import strings

SNIPPETS = sorted((ROOT / "scripts" / "snippets").glob("*.py"))


def comments(path):
    toks = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    return [t.string.lstrip("#").strip() for t in toks if t.type == tokenize.COMMENT]


def shown_on(lang):
    """(page, snippet) for every snippet a page of `lang` includes."""
    for page in LESSON_PAGES:
        text = course.source(lang, page).read_text(encoding="utf-8")
        for rel in re.findall(r'--8<-- "(scripts/snippets/[\w/]+\.py)"', text):
            yield page, ROOT / rel


@pytest.mark.parametrize("lang", LANGS)
def test_every_snippet_comment_has_the_languages_words(lang):
    words = strings(lang)["ui"]["code_comments"]
    missing = [(p.name, c) for p in SNIPPETS for c in comments(p) if c not in words]
    assert not missing, f"scripts/i18n/{lang}/site.yml ui.code_comments lacks {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_shows_the_snippet_with_the_languages_comments(site_dir, lang):
    words = strings(lang)["ui"]["code_comments"]
    shown = list(shown_on(lang))
    assert shown, f"{lang}: no lesson includes a snippet"
    for page, path in shown:
        page_html = html.unescape((site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8"))
        for c in comments(path):
            assert f"# {words[c]}" in page_html, f"{lang}/{page}: «{words[c]}» not shown in {path.name}"
            if words[c] != c:
                assert f"# {c}" not in page_html, f"{lang}/{page}: the file's own comment «{c}» is still shown"
