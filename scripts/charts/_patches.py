"""Drawing a 28×28 shape from its 49 patch vectors, shared by the charts that show the shape."""
import altair as alt


def pixel_scales(grid: int, side: int) -> tuple[alt.Scale, alt.Scale]:
    """x and y scales over the frame's pixels; y runs downwards like an image."""
    return (alt.Scale(domain=[0, grid * side], nice=False, zero=False),
            alt.Scale(domain=[0, grid * side], nice=False, zero=False, reverse=True))


def patch_pixels(chart: alt.Chart, slot: str, grid: int, side: int, fill: alt.Scale) -> alt.Chart:
    """One rect per pixel: each row of `chart` holds a patch vector `p` drawn at grid position `slot`."""
    px, rpx = pixel_scales(grid, side)
    return (chart.transform_calculate(k=f"sequence(0, {side * side})")
            .transform_flatten(["p", "k"], as_=["v", "k"])
            .transform_calculate(x0=f"(datum.{slot} % {grid}) * {side} + datum.k % {side}",
                                 y0=f"floor(datum.{slot} / {grid}) * {side} + floor(datum.k / {side})")
            .transform_calculate(x1="datum.x0 + 1", y1="datum.y0 + 1")
            .mark_rect().encode(x=alt.X("x0:Q", scale=px, axis=None), x2="x1:Q",
                                y=alt.Y("y0:Q", scale=rpx, axis=None), y2="y1:Q",
                                fill=alt.Fill("v:Q", scale=fill, legend=None)))
