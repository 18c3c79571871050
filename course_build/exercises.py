"""Check-yourself exercises in lesson pages.

    {{ exercise: sa_weight_t4 }}      (own line, after the section it practises; same line in uk and fa)

becomes a numbered exercise (class `exercise`): the question, an answer box (numbers) or options
(choices) checked in the page by assets/js/exercises.js (the form waits in a <template> until the exercise
nears the screen: controls()), a hint shown after the first miss, and the
worked solution in a closed <details>. Derivations get the question and the solution only.
Where things come from:
  generated/data/exercises.json      kind, answer, tolerances, print format, the numbers solutions quote
                                     (scripts/experiments/exercises.py)
  scripts/i18n/<lang>/exercises.yml  exercises.ui (buttons, verdicts) and exercises.items.<id>
                                     (question, hint, solution, options)
This hook runs before course_build/refs.py and leaves `{{ v: … }}` references for it to resolve, so every
number in a question or solution is formatted in the page's language like the rest of the lesson.
The answer sits only in a data attribute and inside the closed solution: nothing visible gives it away.
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "generated" / "data" / "exercises.json"
from course_build.texts import strings
from scripts.common import course, numfmt

EXERCISE = re.compile(r"^[ \t]*\{\{\s*exercise\s*:\s*(?P<id>[^}\s]+)\s*\}\}[ \t]*$", re.M)
SCRIPT = "assets/js/exercises.js"

# The marks around each worked solution's body, inside its <details class="exercise-solution">: the later
# stages that move it (course_build/exercise_solutions.py, tools/pdf.py's answers appendix) find a solution by
# them, never by the markup around it. HTML comments: they pass Markdown untouched.
SOLUTION_OPEN, SOLUTION_CLOSE = "<!-- solution ", "<!-- /solution -->"


def solution_marks(ex_id: str, title: str) -> tuple[str, str]:
    """The marks around exercise `ex_id`'s solution; `title` is its heading where the solution stands alone."""
    said = html.escape(title)
    if "--" in said or "--" in ex_id:
        raise PluginError(f"exercise {ex_id!r}: its id and title ({title!r}) cannot hold '--' (an HTML comment holds them)")
    return f"{SOLUTION_OPEN}{ex_id} {said} -->", SOLUTION_CLOSE


def find_solutions(content: str) -> list[tuple[int, int, str, str, str]]:
    """Each solution in built HTML, in order: (start of its opening mark, end of its closing mark, exercise id,
    title, body between the marks)."""
    found, at = [], 0
    while (start := content.find(SOLUTION_OPEN, at)) >= 0:
        head_end = content.find(" -->", start)
        close = content.find(SOLUTION_CLOSE, head_end)
        if head_end < 0 or close < 0:
            raise PluginError(f"a solution's marks are not closed near {content[start:start + 80]!r} "
                              "(course_build/exercises.py writes both, solution_marks)")
        ex_id, _, title = content[start + len(SOLUTION_OPEN):head_end].partition(" ")
        at = close + len(SOLUTION_CLOSE)
        found.append((start, at, ex_id, html.unescape(title), content[head_end + len(" -->"):close]))
    return found


def exercises_data() -> dict:
    if not DATA.exists():
        raise PluginError("generated/data/exercises.json is missing: run `make data` (scripts/experiments/exercises.py)")
    return json.loads(DATA.read_text(encoding="utf-8"))


def words(lang: str) -> dict:
    out = strings(lang).get("exercises")
    if not out or "ui" not in out or "items" not in out:
        raise PluginError(f"scripts/i18n/{lang}/exercises.yml needs exercises.ui and exercises.items")
    return out


def ref(ex_id: str, key: str, spec: str = "") -> str:
    return "{{ v: exercises/" + ex_id + "." + key + (" | " + spec if spec else "") + " }}"


def precision_line(ex_id: str, item: dict, ui: dict) -> str:
    text = ui["precision_int"] if item["decimals"] == 0 else ui["precision"].format(decimals=ref(ex_id, "decimals", "d"))
    if item["close"] > item["right"]:
        text += " " + ui["close_within"].format(close=ref(ex_id, "close", item["fmt"]))
    return f'<p class="exercise-precision">{text}</p>'


def controls(form: str, static: str = "") -> str:
    """The exercise's form inside a <template>: assets/js/exercises.js puts it in the page when the exercise
    nears the screen. Chromium's form autofill reads every form control of a page at DOMContentLoaded and at
    load, and one inside a block that skipped its layout (content-visibility; an exercise off screen is one,
    course.css) made it style and lay out that whole block: once the whole lesson, in one long task (issue 12,
    Lighthouse). A template's content is no control of the page. `static` is what readers without the script
    and paper get instead (a choice's options); the script hides it when the form arrives."""
    return f'<div class="exercise-controls">{static}<template>{form}</template></div>'


def number_form(ex_id: str, ui: dict) -> str:
    box = f"exercise-{ex_id}-answer"
    return controls(f'<form class="exercise-form"><label for="{box}">{html.escape(ui["your_answer"])}</label> '
                    f'<input type="text" id="{box}" inputmode="decimal" autocomplete="off" spellcheck="false" dir="ltr"> '
                    f'<button type="submit" class="md-button">{html.escape(ui["check"])}</button></form>')


def choice_form(ex_id: str, item: dict, text: dict, ui: dict, where: str) -> str:
    options = text.get("options") or {}
    missing = [o for o in item["options"] if o not in options]
    if missing:
        raise PluginError(f"{where}: exercise {ex_id!r} has no words for options {missing} (exercises.items.{ex_id}.options)")
    labels = "".join(f'<label class="exercise-option"><input type="radio" name="exercise-{ex_id}" value="{html.escape(o)}"> '
                     f'<span>{html.escape(options[o])}</span></label>' for o in item["options"])
    # the options as plain text, for paper and readers without the script (no control: see controls())
    static = (f'<div class="exercise-choices"><p class="exercise-choices__legend">{html.escape(ui["choose"])}</p><ul>'
              + "".join(f'<li>{html.escape(options[o])}</li>' for o in item["options"]) + "</ul></div>")
    return controls(f'<form class="exercise-form"><fieldset><legend>{html.escape(ui["choose"])}</legend>{labels}</fieldset>'
                    f'<button type="submit" class="md-button">{html.escape(ui["check"])}</button></form>', static)


def check_number(ex_id: str, item: dict, where: str) -> None:
    """A typed answer is compared as a number in the page (exercises.js): an answer, tolerance or place count
    written as text ("0.268") would publish an exercise that no input can answer."""
    bad = [k for k in ("answer", "right", "close", "decimals")
           if isinstance(item.get(k), bool) or not isinstance(item.get(k), (int, float))]
    if bad:
        raise PluginError(f"{where}: exercise {ex_id!r} asks for a number, but its {', '.join(bad)} "
                          f"{'is' if len(bad) == 1 else 'are'} {', '.join(repr(item.get(k)) for k in bad)}: return "
                          f"number(<a number>, decimals, close, …) from {ex_id}() in scripts/experiments/exercises.py "
                          "(compute the value, do not type it as text), then run `make data`")


def exercise_md(ex_id: str, n: int, data: dict, w: dict, lang: str, where: str) -> str:
    item, text, ui = data.get(ex_id), w["items"].get(ex_id), w["ui"]
    if item is None:
        raise PluginError(f"{where}: unknown exercise {ex_id!r}: add it to scripts/experiments/exercises.py "
                          "and run `make data` (generated/data/exercises.json)")
    if text is None:
        raise PluginError(f"{where}: exercise {ex_id!r} has no words in scripts/i18n/{lang}/exercises.yml "
                          f"(exercises.items.{ex_id}: question, hint, solution)")
    kind = item["kind"]
    title = ui["title"].format(n=numfmt.fmt(n, "d", lang))
    attrs = f'class="exercise" id="exercise-{ex_id}" data-kind="{kind}" data-number="{n}"'
    parts = [f'<p class="exercise-title"><strong>{html.escape(title)}</strong></p>', "", text["question"].strip(), ""]
    if kind == "number":
        check_number(ex_id, item, where)
        attrs += (f' data-answer="{item["answer"]!r}" data-right="{item["right"]!r}" data-close="{item["close"]!r}"')
        parts += [precision_line(ex_id, item, ui), number_form(ex_id, ui)]
        answer = ref(ex_id, "answer", item["fmt"])
    elif kind == "choice":
        attrs += f' data-answer="{html.escape(item["answer"])}"'
        parts += [choice_form(ex_id, item, text, ui, where)]
        answer = html.escape(text["options"][item["answer"]])
    elif kind == "derivation":
        answer = None
    else:
        raise PluginError(f"{where}: exercise {ex_id!r} has unknown kind {kind!r}; use number, choice or derivation")
    if kind != "derivation":
        said = {k: ui[k] for k in ("right", "close", "not_yet", "not_yet_hint", "unreadable", "choose_first")}
        said["solved"] = strings(lang)["ui"]["progress"]["solved"]  # the mark of one answered right before
        attrs += f' data-ui="{html.escape(json.dumps(said, ensure_ascii=False))}"'
        attrs += f' data-read="{html.escape(json.dumps(course.number_reading(), ensure_ascii=False))}"'
        if not text.get("hint"):
            raise PluginError(f"{where}: exercise {ex_id!r} needs a hint in scripts/i18n/{lang}/exercises.yml")
        parts += ['<p class="exercise-feedback" role="status" aria-live="polite"></p>', "",
                  '<div class="exercise-hint" hidden markdown="block">', "",
                  f'**{html.escape(ui["hint"])}.** {text["hint"].strip()}', "", "</div>"]
    opening, closing = solution_marks(ex_id, title)
    parts += ["", '<details class="exercise-solution" markdown="block">',
              f'<summary>{html.escape(ui["solution"])}</summary>', "", opening, ""]
    if answer is not None:
        parts += [f'<p class="exercise-answer"><strong>{html.escape(ui["answer"])}:</strong> {answer}</p>', ""]
    parts += [text["solution"].strip(), "", closing, "", "</details>"]
    return f"\n<div {attrs} markdown=\"block\">\n\n" + "\n".join(parts) + "\n\n</div>\n"


@event_priority(100)  # before course_build/refs.py, which resolves the {{ v: … }} references this leaves
def on_page_markdown(markdown: str, page, config, files, **kwargs) -> str:
    if not EXERCISE.search(markdown):
        return markdown
    lang = config["theme"]["language"]
    where = f"docs/{lang}/{page.file.src_uri}" if not page.file.src_uri.startswith(lang + "/") else f"docs/{page.file.src_uri}"
    data, w = exercises_data(), words(lang)
    count = iter(range(1, 10_000))
    out = EXERCISE.sub(lambda m: exercise_md(m["id"], next(count), data, w, lang, where), markdown)
    page.meta["exercises"] = True
    return out


def on_post_page(output: str, page, config, **kwargs) -> str:
    """Only pages with exercises load the checker."""
    if not page.meta.get("exercises"):
        return output
    tag = f'<script src="{get_relative_url(SCRIPT, page.url)}" defer></script>'
    return output.replace("</body>", tag + "</body>", 1)
