// Render every course chart from its inlined Vega spec (no fetch: works from file:// too).
// Language conventions (digits, separators, font, menu strings) come from the page in data-opts,
// computed by hooks/refs.py from scripts/common/numfmt.py. Charts follow Material's palette.
(function () {
  "use strict";
  var views = new Map();

  function cssVar(name, fallback) {
    var v = getComputedStyle(document.body).getPropertyValue(name).trim();
    return v || fallback;
  }

  function themeConfig(font) {
    var fg = cssVar("--md-default-fg-color", "#000");
    var fgLight = cssVar("--md-default-fg-color--light", "#555");
    var grid = cssVar("--md-default-fg-color--lightest", "#ddd");
    return {
      background: null,
      font: font,
      title: { color: fg, subtitleColor: fgLight, font: font },
      axis: { labelColor: fgLight, titleColor: fg, domainColor: fgLight, tickColor: fgLight, gridColor: grid, labelFont: font, titleFont: font },
      legend: { labelColor: fg, titleColor: fg, labelFont: font, titleFont: font },
      header: { labelColor: fg, titleColor: fg, labelFont: font, titleFont: font },
      text: { fill: fg, font: font },
      view: { stroke: grid }
    };
  }

  // Persian pages: a range slider's readout is plain text that Vega writes in Latin digits.
  function localizeReadouts(el, numerals) {
    if (!numerals) return;
    var map = function (s) { return s.replace(/[0-9]/g, function (d) { return numerals[+d]; }).replace(".", "٫").replace("-", "−"); };
    el.querySelectorAll(".vega-bind input[type=range]").forEach(function (input) {
      var out = input.nextElementSibling;
      if (!out || out.tagName !== "SPAN") return;
      var update = function () { out.textContent = map(String(input.value)); };
      input.addEventListener("input", update);
      update();
    });
  }

  function render(el) {
    var spec = JSON.parse(el.dataset.spec);
    var opts = JSON.parse(el.dataset.opts);
    var old = views.get(el);
    if (old) old.finalize();
    el.dataset.rendered = "";
    return vegaEmbed(el, spec, {
      renderer: "svg",
      mode: "vega",
      config: themeConfig(opts.font),
      formatLocale: opts.locale,
      i18n: opts.actions,
      actions: { export: true, source: false, compiled: false, editor: false },
      downloadFileName: el.dataset.chart
    }).then(function (res) {
      views.set(el, res);
      // The drawing itself is hidden from screen readers: the figure is named (aria-label), described
      // (figcaption) and its data is the table under it; the controls stay reachable.
      var svg = el.querySelector("svg.marks");
      if (svg) svg.setAttribute("aria-hidden", "true");
      var summary = el.querySelector("details summary");  // vega-embed's menu button: an icon only
      if (summary) summary.setAttribute("aria-label", opts.menu);
      localizeReadouts(el, opts.locale.numerals);
      el.dataset.renderedAt = String(performance.now());  // read by tools/bench.py
      el.dataset.rendered = "1";
      el.dispatchEvent(new CustomEvent("chart-rendered", { bubbles: true }));
      return res;
    }).catch(function (err) {
      el.dataset.rendered = "error";
      console.error("chart " + el.dataset.chart + ": " + err);
    });
  }

  // One chart per task, those on screen first: the page stays responsive while the rest render
  // (one long task for all charts blocked input for a third of a second).
  function renderAll() {
    var els = Array.prototype.slice.call(document.querySelectorAll(".chart-view"));
    var h = window.innerHeight;
    var distance = function (el) { var r = el.getBoundingClientRect(); return r.bottom < 0 ? -r.bottom : Math.max(0, r.top - h); };
    els.sort(function (a, b) { return distance(a) - distance(b); });
    return els.reduce(function (done, el) {
      return done.then(function () {
        return new Promise(function (resolve) { setTimeout(function () { resolve(render(el)); }, 0); });
      });
    }, Promise.resolve());
  }

  // Re-render when the reader toggles light/dark, so axes and text keep their contrast.
  new MutationObserver(function () { renderAll(); })
    .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  window.courseCharts = { views: views, renderAll: renderAll };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", renderAll);
  else renderAll();
})();
