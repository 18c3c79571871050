"""The theme's own strings read as the page's language (issue 24): each heading's ¶ link is titled in the
page's language (course_build/chrome.py, `ui.permalink`), never Markdown's English «Permanent link», and the theme's
words are the course's (overrides/partials/languages/<lang>.html: spelling, the reader addressed as the
lessons do, digits in the language's numerals)."""
import re

import pytest

from conftest import LANGS
from scripts.common import course
from scripts.common.i18n import strings


def built_pages(site_dir, lang: str):
    for page in course.pages():
        yield page, (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_heading_links_are_titled_in_the_pages_language(site_dir, lang):
    want = strings(lang)["ui"]["permalink"]
    for page, html in built_pages(site_dir, lang):
        assert "Permanent link" not in html, f"{lang}/{page}"
        titles = set(re.findall(r'<a class="headerlink" href="#[^"]*" title="([^"]*)"', html))
        assert titles <= {want}, f"{lang}/{page}: {titles}"


@pytest.mark.parametrize("lang", LANGS)
def test_theme_strings_hold_no_other_digits(lang):
    """A digit typed into the theme's strings is the language's own (Material's Persian file has «1 سند»)."""
    numerals = course.language(lang).numerals
    text = (course.ROOT / "overrides" / "partials" / "languages" / f"{lang}.html").read_text(encoding="utf-8")
    body = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
    digits = set(re.findall(r"\d", "".join(re.findall(r':\s*"([^"]*)"', body))))
    assert digits <= set(numerals), f"{lang}.html: digits {sorted(digits - set(numerals))} are not {numerals}"
