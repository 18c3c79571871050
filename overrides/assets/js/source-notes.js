// A computed number's source note (course.css: a.src::after, shown on hover and on keyboard focus) hangs below
// the number from the number's start. A number near the end of a line on a phone pushed its note past the
// screen's edge (the right in Ukrainian, the left in Persian); as the note shows, it is moved back towards the
// line's start by as much as it passes the text column (or the screen), never past the column's other edge.
// Loaded on pages with such numbers.
(function () {
  "use strict";
  var EDGE = 8;  // px kept free between a note and the column's or the screen's edge

  function place(link) {
    link.style.removeProperty("--src-tip-pull");
    var tip = getComputedStyle(link, "::after");
    if (tip.content === "none" || tip.position !== "absolute") return;  // not shown, or set in a table cell's flow
    var width = parseFloat(tip.width);  // the border box under Material's box-sizing, else the content's
    if (tip.boxSizing !== "border-box") width += parseFloat(tip.paddingLeft) + parseFloat(tip.paddingRight);
    var box = link.getBoundingClientRect();
    // the text column, which clips what passes it (course.css), within the screen
    var column = (link.closest(".md-content") || document.documentElement).getBoundingClientRect();
    var lo = Math.max(column.left, 0) + EDGE, hi = Math.min(column.right, document.documentElement.clientWidth) - EDGE;
    var rtl = getComputedStyle(link).direction === "rtl";
    var over = rtl ? lo - (box.right - width) : box.left + width - hi;  // past the far edge
    var room = rtl ? hi - box.right : box.left - lo;                    // free on the near side
    var pull = Math.min(over, room);
    if (pull > 0) link.style.setProperty("--src-tip-pull", pull + "px");
  }

  function shown(event) {
    var link = event.target.closest ? event.target.closest("a.src") : null;
    if (!link) return;
    place(link);
    // a pointer's :hover may be set only as the next frame is drawn: placed again before that frame is painted
    requestAnimationFrame(function () { place(link); });
  }
  document.addEventListener("pointerover", shown);
  document.addEventListener("focusin", shown);
})();
