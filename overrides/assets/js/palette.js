// The light/dark toggle in the header (partials/palette.html), in place of Material's palette code
// (issue 12: that code restyled the whole page several times at load). The palette in force at load was
// applied before the content was parsed (partials/javascripts/palette.html); this only switches it.
// Same behaviour and stored format as Material's: a click on the icon (a label) checks the next option;
// Enter on the focused option moves to the next one; the choice is kept in localStorage ("__palette").
(function () {
  "use strict";
  var form = document.querySelector("[data-course-palette]");
  if (!form) return;
  var inputs = [].slice.call(form.querySelectorAll("input[name=__palette]"));
  var KEYS = ["media", "scheme", "primary", "accent"];

  function setMeta(name, content) {
    var el = document.querySelector("meta[name=" + name + "]");
    if (el) el.content = content;
  }

  function choose(index) {
    var color = {};
    KEYS.forEach(function (key) { color[key] = inputs[index].getAttribute("data-md-color-" + key); });
    // Material's rule: no transitions while the colours change (else every element fades on its own)
    document.body.setAttribute("data-md-color-switching", "");
    KEYS.forEach(function (key) { document.body.setAttribute("data-md-color-" + key, color[key]); });
    inputs.forEach(function (input, i) {
      if (input.nextElementSibling instanceof HTMLLabelElement) input.nextElementSibling.hidden = i !== index;
    });
    setMeta("color-scheme", getComputedStyle(document.body).colorScheme);
    setMeta("theme-color", getComputedStyle(document.querySelector("[data-md-component=header]")).backgroundColor);
    requestAnimationFrame(function () { document.body.removeAttribute("data-md-color-switching"); });
    __md_set("__palette", { index: index, color: color });
  }

  inputs.forEach(function (input, i) {
    input.addEventListener("change", function () { if (input.checked) choose(i); });
  });
  form.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") return;
    var current = inputs.findIndex(function (input) { return input.checked; });
    var next = inputs[(current + 1) % inputs.length];
    e.preventDefault();
    next.click();
    next.focus();
  });
})();
