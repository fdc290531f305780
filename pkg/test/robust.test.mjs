// Bad input from JavaScript is a thrown Error with a message, never a trap: after 1,000 bad calls of every kind
// the same instance still gives correct answers.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as lp from 'llm-preflight';

const lone = 'abc\uD800def\uDC00';
const circular = {};
circular.self = circular;

const bad = [
  () => lp.estimate(undefined),
  () => lp.estimate(42),
  () => lp.estimate(null),
  () => lp.estimate({ text: 'x' }),
  () => lp.estimate('x', { profile: 'gpt-2' }),
  () => lp.estimate('x', { model: 'bert-base' }),
  () => lp.estimate('x', { profile: 'o200k', model: 'gpt-4o' }),
  () => lp.estimate('x', { profile: 7 }),
  () => lp.estimate('x', { colour: 'red' }),
  () => lp.estimate('x', 'o200k'),
  () => lp.estimateRequest('{"messages": [{"role": "user", "content": 5}]}'),
  () => lp.estimateRequest('{'),
  () => lp.estimateRequest(12),
  () => lp.estimateRequest({ messages: [] , max_tokens: -1 }),
  () => lp.estimateRequest({ messages: [{ role: 'user', content: 'x' }] }, { api: 'soap' }),
  () => lp.estimateRequest(circular),
  () => lp.estimateRequest({ n: 10n }),
  () => lp.check('x', { tpm: NaN }),
  () => lp.check('x', { tpm: -5 }),
  () => lp.check('x', { tpm: 1.5 }),
  () => lp.check('x', { tpm: Infinity }),
  () => lp.check('x', { tpm: '1000' }),
  () => lp.check('x', { tpm: 1000 }, NaN),
  () => lp.check('x', { tpm: 1000 }, -1),
  () => lp.check('x', { tpm: 1000, policy: 'yolo' }),
  () => lp.check('x', { tpm: 1000, provider: 'acme' }),
  () => lp.check('x', { tpm: 1000, headers: 5 }),
  () => lp.check('x', { tpm: 1000, headers: { 'retry-after': {} } }),
  () => lp.check('x', { tpm: 1000, remaining_tokens: 0.5 }),
  () => lp.check('x', { tpm: 1000, headers: { 'x-ratelimit-reset-tokens': 'forever' } }),
  () => lp.parseRateLimitHeaders(42),
  () => lp.parseRateLimitHeaders([['a']]),
  () => lp.parseRateLimitHeaders({}, NaN),
  () => lp.classifyResponse(undefined),
  () => lp.classifyResponse({ status: 'teapot' }),
  () => lp.classifyResponse({ status: 99999 }),
  () => lp.classifyResponse({ status: 429, headers: 'retry-after: 1' }),
  () => lp.classifyResponse({ status: 429, bodyy: '' }),
  () => lp.classifyStreamChunk(undefined),
  () => lp.explainResponse('[1,2]'),
  () => lp.explainResponse('{"status": "x"}'),
  () => lp.nextAction(undefined),
  () => lp.nextAction({ kind: 'nope', retryable: true }),
  () => lp.nextAction({ kind: 'other', retryable: true }, {}, 0, NaN),
  () => lp.nextAction({ kind: 'other', retryable: true }, {}, 0, 7),
  () => lp.nextAction({ kind: 'other', retryable: true }, { attempt: -1 }),
  () => lp.nextAction({ kind: 'other', retryable: true }, { attempt: 1e20 }),
  () => new lp.Ledger({ tpm: 0 }),
  () => new lp.Ledger({ tpm: 100 }, Infinity),
  () => new lp.Ledger('tpm=100'),
  () => new lp.Ledger({ tpm: 100 }).tryReserve('lots'),
  () => new lp.Ledger({ tpm: 100 }).tryReserve({ tokens: NaN }),
  () => new lp.Ledger({ tpm: 100 }).tryReserve({ tokens: 5, low: 9 }),
  () => new lp.Ledger({ tpm: 100 }).held('bananas'),
  () => new lp.Ledger({ tpm: 100 }).available(3),
  () => new lp.Ledger({ tpm: 100 }).check(5, { policy: 3 }),
  () => {
    const r = new lp.Ledger({ tpm: 100 }).tryReserve(5).reservation;
    r.settle({ input_tokens: 1 });
  },
  () => {
    const r = new lp.Ledger({ tpm: 100 }).tryReserve(5).reservation;
    r.release();
    r.settle({ input_tokens: 1, output_tokens: 1 });
  },
  () => new lp.AdmissionQueue({}, { max_work_ms: 1 }),
  () => new lp.AdmissionQueue(new lp.Ledger({ tpm: 100 }), { max_work_ms: NaN }),
  () => new lp.AdmissionQueue(new lp.Ledger({ tpm: 100 }), { max_work_ms: 10 }).offer('x', 5, 'tomorrow'),
  () => new lp.Estimator({ profile: 'nope' }),
  () => new lp.Estimator().update(5),
];

test('1,000 bad calls throw Errors with messages, then the instance still answers correctly', () => {
  const before = lp.estimate('The instance must keep working.');
  const seen = new Set();
  for (let i = 0; i < 1000; i++) {
    const f = bad[i % bad.length];
    let threw = null;
    try {
      f();
    } catch (e) {
      threw = e;
    }
    assert.ok(threw instanceof Error, `call ${i % bad.length} did not throw an Error: ${f}`);
    assert.ok(!(threw instanceof WebAssembly.RuntimeError), `call ${i % bad.length} trapped: ${threw.message}`);
    assert.ok(threw.message.length > 10, `call ${i % bad.length}: unclear message ${threw.message}`);
    seen.add(threw.message);
  }
  assert.ok(seen.size >= bad.length - 5, 'the messages say what was wrong, call by call');
  // Correct answers afterwards, from the same instance.
  assert.deepEqual(lp.estimate('The instance must keep working.'), before);
  assert.equal(lp.check('hello', { tpm: 1000 }).verdict, 'sendable');
  const l = new lp.Ledger({ tpm: 100 });
  assert.equal(l.tryReserve(50).ok, true);
  assert.equal(lp.classifyResponse({ status: 429, body: '{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1."}}' }).kind, 'rate_limit_requests');
});

test('awkward but valid input: lone surrogates, huge strings, odd headers', () => {
  const e = lp.estimate(lone);
  assert.equal(e.chars, 8, 'lone surrogates count as one replacement character each');
  const huge = 'a'.repeat(100 * 1024 * 1024);
  const h = lp.estimate(huge);
  assert.equal(h.chars, 100 * 1024 * 1024);
  assert.equal(h.content, 'repetitive');
  assert.equal(lp.parseRateLimitHeaders({ 'retry-after': 3, 'x-unrelated': undefined }).retry_after_ms, 3000);
  assert.equal(lp.estimate('still fine').chars, 10);
});
