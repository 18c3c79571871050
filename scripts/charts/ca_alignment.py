"""Alignment table of cross-attention (illustrative weights): rows the written English words, columns
the source words of the page's language; hovering a row shows where that word draws from."""
import json

import altair as alt

from scripts.charts._text import rtl, text_expr, RLI, PDI

DATA = ["ca_alignment"]
MENU = 52                        # px kept free at the top right for the chart's menu button
FILL = "#5c6bc0"
MARK = "#ff9800"


def build(data: dict, t: dict) -> alt.TopLevelMixin:
    table = data["ca_alignment"][t["lang"]]          # the page's own source sentence
    cells = [{k: c[k] for k in ("row", "col", "target", "source", "weight")} for c in table["cells"]]
    targets, sources = table["target"], table["source"]
    right_to_left = rtl("".join(sources))            # a Persian sentence reads from the right
    pick = alt.selection_point(name="row_pick", fields=["row"], on="pointerover", clear=False,
                               value=[{"row": len(targets) - 1}], empty=False)
    x = alt.X("col:O", title=t["x"], scale=alt.Scale(reverse=right_to_left, paddingInner=0.06),
              axis=alt.Axis(orient="top", labelAngle=0, labelFontSize=14, ticks=False, domain=False,
                            labelExpr=f"{json.dumps(sources, ensure_ascii=False)}[datum.value]"))
    y = alt.Y("row:O", title=t["y"], scale=alt.Scale(paddingInner=0.06),
              axis=alt.Axis(labelFontSize=14, ticks=False, domain=False,
                            labelExpr=f"{json.dumps(targets, ensure_ascii=False)}[datum.value]"))
    base = alt.Chart(alt.Data(values=cells))
    tip = [alt.Tooltip("target:N", title=t["target"]), alt.Tooltip("source:N", title=t["source"]),
           alt.Tooltip("weight:Q", title=t["weight"], format=".3f")]
    heat = base.mark_rect(fill=FILL, strokeWidth=3, cornerRadius=2).encode(
        x=x, y=y, tooltip=tip,
        fillOpacity=alt.FillOpacity("weight:Q", scale=alt.Scale(domain=[0, 1], range=[0.06, 0.9]),
                                    legend=None),
        stroke=alt.condition(pick, alt.value(MARK), alt.value(None))).add_params(pick)
    numbers = base.mark_text(fontSize=13).encode(
        x=x, y=y, text=alt.Text("weight:Q", format=".2f"),
        opacity=alt.condition(pick, alt.value(1), alt.value(0.6)),
        size=alt.condition(pick, alt.value(15), alt.value(13)))
    readout = (base.transform_filter(pick)
               .transform_window(rank="row_number()", sort=[alt.SortField("weight", order="descending")])
               .transform_filter("datum.rank == 1")
               .transform_calculate(line=text_expr(t["readout"]))
               .mark_text(align="right" if rtl(t["readout"]) else "left", baseline="top", dy=12, fontSize=13)
               .encode(x=alt.value("width") if rtl(t["readout"]) else alt.value(0), y=alt.value("height"),
                       text="line:N"))
    title, subtitle = (RLI + s + PDI if rtl(s) else s for s in (t["title"], t["subtitle"]))
    return (heat + numbers + readout).properties(
        width="container", height=alt.Step(40),
        title=alt.Title(title, subtitle=subtitle, anchor="end" if rtl(t["title"]) else "start",
                    dx=-MENU if rtl(t["title"]) else 0),
        description=t["description"])


def table(data: dict, t: dict, lang: str) -> dict:
    tab = data["ca_alignment"][t["lang"]]
    cols = [["target", t["target"], "s"]] + [[f"s{i + 1}", w, ".3f"] for i, w in enumerate(tab["source"])]
    return {"columns": cols, "rows": tab["table"]}
