"""Series colours per colour scheme (issue 12, defect 6): each keeps 4.5:1 contrast as text on the
page background of its scheme (white; Material's slate #1e2129). Same hue order as Vega's default
(blue, orange, red, green, purple, grey), so a chart keeps its hues. The spec and the static SVG use
`light`; assets/js/charts.js themeConfig swaps in `dark` on the dark scheme (course_build/refs.py passes it)."""
HUES = ("blue", "orange", "red", "green", "purple", "grey")
LIGHT = ("#2b62a8", "#b85c00", "#c62f2b", "#1a7f4b", "#7750a8", "#5f6b73")
DARK = ("#86b7f5", "#ffaa5c", "#ff8f85", "#6fd39b", "#c6a6f2", "#a9b1bb")

FRAME = "rgba(128, 128, 128, 0.45)"

# Marks drawn in one fixed colour in both schemes (no scale to swap): mid tones keeping 3:1 as a mark
# on white and on slate alike (tests/test_chart_design.py measures them).
BOTH = {"blue": "#3f7fc6", "red": "#d0603a"}
BACKGROUNDS = ("#ffffff", "#1e2129")

# Chart type scale next to the page's 16 px body text: nothing under 12 px, titles like headings.
TYPE = {"label": 12, "text": 13, "axis_title": 13, "title": 16, "subtitle": 13}


def config() -> dict:
    """The part of every spec's config that carries the design (colours, sizes)."""
    return {"range": {"category": list(LIGHT)},
            "axis": {"labelFontSize": TYPE["label"], "titleFontSize": TYPE["axis_title"], "labelPadding": 4},
            "legend": {"labelFontSize": TYPE["label"], "titleFontSize": TYPE["axis_title"]},
            "header": {"labelFontSize": TYPE["axis_title"], "titleFontSize": TYPE["axis_title"]},
            "title": {"fontSize": TYPE["title"], "subtitleFontSize": TYPE["subtitle"]},
            "text": {"fontSize": TYPE["text"]},
            # a half-transparent grey frame: quiet on white and on slate (Vega-Lite's #ddd glared in dark)
            "view": {"stroke": FRAME}}
