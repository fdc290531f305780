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
