"""Check-yourself exercises without a browser: counts and parity per lesson, every answer equal to
generated/ (and, for a few, to an independent computation), nothing of the answer outside the closed
solution, words mirrored, an unknown id fails the build, and the PDF's answers appendix."""
import functools
import html
import json
import math
import re
from pathlib import Path

import pytest

from conftest import EXERCISE_PAGES, LANGS, LESSONS, ROOT
from scripts.common import course

DATA = json.loads((ROOT / "generated" / "data" / "exercises.json").read_text(encoding="utf-8"))
LINE = re.compile(r"^\{\{\s*exercise\s*:\s*(\S+)\s*\}\}$", re.M)
EXERCISE = re.compile(r'<div class="exercise"[^>]*>.*?</details>\s*</div>', re.S)
SOLUTION = re.compile(r'<details class="exercise-solution".*?</details>', re.S)


# a solution the site loads when opened: its summary, then the paragraph naming the script (and the PDF)
ON_DEMAND = re.compile(r'(<details class="exercise-solution"[^>]*>\s*<summary>.*?</summary>)\s*'
                       r'<p class="exercise-solution-elsewhere" data-src="([^"]*)">.*?</p>\s*(</details>)', re.S)


def page_file(site_dir, lang, page) -> Path:
    return site_dir / course.page_path(lang, page) / "index.html"


def solution_script(page: Path, src: str) -> dict:
    """The solutions a site page loads when one is opened (course_build/exercise_solutions.py): id → HTML."""
    text = (page.parent / src).resolve().read_text(encoding="utf-8")
    assert text.startswith("courseSolutions.define(") and text.rstrip().endswith(");"), src
    return json.loads(text.strip()[len("courseSolutions.define("):-2])


def built(site_dir, lang, lesson) -> str:
    """The lesson as a reader has it with every solution opened: a solution the site loads on demand is
    put back in its <details> from the page's solution script, as exercises.js does."""
    page = page_file(site_dir, lang, lesson)
    out = page.read_text(encoding="utf-8")
    for src in set(m.group(2) for m in ON_DEMAND.finditer(out)):
        bodies = solution_script(page, html.unescape(src))

        def put_back(block: re.Match) -> str:
            body = bodies[attrs(block.group(0))["id"]]
            return ON_DEMAND.sub(lambda m: m.group(1) + body + m.group(3), block.group(0))
        out = EXERCISE.sub(put_back, out)
    return out


def attrs(block: str) -> dict:
    head = block[:block.index(">")]
    return {k: html.unescape(v) for k, v in re.findall(r'\b(data-[\w-]+|id)="([^"]*)"', head)}


def ids_in_docs(lang, page):
    """The exercises of a page (a page of the nav, or a path under docs/<lang>/ without .md)."""
    path = course.source(lang, page) if page in course.pages() else ROOT / "docs" / lang / f"{page}.md"
    return LINE.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("lesson", LESSONS)
def test_same_exercises_in_same_order_in_both_languages(lesson):
    """Each page of the chapter has the same exercises in every language; a chapter with exercises mixes
    numeric (several), choice and derivation ones."""
    uk = []
    for page in (lesson, *course.sections(lesson)):
        here = ids_in_docs("uk", page)
        for lang in LANGS:
            assert ids_in_docs(lang, page) == here, f"{course.source(lang, page)}: exercises differ from uk"
        uk += here
    if not uk:
        return
    kinds = {DATA[i]["kind"] for i in uk}
    assert kinds == {"number", "choice", "derivation"}, f"{lesson}: mix numeric, choice and derivation ({kinds})"
    numbers = [i for i in uk if DATA[i]["kind"] == "number"]
    assert len(numbers) >= 4, f"{lesson}: several numeric exercises"


def test_every_computed_exercise_is_used_once():
    """Lessons and the pages beside them (a chapter's section pages: docs/uk/<lesson>/<section>.md)."""
    pages = sorted(p.relative_to(ROOT / "docs" / "uk").with_suffix("") for p in (ROOT / "docs" / "uk").rglob("*.md"))
    used = [i for page in pages for i in ids_in_docs("uk", page.as_posix())]
    assert sorted(used) == sorted(DATA), "each exercise in generated/data/exercises.json appears on one page"
    for lang in LANGS:   # a page outside the lessons mirrors its exercises too
        for page in pages:
            assert ids_in_docs(lang, page.as_posix()) == ids_in_docs("uk", page.as_posix()), f"docs/{lang}/{page}.md"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson", EXERCISE_PAGES)
def test_built_pages_carry_numbered_exercises(site_dir, lang, lesson):
    page = built(site_dir, lang, lesson)
    blocks = EXERCISE.findall(page)
    assert len(blocks) == page.count('class="exercise"') == len(ids_in_docs("uk", lesson))
    assert [attrs(b)["id"] for b in blocks] == [f"exercise-{i}" for i in ids_in_docs("uk", lesson)]
    assert [int(attrs(b)["data-number"]) for b in blocks] == list(range(1, len(blocks) + 1))
    assert "exercises.js" in page


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson", EXERCISE_PAGES)
def test_answers_equal_generated_and_stay_hidden(site_dir, lang, lesson):
    from scripts.common import numfmt
    for block in EXERCISE.findall(built(site_dir, lang, lesson)):
        a = attrs(block)
        ex_id = a["id"].removeprefix("exercise-")
        item = DATA[ex_id]
        assert a["data-kind"] == item["kind"]
        solution = SOLUTION.search(block).group(0)
        assert solution.startswith('<details class="exercise-solution">'), solution[:80]   # closed
        outside = SOLUTION.sub("", block)
        if item["kind"] == "number":
            assert float(a["data-answer"]) == item["answer"], ex_id
            assert float(a["data-right"]) == item["right"] and float(a["data-close"]) == item["close"]
            shown = numfmt.fmt(item["answer"], item["fmt"], lang)
            answer_line = re.search(r'<p class="exercise-answer">.*?</p>', solution, re.S).group(0)
            assert f'<span class="num">{shown}</span>' in answer_line, (ex_id, shown)
            assert f'<span class="num">{shown}</span>' not in outside, f"{lang} {ex_id}: answer visible outside the solution"
        elif item["kind"] == "choice":
            assert a["data-answer"] == item["answer"]
            values = re.findall(r'type="radio" name="exercise-' + ex_id + r'" value="([^"]+)"', block)
            assert values == item["options"] and item["answer"] in values
        assert re.search(r'class="exercise-hint" hidden', outside) or item["kind"] == "derivation"


def test_a_few_answers_agree_with_an_independent_computation():
    import torch
    from torch import nn
    # the lesson's tokens with t4 = [x, 0]: torch's own softmax of t1·K/√2
    x = DATA["sa_weight_t4"]["x"]
    X = torch.tensor([[2.0, 0.0], [0.0, 2.0], [2.0, 2.0], [x, 0.0]], dtype=torch.float64)
    w = torch.softmax(X[0] @ X.T / math.sqrt(2), dim=0)
    assert DATA["sa_weight_t4"]["answer"] == pytest.approx(float(w[3]), rel=1e-5)
    p = DATA["sa_params"]
    assert p["answer"] == sum(t.numel() for t in nn.MultiheadAttention(p["d"], p["heads"]).parameters())
    s = DATA["ca_step_weight"]
    q = torch.tensor([[s["q1"], s["q2"]]], dtype=torch.float64)
    K = torch.tensor([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0], [-1.0, 1.0]], dtype=torch.float64)
    V = torch.eye(4, dtype=torch.float64)  # one-hot values: the output is the weights
    out = torch.nn.functional.scaled_dot_product_attention(q, K, V)
    assert s["answer"] == pytest.approx(float(out[0, 2]), rel=1e-5)
    assert DATA["sa_grad_uniform"]["answer"] == pytest.approx(48 / 49, rel=1e-5)
    e = DATA["sa_entropy"]
    assert e["answer"] == pytest.approx(1.5 * math.log(2), rel=1e-5)
    c = DATA["sa_cost_ratio"]
    assert c["answer"] == pytest.approx(c["matrix"] / c["proj"]) and c["n"] == (c["frame"] // c["patch"]) ** 2
    m = DATA["ca_causal_cells"]
    assert m["answer"] == int(torch.ones(m["n"], m["n"]).tril().sum())
    assert DATA["ca_perceiver_ratio"]["answer"] == DATA["ca_perceiver_ratio"]["n"] / DATA["ca_perceiver_ratio"]["m"]


def test_tolerances_are_consistent():
    for ex_id, item in DATA.items():
        if item["kind"] != "number":
            continue
        assert item["right"] == pytest.approx(0.5 * 10 ** -item["decimals"]), ex_id
        assert item["close"] == 0 or item["close"] > item["right"], ex_id
        decimals = 0 if item["fmt"].endswith("d") else int(re.search(r"\.(\d+)", item["fmt"]).group(1))
        assert decimals == item["decimals"], f"{ex_id}: printed with {item['fmt']}, checked to {item['decimals']} places"


@functools.lru_cache(maxsize=None)  # the strings files are parsed once per language, not per lookup
def words(lang):
    from scripts.common.i18n import strings
    return strings(lang)["exercises"]


def test_words_mirror_and_hold_no_typed_decimals():
    uk, fa = words("uk"), words("fa")
    assert set(uk["ui"]) == set(fa["ui"])
    assert set(uk["items"]) == set(fa["items"]) == set(DATA)
    for ex_id in DATA:
        for lang, w in (("uk", uk), ("fa", fa)):
            item = w["items"][ex_id]
            need = {"question", "solution"} | ({"hint"} if DATA[ex_id]["kind"] != "derivation" else set())
            assert need <= set(item), f"{lang} {ex_id}: needs {need - set(item)}"
            if DATA[ex_id]["kind"] == "choice":
                assert set(item["options"]) == set(DATA[ex_id]["options"]), f"{lang} {ex_id}: options"
            for key in ("question", "hint", "solution"):
                text = re.sub(r"\{\{.*?\}\}|\$[^$]*\$", "", item.get(key, ""))
                assert not re.findall(r"\d+[.,٫]\d+|[۰-۹]+[٫.][۰-۹]+", text), f"{lang} {ex_id}.{key}: typed decimals"
                refs = re.findall(r"\{\{\s*v:\s*([^|}]+?)\s*(?:\|[^}]*)?\}\}", item.get(key, ""))
                for ref in refs:
                    assert not re.search(r"\.\d+(\.|$)", ref) or not ref.startswith("exercises/"), \
                        f"{lang} {ex_id}.{key}: {ref} uses a list position; use dict keys"
        # a noun's forms (`| plural: параметр,параметри,параметрів`) are each language's own words
        def refs_of(item):
            return [re.sub(r"\bplural:[^}]*", "plural ", r) for r in re.findall(r"\{\{[^}]*\}\}", str(item))]
        assert refs_of(uk["items"][ex_id]) == refs_of(fa["items"][ex_id]), f"{ex_id}: references differ uk/fa"


@pytest.mark.slow  # a build in a subprocess, or a training: make test only
def test_unknown_exercise_fails_the_build_naming_page_and_id(tmp_path):
    import shutil
    from test_build import build
    docs = tmp_path / "proj" / "docs"
    shutil.copytree(ROOT / "docs", docs)
    name = f"{course.languages()[-1].code}/{course.page_file(EXERCISE_PAGES[-1])}"
    page = docs / name
    page.write_text(page.read_text(encoding="utf-8") + "\n\n{{ exercise: no_such_exercise }}\n", encoding="utf-8")
    proc = build(docs, tmp_path / "site")
    assert proc.returncode != 0
    assert f"docs/{name}" in proc.stderr and "no_such_exercise" in proc.stderr, proc.stderr[-2000:]


@pytest.mark.parametrize("bad", ["0.268", None])
def test_an_answer_that_is_not_a_number_fails_naming_the_exercise(bad):
    """A numeric exercise whose answer is text (or missing) could never be answered in the page."""
    from mkdocs.exceptions import PluginError

    from course_build import exercises
    ex_id = next(i for i, item in DATA.items() if item["kind"] == "number")
    data = {**DATA, ex_id: {**DATA[ex_id], "answer": bad}}
    lang = LANGS[0]
    with pytest.raises(PluginError) as err:
        exercises.exercise_md(ex_id, 1, data, exercises.words(lang), lang, f"docs/{lang}/page.md")
    message = str(err.value)
    assert f"docs/{lang}/page.md: exercise {ex_id!r}" in message and repr(bad) in message, message
    assert "scripts/experiments/exercises.py" in message and "make data" in message, message
    exercises.exercise_md(ex_id, 1, DATA, exercises.words(lang), lang, "docs/page.md")  # the committed one is fine


@pytest.mark.parametrize("lang", LANGS)
def test_pdf_has_the_answers_appendix_with_the_same_numbers(site_dir, lang):
    from scripts.common import numfmt
    from test_pdf import pdf, squash, text
    body = squash(text(pdf(site_dir, lang)))
    title = words(lang)["ui"]["answers"]
    # the appendix is the last part: after its heading's last occurrence (the first is in the contents)
    assert body.count(title) >= 2, f"{lang} PDF: no «{title}» appendix"
    appendix = body[body.rindex(title):]
    for lesson in EXERCISE_PAGES:
        for n, ex_id in enumerate(ids_in_docs(lang, lesson), 1):
            label = words(lang)["ui"]["title"].format(n=numfmt.fmt(n, "d", lang))
            assert label in appendix, f"{lang} PDF appendix lacks «{label}»"
            item = DATA[ex_id]
            if item["kind"] == "number":
                shown = numfmt.fmt(item["answer"], item["fmt"], lang).replace("\u202f", " ")
                assert squash(shown) in appendix.replace("\u202f", " "), f"{lang} PDF appendix lacks {ex_id}'s answer {shown}"
    lessons = body[:body.rindex(title)]
    # in the lessons the questions are printed, numbered, with a choice's options, but no answer box
    assert words(lang)["ui"]["your_answer"] not in lessons
    lesson_words = set(re.findall(r"[\w\u200c]+", lessons))
    for lesson in EXERCISE_PAGES:
        count = len(ids_in_docs(lang, lesson))
        assert words(lang)["ui"]["title"].format(n=numfmt.fmt(count, "d", lang)) in lessons
        for ex_id in ids_in_docs(lang, lesson):
            for option in words(lang)["items"][ex_id].get("options", {}).values():
                missing = [w for w in re.findall(r"[\w\u200c]+", option) if len(w) > 2 and w not in lesson_words]
                assert not missing, f"{lang} PDF: option «{option}» of {ex_id} not printed ({missing})"


def test_generated_answers_match_a_fresh_computation():
    """exercises.py reuses the lessons' experiments (sa_toy, ca_masks), which the runner's staleness key
    does not follow: recompute and compare, so a change there cannot leave stale answers behind."""
    from scripts.common import jsonio
    from scripts.experiments.exercises import compute
    stored = (ROOT / "generated" / "data" / "exercises.json").read_text(encoding="utf-8")
    assert jsonio.dumps(compute()) == stored, "generated/data/exercises.json is stale: run `make data FORCE=1`"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson", EXERCISE_PAGES)
def test_site_loads_solutions_when_opened_and_the_offline_copy_keeps_them(site_dir, offline_copy, lang, lesson):
    """On the site each solution's body waits in the page's solution script (the page links the PDF's
    answers for readers without JavaScript); the offline copy, read from disk, has them in the page."""
    page = page_file(site_dir, lang, lesson)
    raw = page.read_text(encoding="utf-8")
    blocks = EXERCISE.findall(raw)
    found = [m for b in blocks for m in ON_DEMAND.finditer(b)]
    assert blocks and len(found) == len(blocks), f"{lang}/{lesson}: every solution loads on demand"
    assert 'class="exercise-answer"' not in raw, f"{lang}/{lesson}: a solution's body is still in the page"
    assert "<!-- solution" not in raw, f"{lang}/{lesson}: a solution's marks (course_build/exercises.py) were left in the page"
    pdf = f'download="attention-course-{lang}.pdf"'
    assert all(pdf in m.group(0) for m in found), f"{lang}/{lesson}: a solution placeholder does not link the PDF"
    srcs = {m.group(2) for m in found}
    assert len(srcs) == 1, srcs
    assert sorted(solution_script(page, srcs.pop())) == sorted(attrs(b)["id"] for b in blocks)
    from scripts.common import course
    offline = (offline_copy / f"{course.language(lang).prefix}{lesson}.html").read_text(encoding="utf-8")
    inline = EXERCISE.findall(offline)
    assert len(inline) == len(blocks) and "data-src" not in "".join(SOLUTION.findall(offline))
    assert offline.count("<!-- solution ") == len(blocks), "the PDF's answers appendix finds solutions by their marks"
    assert offline.count('class="exercise-answer"') == sum(DATA[attrs(b)["id"].removeprefix("exercise-")]["kind"] != "derivation"
                                                           for b in blocks)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("lesson", EXERCISE_PAGES)
def test_no_form_control_in_a_lesson_outside_a_template(site_dir, lang, lesson):
    """A form control in a block that skips its layout (content-visibility: once a lesson block, now an exercise
    off screen) made Chromium's form autofill style and lay out that whole block at DOMContentLoaded and load:
    every exercise's form waits in a <template> (exercises.js places it near the screen), and a choice's options
    are also there as plain text for paper and readers without the script."""
    raw = page_file(site_dir, lang, lesson).read_text(encoding="utf-8")
    article = raw[raw.index("<article"):raw.index("</article>")]
    outside = re.sub(r"<template>.*?</template>", "", article, flags=re.S)
    assert not re.findall(r"<(?:input|button|select|textarea)\b[^>]*>", outside), f"{lang}/{lesson}: controls outside templates"
    for block in EXERCISE.findall(article):
        ex_id = attrs(block)["id"].removeprefix("exercise-")
        if DATA[ex_id]["kind"] == "derivation":
            continue
        assert block.count("<template>") == 1 and "exercise-form" in block.split("<template>")[1], ex_id
        if DATA[ex_id]["kind"] == "choice":
            plain = re.search(r'<div class="exercise-choices">(.*?)</div>', block, re.S).group(1)
            assert re.findall(r"<li>(.*?)</li>", plain) == [html.escape(words(lang)["items"][ex_id]["options"][o])
                                                           for o in DATA[ex_id]["options"]], ex_id
