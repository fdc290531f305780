// One probe of the package's API, run unchanged in node, Deno and workerd (test/edge.test.mjs): plain data out, so
// the three results can be compared as JSON.
const REFUSAL = '{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 8000, Used 7000, Requested 1478."}}';

export function probe(lp, texts) {
  const out = {};
  out.estimates = texts.map((t) => lp.estimate(t, { profile: 'o200k' }));
  out.profiles = ['cl100k', 'llama3', 'gemini', 'claude-legacy'].map((profile) => lp.estimate(texts[0], { profile }));
  out.loaded = lp.estimate(texts[0], { profile: lp.loadProfile(lp.profileJson('qwen3')) });
  const e = new lp.Estimator({ model: 'gpt-4o' });
  for (let i = 0; i < texts[1].length; i += 1000) e.update(texts[1].slice(i, i + 1000));
  out.streamed = e.finish();
  e.free();
  // The lazily loaded half of the API.
  out.request = lp.estimateRequest({ model: 'gpt-4o-mini', max_tokens: 500, messages: [{ role: 'user', content: texts[2] }] });
  out.check = lp.check('word '.repeat(3000), { tpm: 2000 });
  out.headers = lp.parseRateLimitHeaders(new Headers({
    'x-ratelimit-limit-tokens': '8000', 'x-ratelimit-remaining-tokens': '1200', 'x-ratelimit-reset-tokens': '6m0s', 'retry-after': '7',
  }), 1_700_000_000_000);
  out.refusal = lp.classifyResponse({ status: 429, headers: new Headers({ 'retry-after': '3' }), body: REFUSAL });
  out.action = lp.nextAction(out.refusal, {}, 0, 0.5);
  out.stream = lp.classifyStreamChunk('data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n');
  const ledger = new lp.Ledger({ tpm: 1000 }, 0);
  out.ledger = [ledger.tryReserve(600, {}, 0).ok, ledger.tryReserve(600, {}, 0).ok];
  // Awkward but valid: a lone surrogate is one replacement character.
  out.lone = lp.estimate('abc\uD800def');
  // Bad input: thrown Errors (never a trap), and the instance keeps answering.
  const bad = [
    () => lp.estimate(undefined), () => lp.estimate(42), () => lp.estimate('x', { profile: 'gpt-2' }),
    () => lp.estimate('x', 'o200k'), () => lp.check('x', { tpm: NaN }), () => lp.check('x', { tpm: -5 }),
    () => lp.estimateRequest('{'), () => lp.parseRateLimitHeaders(42), () => lp.classifyResponse({ status: 'teapot' }),
    () => lp.loadProfile('{"format": "nope"}'),
  ];
  out.errors = 0;
  out.messages = [];
  for (let i = 0; i < 1000; i++) {
    try {
      bad[i % bad.length]();
    } catch (err) {
      if (err instanceof Error && !(err instanceof WebAssembly.RuntimeError)) out.errors++;
      if (i < bad.length) out.messages.push(String(err.message));
    }
  }
  out.after = lp.estimate(texts[0], { profile: 'o200k' });
  return out;
}

/**
 * `guard(fetch)` over a scripted fetch (no network): a never-sendable call, a fallback from a 503, a stream passed
 * through. Plain data out (statuses, bodies, event types), as the other probe.
 */
export async function probeGuard(lp) {
  const seen = [];
  const enc = new TextEncoder();
  const fake = async (url, init) => {
    seen.push(url);
    if (url.startsWith('https://primary.test/')) {
      return new Response('{"error":{"message":"The server is overloaded or not ready yet.","type":"server_error"}}', { status: 503, headers: { 'content-type': 'application/json' } });
    }
    if (JSON.parse(init.body).stream) {
      const frames = ['data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n', 'data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":1}}\n\n', 'data: [DONE]\n\n'];
      const body = new ReadableStream({ start(c) { for (const f of frames) c.enqueue(enc.encode(f)); c.close(); } });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    return new Response('{"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3}}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const events = [];
  const guarded = lp.guard(fake, {
    providers: [
      { name: 'primary', base_url: 'https://primary.test', provider: 'open_ai', budget: { tpm: 10000 } },
      { name: 'backup', base_url: 'https://backup.test', provider: 'open_ai', budget: { tpm: 10000 } },
    ],
    deadline_ms: 5000,
    // No jitter: each retry of the 503 comes at once, so the path is the same in every runtime and run.
    random: () => 0,
    onEvent: (e) => events.push(`${e.type}:${e.provider ?? ''}`),
  });
  const url = 'https://primary.test/v1/chat/completions';
  const call = (extra) => guarded(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 20, ...extra }) });
  const out = {};
  let r = await call({ max_tokens: 50000 });
  out.never = [r.status, (await r.json()).error.type];
  r = await call({});
  out.fallback = [r.status, await r.text()];
  r = await call({ stream: true });
  out.stream = [r.status, await r.text()];
  out.events = events;
  out.seen = seen;
  out.state = guarded.state();
  return out;
}
