// The "vega" module as the course's charts need it. tools/vendor_assets.py bundles it with our embed
// (./embed.js, which imports "vega") into assets/vendor/vega/vega-course.min.js. It is node_modules/vega/index.js
// with only the transforms our compiled specs use and only the names the embed reads: geo, force,
// hierarchy, label, regression, wordcloud, crossfilter and the unused data transforms stay out.
// tests/test_vega_bundle.py fails, naming chart and missing piece, when a spec needs something
// left out here: add its transform below (a file of vega-transforms/src, or the package it lives in).
import {extend} from 'vega-util';
import {transforms} from 'vega-dataflow';
import * as vtx from 'vega-view-transforms';  // layout, bounds, overlap: every view needs them
import * as encode from 'vega-encode';        // scales, axes, legends, stack
import {Voronoi as voronoi} from './voronoi.js';  // Vega-Lite's nearest-point hover, without d3-delaunay

// vega-transforms one file each (its package entry would bring all of them):
// first those the Vega parser itself adds to every view…
import aggregate from '../../node_modules/vega-transforms/src/Aggregate.js';
import collect from '../../node_modules/vega-transforms/src/Collect.js';
import compare from '../../node_modules/vega-transforms/src/Compare.js';
import expression from '../../node_modules/vega-transforms/src/Expression.js';
import extent from '../../node_modules/vega-transforms/src/Extent.js';
import facet from '../../node_modules/vega-transforms/src/Facet.js';
import field from '../../node_modules/vega-transforms/src/Field.js';
import key from '../../node_modules/vega-transforms/src/Key.js';
import load from '../../node_modules/vega-transforms/src/Load.js';
import multiextent from '../../node_modules/vega-transforms/src/MultiExtent.js';
import multivalues from '../../node_modules/vega-transforms/src/MultiValues.js';
import params from '../../node_modules/vega-transforms/src/Params.js';
import prefacet from '../../node_modules/vega-transforms/src/PreFacet.js';
import proxy from '../../node_modules/vega-transforms/src/Proxy.js';
import relay from '../../node_modules/vega-transforms/src/Relay.js';
import sieve from '../../node_modules/vega-transforms/src/Sieve.js';
import subflow from '../../node_modules/vega-transforms/src/Subflow.js';
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

extend(transforms, vtx, encode, {
  aggregate, collect, compare, expression, extent, facet, field, key, load, multiextent, multivalues,
  params, prefacet, proxy, relay, sieve, subflow, tupleindex, values,
  filter, flatten, fold, formula, joinaggregate, lookup, pivot, sequence, window, voronoi
});

// what ./embed.js reads from "vega"
export {logger, Warn} from 'vega-util';
export {View} from 'vega-view';
export {parse} from 'vega-parser';
export {numberFormatDefaultLocale as formatLocale} from 'vega-format';

// What this bundle can draw, for tests/test_vega_bundle.py, which asks it about every generated spec.
import {transform} from 'vega-dataflow';
import {codeGenerator} from 'vega-functions';
import {Marks} from 'vega-scenegraph';
import {isValidScaleType, scheme} from 'vega-scale';
import {ABSENT_FUNCTIONS, ABSENT_SCALES} from './absent.js';
export const bundled = {
  transform: name => !!transform(name),
  scale: type => isValidScaleType(type) && !ABSENT_SCALES.includes(type),
  scheme: name => { const s = scheme(name); return !!s && (typeof s === 'function' || s.length > 0); },
  mark: type => Object.prototype.hasOwnProperty.call(Marks, type),
  fn: name => Object.prototype.hasOwnProperty.call(codeGenerator.functions, name) && !ABSENT_FUNCTIONS.includes(name)
};
