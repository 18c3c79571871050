"""Training epoch by epoch: held-out accuracy, the class token's attention entropy and share on the shape,
and the patch rows' entropy, all as percentages on one axis; hovering an epoch reads its four numbers.

Each line is the mean over the seeds sa_trained trains (over_seeds.checkpoints), its band the lowest to
the highest seed: how much of the curve is the seed."""
import altair as alt

from scripts.charts._kit import BREAK, SUBTITLE_CHARS, TITLE_CHARS, align, anchor, bidi, bidi_lines, fit, js, num, rtl, two_lines

DATA = ["sa_trained"]
SERIES = ("accuracy", "entropy_pct", "on_shape", "patch_entropy_pct")
COLORS = ["#1b9e77", "#d95f02", "#7570b3", "#999999"]
LEGEND_CHARS = 30   # a series name longer than this takes two lines on a phone
READOUT_LINE = 15   # px between the readout's lines


def _long(sa: dict, t: dict) -> list[dict]:
    """A row per epoch and series: the mean over seeds, and the lowest and highest seed."""
    rows = []
    for epoch, c in sorted(sa["over_seeds"]["checkpoints"].items(), key=lambda kv: int(kv[0])):
        for key in SERIES:
            scale = 0.01 if key.endswith("_pct") else 1
            rows.append({"epoch": int(epoch), "series": key, "name": t["series"][key],
                         "value": c[key]["mean"] * scale, "low": c[key]["min"] * scale, "high": c[key]["max"] * scale})
    return rows


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    sa = data["sa_trained"]
    epochs = sorted(int(e) for e in sa["over_seeds"]["checkpoints"])
    hover = alt.selection_point(name="epoch_pick", fields=["epoch"], on="pointerover", nearest=True,
                                clear=False, value=[{"epoch": epochs[-1]}])
    base = alt.Chart(alt.Data(values=_long(sa, t)))
    broken = {name: lines for name in t["series"].values()
              if not isinstance(lines := two_lines(name, LEGEND_CHARS), str)}
    x = alt.X("epoch:Q", title=bidi(t["x"]), scale=alt.Scale(domain=[epochs[0], epochs[-1]], nice=False),
              axis=alt.Axis(values=epochs, format=",d", labelSeparation=6))  # every other epoch when
    # the labels would nearly touch (Persian digits are narrow enough to all fit, with no gap)
    y = alt.Y("value:Q", title=bidi(t["y"]), scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format=".0%"))
    palette = alt.Scale(domain=[t["series"][k] for k in SERIES], range=COLORS)
    color = alt.Color("name:N", title=None, sort=[t["series"][k] for k in SERIES], scale=palette,
                      # a phone: one column, a long name in two lines
                      legend=alt.Legend(orient="bottom", columns={"expr": "width < 480 ? 1 : 2"},
                                        labelExpr=f"width < 480 && {js(broken)}[datum.label] ? "
                                                  f"{js(broken)}[datum.label] : datum.label",
                                        labelLimit=320, symbolType="stroke", symbolOpacity=1, symbolStrokeWidth=2.5))
    band = base.mark_area(opacity=0.18).encode(x=x, y=alt.Y("low:Q", scale=alt.Scale(domain=[0, 1]), title=None),
                                                y2="high:Q", color=color)   # the lines' legend, shared
    lines = base.mark_line(strokeWidth=2.5).encode(
        x=x, y=y, color=color, strokeDash=alt.condition("datum.series == 'patch_entropy_pct'",
                                                        alt.value([5, 3]), alt.value([1, 0])))
    points = base.mark_point(filled=True, size=36, opacity=1).encode(
        x=x, y=y, color=color,
        tooltip=[alt.Tooltip("epoch:Q", title=t["x"], format="d"), alt.Tooltip("name:N", title=t["measure"]),
                 alt.Tooltip("value:Q", title=t["value"], format=".1%"),
                 alt.Tooltip("low:Q", title=t["low"], format=".1%"),
                 alt.Tooltip("high:Q", title=t["high"], format=".1%")]).add_params(hover).properties(name="points")
    rule = base.transform_filter(hover).mark_rule(color="#888", strokeDash=[2, 2]).encode(x=x)
    right = rtl(t["readout"])
    parts = {k: num(f"datum.{k}", ".1%") for k in SERIES}
    readout = (base.transform_filter(hover)
               .transform_pivot("series", value="value", groupby=["epoch"], op="max")
               .transform_calculate(line=fit(t["readout"], 12, epoch=num("datum.epoch", "d"), **parts))
               # above the plot, its last line 8 px over it: two lines on a phone. Vega draws the lines
               # after the first below it whatever the baseline, so the first line is lifted by the rest.
               .transform_calculate(lift=f"-(length(split(datum.line, {js(BREAK)})) - 1) * {READOUT_LINE}")
               .mark_text(align=align(t["readout"]), baseline="bottom", fontSize=12, lineHeight=READOUT_LINE,
                          dy=-8, lineBreak=BREAK)
               .encode(x=alt.value("width") if right else alt.value(0), y=alt.Y("lift:Q", scale=None),
                       text="line:N")
               .properties(name="readout"))
    return (band + lines + points + rule + readout).properties(
        width="container", height=240, padding={"top": 36, "left": 5, "right": 5, "bottom": 5},
        title=alt.Title(bidi_lines(t["title"], TITLE_CHARS), anchor=anchor(t["title"]), offset=40,
                        # what a line and a band are: a phone gets the subtitle in two lines
                        subtitle=[bidi(x) for x in ([t["subtitle"]] if isinstance(two_lines(t["subtitle"], SUBTITLE_CHARS), str)
                                                    else two_lines(t["subtitle"], SUBTITLE_CHARS))]),
        description=t["description"])


def table(data: dict, t: dict, lang: str) -> dict:
    """Per epoch, the mean over seeds of each series, and the lowest and highest seed for accuracy and entropy."""
    sa = data["sa_trained"]
    c = t["columns"]
    rows = [{"epoch": int(e), "accuracy": v["accuracy"]["mean"], "accuracy_min": v["accuracy"]["min"],
             "accuracy_max": v["accuracy"]["max"], "entropy": v["entropy_pct"]["mean"] / 100,
             "entropy_min": v["entropy_pct"]["min"] / 100, "entropy_max": v["entropy_pct"]["max"] / 100,
             "on_shape": v["on_shape"]["mean"], "patch_entropy": v["patch_entropy_pct"]["mean"] / 100}
            for e, v in sorted(sa["over_seeds"]["checkpoints"].items(), key=lambda kv: int(kv[0]))]
    return {"columns": [["epoch", c["epoch"], "d"], ["accuracy", c["accuracy"], ".1%"],
                        ["accuracy_min", c["accuracy_min"], ".1%"], ["accuracy_max", c["accuracy_max"], ".1%"],
                        ["entropy", c["entropy"], ".1%"], ["entropy_min", c["entropy_min"], ".1%"],
                        ["entropy_max", c["entropy_max"], ".1%"], ["on_shape", c["on_shape"], ".1%"],
                        ["patch_entropy", c["patch_entropy"], ".1%"]],
            "rows": rows}
