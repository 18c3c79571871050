"""The price is quadratic: multiplications in the attention matrix (2n²d) against the projections
(4nd²) for a chosen patch size (n tokens of a 28×28 frame) and width d; they break even at n = 2d.

The browser applies the two formulas of sa_cost to the chosen patch size and d.
"""
import altair as alt

from scripts.charts._kit import align, bidi, dashboard, hue_scale, js, label, lines_view, say

DATA = ["sa_cost"]
WIDTH = "container"   # every panel takes the page's width
HUES_OF_KIND = {"matrix": "red", "proj": "blue"}
LINES_H = 170


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    cost = data["sa_cost"]
    frame = cost["frame"]
    patches = [r["patch"] for r in cost["by_patch"]]
    d_opts = cost["d_options"]
    for r in cost["by_patch"]:          # the formulas the browser applies are the experiment's
        n = (frame // r["patch"]) ** 2
        assert (r["tokens"], r["mult_matrix"], r["mult_proj"]) == (n, 2 * n * n * cost["d"], 4 * n * cost["d"] ** 2)

    patch = alt.param(name="patch", value=4, bind=alt.binding_radio(
        options=patches, labels=[t["patch_labels"][str(p)] for p in patches], name=label(t["patch"])))
    dim = alt.param(name="dim", value=cost["d"], bind=alt.binding_range(
        min=d_opts[0], max=d_opts[-1], step=d_opts[0], name=label(t["slider"])))
    N = f"pow({frame} / {patch.name}, 2)"
    D = dim.name
    kinds = alt.Data(values=[{"row": 0, "kind": "matrix", "name": bidi(t["matrix"])},
                             {"row": 1, "kind": "proj", "name": bidi(t["proj"])}])
    bars_base = alt.Chart(kinds).transform_calculate(
        n=N, value=f"datum.kind == 'matrix' ? 2 * {N} * {N} * {D} : 4 * {N} * {D} * {D}")
    colour = alt.Color("kind:N", scale=hue_scale(HUES_OF_KIND), legend=None)

    # the numbers in words
    parts = dict(p=f"format({patch.name}, 'd')", n=f"format({N}, ',d')", pairs=f"format({N} * {N}, ',d')",
                 d=f"format({D}, ',d')", ratio=f"format({N} / (2 * {D}), '.2f')")
    words = lines_view(alt.Chart(alt.Data(values=[{"view": "words"}])), "t_words", t["lines"], parts, alt.expr("width"), 2,
                       width=WIDTH, height=17 * len(t["lines"]) + 2, name="words")
    chart = alt.vconcat(words, _bars(bars_base, colour, t), _lines(bars_base, colour, t, frame, patches, D),
                        spacing=10)
    return dashboard(chart.add_params(patch, dim), t)


def _bars(bars_base: alt.Chart, colour: alt.Color, t: dict) -> alt.LayerChart:
    """Where the multiplications go: one bar each for the matrix and the projections."""
    bx = alt.Scale(zero=True, nice=False)
    by = alt.Scale(domain=[-0.85, 1.45], nice=False, zero=False, reverse=True)
    bars = bars_base.transform_calculate(y0="datum.row - 0.25", y1="datum.row + 0.25").mark_rect(
        fillOpacity=0.3, strokeWidth=1.5).encode(x=alt.X("value:Q", scale=bx, axis=None), x2=alt.X2(datum=0),
                             y=alt.Y("y0:Q", scale=by, axis=None), y2="y1:Q", color=colour,
                             stroke=alt.Stroke("kind:N", scale=hue_scale(HUES_OF_KIND), legend=None))
    # the pale fill keeps the white value legible; the full-colour outline keeps the bar ≥ 3:1 in dark
    values = bars_base.transform_calculate(t_value="format(datum.value, ',d')").mark_text(
        align="left", dx=4, fontSize=13, fontWeight="bold").encode(
        x=alt.XDatum(0, scale=bx), y=alt.Y("row:Q", scale=by, axis=None), text="t_value:N").properties(name="bar_values")
    names = bars_base.mark_text(align=align(t["matrix"]), baseline="bottom", dy=-10, fontSize=12).encode(
        x=alt.XValue("width" if align(t["matrix"]) == "right" else 0), y=alt.Y("row:Q", scale=by, axis=None),
        text="name:N")
    return alt.layer(bars, values, names).properties(width=WIDTH, height=92)


def _lines(bars_base: alt.Chart, colour: alt.Color, t: dict, frame: int, patches: list, D: str) -> alt.LayerChart:
    """Both costs against the number of tokens; they cross at n = 2d."""
    lines_base = (alt.Chart(alt.sequence(0, 37, as_="i"))
                  .transform_calculate(n="pow(2, 1 + datum.i / 4)")
                  .transform_calculate(matrix=f"2 * datum.n * datum.n * {D}", proj=f"4 * datum.n * {D} * {D}")
                  .transform_fold(["matrix", "proj"], as_=["kind", "value"]))
    lx = alt.X("n:Q", scale=alt.Scale(type="log", domain=[2, 1024], nice=False), title=bidi(t["x"]),
               axis=alt.Axis(values=[(frame // p) ** 2 for p in patches] + [784], format=",d",
                             titleFontWeight="normal", grid=False))
    ly = alt.Y("value:Q", scale=alt.Scale(type="log"), axis=None)
    # what the (unlabelled) vertical axis counts, in the corner the curves never reach
    y_title = alt.Chart(alt.Data(values=[{"view": "y_title"}])).mark_text(
        align="right", baseline="bottom", x=alt.expr("width"), y=LINES_H, dy=-3, fontSize=12).encode(
        text=alt.value(bidi(t["y"])))
    curves = lines_base.mark_line(strokeWidth=2, clip=True).encode(x=lx, y=ly, color=colour)
    now = (bars_base.mark_point(filled=True, size=80, opacity=1).encode(x=lx, y=ly, color=colour))
    even = alt.Chart(alt.Data(values=[{"view": "even"}])).transform_calculate(n=f"2 * {D}")
    rule = even.mark_rule(strokeDash=[4, 3], color="#888").encode(x=lx)
    even_text = even.transform_calculate(t_even=say(t["even"], d=f"format({D}, ',d')", n=f"format(2 * {D}, ',d')")).mark_text(
        # right of its rule, or left of it where the rule nears the right edge (n = 2d past 2^6.4 of 2^10)
        align={"expr": f"log(2 * {D}) / LN2 > 6.4 ? 'right' : 'left'"},
        dx={"expr": f"log(2 * {D}) / LN2 > 6.4 ? -4 : 4"}, baseline="top", y=4, fontSize=12).encode(
        x=lx, text="t_even:N")
    now_rule = bars_base.transform_filter("datum.row == 0").mark_rule(color="#888", opacity=0.5).encode(x=lx)
    key = lines_base.transform_filter("datum.i == 36").transform_calculate(
        name=f"datum.kind == 'matrix' ? {js(bidi(t['matrix_short']))} : {js(bidi(t['proj_short']))}").mark_text(
        # at n = 1024 > 2d the matrix's curve is the upper one: its name above it, the projections' below
        align="right", dx=-2, dy={"expr": "datum.kind == 'matrix' ? -8 : 12"}, fontSize=12).encode(
        x=lx, y=ly, color=colour, text="name:N")
    return alt.layer(curves, rule, now_rule, now, even_text, key, y_title).properties(width=WIDTH, height=LINES_H)


def table(data: dict, t: dict, lang: str) -> dict:
    """Per patch size at d = 32: tokens, pairs and the two multiplication counts."""
    c = t["columns"]
    return {"columns": [["patch", c["patch"], "d"], ["tokens", c["tokens"], "d"], ["pairs", c["pairs"], ",d"],
                        ["mult_matrix", t["matrix"], ",d"], ["mult_proj", t["proj"], ",d"]],
            "rows": data["sa_cost"]["by_patch"]}
