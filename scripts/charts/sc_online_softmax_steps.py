"""Online softmax step by step: a row of scores arriving in blocks, the running maximum and sum updated,
the final row equal to the exact softmax.

The numbers are the experiment's trace (sc_online_softmax, numpy in float64): after each block, the
weights of the scores seen so far (exp(score − running max) / running sum), the maximum and the sum
before and after, and the factor exp(m − m') that rescales the old sum when the maximum grows.
"""
import altair as alt

from scripts.charts._kit import label, lines_below, num, pick, single, vec

DATA = ["sc_online_softmax"]
BAR, EXACT, BLOCK = "#3f7fc6", "#d0603a", "#9e9e9e"

# An empty last line under the readout: a phone's narrow chart wraps a readout into more lines only on
# the run after the one that sized the view, and this slack keeps the last wrapped line inside it.
SPACER = (" ", dict(fontSize=28))


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    tr = data["sc_online_softmax"]["trace"]
    steps, scores = tr["steps"], tr["scores"]
    n = len(scores)
    step = alt.param(name="step", value=1, bind=alt.binding_range(min=1, max=len(steps), step=1,
                                                                  name=label(t["step"])))
    bars = [{"s": s["step"], "j": j, "w": w} for s in steps for j, w in enumerate(s["weights_so_far"])]
    x = alt.X("j:O", title=t["x"], scale=alt.Scale(domain=list(range(n))),
              axis=alt.Axis(labelExpr=f"{vec_labels(scores)}[datum.value]", orient="top", labelAngle=0,
                            ticks=False, domain=False, labelFontSize=12, titlePadding=8))
    top = max(max(tr["exact"]), *(w for s in steps for w in s["weights_so_far"])) * 1.12
    y = alt.Y("w:Q", title=t["y"], scale=alt.Scale(domain=[0, top], nice=False), axis=alt.Axis(format=".1f", tickCount=4))
    arrived = alt.Chart(alt.Data(values=[{"s": s["step"], "a": s["start"], "b": s["stop"] - 1} for s in steps]))
    shade = _shade(arrived, n)
    weights = alt.Chart(alt.Data(values=bars)).transform_filter("datum.s == step")
    drawn = weights.mark_bar(color=BAR, width={"band": 0.6}).encode(
        x=x, y=y, tooltip=[alt.Tooltip("w:Q", title=t["weight"], format=".4f")])
    labels = weights.mark_text(dy=-6, baseline="bottom", fontSize=12).encode(
        x=x, y=y, text=alt.Text("w:Q", format=".2f"))
    exact = alt.Chart(alt.Data(values=[{"j": j, "w": w} for j, w in enumerate(tr["exact"])])).mark_tick(
        color=EXACT, thickness=2.5, size=28).encode(x=x, y=y, tooltip=[alt.Tooltip("w:Q", title=t["exact"], format=".4f")])
    chart = alt.layer(shade, drawn, exact, labels, *_readout(weights, tr, t, lang)).add_params(step)
    return single(chart.properties(height=200), t)


def vec_labels(scores: list[float]) -> str:
    """The scores as axis labels, through the page's number format."""
    return "[" + ", ".join(num(str(s), ".1f") for s in scores) + "]"


def _shade(arrived: alt.Chart, n: int) -> alt.Chart:
    """The blocks that arrived so far, shaded over their columns (the newest darker)."""
    return arrived.transform_filter("datum.s <= step").transform_calculate(
        x0=f"datum.a / {n} * width", x1=f"(datum.b + 1) / {n} * width").mark_rect(color=BLOCK).encode(
        x=alt.X("x0:Q", scale=None, axis=None), x2="x1:Q", y=alt.value(0), y2=alt.value("height"),
        opacity=alt.condition("datum.s == step", alt.value(0.2), alt.value(0.07)))


def _readout(weights: alt.Chart, tr: dict, t: dict, lang: str) -> list[alt.Chart]:
    steps = tr["steps"]
    one = weights.transform_filter("datum.j == 0")
    at = lambda values: pick(values, "step - 1")  # noqa: E731
    added = [s["sum_after"] - (s["sum_before"] * s["rescale"] if s["rescale"] is not None else 0) for s in steps]
    parts = dict(k=num("step", "d"), m0=num(at([str(s["max_before"] or 0) for s in steps]), ".1f"),
                 m1=num(at([str(s["max_after"]) for s in steps]), ".1f"),
                 bm=num(at([str(s["block_max"]) for s in steps]), ".1f"),
                 r=num(at([str(s["rescale"] or 1) for s in steps]), ".3f"),
                 l0=num(at([str(s["sum_before"]) for s in steps]), ".3f"),
                 l1=num(at([str(s["sum_after"]) for s in steps]), ".3f"),
                 add=num(at([str(a) for a in added]), ".3f"),
                 scores=at([vec([str(v) for v in s["block_scores"]], ".1f", lang) for s in steps]),
                 out=num(at([str(s["output_so_far"]) for s in steps]), ".3f"),
                 exact=num(str(tr["output_exact"]), ".3f"))
    first = [(t["line_block"], dict(fontSize=13, fontWeight="bold")), (t["line_first"], dict(fontSize=13)),
             (t["line_sum_first"], dict(fontSize=13))]
    later = [(t["line_block"], dict(fontSize=13, fontWeight="bold")), (t["line_max"], dict(fontSize=13)),
             (t["line_sum"], dict(fontSize=13))]
    last = len(steps)
    out = [(t["line_out"], dict(fontSize=12)), SPACER]
    return (lines_below(one.transform_filter("step == 1"), first + out, parts, top=12)
            + lines_below(one.transform_filter(f"step > 1 && step < {last}"), later + out, parts, top=12)
            + lines_below(one.transform_filter(f"step == {last}"),
                          later + [(t["line_done"], dict(fontSize=12, fontWeight="bold")), SPACER], parts, top=12))


def table(data: dict, t: dict, lang: str) -> dict:
    """Each block: its scores, the running maximum and sum after it, the rescaling factor."""
    c = t["columns"]
    rows = data["sc_online_softmax"]["trace"]["steps"]
    return {"columns": [["step", c["step"], "d"], ["block_max", c["block_max"], ".1f"],
                        ["max_after", c["max_after"], ".1f"],
                        ["sum_after", c["sum_after"], ".3f"], ["output_so_far", c["output"], ".3f"]],
            "rows": rows}
