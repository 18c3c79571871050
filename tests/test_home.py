"""The home page shows the course at a glance (issue 12): a card per lesson, in nav order, with its
promise, a preview that loads, its reading time and counts computed from the lesson as built, numbers
in the page's digits; no interactive chart; one column on a phone, a grid on a desktop, in both
languages and both schemes. And bad input (a lesson without a promise, a preview that is not one of
its charts, a language without a reading speed) stops the build naming what to fix."""
from __future__ import annotations

import math
import re
from types import SimpleNamespace

import pytest
import yaml
from mkdocs.exceptions import PluginError

from conftest import LANGS, LESSONS, ROOT, open_page
from scripts.common import course, numfmt
from scripts.common.i18n import strings

CARD = re.compile(r'<article class="lesson-card" data-lesson="([\w-]+)" data-words="(\d+)">(.*?)</article>', re.S)


def html_of(site_dir, lang, page):
    return (site_dir / course.page_path(lang, page) / "index.html").read_text(encoding="utf-8")


def front_matter(lang, lesson) -> dict:
    text = course.source(lang, lesson).read_text(encoding="utf-8")
    return yaml.safe_load(text.split("\n---", 1)[0][4:])


def wpm(lang) -> float:
    meta = yaml.safe_load((ROOT / "scripts/i18n" / lang / "language.yml").read_text(encoding="utf-8"))
    return meta["language"]["reading_wpm"]


def fact(card: str, kind: str) -> str:
    m = re.search(rf'<li class="lesson-card__{kind}">(?:<a [^>]*>)?([^<]*)', card)
    assert m, f"no {kind} on the card"
    return m.group(1)


# ── the built page ───────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("lang", LANGS)
def test_a_card_per_lesson_with_what_the_lesson_holds(site_dir, lang):
    home = html_of(site_dir, lang, "index")
    cards = CARD.findall(home)
    assert [c[0] for c in cards] == list(LESSONS), "one card per lesson, in nav order"
    ui = strings(lang)["ui"]["home"]
    n = lambda v: numfmt.fmt(v, "d", lang)  # noqa: E731
    for i, (lesson, words, card) in enumerate(cards, 1):
        page = html_of(site_dir, lang, lesson)
        title = re.search(r"<h1[^>]*>(.*?)<", page).group(1).strip()
        assert f">{title}</a></h3>" in card, f"{lang}/{lesson}: the card's title is the lesson's"
        promise = " ".join(front_matter(lang, lesson)["promise"].split())
        shown = re.sub(r"<[^>]+>", "", re.search(r'class="lesson-card__promise">(.*?)</p>', card).group(1))
        assert shown == promise
        assert ui["lesson"].format(n=n(i)) in card
        chapter = [html_of(site_dir, lang, p) for p in (lesson, *course.sections(lesson))]  # overview, sections
        figures = sum(len(re.findall(r'<figure class="chart" id="chart-', part)) for part in chapter)
        entries = len({e for part in chapter for e in re.findall(r'class="provenance-entry" id="(src-[\w-]+)"', part)})
        assert figures and entries
        assert fact(card, "figures") == ui["figures"].format(n=n(figures))
        assert fact(card, "sources") == ui["experiments"].format(n=n(entries))
        assert fact(card, "time") == ui["reading"].format(minutes=n(math.ceil(int(words) / wpm(lang))))
        href = re.search(r'lesson-card__sources"><a href="([^"]+)"', card).group(1)
        first_sources = next(p for p, part in zip((lesson, *course.sections(lesson)), chapter) if 'id="provenance"' in part)
        assert href.endswith(f"{first_sources}/#provenance"), f"{lang}/{lesson}: {href} is not the chapter's first sources"
        src = re.search(r'<img src="([^"]+)"', card).group(1)
        assert (site_dir / course.page_path(lang, "index") / src).resolve().is_file(), src
        first_chart = re.search(r'<figure class="chart" id="chart-([\w-]+)"', "".join(chapter)).group(1)
        want = front_matter(lang, lesson).get("preview") or first_chart
        assert src.endswith(f"/{lang}/{want}.svg"), f"{lang}/{lesson}: the preview is {want}'s static SVG"
        if course.language(lang).numerals[0] != "0":
            facts = re.sub(r"<[^>]+>", " ", card.split('class="lesson-card__kicker"')[1])
            assert not re.search(r"[0-9]", facts), f"{lang}/{lesson}: Latin digits on the card: {facts}"
            assert re.search(f"[{course.language(lang).numerals}]", facts)


@pytest.mark.parametrize("lang", LANGS)
def test_home_page_has_no_interactive_chart(site_dir, lang):
    home = html_of(site_dir, lang, "index")
    assert 'class="chart-view"' not in home and "charts.js" not in home and "vega" not in home.lower()


# ── in the browser ───────────────────────────────────────────────────────────────────────────────
WORDS_READ = """() => {
  const art = document.querySelector('.md-content article').cloneNode(true);
  const prov = art.querySelector('#provenance');
  if (prov) { let n = prov; while (n) { const next = n.nextSibling; n.remove(); n = next; } }
  art.querySelectorAll('pre, .katex, .arithmatex, details.chart-data, .headerlink, script, svg').forEach(e => e.remove());
  return art.textContent.split(/[\\s\\u00a0\\u202f.,;:!?()«»"“”—–·\\/|=×+−]+/u)
    .filter(w => /[\\p{L}\\p{N}]/u.test(w)).length;
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_reading_time_counts_the_words_a_reader_reads(browser, base_url, lang):
    """The card's word count (what its reading time is computed from) agrees with the words the
    lesson's article shows in the browser, code, formulas, data tables and provenance left out."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    home = open_page(ctx, base_url, lang, "index")
    counted = {c.get_attribute("data-lesson"): int(c.get_attribute("data-words"))
               for c in home.locator("article.lesson-card").all()}
    home.close()
    for lesson, words in counted.items():
        seen = 0
        for page in (lesson, *course.sections(lesson)):  # a chapter's words: its overview's and its sections'
            p = open_page(ctx, base_url, lang, page, charts=False)  # words only: a chart's own text is SVG, left out
            seen += p.evaluate(WORDS_READ)
            p.close()
        assert abs(words - seen) <= 0.05 * seen, f"{lang}/{lesson}: card counts {words} words, the chapter shows {seen}"
    ctx.close()


# Each text of a card against the card's background (a colour with alpha blended over it), WCAG contrast.
CONTRAST = """() => {
  const rgba = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lin = v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const out = [];
  for (const card of document.querySelectorAll('article.lesson-card')) {
    const bg = rgba(getComputedStyle(card).backgroundColor);
    for (const el of card.querySelectorAll('.lesson-card__body p, .lesson-card__body h3 a, .lesson-card__body li, .lesson-card__body li a')) {
      const [r, g, b, a = 1] = rgba(getComputedStyle(el).color);
      const fg = [r, g, b].map((v, i) => v * a + bg[i] * (1 - a));
      const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < 4.5) out.push(`${el.className || el.tagName} ${ratio.toFixed(2)}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", LANGS)
def test_cards_lay_out_on_desktop_and_phone(browser, base_url, lang, scheme):
    """Previews load; two cards share a row at 1280 px (in reading order: fa right to left) and stack
    in one column at 390 px, with nothing wider than the phone."""
    for width in (1280, 390):
        ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        p = open_page(ctx, base_url, lang, "index")
        assert p.evaluate("document.body.dataset.mdColorScheme") == ("slate" if scheme == "dark" else "default")
        cards = p.locator("article.lesson-card")
        assert cards.count() == len(LESSONS)
        for img in p.locator("article.lesson-card img").all():
            img.scroll_into_view_if_needed()
            p.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=img.element_handle(), timeout=10000)
        boxes = [c.bounding_box() for c in cards.all()]
        if width == 1280:
            assert abs(boxes[0]["y"] - boxes[1]["y"]) < 1, "two cards in a row on a desktop"
            first_right = boxes[0]["x"] > boxes[1]["x"]
            assert first_right == (course.language(lang).rtl), f"{lang}: cards in the language's reading order"
        else:
            assert all(abs(b["x"] - boxes[0]["x"]) < 1 for b in boxes), "one column on a phone"
            assert all(b["x"] >= 0 and b["x"] + b["width"] <= width for b in boxes)
            assert p.evaluate("document.documentElement.scrollWidth") <= width
        low = p.evaluate(CONTRAST)
        assert not low, f"{lang} ({scheme}, {width} px): card text below 4.5:1: {low}"
        assert not p.errors, p.errors
        ctx.close()


def test_the_card_link_opens_its_lesson(browser, base_url):
    """A click anywhere on a card (its title's link covers it) opens the lesson; the experiments link
    opens the lesson's provenance part."""
    lang, lesson = course.languages()[-1].code, LESSONS[-1]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    p = open_page(ctx, base_url, lang, "index")
    card = p.locator(f'article.lesson-card[data-lesson="{lesson}"]')
    card.scroll_into_view_if_needed()  # a third card starts below a 900 px screen: a click there hit nothing
    box = card.locator(".lesson-card__promise").bounding_box()
    with p.expect_navigation():
        p.mouse.click(box["x"] + 5, box["y"] + 5)
    assert p.url.rstrip("/").endswith(lesson), p.url
    p.go_back()
    with p.expect_navigation():
        p.locator(f'article.lesson-card[data-lesson="{lesson}"] .lesson-card__sources a').click()
    sources = next(page for page in (lesson, *course.sections(lesson))
                   if "{{ provenance }}" in course.source(lang, page).read_text(encoding="utf-8"))
    assert p.url.endswith(f"{sources}/#provenance"), p.url
    ctx.close()


# ── bad input stops the build ────────────────────────────────────────────────────────────────────
def _lesson_page(lang, meta, figures=("sa_cost",)):
    return SimpleNamespace(file=SimpleNamespace(src_uri=f"{lang}/{course.page_file(LESSONS[0])}"), title="T", url=f"{LESSONS[0]}/",
                           meta={**meta, "figures": list(figures)})


@pytest.mark.parametrize("lang", LANGS)
def test_a_lesson_without_a_promise_fails(lang):
    from course_build import home
    with pytest.raises(PluginError, match="promise"):
        home.on_page_content("<p>x</p>", page=_lesson_page(lang, {"lesson": True}), config={"theme": {"language": lang}})


def test_a_preview_that_is_not_a_chart_of_the_lesson_fails():
    from course_build import home
    lang = LANGS[0]
    page = _lesson_page(lang, {"lesson": True, "promise": "p", "preview": "sqrt_scaling"})
    page.meta["figures"] = ["sa_cost"]
    with pytest.raises(PluginError, match="preview: sqrt_scaling"):  # the chapter's charts are known once it is built
        home.on_page_content("<p>x</p>", page=page, config={"theme": {"language": lang}})
        home.chapter_card(lang, LESSONS[0])


def test_words_skip_code_math_data_tables_and_provenance():
    from course_build.home import words
    html = ('<h1>Самоувага</h1><p>Кожне число пораховане; <span class="arithmatex">\\(QK^T\\)</span> — ось.</p>'
            '<p>می‌کند وزنِ بُعد</p><pre><code>print(1, 2, 3)</code></pre>'
            '<figure class="chart"><details class="chart-data"><table><tr><td>0,1</td></tr></table></details>'
            '<figcaption>Рис. 1. Підпис</figcaption></figure>'
            '<h2 id="provenance">Як обчислено</h2><p>багато слів тут</p>')
    # Самоувага Кожне число пораховане ось | می‌کند وزنِ بُعد | Рис 1 Підпис
    assert words(html) == 11


def test_a_language_without_reading_speed_fails(monkeypatch, tmp_path):
    from course_build import home
    lang = LANGS[0]
    (tmp_path / lang).mkdir()
    (tmp_path / lang / "language.yml").write_text("language: {direction: ltr}\n", encoding="utf-8")
    monkeypatch.setattr(course, "I18N", tmp_path)
    with pytest.raises(PluginError, match="reading_wpm"):
        home.reading_wpm(lang)
