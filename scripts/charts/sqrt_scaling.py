"""Typical largest softmax weight of a 49-wide row against d, with and without ÷√d."""
import altair as alt

DATA = ["scaling"]


def build(data: dict, t: dict) -> alt.TopLevelMixin:
    scaling = data["scaling"]
    rows = [dict(r, label=t[r["series"]]) for r in scaling["curve"]]
    log2d = alt.param(name="log2d", value=8,
                      bind=alt.binding_range(min=0, max=10, step=0.2, name=t["slider"]))
    x = alt.X("d:Q", scale=alt.Scale(type="log", base=2, domain=[1, 1024]), title=t["x"],
              axis=alt.Axis(values=[1, 4, 16, 64, 256, 1024]))
    y = alt.Y("pmax:Q", scale=alt.Scale(domain=[0, 1]), title=t["y"], axis=alt.Axis(format=".1f"))
    color = alt.Color("label:N", title=None, sort=[t["raw"], t["scaled"]],
                      legend=alt.Legend(orient="top"))
    base = alt.Chart(alt.Data(values=rows))
    lines = base.mark_line(point=alt.OverlayMarkDef(size=18)).encode(
        x=x, y=y, color=color,
        tooltip=[alt.Tooltip("d:Q", title="d"), alt.Tooltip("pmax:Q", title=t["y"], format=".3f"),
                 alt.Tooltip("label:N", title=t["series"])])
    # The slider moves over log2 d; the nearest computed d of each series is highlighted.
    nearest = (base.transform_calculate(dist=f"abs(log(datum.d) / log(2) - {log2d.name})")
               .transform_window(rank="row_number()", sort=[alt.SortField("dist")], groupby=["series"])
               .transform_filter("datum.rank == 1"))
    rule = nearest.mark_rule(strokeDash=[4, 3], color="gray").encode(x=x)
    dots = nearest.mark_point(filled=True, size=90).encode(x=x, y=y, color=color)
    labels = nearest.mark_text(align="left", dx=8, dy=-8, fontSize=13).encode(
        x=x, y=y, color=color, text=alt.Text("pmax:Q", format=".2f"))
    uniform = alt.Chart(alt.Data(values=[{"u": scaling["uniform"]}])).mark_rule(
        strokeDash=[2, 2], color="gray", opacity=0.6).encode(y="u:Q")
    return (lines + rule + dots + labels + uniform).add_params(log2d).properties(
        width="container", height=300, title=t["title"], description=t["description"])


def table(data: dict, t: dict) -> dict:
    by_d = {}
    for r in data["scaling"]["curve"]:
        by_d.setdefault(r["d"], {"d": r["d"]})[r["series"]] = r["pmax"]
    return {"columns": [["d", "d", "d"], ["raw", t["raw"], ".3f"], ["scaled", t["scaled"], ".3f"]],
            "rows": [by_d[d] for d in sorted(by_d)]}
