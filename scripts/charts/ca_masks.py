"""Decoder self-attention (causal, 6x6 triangle) beside cross-attention (6x4, nothing hidden), in one
view so it stays narrow enough for a phone."""
import json

import altair as alt

from scripts.charts._text import rtl, iso, text_expr

DATA = ["ca_masks"]
MENU = 52                        # px kept free at the top right for the chart's menu button
FILL = "#5c6bc0"
HIDDEN = "#9e9e9e"


def build(data: dict, t: dict) -> alt.TopLevelMixin:
    masks = data["ca_masks"]
    targets = masks["target"]
    sources = masks[f"source_{t['lang']}"]
    src_rtl = rtl("".join(sources))
    causal, cross = masks["causal"], masks["cross"]
    gap = 1                                          # one empty column between the two grids
    start = causal["cols"] + gap
    cells, labels = [], [""] * (start + cross["cols"])
    for i, row in enumerate(causal["matrix"]):
        for j, ok in enumerate(row):
            cells.append({"panel": "causal", "row": i, "x": j, "ok": ok, "q": targets[i], "k": targets[j]})
    for j, word in enumerate(targets):
        labels[j] = word
    for i, row in enumerate(cross["matrix"]):
        for j, ok in enumerate(row):
            col = start + (cross["cols"] - 1 - j if src_rtl else j)   # a Persian sentence reads from the right
            cells.append({"panel": "cross", "row": i, "x": col, "ok": ok, "q": targets[i], "k": sources[j]})
            labels[col] = sources[j]
    panels = [{"panel": "causal", "mid": causal["cols"] / 2, "allowed": causal["allowed"], "total": causal["total"]},
              {"panel": "cross", "mid": start + cross["cols"] / 2, "allowed": cross["allowed"], "total": cross["total"]}]
    width = start + cross["cols"]
    xscale = alt.Scale(domain=[0, width], nice=False, zero=False)
    xaxis = alt.Axis(values=[c + 0.5 for c in range(width) if labels[c]], grid=False, ticks=False,
                            domain=False, labelAngle=-40, labelAlign="right", labelFontSize=12, labelOverlap=False,
                            labelExpr=f"{json.dumps(labels, ensure_ascii=False)}[floor(datum.value)]")
    y = alt.Y("row:O", title=iso(t["y"]), scale=alt.Scale(paddingInner=0.08),
              axis=alt.Axis(labelFontSize=12, ticks=False, domain=False,
                            labelExpr=f"{json.dumps(targets, ensure_ascii=False)}[datum.value]"))
    base = alt.Chart(alt.Data(values=cells)).transform_calculate(
        x2="datum.x + 0.9",
        status=f"datum.ok ? {json.dumps(iso(t['allowed']), ensure_ascii=False)} "
               f": {json.dumps(iso(t['hidden']), ensure_ascii=False)}",
        where=f"datum.panel == 'causal' ? {json.dumps(iso(t['causal']), ensure_ascii=False)} "
              f": {json.dumps(iso(t['cross']), ensure_ascii=False)}")
    color = alt.Color("status:N", title=None,
                      scale=alt.Scale(domain=[iso(t["allowed"]), iso(t["hidden"])], range=[FILL, HIDDEN]),
                      legend=alt.Legend(orient="bottom", direction="horizontal", labelFontSize=12))
    cells_layer = base.mark_rect(cornerRadius=2).encode(
        x=alt.X("x:Q", scale=xscale, axis=xaxis, title=None), x2="x2:Q", y=y, color=color,
        opacity=alt.condition("datum.ok", alt.value(0.9), alt.value(0.25)),
        tooltip=[alt.Tooltip("where:N", title=iso(t["panel"])), alt.Tooltip("q:N", title=iso(t["query"])),
                 alt.Tooltip("k:N", title=iso(t["key"])), alt.Tooltip("status:N", title=iso(t["status"]))])
    heads = alt.Chart(alt.Data(values=panels)).transform_calculate(
        name=f"datum.panel == 'causal' ? {json.dumps(iso(t['causal']), ensure_ascii=False)} "
             f": {json.dumps(iso(t['cross']), ensure_ascii=False)}",
        count=text_expr(t["count"])).mark_text(baseline="bottom", fontSize=12, lineBreak="\n")
    head_name = heads.encode(x=alt.X("mid:Q", scale=xscale, axis=xaxis, title=None), y=alt.value(-22), text="name:N")
    head_count = heads.encode(x=alt.X("mid:Q", scale=xscale, axis=xaxis, title=None), y=alt.value(-6), text="count:N")
    return (cells_layer + head_name + head_count).properties(
        width="container", height=alt.Step(30),
        title=alt.Title(iso(t["title"]), anchor="end" if rtl(t["title"]) else "start",
                    dx=-MENU if rtl(t["title"]) else 0, offset=34),
        description=t["description"])


def table(data: dict, t: dict, lang: str) -> dict:
    """Per written word: how many keys it may look at in each kind of attention."""
    masks = data["ca_masks"]
    rows = [{"q": w, "causal": sum(masks["causal"]["matrix"][i]), "cross": sum(masks["cross"]["matrix"][i])}
            for i, w in enumerate(masks["target"])]
    return {"columns": [["q", t["query"], "s"], ["causal", t["causal"], "d"], ["cross", t["cross"], "d"]],
            "rows": rows}
