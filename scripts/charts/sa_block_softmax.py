"""Softmax of one row in float32, naive and with the row's maximum subtracted, as its scores grow.

Every weight is computed by sa_block in float32 (numpy) for each scale of the slider: a browser
computes in float64 and would not overflow where float32 does, so nothing here is recomputed.
"""
import altair as alt

from scripts.charts._kit import bidi, hue_scale, js, label, lines_below, num, single

DATA = ["sa_block"]
METHODS = ("naive", "stable")
HUES = {"naive": "blue", "stable": "orange"}


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    block = data["sa_block"]
    soft = block["softmax"]
    scales = sorted({r["scale"] for r in block["slider"]})
    names = t["tokens"]
    assert len(names) == len(soft["normal"]["logits"])
    method = {m: bidi(t[m]) for m in METHODS}
    rows = [dict(r, method_label=method[r["method"]], name=names[r["key"]],
                 shown=r["weight"] if r["weight"] is not None else 0) for r in block["slider"]]

    scale = alt.param(name="scale", value=scales[-1], bind=alt.binding_range(
        min=scales[0], max=scales[-1], step=1, name=label(t["slider"])))
    current = (alt.Chart(alt.Data(values=rows)).transform_filter(f"datum.scale == {scale.name}")
               .transform_calculate(is_nan="datum.status == 'nan' ? 1 : 0")
               .transform_joinaggregate(nans="sum(is_nan)"))
    x = alt.X("name:N", sort=names, title=bidi(t["x"]), axis=alt.Axis(labelAngle=0, labelFontSize=13))
    x_offset = alt.XOffset("method_label:N", sort=[method[m] for m in METHODS])
    color = alt.Color("method_label:N", title=None, sort=[method[m] for m in METHODS],
                      scale=hue_scale({method[m]: HUES[m] for m in METHODS}),
                      legend=alt.Legend(orient="top", direction="horizontal", labelLimit=320, labelFontSize=12))
    y = alt.Y("shown:Q", scale=alt.Scale(domain=[0, 1]), title=bidi(t["y"]), axis=alt.Axis(format=".1f", tickCount=5))
    bars = current.mark_bar().encode(
        x=x, xOffset=x_offset, y=y, color=color,
        tooltip=[alt.Tooltip("name:N", title=bidi(t["key"])), alt.Tooltip("method_label:N", title=bidi(t["method"])),
                 alt.Tooltip("value_text:N", title=bidi(t["y"]))]).transform_calculate(
        value_text=f"datum.status == 'nan' ? {js(t['nan'])} : format(datum.weight, '.3f')")
    # NaN has no height: it is written where its bar would stand
    nan_marks = current.transform_filter("datum.status == 'nan'").transform_calculate(
        nan_text=js(t["nan"])).mark_text(baseline="bottom", dy=-3, fontSize=13, fontWeight="bold").encode(
        x=x, xOffset=x_offset, y=alt.Y("shown:Q", scale=alt.Scale(domain=[0, 1])), color=color, text="nan_text:N")
    one = current.transform_filter("datum.key == 0 && datum.method == 'naive'")
    parts = {"s": num("datum.scale", "d"), "z": num("datum.max_logit", ".2f"),
             "lim": num(str(soft["exp_max"]), ".2f")}
    # the last line says whether the naive way broke at this scale: one set of lines for each case
    readout = [layer for verdict, cond in (("line_ok", "datum.nans == 0"), ("line_nan", "datum.nans > 0"))
               for layer in lines_below(one.transform_filter(cond), [
                   (t["line_logit"], {"fontSize": 13}), (t["line_bound"], {"fontSize": 12}),
                   (t[verdict], {"fontSize": 13, "fontWeight": "bold"})], parts, top=50)]
    chart = alt.layer(bars, nan_marks, *readout).add_params(scale).properties(height=220)
    return single(chart, t).configure_view(stroke=None)


def table(data: dict, t: dict, lang: str) -> dict:
    """Per scale: the largest score, and t1's and t2's weights both ways (NaN written out)."""
    from scripts.common import numfmt
    block = data["sa_block"]
    names, c = t["tokens"], t["columns"]
    by = {}
    for r in block["slider"]:
        row = by.setdefault(r["scale"], {"scale": r["scale"], "max_logit": r["max_logit"]})
        if r["key"] in (0, 1):
            v = t["nan"] if r["status"] == "nan" else numfmt.fmt(r["weight"], ".3f", lang)
            row[f"{r['method']}_{r['key']}"] = v
    cols = [["scale", c["scale"], "d"], ["max_logit", c["max_logit"], ".2f"]]
    cols += [[f"{m}_{k}", f"{t[m]}: {names[k]}", "s"] for m in METHODS for k in (0, 1)]
    return {"columns": cols, "rows": [by[s] for s in sorted(by)]}
