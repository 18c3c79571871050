// What the course's Vega bundle leaves out (tools/vendor_assets.py aliases these modules here):
// vega-lite (specs are compiled to Vega at build time), vega-interpreter and vega-themes (vega-embed's
// `ast` and `theme` options; tools/vega/embed.js replaced vega-embed and imports neither), d3-geo (only Vega's
// geo* expression functions use it), topojson-client (the topojson data format) and
// d3-scale-chromatic (ten categorical palettes vega-scale registers by name: here they are empty, and
// tests/test_vega_bundle.py fails when a spec names one). That test checks no spec needs any of them.
function absent(name) {
  return function () {
    throw new Error(name + " is not in the course's Vega bundle: add it in tools/vega/ (see tools/vendor_assets.py)");
  };
}
export const version = "not bundled";
export const compile = absent("vega-lite");
export const expressionInterpreter = undefined;
export const geoArea = absent("geoArea");
export const geoBounds = absent("geoBounds");
export const geoCentroid = absent("geoCentroid");
export const feature = absent("topojson");
export const mesh = absent("topojson");

// vega-scale's categorical schemes from d3 (accent, category10, dark2, …): none of our charts names one
export const schemeAccent = [], schemeCategory10 = [], schemeDark2 = [], schemeObservable10 = [],
  schemePaired = [], schemePastel1 = [], schemePastel2 = [], schemeSet1 = [], schemeSet2 = [], schemeSet3 = [];

// the geo* expression functions (vega-functions registers them all; they need d3-geo or a projection)
export const ABSENT_FUNCTIONS = ["geoArea", "geoBounds", "geoCentroid", "geoShape", "geoScale", "geoTranslate"];
