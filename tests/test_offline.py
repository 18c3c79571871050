"""The offline archive works as a reader uses it: unzipped, opened from disk, no network at all."""
import zipfile
from pathlib import Path

import pytest

from conftest import LANGS, pages, RENDERED



@pytest.fixture(scope="module")
def unzipped(site_dir, tmp_path_factory) -> Path:
    archive = site_dir / "downloads" / "attention-course-offline.zip"
    assert archive.exists(), "make site should put the offline archive in site/downloads/"
    dest = tmp_path_factory.mktemp("offline")
    with zipfile.ZipFile(archive) as z:
        z.extractall(dest)
    return dest / "attention-course"


def test_archive_holds_the_course_only(site_dir):
    """No earlier archive or PDF inside (each build would nest the previous one), no source maps."""
    with zipfile.ZipFile(site_dir / "downloads" / "attention-course-offline.zip") as z:
        names = z.namelist()
    assert not [n for n in names if "/downloads/" in n or n.endswith((".zip", ".pdf", ".map"))]
    assert "attention-course/index.html" in names and "attention-course/fa/index.html" in names


@pytest.fixture(scope="module")
def ctx(browser):
    c = browser.new_context(viewport={"width": 1280, "height": 900})
    blocked = []
    c.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file://") else (blocked.append(r.request.url), r.abort()))
    c.blocked = blocked
    yield c
    c.close()


def local(unzipped, lang, page):
    folder = unzipped if lang == "uk" else unzipped / lang
    return (folder / f"{page}.html").as_uri()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", pages())
def test_page_works_from_disk(ctx, unzipped, lang, page):
    p = ctx.new_page()
    errors = []
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(local(unzipped, lang, page))
    p.wait_for_function(RENDERED, timeout=20000)
    p.wait_for_timeout(300)
    assert not errors, f"{lang}/{page} from disk: console errors {errors}"
    assert not ctx.blocked, f"requests that tried to leave the disk: {ctx.blocked}"
    assert p.locator(".chart-view svg.marks").count() == p.locator(".chart-view").count()
    if p.locator(".math").count():
        assert p.locator(".math .katex").count() == p.locator(".math").count()
    if lang == "fa":
        assert p.evaluate("getComputedStyle(document.body).direction") == "rtl"
        assert p.evaluate("document.fonts.check('16px Vazirmatn')")
    p.close()


def test_language_switch_from_disk(ctx, unzipped):
    p = ctx.new_page()
    p.goto(local(unzipped, "uk", "self-attention"))
    href = p.locator("a[hreflang='fa']").first.get_attribute("href")
    p.goto(p.url.rsplit("/", 1)[0] + "/" + href)
    assert p.url.endswith("fa/self-attention.html"), p.url
    assert p.evaluate("document.documentElement.lang") == "fa"
    p.close()


@pytest.mark.parametrize("lang,word", [("uk", "увага"), ("fa", "توجه")])
def test_search_from_disk(ctx, unzipped, lang, word):
    p = ctx.new_page()
    p.goto(local(unzipped, lang, "index"))
    p.locator("label.md-header__button[for='__search']").first.click() if p.locator(".md-search__input").is_hidden() else None
    box = p.locator(".md-search__input")
    box.fill(word)
    box.press("End")
    p.wait_for_function("document.querySelectorAll('.md-search-result__item').length > 0", timeout=15000)
    assert p.locator(".md-search-result__item").count() > 0
    p.close()
