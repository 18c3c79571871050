"""Exercises in Debian's chromium, both languages, served online and opened from the offline archive:
an answer typed as readers write it (Persian digits and «٫», a decimal comma, a point, a fraction) is
accepted, a wrong one gets the hint, a close one is called close, a choice marks the picked option,
the solution opens by keyboard, and each numeric exercise accepts its own printed answer."""
import pytest

from scripts.common import course
from conftest import data, EXERCISE_PAGES, LANGS, LESSONS, open_page, page_citing, page_url, SCROLL_NEAR
from tools.browser import NEXT_FRAME

DATA = data("exercises")
PERSIAN = str.maketrans("0123456789.", "۰۱۲۳۴۵۶۷۸۹٫")


def ui(lang):
    from scripts.common.i18n import strings
    return strings(lang)["exercises"]["ui"]


@pytest.fixture(scope="module")
def exercise_page(context, base_url, offline_copy):
    """A lesson served ("online") or from the offline copy ("offline"), its exercises ready; opened once
    per module and shared: each test answers its own exercises, and re-answering one is what readers do.
    Its charts draw as scrolling nears them, as for a reader (the exercises need none)."""
    opened = {}

    def get(where, lang, lesson):
        if (where, lang, lesson) not in opened:
            p = open_page(context, base_url if where == "online" else offline_copy, lang, lesson, charts=False)
            p.wait_for_function("window.courseExercises")  # the forms come as their exercises near the screen
            opened[where, lang, lesson] = p
        return opened[where, lang, lesson]
    yield get
    for p in opened.values():
        p.close()


def errors(p):
    """Console errors, but the harmless sitemap request that fails from disk."""
    return [e for e in p.errors if "sitemap" not in e]


def answer(p, ex_id, text):
    """Scroll to the exercise, type an answer and press Enter in the box (keyboard only); return the
    announced verdict. The box comes into the page as its exercise nears the screen (exercises.js)."""
    p.locator(f"#exercise-{ex_id}").evaluate(SCROLL_NEAR)
    box = p.locator(f"#exercise-{ex_id} input[type=text]")
    box.fill(text)
    box.press("Enter")
    live = p.locator(f"#exercise-{ex_id} .exercise-feedback")
    p.wait_for_function("(el) => el.textContent.length > 0", arg=live.element_handle())
    box.blur()  # the page stays open for the module (exercise_page): a focused box would blink its caret till then
    return live.inner_text().strip()


@pytest.fixture(params=["online", "offline"])
def where(request):
    return request.param


@pytest.mark.parametrize("lang", LANGS)
def test_numeric_answer_checked_in_the_page(exercise_page, where, lang):
    ex = "sa_weight_t4"
    p = exercise_page(where, lang, page_citing(f"exercise: {ex}"))
    words = ui(lang)
    assert p.locator(f"#exercise-{ex} .exercise-hint").is_hidden()
    assert p.locator(f"#exercise-{ex} .exercise-feedback").get_attribute("role") == "status"
    # a wrong answer: "not yet", and the hint appears
    assert answer(p, ex, "0.5" if lang == "uk" else "۰٫۵") == words["not_yet_hint"]
    assert p.locator(f"#exercise-{ex} .exercise-hint").is_visible()
    # within the stated tolerance but not right: "close"
    near = f"{DATA[ex]['answer'] + 0.8 * DATA[ex]['close']:.3f}"
    assert answer(p, ex, near) == words["close"]
    right = f"{DATA[ex]['answer']:.3f}"
    if lang == "fa":
        assert answer(p, ex, right.translate(PERSIAN)) == words["right"]          # ۰٫۱۰۶
        assert answer(p, ex, right.replace(".", "٫")) == words["right"]           # 0٫106
        arabic = right.translate(str.maketrans("0123456789.", "٠١٢٣٤٥٦٧٨٩٫"))
        assert answer(p, ex, arabic) == words["right"]                            # ٠٫١٠٦
    else:
        assert answer(p, ex, right.replace(".", ",")) == words["right"]           # 0,106
        assert answer(p, ex, right) == words["right"]                             # 0.106
    # a fraction, thousands separators and a minus sign where the answer needs them
    # (each exercise on the page that shows it: the chapter's sections hold them apart)
    assert not errors(p), errors(p)
    frac = f"{DATA['sa_grad_uniform']['numerator']}/{DATA['sa_grad_uniform']['n']}"
    p = exercise_page(where, lang, page_citing("exercise: sa_grad_uniform"))
    assert answer(p, "sa_grad_uniform", frac.translate(PERSIAN) if lang == "fa" else frac) == words["right"]
    assert not errors(p), errors(p)
    p = exercise_page(where, lang, page_citing("exercise: sa_params"))
    assert answer(p, "sa_params", "37 248" if lang == "uk" else "۳۷٬۲۴۸") == words["right"]
    assert answer(p, "sa_params", "-37248") == words["not_yet_hint"]
    assert answer(p, "sa_params", "abc") == words["unreadable"]
    assert not errors(p), errors(p)


@pytest.mark.parametrize("lang", LANGS)
def test_choice_marks_the_option_and_solution_opens_by_keyboard(exercise_page, where, lang):
    ex = "ca_mask_choice"
    p = exercise_page(where, lang, page_citing(f"exercise: {ex}"))
    words = ui(lang)
    root = p.locator(f"#exercise-{ex}")
    root.evaluate(SCROLL_NEAR)  # its form comes as it nears the screen
    wrong = next(o for o in DATA[ex]["options"] if o != DATA[ex]["answer"])
    root.locator(f"input[value={wrong}]").check()
    root.locator("button[type=submit]").press("Enter")
    p.wait_for_function("(el) => el.textContent.length > 0", arg=root.locator(".exercise-feedback").element_handle())
    assert root.locator(".exercise-option--wrong input").get_attribute("value") == wrong
    assert root.locator(".exercise-hint").is_visible()
    # keyboard only: focus the right radio, space selects it, Enter on the button checks
    root.locator(f"input[value={DATA[ex]['answer']}]").focus()
    p.keyboard.press("Space")
    root.locator("button[type=submit]").focus()
    p.keyboard.press("Enter")
    p.wait_for_function("(el) => el.classList.contains('exercise-feedback--right')",
                        arg=root.locator(".exercise-feedback").element_handle())
    assert root.locator(".exercise-option--right input").get_attribute("value") == DATA[ex]["answer"]
    assert root.locator(".exercise-option--wrong").count() == 0
    root.evaluate(SCROLL_NEAR)  # innerText reads the layout: the block must have been laid out on screen
    assert root.locator(".exercise-feedback").inner_text().strip() == words["right"]
    # the worked solution: closed, then opened from the keyboard
    summary = root.locator("details.exercise-solution > summary")
    assert root.locator("details.exercise-solution").evaluate("d => d.open") is False
    summary.focus()
    p.keyboard.press("Enter")
    assert root.locator("details.exercise-solution").evaluate("d => d.open") is True
    root.locator(".exercise-answer").wait_for(state="visible")  # online it loads as the solution opens
    assert not errors(p), errors(p)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson", LESSONS)
def test_every_numeric_exercise_accepts_its_printed_answer(exercise_page, lang, lesson):
    """The number the solution prints (the language's digits and separators) reads back as right, on every
    page of the chapter."""
    for page in (lesson, *course.sections(lesson)):
        if page not in EXERCISE_PAGES:
            continue
        p = exercise_page("online", lang, page)
        ids = p.eval_on_selector_all(".exercise[data-kind=number]", "els => els.map(e => e.id.replace('exercise-', ''))")
        for ex in ids:
            solution = p.locator(f"#exercise-{ex} details.exercise-solution")
            solution.evaluate(SCROLL_NEAR)  # laid out first: a click at a skipped block's place lands on the block
            if not solution.evaluate("d => d.open"):
                solution.locator("summary").click()  # its body loads as it opens (course_build/exercise_solutions.py)
            printed = p.locator(f"#exercise-{ex} .exercise-answer .num").evaluate("e => e.textContent")
            assert answer(p, ex, printed) == ui(lang)["right"], f"{lang} {ex}: printed answer {printed!r} not accepted"
        assert not errors(p), errors(p)


def test_reading_rules(exercise_page):
    p = exercise_page("online", course.default_language().code, EXERCISE_PAGES[0])
    cases = {"0,25": [0.25], "0.25": [0.25], "۰٫۲۵": [0.25], "٠٫٢٥": [0.25], "−1,5": [-1.5], "-1.5": [-1.5],
             "1 234,5": [1234.5], "1,234.5": [1234.5], "1.234,5": [1234.5], "۱٬۲۳۴٫۵": [1234.5],
             "1\u202f234": [1234], "1,234": [1.234, 1234], "1/4": [0.25], "۱/۴": [0.25], "3/0": [],
             "abc": [], "1,2,3": [], "": [], "--1": [], "1..2": []}
    got = p.evaluate("cases => Object.fromEntries(Object.keys(cases).map(k => [k, window.courseExercises.parse(k)]))", cases)
    assert got == cases


# "far below the screen": an exercise whose top, at load, is more than FAR screens down; exercises.js
# places a form within half a screen of the viewport (rootMargin 50 %), so one nearer may get it at load
FAR = 2


@pytest.mark.parametrize("lang", LANGS)
def test_a_form_comes_as_its_exercise_nears_the_screen(browser, base_url, lang):
    """At load a page holds no form of an exercise far below the screen (a control in a block that skips
    its layout made Chromium's autofill lay out that block, course_build/exercises.py); scrolled near, the exercise
    gets its form, and a choice's plain options step aside; on paper the plain options, never the form.
    Every exercise page is read; the far exercises are those starting more than FAR screens below the top
    (chapter sections are short: an exercise near the top gets its form at load, as it should), and every
    language has far ones, a choice among them."""
    ctx = browser.new_context(viewport={"width": 412, "height": 823}, is_mobile=True, has_touch=True)
    p = ctx.new_page()
    far_seen, choice_seen = 0, 0
    for lesson in EXERCISE_PAGES:
        p.goto(page_url(base_url, lang, lesson), wait_until="load")
        # two frames after load: the observer's first report, on every exercise at once, has been handled
        p.evaluate(f"async () => {{ const frame = {NEXT_FRAME}; await frame(); await frame(); }}")
        waiting = p.evaluate("""() => [...document.querySelectorAll('.exercise')].filter(e =>
            e.getBoundingClientRect().top < 1.4 * innerHeight && e.querySelector('.exercise-controls > template'))
            .map(e => e.id)""")   # within the observer's margin (half a screen below the screen)
        assert not waiting, f"{lang}/{lesson}: near the screen at load, still without their forms: {waiting}"
        far = p.evaluate("""far => [...document.querySelectorAll('.exercise')]
            .filter(e => e.getBoundingClientRect().top > far * innerHeight)
            .map(e => [e.id, e.dataset.kind, !!e.querySelector('.exercise-controls, template')])""", FAR)
        last = [ex for ex, _, controls in far if controls][-1:]
        choice = [ex for ex, kind, _ in far if kind == "choice"][-1:]
        for ex, _, _ in far:  # at load, before any scroll (scrolling to one brings its neighbours near)
            root = p.locator(f"#{ex}")
            assert root.locator(".exercise-form").count() == 0, f"{lang}/{lesson} {ex}: placed before it neared the screen"
            assert root.evaluate("e => e.querySelectorAll('input, button').length") == 0
        for ex in dict.fromkeys(choice + last):
            root = p.locator(f"#{ex}")
            root.evaluate(SCROLL_NEAR)
            root.locator(".exercise-form").wait_for(state="visible")
            assert root.locator("template").count() == 0
            far_seen += 1
            if root.get_attribute("data-kind") == "choice":
                choice_seen += 1
                assert root.locator(".exercise-choices").is_hidden()
                assert root.locator("input[type=radio]").count() == len(DATA[ex.removeprefix("exercise-")]["options"])
        p.emulate_media(media="print")
        shown = p.evaluate("""() => [...document.querySelectorAll('.exercise')].map(e => [e.dataset.kind,
            getComputedStyle(e.querySelector('.exercise-choices') || e).display,
            [...e.querySelectorAll('.exercise-form')].map(f => getComputedStyle(f).display).join()])""")
        assert shown, f"{lang}/{lesson}: no exercise"
        for kind, plain, form in shown:
            assert form in ("", "none"), f"{lang}/{lesson}: a form on paper"
            if kind == "choice":
                assert plain == "block", f"{lang}/{lesson}: a choice's options not on paper"
        p.emulate_media(media="screen")
    assert far_seen and choice_seen, f"{lang}: no exercise (or no choice) starts {FAR} screens below the top of its page"
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_without_the_script_a_choice_shows_its_options_and_no_form(browser, base_url, lang):
    ctx = browser.new_context(java_script_enabled=False)
    p = ctx.new_page()
    seen = 0
    for lesson in EXERCISE_PAGES:
        p.goto(page_url(base_url, lang, lesson), wait_until="load")
        assert p.locator(".exercise-form").count() == 0, f"{lang}/{lesson}: a form that cannot check anything"
        for ex in p.eval_on_selector_all(".exercise[data-kind=choice]", "els => els.map(e => e.id)"):
            plain = p.locator(f"#{ex} .exercise-choices li")
            assert plain.count() == len(DATA[ex.removeprefix("exercise-")]["options"]), f"{lang}/{lesson} {ex}"
            plain.first.scroll_into_view_if_needed()  # no script runs here, not even SCROLL_NEAR's
            assert plain.first.is_visible()
            seen += 1
    assert seen, "no choice exercise in any lesson"
    ctx.close()
