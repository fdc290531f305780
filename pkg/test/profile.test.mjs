// Profile files in JavaScript: the twin of `Profile::from_json`, and the same numbers as the CLI's --profile-file.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimate, Estimator, estimateRequest, check, loadProfile, profileJson } from 'llm-preflight';
import { corpusSamples, requireCli } from './helpers.mjs';

const cli = requireCli();
const samples = corpusSamples(1);
const tmp = mkdtempSync(join(tmpdir(), 'llm-preflight-profile-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

/** A shipped profile with every rate scaled and a new name: a stand-in for one fitted by `calibrate`. */
function heavier(factor) {
  const f = JSON.parse(profileJson('llama3'));
  f.name = 'acme-llama';
  for (const k of Object.keys(f.rates)) f.rates[k] *= factor;
  return f;
}

test('a shipped profile exported and loaded back prices exactly as the shipped one', () => {
  for (const name of ['o200k', 'cl100k', 'gemini', 'claude-legacy']) {
    const p = loadProfile(profileJson(name));
    assert.equal(p.name, name);
    assert.equal(p.base, name);
    for (const s of samples.slice(0, 12)) assert.deepEqual(estimate(s.text, { profile: p }), estimate(s.text, { profile: name }), s.name);
    assert.deepEqual(JSON.parse(p.toJson()).rates, JSON.parse(profileJson(name)).rates);
  }
});

test('a loaded profile is used by estimate, Estimator, estimateRequest and check, and named in results', () => {
  const p = loadProfile(heavier(1.5)); // the parsed object works as well as the text
  const text = samples.find((s) => s.name.startsWith('prose-en')).text;
  const mine = estimate(text, { profile: p });
  const shipped = estimate(text, { profile: 'llama3' });
  assert.equal(mine.profile, 'acme-llama');
  assert.ok(mine.tokens > shipped.tokens * 1.4 && mine.tokens < shipped.tokens * 1.6, `${mine.tokens} vs ${shipped.tokens}`);
  // Long strings go through the streaming path; the result is the same.
  const long = text.repeat(Math.ceil(2_500_000 / text.length));
  const whole = estimate(long, { profile: p });
  const s = new Estimator({ profile: p });
  for (let i = 0; i < long.length; i += 100_003) s.update(long.slice(i, i + 100_003));
  assert.deepEqual(s.finish(), whole);
  s.free();
  const body = { model: 'whatever', max_tokens: 100, messages: [{ role: 'user', content: text }] };
  const r = estimateRequest(body, { profile: p });
  assert.equal(r.estimate.profile, 'acme-llama');
  assert.ok(r.estimate.tokens > estimateRequest(body, { profile: 'llama3' }).estimate.tokens);
  const c = check(text, { tpm: mine.tokens - 1, profile: p }, 0);
  assert.equal(c.verdict, 'never_sendable');
  assert.equal(c.estimate.profile, 'acme-llama');
  assert.equal(check(text, { tpm: mine.tokens - 1, profile: 'llama3' }, 0).verdict, 'sendable');
  assert.equal(check(body, { tpm: 100_000, profile: p }, 0).estimate.profile, 'acme-llama');
  assert.throws(() => estimate(text, { profile: p, model: 'gpt-4o' }), /not both/);
});

test('JavaScript and the CLI agree on a profile file', () => {
  const path = join(tmp, 'acme.json');
  writeFileSync(path, JSON.stringify(heavier(1.2)));
  const p = loadProfile(heavier(1.2));
  const out = execFileSync(cli, ['estimate', '--profile-file', path, ...samples.map((s) => s.path)], { encoding: 'utf8', maxBuffer: 64 << 20 })
    .trim().split('\n');
  assert.equal(out.length, samples.length);
  out.forEach((line, i) => {
    const { source, ...want } = JSON.parse(line);
    const { mix, ...got } = estimate(samples[i].text, { profile: p });
    assert.deepEqual(got, want, samples[i].name);
  });
});

test('bad profile files throw naming the field, and the instance keeps working', () => {
  const good = heavier(1);
  const bad = [
    ['{', /not JSON/],
    [{ ...good, format: 'x/2' }, /format/],
    [{ ...good, rates: { ...good.rates, latin_runs: -1 } }, /latin_runs/],
    [{ ...good, rates: { ...good.rates, made_up: 1 } }, /made_up/],
    [{ ...good, bands: { ...good.bands, prose: [0, 1] } }, /bands\/prose/],
    [{ ...good, high: { ...good.high, letters: 0.5 } }, /high\/letters/],
    [{ ...good, base: 'bert' }, /bert/],
    [42, /JSON text or an object/],
    [null, /JSON text or an object/],
  ];
  for (let round = 0; round < 50; round++) {
    for (const [file, msg] of bad) assert.throws(() => loadProfile(file), msg);
    assert.throws(() => estimate('x', { profile: { name: 'fake', base: 'o200k' } }), /profile/);
  }
  assert.equal(estimate('hello world', { profile: loadProfile(good) }).profile, 'acme-llama');
  assert.equal(estimate('hello world').profile, 'o200k');
});
