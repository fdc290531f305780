// Through a bundler into a page: esbuild, Vite and webpack each bundle a page script that imports the package (the
// `browser` condition), Chromium (headless, via playwright-core) loads it from 127.0.0.1, and its answers equal
// node's.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';
import * as lp from 'llm-preflight';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const esbuild = require('esbuild');
const webpack = require('webpack');
// Vite is ESM-only: resolved the CommonJS way (so NODE_PATH finds the test tools from an installed copy), then imported.
const { build: viteBuild } = await import(pathToFileURL(require.resolve('vite')).href);
const { chromium } = require('playwright-core');
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';

const page = `
import { estimate, check, classifyResponse, nextAction, Ledger, loadProfile, profileJson, guard } from 'llm-preflight';
const out = {};
async function guarded() {
  // guard(fetch) over the browser's own fetch, against this page's server: a 503 from the primary falls back to
  // the backup, whose stream comes through whole; a request no budget holds is answered 413 unsent.
  const events = [];
  const g = guard(fetch, {
    providers: [
      { name: 'primary', base_url: location.origin + '/primary', provider: 'open_ai', budget: { tpm: 10000 } },
      { name: 'backup', base_url: location.origin + '/backup', provider: 'open_ai', budget: { tpm: 10000 } },
    ],
    deadline_ms: 5000,
    random: () => 0,
    onEvent: (e) => events.push(e.type),
  });
  const call = (extra) => g(location.origin + '/primary/v1/chat/completions', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content: 'Say hello.' }], ...extra }),
  });
  const r = await call({ stream: true, stream_options: { include_usage: true } });
  const text = await r.text();
  const n = await call({ max_tokens: 50000 });
  return { status: r.status, text, never: [n.status, (await n.json()).error.type], events, state: g.state() };
}
(async () => {
try {
  out.guard = await guarded();
  out.estimate = estimate(document.getElementById('text').textContent, { profile: 'llama3' });
  out.check = check('word '.repeat(3000), { tpm: 2000 });
  const r = classifyResponse({ status: 429, headers: new Headers({ 'retry-after': '3' }), body: '{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached for gpt-4o in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1."}}' });
  out.refusal = r;
  out.action = nextAction(r, {}, 0, 0.5);
  const l = new Ledger({ tpm: 1000 }, 0);
  out.reserve = l.tryReserve(600, {}, 0).ok && !l.tryReserve(600, {}, 0).ok;
  let errors = 0;
  for (let i = 0; i < 200; i++) { try { estimate(i % 2 ? undefined : 'x', { profile: 'nope' }); } catch (e) { if (e instanceof Error && !(e instanceof WebAssembly.RuntimeError)) errors++; } }
  out.errors = errors;
  out.after = estimate(document.getElementById('text').textContent, { profile: 'llama3' });
  out.loaded = estimate(document.getElementById('text').textContent, { profile: loadProfile(profileJson('gemini')) });
} catch (e) {
  out.failure = String(e && e.stack || e);
}
window.__result = out;
document.getElementById('done').textContent = 'done';
})();
`;

const TEXT = 'Grüße aus Köln! fn main() { let x = vec![1, 2, 3]; } 東京は晴れです。🙂';

/** The package under test, wherever it is installed (the repository's pkg/, or a temporary project's copy). */
const pkgDir = dirname(require.resolve('llm-preflight/package.json'));

/** Loads `bundle` in a page in headless Chromium and checks its answers against node's. */
async function assertPageAgrees(bundle, what) {
  assert.ok(!bundle.includes('tiktoken') && !bundle.includes('exact-'), `${what}: the exact counters stay out of the core bundle`);
  const html = `<!doctype html><meta charset="utf-8"><pre id="text">${TEXT}</pre><p id="done"></p><script type="module" src="/bundle.js"></script>`;
  const server = createServer((req, res) => {
    if (req.url.startsWith('/primary/')) {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"The server is overloaded or not ready yet.","type":"server_error"}}');
    } else if (req.url.startsWith('/backup/')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n');
      setTimeout(() => res.end('data: {"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":1}}\n\ndata: [DONE]\n\n'), 50);
    } else if (req.url === '/bundle.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({
    executablePath, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const tab = await browser.newPage();
    const logs = [];
    tab.on('pageerror', (e) => logs.push(String(e)));
    tab.on('console', (m) => m.type() === 'error' && logs.push(m.text()));
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    await tab.waitForFunction(() => window.__result !== undefined, null, { timeout: 20_000 }).catch(() => {});
    const got = await tab.evaluate(() => window.__result);
    assert.ok(got, `${what}: the page produced nothing: ${logs.join('\n')}`);
    assert.equal(got.failure, undefined, got.failure);
    assert.deepEqual(got.estimate, lp.estimate(TEXT, { profile: 'llama3' }));
    assert.deepEqual(got.after, got.estimate);
    const nodeCheck = lp.check('word '.repeat(3000), { tpm: 2000 });
    assert.equal(got.check.verdict, 'never_sendable');
    assert.deepEqual(got.check, nodeCheck);
    assert.equal(got.refusal.kind, 'rate_limit_requests');
    assert.equal(got.refusal.retry_after_ms, 3000);
    assert.deepEqual(got.action, lp.nextAction(got.refusal, {}, 0, 0.5));
    assert.equal(got.reserve, true);
    assert.equal(got.errors, 200);
    assert.deepEqual(got.loaded, lp.estimate(TEXT, { profile: lp.loadProfile(lp.profileJson('gemini')) }));
    assert.equal(got.guard.status, 200, JSON.stringify(got.guard));
    assert.ok(got.guard.text.startsWith('data: {"choices":[{"delta"') && got.guard.text.endsWith('data: [DONE]\n\n'), got.guard.text);
    assert.ok(got.guard.events.includes('fallback') && got.guard.events.includes('settled'), got.guard.events.join(' '));
    assert.deepEqual(got.guard.never, [413, 'never_sendable']);
    assert.deepEqual(got.guard.state, { held_tokens: 0, in_flight: 0 });
  } finally {
    await browser.close();
    server.close();
  }
}

async function inTmp(fn) {
  const dir = mkdtempSync(join(tmpdir(), 'llm-preflight-browser-'));
  try {
    writeFileSync(join(dir, 'page.mjs'), page);
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('esbuild bundle in headless Chromium gives node\'s answers', () => inTmp(async (dir) => {
  await esbuild.build({
    entryPoints: [join(dir, 'page.mjs')], bundle: true, format: 'esm', platform: 'browser',
    outfile: join(dir, 'bundle.js'), logLevel: 'warning',
    alias: { 'llm-preflight': pkgDir },
    conditions: ['browser'],
  });
  await assertPageAgrees(readFileSync(join(dir, 'bundle.js'), 'utf8'), 'esbuild');
}));

test('Vite build in headless Chromium gives node\'s answers', () => inTmp(async (dir) => {
  await viteBuild({
    configFile: false, root: dir, logLevel: 'warn',
    resolve: { alias: { 'llm-preflight': pkgDir } },
    build: {
      outDir: join(dir, 'out'), emptyOutDir: true,
      lib: { entry: join(dir, 'page.mjs'), formats: ['es'], fileName: () => 'bundle.js' },
    },
  });
  await assertPageAgrees(readFileSync(join(dir, 'out', 'bundle.js'), 'utf8'), 'vite');
}));

test('webpack bundle in headless Chromium gives node\'s answers', () => inTmp(async (dir) => {
  const stats = await new Promise((res, rej) => webpack({
    mode: 'production', target: 'web', context: dir, entry: join(dir, 'page.mjs'),
    output: { path: join(dir, 'out'), filename: 'bundle.js' },
    resolve: { alias: { 'llm-preflight': pkgDir }, conditionNames: ['browser', 'import', 'module', 'default'] },
    performance: { hints: false },
  }, (err, s) => (err ? rej(err) : res(s))));
  assert.ok(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
  await assertPageAgrees(readFileSync(join(dir, 'out', 'bundle.js'), 'utf8'), 'webpack');
}));
