// The "vega" module as the course's charts need it. tools/vendor_assets.py bundles it with our embed
// (./embed.js, which imports "vega") into assets/vendor/vega/vega-course.min.js. It is node_modules/vega/index.js
// with only the transforms our compiled specs use and only the names the embed reads: geo, force,
// hierarchy, label, regression, wordcloud, crossfilter and the unused data transforms stay out, and so does
// the parser (vega-parser, vega-expression's parser, vega-event-selector: ~21 KB gzip): each spec is parsed
// into its runtime at build time (tools/vega/runtime.mjs, course_build/chart_scripts.py) and the View here runs
// that. tests/test_vega_bundle.py and the build fail, naming chart and missing piece, when a spec needs
// something left out here: add its transform below (a file of vega-transforms/src, or the package it lives in).
import {extend} from 'vega-util';
import {transforms} from 'vega-dataflow';
// layout, bounds, overlap: every view needs them (not "identifier": no runtime of ours has one)
import {bound, mark, overlap, render, viewlayout} from 'vega-view-transforms';
// scales, axes, legends, stack (not "linkpath" or "pie")
import {axisticks, datajoin, encode, legendentries, scale, sortitems, stack} from 'vega-encode';
import {Voronoi as voronoi} from './voronoi.js';  // Vega-Lite's nearest-point hover, without d3-delaunay

// vega-transforms one file each (its package entry would bring all of them), those our charts' runtimes hold
// (tools/vega/runtime.mjs checks each operator of each): first those the Vega parser adds itself…
import aggregate from '../../node_modules/vega-transforms/src/Aggregate.js';
import collect from '../../node_modules/vega-transforms/src/Collect.js';
import expression from '../../node_modules/vega-transforms/src/Expression.js';
import extent from '../../node_modules/vega-transforms/src/Extent.js';
import facet from '../../node_modules/vega-transforms/src/Facet.js';
import multiextent from '../../node_modules/vega-transforms/src/MultiExtent.js';
import prefacet from '../../node_modules/vega-transforms/src/PreFacet.js';
import proxy from '../../node_modules/vega-transforms/src/Proxy.js';
import relay from '../../node_modules/vega-transforms/src/Relay.js';
import sieve from '../../node_modules/vega-transforms/src/Sieve.js';
import tupleindex from '../../node_modules/vega-transforms/src/TupleIndex.js';
import values from '../../node_modules/vega-transforms/src/Values.js';
// …then those our specs name ("transform": [{"type": …}])
import filter from '../../node_modules/vega-transforms/src/Filter.js';
import flatten from '../../node_modules/vega-transforms/src/Flatten.js';
import fold from '../../node_modules/vega-transforms/src/Fold.js';
import formula from '../../node_modules/vega-transforms/src/Formula.js';
import joinaggregate from '../../node_modules/vega-transforms/src/JoinAggregate.js';
import lookup from '../../node_modules/vega-transforms/src/Lookup.js';
import pivot from '../../node_modules/vega-transforms/src/Pivot.js';
import sequence from '../../node_modules/vega-transforms/src/Sequence.js';
import window from '../../node_modules/vega-transforms/src/Window.js';

extend(transforms, {
  bound, mark, overlap, render, viewlayout,
  axisticks, datajoin, encode, legendentries, scale, sortitems, stack,
  aggregate, collect, expression, extent, facet, multiextent, prefacet, proxy, relay, sieve, tupleindex, values,
  filter, flatten, fold, formula, joinaggregate, lookup, pivot, sequence, window, voronoi
});

// Time slicing of a view's first run (issue 25: Lighthouse's total blocking time). A chart's first run is its
// longest (every operator cold; the 49×49 patch attention's was one task of ~110 ms, ~450 ms at Lighthouse's
// 4× slower phone, TBT 190–270 ms and performance 93–94 on the real-patches section). While the embed marks a
// view (view._slice = {since}), an operator that would start after SLICE_MS of the current task first gives
// the page a turn: it returns a promise, which Vega's evaluate awaits as it awaits any asynchronous operator.
// Only first runs: later runs (a slider, a hover) stay one task, as Vega runs them.
import {Operator, Transform} from 'vega-dataflow';
const SLICE_MS = 10;
export const nextTask = () => globalThis.scheduler && globalThis.scheduler.yield ? globalThis.scheduler.yield()
  : new Promise(resolve => { const c = new MessageChannel(); c.port1.onmessage = () => resolve(); c.port2.postMessage(0); });
function sliced(run) {
  return function (pulse) {
    const slice = pulse.dataflow && pulse.dataflow._slice;
    if (!slice || performance.now() - slice.since < SLICE_MS) return run.call(this, pulse);
    return nextTask().then(() => { slice.since = performance.now(); return run.call(this, pulse); });
  };
}
Operator.prototype.run = sliced(Operator.prototype.run);
Transform.prototype.run = sliced(Transform.prototype.run);

// what ./embed.js reads from "vega"
export {logger, Warn} from 'vega-util';
export {View} from 'vega-view';
export {numberFormatDefaultLocale as formatLocale} from 'vega-format';

// What this bundle can draw, for tests/test_vega_bundle.py, which asks it about every generated spec.
import {transform} from 'vega-dataflow';
import {codeGenerator, functionContext} from 'vega-functions';
import {Marks} from 'vega-scenegraph';
import {isValidScaleType, scheme} from 'vega-scale';
import {ABSENT_FUNCTIONS, ABSENT_SCALES} from './absent.js';
export const bundled = {
  transform: name => !!transform(name),
  scale: type => isValidScaleType(type) && !ABSENT_SCALES.includes(type),
  scheme: name => { const s = scheme(name); return !!s && (typeof s === 'function' || s.length > 0); },
  mark: type => Object.prototype.hasOwnProperty.call(Marks, type),
  fn: name => Object.prototype.hasOwnProperty.call(codeGenerator.functions, name) && !ABSENT_FUNCTIONS.includes(name),
  // a function a runtime's code calls as this.<name> (tools/vega/runtime.mjs checks each)
  context: name => Object.prototype.hasOwnProperty.call(functionContext, name) && !ABSENT_FUNCTIONS.includes(name)
};
