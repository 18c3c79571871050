// Lesson blocks (course_build/render_on_view.py) have content-visibility: auto, which clips whatever overflows
// them. While a provenance tip (a.src, hovered or focused) or a chart's «⋯» menu is shown, its block gets
// data-open (the reasons, space-separated), and course.css lifts the clipping. This was a `.cv:has(…)` rule:
// Chromium then matched every block's whole subtree on each style recalculation Material forces at load
// (a quarter of the selector time on the self-attention page; issue 12, Lighthouse).
(function () {
  "use strict";
  function mark(el, reason, on) {
    var block = el.closest(".cv");
    if (!block) return;
    var reasons = (block.dataset.open || "").split(" ").filter(function (r) { return r && r !== reason; });
    if (on) reasons.push(reason);
    if (reasons.length) block.dataset.open = reasons.join(" ");
    else delete block.dataset.open;
  }
  function tipOf(e) { return e.target.closest ? e.target.closest("a.src") : null; }
  document.addEventListener("mouseover", function (e) { var a = tipOf(e); if (a) mark(a, "hover", true); });
  document.addEventListener("mouseout", function (e) {
    var a = tipOf(e);
    if (a && !a.contains(e.relatedTarget)) mark(a, "hover", false);
  });
  document.addEventListener("focusin", function (e) { var a = tipOf(e); if (a) mark(a, "focus", true); });
  document.addEventListener("focusout", function (e) { var a = tipOf(e); if (a) mark(a, "focus", false); });
  // toggle does not bubble; a capturing listener hears every <details>
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d.closest || !d.closest(".vega-embed")) return;
    var block = d.closest(".cv");
    if (block) mark(d, "menu", !!block.querySelector(".vega-embed details[open]"));
  }, true);
})();
