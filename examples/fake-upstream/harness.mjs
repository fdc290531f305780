// The fake upstream as a child process, for tests in other languages (the Rust ones spawn it with `node`).
// Starts it on a free port of 127.0.0.1 (`TPM`, `RPM` from the environment; `REFUSE=mixed` injects the refusals
// below), prints `{"url": ...}` on one line, then answers each `stats` line on stdin with the upstream's counters
// (the log included) as one JSON line. Exits when stdin closes.
import { createInterface } from 'node:readline';
import { startFakeUpstream } from './server.mjs';

// Real refusal shapes among the bucket's own answers: OpenAI's insufficient_quota, Anthropic's 529, a 503
// overload, a 413, and an error frame inside a 200 stream.
const QUOTA = { status: 429, body: { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } } };
const OVERLOADED = { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };
const UNAVAILABLE = { status: 503, body: { error: { message: 'The server is overloaded or not ready yet.', type: 'server_error' } } };
// Anthropic's documented 413 for a body past its byte limit (a hard refusal: never resent as it is).
const TOO_LARGE = { status: 413, body: { type: 'error', error: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' } } };
const STREAM_ERROR = { stream_error: { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error' } } };
export const MIXED = (n) => (n % 53 === 0 ? QUOTA : n % 37 === 0 ? OVERLOADED : n % 41 === 0 ? UNAVAILABLE : n % 61 === 0 ? TOO_LARGE : n % 23 === 0 ? STREAM_ERROR : null);

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const up = await startFakeUpstream({
    tpm: Number(process.env.TPM || 10_000),
    rpm: Number(process.env.RPM || 1_000),
    refuse: process.env.REFUSE === 'mixed' ? MIXED : null,
  });
  console.log(JSON.stringify({ url: up.url }));
  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    if (line.trim() === 'stats') console.log(JSON.stringify(up.stats));
  });
  rl.on('close', async () => {
    await up.close();
    process.exit(0);
  });
}
