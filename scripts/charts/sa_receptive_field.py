"""Receptive field of L stacked 3×3 convolutions next to attention, which covers the frame at once."""
import math

import altair as alt

from scripts.charts._kit import anchor, bidi, dashboard, label, lines_view
from scripts.charts._palette import BOTH

DATA = ["sa_receptive_field"]
SIDE = 146   # px of each 28×28 frame; two frames side by side fit a 390 px phone


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    rf = data["sa_receptive_field"]
    frame, patch, kernel = rf["frame"], rf["patch"], rf["kernel"]
    grid = frame // patch
    centre = frame // 2 - 1          # the experiment's central output pixel (row and column 13)
    rows = rf["by_layers"]
    for r in rows:                   # the square drawn below is the one the experiment measured
        lo, hi = max(centre - r["layers"], 0), min(centre + r["layers"], frame - 1)
        assert math.isclose((hi - lo + 1) ** 2 / frame ** 2, r["center_share"], rel_tol=1e-4), r

    layers = alt.param(name="layers", value=3, bind=alt.binding_range(
        min=rows[0]["layers"], max=rows[-1]["layers"], step=1, name=label(t["slider"])))
    current = alt.Chart(alt.Data(values=rows)).transform_filter(f"datum.layers == {layers.name}")

    # the numbers under each frame, updated by the slider
    def readout(lines_: list[str], name: str):
        base = current.transform_calculate(        # formatted copies, f_<name>, for the lines' {name}
            f_L="format(datum.layers, 'd')", f_rf="format(datum.rf, 'd')",
            f_kw="format(datum.kernel_weights, ',d')", f_share="format(datum.center_share, '.1%')",
            f_ashare="format(datum.attention_share, '.0%')", f_n=f"format({grid * grid}, 'd')",
            f_pairs="format(datum.attention_pairs, ',d')", f_k=f"format({kernel}, 'd')",
            f_kk=f"format({kernel * kernel}, 'd')", f_f=f"format({frame}, 'd')", f_p=f"format({patch}, 'd')")
        parts = {k: f"datum.f_{k}" for k in ("L", "rf", "kw", "share", "ashare", "n", "pairs", "k", "kk", "f", "p")}
        # the two readouts share their source: own fields
        return lines_view(base, f"text_{name}", lines_, parts, SIDE, 4, size=12,   # 13 px ran past the frame
                          width=SIDE, height=17 * len(lines_) + 4, name=name)

    left = alt.vconcat(_conv(current, t, frame, centre), readout(t["conv_lines"], "conv_numbers"), spacing=6)
    right = alt.vconcat(_attn(t, frame, patch), readout(t["attn_lines"], "attn_numbers"), spacing=6)
    return dashboard(alt.hconcat(left, right, spacing=18).add_params(layers).configure_title(offset=6), t)


def _axes(frame: int):
    scale = alt.Scale(domain=[0, frame], nice=False, zero=False)
    yscale = alt.Scale(domain=[0, frame], nice=False, zero=False, reverse=True)
    return (lambda f: alt.X(f, type="quantitative", scale=scale, axis=None),
            lambda f: alt.Y(f, type="quantitative", scale=yscale, axis=None))


def _frame_rect(frame: int, fill: str, opacity: float):
    X, Y = _axes(frame)
    return alt.Chart(alt.Data(values=[{"a": 0, "b": frame}])).mark_rect(
        fill=fill, fillOpacity=opacity, stroke="#888", strokeWidth=1).encode(
        x=X("a"), x2="b", y=Y("a"), y2="b")


def _conv(current: alt.Chart, t: dict, frame: int, centre: int) -> alt.LayerChart:
    """Pixel grid, the receptive field of the central output pixel, and that pixel."""
    X, Y = _axes(frame)
    lines = alt.Chart(alt.Data(values=[{"v": v} for v in range(1, frame)])).mark_rule(
        stroke="#888", strokeOpacity=0.18, strokeWidth=0.5)
    pix_v = lines.encode(x=X("v"), y=alt.YValue(0), y2=alt.YValue(SIDE))
    pix_h = lines.encode(y=Y("v"), x=alt.XValue(0), x2=alt.XValue(SIDE))
    field = current.transform_calculate(
        lo=f"max({centre} - datum.layers, 0)", hi=f"min({centre} + datum.layers, {frame - 1}) + 1",
    ).mark_rect(fill="#f58518", fillOpacity=0.55, stroke="#f58518", strokeWidth=1.5).encode(
        x=X("lo"), x2="hi", y=Y("lo"), y2="hi")
    centre_px = alt.Chart(alt.Data(values=[{"a": centre, "b": centre + 1}])).mark_rect(
        fill="#b5391a").encode(x=X("a"), x2="b", y=Y("a"), y2="b")
    return (_frame_rect(frame, "#888", 0.06) + pix_v + pix_h + field + centre_px).properties(
        title=alt.TitleParams(bidi(t["conv"]), fontSize=12, anchor=anchor(t["conv"])), width=SIDE, height=SIDE)


def _attn(t: dict, frame: int, patch: int) -> alt.LayerChart:
    """The whole frame, the 7×7 patch grid, and lines from the central patch to every other."""
    X, Y = _axes(frame)
    grid = frame // patch
    cuts = alt.Chart(alt.Data(values=[{"v": v * patch} for v in range(1, grid)])).mark_rule(
        stroke="#4c78a8", strokeOpacity=0.7, strokeWidth=1)
    cut_v = cuts.encode(x=X("v"), y=alt.YValue(0), y2=alt.YValue(SIDE))
    cut_h = cuts.encode(y=Y("v"), x=alt.XValue(0), x2=alt.XValue(SIDE))
    mid = (grid // 2 + 0.5) * patch
    links = alt.Chart(alt.Data(values=[
        {"x": (k % grid + 0.5) * patch, "y": (k // grid + 0.5) * patch, "x0": mid, "y0": mid}
        for k in range(grid * grid) if k != grid * grid // 2])).mark_rule(
        stroke=BOTH["blue"], strokeOpacity=0.9, strokeWidth=0.8).encode(
        x=X("x0"), y=Y("y0"), x2="x", y2="y")
    hub = alt.Chart(alt.Data(values=[{"x": mid}])).mark_point(
        filled=True, size=30, color=BOTH["blue"], opacity=1).encode(x=X("x"), y=Y("x"))
    return (_frame_rect(frame, BOTH["blue"], 0.3) + cut_v + cut_h + links + hub).properties(
        title=alt.TitleParams(bidi(t["attn"]), fontSize=12, anchor=anchor(t["attn"])), width=SIDE, height=SIDE)


def table(data: dict, t: dict, lang: str) -> dict:
    """Per number of layers: the field, the kernel numbers it took, the share of the frame, attention's pairs."""
    c = t["columns"]
    return {"columns": [["layers", c["layers"], "d"], ["rf", c["rf"], "d"], ["kernel_weights", c["kernel_weights"], "d"],
                        ["center_share", c["center_share"], ".1%"], ["attention_pairs", c["attention_pairs"], ",d"]],
            "rows": data["sa_receptive_field"]["by_layers"]}
