// Test harness around the shared fake upstream (../../fake-upstream/server.mjs), for the Rust tests.
// Starts it on a free port of 127.0.0.1 (TPM, RPM from the environment), prints `{"url": ...}` on one line, then
// answers each `stats` line on stdin with the upstream's counters as one JSON line. Exits when stdin closes.
import { createInterface } from 'node:readline';
import { startFakeUpstream } from '../../fake-upstream/server.mjs';

const up = await startFakeUpstream({ tpm: Number(process.env.TPM || 10_000), rpm: Number(process.env.RPM || 1_000) });
console.log(JSON.stringify({ url: up.url }));
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (line.trim() === 'stats') console.log(JSON.stringify(up.stats));
});
rl.on('close', async () => {
  await up.close();
  process.exit(0);
});
