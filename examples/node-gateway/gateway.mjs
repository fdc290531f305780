// A small LLM gateway on node:http. It forwards OpenAI-style requests to an upstream and, before sending, asks
// llm-preflight whether each one fits the key's per-minute budget:
// - never sendable (bigger than a whole minute's budget, with its output cap): 413 at once, saying by how much
//   to shrink it; the upstream never sees it;
// - queueable: held in an admission queue bounded in seconds of work (not in requests) until its wait passes;
//   one that could not start before its deadline, or that would overflow the queue, gets a 429 with retry-after;
// - sendable: forwarded at once.
// Every upstream answer's rate-limit headers are read into the ledger, and the reservation is settled against
// the reported usage (or released when the upstream refused).
import { createServer } from 'node:http';
import { Ledger, AdmissionQueue, estimateRequest, classifyResponse } from 'llm-preflight';

export function createGateway({ upstream, budget, maxQueueMs = 30_000, deadlineMs = 20_000, policy = 'conservative' }) {
  const ledger = new Ledger(budget);
  const queue = new AdmissionQueue(ledger, { policy, max_work_ms: maxQueueMs });
  const stats = { forwarded: 0, queued: 0, rejected_413: 0, shed_429: 0, upstream_429: 0, last_headers: null };
  let timer = null;

  const reply = (res, status, body, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  async function forward({ req, res, body }, reservation) {
    stats.forwarded++;
    try {
      const up = await fetch(new URL(req.url, upstream), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
        body,
      });
      const text = await up.text();
      // Settle first, then read the headers: the reservation gives back what the provider did not use, and the
      // provider's numbers (which already count this request) are applied to a ledger that no longer holds it.
      // With other requests still in flight the core keeps the lower of its own level and the reported one, so a
      // response that predates them cannot hand their capacity out twice.
      if (up.ok) {
        try { reservation.settle(text); } catch { reservation.release(); }
      } else {
        reservation.release();
        if (up.status === 429) stats.upstream_429++;
      }
      stats.last_headers = ledger.observe(up.headers);
      const headers = { 'content-type': up.headers.get('content-type') ?? 'application/json' };
      for (const [n, v] of up.headers) if (n.startsWith('x-ratelimit-') || n === 'retry-after') headers[n] = v;
      if (!up.ok) headers['x-preflight-refusal'] = classifyResponse({ status: up.status, headers: up.headers, body: text }).kind;
      res.writeHead(up.status, headers);
      res.end(text);
    } catch (e) {
      reservation.release();
      reply(res, 502, { error: { message: `upstream unreachable: ${e.message}`, type: 'bad_gateway' } });
    } finally {
      schedule();
    }
  }

  function shed(res, s) {
    if (s.reason === 'never_sendable') {
      stats.rejected_413++;
      return reply(res, 413, { error: { message: `Request too large for this key: ${s.message}`, type: 'never_sendable', dimension: s.dimension, limit: s.limit, needed: s.needed, excess: s.excess } });
    }
    stats.shed_429++;
    const after = Math.max(1, Math.ceil((s.retry_after_ms ?? 1000) / 1000));
    reply(res, 429, { error: { message: s.message, type: s.reason } }, { 'retry-after': String(after) });
  }

  function poll() {
    timer = null;
    const p = queue.poll();
    for (const { item, reservation } of p.admitted) forward(item, reservation);
    for (const s of p.shed) shed(s.item.res, s);
    schedule(p.wake_at_ms);
  }

  function schedule(at) {
    if (at === undefined) at = queue.length ? Date.now() + 50 : null;
    if (at === null || at === undefined) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(poll, Math.max(0, at - Date.now()));
  }

  const server = createServer((req, res) => {
    if (req.method !== 'POST') return reply(res, 405, { error: { message: 'POST an OpenAI-style request', type: 'method_not_allowed' } });
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let cost;
      try {
        cost = estimateRequest(body);
      } catch (e) {
        return reply(res, 400, { error: { message: e.message, type: 'invalid_request_error' } });
      }
      const now = Date.now();
      const o = queue.offer({ req, res, body }, cost, now + deadlineMs, now);
      if (o.offer === 'admitted') forward(o.item, o.reservation);
      else if (o.offer === 'shed') shed(res, o);
      else {
        stats.queued++;
        schedule(o.eta_ms);
      }
    });
  });
  server.stats = stats;
  server.ledger = ledger;
  server.queue = queue;
  server.on('close', () => timer && clearTimeout(timer));
  return server;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const upstream = process.env.UPSTREAM || 'http://127.0.0.1:8787';
  const tpm = Number(process.env.TPM || 10_000);
  const server = createGateway({ upstream, budget: { provider: 'open_ai', tpm } });
  server.listen(Number(process.env.PORT || 8080), '127.0.0.1', () => console.log(`gateway on http://127.0.0.1:${server.address().port} -> ${upstream} (TPM ${tpm})`));
}
