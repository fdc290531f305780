// Estimate throughput of the wasm core against tokenx and gpt-tokenizer on the same mixed text, in one run, plus
// the floor (TextEncoder.encodeInto: getting a JS string into wasm memory) and cold start (import + first
// estimate, in a fresh node process).
//
//   cd pkg && npm run build && node bench/bench.mjs [--mb 4] [--seconds 0.5] [--rounds 7]
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { estimate } from 'llm-preflight';
import { estimateTokenCount } from 'tokenx';
import { countTokens } from 'gpt-tokenizer';
import { corpusFolders } from './corpus.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const targetMb = arg('mb', 4);
const seconds = arg('seconds', 0.5);
// The contenders are measured in turn, round after round: on a shared machine the load drifts, and a ratio taken
// within one round compares like with like. The report gives medians over the rounds.
const rounds = arg('rounds', 7);
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// Mixed text: the first three samples of every corpus folder (bench/corpus.mjs), repeated to the target size.
const parts = corpusFolders().flatMap(([, samples]) => samples);
let text = parts.join('\n\n');
const unit = Buffer.byteLength(text);
text = text.repeat(Math.max(1, Math.round((targetMb * 1e6) / unit)));
const mb = Buffer.byteLength(text) / 1e6;

/** MB/s of `f` over the mixed text, run for `seconds`. */
function rate(f) {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < seconds * 1000) { f(); n++; t = performance.now(); }
  return (mb * n) / ((t - t0) / 1000);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const buf = new Uint8Array(text.length * 3);
const enc = new TextEncoder();
const contenders = [
  ['TextEncoder.encodeInto (floor)', () => enc.encodeInto(text, buf)],
  ['llm-preflight (wasm) estimate', () => estimate(text)],
  ['tokenx estimateTokenCount', () => estimateTokenCount(text)],
];
for (const [, f] of contenders) f(); // warm up
const perRound = contenders.map(() => []);
for (let r = 0; r < rounds; r++) contenders.forEach(([, f], i) => perRound[i].push(rate(f)));
const ratios = perRound[1].map((x, r) => x / perRound[2][r]).sort((a, b) => a - b);
const rows = contenders.map(([name], i) => ({ name, mbs: median(perRound[i]) }));
// gpt-tokenizer is exact BPE and much slower: measure it on a tenth of the text, scaled.
const tenth = text.slice(0, Math.floor(text.length / 10));
const tenthMb = Buffer.byteLength(tenth) / 1e6;
{
  countTokens(tenth);
  const t0 = performance.now();
  countTokens(tenth);
  const s = (performance.now() - t0) / 1000;
  rows.push({ name: 'gpt-tokenizer countTokens (o200k)', mbs: tenthMb / s });
}

// Cold start: a fresh process, import + first estimate (bench/cold.mjs's child: timed from a script file).
const cold = [];
for (let i = 0; i < 7; i++) {
  const out = execFileSync(process.execPath, [join(repo, 'pkg', 'bench', 'cold.mjs'), '--child', 'import'], { encoding: 'utf8' });
  cold.push(Number(out.trim()));
}
cold.sort((a, b) => a - b);

const tokenx = rows.find((r) => r.name.startsWith('tokenx')).mbs;
console.log(`mixed text: ${mb.toFixed(2)} MB (UTF-8), ${parts.length} corpus samples, node ${process.version}, ` +
  `medians of ${rounds} rounds of ${seconds} s each`);
for (const r of rows) {
  console.log(`${r.name.padEnd(36)} ${r.mbs.toFixed(1).padStart(8)} MB/s  ${(r.mbs / tokenx).toFixed(2).padStart(7)}x tokenx`);
}
console.log(`llm-preflight / tokenx within each round: median ${median(ratios).toFixed(2)}x, ` +
  `min ${ratios[0].toFixed(2)}x, max ${ratios[ratios.length - 1].toFixed(2)}x`);
console.log(`cold start (import + first estimate, fresh node): median ${cold[3].toFixed(1)} ms, min ${cold[0].toFixed(1)} ms, max ${cold[6].toFixed(1)} ms`);
