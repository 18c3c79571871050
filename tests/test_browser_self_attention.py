"""The seven figures of the lesson «Self-attention» in Debian's chromium, in both languages: each
control changes what it should (read back from the Vega view), the worked example's claim holds on
screen, and a control step re-renders quickly.

Figures are found by their ids (#chart-<id>) on the section page that shows each (conftest.page_with_chart);
a test names its chart with `@pytest.mark.chart(id)` and gets that page (fixture `page`) and the id (`chart`).
"""
import pytest

from conftest import ITEMS, LANGS, MARK_CENTRE, VIEW, open_page, page_with_chart

CHARTS = ("sa_receptive_field", "sa_toy_steps", "sa_patch_attention", "sqrt_scaling", "sa_heads",
          "sa_permutation", "sa_cost")
PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")



def digits(text: str, lang: str) -> str:
    return text.translate(PERSIAN) if lang == "fa" else text


@pytest.fixture
def chart(request):
    return request.node.get_closest_marker("chart").args[0]


@pytest.fixture
def page(shared_page, request, chart):
    """The section showing this test's chart, in this test's language, opened once per module: each test
    works its own chart (the speed test, last, every chart's slider), so no test reads what another one moved."""
    lang = request.node.callspec.params["lang"]
    where = page_with_chart(chart)
    p = shared_page(lang, where)
    yield p
    assert not p.errors, f"{lang}/{where}: console errors {p.errors}"


def signal(p, chart, name):
    return p.evaluate(f"([id, name]) => ({VIEW})(id).signal(name)", [chart, name])


def items(p, chart, prefix):
    return p.evaluate(ITEMS, [chart, prefix])


def settle(p, chart):
    p.evaluate(f"(id) => ({VIEW})(id).runAsync().then(() => null)", chart)


def slide(p, chart, name, value):
    p.locator(f"#chart-{chart} input[type=range][name='{name}']").fill(str(value))
    settle(p, chart)


def pick(p, chart, name, value):
    p.locator(f"#chart-{chart} input[type=radio][name='{name}'][value='{value}']").check()
    settle(p, chart)


@pytest.mark.parametrize("lang", LANGS)
def test_all_seven_figures_are_on_the_page(shared_page, lang):
    for chart in CHARTS:
        where = page_with_chart(chart)
        fig = shared_page(lang, where).locator(f"#chart-{chart}")
        assert fig.count() == 1, f"{lang}: #chart-{chart} is missing from {where}"
        assert fig.locator(":is(svg, canvas).marks").count() == 1


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.chart("sa_receptive_field")
def test_receptive_field_slider_grows_the_square(page, lang, chart):
    before = items(page, chart, "conv_numbers")[0]["text"]
    slide(page, chart, "layers", 13)
    assert signal(page, chart, "layers") == 13
    after = items(page, chart, "conv_numbers")[0]
    assert after["text"] != before
    assert after["datum"]["rf"] == 27 and after["datum"]["kernel_weights"] == 117
    assert digits("27×27", lang) in after["text"] and digits("117", lang) in after["text"]
    pairs = items(page, chart, "attn_numbers")[0]["text"]
    assert digits("401", lang) in pairs, "attention pays 49² = 2 401 pairs whatever L is"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.chart("sa_toy_steps")
def test_toy_t4_at_plus_two_gives_t1_t3_t4_equal_weight(page, lang, chart):
    pick(page, chart, "step", 4)
    before = {(c["datum"]["i"], c["datum"]["j"]): c["text"] for c in items(page, chart, "cells")}
    slide(page, chart, "t4x", 2)
    assert signal(page, chart, "t4x") == 2 and signal(page, chart, "step") == 4
    cells = {(c["datum"]["i"], c["datum"]["j"]): c for c in items(page, chart, "cells")}
    assert len(cells) == 16
    row = [cells[(0, j)] for j in range(4)]
    assert row[0]["text"] == row[2]["text"] == row[3]["text"], f"t1 row shows {[c['text'] for c in row]}"
    assert row[1]["text"] != row[0]["text"]
    assert abs(row[0]["datum"]["w"] - row[3]["datum"]["w"]) < 1e-12
    assert abs(sum(c["datum"]["w"] for c in row) - 1) < 1e-9
    assert before[(0, 3)] != row[3]["text"], "moving t4 should change t1's weight on it"
    # step 3 adds the row sums; step 5 shows the output next to the input
    pick(page, chart, "step", 3)
    assert len(items(page, chart, "sums")) == 4
    pick(page, chart, "step", 5)
    assert not items(page, chart, "sums")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.chart("sa_patch_attention")
def test_patch_attention_hover_and_divisor(page, lang, chart):
    assert signal(page, chart, "rowq") == 10

    def hover(prefix, test):
        box = page.evaluate(MARK_CENTRE, [chart, prefix, test])
        page.mouse.move(box["x"], box["y"])
        settle(page, chart)

    hover("matrix", "d.i === 30 && d.j === 5")
    assert signal(page, chart, "rowq") == 30
    stats = items(page, chart, "stats")[0]
    assert stats["datum"]["i"] == 30 and digits("30", lang) in stats["text"]
    looks = items(page, chart, "looks")
    assert len(looks) == 49 and abs(sum(c["datum"]["w"] for c in looks) - 1) < 1e-6
    hover("looks", "d.j === 44")
    assert signal(page, chart, "rowq") == 44
    hover("pixels", "d.i === 3")
    assert signal(page, chart, "rowq") == 3

    entropy = items(page, chart, "stats")[0]["datum"]["h"]
    slide(page, chart, "divisor", 16)
    flatter = items(page, chart, "stats")[0]["datum"]["h"]
    assert flatter > entropy, "a larger divisor flattens the row"
    pick(page, chart, "shape", "cross")
    assert signal(page, chart, "shape") == "cross"
    # the shape's patches load when it is picked (charts.js rowsOnDemand): its row is drawn once they are in
    page.wait_for_function(f"([id, prefix]) => ({ITEMS})([id, prefix]).length === 49", arg=[chart, "looks"])
    settle(page, chart)
    assert items(page, chart, "stats")[0]["datum"]["h"] != flatter


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.chart("sqrt_scaling")
def test_sqrt_slider_on_the_lesson_page(page, lang, chart):
    before = page.locator(f"#chart-{chart} svg.marks").inner_html()
    slide(page, chart, "log2d", 2)
    assert signal(page, chart, "log2d") == 2
    assert page.locator(f"#chart-{chart} svg.marks").inner_html() != before


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.chart("sa_heads")
def test_heads_change_the_grids_not_the_parameter_count(page, lang, chart):
    params = items(page, chart, "params")[0]["text"]
    assert digits("224", lang) in params        # 4·32² + 4·32 = 4 224
    for heads in (8, 1, 2, 4):
        pick(page, chart, "heads", heads)
        cells = items(page, chart, "cells")
        assert len({c["datum"]["h"] for c in cells}) == heads, f"{heads} heads should draw {heads} grids"
        assert len(cells) == 49 * heads
        assert items(page, chart, "params")[0]["text"] == params, "the parameter count must not move"
    first = {c["datum"]["j"]: c["datum"]["w"] for c in items(page, chart, "cells") if c["datum"]["h"] == 0}
    slide(page, chart, "patch", 30)
    moved = {c["datum"]["j"]: c["datum"]["w"] for c in items(page, chart, "cells") if c["datum"]["h"] == 0}
    assert first != moved, "another patch looks elsewhere"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.chart("sa_permutation")
def test_positional_encoding_wakes_the_permutation_error(page, lang, chart):

    def shown():
        marks = items(page, chart, "big")          # big (plain) or big_mant (a·10ⁿ): one of them is drawn
        assert len(marks) == 1
        return marks[0]["datum"]["shown"], marks[0]["datum"]["below"]

    for k in (1, 5):
        slide(page, chart, "perm", k)
        assert shown() == (1e-6, "< "), "without PE the chart shows the float32 noise bound, as a bound"
        page.locator(f"#chart-{chart} input[type=checkbox][name='pe']").check()
        settle(page, chart)
        assert shown()[0] > 1e-2 and shown()[1] == "", "with PE the order shows"
        page.locator(f"#chart-{chart} input[type=checkbox][name='pe']").uncheck()
        settle(page, chart)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.chart("sa_cost")
def test_patch_size_changes_the_bars(page, lang, chart):
    bars = {b["datum"]["kind"]: b["datum"]["value"] for b in items(page, chart, "bar_values")}
    assert bars == {"matrix": 2 * 49 ** 2 * 32, "proj": 4 * 49 * 32 ** 2}
    pick(page, chart, "patch", 2)
    shown = items(page, chart, "bar_values")
    bars = {b["datum"]["kind"]: b["datum"]["value"] for b in shown}
    assert bars == {"matrix": 2 * 196 ** 2 * 32, "proj": 4 * 196 * 32 ** 2}
    assert any(digits("624", lang) in b["text"] for b in shown)     # 2 458 624
    slide(page, chart, "dim", 128)
    bars = {b["datum"]["kind"]: b["datum"]["value"] for b in items(page, chart, "bar_values")}
    assert bars["matrix"] < bars["proj"], "196 tokens < 2d = 256: the projections cost more"


@pytest.mark.parametrize("lang", ["uk"])
def test_a_slider_step_re_renders_fast(shared_page, lang):
    """Time from an input event on a slider to the view having re-rendered (printed)."""
    cases = [("sa_receptive_field", "layers", [5, 9]), ("sa_toy_steps", "t4x", [0.5, 1.5]),
             ("sa_patch_attention", "divisor", [2, 8]), ("sqrt_scaling", "log2d", [4, 6]),
             ("sa_heads", "patch", [20, 40]), ("sa_permutation", "perm", [3, 6]), ("sa_cost", "dim", [64, 96])]
    for chart, name, values in cases:
        page, times = shared_page(lang, page_with_chart(chart)), []
        for v in values:
            times.append(page.evaluate("""async ([id, name, v]) => {
              const el = document.querySelector('#chart-' + id + ' .chart-view');
              const view = window.courseCharts.views.get(el).view;
              const input = el.querySelector('input[type=range][name="' + name + '"]');
              const t0 = performance.now();
              input.value = String(v);
              input.dispatchEvent(new Event('input', {bubbles: true}));
              await view.runAsync();
              return performance.now() - t0;
            }""", [chart, name, v]))
        print(f"{chart:<20} {name:<8} {max(times):7.1f} ms")
        assert max(times) < 500, f"{chart}: a {name} step took {max(times):.0f} ms"
