"""Shared key/value heads on the course's toy translator: every seed's result with 1, 2 and 4 key/value
heads (MQA, GQA, multi-head attention), one line a seed, next to the cache each keeps per token.

The numbers are sc_gqa's: the same five seeds train each variant, so a line joins the runs that start
from the same seed; how far apart the seeds lie is the spread the page compares the groups with.
"""
import altair as alt

from scripts.charts._kit import bidi, js, label, lines_below, num, single

from scripts.common import numfmt

DATA = ["sc_gqa"]
SEED_HUE = "#3f7fc6"
MEAN = "#d0603a"

# An empty last line under the readout: a phone's narrow chart wraps a readout into more lines only on
# the run after the one that sized the view, and this slack keeps the last wrapped line inside it.
SPACER = (" ", dict(fontSize=28))


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    gqa = data["sc_gqa"]
    groups = gqa["task"]["groups"]
    metrics = ["translation_accuracy", "test_loss"]
    metric = alt.param(name="metric", value=0, bind=alt.binding_radio(
        options=[0, 1], labels=[t["metrics"][m] for m in metrics], name=label(t["metric"])))
    rows = [{"g": r["groups"], "kind": r["kind"], "seed": s["seed"], "acc": s["translation_accuracy"],
             "loss": s["test_loss"], "cache": r["cache_numbers_per_token"]}
            for r in gqa["by_groups"] for s in r["per_seed"]]
    names = {str(r["groups"]): t["group_label"].format(g=numfmt.fmt(r["groups"], "d", lang), kind=t["kinds"][r["kind"]])
             for r in gqa["by_groups"]}
    x = alt.X("g:O", title=t["x"], scale=alt.Scale(domain=groups, paddingOuter=0.3),
              axis=alt.Axis(labelExpr=f"{js(names)}[datum.value]", labelAngle=0, labelFontSize=12, ticks=False))
    base = alt.Chart(alt.Data(values=rows)).transform_calculate(v="metric == 0 ? datum.acc : datum.loss")
    y = alt.Y("v:Q", title=None, scale=alt.Scale(zero=True, nice=True),
              axis=alt.Axis(format=".2~f", tickCount=5, labelExpr="metric == 0 ? format(datum.value, '.0%') : "
                                                                  "format(datum.value, '.2f')"))
    tip = [alt.Tooltip("seed:N", title=t["seed"]), alt.Tooltip("acc:Q", title=t["metrics"]["translation_accuracy"], format=".1%"),
           alt.Tooltip("loss:Q", title=t["metrics"]["test_loss"], format=".4f")]
    lines = base.mark_line(color=SEED_HUE, opacity=0.35, strokeWidth=1.5).encode(x=x, y=y, detail="seed:N")
    dots = base.mark_point(color=SEED_HUE, filled=True, size=55, opacity=0.85).encode(x=x, y=y, tooltip=tip)
    means = base.mark_tick(color=MEAN, thickness=3, size=36).encode(x=x, y=alt.Y("mean(v):Q"))
    axis_name = alt.Chart(alt.Data(values=[{"one": 1}])).transform_calculate(
        name=f"metric == 0 ? {js(bidi(t['metrics']['translation_accuracy']))} : {js(bidi(t['metrics']['test_loss']))}"
    ).mark_text(align="left", baseline="bottom", dy=-6, fontSize=12, fontWeight="bold").encode(
        x=alt.value(0), y=alt.value(0), text="name:N")
    cache = {r["groups"]: r["cache_numbers_per_token"] for r in gqa["by_groups"]}
    one = base.transform_filter(f"datum.g == {groups[0]} && datum.seed == {gqa['task']['seeds'][0]}")
    parts = {f"c{g}": num(str(cache[g]), "d") for g in groups}
    readout = lines_below(one, [(t["line_cache"], dict(fontSize=13)), (t["line_mean"], dict(fontSize=12)), SPACER],
                          parts, top=40)
    chart = alt.layer(lines, dots, means, axis_name, *readout).add_params(metric)
    return single(chart.properties(height=220), t)


def table(data: dict, t: dict, lang: str) -> dict:
    """Every run: groups, seed, accuracy on the held-out sentences, loss, cache per token."""
    gqa = data["sc_gqa"]
    rows = [{"groups": r["groups"], "seed": s["seed"], "acc": s["translation_accuracy"], "loss": s["test_loss"],
             "cache": r["cache_numbers_per_token"]} for r in gqa["by_groups"] for s in r["per_seed"]]
    c = t["columns"]
    return {"columns": [["groups", c["groups"], "d"], ["seed", c["seed"], "d"], ["acc", c["acc"], ".1%"],
                        ["loss", c["loss"], ".4f"], ["cache", c["cache"], "d"]],
            "rows": rows}
