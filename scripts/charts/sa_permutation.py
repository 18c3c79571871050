"""Shuffle the patches: attention's output moves with them (permutation equivariance) until a
positional encoding is added; a convolution along the tokens never had that property.

The eight seeded permutations of sa_equivariance and their errors max |f(PX) − P f(X)| (attention
with positional encoding, Conv1d) are inlined; the chart draws the ring and its shuffled patches and
shows the error of the chosen case. Without positional encoding the error is rounding noise, whose
size belongs to the machine: the chart shows the bound it stays below in float32 (< 10⁻⁶), drawn as
a bound, on every machine the same.
"""
import math

import altair as alt

from scripts.charts._kit import (align, anchor, bidi, dashboard, js, label, power_axis, patch_pixels,
                                pixel_scales, rtl, say_lines)
from scripts.common import numfmt

DATA = ["sa_equivariance"]
PANEL = 144
WIDTH = 2 * PANEL + 20
HIGHLIGHT = "#f58518"

def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    eq = data["sa_equivariance"]
    perms, ring = eq["permutations"], eq["patches"]
    n = len(ring)
    grid, side = round(n ** 0.5), round(len(ring[0]) ** 0.5)

    perm = alt.param(name="perm", value=1, bind=alt.binding_range(
        min=1, max=len(perms), step=1, name=label(t["slider"])))
    pe = alt.param(name="pe", value=False, bind=alt.binding_checkbox(name=label(t["pe"])))
    K, PE = perm.name, pe.name

    pixels = alt.Data(values=[{"tok": i, "p": vec} for i, vec in enumerate(ring)])
    px, rpx = pixel_scales(grid, side)
    shade = alt.Scale(scheme="greys", domain=[min(map(min, ring)), max(map(max, ring))])

    def picture(chart: alt.Chart, title: str) -> alt.LayerChart:
        img = patch_pixels(chart, "slot", grid, side, shade)
        cuts = alt.Chart(alt.Data(values=[{"v": v * side} for v in range(1, grid)])).mark_rule(
            stroke=HIGHLIGHT, strokeOpacity=0.5, strokeWidth=0.8)
        return alt.layer(img, cuts.encode(x=alt.X("v:Q", scale=px, axis=None), y=alt.YValue(0), y2=alt.YValue(PANEL)),
                         cuts.encode(y=alt.Y("v:Q", scale=rpx, axis=None), x=alt.XValue(0), x2=alt.XValue(PANEL))
                         ).properties(width=PANEL, height=PANEL,
                                      title=alt.TitleParams(bidi(title), fontSize=12, anchor=anchor(title)))

    original = picture(alt.Chart(pixels).transform_calculate(slot="datum.tok"), t["original"])
    # perm[j] = which token goes to slot j: flatten the chosen permutation, fetch each token's pixels
    table_ = alt.Data(values=[{"k": r["i"] + 1, "perm": r["perm"]} for r in perms])
    moved = (alt.Chart(table_).transform_filter(f"datum.k == {K}")
             .transform_calculate(slots=f"sequence(0, {n})")
             .transform_flatten(["perm", "slots"], as_=["tok", "slot"])
             .transform_lookup(lookup="tok", from_=alt.LookupData(data=pixels, key="tok", fields=["p"])))
    shuffled = picture(moved, t["shuffled"])

    top = alt.hconcat(original, shuffled, spacing=20)
    chart = alt.vconcat(top, _readout(eq, t, lang, K, PE), _strip(perms, eq["noise_bound"]["float32"], t, lang, K, PE), spacing=12)
    return dashboard(chart.add_params(perm, pe), t)


def _readout(eq: dict, t: dict, lang: str, K: str, PE: str) -> alt.LayerChart:
    """The measured error of the chosen case, big; the other rows for contrast (the views share the
    chosen row's tuple, so each writes its own field)."""
    bound = eq["noise_bound"]["float32"]
    errs = alt.Data(values=[{"k": r["i"] + 1, "no_pe": bound, "with_pe": r["err_pe"],
                             "conv": r["err_conv"]} for r in eq["permutations"]])
    chosen = (alt.Chart(errs).transform_filter(f"datum.k == {K}")
              .transform_calculate(shown=f"{PE} ? datum.with_pe : datum.no_pe",
                                   below=f"{PE} ? '' : '< '")
              .transform_calculate(ex="floor(log(datum.shown) / LN10)")
              .transform_calculate(mant="datum.shown / pow(10, datum.ex)", small="datum.shown < 0.001"))
    mid = WIDTH / 2
    big_plain = chosen.transform_filter("!datum.small").transform_calculate(
        t_plain="format(datum.shown, '.3f')").mark_text(fontSize=30, fontWeight="bold", align="center",
                                                         baseline="alphabetic", x=mid, y=36).encode(text="t_plain:N")
    big_mant = chosen.transform_filter("datum.small").transform_calculate(
        t_mant=f"datum.below + format(datum.mant, '.1f') + ' ' + {js(numfmt.LOCALES[lang]['times'])} + ' ' + format(10, 'd')").mark_text(
        fontSize=30, fontWeight="bold", align="right", baseline="alphabetic", x=mid + 18, y=36).encode(text="t_mant:N")
    big_exp = chosen.transform_filter("datum.small").transform_calculate(
        t_exp="format(datum.ex, 'd')").mark_text(fontSize=17, fontWeight="bold", align="left",
                                                   baseline="alphabetic", x=mid + 20, y=20).encode(text="t_exp:N")
    parts = dict(what=f"{PE} ? {js(bidi(t['with_pe']))} : {js(bidi(t['without_pe']))}",
                 conv="format(datum.conv, '.3f')", k=f"format({K}, 'd')",
                 scale=f"format({eq['out_scale']}, '.2f')")
    words = chosen.transform_calculate(t_words=say_lines(t["lines"], **parts)).mark_text(
        fontSize=12, lineHeight=17, align="center", baseline="top", x=mid, y=46).encode(text="t_words:N")
    return alt.layer(big_plain.properties(name="big"), big_mant.properties(name="big_mant"), big_exp,
                     words).properties(width=WIDTH, height=46 + 17 * len(t["lines"]) + 4)


def _strip(perms: list, bound: float, t: dict, lang: str, K: str, PE: str) -> alt.LayerChart:
    """All eight permutations on a log scale: below the float32 noise bound, positional encoding, convolution."""
    strip_rows = [{"k": r["i"] + 1, "op": op, "err": r[key] if key else bound, "bound": not key} for r in perms
                  for op, key in (("no_pe", None), ("with_pe", "err_pe"), ("conv", "err_conv"))]
    lo = 10 ** math.floor(math.log10(min(r["err"] for r in strip_rows)))
    hi = 10 ** math.ceil(math.log10(max(r["err"] for r in strip_rows)))
    ops = ["no_pe", "with_pe", "conv"]
    row_of = {o: i for i, o in enumerate(ops)}
    strip_base = alt.Chart(alt.Data(values=[dict(r, row=row_of[r["op"]]) for r in strip_rows]))
    log_x = alt.Scale(type="log", domain=[lo, hi])
    # a fixed-width strip: every other power labelled (ticks and grid at each), evenly
    axis = power_axis(lang, range(round(math.log10(lo)), round(math.log10(hi)) + 1), every=2, titleFontWeight="normal",
                      grid=True)
    sx = alt.X("err:Q", scale=log_x, title=bidi(t["strip_x"]), axis=None)   # layers resolve axes apart
    ry = alt.Scale(domain=[-0.75, len(ops) - 0.4], nice=False, zero=False, reverse=True)
    sy = alt.Y("row:Q", scale=ry, axis=None)
    # a bound is drawn as a left-pointing triangle: the value lies somewhere to its left
    shape = alt.Shape("bound:N", scale=alt.Scale(domain=[False, True], range=["circle", "triangle-left"]), legend=None)
    dots = strip_base.mark_point(filled=True, size=40, opacity=0.35, color="#888").encode(
        x=alt.X("err:Q", scale=log_x, title=bidi(t["strip_x"]), axis=axis), y=sy, shape=shape)
    now = strip_base.transform_filter(f"datum.k == {K}").transform_calculate(
        on=f"datum.op == 'conv' || (datum.op == 'with_pe') == {PE}",
        name=f"{js([t['ops'][o] for o in ops])}[datum.row]",
        shown=f"(datum.bound ? '< ' : '') + format(datum.err, '.2e')").mark_point(
        filled=True, size=110, opacity=1).encode(
        x=sx, y=sy, shape=shape, color=alt.Color("on:N", scale=alt.Scale(domain=[True, False], range=[HIGHLIGHT, "#4c78a8"]),
                                    legend=None),
        tooltip=[alt.Tooltip("name:N", title=t["op"]), alt.Tooltip("shown:N", title=t["strip_x"])])
    right = rtl(t["ops"]["no_pe"])
    names = alt.Chart(alt.Data(values=[{"row": i, "name": bidi(t["ops"][o]), "err": hi if right else lo}
                                       for i, o in enumerate(ops)])).mark_text(
        align=align(t["ops"]["no_pe"]), baseline="bottom", dy=-7, dx=-2 if right else 2, fontSize=12).encode(
        x=sx, y=sy, text="name:N")
    return alt.layer(dots, now, names).resolve_axis(x="independent").properties(
        width=WIDTH, height=36 * len(ops))


def table(data: dict, t: dict, lang: str) -> dict:
    """Per seeded permutation: max |f(PX) − P f(X)| of attention without PE (the float32 bound it stays
    below) and with PE, and of Conv1d."""
    eq = data["sa_equivariance"]
    c = t["columns"]
    rows = [dict(r, k=r["i"] + 1, bound=eq["noise_bound"]["float32"]) for r in eq["permutations"]]
    return {"columns": [["k", c["k"], "d"], ["bound", c["bound"], ".0e"],
                        ["err_pe", t["ops"]["with_pe"], ".1e"], ["err_conv", t["ops"]["conv"], ".1e"]],
            "rows": rows}
