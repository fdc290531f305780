// Cold start: a fresh node process per run imports the package and makes a first estimate, timed inside the
// process from just before the import; prints the median of N runs (default 20) for `import` and for `require`,
// and for scale node's own cost of importing an empty ES module the same way. The three run interleaved, so a busy
// machine slows all alike.
//   node bench/cold.mjs [runs]
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const [flag, child] = process.argv.slice(2);
if (flag === '--child') {
  const t0 = performance.now();
  if (child === 'empty') {
    await import('./empty.mjs');
  } else {
    const { estimate } = child === 'import' ? await import('llm-preflight') : createRequire(import.meta.url)('llm-preflight');
    estimate('Hello, world!');
  }
  console.log(performance.now() - t0);
} else {
  const n = Number(flag || 20);
  const modes = { import: 'import + first estimate', require: 'require + first estimate', empty: 'import of an empty module' };
  const times = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
  for (let i = 0; i < n; i++) {
    for (const m of Object.keys(modes)) {
      times[m].push(Number(execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--child', m], { encoding: 'utf8' }).trim()));
    }
  }
  for (const [m, xs] of Object.entries(times)) {
    xs.sort((a, b) => a - b);
    console.log(`cold start (${modes[m]}, ${n} fresh node processes): median ${xs[n >> 1].toFixed(1)} ms, min ${xs[0].toFixed(1)} ms, max ${xs[n - 1].toFixed(1)} ms`);
  }
}
