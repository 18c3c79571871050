"""A few latent queries over a huge input: M*N query-key pairs of cross-attention against the N*N of
self-attention, with the input size and the number of latents chosen by the reader."""
import json
import math

import altair as alt

from scripts.charts._text import rtl, iso, text_expr

from scripts.common import numfmt

DATA = ["ca_perceiver"]
MENU = 52                        # px kept free at the top right for the chart's menu button
SELF, CROSS = "#9e9e9e", "#5c6bc0"
SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"


def power_labels() -> str:
    """Axis labels 10³, 10⁶ …: the base through format() (page digits), the exponent as superscript."""
    sup = json.dumps([("" if k < 10 else SUPERSCRIPT[k // 10]) + SUPERSCRIPT[k % 10] for k in range(13)],
                     ensure_ascii=False)
    return f"format(10, 'd') + {sup}[round(log(datum.value) / LN10)]"


def build(data: dict, t: dict) -> alt.TopLevelMixin:
    per = data["ca_perceiver"]
    grid, n_image, side = per["grid"], per["n_image"], per["image_side"]
    lo, hi = math.log10(grid["n"][0]), math.log10(grid["n"][-1])
    image_log = round(math.log10(n_image), 2)
    log_n = alt.param(name="log_n", value=image_log,
                      bind=alt.binding_range(min=3.5, max=hi, step=0.01, name=t["n_slider"]))
    m_default = per["examples"][0]["m"]
    latents = alt.param(name="latents", value=m_default,
                        bind=alt.binding_select(options=grid["m"], name=t["m_select"],
                                               labels=[numfmt.fmt(m, ",d", t["lang"]) for m in grid["m"]]))
    # The slider passes exactly through the image's size, so the example of the page can be found.
    n_expr = (f"abs(log_n - {image_log}) < 0.005 ? {n_image} : round(pow(10, log_n))")
    scale_x = alt.Scale(type="log", domain=[grid["n"][0], grid["n"][-1]], nice=False)
    scale_y = alt.Scale(type="log", domain=[1e4, 1e12], nice=False)
    axis_x = alt.Axis(values=[10 ** k for k in range(round(lo), round(hi) + 1)], labelExpr=power_labels(),
                      labelFontSize=12, title=iso(t["x"]), grid=True)
    axis_y = alt.Axis(values=[10 ** k for k in range(4, 13, 2)], labelExpr=power_labels(), labelFontSize=12,
                      title=iso(t["y"]))
    series = [iso(t["self"]), iso(t["cross"])]
    color = alt.Color("series:N", title=None, scale=alt.Scale(domain=series, range=[SELF, CROSS]),
                      legend=alt.Legend(orient="bottom-right", direction="vertical", labelFontSize=12, labelLimit=300,
                                        padding=6))
    sel = json.dumps(series[0], ensure_ascii=False), json.dumps(series[1], ensure_ascii=False)
    lines = (alt.Chart(alt.Data(values=[{"n": n} for n in grid["n"]]))
             .transform_calculate(s="datum.n * datum.n", c="latents * datum.n")
             .transform_fold(["s", "c"], as_=["which", "pairs"])
             .transform_calculate(series=f"datum.which == 's' ? {sel[0]} : {sel[1]}")
             .mark_line(strokeWidth=2.5)
             .encode(x=alt.X("n:Q", scale=scale_x, axis=axis_x), y=alt.Y("pairs:Q", scale=scale_y, axis=axis_y),
                     color=color))
    here = (alt.Chart(alt.Data(values=[{"one": 1}]))
            .transform_calculate(n=n_expr)
            .transform_calculate(s="datum.n * datum.n", c="latents * datum.n", m="latents",
                                 ratio="datum.n / latents"))
    rule = here.mark_rule(strokeDash=[4, 3], color=SELF).encode(x=alt.X("n:Q", scale=scale_x))
    dots = (here.transform_fold(["s", "c"], as_=["which", "pairs"])
            .transform_calculate(series=f"datum.which == 's' ? {sel[0]} : {sel[1]}")
            .mark_point(filled=True, size=90, opacity=1)
            .encode(x=alt.X("n:Q", scale=scale_x), y=alt.Y("pairs:Q", scale=scale_y), color=color,
                    tooltip=[alt.Tooltip("series:N", title=iso(t["kind"])),
                             alt.Tooltip("n:Q", title="N", format=",d"),
                             alt.Tooltip("pairs:Q", title=iso(t["pairs"]), format=",d")]))
    image = (alt.Chart(alt.Data(values=[{"n": n_image, "side": side}]))
             .transform_calculate(label=text_expr(t["image"])))
    image_rule = image.mark_rule(strokeDash=[1, 3], color=CROSS, opacity=0.8).encode(x=alt.X("n:Q", scale=scale_x))
    image_text = image.mark_text(align="right", baseline="top", dx=-4, dy=4, fontSize=11, opacity=0.8).encode(
        x=alt.X("n:Q", scale=scale_x), y=alt.value(0), text="label:N")
    align = "right" if rtl(t["line_n"]) else "left"
    x_pos = alt.value("width") if align == "right" else alt.value(0)
    readouts = []
    for k, key in enumerate(("line_n", "line_self", "line_cross", "line_ratio")):
        readouts.append(here.transform_calculate(line=text_expr(t[key]))
                        .mark_text(align=align, baseline="top", fontSize=14 if key == "line_ratio" else 12, limit=340,
                                   fontWeight="bold" if key == "line_ratio" else "normal",
                                   dy=48 + 18 * k + (4 if key == "line_ratio" else 0))
                        .encode(x=x_pos, y=alt.value("height"), text="line:N"))
    return alt.layer(lines, rule, image_rule, image_text, dots, *readouts).add_params(log_n, latents).properties(
        width="container", height=260,
        title=alt.Title(iso(t["title"]), anchor="end" if rtl(t["title"]) else "start",
                    dx=-MENU if rtl(t["title"]) else 0),
        description=t["description"])


def table(data: dict, t: dict, lang: str) -> dict:
    """Pairs at a few input sizes (powers of ten and the image), for every number of latents."""
    per = data["ca_perceiver"]
    ns = sorted({n for n in per["grid"]["n"] if math.log10(n) == round(math.log10(n))} | {per["n_image"]})
    ms = per["grid"]["m"]
    rows = [dict({"n": n, "self": n * n}, **{f"m{m}": m * n for m in ms}) for n in ns]
    cols = [["n", "N", ",d"], ["self", t["self"], ",d"]]
    cols += [[f"m{m}", t["cross_col"].format(m=numfmt.fmt(m, ",d", t["lang"])), ",d"] for m in ms]
    return {"columns": cols, "rows": rows}
