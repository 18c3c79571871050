"""Training epoch by epoch: held-out accuracy, the class token's attention entropy and share on the shape,
and the patch rows' entropy, all as percentages on one axis; hovering an epoch reads its four numbers."""
import altair as alt

from scripts.charts._kit import BREAK, TITLE_CHARS, align, anchor, bidi, bidi_lines, fit, js, num, rtl, two_lines

DATA = ["sa_trained"]
SERIES = ("accuracy", "entropy_pct", "on_shape", "patch_entropy_pct")
COLORS = ["#1b9e77", "#d95f02", "#7570b3", "#999999"]
LEGEND_CHARS = 30   # a series name longer than this takes two lines on a phone
READOUT_LINE = 15   # px between the readout's lines


def _long(sa: dict, t: dict) -> list[dict]:
    rows = []
    for epoch, c in sorted(sa["checkpoints"].items(), key=lambda kv: int(kv[0])):
        for key in SERIES:
            value = c[key] / 100 if key.endswith("_pct") else c[key]
            rows.append({"epoch": int(epoch), "series": key, "name": t["series"][key], "value": value})
    return rows


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    sa = data["sa_trained"]
    epochs = sorted(int(e) for e in sa["checkpoints"])
    hover = alt.selection_point(name="epoch_pick", fields=["epoch"], on="pointerover", nearest=True,
                                clear=False, value=[{"epoch": epochs[-1]}])
    base = alt.Chart(alt.Data(values=_long(sa, t)))
    broken = {name: lines for name in t["series"].values()
              if not isinstance(lines := two_lines(name, LEGEND_CHARS), str)}
    x = alt.X("epoch:Q", title=bidi(t["x"]), scale=alt.Scale(domain=[epochs[0], epochs[-1]], nice=False),
              axis=alt.Axis(values=epochs, format="d", labelSeparation=6))  # every other epoch when
    # the labels would nearly touch (Persian digits are narrow enough to all fit, with no gap)
    y = alt.Y("value:Q", title=bidi(t["y"]), scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format=".0%"))
    color = alt.Color("name:N", title=None, sort=[t["series"][k] for k in SERIES],
                      scale=alt.Scale(domain=[t["series"][k] for k in SERIES], range=COLORS),
                      # a phone: one column, a long name in two lines
                      legend=alt.Legend(orient="bottom", columns={"expr": "width < 480 ? 1 : 2"},
                                        labelExpr=f"width < 480 && {js(broken)}[datum.label] ? "
                                                  f"{js(broken)}[datum.label] : datum.label",
                                        labelLimit=320, symbolType="stroke"))
    lines = base.mark_line(strokeWidth=2.5).encode(
        x=x, y=y, color=color, strokeDash=alt.condition("datum.series == 'patch_entropy_pct'",
                                                        alt.value([5, 3]), alt.value([1, 0])))
    points = base.mark_point(filled=True, size=36, opacity=1).encode(
        x=x, y=y, color=color,
        tooltip=[alt.Tooltip("epoch:Q", title=t["x"], format="d"), alt.Tooltip("name:N", title=t["measure"]),
                 alt.Tooltip("value:Q", title=t["value"], format=".1%")]).add_params(hover).properties(name="points")
    rule = base.transform_filter(hover).mark_rule(color="#888", strokeDash=[2, 2]).encode(x=x)
    right = rtl(t["readout"])
    parts = {k: num(f"datum.{k}", ".1%") for k in SERIES}
    readout = (base.transform_filter(hover)
               .transform_pivot("series", value="value", groupby=["epoch"])
               .transform_calculate(line=fit(t["readout"], 12, epoch=num("datum.epoch", "d"), **parts))
               # above the plot, its last line 8 px over it: two lines on a phone. Vega draws the lines
               # after the first below it whatever the baseline, so the first line is lifted by the rest.
               .transform_calculate(lift=f"-(length(split(datum.line, {js(BREAK)})) - 1) * {READOUT_LINE}")
               .mark_text(align=align(t["readout"]), baseline="bottom", fontSize=12, lineHeight=READOUT_LINE,
                          dy=-8, lineBreak=BREAK)
               .encode(x=alt.value("width") if right else alt.value(0), y=alt.Y("lift:Q", scale=None),
                       text="line:N")
               .properties(name="readout"))
    return (lines + points + rule + readout).properties(
        width="container", height=240, padding={"top": 36, "left": 5, "right": 5, "bottom": 5},
        title=alt.Title(bidi_lines(t["title"], TITLE_CHARS), anchor=anchor(t["title"]), offset=40),
        description=t["description"])


def table(data: dict, t: dict, lang: str) -> dict:
    sa = data["sa_trained"]
    c = t["columns"]
    rows = [{"epoch": int(e), "accuracy": v["accuracy"], "entropy": v["entropy_pct"] / 100,
             "on_shape": v["on_shape"], "patch_entropy": v["patch_entropy_pct"] / 100}
            for e, v in sorted(sa["checkpoints"].items(), key=lambda kv: int(kv[0]))]
    return {"columns": [["epoch", c["epoch"], "d"], ["accuracy", c["accuracy"], ".1%"],
                        ["entropy", c["entropy"], ".1%"], ["on_shape", c["on_shape"], ".1%"],
                        ["patch_entropy", c["patch_entropy"], ".1%"]],
            "rows": rows}
