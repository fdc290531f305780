// The benchmarks' texts: the first three samples of every corpus folder (prose in many languages, code, JSON,
// markup, CSV, logs, base64, emoji, ...), folder by folder in name order.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const corpus = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'corpus');

/** `[folder, samples]` for every corpus folder with samples. */
export function corpusFolders() {
  const out = [];
  for (const d of readdirSync(corpus).sort()) {
    let files;
    try { files = readdirSync(join(corpus, d)).filter((f) => f.endsWith('.txt')).sort().slice(0, 3); } catch { continue; }
    const samples = files.map((f) => readFileSync(join(corpus, d, f), 'utf8'));
    if (samples.length) out.push([d, samples]);
  }
  return out;
}
