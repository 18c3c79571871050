"""One cross-attention step with a query the reader sets: weights recomputed in the browser."""

import altair as alt

from scripts.charts._kit import BREAK, fit, line_below, num, single, softmax, vec

DATA = ["ca_step"]
WEIGHT_WIDTH = 44   # px a bold weight label takes, with its gap


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    step = data["ca_step"]
    inter = step["interactive"]
    words = t["example"]["words"]
    rows = [{"i": s["i"], "word": words[s["meaning"]], "k1": s["k1"], "k2": s["k2"],
             "v1": s["v1"], "v2": s["v2"]} for s in inter["sources"]]
    q1, q2 = (alt.param(name=f"q{c + 1}", value=inter["q_default"][c],
                        bind=alt.binding_range(min=inter["q_min"], max=inter["q_max"], step=inter["q_step"],
                                               name=t[f"q{c + 1}"])) for c in range(2))
    base = softmax(alt.Chart(alt.Data(values=rows))
                   .transform_calculate(score="q1 * datum.k1 + q2 * datum.k2")
                   .transform_calculate(scaled=f"datum.score / sqrt({step['d']})"),
                   "scaled", top="top", total="total")
    base = (base.transform_calculate(wv1="datum.w * datum.v1", wv2="datum.w * datum.v2")
            .transform_joinaggregate(o1="sum(wv1)", o2="sum(wv2)", wmax="max(w)"))
    y = alt.Y("word:N", sort=[r["word"] for r in rows], title=None,
              axis=alt.Axis(labelFontSize=14, labelPadding=8, ticks=False, domain=False))
    x = alt.X("w:Q", scale=alt.Scale(domain=[0, 1]), title=t["x"],
              axis=alt.Axis(orient="top", format=".1f", values=[0, 0.5, 1]))
    tip = [alt.Tooltip("word:N", title=t["word"]),
           alt.Tooltip("k1:Q", title="k₁", format="d"), alt.Tooltip("k2:Q", title="k₂", format="d"),
           alt.Tooltip("score:Q", title="q·k", format=".2f"),
           alt.Tooltip("scaled:Q", title="q·k/√d", format=".2f"),
           alt.Tooltip("w:Q", title=t["weight"], format=".3f")]
    bars = base.mark_bar(height=18, yOffset=-9, cornerRadiusEnd=2).encode(
        x=x, y=y, tooltip=tip,
        opacity=alt.condition("datum.w == datum.wmax", alt.value(0.95), alt.value(0.45)),
        color=alt.value("#5c6bc0"))
    # A weight stands past its bar's end, or inside it, in white, where the bar reaches the right edge.
    inside = f"datum.w > 1 - {WEIGHT_WIDTH} / width"
    weights = alt.layer(
        base.transform_filter(f"!({inside})").mark_text(align="left", dx=5, yOffset=-9, fontSize=14,
                                                        fontWeight="bold").encode(x=x, y=y, text=alt.Text("w:Q", format=".2f")),
        base.transform_filter(inside).mark_text(align="right", dx=-5, yOffset=-9, fontSize=14, fontWeight="bold",
                                                color="white").encode(x=x, y=y, text=alt.Text("w:Q", format=".2f")))
    parts = dict(k=vec(["datum.k1", "datum.k2"], "d", lang), score=num("datum.score", ".2f"),
                 scaled=num("datum.scaled", ".2f"), q=vec(["q1", "q2"], ".1f", lang),
                 o=vec(["datum.o1", "datum.o2"], ".2f", lang))
    # under its bar, broken in two on a phone (the row's step leaves room for two lines)
    detail = base.transform_calculate(detail=fit(t["detail"], 12, **parts)).mark_text(
        align="left", baseline="top", dy=2, fontSize=12, lineHeight=14, lineBreak=BREAK, opacity=0.85).encode(
        x=alt.value(0), y=y, text="detail:N")
    out = line_below(base.transform_filter("datum.i == 0"), t["output"], parts, top=10, fontSize=13)
    return single((bars + weights + detail + out).add_params(q1, q2).properties(height=alt.Step(54)), t)


def table(data: dict, t: dict, lang: str) -> dict:
    """The step at the starting query q = (1, 1), as stored by the experiment."""
    step = data["ca_step"]
    words = t["example"]["words"]
    rows = [{"word": words[s["meaning"]], "k1": s["k1"], "k2": s["k2"], "v1": s["v1"], "v2": s["v2"],
             "score": step["scores"][s["i"]], "scaled": step["scaled"][s["i"]], "weight": step["weights"][s["i"]]}
            for s in step["interactive"]["sources"]]
    return {"columns": [["word", t["word"], "s"], ["k1", "k₁", "d"], ["k2", "k₂", "d"], ["v1", "v₁", ".1f"],
                        ["v2", "v₂", ".1f"], ["score", "q·k", ".2f"], ["scaled", "q·k/√d", ".2f"],
                        ["weight", t["weight"], ".3f"]],
            "rows": rows}
