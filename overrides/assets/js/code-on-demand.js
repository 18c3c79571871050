// The provenance part's code listings arrive when the reader opens one (course_build/code_listings.py):
// opening an entry's <details> loads assets/code/<experiment>.js (a script, so file:// works too),
// which hands over the highlighted listing; it replaces the link to the source file, with Material's
// copy button. Printing does not need them (print CSS hides the listings).
(function () {
  "use strict";
  var listings = {};   // experiment → highlighted HTML inside <pre>
  var waiting = {};    // experiment → [resolve]
  var loaded = {};     // script URL → true

  function copyTitle() {
    try {
      var config = JSON.parse(document.getElementById("__config").textContent);
      return (config.translations || {})["clipboard.copy"] || "";
    } catch (e) { return ""; }
  }

  function show(box) {
    var exp = box.dataset.code;
    var id = "__code_src-" + exp;
    var wrap = document.createElement("div");
    wrap.className = "language-python highlight";
    wrap.innerHTML = "<pre id=\"" + id + "\">" + listings[exp] + "</pre>";
    var pre = wrap.firstChild;
    var code = pre.querySelector("code");
    if (code) code.setAttribute("tabindex", "0");
    // the same copy button Material gives code blocks at page load (its clipboard handler is delegated)
    var nav = document.createElement("nav");
    nav.className = "md-code__nav";
    var button = document.createElement("button");
    button.className = "md-code__button";
    button.title = copyTitle();
    button.setAttribute("data-clipboard-target", "#" + id + " > code");
    button.setAttribute("data-md-type", "copy");
    nav.appendChild(button);
    pre.insertBefore(nav, code);
    box.replaceWith(wrap);
  }

  function load(box) {
    var exp = box.dataset.code;
    if (listings[exp]) return show(box);
    if (box.dataset.pending) return;
    box.dataset.pending = "1";
    (waiting[exp] = waiting[exp] || []).push(function () { show(box); });
    if (loaded[box.dataset.src]) return;
    loaded[box.dataset.src] = true;
    var s = document.createElement("script");
    s.src = box.dataset.src;
    s.onerror = function () { loaded[box.dataset.src] = false; console.error("could not load " + box.dataset.src); };
    document.head.appendChild(s);
  }

  window.courseCode = {
    define: function (exp, html) {
      listings[exp] = html;
      (waiting[exp] || []).forEach(function (f) { f(); });
      delete waiting[exp];
    }
  };
  // toggle does not bubble; a capturing listener still hears every <details>
  document.addEventListener("toggle", function (e) {
    var details = e.target;
    if (!details.open || !details.querySelector) return;
    details.querySelectorAll(".code-listing[data-code]").forEach(load);
  }, true);
})();
