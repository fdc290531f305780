// A fake OpenAI-style upstream for tests, on 127.0.0.1: POST /v1/chat/completions behind a real token bucket.
//
// Behaviour (the Rust example mirrors it; see README.md):
// - Tokens charged at admission: ceil(UTF-8 bytes of all message contents / 5) (about what a real tokenizer gives for English) + 4 per message + 3, plus
//   `max_tokens` (or `max_completion_tokens`), the way OpenAI reserves the output cap.
// - The bucket holds `tpm` tokens and refills continuously at tpm per minute; requests per minute likewise.
// - A request whose charge exceeds `tpm` by itself: 429 "Request too large ... Limit L, Requested R" (OpenAI's
//   wording; it is never sendable). One that exceeds what is left: 429 "Rate limit reached ... Limit L, Used U,
//   Requested R. Please try again in Xs." with `retry-after` and the x-ratelimit-* headers.
// - Success: 200 with a chat.completion body and `usage` (with `stream: true`, server-sent chunks, the usage frame
//   when `stream_options.include_usage`, and `[DONE]`); unused output reservation is refunded when the answer
//   is sent (`completion_tokens` = min(max_tokens, 12)). Every answer carries x-ratelimit-{limit,remaining,reset}-
//   {tokens,requests} (resets as durations such as `6.3s`, `577ms`, `1m0s`).
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';

function duration(ms) {
  if (ms < 1000) return `${Math.ceil(ms)}ms`;
  const s = ms / 1000;
  if (s < 60) return `${Number(s.toFixed(3))}s`;
  return `${Math.floor(s / 60)}m${Number((s % 60).toFixed(3))}s`;
}

class Bucket {
  constructor(limit, now) {
    this.limit = limit;
    this.level = limit;
    this.at = now;
  }
  refill(now) {
    this.level = Math.min(this.limit, this.level + ((now - this.at) * this.limit) / 60_000);
    this.at = now;
  }
  resetMs() {
    return ((this.limit - this.level) * 60_000) / this.limit;
  }
}

export function charge(body) {
  const msgs = Array.isArray(body.messages) ? body.messages : [];
  let bytes = 0;
  for (const m of msgs) bytes += Buffer.byteLength(typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''));
  const prompt = Math.ceil(bytes / 5) + 4 * msgs.length + 3;
  const cap = body.max_completion_tokens ?? body.max_tokens ?? 0;
  return { prompt, cap, total: prompt + cap };
}

/** Starts the fake upstream. Resolves to `{url, stats, close()}`. */
// `refuse(n, body)`: for the n-th request (from 1), a refusal to answer instead of the bucket's decision (`{status,
// body, headers}`, e.g. a quota or an overload), `{stream_error}` (a `stream: true` request is admitted and its
// stream carries that error frame after its first words), or null. Every answer is logged in `stats.log` as `{t, call,
// status, retry_after_ms}` (`call`: the request's `x-call-id` header), so a test can check what a client did.
export async function startFakeUpstream({ tpm = 10_000, rpm = 1_000, model = 'gpt-4o-mini', port = 0, now = Date.now, tls = null, refuse = null } = {}) {
  const tokens = new Bucket(tpm, now());
  const requests = new Bucket(rpm, now());
  const stats = { requests: 0, ok: 0, rate_limited: 0, too_large: 0, bad: 0, refused: 0, stream_errors: 0, charged: [], log: [] };
  const rateHeaders = () => ({
    'x-ratelimit-limit-tokens': String(tpm),
    'x-ratelimit-remaining-tokens': String(Math.max(0, Math.floor(tokens.level))),
    'x-ratelimit-reset-tokens': duration(tokens.resetMs()),
    'x-ratelimit-limit-requests': String(rpm),
    'x-ratelimit-remaining-requests': String(Math.max(0, Math.floor(requests.level))),
    'x-ratelimit-reset-requests': duration(requests.resetMs()),
  });
  const handler = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      stats.requests++;
      const send = (status, body, extra = {}) => {
        const ra = extra['retry-after'];
        stats.log.push({ t: now(), call: req.headers['x-call-id'] ?? null, status, retry_after_ms: ra === undefined ? null : Number(ra) * 1000 });
        res.writeHead(status, { 'content-type': 'application/json', ...rateHeaders(), ...extra });
        res.end(JSON.stringify(body));
      };
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        stats.bad++;
        return send(400, { error: { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error', param: null, code: null } });
      }
      const injected = refuse?.(stats.requests, body);
      // `stream_error` is not a refusal: the request is admitted, and its stream fails after some output.
      const streamError = body.stream === true ? injected?.stream_error : undefined;
      if (injected && !injected.stream_error) {
        stats.refused++;
        return send(injected.status, injected.body, injected.headers ?? {});
      }
      const t = now();
      tokens.refill(t);
      requests.refill(t);
      const c = charge(body);
      if (c.total > tpm) {
        stats.too_large++;
        return send(429, { error: { message: `Request too large for ${model} in organization org-fake on tokens per min (TPM): Limit ${tpm}, Requested ${c.total}. The input or output tokens must be reduced in order to run successfully.`, type: 'tokens', param: null, code: 'rate_limit_exceeded' } });
      }
      if (requests.level < 1 || tokens.level < c.total) {
        stats.rate_limited++;
        const waitMs = Math.max(((c.total - tokens.level) * 60_000) / tpm, requests.level < 1 ? ((1 - requests.level) * 60_000) / rpm : 0);
        const used = Math.round(tpm - tokens.level);
        const what = requests.level < 1 ? `requests per min (RPM): Limit ${rpm}, Used ${rpm}, Requested 1` : `tokens per min (TPM): Limit ${tpm}, Used ${used}, Requested ${c.total}`;
        return send(429, { error: { message: `Rate limit reached for ${model} in organization org-fake on ${what}. Please try again in ${duration(waitMs)}. Visit https://platform.example/account/rate-limits to learn more.`, type: requests.level < 1 ? 'requests' : 'tokens', param: null, code: 'rate_limit_exceeded' } }, { 'retry-after': String(Math.ceil(waitMs / 1000)) });
      }
      tokens.level -= c.total;
      requests.level -= 1;
      const completion = Math.min(c.cap || 12, 12);
      tokens.level = Math.min(tpm, tokens.level + (c.cap - Math.min(c.cap, completion)));
      stats.ok++;
      stats.charged.push(c.total);
      const usage = { prompt_tokens: c.prompt, completion_tokens: completion, total_tokens: c.prompt + completion };
      if (body.stream === true) return stream(req, res, { t, model, usage, error: streamError, includeUsage: body.stream_options?.include_usage === true });
      send(200, {
        id: `chatcmpl-fake${stats.ok}`, object: 'chat.completion', created: Math.floor(t / 1000), model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the fake upstream.' }, finish_reason: 'stop' }],
        usage,
      });
    });
  };
  // A `stream: true` request: OpenAI's server-sent chat.completion.chunk frames, the usage frame when
  // `stream_options.include_usage` asks, then `[DONE]`; or, when `refuse` gave `{stream_error}`, an error frame
  // after the first words and no `[DONE]` (as providers fail a stream that has begun).
  const stream = (req, res, { t, model, usage, error, includeUsage }) => {
    stats.log.push({ t: now(), call: req.headers['x-call-id'] ?? null, status: 200, retry_after_ms: null, stream_error: error !== undefined });
    if (error !== undefined) stats.stream_errors++;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...rateHeaders() });
    const base = { id: `chatcmpl-fake${stats.ok}`, object: 'chat.completion.chunk', created: Math.floor(t / 1000), model };
    const frame = (o) => res.write(`data: ${JSON.stringify({ ...base, ...o })}\n\n`);
    frame({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    frame({ choices: [{ index: 0, delta: { content: 'Hello from' }, finish_reason: null }] });
    if (error !== undefined) {
      res.write(`data: ${JSON.stringify(error)}\n\n`);
      return res.end();
    }
    frame({ choices: [{ index: 0, delta: { content: ' the fake upstream.' }, finish_reason: null }] });
    frame({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
    if (includeUsage) frame({ choices: [], usage });
    res.write('data: [DONE]\n\n');
    res.end();
  };
  // `tls: {key, cert}` (PEM) serves https instead, for clients that must be tested over TLS.
  const server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, handler) : createServer(handler);
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${server.address().port}`,
    stats,
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const tpm = Number(process.env.TPM || 10_000);
  const up = await startFakeUpstream({ tpm, port: Number(process.env.PORT || 8787) });
  console.log(`fake upstream on ${up.url} (TPM ${tpm})`);
}
