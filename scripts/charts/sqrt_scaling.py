"""Typical largest softmax weight of a 49-wide row against d, with and without ÷√d."""

import altair as alt

from scripts.charts._kit import PADDING, PDF, RLE, bidi, label, num, rtl, say

DATA = ["scaling"]


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    scaling = data["scaling"]
    rows = [dict(r, label=bidi(t[r["series"]])) for r in scaling["curve"]]
    log2d = alt.param(name="log2d", value=8,
                      bind=alt.binding_range(min=0, max=10, step=0.2, name=label(t["slider"], rtl(t["title"]))))
    x = alt.X("d:Q", scale=alt.Scale(type="log", base=2, domain=[1, 1024]), title=bidi(t["x"]),
              # a phone's plot gives two octaves ~50 px: «256» next to the flush-right «1024» collided
              axis=alt.Axis(values=[1, 4, 16, 64, 256, 1024], format=",d",
                            labelExpr="width < 480 && datum.value == 256 ? '' : datum.label"))
    y = alt.Y("pmax:Q", scale=alt.Scale(domain=[0, 1]), title=bidi(t["y"]), axis=alt.Axis(format=".1f"))
    color = alt.Color("label:N", title=None, sort=[bidi(t["raw"]), bidi(t["scaled"])],
                      legend=alt.Legend(orient="top", labelLimit=300))
    base = alt.Chart(alt.Data(values=rows))
    lines = base.mark_line(point=alt.OverlayMarkDef(size=18)).encode(
        x=x, y=y, color=color,
        tooltip=[alt.Tooltip("d:Q", title="d", format=",d"), alt.Tooltip("pmax:Q", title=t["y"], format=".3f"),
                 alt.Tooltip("label:N", title=t["series"])])
    # The slider moves over log2 d; the nearest computed d of each series is highlighted.
    nearest = (base.transform_calculate(dist=f"abs(log(datum.d) / log(2) - {log2d.name})")
               .transform_window(rank="row_number()", sort=[alt.SortField("dist")], groupby=["series"])
               .transform_filter("datum.rank == 1"))
    rule = nearest.mark_rule(strokeDash=[4, 3], color="gray").encode(x=x)
    dots = nearest.mark_point(filled=True, size=90).encode(x=x, y=y, color=color)
    # Value labels sit where the curves are not: the rising curve's label below-right of its point (its
    # right is higher), the flat curve's above; near d = 1 the two curves meet, so the order swaps there.
    # Near the axis end they flip to the left of the rule so they never leave the plot.
    # flip by the room left in pixels (the labels need ~60 px), not by d: on a phone «d = 256» ran to the edge
    side = f"scale('x', pow(2, {log2d.name})) > min(width * 0.84, width - 64)"
    align = alt.expr(f"{side} ? 'right' : 'left'")
    dx = alt.expr(f"{side} ? -8 : 8")
    low = f"{log2d.name} < 2"
    raw_labels = nearest.transform_filter("datum.series == 'raw'").mark_text(
        align=align, dx=dx, dy=alt.expr(f"{low} ? -12 : 16"), fontSize=13, fontWeight="bold").encode(
        x=x, y=y, color=color, text=alt.Text("pmax:Q", format=".2f"))
    scaled_labels = nearest.transform_filter("datum.series == 'scaled'").mark_text(
        align=align, dx=dx, dy=alt.expr(f"{low} ? 18 : -12"), fontSize=13, fontWeight="bold").encode(
        x=x, y=y, color=color, text=alt.Text("pmax:Q", format=".2f"))
    d_label = nearest.transform_filter("datum.series == 'raw'").transform_calculate(
        text=say(t["d_label"], d=num("datum.d", "d"))).mark_text(
        align=align, dx=dx, baseline="top", y=4, fontSize=12, opacity=0.75).encode(x=x, text="text:N")
    uniform = alt.Chart(alt.Data(values=[{"u": scaling["uniform"]}])).mark_rule(
        strokeDash=[2, 2], color="gray", opacity=0.6).encode(y="u:Q")
    uniform_text = alt.Chart(alt.Data(values=[{"u": scaling["uniform"], "d": 1024, "n": scaling["n_keys"]}])
                             ).transform_calculate(text=say(t["uniform"], n=num("datum.n", "d"))).mark_text(
        align="right", baseline="bottom", dy=-3, fontSize=12, opacity=0.75).encode(
        x=x, y=alt.Y("u:Q"), text="text:N")
    return (lines + rule + dots + raw_labels + scaled_labels + d_label + uniform + uniform_text).add_params(
        log2d).properties(width="container", height=300, title=alt.TitleParams(two_lines(bidi(t["title"])), fontSize=13),
                          padding=PADDING,
                          description=t["description"])


def two_lines(title: str) -> list[str]:
    """The title in two lines broken at the middle space, so a phone-wide chart does not cut it."""
    spaces = [i for i, ch in enumerate(title) if ch == " "]
    if len(title) < 36 or not spaces:
        return [title]
    cut = min(spaces, key=lambda i: abs(i - len(title) / 2))
    first, second = title[:cut], title[cut + 1:]
    if first.startswith(RLE):                 # each line keeps its own right-to-left embedding
        first, second = first + PDF, RLE + second
    return [first, second]


def table(data: dict, t: dict, lang: str) -> dict:
    by_d = {}
    for r in data["scaling"]["curve"]:
        by_d.setdefault(r["d"], {"d": r["d"]})[r["series"]] = r["pmax"]
    return {"columns": [["d", "d", "d"], ["raw", t["raw"], ".3f"], ["scaled", t["scaled"], ".3f"]],
            "rows": [by_d[d] for d in sorted(by_d)]}
