// The gateway against the fake upstream, both on 127.0.0.1, with a real token bucket upstream.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createGateway } from '../gateway.mjs';
import { startFakeUpstream } from '../../fake-upstream/server.mjs';

const prose = 'The quick brown fox jumps over the lazy dog. ';
const request = (words, maxTokens = 10) => JSON.stringify({ model: 'gpt-4o-mini', max_tokens: maxTokens, messages: [{ role: 'user', content: prose.repeat(words) }] });

async function setup(tpm, opts = {}) {
  const up = await startFakeUpstream({ tpm });
  const gw = createGateway({ upstream: up.url, budget: { provider: 'open_ai', tpm }, ...opts });
  await new Promise((r) => gw.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${gw.address().port}/v1/chat/completions`;
  const post = async (body) => {
    const t0 = Date.now();
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: r.status, headers: r.headers, json: await r.json(), ms: Date.now() - t0 };
  };
  const close = async () => { gw.closeAllConnections?.(); await new Promise((r) => gw.close(r)); await up.close(); };
  return { up, gw, post, close, url };
}

test('a never-sendable request gets a 413 at once and never reaches the upstream', async () => {
  const s = await setup(6000);
  try {
    const r = await s.post(request(800)); // ~36 KB of prose: far beyond 6,000 tokens per minute
    assert.equal(r.status, 413);
    assert.equal(r.json.error.type, 'never_sendable');
    assert.match(r.json.error.message, /never sendable: needs \d+ against a tokens limit of 6000; shrink it by \d+/);
    assert.ok(r.json.error.excess > 0);
    assert.ok(r.ms < 500, `${r.ms} ms`);
    assert.equal(s.up.stats.requests, 0);
  } finally {
    await s.close();
  }
});

test('a burst beyond the bucket is held until it fits: no upstream 429, the late ones wait', async () => {
  const s = await setup(6000, { maxQueueMs: 60_000, deadlineMs: 30_000 });
  try {
    const results = await Promise.all(Array.from({ length: 16 }, () => s.post(request(40))));
    const statuses = results.map((r) => r.status);
    assert.deepEqual(statuses, Array(16).fill(200), JSON.stringify(results.filter((r) => r.status !== 200).map((r) => r.json)));
    assert.equal(s.up.stats.rate_limited, 0, 'the gateway never let the upstream refuse a request');
    assert.ok(s.gw.stats.queued >= 1, 'some were held');
    const slowest = Math.max(...results.map((r) => r.ms));
    assert.ok(slowest >= 500, `the held ones waited for the bucket to refill (slowest ${slowest} ms)`);
    // Every call settled at the usage the upstream reported, and nothing is held.
    assert.equal(s.gw.stats.settled, 16);
    assert.deepEqual(s.gw.guarded.state(), { held_tokens: 0, in_flight: 0 });
    const metrics = await (await fetch(s.url.replace('/v1/chat/completions', '/metrics'))).text();
    assert.match(metrics, /^llm_preflight_events_total\{type="settled"\} 16$/m);
    assert.match(metrics, /^llm_preflight_held_tokens 0$/m);
  } finally {
    await s.close();
  }
});

test('a queue bounded in seconds of work sheds the overflow with 429 and retry-after', async () => {
  const s = await setup(6000, { maxQueueMs: 5_000, deadlineMs: 30_000 });
  try {
    const results = await Promise.all(Array.from({ length: 40 }, () => s.post(request(40))));
    const shed = results.filter((r) => r.status === 429);
    assert.ok(shed.length > 0, 'some were shed');
    for (const r of shed) {
      assert.equal(r.json.error.type, 'shed');
      assert.ok(['queue_full', 'deadline_unreachable'].includes(r.json.error.reason), JSON.stringify(r.json));
      assert.ok(Number(r.headers.get('retry-after')) >= 1);
      assert.ok(r.ms < 1000, `shed at once, not timed out (${r.ms} ms)`);
    }
    assert.equal(s.up.stats.rate_limited, 0);
    assert.ok(results.filter((r) => r.status === 200).length >= 13);
  } finally {
    await s.close();
  }
});
