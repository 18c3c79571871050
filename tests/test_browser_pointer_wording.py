"""Issue 25 item 2: a sentence that tells the reader to use a control says hover to a mouse and tap to a finger
(course_build/pointer.py, scripts/i18n/<lang>/pointer.yml): on a touch screen no page shows a hover instruction,
and each such sentence shows its tap wording."""
import re

import pytest

from conftest import LANGS, ROOT, open_page, pages
from scripts.common import course
from scripts.common.i18n import strings

SAY = re.compile(r"\{\{\s*say:\s*([\w-]+)\s*\}\}")


def words(lang: str, key: str) -> list[re.Pattern]:
    return [re.compile(w, re.I) for w in strings(lang)["pointer"][key]]


def instructing_pages() -> list[str]:
    """Pages whose source, in some language, tells the reader to point at something (a hover word), or that
    show a chart whose caption does, or that say something ({{ say: }}): they follow the text when it moves."""
    out = []
    for page in pages():
        for lang in LANGS:
            src = course.source(lang, page).read_text(encoding="utf-8")
            charts = re.findall(r"\{\{\s*chart:\s*([\w-]+)\s*\}\}", src)
            described = " ".join(strings(lang)["charts"].get(c, {}).get("description", "") for c in charts)
            if SAY.search(src) or set(charts) & set(strings(lang)["pointer"].get("charts", {})) or any(
                    w.search(src + " " + described) for w in words(lang, "hover_words")):
                out.append(page)
                break
    return out


PAGES = instructing_pages()
SHOWN = "() => document.querySelector('article').innerText"


@pytest.fixture(scope="module")
def touch(browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    yield ctx
    ctx.close()


def test_some_pages_instruct():
    assert len(PAGES) >= 5, PAGES


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("lang", LANGS)
def test_a_touch_screen_reads_tap_not_hover(touch, base_url, lang, page):
    p = open_page(touch, base_url, lang, page)
    shown = re.sub(r"\s+", " ", p.evaluate(SHOWN))
    p.close()
    hovering = [m.group(0) for w in words(lang, "hover_words") for m in w.finditer(shown)]
    assert not hovering, f"{lang}/{page} tells a finger to hover: {hovering}"
    said = strings(lang)["pointer"]
    src = course.source(lang, page).read_text(encoding="utf-8")
    expected = [said["say"][k].get("tap") for k in SAY.findall(src)]
    charts = re.findall(r"\{\{\s*chart:\s*([\w-]+)\s*\}\}", src)
    expected += [said["charts"][c].get("tap") for c in charts if c in said.get("charts", {})]
    for tap in filter(None, expected):
        wording = re.sub(r"\s+", " ", tap).strip()
        assert wording in shown, f"{lang}/{page}: the tap wording «{wording}» is not shown"
