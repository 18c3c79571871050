"""A few latent queries over a huge input: M*N query-key pairs of cross-attention against the N*N of
self-attention, with the input size and the number of latents chosen by the reader."""
import math

import altair as alt

from scripts.charts._kit import bidi, power_axis, js, lines_below, num, say, single

from scripts.common import numfmt

DATA = ["ca_perceiver"]
SELF, CROSS = "#9e9e9e", "#5c6bc0"
# the numbers the lines under the chart name, formatted for the page
PARTS = dict(n=num("datum.n", ",d"), m=num("datum.m", ",d"), s=num("datum.s", ",d"), c=num("datum.c", ",d"),
             ratio=num("datum.ratio", ",.1~f"), side=num("datum.side", "d"))


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    per = data["ca_perceiver"]
    grid, n_image = per["grid"], per["n_image"]
    lo, hi = math.log10(grid["n"][0]), math.log10(grid["n"][-1])
    image_log = round(math.log10(n_image), 2)
    log_n = alt.param(name="log_n", value=image_log,
                      bind=alt.binding_range(min=3.5, max=hi, step=0.01, name=t["n_slider"]))
    latents = alt.param(name="latents", value=per["examples"][0]["m"],
                        bind=alt.binding_select(options=grid["m"], name=t["m_select"],
                                               labels=[numfmt.fmt(m, ",d", lang) for m in grid["m"]]))
    scale_x = alt.Scale(type="log", domain=[grid["n"][0], grid["n"][-1]], nice=False)
    scale_y = alt.Scale(type="log", domain=[1e4, 1e12], nice=False)
    axis_x = power_axis(lang, range(round(lo), round(hi) + 1), title=bidi(t["x"]), grid=True)
    axis_y = power_axis(lang, range(4, 13, 2), title=bidi(t["y"]))
    series = [bidi(t["self"]), bidi(t["cross"])]
    color = alt.Color("series:N", title=None, scale=alt.Scale(domain=series, range=[SELF, CROSS]),
                      legend=alt.Legend(orient="bottom-right", direction="vertical", labelFontSize=12, labelLimit=300,
                                        padding=6))
    which = f"datum.which == 's' ? {js(series[0])} : {js(series[1])}"
    lines = (alt.Chart(alt.Data(values=[{"n": n} for n in grid["n"]]))
             .transform_calculate(s="datum.n * datum.n", c="latents * datum.n")
             .transform_fold(["s", "c"], as_=["which", "pairs"])
             .transform_calculate(series=which)
             .mark_line(strokeWidth=2.5)
             .encode(x=alt.X("n:Q", scale=scale_x, axis=axis_x), y=alt.Y("pairs:Q", scale=scale_y, axis=axis_y),
                     color=color))
    # The slider passes exactly through the image's size, so the example of the page can be found.
    here = (alt.Chart(alt.Data(values=[{"one": 1}]))
            .transform_calculate(n=f"abs(log_n - {image_log}) < 0.005 ? {n_image} : round(pow(10, log_n))")
            .transform_calculate(s="datum.n * datum.n", c="latents * datum.n", m="latents",
                                 ratio="datum.n / latents"))
    # The lines draw the axes; every other layer draws none.
    rule = here.mark_rule(strokeDash=[4, 3], color=SELF).encode(x=alt.X("n:Q", scale=scale_x, axis=None))
    dots = (here.transform_fold(["s", "c"], as_=["which", "pairs"])
            .transform_calculate(series=which)
            .mark_point(filled=True, size=90, opacity=1)
            .encode(x=alt.X("n:Q", scale=scale_x, axis=None), y=alt.Y("pairs:Q", scale=scale_y, axis=None), color=color,
                    tooltip=[alt.Tooltip("series:N", title=bidi(t["kind"])),
                             alt.Tooltip("n:Q", title="n", format=",d"),
                             alt.Tooltip("pairs:Q", title=bidi(t["pairs"]), format=",d")]))
    image_rule, image_text = _image(per, t, scale_x)
    readouts = lines_below(here, [(t[key], dict(fontSize=12)) for key in ("line_n", "line_self", "line_cross")]
                           + [(t["line_ratio"], dict(fontSize=14, fontWeight="bold"))], PARTS, top=48, gap=3)
    chart = alt.layer(lines, rule, image_rule, image_text, dots, *readouts).add_params(
        log_n, latents).resolve_axis(x="independent", y="independent")
    return single(chart.properties(height=260), t)


def _image(per: dict, t: dict, scale_x: alt.Scale) -> tuple[alt.Chart, alt.Chart]:
    """Where an image of side × side pixels sits on the input axis."""
    image = (alt.Chart(alt.Data(values=[{"n": per["n_image"], "side": per["image_side"]}]))
             .transform_calculate(label=say(t["image"], **PARTS)))
    # Solid and faint: a dotted rule under the slider's dashed one beat into specks that read as glyphs.
    image_rule = image.mark_rule(color=CROSS, opacity=0.45, strokeWidth=1.5).encode(
        x=alt.X("n:Q", scale=scale_x, axis=None))
    image_text = image.mark_text(align="right", baseline="top", dx=-4, dy=4, fontSize=12, opacity=0.8).encode(
        x=alt.X("n:Q", scale=scale_x, axis=None), y=alt.value(0), text="label:N")
    return image_rule, image_text


def table(data: dict, t: dict, lang: str) -> dict:
    """Pairs at a few input sizes (powers of ten and the image), for every number of latents."""
    per = data["ca_perceiver"]
    ns = sorted({n for n in per["grid"]["n"] if math.log10(n) == round(math.log10(n))} | {per["n_image"]})
    ms = per["grid"]["m"]
    rows = [dict({"n": n, "self": n * n}, **{f"m{m}": m * n for m in ms}) for n in ns]
    cols = [["n", "n", ",d"], ["self", t["self"], ",d"]]
    cols += [[f"m{m}", t["cross_col"].format(m=numfmt.fmt(m, ",d", lang)), ",d"] for m in ms]
    return {"columns": cols, "rows": rows}
