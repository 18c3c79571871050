"""The three charts of the models trained at build time, in Debian's chromium, in both languages.

sa_trained_maps recomputes softmax(q·k) in the browser: its weights and entropies must equal the same
formula applied here to the numbers the chart inlines, and follow the shape, head and query controls.
sa_training_progress reads one epoch on hover; ca_learned_alignment switches sentences, outlines the
gold words and reads the hovered row."""
import numpy as np
import pytest

from conftest import ITEMS, LANGS, VIEW, data
from scripts.common import numfmt
from scripts.common.i18n import strings

HOVER = """([id, prefix, test]) => {
  const view = window.courseCharts.views.get(document.querySelector('#chart-' + id + ' .chart-view')).view;
  let hit = null;
  const walk = (node) => { if (!node || !node.items || hit) return;
    if (node.marktype && node.marktype !== 'group' && node.name && node.name.startsWith(prefix))
      hit = node.items.find(it => (new Function('d', 'return ' + test))(it.datum));
    node.items.forEach(walk); };
  walk(view.scenegraph().root);
  hit._svg.scrollIntoView({block: 'center'});
  const r = hit._svg.getBoundingClientRect();
  return {x: r.x + r.width / 2, y: r.y + r.height / 2};
}"""


def items(p, chart, prefix):
    return p.evaluate(ITEMS, [chart, prefix])


def settle(p, chart):
    p.evaluate(f"(id) => ({VIEW})(id).runAsync().then(() => null)", chart)


def hover(p, chart, prefix, test):
    box = p.evaluate(HOVER, [chart, prefix, test])
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
    p = shared_page(lang, "self-attention")      # shared with the next test, which reads another chart
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

    first = check("ring", 1, 0)                              # the class token's row, head 1
    assert first["trained"] < first["untrained"] - 0.2, "training should sharpen the class token's row"
    p.locator(f"#chart-{chart} input[type=radio][name='shape'][value='cross']").check()
    p.locator(f"#chart-{chart} input[type=radio][name='head'][value='3']").check()
    settle(p, chart)
    check("cross", 3, 0)
    p.locator(f"#chart-{chart} select[name='query']").select_option("25")      # patch 24, the centre
    settle(p, chart)
    patch = check("cross", 3, 25)
    assert min(patch.values()) > 0.9, "a patch row stays close to uniform before and after training"
    assert not p.errors, p.errors


@pytest.mark.parametrize("lang", LANGS)
def test_training_progress_reads_the_hovered_epoch(shared_page, lang):
    chart, sa = "sa_training_progress", data("sa_trained")
    p = shared_page(lang, "self-attention")
    last = str(sa["epochs"])
    text = items(p, chart, "readout")[0]["text"]
    assert numfmt.fmt(sa["checkpoints"][last]["accuracy"], ".1%", lang) in text
    assert numfmt.fmt(int(last), "d", lang) in text
    hover(p, chart, "points", "d.epoch === 2 && d.series === 'entropy_pct'")
    text = items(p, chart, "readout")[0]["text"]
    two = sa["checkpoints"]["2"]
    assert numfmt.fmt(two["accuracy"], ".1%", lang) in text, text
    assert numfmt.fmt(two["entropy_pct"] / 100, ".1%", lang) in text, text
    assert not p.errors, p.errors


@pytest.mark.parametrize("lang", LANGS)
def test_learned_alignment_sentences_gold_and_rows(shared_page, lang):
    chart, ca = "ca_learned_alignment", data("ca_trained")
    t = strings(lang)["charts"][chart]
    p = shared_page(lang, "cross-attention")
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
