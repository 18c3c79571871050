"""The lesson «Cross-attention» in Debian's chromium: its charts answer the reader.

Hovering a row of the alignment table moves the highlight and the readout to that written word; the
two query sliders recompute the weights (which equal the experiment's at q = (1, 1)); the input-size
slider and the latent-count menu change the pair counts and their ratio."""
import re

import pytest

from conftest import LANGS, data, page_with_chart
from scripts.charts.ca_alignment import columns
from scripts.common import numfmt
from scripts.common.i18n import strings
from tools.browser import CHARTS_DRAWN

# Text written by marks (not axes, legends or titles), in document order.
MARK_TEXTS = """sel => [...document.querySelectorAll(sel + ' svg.marks g.mark-text.role-mark text')]
                       .map(t => t.textContent)"""


def opened(shared_page, lang, chart):
    """The lesson page holding `chart` (shared by this file's tests), scrolled to it: the page and the figure."""
    p = shared_page(lang, page_with_chart(chart), timeout=20000)
    fig = p.locator(f"#chart-{chart}")
    fig.scroll_into_view_if_needed()
    return p, fig


def texts(p, chart):
    return p.evaluate(f"({MARK_TEXTS})('#chart-{chart}')")


def numbers(values, lang, spec):
    return [numfmt.fmt(v, spec, lang) for v in values]


@pytest.mark.parametrize("lang", LANGS)
def test_alignment_row_hover_moves_the_highlight(shared_page, lang):
    p, fig = opened(shared_page, lang, "ca_alignment")
    errors = p.errors
    al, t = data("ca_alignment"), strings(lang)["charts"]["ca_alignment"]
    sources, _ = columns({"ca_alignment": al}, t)   # the page language's words, in its sentence order
    argmax_word = [t["example"]["words"][m] for m in al["argmax"]]
    words = " ".join(texts(p, "ca_alignment") + [fig.locator("svg.marks").inner_html()])
    for w in sources:                               # the page's own source sentence is on the axis
        assert w in words, f"{lang}: source word {w!r} missing from the alignment chart"

    def readout():
        lines = [t for t in texts(p, "ca_alignment") if "«" in t]
        assert len(lines) == 1, lines
        return lines[0]

    before_svg = fig.locator("svg.marks").inner_html()
    first = readout()                               # starts on the last row: mat
    assert "mat" in first and argmax_word[5] in first
    cells = fig.locator("svg.marks g.mark-rect.role-mark path")
    assert cells.count() == len(al["target"]) * len(sources)
    # Cells come in data order (row by row); hover the cell of row 1 (cat), column 2.
    box = cells.nth(1 * len(sources) + 2).bounding_box()
    p.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    p.evaluate(CHARTS_DRAWN)
    second = readout()
    assert second != first and "cat" in second and argmax_word[1] in second
    assert numfmt.fmt(al["max_weight"][1], ".2f", lang) in second
    assert fig.locator("svg.marks").inner_html() != before_svg, "hovering a row should move the highlight"
    assert not errors, errors


@pytest.mark.parametrize("lang", LANGS)
def test_query_sliders_recompute_the_weights(shared_page, lang):
    p, fig = opened(shared_page, lang, "ca_step_query")
    errors, step = p.errors, data("ca_step")
    expected = numbers(step["weights"], lang, ".2f")
    number = re.compile(r"^[−\-]?[0-9۰-۹]+[,٫][0-9۰-۹]+$")  # uk decimal comma, fa ٫

    def weights():
        return [t for t in texts(p, "ca_step_query") if number.match(t)]

    assert weights() == expected, "at q = (1, 1) the chart shows the experiment's weights"
    out = [t for t in texts(p, "ca_step_query") if "Σ" in t]
    assert len(out) == 1 and all(v in out[0] for v in numbers(step["output"], lang, ".2f"))
    sliders = fig.locator("input[type=range]")
    assert sliders.count() == 2
    sliders.nth(0).fill("-1")                       # q = (-1, 1): the key (-1, 1) wins
    p.evaluate(CHARTS_DRAWN)
    moved = weights()
    assert moved != expected and len(moved) == len(expected)
    top = max(range(len(moved)), key=lambda i: float(numfmt.localize_digits(moved[i], "uk")
                                                       .translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹٫,−", "0123456789..-"))))
    assert top == 3, f"{lang}: with q = (-1, 1) the fourth source word should take the most weight: {moved}"
    sliders.nth(0).fill("0")
    sliders.nth(1).fill("0")                        # q = (0, 0): all scores equal, weights uniform
    p.evaluate(CHARTS_DRAWN)
    assert weights() == numbers([1 / len(expected)] * len(expected), lang, ".2f")
    assert p.evaluate("""() => { const v = window.courseCharts.views.get(
                           document.querySelector('#chart-ca_step_query .chart-view')).view;
                           return [v.signal('q1'), v.signal('q2')]; }""") == [0, 0]
    assert not errors, errors


@pytest.mark.parametrize("lang", LANGS)
def test_input_size_and_latents_change_the_ratio(shared_page, lang):
    p, fig = opened(shared_page, lang, "ca_perceiver")
    errors, per = p.errors, data("ca_perceiver")

    def ratio_line():
        lines = [t for t in texts(p, "ca_perceiver") if "n/M" in t]
        assert len(lines) == 1, lines
        return lines[0]

    first = ratio_line()                            # starts at the 224×224 image with 256 latents
    example = per["examples"][0]
    assert numfmt.fmt(example["ratio"], ",d", lang) in first
    assert any(numfmt.fmt(example["self_pairs"], ",d", lang).replace("\u202f", " ") in t.replace("\u202f", " ")
               for t in texts(p, "ca_perceiver")), "the n² readout should show the image's pair count"
    fig.locator("input[type=range]").fill("6")
    p.evaluate(CHARTS_DRAWN)
    second = ratio_line()
    assert second != first, "moving the input size should change the ratio"
    assert numfmt.fmt(10 ** 6 // example["m"], ",d", lang) in second      # n/M at n = 10⁶
    fig.locator("select").select_option(str(per["grid"]["m"][-1]))
    p.evaluate(CHARTS_DRAWN)
    assert ratio_line() != second, "choosing another number of latents should change the ratio"
    assert not errors, errors
