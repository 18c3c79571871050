"""Alignment table of cross-attention (illustrative weights): rows the written English words, columns
the source words of the page's language; hovering a row shows where that word draws from."""
import altair as alt

from scripts.charts._kit import line_below, num, rtl, single, words_axis

DATA = ["ca_alignment"]
FILL = "#5c6bc0"
MARK = "#ff9800"


def columns(data: dict, t: dict) -> tuple[list[str], list[list[float]]]:
    """The page language's source words in its sentence order, and the weights in that order."""
    al, ex = data["ca_alignment"], t["example"]
    at = [al["meanings"].index(m) for m in ex["order"]]
    return [ex["words"][m] for m in ex["order"]], [[row[j] for j in at] for row in al["matrix"]]


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    targets = data["ca_alignment"]["target"]
    sources, matrix = columns(data, t)
    cells = [{"row": i, "col": j, "target": targets[i], "source": sources[j], "weight": w}
             for i, row in enumerate(matrix) for j, w in enumerate(row)]
    pick = alt.selection_point(name="row_pick", fields=["row"], on="pointerover", clear=False,
                               value=[{"row": len(targets) - 1}], empty=False)
    x = alt.X("col:O", title=t["x"], scale=alt.Scale(reverse=rtl(sources), paddingInner=0.06),   # a Persian
              axis=words_axis(sources, orient="top", labelAngle=0, labelFontSize=14, ticks=False,   # sentence
                              domain=False))                                                        # reads from the right
    y = alt.Y("row:O", title=t["y"], scale=alt.Scale(paddingInner=0.06),
              axis=words_axis(targets, labelFontSize=14, ticks=False, domain=False))
    base = alt.Chart(alt.Data(values=cells))
    tip = [alt.Tooltip("target:N", title=t["target"]), alt.Tooltip("source:N", title=t["source"]),
           alt.Tooltip("weight:Q", title=t["weight"], format=".3f")]
    heat = base.mark_rect(fill=FILL, strokeWidth=3, cornerRadius=2).encode(
        x=x, y=y, tooltip=tip,
        fillOpacity=alt.FillOpacity("weight:Q", scale=alt.Scale(domain=[0, 1], range=[0.06, 0.55]),
                                    legend=None),
        stroke=alt.condition(pick, alt.value(MARK), alt.value(None))).add_params(pick)
    numbers = base.mark_text(fontSize=13).encode(
        x=x, y=y, text=alt.Text("weight:Q", format=".2f"),
        opacity=alt.condition(pick, alt.value(1), alt.value(0.85)),
        size=alt.condition(pick, alt.value(15), alt.value(13)))
    best = (base.transform_filter(pick)
            .transform_window(rank="row_number()", sort=[alt.SortField("weight", order="descending")])
            .transform_filter("datum.rank == 1"))
    readout = line_below(best, t["readout"], dict(target="datum.target", source="datum.source",
                                                  weight=num("datum.weight", ".2f")), top=12, fontSize=13)
    return single((heat + numbers + readout).properties(height=alt.Step(40)), t)


def table(data: dict, t: dict, lang: str) -> dict:
    sources, matrix = columns(data, t)
    rows = [dict({"target": word}, **{f"s{j + 1}": w for j, w in enumerate(row)})
            for word, row in zip(data["ca_alignment"]["target"], matrix)]
    cols = [["target", t["target"], "s"]] + [[f"s{j + 1}", w, ".3f"] for j, w in enumerate(sources)]
    return {"columns": cols, "rows": rows}
