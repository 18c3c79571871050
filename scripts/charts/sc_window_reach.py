"""Sliding-window attention over layers: which earlier tokens can reach the last one, layer by layer.

Counted by sc_window by brute force (band masks multiplied as boolean matrices): with window W a
token sees itself and the W − 1 before it, so each layer carries information W − 1 positions further,
and after L layers the last token depends on L × (W − 1) earlier tokens.
"""
import altair as alt

from scripts.charts._kit import js, label, lines_below, num, single

from scripts.common import numfmt

DATA = ["sc_window"]
REACHED, LAST = "#3f7fc6", "#d0603a"

# An empty last line under the readout: a phone's narrow chart wraps a readout into more lines only on
# the run after the one that sized the view, and this slack keeps the last wrapped line inside it.
SPACER = (" ", dict(fontSize=28))


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    win = data["sc_window"]
    small = win["small"]
    n, windows, depths = small["n"], small["windows"], small["layers"]
    reach = {(r["window"], r["layers"]): r["reach"] for r in win["reach"]}
    w0, l0 = win["example"]["window"], win["example"]["layers"]
    window = alt.param(name="w", value=w0, bind=alt.binding_select(
        options=windows, labels=[numfmt.fmt(w, "d", lang) for w in windows], name=label(t["window"])))
    layers = alt.param(name="layers", value=l0, bind=alt.binding_range(min=depths[0], max=depths[-1], step=1,
                                                                       name=label(t["layers"])))
    cells = [{"w": w, "l": l, "j": j, "on": int(j >= n - 1 - reach[(w, l)]), "reach": reach[(w, l)]}
             for w in windows for l in depths for j in range(n)]
    x = alt.X("j:O", title=t["x"], axis=alt.Axis(labelExpr=f"datum.value == {n - 1} ? {js(t['last'])} : ''",
                                                 ticks=False, domain=False, labelAngle=0, labelFontSize=12))
    y = alt.Y("l:O", title=t["y"], sort="descending", axis=alt.Axis(labelFontSize=12, ticks=False, domain=False,
                                                                    labelExpr=_layer_label(t, lang)))
    base = alt.Chart(alt.Data(values=cells)).transform_filter("datum.w == w && datum.l <= layers")
    kinds = alt.Scale(domain=["last", "on", "off"], range=[LAST, REACHED, "#9e9e9e"])
    grid = base.transform_calculate(kind=f"datum.j == {n - 1} ? 'last' : datum.on ? 'on' : 'off'").mark_rect(
        stroke="white", strokeWidth=0.5).encode(
        x=x, y=y, color=alt.Color("kind:N", scale=kinds, legend=None),
        opacity=alt.condition("datum.kind != 'off'", alt.value(0.9), alt.value(0.15)),
        tooltip=[alt.Tooltip("l:O", title=t["y"]), alt.Tooltip("reach:Q", title=t["reach"])])
    one = base.transform_filter("datum.j == 0 && datum.l == layers")
    parts = dict(w=num("w", "d"), l=num("layers", "d"), wm=num("w - 1", "d"), r=num("datum.reach", "d"),
                 n=num("datum.reach + 1", "d"))
    readout = lines_below(one, [(t["line_reach"], dict(fontSize=13, fontWeight="bold")),
                                (t["line_note"], dict(fontSize=12)), SPACER], parts, top=46)
    chart = alt.layer(grid, *readout).add_params(window, layers)
    return single(chart.properties(height=alt.Step(22)), t)


def _layer_label(t: dict, lang: str) -> str:
    return f"replace({js(t['layer_label'])}, '{{l}}', format(datum.value, ',d'))"


def table(data: dict, t: dict, lang: str) -> dict:
    """The brute-force count for every window and depth, next to the formula layers × (window − 1)."""
    c = t["columns"]
    return {"columns": [["window", c["window"], "d"], ["layers", c["layers"], "d"], ["reach", c["reach"], "d"],
                        ["formula", c["formula"], "d"]],
            "rows": data["sc_window"]["reach"]}
