"""Self-attention by hand on four 2-number tokens: five steps, every number on screen, t4 movable.

Everything is computed in the browser from the four tokens of sa_toy (Q = K = V = X), so the
slider that moves t4's first coordinate re-runs the whole formula: scores, ÷√d, exponentials and
row sums, the attention matrix, the output.
"""
import json

import altair as alt

from scripts.charts._kit import align, anchor, bidi, dashboard, js, label, pick, rtl, say, say_lines, softmax

DATA = ["sa_toy"]
COL = 49            # px per table column
ROW = 27            # px per table row
POS, NEG = "#4c78a8", "#e45756"


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    toy = data["sa_toy"]
    tokens, d = toy["tokens"], toy["d"]
    n = len(tokens)
    xs = [s["x"] for s in toy["slider"]]
    assert len(t["tokens"]) == n

    step = alt.param(name="step", value=1, bind=alt.binding_radio(
        options=[1, 2, 3, 4, 5], labels=t["step_labels"], name=label(t["step"])))
    t4x = alt.param(name="t4x", value=tokens[-1][0], bind=alt.binding_range(
        min=xs[0], max=xs[-1], step=xs[1] - xs[0], name=label(t["slider"])))
    S, X4 = step.name, t4x.name

    pairs = [{"i": i, "j": j, "a0i": tokens[i][0], "bi": tokens[i][1],
              "a0j": tokens[j][0], "bj": tokens[j][1]} for i in range(n) for j in range(n)]
    last = n - 1
    base = softmax(alt.Chart(alt.Data(values=pairs))
                   .transform_calculate(ai=f"datum.i == {last} ? {X4} : datum.a0i",
                                        aj=f"datum.j == {last} ? {X4} : datum.a0j")
                   .transform_calculate(s="datum.ai * datum.aj + datum.bi * datum.bj")
                   .transform_calculate(z=f"datum.s / sqrt({d})"), "z", ["i"], total="rowsum", shift=False)
    base = (base.transform_calculate(wa="datum.w * datum.aj", wb="datum.w * datum.bj")
            .transform_joinaggregate(y1="sum(wa)", y2="sum(wb)", groupby=["i"]))

    # what this step does, a few lines from the strings
    dfmt = f"format({d}, 'd')"
    steps_expr = pick([say_lines(lines, d=dfmt, sqrt=f"format(sqrt({d}), '.3f')") for lines in t["steps"]],
                      f"{S} - 1")
    right = rtl(t["steps"][0][0])
    caption = alt.Chart(alt.Data(values=[{"view": "caption"}])).transform_calculate(lines=steps_expr).mark_text(
        align=align(t["steps"][0][0]), baseline="top", fontSize=12, lineHeight=16,
        x=6 * COL if right else 0, y=0).encode(text="lines:N").properties(
        width=6 * COL, height=16 * max(len(lines) for lines in t["steps"]) + 2)

    chart = alt.vconcat(caption, _table(base, t, S, n, dfmt), _plane(base, t, S, last), spacing=8)
    return dashboard(chart.add_params(step, t4x), t)


def _table(base: alt.Chart, t: dict, S: str, n: int, dfmt: str) -> alt.LayerChart:
    """One cell per (i, j); at step 5 the 16 tuples become x₁ x₂ → y₁ y₂ of each token."""
    names = t["tokens"]
    xs_ = alt.Scale(domain=[-1.5, 4.5], nice=False, zero=False)
    ys_ = alt.Scale(domain=[-1.5, n - 0.5], nice=False, zero=False, reverse=True)
    X = alt.X("col:Q", scale=xs_, axis=None)
    Y = alt.Y("row:Q", scale=ys_, axis=None)
    # Views that share a source share its tuples: every view below names its own computed fields.
    cells = (base
             .transform_calculate(row="datum.i",
                                  col=f"{S} < 5 ? datum.j : [0, 1, 3, 4][datum.j]",
                                  val=f"{S} == 1 ? datum.s : {S} == 2 ? datum.z : {S} == 3 ? datum.e : "
                                      f"{S} == 4 ? datum.w : [datum.ai, datum.bi, datum.y1, datum.y2][datum.j]")
             .transform_joinaggregate(vmax="max(val)", vmin="min(val)")
             .transform_calculate(
                 mag="abs(datum.val) / max(abs(datum.vmax), abs(datum.vmin), 1e-9)",
                 sign="datum.val < 0 ? 'neg' : 'pos'",
                 label=f"format(datum.val, {S} == 1 ? '.2~f' : {S} == 3 ? (datum.val < 1 ? '.3f' : '.2f') "
                       f": {S} == 4 ? '.3f' : '.2f')"))
    cell_w, cell_h = 0.46, 0.44
    rects = cells.transform_calculate(
        x0=f"datum.col - {cell_w}", x1=f"datum.col + {cell_w}",
        y0=f"datum.row - {cell_h}", y1=f"datum.row + {cell_h}",
    ).mark_rect(cornerRadius=2).encode(
        x=alt.X("x0:Q", scale=xs_, axis=None), x2="x1:Q",
        y=alt.Y("y0:Q", scale=ys_, axis=None), y2="y1:Q",
        fill=alt.Fill("sign:N", scale=alt.Scale(domain=["pos", "neg"], range=[POS, NEG]), legend=None),
        fillOpacity=alt.FillOpacity("mag:Q", scale=alt.Scale(domain=[0, 1], range=[0.08, 0.6]),
                                    legend=None))
    numbers = cells.properties(name="cells").mark_text(fontSize=13).encode(x=X, y=Y, text="label:N")
    sums = (base.transform_filter(f"{S} == 3 && datum.j == 0")
            .transform_calculate(s_row="datum.i", s_col="4", s_label="format(datum.rowsum, '.2f')")
            .properties(name="sums").mark_text(fontSize=13, fontWeight="bold").encode(
                x=alt.X("s_col:Q", scale=xs_, axis=None), y=alt.Y("s_row:Q", scale=ys_, axis=None), text="s_label:N"))
    arrows = (base.transform_filter(f"{S} == 5 && datum.j == 0")
              .transform_calculate(a_row="datum.i", a_col="2", a_label=js(t["arrow"]))
              .mark_text(fontSize=15).encode(x=alt.X("a_col:Q", scale=xs_, axis=None),
                                             y=alt.Y("a_row:Q", scale=ys_, axis=None), text="a_label:N"))
    # headers: keys across (or x₁ x₂ → y₁ y₂ at step 5), queries down, the step's operation in the corner
    head = [{"step": s, "col": j, "row": -1, "label": names[j]} for s in (1, 2, 3, 4) for j in range(n)]
    head += [{"step": 3, "col": 4, "row": -1, "label": bidi(t["sum"])}]
    head += [{"step": 5, "col": c, "row": -1, "label": lab}
             for c, lab in zip((0, 1, 3, 4), t["x_cols"] + t["y_cols"])]
    head += [{"step": 0, "col": -1, "row": i, "label": names[i]} for i in range(n)]
    headers = (alt.Chart(alt.Data(values=head)).transform_filter(f"datum.step == 0 || datum.step == {S}")
               .mark_text(fontSize=13, fontStyle="italic", fontWeight="bold").encode(x=X, y=Y, text="label:N"))
    corner = (alt.Chart(alt.Data(values=[{"col": -1, "row": -1}]))
              .transform_calculate(label=pick([say(c, d=dfmt) for c in t["corner"]], f"{S} - 1"))
              .mark_text(fontSize=12).encode(x=X, y=Y, text="label:N"))
    t1_row = alt.Chart(alt.Data(values=[{"a": -0.5, "b": 3.5, "y0": -0.5, "y1": 0.5}])).transform_filter(
        f"{S} < 5").mark_rect(fill=None, stroke="#f58518", strokeWidth=2).encode(
        x=alt.X("a:Q", scale=xs_, axis=None), x2="b:Q",
        y=alt.Y("y0:Q", scale=ys_, axis=None), y2="y1:Q")
    return alt.layer(rects, t1_row, numbers, sums, arrows, headers, corner).properties(
        width=6 * COL, height=(n + 1) * ROW)


def _plane(base: alt.Chart, t: dict, S: str, last: int) -> alt.LayerChart:
    """The four tokens in the plane (and where they move at step 5)."""
    px = alt.Scale(domain=[-2.6, 2.6], nice=False, zero=False)
    py = alt.Scale(domain=[-0.7, 2.7], nice=False, zero=False)
    toks = (base.transform_filter("datum.j == 0")
            .transform_calculate(name=f"{js(t['tokens'])}[datum.i]", yname=f"{js(t['outputs'])}[datum.i]"))
    PX = lambda f: alt.X(f, type="quantitative", scale=px, title=None,  # noqa: E731
                         axis=alt.Axis(values=[-2, -1, 0, 1, 2], format=",d", grid=True))
    PY = lambda f: alt.Y(f, type="quantitative", scale=py, title=None,  # noqa: E731
                         axis=alt.Axis(values=[0, 1, 2], format=",d", grid=True))
    pts = toks.mark_point(filled=True, size=70, color=POS, opacity=1).encode(x=PX("ai"), y=PY("bi"))
    # t4 is named below its point: at x = +2 it sits on t1, whose name stays above
    pt_names = alt.layer(*(toks.transform_filter(f"datum.i {op} {last}").mark_text(
        align="left", dx=7, dy=dy, fontSize=13, fontWeight="bold").encode(x=PX("ai"), y=PY("bi"), text="name:N")
        for op, dy in (("<", -7), ("==", 12))))
    at5 = toks.transform_filter(f"{S} == 5")
    moves = at5.mark_rule(color="#f58518", strokeWidth=1.5).encode(x=PX("ai"), y=PY("bi"), x2="y1", y2="y2")
    outs = at5.mark_point(filled=False, size=70, color="#f58518", strokeWidth=2, opacity=1).encode(
        x=PX("y1"), y=PY("y2"))
    # likewise y4 is named above its point, which at x = +2 is y1's
    out_names = alt.layer(*(at5.transform_filter(f"datum.i {op} {last}").mark_text(
        align="right", dx=-7, dy=dy, fontSize=12, color="#f58518").encode(x=PX("y1"), y=PY("y2"), text="yname:N")
        for op, dy in (("<", 10), ("==", -8))))
    return alt.layer(pts, pt_names, moves, outs, out_names).properties(
        width=6 * COL, height=150, title=alt.TitleParams(bidi(t["plane"]), fontSize=12, anchor=anchor(t["plane"])))


def table(data: dict, t: dict, lang: str) -> dict:
    """The worked example at t4 = [−2, 0]: each token, its attention row and its output."""
    toy = data["sa_toy"]
    c, names = t["columns"], t["tokens"]
    rows = [dict(r, name=names[i]) for i, r in enumerate(toy["rows"])]
    cols = [["name", c["token"], "s"], ["x1", t["x_cols"][0], ".2f"], ["x2", t["x_cols"][1], ".2f"]]
    cols += [[f"w_{key}", f"{c['weight']} {names[j]}", ".3f"] for j, key in enumerate(toy["names"])]
    cols += [["y1", t["y_cols"][0], ".2f"], ["y2", t["y_cols"][1], ".2f"]]
    return {"columns": cols, "rows": rows}
