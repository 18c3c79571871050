"""The same attention row before and after training, drawn on the shape: pick a shape, a query and a head.

Only each head's scaled queries q (50 tokens: the class token, then the 49 patches) and keys k (49
patches) are inlined, for the untrained and the trained model (from sa_trained); the browser computes
softmax(q·k) for the chosen query, so each panel's weights and entropy are recomputed live.
"""
import altair as alt

from scripts.charts._kit import PADDING, bidi, halves, label, num, parts_by, patch_pixels, say, softmax
from scripts.common.numfmt import fmt

DATA = ["sa_trained"]
PANEL = 230          # px of each picture (less on a column narrower than that)
GAP = 24             # px between the pictures side by side
HEADING = 32         # px above a stacked picture for its heading
FRAME = "#999"       # each picture's frame
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


def _layout(state: int) -> tuple[str, str, str]:
    """Where panel `state` sits in the view, as Vega expressions of its width: (left, top, side in px).
    Side by side where the column holds both; stacked (one above the other, each at full size and its
    text at full size) on a phone, whose column a side-by-side pair would have to shrink."""
    pair = 2 * PANEL + GAP
    side = f"min({PANEL}, width)"
    left = f"(width >= {pair} ? (width - {pair}) / 2 + {state * (PANEL + GAP)} : (width - {side}) / 2)"
    top = f"(width >= {pair} ? 0 : {state} * ({side} + {HEADING}))"
    return left, top, side


def _panel(weights, pixels, state: str, t: dict, query, grid: int, side: int) -> list[alt.Chart]:
    """One state's picture: the shape, the weights over it, the query's patch and the entropy above it.
    Positions are px (scale=None), placed by _layout."""
    left, top, size = _layout(STATES.index(state))
    at = lambda v: f"{left} + ({v}) * {size} / {grid * side}"   # noqa: E731  (pixel units → px)
    down = lambda v: f"{top} + ({v}) * {size} / {grid * side}"  # noqa: E731
    X = lambda f: alt.X(f, type="quantitative", scale=None, axis=None)  # noqa: E731
    Y = lambda f: alt.Y(f, type="quantitative", scale=None, axis=None)  # noqa: E731
    picture = pixels.transform_calculate(X0=at("datum.x0"), X1=at("datum.x1"), Y0=down("datum.y0"),
                                         Y1=down("datum.y1")).encode(x=X("X0"), x2="X1", y=Y("Y0"), y2="Y1")
    mine = weights.transform_filter(f"datum.state == '{state}'").transform_calculate(
        x0=at(f"(datum.j % {grid}) * {side}"), y0=down(f"floor(datum.j / {grid}) * {side}"),
        x1=at(f"(datum.j % {grid} + 1) * {side}"), y1=down(f"(floor(datum.j / {grid}) + 1) * {side}"))
    cells = mine.mark_rect(fill=WEIGHT).encode(
        x=X("x0"), x2="x1", y=Y("y0"), y2="y1",
        fillOpacity=alt.FillOpacity("w:Q", scale=alt.Scale(domain=[0, 0.2], range=[0, 0.9], clamp=True),
                                    legend=None),
        tooltip=[alt.Tooltip("j:Q", title=t["key"], format="d"),
                 alt.Tooltip("w:Q", title=t["weight"], format=".3f")]).properties(name=f"cells_{state}")
    box = mine.transform_filter(f"datum.j == {query.name} - 1").mark_rect(
        fill=None, stroke="#1f77b4", strokeWidth=2.5).encode(x=X("x0"), x2="x1", y=Y("y0"), y2="y1")
    frame = alt.Chart(alt.Data(values=[{"view": f"frame_{state}"}])).mark_rect(fill=None, stroke=FRAME).encode(
        x=alt.value({"expr": left}), x2=alt.value({"expr": f"{left} + {size}"}),
        y=alt.value({"expr": top}), y2=alt.value({"expr": f"{top} + {size}"}))
    heading = mine.transform_filter("datum.j == 0").transform_calculate(
        text=say(t["panel"][state], h=num("datum.h_pct", ".1%"))).mark_text(
        fontSize=13, baseline="bottom", dy=-6).encode(
        x=alt.value({"expr": f"{left} + {size} / 2"}), y=alt.value({"expr": top}), text="text:N").properties(
        name=f"entropy_{state}")
    return [picture, cells, box, frame, heading]


def build(data: dict, t: dict, lang: str) -> alt.TopLevelMixin:
    sa = data["sa_trained"]
    shapes, n, hd = sa["shapes"], len(sa["examples"][sa["shapes"][0]]["patches"]), sa["head_dim"]
    grid, side = round(n ** 0.5), round(len(sa["examples"][shapes[0]]["patches"][0]) ** 0.5)
    heads = list(sa["examples"][shapes[0]]["trained"]["heads"])
    # the picture first shows the head training focused most on the first shape (lowest class-row entropy):
    # in a one-block model some heads stay near uniform, and paper keeps only the first picture
    first = min(heads, key=lambda h: sa["examples"][shapes[0]]["trained"]["heads"][h]["entropy_pct"])
    shape = alt.param(name="shape", value=shapes[0], bind=alt.binding_radio(
        options=shapes, labels=[t["shapes"][s] for s in shapes], name=label(t["shape"])))
    head = alt.param(name="head", value=int(first), bind=alt.binding_radio(
        options=[int(h) for h in heads], labels=[fmt(int(h), "d", lang) for h in heads], name=label(t["head"])))
    query = alt.param(name="query", value=0, bind=alt.binding_select(
        options=list(range(n + 1)), labels=[t["cls"]] + [t["patch"].format(j=fmt(j, "d", lang)) for j in range(n)],
        name=label(t["query"])))
    pics = alt.Data(name="pictures", values=[{"shape": s, "i": i, "p": p}
                                             for s in shapes for i, p in enumerate(sa["examples"][s]["patches"])])
    pixels = patch_pixels(alt.Chart(pics).transform_filter(f"datum.shape == {shape.name}"), "i", grid, side,
                          alt.Scale(scheme="greys", range=["#ffffff", "#777777"]))
    weights = _weights(alt.Data(name="qk", values=_rows(sa)), shape, head, query, n, hd)
    layers = [layer for st in STATES for layer in _panel(weights, pixels, st, t, query, grid, side)]
    # One view as wide as the column, the two pictures laid out in it by its width (_layout); a stacked
    # second picture lies below the view's height, and the view grows to hold it (autosize pad in y).
    return alt.layer(*layers).add_params(shape, head, query).configure_view(stroke=None).properties(
        width="container", height=PANEL,
        # the title fits a phone; the subtitle, twice as long, takes two lines (cut as readouts are)
        title=alt.TitleParams(bidi(t["title"]), subtitle=[bidi(x) for x in halves(t["subtitle"].format(seed=fmt(sa["seed"], "d", lang)))], fontSize=14,
                              anchor="middle", offset=16),
        padding=PADDING, description=t["description"],
        # a reader sees one shape and one head: the others' rows load when picked
        usermeta=parts_by({"pictures": [shape], "qk": [shape, head]}))


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
