"""Decoder self-attention (causal, 6x6 triangle) beside cross-attention (6x4, nothing hidden), in one
view so it stays narrow enough for a phone."""
import altair as alt

from scripts.charts._kit import bidi, js, num, rtl, say, single, words_axis

DATA = ["ca_masks"]
FILL = "#5c6bc0"
HIDDEN = "#9e9e9e"
GAP = 1                          # one empty column between the two grids


def grid_cells(masks: dict, sources: list[str]) -> tuple[list[dict], list[str]]:
    """One cell per (query, key) of both grids, side by side, and the label of each column."""
    targets, causal, cross = masks["target"], masks["causal"], masks["cross"]
    start = causal["cols"] + GAP
    cells, labels = [], [""] * (start + cross["cols"])
    for i, row in enumerate(causal["matrix"]):
        for j, ok in enumerate(row):
            cells.append({"panel": "causal", "row": i, "x": j, "ok": ok, "q": targets[i], "k": targets[j]})
    for j, word in enumerate(targets):
        labels[j] = word
    for i, row in enumerate(cross["matrix"]):
        for j, ok in enumerate(row):
            col = start + (cross["cols"] - 1 - j if rtl(sources) else j)   # a Persian sentence reads from the right
            cells.append({"panel": "cross", "row": i, "x": col, "ok": ok, "q": targets[i], "k": sources[j]})
            labels[col] = sources[j]
    return cells, labels


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    masks = data["ca_masks"]
    ex = t["example"]
    cells, labels = grid_cells(masks, [ex["words"][m] for m in ex["order"]])
    causal, cross = masks["causal"], masks["cross"]
    start = causal["cols"] + GAP
    # Each grid's heading starts at its outer edge: centred, a narrow grid's heading ran out of the chart.
    panels = [{"panel": "causal", "at": 0, "allowed": causal["allowed"], "total": causal["total"]},
              {"panel": "cross", "at": start + cross["cols"] - 0.1, "allowed": cross["allowed"], "total": cross["total"]}]
    width = start + cross["cols"]
    xscale = alt.Scale(domain=[0, width], nice=False, zero=False)
    xaxis = words_axis(labels, "floor(datum.value)", values=[c + 0.5 for c in range(width) if labels[c]], grid=False,
                       ticks=False, domain=False, labelAngle=-40, labelAlign="right", labelFontSize=12,
                       labelOverlap=False)
    y = alt.Y("row:O", title=bidi(t["y"]), scale=alt.Scale(paddingInner=0.08),
              axis=words_axis(masks["target"], labelFontSize=12, ticks=False, domain=False))
    where = f"datum.panel == 'causal' ? {js(bidi(t['causal']))} : {js(bidi(t['cross']))}"
    base = alt.Chart(alt.Data(values=cells)).transform_calculate(
        x2="datum.x + 0.9", status=f"datum.ok ? {js(bidi(t['allowed']))} : {js(bidi(t['hidden']))}", where=where)
    color = alt.Color("status:N", title=None,
                      scale=alt.Scale(domain=[bidi(t["allowed"]), bidi(t["hidden"])], range=[FILL, HIDDEN]),
                      legend=alt.Legend(orient="bottom", direction="horizontal", labelFontSize=12))
    cells_layer = base.mark_rect(cornerRadius=2).encode(
        x=alt.X("x:Q", scale=xscale, axis=xaxis, title=None), x2="x2:Q", y=y, color=color,
        opacity=alt.condition("datum.ok", alt.value(0.9), alt.value(0.25)),
        tooltip=[alt.Tooltip("where:N", title=bidi(t["panel"])), alt.Tooltip("q:N", title=bidi(t["query"])),
                 alt.Tooltip("k:N", title=bidi(t["key"])), alt.Tooltip("status:N", title=bidi(t["status"]))])
    heads = alt.Chart(alt.Data(values=panels)).transform_calculate(
        name=where, count=say(t["count"], allowed=num("datum.allowed", "d"), total=num("datum.total", "d"))
    ).mark_text(baseline="bottom", fontSize=12, lineBreak="\n",
                align={"expr": "datum.panel == 'causal' ? 'left' : 'right'"})
    head_name = heads.encode(x=alt.X("at:Q", scale=xscale, axis=xaxis, title=None), y=alt.value(-22), text="name:N")
    head_count = heads.encode(x=alt.X("at:Q", scale=xscale, axis=xaxis, title=None), y=alt.value(-6), text="count:N")
    return single((cells_layer + head_name + head_count).properties(height=alt.Step(30)), t, offset=34)


def table(data: dict, t: dict, lang: str) -> dict:
    """Per written word: how many keys it may look at in each kind of attention."""
    masks = data["ca_masks"]
    rows = [{"q": w, "causal": sum(masks["causal"]["matrix"][i]), "cross": sum(masks["cross"]["matrix"][i])}
            for i, w in enumerate(masks["target"])]
    return {"columns": [["q", t["query"], "s"], ["causal", t["causal"], "d"], ["cross", t["cross"], "d"]],
            "rows": rows}
