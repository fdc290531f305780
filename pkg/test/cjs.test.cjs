// The API through `require`, and the same instance as `import` gets.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const lp = require('llm-preflight');

test('require gives the whole API', () => {
  for (const name of ['estimate', 'Estimator', 'estimateRequest', 'check', 'parseRateLimitHeaders', 'classifyResponse',
    'classifyStreamChunk', 'explainResponse', 'nextAction', 'profiles', 'Ledger', 'AdmissionQueue']) {
    assert.equal(typeof lp[name], 'function', name);
  }
  const e = lp.estimate('def f(x):\n    return x * 2\n', { model: 'gpt-4.1' });
  assert.equal(e.profile, 'o200k');
  assert.ok(e.tokens > 5 && e.tokens < 20, JSON.stringify(e));
});

test('import and require share one module instance', async () => {
  const esm = await import('llm-preflight');
  assert.equal(esm.estimate, lp.estimate);
  assert.deepEqual(esm.estimate('same text'), lp.estimate('same text'));
});

test('the lazy module is loaded only when a function needs it', () => {
  const lazyLoaded = () => Object.keys(require.cache).some((k) => k.includes('lazy-node'));
  // Import and estimates run on the estimate module alone.
  lp.estimate('hello');
  new lp.Estimator({ model: 'gpt-4o' }).update('hello').finish();
  assert.ok(lp.profiles().length > 5);
  assert.equal(lazyLoaded(), false, 'estimates loaded the lazy module');
  // The first call that needs it loads it synchronously and answers at once.
  assert.equal(lp.check('hello', { tpm: 1000 }).verdict, 'sendable');
  assert.equal(lazyLoaded(), true);
  assert.equal(lp.estimateRequest({ messages: [{ role: 'user', content: 'hi' }] }).messages, 1);
});
