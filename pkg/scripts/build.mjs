// `npm run build`: compiles the binding crates to wasm32, generates the JS glue with wasm-bindgen, shrinks the
// binaries with wasm-opt from npm's binaryen (never Debian's: its wasm-opt 108 produces modules that throw on
// load), and writes the CommonJS build of js/api.mjs and the inlined bytes for browsers and edge runtimes.
//
//   node scripts/build.mjs            core package (release, size-optimized)
//   node scripts/build.mjs --debug    core with console_error_panic_hook, unoptimized
//   node scripts/build.mjs --exact    also the exact counters (megabytes; slow to compile)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, rmSync, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const root = dirname(pkg);
const debug = process.argv.includes('--debug');
const exact = process.argv.includes('--exact');
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });

const target = process.env.CARGO_TARGET_DIR || join(root, 'target');
// Two cargo profiles for the wasm build only, defined here with --config so the root Cargo.toml's native profiles are
// untouched (each keeps its own directory under target/, so neither rebuild undoes the other). The estimate module
// is compiled for speed (`wasm-speed`, opt-level 2: in node it estimates 1.8 times as fast as at opt-level "z", and
// opt-level 3 would not fit the budget below); the lazy module, which parses a request's JSON and headers once,
// and the exact counters for size (`wasm-size`).
const profileConfig = (name, optLevel) => [
  '--config', `profile.${name}.inherits="release"`,
  '--config', `profile.${name}.opt-level=${optLevel}`,
  '--config', `profile.${name}.lto=true`,
  '--config', `profile.${name}.codegen-units=1`,
  '--config', `profile.${name}.panic="abort"`,
  '--config', `profile.${name}.debug=false`,
];
const PROFILES = { 'wasm-speed': '2', 'wasm-size': '"z"' };
// wasm-opt must know the features rustc's wasm32 target emits (the names section is dropped by -Oz). The producers
// and target_features custom sections (toolchain versions, features for a linker) are dropped too: nothing reads
// them at run time.
const wasmFeatures = [
  '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals',
  '--enable-reference-types', '--enable-multivalue',
];

/** The estimate module, instantiated at every import, must stay within this many bytes gzipped (issue 5's budget). */
const ESTIMATE_BUDGET = 35 * 1024;

function build(crate, lib, outName, targets, { features = [], budget = Infinity, profile = 'wasm-size' } = {}) {
  const args = ['build', '-p', crate, '--target', 'wasm32-unknown-unknown'];
  if (!debug) args.push('--profile', profile, ...profileConfig(profile, PROFILES[profile]));
  if (features.length) args.push('--features', features.join(','));
  run('cargo', args);
  const wasm = join(target, 'wasm32-unknown-unknown', debug ? 'debug' : profile, `${lib}.wasm`);
  for (const t of targets) {
    const out = join(pkg, 'dist', `${outName}${t === 'nodejs' ? 'node' : 'web'}`);
    rmSync(out, { recursive: true, force: true });
    run('wasm-bindgen', [wasm, '--target', t, '--out-dir', out, ...(debug ? ['--debug', '--keep-debug'] : [])]);
    const bg = join(out, `${lib}_bg.wasm`);
    if (!debug) {
      const before = statSync(bg).size;
      run(join(pkg, 'node_modules', '.bin', 'wasm-opt'), ['-Oz', ...wasmFeatures, '--strip-producers', '--strip-target-features', bg, '-o', bg]);
      const bytes = readFileSync(bg);
      const gz = gzipSync(bytes, { level: 9 }).length;
      console.log(`${outName}${t}: ${before} -> ${bytes.length} bytes after wasm-opt -Oz, ${gz} gzipped`);
      if (gz > budget) throw new Error(`${outName}${t}: ${gz} bytes gzipped is over the budget of ${budget}`);
    }
  }
}

mkdirSync(join(pkg, 'dist'), { recursive: true });
const debugFeatures = debug ? ['debug-panics'] : [];
// The estimate module (estimate, Estimator, profiles: instantiated at import, no serde_json), then the lazy module
// from the same crate with `--features lazy` (checks, headers, ledger, queue, request bodies, responses, refusals,
// retries), which the wrappers instantiate on first use.
build('llm-preflight-wasm', 'llm_preflight_wasm', '', ['nodejs', 'web'],
  { features: debugFeatures, budget: ESTIMATE_BUDGET, profile: 'wasm-speed' });
build('llm-preflight-wasm', 'llm_preflight_wasm', 'lazy-', ['nodejs', 'web'], { features: [...debugFeatures, 'lazy'] });

// Browsers, bundlers, Deno and edge runtimes get the modules' bytes inlined, so nothing needs fetching or an
// asset pipeline and instantiation is synchronous (the lazy module's bytes are decoded and compiled on first use).
for (const dir of ['web', 'lazy-web']) {
  const bytes = readFileSync(join(pkg, 'dist', dir, 'llm_preflight_wasm_bg.wasm'));
  writeFileSync(
    join(pkg, 'dist', dir, 'wasm-bytes.mjs'),
    `// Generated by scripts/build.mjs: the ${dir === 'web' ? 'estimate' : 'lazy'} module's .wasm, base64.\n` +
      `const b64 = ${JSON.stringify(bytes.toString('base64'))};\n` +
      'export function wasmBytes() {\n' +
      "  if (typeof Buffer === 'function') return Buffer.from(b64, 'base64');\n" +
      '  const s = atob(b64);\n' +
      '  const out = new Uint8Array(s.length);\n' +
      '  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);\n' +
      '  return out;\n' +
      '}\n',
  );
}

run(join(pkg, 'node_modules', '.bin', 'esbuild'), [
  join(pkg, 'js', 'api.mjs'), '--format=cjs', '--platform=neutral', `--outfile=${join(pkg, 'dist', 'api.cjs')}`, '--log-level=warning',
]);

if (exact || existsSync(join(pkg, 'dist', 'exact-node'))) {
  if (exact) build('llm-preflight-wasm-exact', 'llm_preflight_wasm_exact', 'exact-', ['nodejs', 'web']);
}
