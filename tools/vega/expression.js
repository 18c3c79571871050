// vega-expression as the course's bundle needs it: nothing. vega-expression parses an expression and
// generates its JavaScript; both happen at build time now (tools/vega/runtime.mjs parses each chart into a
// runtime whose expressions are code strings, with the pinned vega). In the reader's browser Vega's View only
// compiles those strings (new Function) with vega-functions' function table. vega-functions still builds its
// code generator when it loads (its expressionFunction registers into it), so this stand-in gives it one that
// holds the table's names and generates nothing (4.9 KB gzip less than the real one, which also held the
// generators of the functions expressions compile into plain JavaScript: Math, strings, dates).
// tests/test_vega_bundle.py asks the real vega-expression which those are.
export const Literal = 'Literal', CallExpression = 'CallExpression';
export const constants = {};
export function functions() { return {}; }
function absent() {
  throw new Error("vega-expression is not in the course's Vega bundle: expressions are compiled at build time " +
                  "(tools/vega/runtime.mjs)");
}
export const parseExpression = absent;
export function codegenExpression(params) {
  const codegen = absent;
  codegen.functions = params.functions(codegen);  // vega-functions' table: each name → "this.<name>"
  return codegen;
}
