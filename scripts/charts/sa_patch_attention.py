"""The 49×49 attention matrix of a shape's patches (identity weights), with a divisor slider.

Only the patch vectors (49 × 16 per shape, from sa_patch_attention) are inlined; the browser
computes the scores QKᵀ, softmax(scores / divisor) and the row statistics, so the divisor slider,
the shape selector and hovering a row or a patch all re-run the formula.
"""
import re

import altair as alt

from scripts.charts._text import rtl, bidi, say, label, anchor

DATA = ["sa_patch_attention"]
PADDING = {"top": 28, "left": 5, "right": 5, "bottom": 5}   # the page's chart menu sits top right
PANEL = 138          # px of the shape and of the 7×7 grid
MATRIX = 280         # px of the 49×49 heatmap
WEIGHT = alt.Scale(scheme="blues", type="sqrt", domain=[0, 1])
HIGHLIGHT = "#f58518"


def build(data: dict, t: dict) -> alt.TopLevelMixin:
    pa = data["sa_patch_attention"]
    shapes = pa["shapes"]
    n = len(pa["by_shape"][shapes[0]]["patches"])            # 49 patches
    dim = len(pa["by_shape"][shapes[0]]["patches"][0])       # 16 numbers each
    grid = round(n ** 0.5)                                   # 7
    side = round(dim ** 0.5)                                 # 4 pixels
    first = pa["row_example"]

    shape = alt.param(name="shape", value=shapes[0], bind=alt.binding_radio(
        options=shapes, labels=[t["shapes"][s] for s in shapes], name=label(t["shape"])))
    divisor = alt.param(name="divisor", value=pa["divisor"], bind=alt.binding_range(
        min=0.5, max=16, step=0.5, name=label(t["slider"])))
    row = alt.selection_point(name="row", fields=["q"], on="pointerover", clear=False,
                              value=[{"q": first}])
    rowq = alt.param(name="rowq", expr=f"row && row.q ? row.q[0] : {first}")

    patches = [{"key": f"{s}:{i}", "shape": s, "i": i, "p": vec}
               for s in shapes for i, vec in enumerate(pa["by_shape"][s]["patches"])]
    source = alt.Data(values=patches)

    # scores of every pair (i, j) of the chosen shape, then softmax(scores / divisor) by row
    dot = " + ".join(f"datum.pi[{c}] * datum.pj[{c}]" for c in range(dim))
    pairs = (alt.Chart(alt.sequence(0, n * n, as_="m"))
             .transform_calculate(i=f"floor(datum.m / {n})", j=f"datum.m % {n}")
             .transform_calculate(ki=f"{shape.name} + ':' + datum.i", kj=f"{shape.name} + ':' + datum.j")
             .transform_lookup(lookup="ki", from_=alt.LookupData(data=source, key="key", fields=["p"]),
                               as_=["pi"])
             .transform_lookup(lookup="kj", from_=alt.LookupData(data=source, key="key", fields=["p"]),
                               as_=["pj"])
             .transform_calculate(s=dot)
             .transform_calculate(z=f"datum.s / {divisor.name}")
             .transform_joinaggregate(zmax="max(z)", groupby=["i"])
             .transform_calculate(e="exp(datum.z - datum.zmax)")
             .transform_joinaggregate(esum="sum(e)", groupby=["i"])
             .transform_calculate(w="datum.e / datum.esum")
             .transform_calculate(plogp="datum.w > 0 ? -datum.w * log(datum.w) : 0"))

    # the heatmap: row i = where patch i takes its information from
    cell = alt.Scale(domain=[0, n], nice=False, zero=False)
    rcell = alt.Scale(domain=[0, n], nice=False, zero=False, reverse=True)
    ticks = list(range(0, n, grid))
    axis = alt.Axis(values=[v + 0.5 for v in ticks], labelExpr="format(datum.value - 0.5, 'd')", title=None,
                    grid=False, ticks=False, domain=False, labelPadding=2, labelFontSize=9)
    heat = pairs.transform_calculate(q="datum.i", x0="datum.j", x1="datum.j + 1", y0="datum.i",
                                     y1="datum.i + 1").mark_rect().encode(
        x=alt.X("x0:Q", scale=cell, axis=axis), x2="x1:Q",
        y=alt.Y("y0:Q", scale=rcell, axis=axis), y2="y1:Q",
        fill=alt.Fill("w:Q", scale=WEIGHT, title=bidi(t["weight"]),
                      legend=alt.Legend(orient="bottom", format=".2f", gradientLength=MATRIX - 80,
                                        values=[0, 0.02, 0.1, 0.25, 0.5, 1], titleFontWeight="normal",
                                        labelOverlap=True)),
        tooltip=[alt.Tooltip("i:Q", title=t["query"], format="d"), alt.Tooltip("j:Q", title=t["key"], format="d"),
                 alt.Tooltip("w:Q", title=t["weight"], format=".3f")],
    ).add_params(row).properties(name="matrix")
    band = alt.Chart(alt.Data(values=[{"x0": 0, "x1": n}])).transform_calculate(
        y0=rowq.name, y1=f"{rowq.name} + 1").mark_rect(
        fill=None, stroke=HIGHLIGHT, strokeWidth=2).encode(
        x=alt.X("x0:Q", scale=cell, axis=axis), x2="x1:Q", y=alt.Y("y0:Q", scale=rcell, axis=axis), y2="y1:Q")
    matrix = alt.layer(heat, band).properties(width=MATRIX, height=MATRIX, title=alt.TitleParams(
        bidi(t["matrix_title"]), fontSize=12, fontWeight="normal", anchor=anchor(t["matrix_title"])))

    # the 7×7 grid of the chosen patch's row; hovering a patch chooses it
    g = alt.Scale(domain=[0, grid], nice=False, zero=False)
    rg = alt.Scale(domain=[0, grid], nice=False, zero=False, reverse=True)
    GX = lambda f: alt.X(f, type="quantitative", scale=g, axis=None)  # noqa: E731
    GY = lambda f: alt.Y(f, type="quantitative", scale=rg, axis=None)  # noqa: E731
    looks = (pairs.transform_filter(f"datum.i == {rowq.name}")
             .transform_aggregate(w="max(w)", groupby=["j"])         # new tuples: q may be set freely
             .transform_calculate(q="datum.j", gx=f"datum.j % {grid}", gy=f"floor(datum.j / {grid})",
                                  gx1=f"datum.j % {grid} + 0.94", gy1=f"floor(datum.j / {grid}) + 0.94")
             .mark_rect().encode(x=GX("gx"), x2="gx1", y=GY("gy"), y2="gy1",
                                 fill=alt.Fill("w:Q", scale=WEIGHT, legend=None),
                                 tooltip=[alt.Tooltip("j:Q", title=t["key"], format="d"),
                                          alt.Tooltip("w:Q", title=t["weight"], format=".3f")])
             .add_params(row).properties(name="looks"))
    outline = alt.Chart(alt.Data(values=[{"view": "outline"}])).transform_calculate(
        gx=f"{rowq.name} % {grid}", gy=f"floor({rowq.name} / {grid})",
        gx1=f"{rowq.name} % {grid} + 0.94", gy1=f"floor({rowq.name} / {grid}) + 0.94").mark_rect(
        fill=None, stroke=HIGHLIGHT, strokeWidth=2.5).encode(x=GX("gx"), x2="gx1", y=GY("gy"), y2="gy1")
    looks_title = alt.TitleParams(alt.expr(say(t["looks"], q=f"format({rowq.name}, 'd')")),
                                  fontSize=12, anchor=anchor(t["looks"]))
    weights_grid = alt.layer(looks, outline).properties(width=PANEL, height=PANEL, title=looks_title)

    # the shape itself, pixel by pixel (standardised values), with the chosen patch outlined
    px = alt.Scale(domain=[0, grid * side], nice=False, zero=False)
    rpx = alt.Scale(domain=[0, grid * side], nice=False, zero=False, reverse=True)
    pixels = (alt.Chart(source).transform_filter(f"datum.shape == {shape.name}")
              .transform_calculate(k=f"sequence(0, {dim})")
              .transform_flatten(["p", "k"], as_=["v", "k"])
              .transform_calculate(q="datum.i",
                                   x0=f"(datum.i % {grid}) * {side} + datum.k % {side}",
                                   y0=f"floor(datum.i / {grid}) * {side} + floor(datum.k / {side})")
              .transform_calculate(x1="datum.x0 + 1", y1="datum.y0 + 1")
              .mark_rect().encode(
                  x=alt.X("x0:Q", scale=px, axis=None), x2="x1:Q",
                  y=alt.Y("y0:Q", scale=rpx, axis=None), y2="y1:Q",
                  fill=alt.Fill("v:Q", scale=alt.Scale(scheme="greys"), legend=None),
                  tooltip=[alt.Tooltip("i:Q", title=t["query"], format="d")])
              .add_params(row).properties(name="pixels"))
    box = alt.Chart(alt.Data(values=[{"view": "box"}])).transform_calculate(
        x0=f"({rowq.name} % {grid}) * {side}", y0=f"floor({rowq.name} / {grid}) * {side}",
        x1=f"({rowq.name} % {grid} + 1) * {side}", y1=f"(floor({rowq.name} / {grid}) + 1) * {side}",
    ).mark_rect(fill=None, stroke=HIGHLIGHT, strokeWidth=2.5).encode(
        x=alt.X("x0:Q", scale=px, axis=None), x2="x1:Q", y=alt.Y("y0:Q", scale=rpx, axis=None), y2="y1:Q")
    figure = alt.layer(pixels, box).properties(
        width=PANEL, height=PANEL, title=alt.TitleParams(bidi(t["figure"]), fontSize=12, anchor=anchor(t["figure"])))

    # the numbers: the chosen row's entropy and largest weight, and their averages over all rows
    stats = (pairs.transform_aggregate(h="sum(plogp)", m="max(w)", groupby=["i"])
             .transform_joinaggregate(mh="mean(h)", mm="mean(m)")
             .transform_filter(f"datum.i == {rowq.name}"))
    parts = dict(q=f"format({rowq.name}, 'd')", h="format(datum.h, '.3f')", m="format(datum.m, '.3f')",
                 mh="format(datum.mh, '.3f')", mm="format(datum.mm, '.4f')", n=f"format({n}, 'd')",
                 ln=f"format(log({n}), '.3f')", u=f"format(1 / {n}, '.4f')",
                 div=f"format({divisor.name}, '.2f')", sd=f"format(sqrt({dim}), 'd')")
    lines = [say(line, **{name: parts[name] for name in re.findall(r"\{(\w+)\}", line)}) for line in t["stats"]]
    right = rtl(t["stats"][0])
    numbers = stats.transform_calculate(text="[" + ", ".join(lines) + "]").mark_text(
        align="right" if right else "left", baseline="top", fontSize=12, lineHeight=17,
        x=MATRIX if right else 0, y=2).encode(text="text:N").properties(
        width=MATRIX, height=17 * len(lines) + 2, name="stats")

    top = alt.hconcat(figure, weights_grid, spacing=20).resolve_scale(fill="independent")
    return alt.vconcat(top, matrix, numbers, spacing=10).resolve_scale(fill="independent").add_params(
        shape, divisor, rowq).configure_view(
        stroke=None).properties(title=alt.TitleParams(bidi(t["title"]), fontSize=14, anchor="middle"), padding=PADDING,
                                description=t["description"])


def table(data: dict, t: dict) -> dict:
    """Per shape, at divisor √d = 4: average row entropy and largest weight, and the example row."""
    pa = data["sa_patch_attention"]
    c = t["columns"]
    rows = [dict(r, name=t["shapes"][r["shape"]]) for r in pa["summary"]]
    return {"columns": [["name", c["shape"], "s"], ["mean_entropy", c["mean_entropy"], ".2f"],
                        ["mean_row_max", c["mean_row_max"], ".2f"], ["row10_entropy", c["row10_entropy"], ".2f"],
                        ["on_shape", c["on_shape"], "d"]],
            "rows": rows}
