"""The three charts of the models trained at build time, in Debian's chromium, in both languages.

sa_trained_maps recomputes softmax(q·k) in the browser: its weights and entropies must equal the same
formula applied here to the numbers the chart inlines, and follow the shape, head and query controls.
sa_training_progress reads one epoch on hover; ca_learned_alignment switches sentences, outlines the
gold words and reads the hovered row."""
import numpy as np
import pytest

from conftest import ITEMS, LANGS, MARK_CENTRE, VIEW, data, page_with_chart
from scripts.common import numfmt
from scripts.common.i18n import strings


def items(p, chart, prefix):
    return p.evaluate(ITEMS, [chart, prefix])


def settle(p, chart):
    p.evaluate(f"(id) => ({VIEW})(id).runAsync().then(() => null)", chart)


def drawn_again(p, chart, shape):
    """Settled after a control that may load rows (a shape's part, charts.js rowsOnDemand): both panels
    drawn from the rows of `shape`."""
    p.wait_for_function(f"""([id, shape]) => {{ const cells = ({ITEMS})([id, 'cells_']);
      return cells.length === 98 && cells.every(c => c.datum.shape === shape); }}""", arg=[chart, shape],
                        timeout=10000)
    settle(p, chart)


def hover(p, chart, prefix, test):
    box = p.evaluate(MARK_CENTRE, [chart, prefix, test])
    p.mouse.move(box["x"], box["y"])
    settle(p, chart)


def expected_row(sa, shape, state, head, query):
    """softmax(q·k) from the numbers the chart inlines (hundredths), and its entropy as a share of ln 49."""
    m = sa["examples"][shape][state]["heads"][str(head)]
    q = np.round(np.array(m["q"][query]) * 100) / 100
    k = np.round(np.array(m["k"]) * 100) / 100
    z = k @ q
    w = np.exp(z - z.max())
    w /= w.sum()
    return w, float(-(w * np.log(w)).sum() / np.log(len(w)))


@pytest.mark.parametrize("lang", LANGS)
def test_trained_maps_follow_shape_head_and_query(shared_page, lang):
    chart, sa = "sa_trained_maps", data("sa_trained")
    p = shared_page(lang, page_with_chart(chart))
    p.locator(f"#chart-{chart}").scroll_into_view_if_needed()

    def check(shape, head, query):
        out = {}
        for state in ("untrained", "trained"):
            w, h = expected_row(sa, shape, state, head, query)
            cells = sorted(items(p, chart, f"cells_{state}"), key=lambda c: c["datum"]["j"])
            assert len(cells) == len(w) == 49
            assert np.allclose([c["datum"]["w"] for c in cells], w, atol=1e-9), (shape, state, head, query)
            text = items(p, chart, f"entropy_{state}")[0]["text"]
            assert numfmt.fmt(h, ".1%", lang) in text, (text, h)
            out[state] = h
        return out

    head = first_head(sa)
    checked = p.locator(f"#chart-{chart} input[name='head']:checked").get_attribute("value")
    assert checked == head, "the picture opens on the head training focused most"
    first = check("ring", int(head), 0)                      # the class token's row
    assert first["trained"] < first["untrained"] - 0.2, "training should sharpen the class token's row"
    p.locator(f"#chart-{chart} input[type=radio][name='shape'][value='cross']").check()
    p.locator(f"#chart-{chart} input[type=radio][name='head'][value='3']").check()
    drawn_again(p, chart, "cross")
    check("cross", 3, 0)
    p.locator(f"#chart-{chart} select[name='query']").select_option("25")      # patch 24, the centre
    settle(p, chart)
    patch = check("cross", 3, 25)
    assert min(patch.values()) > 0.9, "a patch row stays close to uniform before and after training"
    assert not p.errors, p.errors


def first_head(sa) -> str:
    """The head the picture opens on: training focused it most on the first shape (lowest class-row entropy)."""
    heads = sa["examples"][sa["shapes"][0]]["trained"]["heads"]
    return min(heads, key=lambda h: heads[h]["entropy_pct"])


PIXELS = """(id) => [...document.querySelectorAll('#chart-' + id + ' svg.marks path, #chart-' + id + ' svg.marks rect')]
  .map(e => (e.getAttribute('d') || '') + (e.getAttribute('fill') || '') + (e.getAttribute('fill-opacity') || '')).join('|')"""


@pytest.mark.parametrize("lang", LANGS)
def test_trained_maps_load_a_shape_when_it_is_picked(browser, base_url, lang):
    """Only the first shape's rows come with the spec; picking another loads its part (once) and redraws the
    maps from it; back on the first shape the first picture returns; after the light/dark switch the picked
    shape is drawn again from the rows already loaded; no console errors."""
    from conftest import SCROLL_NEAR, open_page
    chart, sa = "sa_trained_maps", data("sa_trained")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    requested = []
    ctx.on("request", lambda r: requested.append(r.url))
    p = open_page(ctx, base_url, lang, page_with_chart(chart))
    parts = lambda: [u for u in requested if f"/{chart}." in u and u.endswith(".js")   # noqa: E731
                     and not u.endswith(f"/{chart}.js")]                                # (the spec itself)
    assert not parts(), f"{lang}: parts loaded before a shape was picked: {parts()}"
    first, other = sa["shapes"][0], sa["shapes"][1]
    assert p.locator(f"#chart-{chart} input[name='shape']:checked").get_attribute("value") == first
    p.locator(f"#chart-{chart} .vega-bind").first.evaluate(SCROLL_NEAR)
    before = p.evaluate(PIXELS, chart)
    p.locator(f"#chart-{chart} input[type=radio][name='shape'][value='{other}']").check()
    drawn_again(p, chart, other)
    loaded = sorted(u.rsplit("/", 1)[-1] for u in parts())   # the shape's picture, its rows for the head shown
    head = first_head(sa)
    assert loaded == sorted([f"{chart}.{other}.js", f"{chart}.{other}.{head}.js"]), loaded
    for state in ("untrained", "trained"):          # the weights drawn are the picked shape's
        w, _ = expected_row(sa, other, state, int(head), 0)
        cells = sorted(items(p, chart, f"cells_{state}"), key=lambda c: c["datum"]["j"])
        assert np.allclose([c["datum"]["w"] for c in cells], w, atol=1e-9), (other, state)
    after = p.evaluate(PIXELS, chart)
    assert after != before, f"{lang}: the drawing did not change with the shape"
    p.locator(f"#chart-{chart} input[type=radio][name='shape'][value='{first}']").check()
    drawn_again(p, chart, first)
    assert p.evaluate(PIXELS, chart) == before, f"{lang}: back on {first}, the first picture did not return"
    p.locator(f"#chart-{chart} input[type=radio][name='shape'][value='{other}']").check()
    drawn_again(p, chart, other)
    assert p.evaluate(PIXELS, chart) == after and len(parts()) == 2, parts()
    stamp = p.locator(f"#chart-{chart} .chart-view").get_attribute("data-rendered-at")
    p.locator("label[for^='__palette']:visible").first.click()    # light/dark: a new view, the choice kept
    p.wait_for_function("""([id, old]) => { const e = document.querySelector('#chart-' + id + ' .chart-view');
                           return e.dataset.rendered === '1' && e.dataset.renderedAt !== old; }""", arg=[chart, stamp])
    drawn_again(p, chart, other)
    assert len(parts()) == 2, f"{lang}: a part loaded again after the theme switch: {parts()}"
    assert not p.errors, p.errors
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_training_progress_reads_the_hovered_epoch(shared_page, lang):
    chart, sa = "sa_training_progress", data("sa_trained")
    p = shared_page(lang, page_with_chart(chart))
    """The readout gives the mean over seeds of the hovered epoch; the bands span the lowest to the highest seed."""
    ck = sa["over_seeds"]["checkpoints"]
    last = str(sa["epochs"])
    text = items(p, chart, "readout")[0]["text"]
    assert numfmt.fmt(ck[last]["accuracy"]["mean"], ".1%", lang) in text
    assert numfmt.fmt(int(last), "d", lang) in text
    hover(p, chart, "points", "d.epoch === 2 && d.series === 'entropy_pct'")
    text = items(p, chart, "readout")[0]["text"]
    two = ck["2"]
    assert numfmt.fmt(two["accuracy"]["mean"], ".1%", lang) in text, text
    assert numfmt.fmt(two["entropy_pct"]["mean"] / 100, ".1%", lang) in text, text
    points = [c["datum"] for c in items(p, chart, "points") if c["datum"].get("epoch") == 2]
    acc = next(d for d in points if d["series"] == "accuracy")
    assert (acc["low"], acc["high"]) == (two["accuracy"]["min"], two["accuracy"]["max"])
    assert not p.errors, p.errors


@pytest.mark.parametrize("lang", LANGS)
def test_learned_alignment_sentences_gold_and_rows(shared_page, lang):
    chart, ca = "ca_learned_alignment", data("ca_trained")
    t = strings(lang)["charts"][chart]
    p = shared_page(lang, page_with_chart(chart))
    fig = p.locator(f"#chart-{chart}")
    fig.scroll_into_view_if_needed()
    seed = ca["sentences"]["source_sentence"]
    svg = fig.locator("svg").first.inner_html()
    for word in seed["source"]:                               # Persian columns, glossed where the strings say
        gloss = t["glosses"].get(word)
        assert word in svg and (not gloss or f"({gloss})" in svg), word
    verdict = items(p, chart, "verdict")[0]["text"]
    assert seed["output_text"] in verdict and t["verdict"]["true"] in verdict
    assert len(items(p, chart, "cells")) == len(seed["source"]) * len(seed["target"])

    hover(p, chart, "cells", "d.row === 5 && d.col === 2")   # the row of «mat»
    line = items(p, chart, "readout")[0]["text"]
    assert "mat" in line and seed["words"]["mat"]["top"] in line and t["hit"] in line
    assert numfmt.fmt(seed["words"]["mat"]["top_weight"], ".2f", lang) in line

    fig.locator("select[name='sentence']").select_option("scrambled")
    settle(p, chart)
    sc = ca["sentences"]["scrambled"]
    assert len(items(p, chart, "cells")) == len(sc["source"]) * len(sc["target"])
    verdict = items(p, chart, "verdict")[0]["text"]
    assert sc["output_text"] in verdict and t["verdict"]["false"] in verdict
    hover(p, chart, "cells", "d.row === 1 && d.col === 0")   # «dog» looks at the first word
    line = items(p, chart, "readout")[0]["text"]
    assert "dog" in line and t["miss"] in line
    assert not p.errors, p.errors
