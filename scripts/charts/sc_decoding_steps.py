"""Decoding step by step: the causal attention matrix filled one row a step, the key/value cache growing.

The trained tiny decoder of sc_decoding writes a sentence from a two-word prompt. At each step the new
token's row of the masked matrix is filled (its weights over itself and every earlier token), the cells
right of the diagonal stay masked, and the new token's key and value join the cache; the rows below are
not computed yet. The weights are the experiment's (one layer and head at a time).
"""
import altair as alt

from scripts.charts._kit import js, label, lines_below, num, pick, single

from scripts.common import numfmt

DATA = ["sc_decoding"]
CELL = "#3f7fc6"
CACHED = "#d0603a"

# An empty last line under the readout: a phone's narrow chart wraps a readout into more lines only on
# the run after the one that sized the view, and this slack keeps the last wrapped line inside it.
SPACER = (" ", dict(fontSize=28))


def _word(token: str, t: dict) -> str:
    return t["special"].get(token.strip("<>"), token) if token.startswith("<") else token


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    dec = data["sc_decoding"]
    ex, model = dec["example"], dec["model"]
    steps = ex["steps"]
    words = [_word(w, t) for w in ex["tokens"]]
    n = len(words)
    heads = [(layer, head) for layer in range(model["layers"]) for head in range(model["heads"])]
    step = alt.param(name="step", value=1, bind=alt.binding_range(min=1, max=len(steps), step=1,
                                                                  name=label(t["step"])))
    which = alt.param(name="lh", value=0, bind=alt.binding_select(
        options=list(range(len(heads))), name=label(t["head"]),
        labels=[t["head_label"].format(layer=numfmt.fmt(l + 1, "d", lang), head=numfmt.fmt(h + 1, "d", lang))
                for l, h in heads]))
    cells = [{"k": k, "i": i, "j": j, "w": ex["matrix"][l][h][i][j]}
             for k, (l, h) in enumerate(heads) for i in range(n) for j in range(n)]
    pos = pick([str(s["position"]) for s in steps], "step - 1")
    # a word not written yet has no label: the picture shows only what the model knows at this step
    known = f"datum.value <= {pos} ? {js(words)}[datum.value] : ''"
    x = alt.X("j:O", title=t["x"], axis=alt.Axis(labelExpr=known, labelAngle=-40, orient="top", labelFontSize=12,
                                                 ticks=False, domain=False, labelPadding=14, titlePadding=8))
    y = alt.Y("i:O", title=t["y"], axis=alt.Axis(labelExpr=known, labelFontSize=12, ticks=False, domain=False,
                                                 labelPadding=6))
    base = (alt.Chart(alt.Data(values=cells)).transform_filter("datum.k == lh")
            .transform_calculate(pos=pos)
            .transform_calculate(state="datum.j > datum.i ? 'masked' : datum.i > datum.pos ? 'later' : 'done'"))
    shown = base.transform_filter("datum.state == 'done'")
    fill = shown.mark_rect(stroke="white", strokeWidth=1, color=CELL).encode(
        # the darkest cell (weight 1) stays light enough for the page's text colour on white and on slate
        # (4,5:1 or more, tests/test_chart_design.py: at 0,7 slate's text read 4,0:1), as the learned-alignment matrix does
        x=x, y=y, opacity=alt.Opacity("w:Q", scale=alt.Scale(domain=[0, 1], range=[0.06, 0.5]), legend=None),
        tooltip=[alt.Tooltip("qw:N", title=t["query"]), alt.Tooltip("kw:N", title=t["key"]),
                 alt.Tooltip("w:Q", title=t["weight"], format=".3f")]).transform_calculate(
        qw=f"{js(words)}[datum.i]", kw=f"{js(words)}[datum.j]")
    masked = base.transform_filter("datum.state == 'masked'").mark_rect(
        color="#9e9e9e", opacity=0.18, stroke="white", strokeWidth=1).encode(x=x, y=y)
    later = base.transform_filter("datum.state == 'later' && datum.j <= datum.i").mark_rect(
        fill=None, stroke="#9e9e9e", strokeDash=[2, 2], strokeWidth=1, opacity=0.6).encode(x=x, y=y)
    # the new row's weights in the page's text colour, where a cell is wide enough for them (not on a phone)
    values = shown.transform_filter(f"datum.i == datum.pos && width / {n} >= 34").mark_text(fontSize=12).encode(
        x=x, y=y, text=alt.Text("w:Q", format=".2f"))
    row = base.transform_filter("datum.i == datum.pos && datum.j == 0").mark_rect(
        fill=None, stroke=CACHED, strokeWidth=2.5).encode(y=y, x=alt.value(0), x2=alt.value("width"))
    # the cache above the matrix: one cell per token whose key and value it holds, the newest one full
    cache = base.transform_filter("datum.i == 0 && datum.j <= datum.pos").mark_rect(
        color=CACHED, stroke="white", strokeWidth=1).encode(
        x=x, y=alt.value(-10), y2=alt.value(-3),
        opacity=alt.condition("datum.j == datum.pos", alt.value(1), alt.value(0.45)))
    readout = _readout(base, steps, t)
    chart = alt.layer(masked, later, fill, values, row, cache, *readout).add_params(step, which)
    return single(chart.properties(height=alt.Step(28)), t)


def _readout(base: alt.Chart, steps: list[dict], t: dict) -> list[alt.Chart]:
    """What the step did, in words under the matrix."""
    one = base.transform_filter("datum.i == 0 && datum.j == 0")
    field = lambda key, f=js: pick([f(s[key]) for s in steps], "step - 1")  # noqa: E731
    top = lambda k: pick([js(_word(s["top"][k]["word"], t)) for s in steps], "step - 1")  # noqa: E731
    ptop = lambda k: num(pick([str(s["top"][k]["prob"]) for s in steps], "step - 1"), ".0%")  # noqa: E731
    quoted = lambda w: js(_word(w, t) if w.startswith("<") else t["quote"].format(w=w))  # noqa: E731
    parts = dict(step=num("step", "d"), input=field("input", quoted),
                 next=field("next", quoted), p=num(field("next_prob", str), ".0%"),
                 tokens=num(field("cache_tokens", str), "d"), numbers=num(field("cache_numbers", str), ",d"),
                 per=num(str(steps[0]["cache_numbers"] // steps[0]["cache_tokens"]), "d"),
                 w1=top(0), p1=ptop(0), w2=top(1), p2=ptop(1), w3=top(2), p3=ptop(2))
    items = [(t["line_step"], dict(fontSize=13, fontWeight="bold")), (t["line_top"], dict(fontSize=12)),
             (t["line_cache"], dict(fontSize=13))]
    return lines_below(one, items + [SPACER], parts, top=10)


def table(data: dict, t: dict, lang: str) -> dict:
    """Each step: the input word, the word written and its probability, what the cache holds after it."""
    rows = [dict(s, input=_word(s["input"], t), next=_word(s["next"], t)) for s in data["sc_decoding"]["example"]["steps"]]
    c = t["columns"]
    return {"columns": [["step", c["step"], "d"], ["input", c["input"], "s"], ["next", c["next"], "s"],
                        ["next_prob", c["next_prob"], ".1%"], ["cache_tokens", c["cache_tokens"], "d"],
                        ["cache_numbers", c["cache_numbers"], ",d"]],
            "rows": rows}
