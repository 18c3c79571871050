// Build time (course_build/chart_scripts.py): each chart's compiled Vega spec parsed into the runtime dataflow
// that Vega's View runs, by the pinned `vega` package, so the bundle a reader downloads (./entry.js) carries no
// parser: vega-parser, vega-expression's parser and vega-event-selector were ~21 KB gzip of the bundle, run in
// every reader's browser to do this same step (issue 25, the first view of the pages with a chart on their
// first screen). The output is plain JSON (expressions are code strings; the View compiles them with the
// bundle's expression functions, vega-functions' functionContext, not the parser).
//
// stdin: {"bundle": <path of the shipped bundle>, "charts": {<key>: {"spec": <Vega spec>, "config": <config>,
//         "values": {<placeholder>: <a value a page may give it>}}}}
// stdout: {<key>: <runtime JSON text>}
// Each chart is then checked against the shipped bundle: every operator type is a transform it holds, every
// expression function the code calls is in its function table (and not a stand-in of ./absent.js), and its
// View runs the runtime (renderer "none", the placeholders given sample values). A failure names the chart.
import {parse} from 'vega';
import fs from 'fs';
import vm from 'vm';

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
vm.runInThisContext(fs.readFileSync(input.bundle, 'utf8'));
const shipped = globalThis.vegaEmbed.vega;

// Plain JSON or nothing: a function, a non-finite number or a hole in an array would not survive the trip
// through the chart's script. (vega-parser's tupleid reference carries a toString the runtime never calls.)
function notJson(node, path, out) {
  if (typeof node === 'function') { if (!path.endsWith('.toString')) out.push(path); }
  else if (typeof node === 'number') { if (!Number.isFinite(node)) out.push(path); }
  else if (Array.isArray(node)) node.forEach((v, i) => v === undefined ? out.push(`${path}[${i}]`) : notJson(v, `${path}[${i}]`, out));
  else if (node && typeof node === 'object') for (const k of Object.keys(node)) notJson(node[k], `${path}.${k}`, out);
  return out;
}

function operatorTypes(ops, out) {
  for (const op of ops) {
    out.add(op.type);
    const sub = op.params && op.params.subflow && op.params.subflow.$subflow;
    if (sub) operatorTypes(sub.operators, out);
  }
  return out;
}

const results = {}, problems = [];
for (const [key, {spec, config, values}] of Object.entries(input.charts)) {
  try {
    const runtime = parse(spec, config);
    const bad = notJson(runtime, 'runtime', []);
    if (bad.length) throw new Error(`the runtime is not plain JSON at ${bad.slice(0, 3).join(', ')}`);
    const text = JSON.stringify(runtime);
    const lacks = [];
    for (const type of operatorTypes(runtime.operators, new Set())) {
      if (type !== 'operator' && !shipped.bundled.transform(type)) lacks.push(`transform ${JSON.stringify(type)}`);
    }
    for (const name of new Set([...text.matchAll(/\bthis\.([A-Za-z_$][\w$]*)/g)].map(m => m[1]))) {
      if (!shipped.bundled.context(name)) lacks.push(`function ${JSON.stringify(name)}`);
    }
    if (lacks.length) throw new Error(`the shipped bundle has no ${lacks.join(', ')}: add it in tools/vega/vega.js`);
    let live = text;
    for (const [placeholder, value] of Object.entries(values || {})) live = live.split(placeholder).join(value);
    await new shipped.View(JSON.parse(live), {renderer: 'none'}).runAsync();
    results[key] = text;
  } catch (e) {
    problems.push(`${key}: ${e && e.message || e}`);
  }
}
if (problems.length) {
  process.stderr.write(`charts Vega cannot turn into a runtime the shipped bundle runs:\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
process.stdout.write(JSON.stringify(results));
