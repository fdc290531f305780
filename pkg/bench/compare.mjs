// Estimate throughput of two builds of the estimate module (two `dist/node` directories, say of two revisions) on
// the same texts, in turn: each side's best of `--rounds` rounds of `--calls` calls, and the ratio. On a shared
// machine only the ratio of interleaved runs means anything. Three texts: bench.mjs's mixed text (the first three
// samples of every corpus folder, interleaved), and that text split by folder into the mostly ASCII ones (under 2%
// of their first sample's bytes from 0x80 up: code, data, markup, English) and the others.
//
//   node bench/compare.mjs OLD_DIST_NODE NEW_DIST_NODE [--mb 2] [--rounds 5] [--calls 15]
//
// scripts/compare-wasm-speed.sh builds two revisions and runs this; nothing here runs in CI. Texts: bench/corpus.mjs.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { corpusFolders } from './corpus.mjs';

const require = createRequire(import.meta.url);
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const [oldDir, newDir] = process.argv.slice(2, 4);
if (!oldDir || !newDir) {
  console.error('usage: node bench/compare.mjs OLD_DIST_NODE NEW_DIST_NODE [--mb 2] [--rounds 5] [--calls 15]');
  process.exit(2);
}
const load = (d) => require(join(resolve(d), 'llm_preflight_wasm.js'));
const sides = [['old', load(oldDir)], ['new', load(newDir)]];
const targetMb = arg('mb', 2);
const rounds = arg('rounds', 5);
const calls = arg('calls', 15);

const texts = { mixed: [], ascii: [], 'non-ascii': [] };
for (const [, samples] of corpusFolders()) {
  const first = Buffer.from(samples[0]);
  const high = first.filter((b) => b >= 0x80).length / first.length;
  texts.mixed.push(...samples);
  texts[high < 0.02 ? 'ascii' : 'non-ascii'].push(...samples);
}

for (const [name, parts] of Object.entries(texts)) {
  let text = parts.join('\n\n');
  text = text.repeat(Math.max(1, Math.round((targetMb * 1e6) / Buffer.byteLength(text))));
  const mib = Buffer.byteLength(text) / (1 << 20);
  const best = sides.map(() => 0);
  for (const [, m] of sides) m.estimate(text, 'o200k'); // warm up
  for (let r = 0; r < rounds; r++) {
    sides.forEach(([, m], i) => {
      let fastest = Infinity;
      for (let c = 0; c < calls; c++) {
        const t = process.hrtime.bigint();
        m.estimate(text, 'o200k');
        fastest = Math.min(fastest, Number(process.hrtime.bigint() - t) / 1e9);
      }
      best[i] = Math.max(best[i], mib / fastest);
    });
  }
  console.log(`${name.padEnd(9)}  old ${best[0].toFixed(1)} MiB/s  new ${best[1].toFixed(1)} MiB/s  new/old ${(best[1] / best[0]).toFixed(3)}`);
}
