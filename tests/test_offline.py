"""The offline archive works as a reader uses it: unzipped, opened from disk, no network at all."""
import zipfile

import pytest

from conftest import CHART_PAGES, LANGS, local_url, open_page, pages
from scripts.common import course


def test_archive_holds_the_course_only(site_dir):
    """No earlier archive or PDF inside (each build would nest the previous one), no source maps."""
    from conftest import archive
    with zipfile.ZipFile(archive(site_dir)) as z:
        names = z.namelist()
    assert not [n for n in names if "/downloads/" in n or n.endswith((".zip", ".pdf", ".map"))]
    assert "attention-course/index.html" in names and "attention-course/fa/index.html" in names


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", pages())
def test_page_works_from_disk(context, offline_copy, lang, page):
    p = open_page(context, offline_copy, lang, page, only_this_site=True, timeout=20000)
    p.wait_for_timeout(300)
    assert not p.errors, f"{lang}/{page} from disk: console errors {p.errors}"
    assert not p.outside, f"requests that tried to leave the disk: {p.outside}"
    assert p.locator(".chart-view :is(svg, canvas).marks").count() == p.locator(".chart-view").count()
    if p.locator(".math").count():
        assert p.locator(".math .katex").count() == p.locator(".math").count()
    if lang == "fa":
        assert p.evaluate("getComputedStyle(document.body).direction") == "rtl"
        assert p.evaluate("document.fonts.check('16px Vazirmatn')")
    p.close()


def disk_only(context):
    """A page that can reach nothing but the disk (requests elsewhere are aborted)."""
    p = context.new_page()
    p.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file://") else r.abort())
    return p


def test_language_switch_from_disk(context, offline_copy):
    p = disk_only(context)
    first, other = course.languages()[0].code, course.languages()[-1].code
    page = CHART_PAGES[0]   # a section page, two folders down in the other language
    p.goto(local_url(offline_copy, first, page))
    href = p.locator(f"a[hreflang='{other}']").first.get_attribute("href")
    p.goto(p.url.rsplit("/", 1)[0] + "/" + href)
    assert p.url.endswith(course.offline_path(other, page)), p.url
    assert p.evaluate("document.documentElement.lang") == other
    p.close()


@pytest.mark.parametrize("lang,word", [("uk", "увага"), ("fa", "توجه")])
def test_search_from_disk(context, offline_copy, lang, word):
    p = disk_only(context)
    p.goto(local_url(offline_copy, lang, "index"))
    p.locator("label.md-header__button[for='__search']").first.click() if p.locator(".md-search__input").is_hidden() else None
    box = p.locator(".md-search__input")
    box.fill(word)
    box.press("End")
    p.wait_for_function("document.querySelectorAll('.md-search-result__item').length > 0", timeout=15000)
    assert p.locator(".md-search-result__item").count() > 0
    p.close()
