"""The same attention row before and after training, drawn on the shape: pick a shape, a query and a head.

Only each head's scaled queries q (50 tokens: the class token, then the 49 patches) and keys k (49
patches) are inlined, for the untrained and the trained model (from sa_trained); the browser computes
softmax(q·k) for the chosen query, so each panel's weights and entropy are recomputed live.
"""
import altair as alt

from scripts.charts._kit import PADDING, bidi, label, num, patch_pixels, pixel_scales, say, softmax
from scripts.common.numfmt import fmt

DATA = ["sa_trained"]
PANEL = 230          # px of each picture
WEIGHT = "#d95f02"   # the attention overlay; the shape stays grey underneath
STATES = ("untrained", "trained")


def _packed(rows: list[list[float]]) -> list[str]:
    """Each vector as one string of hundredths ("12 -305 …"): a third of the bytes of a JSON list."""
    return [" ".join(str(round(v * 100)) for v in row) for row in rows]


def _rows(sa: dict) -> list[dict]:
    """One row per (shape, state, head) holding its q (50 strings of hd numbers) and k (49 strings)."""
    return [{"shape": s, "state": st, "head": int(h), "q": _packed(m["q"]), "k": _packed(m["k"])}
            for s, ex in sa["examples"].items() for st in STATES for h, m in ex[st]["heads"].items()]


def _weights(source, shape, head, query, n: int, hd: int) -> alt.Chart:
    """softmax(q_query · k_j) over the 49 patches j, for both states, with each row's entropy."""
    dot = " + ".join(f"toNumber(datum.qv[{c}]) * toNumber(datum.kv[{c}])" for c in range(hd))
    scores = (alt.Chart(source)
              .transform_filter(f"datum.shape == {shape.name} && datum.head == {head.name}")
              .transform_calculate(qv=f"split(datum.q[{query.name}], ' ')", j=f"sequence(0, {n})")
              .transform_flatten(["k", "j"], as_=["ks", "j"])
              .transform_calculate(kv="split(datum.ks, ' ')")
              .transform_calculate(z=f"({dot}) / 10000"))
    return (softmax(scores, "z", groupby=["state"])
            .transform_calculate(plogp="datum.w > 0 ? -datum.w * log(datum.w) : 0")
            .transform_joinaggregate(h="sum(plogp)", groupby=["state"])
            .transform_calculate(h_pct=f"datum.h / log({n})"))


def _panel(weights, pixels, state: str, t: dict, query, grid: int, side: int) -> alt.LayerChart:
    px, rpx = pixel_scales(grid, side)
    X = lambda f: alt.X(f, type="quantitative", scale=px, axis=None)  # noqa: E731
    Y = lambda f: alt.Y(f, type="quantitative", scale=rpx, axis=None)  # noqa: E731
    mine = weights.transform_filter(f"datum.state == '{state}'").transform_calculate(
        x0=f"(datum.j % {grid}) * {side}", y0=f"floor(datum.j / {grid}) * {side}",
        x1=f"(datum.j % {grid} + 1) * {side}", y1=f"(floor(datum.j / {grid}) + 1) * {side}")
    cells = mine.mark_rect(fill=WEIGHT).encode(
        x=X("x0"), x2="x1", y=Y("y0"), y2="y1",
        fillOpacity=alt.FillOpacity("w:Q", scale=alt.Scale(domain=[0, 0.2], range=[0, 0.9], clamp=True),
                                    legend=None),
        tooltip=[alt.Tooltip("j:Q", title=t["key"], format="d"),
                 alt.Tooltip("w:Q", title=t["weight"], format=".3f")]).properties(name=f"cells_{state}")
    box = mine.transform_filter(f"datum.j == {query.name} - 1").mark_rect(
        fill=None, stroke="#1f77b4", strokeWidth=2.5).encode(x=X("x0"), x2="x1", y=Y("y0"), y2="y1")
    heading = mine.transform_filter("datum.j == 0").transform_calculate(
        text=say(t["panel"][state], h=num("datum.h_pct", ".1%"))).mark_text(
        fontSize=13, baseline="bottom", dy=-6).encode(
        x=alt.value(PANEL / 2), y=alt.value(0), text="text:N").properties(name=f"entropy_{state}")
    return alt.layer(pixels, cells, box, heading).properties(width=PANEL, height=PANEL)


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    sa = data["sa_trained"]
    shapes, n, hd = sa["shapes"], len(sa["examples"][sa["shapes"][0]]["patches"]), sa["head_dim"]
    grid, side = round(n ** 0.5), round(len(sa["examples"][shapes[0]]["patches"][0]) ** 0.5)
    heads = list(sa["examples"][shapes[0]]["trained"]["heads"])
    shape = alt.param(name="shape", value=shapes[0], bind=alt.binding_radio(
        options=shapes, labels=[t["shapes"][s] for s in shapes], name=label(t["shape"])))
    head = alt.param(name="head", value=int(heads[0]), bind=alt.binding_radio(
        options=[int(h) for h in heads], labels=[fmt(int(h), "d", lang) for h in heads], name=label(t["head"])))
    query = alt.param(name="query", value=0, bind=alt.binding_select(
        options=list(range(n + 1)), labels=[t["cls"]] + [t["patch"].format(j=fmt(j, "d", lang)) for j in range(n)],
        name=label(t["query"])))
    pics = alt.Data(values=[{"shape": s, "i": i, "p": p}
                            for s in shapes for i, p in enumerate(sa["examples"][s]["patches"])])
    pixels = patch_pixels(alt.Chart(pics).transform_filter(f"datum.shape == {shape.name}"), "i", grid, side,
                          alt.Scale(scheme="greys", range=["#ffffff", "#777777"]))
    weights = _weights(alt.Data(values=_rows(sa)), shape, head, query, n, hd)
    panels = [_panel(weights, pixels, st, t, query, grid, side) for st in STATES]
    return alt.hconcat(*panels, spacing=24).add_params(shape, head, query).configure_view(stroke="#999").properties(
        title=alt.TitleParams(bidi(t["title"]), subtitle=bidi(t["subtitle"]), fontSize=14, anchor="middle", offset=16),
        padding=PADDING, description=t["description"])


def table(data: dict, t: dict, lang: str) -> dict:
    """Per shape: the class token's row, averaged over heads, before and after training."""
    sa = data["sa_trained"]
    c = t["columns"]
    rows = [dict(sa["by_shape"][s], name=t["shapes"][s],
                 untrained_entropy=sa["by_shape"][s]["untrained_entropy_pct"] / 100,
                 trained_entropy=sa["by_shape"][s]["trained_entropy_pct"] / 100) for s in sa["shapes"]]
    return {"columns": [["name", c["shape"], "s"], ["untrained_entropy", c["untrained_entropy"], ".0%"],
                        ["trained_entropy", c["trained_entropy"], ".0%"],
                        ["untrained_on_shape", c["untrained_on_shape"], ".0%"],
                        ["trained_on_shape", c["trained_on_shape"], ".0%"]],
            "rows": rows}
