// `guard(fetch, options)`: the guarded call around fetch, as a JS gateway uses it. The providers here are fakes:
// functions with fetch's signature that answer as OpenAI does (usage blocks, 429s with retry-after, quota
// refusals, streams), and one real HTTP server reached through the global fetch.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { guard } from 'llm-preflight';

const chat = (words, maxTokens, extra = {}) =>
  JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: Array(words).fill('budget').join(' ') }], max_tokens: maxTokens, ...extra });

const json = (status, body, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const ok = (prompt = 12) => json(200, { choices: [{ message: { content: 'hi' } }], usage: { prompt_tokens: prompt, completion_tokens: 3 } });

/** A clock the test moves by hand, so waits are instant and exact. */
function manualClock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

function providers(tpm = 10000, backupTpm) {
  const ps = [{ name: 'primary', base_url: 'https://primary.test', provider: 'open_ai', budget: { tpm } }];
  if (backupTpm) ps.push({ name: 'backup', base_url: 'https://backup.test', provider: 'open_ai', budget: { tpm: backupTpm } });
  return ps;
}

test('guard: a success goes through byte for byte and is settled at the reported usage', async () => {
  const seen = [];
  const events = [];
  const fake = async (url, init) => {
    seen.push({ url, body: init.body, auth: new Headers(init.headers).get('authorization') });
    return ok(40);
  };
  const guarded = guard(fake, { providers: providers(), onEvent: (e) => events.push(e) });
  const body = chat(30, 100).replace('{', '{ '); // odd spacing must survive: never re-serialised
  const res = await guarded('https://primary.test/v1/chat/completions', {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
    body,
  });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).usage.prompt_tokens, 40);
  assert.deepEqual(seen, [{ url: 'https://primary.test/v1/chat/completions', body, auth: 'Bearer k' }]);
  const types = events.map((e) => e.type);
  for (const t of ['admitted', 'sent', 'settled', 'calibrated']) assert.ok(types.includes(t), types.join());
  const settled = events.find((e) => e.type === 'settled');
  assert.equal(settled.provider, 'primary');
  assert.equal(settled.reported_tokens, 40);
  assert.ok(settled.estimated_tokens > 20, JSON.stringify(settled));
  assert.ok(events.every((e) => e.id === 1 && typeof e.at_ms === 'number'));
  assert.deepEqual(guarded.state(), { held_tokens: 0, in_flight: 0 });
});

test('guard: other URLs and non-POST requests pass through untouched', async () => {
  const calls = [];
  const fake = async (input, init) => {
    calls.push([input, init?.method ?? 'GET']);
    return new Response('plain');
  };
  const guarded = guard(fake, { providers: providers() });
  assert.equal(await (await guarded('https://elsewhere.test/v1/chat/completions', { method: 'POST', body: '{}' })).text(), 'plain');
  assert.equal(await (await guarded('https://primary.test/v1/models')).text(), 'plain');
  assert.deepEqual(calls, [['https://elsewhere.test/v1/chat/completions', 'POST'], ['https://primary.test/v1/models', 'GET']]);
});

test('guard: a request over the whole budget is answered 413 and never sent', async () => {
  const events = [];
  const guarded = guard(() => assert.fail('nothing may be sent'), { providers: providers(8000), onEvent: (e) => events.push(e) });
  const res = await guarded('https://primary.test/v1/chat/completions', { method: 'POST', body: chat(20, 9000) });
  assert.equal(res.status, 413);
  const e = (await res.json()).error;
  assert.equal(e.type, 'never_sendable');
  assert.equal(e.dimension, 'tokens');
  assert.equal(e.limit, 8000);
  assert.equal(e.excess, e.needed - 8000);
  assert.match(e.message, /never sendable/);
  assert.ok(events.some((x) => x.type === 'never_sendable' && x.limit === 8000));
});

test('guard: a 429 is retried no earlier than its retry-after; a quota refusal is passed on, not retried', async () => {
  const clock = manualClock();
  const sends = [];
  let n = 0;
  const fake = async (url, init) => {
    sends.push(clock.now());
    n += 1;
    if (n === 1) {
      return json(429, { error: { message: 'Rate limit reached for gpt-4o on tokens per min (TPM): Limit 10000, Used 9990, Requested 300. Please try again in 2s.', type: 'tokens', code: 'rate_limit_exceeded' } }, { 'retry-after': '2' });
    }
    return ok();
  };
  // The clock moves while the guard sleeps: its setTimeout waits are real but short, so advance the fake clock too.
  const guarded = guard(fake, { providers: providers(), now: clock.now, random: () => 0.5, onEvent: (e) => { if (e.type === 'retry') clock.advance(e.after_ms); } });
  const res = await guarded('https://primary.test/v1/chat/completions', { method: 'POST', body: chat(10, 50) });
  assert.equal(res.status, 200);
  assert.equal(sends.length, 2);
  assert.ok(sends[1] - sends[0] >= 2000, `${sends}`);

  let count = 0;
  const counted = guard(async () => {
    count += 1;
    return json(429, { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } });
  }, { providers: providers() });
  const r = await counted('https://primary.test/v1/chat/completions', { method: 'POST', body: chat(10, 50) });
  assert.equal(r.status, 429);
  assert.equal((await r.json()).error.code, 'insufficient_quota');
  assert.equal(count, 1, 'a quota refusal is never retried');
});

test('guard: the primary out of budget falls back to the backup at the same path', async () => {
  const urls = [];
  const events = [];
  const fake = async (url) => {
    urls.push(url);
    return url.startsWith('https://primary.test')
      ? json(429, { error: { message: 'Rate limit reached. Please try again in 300s.', code: 'rate_limit_exceeded' } }, { 'retry-after': '300' })
      : ok();
  };
  const guarded = guard(fake, { providers: providers(10000, 10000), onEvent: (e) => events.push(e), deadline_ms: 5000 });
  const res = await guarded('https://primary.test/v1/chat/completions?x=1', { method: 'POST', body: chat(10, 50) });
  assert.equal(res.status, 200);
  await res.text(); // the call ends with its body
  assert.deepEqual(urls, ['https://primary.test/v1/chat/completions?x=1', 'https://backup.test/v1/chat/completions?x=1']);
  const fb = events.find((e) => e.type === 'fallback');
  assert.equal(fb.provider, 'primary');
  assert.ok(events.some((e) => e.type === 'sent' && e.provider === 'backup'));
  assert.deepEqual(guarded.state(), { held_tokens: 0, in_flight: 0 });
});

test('guard: a request to the backup URL is guarded against the backup and never sent to the primary', async () => {
  const urls = [];
  const fake = async (url) => {
    urls.push(url);
    return url.startsWith('https://backup.test') && urls.length > 1 ? json(503, { error: { message: 'The server is overloaded or not ready yet.', type: 'server_error' } }) : ok();
  };
  const guarded = guard(fake, { providers: providers(10000, 10000), deadline_ms: 5000, random: () => 0 });
  const res = await guarded('https://backup.test/v1/chat/completions', { method: 'POST', body: chat(10, 50) });
  assert.equal(res.status, 200);
  await res.text();
  assert.deepEqual(urls, ['https://backup.test/v1/chat/completions']);
  // The backup overloaded: retried there, and nothing after it to fall back to; the primary is never tried.
  const again = await guarded('https://backup.test/v1/chat/completions', { method: 'POST', body: chat(10, 50) });
  assert.equal(again.status, 503);
  await again.text();
  assert.ok(urls.every((u) => u.startsWith('https://backup.test/')), urls.join(' '));
  assert.deepEqual(guarded.state(), { held_tokens: 0, in_flight: 0 });
});

test('guard: a full budget sheds a call whose deadline it cannot meet with 429 and retry-after', async () => {
  const guarded = guard(async () => ok(8000), { providers: providers(10000), deadline_ms: 1000 });
  const first = await guarded('https://primary.test/v1/chat/completions', { method: 'POST', body: chat(10, 7000) });
  assert.equal(first.status, 200);
  const res = await guarded('https://primary.test/v1/chat/completions', { method: 'POST', body: chat(10, 7000) });
  assert.equal(res.status, 429);
  assert.ok(Number(res.headers.get('retry-after')) >= 1);
  const e = (await res.json()).error;
  assert.equal(e.type, 'shed');
  assert.equal(e.reason, 'deadline_unreachable');
  assert.ok(e.message.length > 0);
});

test('guard: a stream comes back unbuffered through the global fetch; its final usage is settled', async () => {
  const frames = [
    'data: {"choices":[{"delta":{"content":"Hel"}}]}\n\n',
    'data: {"choices":[{"delta":{"content":"lo"}}]}\n\n',
    'data: {"choices":[],"usage":{"prompt_tokens":21,"completion_tokens":2}}\n\n',
    'data: [DONE]\n\n',
  ];
  let release;
  const gate = new Promise((r) => (release = r));
  const server = createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-ratelimit-remaining-tokens': '9000' });
    res.write(frames[0]);
    await gate; // the rest only once the client has read the first frame: nothing is buffered on the way
    for (const f of frames.slice(1)) res.write(f);
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const events = [];
  try {
    const guarded = guard(fetch, {
      providers: [{ name: 'local', base_url: base, provider: 'open_ai', budget: { tpm: 10000 } }],
      onEvent: (e) => events.push(e),
    });
    const res = await guarded(`${base}/v1/chat/completions`, { method: 'POST', body: chat(10, 50, { stream: true }) });
    assert.equal(res.status, 200);
    const reader = res.body.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.equal(first, frames[0]);
    release();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    assert.equal(first + rest, frames.join(''));
    const settled = events.find((e) => e.type === 'settled');
    assert.equal(settled?.reported_tokens, 21, JSON.stringify(events));
    assert.deepEqual(guarded.state(), { held_tokens: 0, in_flight: 0 });
  } finally {
    server.close();
  }
});

test('guard: bad options are clear errors', () => {
  assert.throws(() => guard('fetch', { providers: providers() }), /fetch function/);
  assert.throws(() => guard(fetch, {}), /providers must be a non-empty array/);
  assert.throws(() => guard(fetch, { providers: [{ name: 'a', base_url: 'nope', budget: { tpm: 1 } }] }), /absolute URL/);
  assert.throws(() => guard(fetch, { providers: [{ name: 'a', base_url: 'https://a.test', budget: { tpm: -1 } }] }), /tpm|limit/i);
  assert.throws(() => guard(fetch, { providers: providers(), policy: 'bold' }), /policy|bold/);
  assert.throws(() => guard(fetch, { providers: providers(), colour: 1 }), /unknown option "colour"/);
});
