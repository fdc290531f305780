// A small LLM gateway on node:http: every OpenAI-style request goes upstream through llm-preflight's `guard`, which
// owns the path (413 for a request no budget can hold, a queue bounded in seconds of work, 429 with retry-after
// for what cannot start by its deadline, retries no earlier than Retry-After, settling at the reported usage).
// This file only moves bytes, and counts the guard's events for /metrics (Prometheus text format).
import { createServer } from 'node:http';
import { guard } from 'llm-preflight';

export function createGateway({ upstream, budget, maxQueueMs = 30_000, deadlineMs = 20_000, policy = 'conservative' }) {
  const base = upstream.replace(/\/+$/, '');
  const { provider, ...limits } = budget;
  const stats = {};
  const guarded = guard(fetch, {
    providers: [{ name: 'upstream', base_url: base, provider, budget: limits }],
    policy, deadline_ms: deadlineMs, max_queue_ms: maxQueueMs,
    onEvent: (e) => { stats[e.type] = (stats[e.type] ?? 0) + 1; },
  });
  const metrics = () => Object.entries(stats).map(([k, v]) => `llm_preflight_events_total{type="${k}"} ${v}`)
    .concat([`llm_preflight_held_tokens ${guarded.state().held_tokens}`, `llm_preflight_in_flight ${guarded.state().in_flight}`]).join('\n') + '\n';

  const server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      return res.end(metrics());
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'POST an OpenAI-style request', type: 'method_not_allowed' } }));
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const abort = new AbortController();
    res.on('close', () => res.writableFinished || abort.abort());
    try {
      const up = await guarded(base + req.url, {
        method: 'POST', body: Buffer.concat(chunks).toString('utf8'), signal: abort.signal,
        headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
      });
      res.writeHead(up.status, Object.fromEntries(up.headers));
      for await (const chunk of up.body ?? []) res.write(chunk);
      res.end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `upstream unreachable: ${e.message}`, type: 'bad_gateway' } }));
    }
  });
  server.stats = stats;
  server.guarded = guarded;
  return server;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const upstream = process.env.UPSTREAM || 'http://127.0.0.1:8787';
  const tpm = Number(process.env.TPM || 10_000);
  const server = createGateway({ upstream, budget: { provider: 'open_ai', tpm } });
  server.listen(Number(process.env.PORT || 8080), '127.0.0.1', () => console.log(`gateway on http://127.0.0.1:${server.address().port} -> ${upstream} (TPM ${tpm})`));
}
