// Cold start: a fresh node process per run, `import('llm-preflight')` + a first estimate, timed inside the process;
// prints the median of N runs (default 20), for `import` and for `require`.
//   node bench/cold.mjs [runs]
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const n = Number(process.argv[2] || 20);
const body = "estimate('Hello, world!'); console.log(performance.now() - t0);";
const modes = {
  import: ['--input-type=module', '-e', `const t0 = performance.now(); const { estimate } = await import('llm-preflight'); ${body}`],
  require: ['-e', `const t0 = performance.now(); const { estimate } = require('llm-preflight'); ${body}`],
};
for (const [mode, args] of Object.entries(modes)) {
  const xs = [];
  for (let i = 0; i < n; i++) xs.push(Number(execFileSync(process.execPath, args, { cwd: pkg, encoding: 'utf8' }).trim()));
  xs.sort((a, b) => a - b);
  console.log(`cold start (${mode} + first estimate, ${n} fresh node processes): median ${xs[n >> 1].toFixed(1)} ms, min ${xs[0].toFixed(1)} ms, max ${xs[n - 1].toFixed(1)} ms`);
}
