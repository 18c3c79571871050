"""The 49×49 attention matrix of a shape's patches (identity weights), with a divisor slider.

Only the patch vectors (49 × 16 per shape, from sa_patch_attention) are inlined; the browser
computes the scores QKᵀ, softmax(scores / divisor) and the row statistics, so the divisor slider,
the shape selector and hovering a row or a patch all re-run the formula.
"""
import altair as alt

from scripts.charts._kit import (anchor, bidi, dashboard, label, lines_view, parts_by, patch_box, patch_pixels,
                                say, softmax)

DATA = ["sa_patch_attention"]
PANEL = 138          # px of the shape and of the 7×7 grid
MATRIX = 280         # px of the 49×49 heatmap
WEIGHT = alt.Scale(scheme="blues", type="sqrt", domain=[0, 1])
HIGHLIGHT = "#f58518"
# On screen the dashboard is drawn on a canvas: a divisor step recolours all 2 401 cells, which as SVG
# elements took a style and paint pass of their own beyond the 50 ms budget (issue 12). Print and the PDF
# still get SVG (assets/js/charts.js), and so do the static and exported drawings.
SCREEN_RENDERER = {"renderer": "canvas"}


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    pa = data["sa_patch_attention"]
    shapes = pa["shapes"]
    n = len(pa["by_shape"][shapes[0]]["patches"])            # 49 patches
    dim = len(pa["by_shape"][shapes[0]]["patches"][0])       # 16 numbers each
    first = pa["row_example"]

    shape = alt.param(name="shape", value=shapes[0], bind=alt.binding_radio(
        options=shapes, labels=[t["shapes"][s] for s in shapes], name=label(t["shape"])))
    divisor = alt.param(name="divisor", value=pa["divisor"], bind=alt.binding_range(
        min=0.5, max=16, step=0.5, name=label(t["slider"])))
    row = alt.selection_point(name="row", fields=["q"], on="pointerover", clear=False,
                              value=[{"q": first}])
    rowq = alt.param(name="rowq", expr=f"row && row.q ? row.q[0] : {first}")

    patches = [{"shape": s, "i": i, "p": vec}
               for s in shapes for i, vec in enumerate(pa["by_shape"][s]["patches"])]
    source = alt.Data(name="patches", values=patches)

    # scores of every pair (i, j) of the chosen shape, then softmax(scores / divisor) by row. Every view
    # starts from the named patches with these same steps, so Vega-Lite merges them into one pipeline that a
    # divisor step runs once (as a sequence of pairs with lookups, each view ran its own: three times the work).
    dot = " + ".join(f"datum.p[{c}] * datum.pk.p[{c}]" for c in range(dim))
    pairs = (alt.Chart(source).transform_filter(f"datum.shape == {shape.name}")   # none yet while a picked
             .transform_joinaggregate(pk="values(p)")                           # shape's patches load (parts_by)
             .transform_flatten(["pk"])
             .transform_calculate(j="datum.pk.i", s=dot)
             .transform_calculate(z=f"datum.s / {divisor.name}"))
    pairs = softmax(pairs, "z", ["i"]).transform_calculate(plogp="datum.w > 0 ? -datum.w * log(datum.w) : 0")

    # the numbers: the chosen row's entropy and largest weight, and their averages over all rows
    stats = (pairs.transform_aggregate(h="sum(plogp)", m="max(w)", groupby=["i"])
             .transform_joinaggregate(mh="mean(h)", mm="mean(m)")
             .transform_filter(f"datum.i == {rowq.name}"))
    parts = dict(q=f"format({rowq.name}, 'd')", h="format(datum.h, '.3f')", m="format(datum.m, '.3f')",
                 mh="format(datum.mh, '.3f')", mm="format(datum.mm, '.4f')", n=f"format({n}, 'd')",
                 ln=f"format(log({n}), '.3f')", u=f"format(1 / {n}, '.4f')",
                 div=f"format({divisor.name}, '.2f')", sd=f"format(sqrt({dim}), 'd')")
    numbers = lines_view(stats, "text", t["stats"], parts, MATRIX, 2,
                         width=MATRIX, height=17 * len(t["stats"]) + 2, name="stats")

    grid, side = round(n ** 0.5), round(dim ** 0.5)          # 7 patches a side, 4 pixels each
    top = alt.hconcat(_figure(source, t, shape.name, row, rowq.name, grid, side),
                      _looks(pairs, t, row, rowq.name, grid), spacing=20).resolve_scale(fill="independent")
    chart = alt.vconcat(top, _matrix(pairs, t, row, rowq.name, n, grid), numbers, spacing=10)
    return dashboard(chart.resolve_scale(fill="independent").add_params(shape, divisor, rowq), t).properties(
        usermeta=SCREEN_RENDERER | parts_by({"patches": [shape]}))  # a reader sees one shape: the others load when picked


def _matrix(pairs: alt.Chart, t: dict, row, rowq: str, n: int, grid: int) -> alt.LayerChart:
    """The heatmap: row i = where patch i takes its information from."""
    cell = alt.Scale(domain=[0, n], nice=False, zero=False)
    rcell = alt.Scale(domain=[0, n], nice=False, zero=False, reverse=True)
    ticks = list(range(0, n, grid))
    axis = alt.Axis(values=[v + 0.5 for v in ticks], labelExpr="format(datum.value - 0.5, ',d')", title=None,
                    grid=False, ticks=False, domain=False, labelPadding=2, labelFontSize=12)
    # a divisor step re-encodes all 2 401 cells: their tooltips' query and key are written once, not each time
    heat = pairs.transform_calculate(q="datum.i", x0="datum.j", x1="datum.j + 1", y0="datum.i",
                                     y1="datum.i + 1", qi="format(datum.i, 'd')",
                                     kj="format(datum.j, 'd')").mark_rect().encode(
        x=alt.X("x0:Q", scale=cell, axis=axis), x2="x1:Q",
        y=alt.Y("y0:Q", scale=rcell, axis=axis), y2="y1:Q",
        fill=alt.Fill("w:Q", scale=WEIGHT, title=bidi(t["weight"]),
                      legend=alt.Legend(orient="bottom", format=".2f", gradientLength=MATRIX - 80,
                                        values=[0, 0.02, 0.1, 0.25, 0.5, 1], titleFontWeight="normal",
                                        labelOverlap=True)),
        tooltip=[alt.Tooltip("qi:N", title=t["query"]), alt.Tooltip("kj:N", title=t["key"]),
                 alt.Tooltip("w:Q", title=t["weight"], format=".3f")],
    ).add_params(row).properties(name="matrix")
    band = alt.Chart(alt.Data(values=[{"x0": 0, "x1": n}])).transform_calculate(
        y0=rowq, y1=f"{rowq} + 1").mark_rect(
        fill=None, stroke=HIGHLIGHT, strokeWidth=2).encode(
        x=alt.X("x0:Q", scale=cell, axis=axis), x2="x1:Q", y=alt.Y("y0:Q", scale=rcell, axis=axis), y2="y1:Q")
    return alt.layer(heat, band).properties(width=MATRIX, height=MATRIX, title=alt.TitleParams(
        bidi(t["matrix_title"]), fontSize=12, fontWeight="normal", anchor=anchor(t["matrix_title"])))


def _looks(pairs: alt.Chart, t: dict, row, rowq: str, grid: int) -> alt.LayerChart:
    """The 7×7 grid of the chosen patch's row; hovering a patch chooses it."""
    g = alt.Scale(domain=[0, grid], nice=False, zero=False)
    rg = alt.Scale(domain=[0, grid], nice=False, zero=False, reverse=True)
    GX = lambda f: alt.X(f, type="quantitative", scale=g, axis=None)  # noqa: E731
    GY = lambda f: alt.Y(f, type="quantitative", scale=rg, axis=None)  # noqa: E731
    looks = (pairs.transform_filter(f"datum.i == {rowq}")
             .transform_aggregate(w="max(w)", groupby=["j"])         # new tuples: q may be set freely
             .transform_calculate(q="datum.j", gx=f"datum.j % {grid}", gy=f"floor(datum.j / {grid})",
                                  gx1=f"datum.j % {grid} + 0.94", gy1=f"floor(datum.j / {grid}) + 0.94")
             .mark_rect().encode(x=GX("gx"), x2="gx1", y=GY("gy"), y2="gy1",
                                 fill=alt.Fill("w:Q", scale=WEIGHT, legend=None),
                                 tooltip=[alt.Tooltip("j:Q", title=t["key"], format="d"),
                                          alt.Tooltip("w:Q", title=t["weight"], format=".3f")])
             .add_params(row).properties(name="looks"))
    outline = alt.Chart(alt.Data(values=[{"view": "outline"}])).transform_calculate(
        gx=f"{rowq} % {grid}", gy=f"floor({rowq} / {grid})",
        gx1=f"{rowq} % {grid} + 0.94", gy1=f"floor({rowq} / {grid}) + 0.94").mark_rect(
        fill=None, stroke=HIGHLIGHT, strokeWidth=2.5).encode(x=GX("gx"), x2="gx1", y=GY("gy"), y2="gy1")
    looks_title = alt.TitleParams(alt.expr(say(t["looks"], q=f"format({rowq}, 'd')")),
                                  fontSize=12, anchor=anchor(t["looks"]))
    return alt.layer(looks, outline).properties(width=PANEL, height=PANEL, title=looks_title)


def _figure(source: alt.Data, t: dict, shape: str, row, rowq: str, grid: int, side: int) -> alt.LayerChart:
    """The shape itself, pixel by pixel (standardised values), with the chosen patch outlined."""
    pixels = patch_pixels(alt.Chart(source).transform_filter(f"datum.shape == {shape}"), "i", grid, side,
                          alt.Scale(scheme="greys"), q="datum.i").encode(
        tooltip=[alt.Tooltip("i:Q", title=t["query"], format="d")]).add_params(row).properties(name="pixels")
    return alt.layer(pixels, patch_box(rowq, grid, side, HIGHLIGHT)).properties(
        width=PANEL, height=PANEL, title=alt.TitleParams(bidi(t["figure"]), fontSize=12, anchor=anchor(t["figure"])))


def table(data: dict, t: dict, lang: str) -> dict:
    """Per shape, at divisor √d = 4: average row entropy and largest weight, and the example row."""
    pa = data["sa_patch_attention"]
    c = t["columns"]
    rows = [dict(r, name=t["shapes"][r["shape"]]) for r in pa["summary"]]
    return {"columns": [["name", c["shape"], "s"], ["mean_entropy", c["mean_entropy"], ".2f"],
                        ["mean_row_max", c["mean_row_max"], ".2f"], ["row10_entropy", c["row10_entropy"], ".2f"],
                        ["on_shape", c["on_shape"], "d"]],
            "rows": rows}
