// The words the page shows never contain NaN, undefined, null or [object ...], whatever value reaches them.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as f from '../src/format.mjs';

const odd = [undefined, null, NaN, Infinity, -Infinity, -1, 0, 0.5, 999, 59_999, 3_600_000, 1e15, '', 'x', {}, [], true];
const bad = /NaN|undefined|null|Infinity|\[object/;

test('formatters turn any value into words', () => {
  for (const v of odd) {
    for (const fn of [f.count, f.duration, f.text, f.content, f.charClass, f.dimension, f.verdictWord, f.refusalKind, f.window]) {
      const s = fn(v);
      assert.equal(typeof s, 'string');
      assert.doesNotMatch(s, bad, `${fn.name}(${String(v)}) = ${s}`);
    }
    const check = { verdict: 'never_sendable', needed: v, limit: v, excess: v, dimension: v, wait_ms: v, input_tokens: v, reserved_output: v, at_low: v, at_high: v };
    for (const verdict of ['sendable', 'queueable', 'never_sendable', v]) {
      assert.doesNotMatch(f.verdictDetail({ ...check, verdict }), bad);
      assert.doesNotMatch(f.verdictBand({ ...check, verdict, holds_across_band: false }), bad);
    }
    for (const type of ['retry', 'fallback', 'shrink', 'give_up', v]) {
      assert.doesNotMatch(f.action({ type, after_ms: v, reason: v, by_tokens: v }), bad);
    }
  }
  assert.equal(f.count(12345), '12,345');
  assert.equal(f.duration(450), '450 ms');
  assert.equal(f.duration(5940), '5.9 s');
  assert.equal(f.duration(125_000), '2 min 5 s');
  assert.equal(f.errorMessage(new TypeError('llm-preflight: tpm must be at least 1')), 'tpm must be at least 1');
});
