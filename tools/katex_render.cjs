// Render TeX to MathML with the pinned KaTeX: reads [{tex, display}] as JSON on stdin,
// writes [mathml] as JSON on stdout. Used by course_build/katex.py at build time, so pages ship no KaTeX JS.
const katex = require("katex");
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(({ tex, display }) =>
    katex.renderToString(tex, { displayMode: display, throwOnError: true, output: "mathml", strict: "error" })
  );
  process.stdout.write(JSON.stringify(out));
});
