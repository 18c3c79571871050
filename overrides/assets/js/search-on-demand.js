// The search index (the heaviest file after Vega) is requested when the reader opens search, not with
// every page (issue 12, lighter pages). Material asks for search/search_index.json with an
// XMLHttpRequest as it starts; that one request is held until search is opened (the search button,
// a focus on the query field, or a key Material opens search with). The offline copy reads the index
// from a script instead and is not affected. Loaded before Material's bundle (overrides/main.html).
// The search worker's script waits too: Material creates its Worker as it starts; on http(s) that
// Worker is a stand-in that keeps Material's listeners and messages until search is opened, then
// starts the real one (on file:// the offline copy's worker shim is left alone).
(function () {
  "use strict";
  var workers = [];  // stand-ins waiting for search
  var Base = window.Worker;
  function LazyWorker(url, options) {
    if (!/^https?:$/.test(location.protocol) || !/\/workers\/search\.[\w]+\.min\.js(\?|$)/.test(String(url))) {
      return new Base(url, options);
    }
    this.courseWaiting = { url: url, options: options, listeners: [], messages: [] };
    workers.push(this);
  }
  LazyWorker.prototype.addEventListener = function (type, fn, opts) {
    if (this.real) return this.real.addEventListener(type, fn, opts);
    this.courseWaiting.listeners.push([type, fn, opts]);
  };
  LazyWorker.prototype.removeEventListener = function (type, fn, opts) {
    if (this.real) return this.real.removeEventListener(type, fn, opts);
    this.courseWaiting.listeners = this.courseWaiting.listeners.filter(function (l) { return l[0] !== type || l[1] !== fn; });
  };
  LazyWorker.prototype.postMessage = function () {
    if (this.real) return this.real.postMessage.apply(this.real, arguments);
    this.courseWaiting.messages.push(arguments);
  };
  LazyWorker.prototype.terminate = function () { if (this.real) this.real.terminate(); workers = workers.filter(function (w) { return w !== this; }, this); };
  function startWorkers() {
    workers.splice(0).forEach(function (w) {
      var wait = w.courseWaiting, real = new Base(wait.url, wait.options);
      ["onmessage", "onerror", "onmessageerror"].forEach(function (k) { if (w[k]) real[k] = w[k]; });
      wait.listeners.forEach(function (l) { real.addEventListener(l[0], l[1], l[2]); });
      wait.messages.forEach(function (m) { real.postMessage.apply(real, m); });
      w.real = real;
    });
  }
  if (Base) window.Worker = LazyWorker;

  var proto = XMLHttpRequest.prototype, open = proto.open, send = proto.send;
  var held = [], wanted = false;
  proto.open = function (method, url) {
    this.courseSearchIndex = /\/search\/search_index\.json(\?|$)/.test(String(url));
    return open.apply(this, arguments);
  };
  proto.send = function () {
    if (this.courseSearchIndex && !wanted) { held.push([this, arguments]); return; }
    return send.apply(this, arguments);
  };
  function load() {
    if (wanted) return;
    wanted = true;
    startWorkers();
    held.splice(0).forEach(function (h) { send.apply(h[0], h[1]); });
  }
  document.addEventListener("focusin", function (e) {
    if (e.target.matches && e.target.matches("[data-md-component=search-query]")) load();
  });
  document.addEventListener("change", function (e) { if (e.target.id === "__search") load(); });
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("label[for=__search]")) load();
  });
  document.addEventListener("keydown", function (e) {
    if (["/", "s", "f", "S", "F"].indexOf(e.key) >= 0) load();
  }, true);
  // a link that arrives with a search query (?q=) means search is wanted now
  if (/[?&]q=/.test(location.search)) load();

  // Material writes each count into its string's "#" in Latin digits («3 نتیجه یافت شد»): the counts (the
  // results' and each page's further results) are rewritten in the page language's digits, which
  // partials/search.html puts on the search box (course_build/chrome.py, from the language's numerals).
  var box = document.querySelector("[data-md-component=search][data-course-numerals]");
  var digits = box && box.getAttribute("data-course-numerals");
  var results = box && box.querySelector("[data-md-component=search-result]");
  if (results && digits && digits.length === 10 && digits !== "0123456789" && window.MutationObserver) {
    var COUNTS = ".md-search-result__meta, .md-search-result__more > summary > div";
    var inDigits = function (el) {
      if (/[0-9]/.test(el.textContent)) el.textContent = el.textContent.replace(/[0-9]/g, function (d) { return digits[+d]; });
    };
    // a count changes only its own text, so the observer's next call finds nothing left to rewrite
    new MutationObserver(function () { Array.prototype.forEach.call(results.querySelectorAll(COUNTS), inDigits); })
      .observe(results, { childList: true, subtree: true, characterData: true });
  }
})();
