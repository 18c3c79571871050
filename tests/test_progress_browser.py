"""Progress kept between visits (issue 25, item 6), in Debian's chromium, served and from the offline copy:
an exercise answered right is still marked solved after a reload, every language's overview of its chapter
counts it («n із m», Persian digits on Persian pages), the forget button clears it, and nothing of it prints."""
import re

import pytest

from scripts.common import course, numfmt
from scripts.common.i18n import strings
from conftest import data, LANGS, open_page, page_citing, SCROLL_NEAR

DATA = data("exercises")
KEY = "attention-course.solved"
EXERCISE = "sa_weight_t4"


def words(lang):
    return strings(lang)["ui"]["progress"]


def checked_in(chapter):
    """The exercises the chapter's sections check (derivations have nothing to remember), from the pages' sources."""
    lang = course.default_language().code
    ids = [i for page in course.sections(chapter)
           for i in re.findall(r"^\{\{\s*exercise:\s*(\S+)\s*\}\}", course.source(lang, page).read_text(encoding="utf-8"), re.M)]
    return [i for i in ids if DATA[i]["kind"] != "derivation"]


def expected(lang, n, m):
    return words(lang)["count"].format(n=numfmt.fmt(n, "d", lang), m=numfmt.fmt(m, "d", lang))


@pytest.fixture(params=["online", "offline"])
def where(request, base_url, offline_copy):
    return base_url if request.param == "online" else offline_copy


@pytest.fixture
def fresh(browser):
    """A new browser context: nothing remembered yet."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


def ready(p):
    p.wait_for_function("window.courseExercises")
    return p


def solve(p, ex_id):
    """Answer the exercise right, as a reader does (the box comes as the exercise nears the screen)."""
    root = p.locator(f"#exercise-{ex_id}")
    root.evaluate(SCROLL_NEAR)
    box = root.locator("input[type=text]")
    box.fill(f"{DATA[ex_id]['answer']:.{DATA[ex_id]['decimals']}f}")
    box.press("Enter")
    p.wait_for_function("(el) => el.classList.contains('exercise-feedback--right')",
                        arg=root.locator(".exercise-feedback").element_handle())


def badge(p, ex_id):
    root = p.locator(f"#exercise-{ex_id}")
    root.evaluate(SCROLL_NEAR)
    return root.get_attribute("data-solved"), root.locator(".exercise-title .exercise-solved").all_inner_texts()


def count(p):
    box = p.locator(".chapter-progress")
    box.evaluate(SCROLL_NEAR)
    assert box.is_visible(), "the chapter's progress shows once the script filled it"
    return box.locator(".chapter-progress__count").inner_text().strip()


def errors(p):
    return [e for e in p.errors if "sitemap" not in e]


@pytest.mark.parametrize("lang", LANGS)
def test_solved_exercise_is_kept_counted_in_every_language_and_forgotten(fresh, where, lang):
    page = page_citing(f"exercise: {EXERCISE}")
    chapter = course.chapter_of(page)
    m = len(checked_in(chapter))
    assert EXERCISE in checked_in(chapter) and m > 1
    p = ready(open_page(fresh, where, lang, page, charts=False))
    assert badge(p, EXERCISE) == (None, [])
    solve(p, EXERCISE)
    assert badge(p, EXERCISE) == ("true", [words(lang)["solved"]])
    assert p.evaluate(f"JSON.parse(localStorage.getItem('{KEY}'))") == [EXERCISE]
    # a reload: still solved
    p.reload()
    ready(p)
    assert badge(p, EXERCISE) == ("true", [words(lang)["solved"]]), "the solved exercise is remembered across a reload"
    assert not errors(p), errors(p)
    p.close()
    # the chapter's overview counts it, in every language (the ids are the same in each)
    for other in LANGS:
        o = ready(open_page(fresh, where, other, chapter, charts=False))
        assert count(o) == expected(other, 1, m)
        if other == "fa":
            assert not re.search(r"[0-9]", count(o)) and "۱" in count(o), count(o)
        assert not errors(o), errors(o)
        o.close()
    # one button forgets: the count drops to nothing solved, the storage is empty, the exercise is unmarked
    o = ready(open_page(fresh, where, lang, chapter, charts=False))
    forget = o.locator(".chapter-progress__forget")
    assert forget.inner_text().strip() == words(lang)["forget"]
    forget.click()
    assert count(o) == expected(lang, 0, m)
    assert o.evaluate(f"localStorage.getItem('{KEY}')") is None
    o.reload()
    ready(o)
    assert count(o) == expected(lang, 0, m)
    o.close()
    p = ready(open_page(fresh, where, lang, page, charts=False))
    assert badge(p, EXERCISE) == (None, [])
    p.close()


@pytest.mark.parametrize("lang", LANGS)
def test_progress_does_not_print(fresh, base_url, lang):
    chapter = course.chapter_of(page_citing(f"exercise: {EXERCISE}"))
    o = ready(open_page(fresh, base_url, lang, chapter, charts=False))
    assert count(o) == expected(lang, 0, len(checked_in(chapter)))
    o.emulate_media(media="print")
    assert o.locator(".chapter-progress").is_hidden(), "paper shows no progress of this browser"
    o.close()


def test_progress_is_on_each_overview_with_exercises_and_out_of_search(site_dir):
    """Each chapter whose sections check exercises shows the progress box on its overview (m in the page's
    digits), and the box's words stay out of the search index (data-search-exclude): it is no lesson text."""
    import html
    for lang in LANGS:
        for chapter in course.lessons():
            page = (site_dir / course.page_path(lang, chapter).lstrip("/")).joinpath("index.html")
            built = html.unescape(page.read_text(encoding="utf-8"))
            m = len(checked_in(chapter))
            assert ('class="chapter-progress"' in built) == (m > 0), f"{lang}/{chapter}"
            if m:
                assert expected(lang, 0, m).replace(numfmt.fmt(0, "d", lang), "{n}", 1) in built
        for index in site_dir.rglob("search_index.json"):
            text = index.read_text(encoding="utf-8")
            assert words(lang)["forget"] not in text and words(lang)["where"] not in text, index
