// The API through `import`, as users meet it.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  estimate, Estimator, estimateRequest, check, parseRateLimitHeaders, classifyResponse, classifyStreamChunk,
  explainResponse, nextAction, profiles, Ledger, AdmissionQueue,
} from 'llm-preflight';

test('estimate: shape, band and profiles', () => {
  const e = estimate('The quick brown fox jumps over the lazy dog.');
  assert.equal(e.profile, 'o200k');
  assert.equal(e.content, 'prose');
  assert.equal(e.chars, 44);
  assert.ok(e.low <= e.tokens && e.tokens <= e.high, JSON.stringify(e));
  assert.ok(e.tokens >= 8 && e.tokens <= 14, `${e.tokens}`);
  assert.ok(e.mix.some((m) => m.class === 'letters'));
  assert.equal(estimate('hello', { model: 'claude-sonnet-4' }).profile, 'claude-legacy');
  assert.equal(estimate('hello', { profile: 'gemini' }).profile, 'gemini');
  assert.deepEqual(estimate(''), { tokens: 0, low: 0, high: 0, chars: 0, content: 'empty', profile: 'o200k', mix: [] });
  assert.equal(estimate('{"a": [1, 2, 3], "b": {"c": "d"}}').content, 'json');
  assert.equal(estimate('这是一个测试句子，用来检查中文的估计。'.repeat(10)).content, 'cjk');
  assert.deepEqual(profiles().map((p) => p.profile), ['o200k', 'cl100k', 'llama3', 'qwen3', 'deepseek-v3', 'gemini', 'gemma3', 'mistral-v1', 'claude-legacy']);
});

test('estimate: a long string fed in pieces equals the streaming estimator', () => {
  const text = 'Some prose, some code: fn main() { println!("hi"); } 🙂 '.repeat(50_000); // > 1M UTF-16 units
  const whole = estimate(text, { profile: 'llama3' });
  const s = new Estimator({ profile: 'llama3' });
  for (let i = 0; i < text.length; i += 7777) s.update(text.slice(i, i + 7777));
  const streamed = s.finish();
  s.free();
  assert.deepEqual(whole, streamed);
  assert.equal(whole.chars, [...text].length);
  const bytes = new Estimator({ profile: 'llama3' }).update(new TextEncoder().encode(text)).finish();
  assert.deepEqual(bytes, whole);
});

test('estimateRequest: OpenAI chat with a cap', () => {
  const r = estimateRequest({
    model: 'gpt-4o-mini',
    max_tokens: 500,
    messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'Summarize the plot of Hamlet.' }],
  });
  assert.equal(r.api, 'open_ai_chat');
  assert.equal(r.model, 'gpt-4o-mini');
  assert.equal(r.max_output, 500);
  assert.equal(r.messages, 2);
  assert.equal(r.estimate.profile, 'o200k');
  assert.ok(r.overhead_tokens >= 11);
  assert.ok(r.estimate.tokens > r.overhead_tokens);
  assert.throws(() => estimateRequest('{"messages": 3}'), /wrong shape at \/messages/);
  assert.throws(() => estimateRequest('not json'), /not JSON/);
});

test('estimateRequest: Bedrock Converse, completions, embeddings, and n choices', () => {
  const bedrock = estimateRequest({
    modelId: 'meta.llama3-1-70b-instruct-v1:0',
    messages: [{ role: 'user', content: [{ text: 'Name three rivers.' }] }],
    inferenceConfig: { maxTokens: 200 },
  });
  assert.equal(bedrock.api, 'bedrock_converse');
  assert.equal(bedrock.estimate.profile, 'llama3');
  assert.equal(bedrock.max_output, 200);
  const ids = estimateRequest({ model: 'davinci-002', prompt: [[1, 2, 3], [4, 5]], best_of: 2 });
  assert.equal(ids.api, 'completions');
  assert.equal(ids.token_ids, 5);
  assert.equal(ids.estimate.tokens, 5);
  assert.equal(ids.max_output, 16 * 2 * 2);
  const embed = estimateRequest({ model: 'text-embedding-3-small', input: ['one', 'two'] });
  assert.equal(embed.api, 'embeddings');
  assert.equal(embed.max_output, 0);
  const n = estimateRequest({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 1000, n: 3 });
  assert.equal(n.max_output, 3000);
  assert.throws(() => estimateRequest({ messages: [], max_tokens: 10, n: 0 }), /\/n/);
});

test('check: sendable, queueable, never sendable', () => {
  const prompt = 'word '.repeat(1000);
  const ok = check(prompt, { tpm: 100_000 });
  assert.equal(ok.verdict, 'sendable');
  assert.equal(ok.wait_ms, 0);
  const q = check(prompt, { tpm: 10_000, remaining_tokens: 10, reset_tokens: '6s' });
  assert.equal(q.verdict, 'queueable');
  assert.equal(q.dimension, 'tokens');
  assert.ok(q.wait_ms > 0 && q.wait_ms <= 6000, `${q.wait_ms}`);
  const never = check(prompt, { tpm: 100 });
  assert.equal(never.verdict, 'never_sendable');
  assert.equal(never.limit, 100);
  assert.equal(never.excess, never.needed - 100);
  assert.equal(never.wait_ms, null);
  const body = { model: 'gpt-4o', max_tokens: 8000, messages: [{ role: 'user', content: 'hi' }] };
  const capped = check(body, { tpm: 8000 });
  assert.equal(capped.verdict, 'never_sendable', 'the output cap is reserved at admission');
  const viaHeaders = check(prompt, { tpm: 10_000, headers: new Headers({ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '1m0s' }) });
  assert.equal(viaHeaders.verdict, 'queueable');
  assert.throws(() => check(prompt, { tpm: 0 }), /limit of 0 admits nothing/);
  assert.throws(() => check(prompt, { tpm: 1000, reset_tokens: 'soon' }), /reset_tokens "soon"/);
  assert.throws(() => check(prompt, { tmp: 1000 }), /unknown option "tmp"/);
});

test('parseRateLimitHeaders: fetch Headers, plain objects, IncomingHttpHeaders, dates against now', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  const fromFetch = parseRateLimitHeaders(new Headers({ 'X-RateLimit-Remaining-Tokens': '7923', 'x-ratelimit-reset-tokens': '577ms', 'retry-after': '6' }), now);
  assert.equal(fromFetch.tokens.remaining, 7923);
  assert.equal(fromFetch.tokens.reset_ms, 577);
  assert.equal(fromFetch.retry_after_ms, 6000);
  assert.deepEqual(fromFetch.malformed, []);
  const incoming = { 'anthropic-ratelimit-input-tokens-limit': '40000', 'anthropic-ratelimit-input-tokens-reset': '2025-01-01T12:00:30Z', 'set-cookie': ['a=1', 'b=2'] };
  const a = parseRateLimitHeaders(incoming, now);
  assert.equal(a.input_tokens.limit, 40000);
  assert.equal(a.input_tokens.reset_ms, 30_000);
  const bad = parseRateLimitHeaders({ 'x-ratelimit-remaining-tokens': 'lots' }, now);
  assert.equal(bad.tokens.remaining, null);
  assert.equal(bad.malformed.length, 1);
  assert.match(bad.malformed[0].message, /not a non-negative whole number/);
  assert.equal(parseRateLimitHeaders({ 'retry-after': 'Wed, 01 Jan 2025 12:00:10 GMT' }, now).retry_after_ms, 10_000);
  // A window that does not name what it counts is kept apart, in each of its spellings.
  const unnamed = parseRateLimitHeaders({ 'X-RateLimit-Limit': '80', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(now + 60_000) }, now);
  assert.deepEqual(unnamed.unnamed, { limit: 80, remaining: 0, reset_ms: 60_000 });
  assert.equal(unnamed.requests.remaining, null);
  assert.deepEqual(parseRateLimitHeaders({ RateLimit: '"default";r=0;t=30' }, now).unnamed, { limit: null, remaining: 0, reset_ms: 30_000 });
});

test('classifyResponse, classifyStreamChunk, nextAction', () => {
  const body = '{"error": {"message": "Rate limit reached for gpt-4o-mini in organization org-x on tokens per min (TPM): Limit 10000, Used 9840, Requested 1210. Please try again in 6.3s.", "type": "tokens", "code": "rate_limit_exceeded"}}';
  const r = classifyResponse({ status: 429, headers: { 'retry-after': '6' }, body }, 0);
  assert.equal(r.kind, 'rate_limit_tokens');
  assert.equal(r.retryable, true);
  assert.equal(r.retry_after_ms, 6000);
  assert.deepEqual([r.limit, r.used, r.requested], [10000, 9840, 1210]);
  const a = nextAction(r, {}, 0, 0.5);
  assert.equal(a.type, 'retry');
  assert.ok(a.after_ms >= 6000 && a.after_ms <= 20_000);
  assert.deepEqual(nextAction(r, { deadline_ms: 3000 }, 0, 0.5), { type: 'fallback', reason: 'deadline_too_short' });
  const big = classifyResponse({ status: 413, body: '{"error":{"message":"Request too large for model on tokens per min (TPM): Limit 8000, Requested 8478.","type":"tokens","code":"rate_limit_exceeded"}}' });
  assert.equal(big.kind, 'too_large');
  assert.deepEqual(nextAction(big), { type: 'shrink', by_tokens: 478 });
  const stream = 'data: {"choices":[{"delta":{"content":"Hel"}}]}\n\ndata: {"error":{"message":"Overloaded","type":"overloaded_error"}}\n\n';
  const s = classifyStreamChunk(stream, { status: 200 });
  assert.equal(s.kind, 'overloaded');
  assert.equal(s.output_delivered, true);
  assert.deepEqual(nextAction(s, {}, 0, 0.1), { type: 'give_up', reason: 'unsafe_to_resend' });
  assert.equal(classifyStreamChunk('data: {"choices":[]}\n\n'), null);
  const ex = explainResponse({ status: 429, headers: { 'retry-after': '2' }, body: '{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1."}}' });
  assert.equal(ex.kind, 'rate_limit_requests');
  assert.equal(ex.action.type, 'retry');
});

test('Ledger: reserve, refuse, settle, observe', () => {
  const t0 = 1_000_000;
  const ledger = new Ledger({ provider: 'open_ai', tpm: 10_000, rpm: 100 }, t0);
  const r1 = ledger.tryReserve({ tokens: 6000 }, {}, t0);
  assert.equal(r1.ok, true);
  assert.equal(ledger.inFlight, 1);
  assert.equal(ledger.held('tokens'), 6000);
  const r2 = ledger.tryReserve(6000, {}, t0);
  assert.equal(r2.ok, false);
  assert.equal(r2.refused, 'not_yet');
  assert.ok(r2.wait_ms > 0 && r2.wait_ms <= 60_000, `${r2.wait_ms}`);
  const never = ledger.tryReserve(20_000, {}, t0);
  assert.deepEqual(never, { ok: false, refused: 'never', dimension: 'tokens', limit: 10_000, needed: 20_000, excess: 10_000 });
  const settled = r1.reservation.settle({ usage: { prompt_tokens: 1000, completion_tokens: 500 } }, t0);
  assert.deepEqual(settled, { reserved: 6000, used: 1500, refunded: 4500 });
  assert.equal(ledger.inFlight, 0);
  assert.throws(() => r1.reservation.release(), /already settled or released/);
  assert.equal(ledger.check(6000, {}, t0).verdict, 'sendable');
  ledger.observe({ 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '30s' }, t0);
  const c = ledger.check(6000, { policy: 'conservative' }, t0);
  assert.equal(c.verdict, 'queueable');
  assert.ok(Math.abs(ledger.available('tokens', t0)) < 1);
  assert.equal(ledger.available('input_tokens', t0), null);
});

test('AdmissionQueue: admits, queues in order, sheds never-sendable at once', () => {
  const t0 = 0;
  const ledger = new Ledger({ tpm: 6000 }, t0);
  const q = new AdmissionQueue(ledger, { max_work_ms: 120_000 });
  const a = q.offer('a', 5000, t0 + 60_000, t0);
  assert.equal(a.offer, 'admitted');
  const b = q.offer('b', 3000, t0 + 60_000, t0);
  assert.equal(b.offer, 'queued');
  assert.ok(b.eta_ms > t0);
  const c = q.offer('c', 7000, t0 + 60_000, t0);
  assert.equal(c.offer, 'shed');
  assert.equal(c.reason, 'never_sendable');
  assert.equal(c.item, 'c');
  assert.match(c.message, /never sendable/);
  assert.equal(q.poll(t0).admitted.length, 0);
  const p = q.poll(b.eta_ms);
  assert.deepEqual(p.admitted.map((x) => x.item), ['b']);
  p.admitted[0].reservation.release();
  a.reservation.release();
  assert.equal(q.length, 0);
});
