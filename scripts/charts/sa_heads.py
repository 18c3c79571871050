"""Several heads: where one chosen patch of the ring looks with each head, and the parameter count.

The projections q = X Wq + bq and k = X Wk + bk of a freshly initialised nn.MultiheadAttention
(d = 32, from sa_heads) are inlined once; with H heads, head h uses columns h·d/H … (h+1)·d/H − 1,
and the browser computes softmax(q_h k_hᵀ / √(d/H)) for the chosen patch's row. The same weights
serve every head count, so the parameter count 4d² + 4d does not move.
"""
import altair as alt

from scripts.charts._kit import (bidi, dashboard, label, lines_view, patch_box, patch_pixels, rtl, say,
                                softmax)
from scripts.common.numfmt import fmt

DATA = ["sa_heads", "sa_equivariance"]
RING = 120           # px of the ring picture
WIDTH = 306          # px of the heads panel
UNIT = WIDTH / 31    # px per grid cell when four grids share a row
LAB = 1.4            # grid units above each grid for its label
HIGHLIGHT = "#f58518"
PRINTED = {"patch": 10, "heads": 4}  # the controls' first state: what paper and the data table show


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    inter = data["sa_heads"]["interactive"]
    d, counts = inter["d"], inter["head_counts"]
    n = len(inter["q"])
    grid = round(n ** 0.5)
    ring = data["sa_equivariance"]["patches"]
    assert data["sa_equivariance"]["shape"] == data["sa_heads"]["shape"] and len(ring) == n
    side = round(len(ring[0]) ** 0.5)
    for r in data["sa_heads"]["params"]:          # the counter below is what torch counted
        assert r["counted"] == 4 * r["d"] ** 2 + 4 * r["d"], r

    patch = alt.param(name="patch", value=PRINTED["patch"], bind=alt.binding_range(
        min=0, max=n - 1, step=1, name=label(t["slider"])))
    heads = alt.param(name="heads", value=PRINTED["heads"], bind=alt.binding_radio(
        options=counts, labels=[t["head_labels"][str(h)] for h in counts], name=label(t["heads"])))
    P, H = patch.name, heads.name

    # the ring, with the chosen patch outlined
    pixels = alt.Data(values=[{"i": i, "p": vec} for i, vec in enumerate(ring)])
    img = patch_pixels(alt.Chart(pixels), "i", grid, side, alt.Scale(scheme="greys"))
    picture = alt.layer(img, patch_box(P, grid, side, HIGHLIGHT)).properties(width=RING, height=RING)

    # the counters: the head size changes with the number of heads, the parameter count does not
    parts = dict(p=f"format({P}, 'd')", h=f"format({H}, 'd')", hd=f"format({d} / {H}, 'd')",
                 d=f"format({d}, 'd')", params=f"format(4 * {d} * {d} + 4 * {d}, ',d')",
                 n=f"format({n}, 'd')")
    text_w = WIDTH - RING - 14

    def lines(key: str, name: str, y0: int):
        return lines_view(alt.Chart(alt.Data(values=[{"view": name}])), f"text_{name}", t[key], parts, text_w, y0,
                          name=name)

    info = alt.layer(lines("about", "about", 4), lines("params", "params", 4 + 17 * len(t["about"]) + 10)).properties(
        width=text_w, height=RING)

    top = alt.hconcat(picture, info, spacing=14)
    chart = alt.vconcat(top, _heads_view(inter, t, P, H), spacing=10).resolve_scale(fill="independent")
    return dashboard(chart.add_params(patch, heads), t)


def _heads_view(inter: dict, t: dict, P: str, H: str) -> alt.LayerChart:
    """One 7×7 grid of the chosen patch's weights per head."""
    d, n = inter["d"], len(inter["q"])
    grid = round(n ** 0.5)
    tokens = alt.Data(values=[{"j": j, "q": q, "k": k} for j, (q, k) in enumerate(zip(inter["q"], inter["k"]))])
    dot = " + ".join(f"(floor({c} / datum.hd) == datum.h ? datum.qp[{c}] * datum.k[{c}] : 0)" for c in range(d))
    per_head = softmax(alt.Chart(tokens)
                       .transform_calculate(pk=P)
                       .transform_lookup(lookup="pk", from_=alt.LookupData(data=tokens, key="j", fields=["q"]),
                                         as_=["qp"])
                       .transform_calculate(hs=f"sequence(0, {H})", hd=f"{d} / {H}")
                       .transform_flatten(["hs"], as_=["h"])
                       .transform_calculate(score=dot)
                       .transform_calculate(z="datum.score / sqrt(datum.hd)"), "z", ["h"])
    # one 7×7 grid per head: 1–2 heads big, 4 heads small in a centred 2×2, 8 heads 4×2
    per_head = (per_head.transform_calculate(per=f"{H} == 8 ? 4 : 2", cu=f"{H} <= 2 ? 2 : 1",
                                             off=f"{H} == 1 || {H} == 4 ? 8 : 0")
                .transform_calculate(gx0=f"datum.off + (datum.h % datum.per) * 8 * datum.cu",
                                     gy0=f"floor(datum.h / datum.per) * (8 * datum.cu + {LAB}) + {LAB}")
                .transform_calculate(x0=f"datum.gx0 + (datum.j % {grid}) * datum.cu",
                                     y0=f"datum.gy0 + floor(datum.j / {grid}) * datum.cu")
                .transform_calculate(x1="datum.x0 + 0.9 * datum.cu", y1="datum.y0 + 0.9 * datum.cu"))
    height_units = 2 * (8 + LAB)
    sx = alt.Scale(domain=[0, 31], nice=False, zero=False)
    sy = alt.Scale(domain=[0, height_units], nice=False, zero=False, reverse=True)
    GX = lambda f: alt.X(f, type="quantitative", scale=sx, axis=None)  # noqa: E731
    GY = lambda f: alt.Y(f, type="quantitative", scale=sy, axis=None)  # noqa: E731
    cells = per_head.mark_rect().encode(
        x=GX("x0"), x2="x1", y=GY("y0"), y2="y1",
        # one fixed scale, 0–1, for every patch and head count: a scale fitted to each setting made a
        # near-uniform head (weights ≈ 1/49) look as dark as a sharp one; sqrt keeps small weights visible
        fill=alt.Fill("w:Q", scale=alt.Scale(scheme="blues", type="sqrt", domain=[0, 1], clamp=True),
                      title=bidi(t["weight_scale"]),
                      legend=alt.Legend(orient="bottom", format=".2f", gradientLength=160, values=[0, 0.05, 0.25, 1],
                                        titleLimit=WIDTH,  # the whole title, never cut with «…»
                                        titleFontWeight="normal", direction="horizontal")),
        tooltip=[alt.Tooltip("h1:Q", title=t["head"], format="d"), alt.Tooltip("j:Q", title=t["key"], format="d"),
                 alt.Tooltip("w:Q", title=t["weight"], format=".3f")],
    ).transform_calculate(h1="datum.h + 1").properties(name="cells")
    chosen = per_head.transform_filter(f"datum.j == {P}").mark_rect(
        fill=None, stroke=HIGHLIGHT, strokeWidth=2).encode(x=GX("x0"), x2="x1", y=GY("y0"), y2="y1")
    right = rtl(t["head_title"])
    names = per_head.transform_filter("datum.j == 0").transform_calculate(
        text=say(t["head_title"], h="format(datum.h + 1, 'd')"),
        tx=f"datum.gx0 + (datum.cu * {grid} - 0.1) * {1 if right else 0}", ty="datum.gy0 - 0.25").mark_text(
        align="right" if right else "left", baseline="bottom", fontSize=12).encode(
        x=GX("tx"), y=GY("ty"), text="text:N")
    return alt.layer(cells, chosen, names).properties(width=WIDTH, height=round(height_units * UNIT))


def table(data: dict, t: dict, lang: str) -> dict:
    """What the printed state draws: the chosen patch's attention row in each head, one row per key patch,
    computed here as the browser computes it (softmax(q_h k_hᵀ / √(d/H)) from the same inlined q and k)."""
    import math
    inter = data["sa_heads"]["interactive"]
    d, q, k = inter["d"], inter["q"], inter["k"]
    p, h = PRINTED["patch"], PRINTED["heads"]
    hd = d // h
    rows = [{"j": j} for j in range(len(k))]
    for head in range(h):
        cols = range(head * hd, (head + 1) * hd)
        z = [sum(q[p][c] * kj[c] for c in cols) / math.sqrt(hd) for kj in k]
        top = max(z)
        e = [math.exp(v - top) for v in z]
        for row, v in zip(rows, e):
            row[f"w{head + 1}"] = v / sum(e)
    heads = [[f"w{i + 1}", t["head_title"].format(h=fmt(i + 1, "d", lang)), ".3f"] for i in range(h)]
    return {"title": t["table_title"].format(p=fmt(p, "d", lang), h=fmt(h, "d", lang)),
            "columns": [["j", t["key"], "d"], *heads], "rows": rows}
