// Widgets (course_build/widgets.py): figures that run one of the course's trained models on the reader's own
// input. A widget's scripts (tiny-models.js, its model from generated/models/, its own script) are listed in
// the figure's data-scripts; they load, in order, when the figure comes within about a screen of the
// viewport, as scripts (never a fetch: the offline copy opens from file://). The widget's script registers
// itself in window.courseWidgets[id]; it is then called with the figure's view and its options (the page's
// number conventions and words, data-opts).
(function () {
  "use strict";
  var registry = (window.courseWidgets = window.courseWidgets || {});
  var loaded = {};

  // what every widget's script uses (they load after this file): a number in the page's digits, decimal sign
  // and minus; a {name} template filled; an element made with attributes ("text" sets its text) and placed
  registry.kit = {
    number: function (x, decimals, locale) {
      var s = x.toFixed(decimals).replace("-", locale.minus).replace(".", locale.decimal);
      return locale.numerals ? s.replace(/[0-9]/g, function (d) { return locale.numerals[+d]; }) : s;
    },
    fill: function (template, values) {
      return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k]; });
    },
    el: function (tag, attrs, parent) {
      var e = document.createElement(tag);
      for (var k in attrs || {}) {
        if (k === "text") e.textContent = attrs[k];
        else e.setAttribute(k, attrs[k]);
      }
      if (parent) parent.appendChild(e);
      return e;
    }
  };

  function load(src) {
    if (!loaded[src]) {
      loaded[src] = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = src;
        s.onload = resolve;
        s.onerror = function () { reject(new Error("could not load " + src)); };
        document.head.appendChild(s);
      });
    }
    return loaded[src];
  }

  function start(fig) {
    if (fig.dataset.started) return;
    fig.dataset.started = "1";
    var scripts = JSON.parse(fig.dataset.scripts), opts = JSON.parse(fig.dataset.opts);
    scripts.reduce(function (p, src) { return p.then(function () { return load(src); }); }, Promise.resolve())
      .then(function () {
        registry[fig.dataset.widget](fig.querySelector(".widget-view"), opts);
        fig.dataset.ready = "1";
      })
      .catch(function (err) { fig.dataset.failed = String(err); });
  }

  function init() {
    var figs = document.querySelectorAll("figure.widget");
    if (!("IntersectionObserver" in window)) { figs.forEach(start); return; }
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) { io.unobserve(e.target); start(e.target); } });
    }, { rootMargin: "100% 0px" });
    figs.forEach(function (f) { io.observe(f); });
    // printing from the browser, or a test, can ask for every widget at once
    registry.startAll = function () { figs.forEach(start); };
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
