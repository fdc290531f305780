// Deno and Cloudflare's workerd run the installed package and answer what node answers.
//
// Both runtimes come from the package's dev install (npm ships their binaries: `deno`, `workerd`). Deno imports the
// package from node_modules, the way a Deno project with a package.json does, with no permissions, and takes the
// `deno` condition (the web build, no node: modules). workerd gets what a Cloudflare deploy gets: an esbuild bundle with the `workerd`
// condition, the .wasm files as wasm modules (workerd forbids compiling wasm from bytes), served on 127.0.0.1 and
// asked over HTTP. The same probe (every corpus kind, the lazily loaded half of the API, 1,000 bad calls and the
// answers after them) runs in node, and the three results must be equal.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, copyFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, basename } from 'node:path';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import * as lp from 'llm-preflight';
import { corpusSamples } from './helpers.mjs';
import { probe, probeGuard } from './edge/probe.mjs';

const require = createRequire(import.meta.url);
const esbuild = require('esbuild');
const here = dirname(new URL(import.meta.url).pathname);
/** The installed package: the repository's pkg/ or a temporary project's copy. */
const pkgDir = dirname(require.resolve('llm-preflight/package.json'));

/** A runtime's executable from its npm package (the platform package npm installed beside it). */
function binary(candidates, what) {
  for (const c of candidates) {
    try {
      const p = require.resolve(c);
      if (existsSync(p)) return p;
    } catch {
      // try the next
    }
  }
  throw new Error(`${what} is not installed: run \`npm ci\` in pkg/ (it is a dev dependency)`);
}
const deno = () => binary(['@deno/linux-x64-glibc/deno', 'deno/deno'], 'deno');
const workerd = () => binary(['@cloudflare/workerd-linux-64/bin/workerd', 'workerd/bin/workerd'], 'workerd');

/** A temporary project with a package.json whose node_modules holds the package under test. */
function project(what) {
  const dir = mkdtempSync(join(tmpdir(), `llm-preflight-${what}-`));
  writeFileSync(join(dir, 'package.json'), `{"name": "try-${what}", "private": true, "dependencies": {"llm-preflight": "*"}}`);
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(pkgDir, join(dir, 'node_modules', 'llm-preflight'), 'dir');
  return dir;
}

const texts = corpusSamples(1).map((s) => s.text.slice(0, 6000));
const want = { ...probe(lp, texts), guard: await probeGuard(lp) };

test('the probe itself sees every corpus kind and the bad calls fail as errors', () => {
  assert.ok(texts.length >= 25, `only ${texts.length} corpus samples`);
  assert.equal(want.errors, 1000);
  assert.equal(want.check.verdict, 'never_sendable');
  assert.deepEqual(want.after, want.estimates[0]);
  // The guard probe: 413 unsent, a 503 fallen back from, a stream passed through whole, nothing held.
  assert.deepEqual(want.guard.never, [413, 'never_sendable']);
  assert.equal(want.guard.fallback[0], 200);
  assert.equal(want.guard.stream[0], 200);
  assert.ok(want.guard.stream[1].endsWith('data: [DONE]\n\n'));
  assert.ok(want.guard.events.includes('fallback:primary'), want.guard.events.join(' '));
  assert.ok(want.guard.seen.some((u) => u.startsWith('https://backup.test/')));
  assert.deepEqual(want.guard.state, { held_tokens: 0, in_flight: 0 });
});

test('Deno imports the installed package (its web build) and answers as node does', () => {
  const dir = project('deno');
  try {
    copyFileSync(join(here, 'edge', 'probe.mjs'), join(dir, 'probe.mjs'));
    writeFileSync(join(dir, 'texts.json'), JSON.stringify(texts));
    writeFileSync(join(dir, 'main.mjs'), `
import * as lp from 'llm-preflight';
import { probe, probeGuard } from './probe.mjs';
import texts from './texts.json' with { type: 'json' };
const result = { ...probe(lp, texts), guard: await probeGuard(lp) };
console.log(JSON.stringify({ resolved: import.meta.resolve('llm-preflight'), result }));
`);
    // No permissions at all: the web build reads nothing and fetches nothing.
    const out = execFileSync(deno(), ['run', '--no-prompt', '--quiet', join(dir, 'main.mjs')], {
      cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    });
    const got = JSON.parse(out);
    assert.match(got.resolved, /\/js\/index\.web\.mjs$/, 'Deno takes the deno condition');
    assert.deepEqual(got.result, want);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

test('workerd serves a bundled worker that answers as node does', async () => {
  const dir = project('workerd');
  const out = join(dir, 'out');
  mkdirSync(out);
  let server;
  try {
    copyFileSync(join(here, 'edge', 'probe.mjs'), join(dir, 'probe.mjs'));
    writeFileSync(join(dir, 'worker.mjs'), `
import * as lp from 'llm-preflight';
import { probe, probeGuard } from './probe.mjs';
export default {
  async fetch(request) {
    const texts = await request.json();
    return Response.json({ ...probe(lp, texts), guard: await probeGuard(lp) });
  },
};
`);
    // What Cloudflare's tooling does: the workerd condition, and each .wasm import left to the runtime as a module.
    const wasm = [];
    await esbuild.build({
      entryPoints: [join(dir, 'worker.mjs')], bundle: true, format: 'esm', platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'],
      outfile: join(out, 'worker.mjs'), logLevel: 'warning',
      plugins: [{
        name: 'wasm-modules',
        setup(b) {
          b.onResolve({ filter: /\.wasm$/ }, (args) => {
            const file = join(args.resolveDir, args.path);
            const name = `${basename(dirname(file))}-${basename(file)}`;
            copyFileSync(file, join(out, name));
            wasm.push(name);
            return { path: `./${name}`, external: true };
          });
        },
      }],
    });
    assert.ok(wasm.length >= 2, `the workerd build imports its wasm as modules: ${wasm}`);
    const port = await freePort();
    writeFileSync(join(dir, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .w) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const w :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "out/worker.mjs"),
${[...new Set(wasm)].map((n) => `    (name = "${n}", wasm = embed "out/${n}"),`).join('\n')}
  ],
  compatibilityDate = "2026-11-01",
);
`);
    server = spawn(workerd(), ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    server.stdout.on('data', (d) => { log += d; });
    server.stderr.on('data', (d) => { log += d; });
    let got;
    for (let i = 0; i < 100 && got === undefined; i++) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: JSON.stringify(texts) });
        assert.equal(res.status, 200, await res.clone().text());
        got = await res.json();
      } catch (e) {
        if (e instanceof assert.AssertionError) throw e;
        if (server.exitCode !== null) throw new Error(`workerd exited (${server.exitCode}): ${log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    assert.ok(got, `workerd never answered: ${log}`);
    assert.deepEqual(got, want);
  } finally {
    if (server) server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
