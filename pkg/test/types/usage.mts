// Compiled by test/types.test.mjs with the package's own declarations (strict), then run: every result narrows on
// its discriminant exactly as index.d.ts says, and the `@ts-expect-error` lines must stay errors (if the types grew
// loose enough to accept them, tsc reports the unused directive and the test fails).
import {
  estimate, Estimator, estimateRequest, check, parseRateLimitHeaders, classifyResponse, classifyStreamChunk,
  explainResponse, nextAction, profiles, Ledger, AdmissionQueue, loadProfile, profileJson,
  type Estimate, type Check, type Action, type Refusal, type ProfileName, type ContentKind,
} from 'llm-preflight';

function assert(cond: boolean, what: string): asserts cond {
  if (!cond) throw new Error(`types and values disagree: ${what}`);
}

const e: Estimate = estimate('The quick brown fox.', { profile: 'o200k' });
const kind: ContentKind = e.content;
assert(kind === 'prose' && e.low <= e.tokens && e.tokens <= e.high, 'estimate');
assert(e.mix.every((m) => typeof m.chars === 'number' && typeof m.class === 'string'), 'mix');
const names: ProfileName[] = profiles().map((p) => p.profile);
assert(names.includes('claude-legacy'), 'profiles');
const s = new Estimator({ model: 'gpt-4o' }).update('hello ').update(new TextEncoder().encode('world'));
assert(s.finish().chars === 11, 'Estimator');

const loaded = loadProfile(profileJson('llama3'));
const base: ProfileName = loaded.base;
assert(base === 'llama3' && estimate('x y z', { profile: loaded }).profile === 'llama3', 'loadProfile');

const r = estimateRequest({ model: 'gpt-4o', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
assert(r.api === 'open_ai_chat' && r.max_output === 50, 'estimateRequest');

function describe(c: Check): string {
  switch (c.verdict) {
    case 'sendable':
      return `now (wait ${c.wait_ms})`;
    case 'queueable':
      return `in ${c.wait_ms} ms on ${c.dimension}`;
    case 'never_sendable':
      // Narrowed: limit and excess are numbers here.
      return `never: ${c.excess + c.limit} > ${c.limit}`;
  }
}
const never = check('word '.repeat(3000), { tpm: 1000 }, 0);
assert(never.verdict === 'never_sendable' && never.excess > 0 && describe(never).startsWith('never'), 'check');
const queued = check('word '.repeat(100), { tpm: 1000, remaining_tokens: 0 }, 0);
assert(queued.verdict === 'queueable' && queued.wait_ms > 0, 'queueable');

const h = parseRateLimitHeaders({ 'x-ratelimit-remaining-tokens': '120', 'retry-after': '2' }, 0);
assert(h.tokens.remaining === 120 && h.retry_after_ms === 2000, 'headers');

const refusal: Refusal = classifyResponse({
  status: 429,
  headers: new Headers({ 'retry-after': '3' }),
  body: '{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for gpt-4o on tokens per min (TPM): Limit 8000, Used 7000, Requested 1500."}}',
}, 0);
assert(refusal.kind === 'rate_limit_tokens' && refusal.limit === 8000, 'classifyResponse');
const a: Action = nextAction(refusal, { attempt: 0 }, 0, 0.5);
if (a.type === 'retry') assert(a.after_ms >= 3000, 'retry after Retry-After');
else throw new Error(`expected a retry, got ${a.type}`);
assert(classifyStreamChunk('data: {"choices":[]}\n\n') === null, 'stream');
assert(explainResponse({ status: 413, body: 'too large' }).kind.length > 0, 'explain');

const ledger = new Ledger({ tpm: 1000 }, 0);
const got = ledger.tryReserve(600, {}, 0);
if (got.ok) {
  const settled = got.reservation.settle({ input_tokens: 500, output_tokens: 0 }, 0);
  assert(settled.refunded === 100, 'settle');
} else {
  throw new Error(`refused: ${got.refused}`);
}
const refused = ledger.tryReserve(5000, {}, 0);
if (!refused.ok && refused.refused === 'never') assert(refused.excess === 4000, 'never');
else throw new Error('expected never');
const q = new AdmissionQueue(ledger, { max_work_ms: 60_000 });
assert(q.length === 0, 'queue');

// Misuses the declarations must refuse (type-checked, never called: each would throw at run time).
export function misuses(): number {
  // @ts-expect-error an unknown profile name is still a string, but a number is not a profile
  estimate('x', { profile: 42 });
  // @ts-expect-error profile and model together
  estimate('x', { profile: 'o200k', model: 'gpt-4o' });
  // @ts-expect-error a number is not text
  estimate(5);
  // @ts-expect-error `excess` is null unless never_sendable: narrow on `verdict` first
  const n: number = check('x', { tpm: 10 }).excess;
  // @ts-expect-error actions other than retry have no after_ms
  const m: number = nextAction(refusal).after_ms;
  return n + m;
}
console.log('types ok');

import { guard, type GuardEvent, type NeverSendableBody } from 'llm-preflight';
const seen: GuardEvent[] = [];
const guarded = guard(async () => new Response('{}'), {
  providers: [{ name: 'p', base_url: 'https://p.test', provider: 'open_ai', budget: { tpm: 1000 } }],
  onEvent: (ev) => {
    if (ev.type === 'settled') assert(typeof ev.estimated_tokens === 'number', 'settled event');
    seen.push(ev);
  },
});
assert(guarded.state().in_flight === 0, 'guard state');
const tooBig: NeverSendableBody = { error: { type: 'never_sendable', dimension: 'tokens', limit: 1, needed: 2, excess: 1, message: '' } };
assert(tooBig.error.excess === 1, 'never-sendable body');
let guardRefused = false;
try {
  // @ts-expect-error: a provider needs a base_url
  guard(fetch, { providers: [{ name: 'p', budget: { tpm: 1 } }] });
} catch {
  guardRefused = true;
}
assert(guardRefused, 'a provider without base_url is refused at run time too');
