// What the course's Vega bundle leaves out (tools/vendor_assets.py aliases these modules here):
// vega-lite (specs are compiled to Vega at build time), vega-interpreter and vega-themes (vega-embed's
// `ast` and `theme` options; tools/vega/embed.js replaced vega-embed and imports neither), d3-geo (only Vega's
// geo* expression functions use it), topojson-client (the topojson data format) and
// d3-scale-chromatic (ten categorical palettes vega-scale registers by name: here they are empty, and
// tests/test_vega_bundle.py fails when a spec names one), and dates: d3-time, d3-time-format and vega-time
// (time and utc scales, time formats and the date expression functions; no chart has a date axis; 5.6 KB gzip),
// d3-dsv (vega-loader's csv, tsv and dsv data formats: every chart's data is inline JSON; 0.8 KB gzip) and
// d3-ease (the ease* expression functions).
// That test checks no spec needs any of them.
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
// and the date ones (they need the date modules below)
export const ABSENT_FUNCTIONS = ["geoArea", "geoBounds", "geoCentroid", "geoShape", "geoScale", "geoTranslate",
  "timeFormat", "utcFormat", "timeParse", "utcParse", "timeOffset", "utcOffset", "timeSequence", "utcSequence",
  "timeUnitSpecifier", "monthFormat", "monthAbbrevFormat", "dayFormat", "dayAbbrevFormat", "week", "utcweek",
  "isoweek", "utcisoweek", "dayofyear", "utcdayofyear",
  // and the easing ones (d3-ease, below)
  "easeLinear", ...["Quad", "Cubic", "Poly", "Sin", "Exp", "Circle", "Bounce", "Back", "Elastic"]
    .flatMap(f => ["", "In", "Out", "InOut"].map(s => `ease${f}${s}`))];

// Dates (d3-time, d3-time-format, vega-time): the names Vega imports from them. vega-scale still registers the
// time and utc scale types (ABSENT_SCALES says they are not here) and vega-format makes its default time locale
// at load, from timeFormatLocale (a locale whose formats are absent).
const time = absent("dates (d3-time, d3-time-format, vega-time)");
export const timeMillisecond = time, timeSecond = time, timeMinute = time, timeHour = time, timeDay = time,
  timeWeek = time, timeMonday = time, timeMonth = time, timeYear = time, timeTicks = time, timeTickInterval = time,
  utcMillisecond = time, utcSecond = time, utcMinute = time, utcHour = time, utcDay = time, utcWeek = time,
  utcMonday = time, utcMonth = time, utcYear = time, utcTicks = time, utcTickInterval = time;
export const timeFormat = time, utcFormat = time, timeParse = time, utcParse = time;
export const timeFormatLocale = () => ({format: time, parse: time, utcFormat: time, utcParse: time});
export const MILLISECONDS = "milliseconds", SECONDS = "seconds", MINUTES = "minutes", HOURS = "hours", DAY = "day",
  DATE = "date", WEEK = "week", MONTH = "month", QUARTER = "quarter", YEAR = "year", TIME_UNITS = [];
export const timeInterval = time, utcInterval = time, timeFloor = time, utcFloor = time, timeBin = time,
  timeUnits = time, detectTimeUnits = time, timeUnitSpecifier = time, timeOffset = time, timeSequence = time,
  utcOffset = time, utcSequence = time, dayofyear = time, utcdayofyear = time, week = time, utcweek = time,
  isoweek = time, utcisoweek = time;
export const ABSENT_SCALES = ["time", "utc"];

// d3-dsv: the one name vega-loader imports (its csv/tsv/dsv readers call it when such data is read)
export const dsvFormat = absent("d3-dsv (the csv, tsv and dsv data formats)");

// d3-ease: the easing functions vega-functions offers to expressions (easeCubic(t), …; animations: no chart of
// ours animates), each name it imports
const ease = absent("d3-ease (the ease* expression functions)");
export const easeLinear = ease, easeQuad = ease, easeQuadIn = ease, easeQuadOut = ease, easeQuadInOut = ease,
  easeCubic = ease, easeCubicIn = ease, easeCubicOut = ease, easeCubicInOut = ease, easePoly = ease,
  easePolyIn = ease, easePolyOut = ease, easePolyInOut = ease, easeSin = ease, easeSinIn = ease, easeSinOut = ease,
  easeSinInOut = ease, easeExp = ease, easeExpIn = ease, easeExpOut = ease, easeExpInOut = ease, easeCircle = ease,
  easeCircleIn = ease, easeCircleOut = ease, easeCircleInOut = ease, easeBounce = ease, easeBounceIn = ease,
  easeBounceOut = ease, easeBounceInOut = ease, easeBack = ease, easeBackIn = ease, easeBackOut = ease,
  easeBackInOut = ease, easeElastic = ease, easeElasticIn = ease, easeElasticOut = ease, easeElasticInOut = ease;
