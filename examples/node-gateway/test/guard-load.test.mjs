// 500 calls at three times the primary's ceiling through `guard(fetch, ...)`, against two fake upstreams (a primary
// that also answers some calls with real refusal shapes: insufficient_quota, 529 and 503 overloads, an error frame
// inside a 200 stream; and a backup), on the real clock; a quarter of the calls stream. What the done-when
// asks, checked from the upstreams' own logs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { guard } from 'llm-preflight';
import { startFakeUpstream } from '../../fake-upstream/server.mjs';
import { MIXED } from '../../fake-upstream/harness.mjs';

test('500 calls at 3x the ceiling: deadlines kept, nothing never-sendable or early sent, quotas not retried, nothing held', async () => {
  const tpm = 9_000;
  // The primary's request limit (300 a minute) is not configured: the guard learns it from the x-ratelimit-* headers.
  const primary = await startFakeUpstream({
    tpm,
    rpm: 300,
    refuse: MIXED,
  });
  const backup = await startFakeUpstream({ tpm: 3_000 });
  const counts = {};
  const deadlineMs = 8_000;
  const guarded = guard(fetch, {
    providers: [
      { name: 'primary', base_url: primary.url, provider: 'open_ai', budget: { tpm } },
      { name: 'backup', base_url: backup.url, provider: 'open_ai', budget: { tpm: 3_000 } },
    ],
    deadline_ms: deadlineMs,
    max_queue_ms: 5_000,
    onEvent: (e) => { counts[e.type] = (counts[e.type] ?? 0) + 1; },
  });
  const words = 'the report shows next steps for people who read notes later with clear owners and dates';
  // About 38 tokens a call as the upstream charges (a ~26-token prompt and a 12-token cap it uses whole): the
  // primary's ceiling is ~237 calls a minute; three times that is ~11.8 a second, so the 500 calls arrive over about
  // 42 seconds (a per-minute bucket starts full, so a shorter run would barely press on it).
  const perSecond = 11.8;
  const late = [];
  const statuses = {};
  let never = 0;
  const calls = [];
  for (let i = 0; i < 500; i++) {
    const tooBig = i % 50 === 7; // 10 calls whose cap is larger than either whole budget
    const stream = i % 4 === 1 ? { stream: true, stream_options: { include_usage: true } } : {};
    const body = JSON.stringify({ model: 'gpt-4o-mini', max_tokens: tooBig ? 12_000 : 12, messages: [{ role: 'user', content: `${i} ${words}` }], ...stream });
    const t0 = Date.now();
    calls.push(
      guarded(`${primary.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-call-id': String(i) }, body })
        .then(async (r) => {
          const text = await r.text();
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          if (r.status === 413 && text.includes('"never_sendable"')) never++;
          if (Date.now() - t0 > deadlineMs + 1_000) late.push(i);
        }),
    );
    await new Promise((r) => setTimeout(r, 1000 / perSecond));
  }
  await Promise.all(calls);
  try {
    assert.deepEqual(late, [], 'every call resolved by its deadline plus one second');
    assert.equal(primary.stats.too_large + backup.stats.too_large, 0, 'no never-sendable request reached an upstream');
    assert.equal(never, 10, `the never-sendable calls answered 413 by the guard: ${JSON.stringify(statuses)}`);
    // No send before a retry-after the upstream gave that call, nor after a quota refusal, on the same upstream.
    for (const up of [primary, backup]) {
      const byCall = new Map();
      for (const e of up.stats.log) {
        const prev = byCall.get(e.call);
        if (prev) {
          if (prev.retry_after_ms !== null) assert.ok(e.t >= prev.t + prev.retry_after_ms - 5, `call ${e.call} resent early`);
          assert.ok(!prev.quota, `call ${e.call} retried after a quota refusal`);
          assert.ok(prev.status !== 413, `call ${e.call} resent as it was after a 413`);
          assert.ok(!prev.stream_error, `call ${e.call} resent after its stream failed`);
        }
        byCall.set(e.call, { ...e, quota: e.status === 429 && e.retry_after_ms === null });
      }
    }
    assert.ok(primary.stats.refused > 0, 'the injected refusals were met');
    assert.ok(primary.stats.stream_errors > 0, 'error frames inside 200 streams were met');
    assert.ok(backup.stats.requests > 0, 'the backup took calls when the primary could not');
    // The guard kept the upstreams' buckets: few calls refused for their rate (the estimate's error, not blind sends).
    assert.ok(primary.stats.rate_limited + backup.stats.rate_limited <= 25, JSON.stringify(counts));
    assert.deepEqual(guarded.state(), { held_tokens: 0, in_flight: 0 });
    // The events add up to the upstreams' own request logs.
    assert.equal(counts.sent, primary.stats.requests + backup.stats.requests, JSON.stringify(counts));
    console.log(JSON.stringify({ statuses, counts, primary: { requests: primary.stats.requests, ok: primary.stats.ok, rate_limited: primary.stats.rate_limited, refused: primary.stats.refused }, backup: { requests: backup.stats.requests, ok: backup.stats.ok, rate_limited: backup.stats.rate_limited } }));
  } finally {
    await primary.close();
    await backup.close();
  }
});
