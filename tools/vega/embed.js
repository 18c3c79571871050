// The course's own embed: what charts.js asked of vega-embed and nothing more (issue 12, lighter
// pages: vega-embed brought ~10 KB gzip of menu, i18n, JSON patching, Vega-Lite and theme support we
// never used). Same call shape, window.vegaEmbed(el, spec, opts) → Promise<{view, spec, finalize}>,
// and the same markup and classes (.vega-embed, .chart-wrapper, Vega's .vega-bindings, the «⋯» menu as
// <details> with .vega-actions links), so course.css, charts.js and the tests read it as before.
// One difference: `spec` is the chart's Vega runtime, parsed with its config at build time
// (course_build/chart_scripts.py; the bundle has no parser), so there is no `config` option.
// opts: renderer, formatLocale, i18n {CLICK_TO_VIEW_ACTIONS, SVG_ACTION, PNG_ACTION},
// actions (false: no menu), downloadFileName.
import {View, formatLocale, logger, Warn} from 'vega';
import {Handler} from 'vega-tooltip';

// vega-embed's stylesheet, the rules our markup uses (course.css adjusts them for the site).
const STYLE = `.vega-embed{position:relative;display:inline-block;box-sizing:border-box}
.vega-embed.fit-x{display:block;width:100%}
.vega-embed.has-actions{padding-right:38px}
.vega-embed details:not([open])>:not(summary){display:none!important}
.vega-embed summary{list-style:none;position:absolute;top:0;right:0;padding:6px;z-index:1000;background:white;box-shadow:1px 1px 3px rgba(0,0,0,.1);color:#1b1e23;border:1px solid #aaa;border-radius:999px;opacity:.2;transition:opacity .4s ease-in;cursor:pointer;line-height:0px}
.vega-embed summary::-webkit-details-marker{display:none}
.vega-embed summary:active{box-shadow:#aaa 0px 0px 0px 1px inset}
.vega-embed summary svg{width:14px;height:14px}
.vega-embed details[open] summary{opacity:.7}
.vega-embed:hover summary,.vega-embed:focus-within summary{opacity:1!important;transition:opacity .2s ease}
.vega-embed .vega-actions{position:absolute;z-index:1001;top:35px;right:-9px;display:flex;flex-direction:column;padding-bottom:8px;padding-top:8px;border-radius:4px;box-shadow:0 2px 8px 0 rgba(0,0,0,.2);border:1px solid #d9d9d9;background:white;animation-duration:.15s;animation-name:scale-in;animation-timing-function:cubic-bezier(.2,0,.13,1.5);text-align:left}
.vega-embed .vega-actions a{padding:8px 16px;font-family:sans-serif;font-size:14px;font-weight:600;white-space:nowrap;color:#434a56;text-decoration:none}
.vega-embed .vega-actions a:hover,.vega-embed .vega-actions a:focus{background-color:#f7f7f9;color:black}
.vega-embed .vega-actions::before,.vega-embed .vega-actions::after{content:"";display:inline-block;position:absolute}
.vega-embed .vega-actions::before{left:auto;right:14px;top:-16px;border:8px solid rgba(0,0,0,0);border-bottom-color:#d9d9d9}
.vega-embed .vega-actions::after{left:auto;right:15px;top:-14px;border:7px solid rgba(0,0,0,0);border-bottom-color:#fff}
.vega-embed .chart-wrapper.fit-x{width:100%}
@keyframes scale-in{from{opacity:0;transform:scale(.6)}to{opacity:1;transform:scale(1)}}`;

const DOTS = '<svg viewBox="0 0 16 16" fill="currentColor" stroke="none" stroke-width="1" stroke-linecap="round" ' +
  'stroke-linejoin="round"><circle r="2" cy="8" cx="2"></circle><circle r="2" cy="8" cx="8"></circle>' +
  '<circle r="2" cy="8" cx="14"></circle></svg>';

function addStyle() {
  if (document.getElementById('vega-embed-style')) return;
  const style = document.createElement('style');
  style.id = 'vega-embed-style';
  style.textContent = STYLE;
  document.head.appendChild(style);
}
// at once, not at the first embed: a page's script may measure an element with these rules before drawing in it
// (not in node, where the build checks each chart's runtime against this bundle: tools/vega/runtime.mjs)
if (typeof document !== 'undefined') addStyle();

// The «⋯» menu: a link per format; its address is made when the link is pressed (mouse) or focused
// (keyboard, before Enter), so the download is the chart as it is at that moment.
function menu(el, view, opts) {
  const i18n = opts.i18n || {};
  const details = document.createElement('details');
  details.title = i18n.CLICK_TO_VIEW_ACTIONS || 'Click to view actions';
  const summary = document.createElement('summary');
  summary.innerHTML = DOTS;
  const actions = document.createElement('div');
  actions.className = 'vega-actions';
  details.append(summary, actions);
  for (const ext of ['svg', 'png']) {
    const a = document.createElement('a');
    a.text = i18n[`${ext.toUpperCase()}_ACTION`] || `Save as ${ext.toUpperCase()}`;
    a.href = '#';  // no target="_blank" (vega-embed's): a new tab would block the keyboard's download
    a.download = `${opts.downloadFileName || 'visualization'}.${ext}`;
    const prepare = () => view.toImageURL(ext).then(url => { a.href = url; });
    a.addEventListener('mousedown', e => { e.preventDefault(); prepare(); });
    a.addEventListener('focus', prepare);
    // not ready yet (a very quick Enter): no download of the page itself; the next Enter saves the chart
    a.addEventListener('click', e => { if (a.getAttribute('href') === '#') e.preventDefault(); });
    actions.append(a);
  }
  el.append(details);
  const close = ev => { if (!details.contains(ev.target)) details.removeAttribute('open'); };
  document.addEventListener('click', close);
  return () => document.removeEventListener('click', close);
}

export default async function embed(el, spec, opts = {}) {
  if (opts.formatLocale) formatLocale(opts.formatLocale);  // global in Vega, as in vega-embed
  const withMenu = opts.actions !== false;
  el.classList.add('vega-embed');
  el.classList.toggle('has-actions', withMenu);
  el.innerHTML = '';
  const wrapper = document.createElement('div');
  wrapper.className = 'chart-wrapper';
  el.appendChild(wrapper);
  const slice = {since: performance.now()};  // the first run in slices (./vega.js), the parse included
  const view = new View(spec, {renderer: opts.renderer || 'svg', logger: logger(Warn)});
  view._slice = slice;
  // "fit-x" charts stretch to the column (the CSS reads these classes)
  view.addSignalListener('autosize', (_, autosize) => {
    const fitX = autosize.type === 'fit-x' || autosize.type === 'fit';
    const fitY = autosize.type === 'fit-y' || autosize.type === 'fit';
    for (const target of [wrapper, el]) {
      target.classList.toggle('fit-x', fitX);
      target.classList.toggle('fit-y', fitY);
    }
  });
  view.tooltip(new Handler().call);
  view.hover();
  try { await view.initialize(wrapper).runAsync(); } finally { view._slice = null; }
  const unlisten = withMenu ? menu(el, view, opts) : () => {};
  return {view, spec, finalize() { unlisten(); view.finalize(); }};
}
