// Bundles the page with the package's browser build into dist/: index.html, style.css, app.js, and the exact
// counter as a separate chunk loaded only on request. Nothing in dist/ refers to another origin.
//
//   node build.mjs              build
//   node build.mjs --if-stale   build only when an input is newer than the last build
//
// `llm-preflight` resolves to ../pkg through its package.json `exports` (the browser entries), so the page uses
// exactly what a bundler user of the package gets; it needs `npm run build` in ../pkg first.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const www = dirname(fileURLToPath(import.meta.url));
const pkg = join(www, '..', 'pkg');
const dist = join(www, 'dist');
const stamp = join(dist, '.built');

/** The browser file of one `exports` entry of the package (`.` or `./exact`), or null when it is not built. */
export function entry(sub) {
  const exp = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).exports?.[sub];
  if (!exp) return null;
  const pick = (e) => (typeof e === 'string' ? e : e && (pick(e.browser) || pick(e.import) || pick(e.default)));
  const file = pick(exp);
  return file ? join(pkg, file) : null;
}

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let m = s.mtimeMs;
  for (const n of readdirSync(path)) m = Math.max(m, newest(join(path, n)));
  return m;
}

const inputs = [
  join(www, 'src'), join(www, 'index.html'), join(www, 'style.css'), join(www, 'build.mjs'),
  join(pkg, 'package.json'), join(pkg, 'js'), join(pkg, 'dist', 'web'), join(pkg, 'dist', 'exact-web'),
];

export function stale() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return inputs.some((p) => newest(p) > built);
}

export async function buildPage() {
  const core = entry('.');
  if (!core || !existsSync(core) || !existsSync(join(pkg, 'dist', 'web'))) {
    throw new Error(`the package is not built (${core ? relative(www, core) : 'no browser entry'}): run \`npm run build\` in pkg/`);
  }
  // The exact counter's wasm is fetched at run time (megabytes): it is copied beside the page as exact.wasm.
  const exactFile = entry('./exact');
  const exactWasm = join(pkg, 'dist', 'exact-web', 'llm_preflight_wasm_exact_bg.wasm');
  const exactBuilt = exactFile && existsSync(exactFile) && existsSync(exactWasm);
  const resolvePkg = {
    name: 'llm-preflight',
    setup(b) {
      b.onResolve({ filter: /^llm-preflight$/ }, () => ({ path: core }));
      b.onResolve({ filter: /^llm-preflight\/exact$/ }, () => ({
        path: exactBuilt ? exactFile : join(www, 'src', 'exact-missing.mjs'),
      }));
    },
  };
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  await build({
    entryPoints: { app: join(www, 'src', 'main.mjs') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    outdir: dist,
    chunkNames: 'chunks/[name]-[hash]',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [resolvePkg],
  });
  copyFileSync(join(www, 'index.html'), join(dist, 'index.html'));
  copyFileSync(join(www, 'style.css'), join(dist, 'style.css'));
  if (exactBuilt) copyFileSync(exactWasm, join(dist, 'exact.wasm'));
  writeFileSync(stamp, `${new Date().toISOString()}\nexact: ${exactBuilt ? 'yes' : 'no'}\n`);
  return { exact: !!exactBuilt };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale') && !stale()) {
    console.log('www/dist is up to date');
  } else {
    const { exact } = await buildPage();
    const size = readdirSync(dist).map((n) => `${n} ${statSync(join(dist, n)).isDirectory() ? '(dir)' : `${statSync(join(dist, n)).size} B`}`);
    console.log(`built www/dist: ${size.join(', ')}${exact ? '' : ' (no exact counter: pkg has not built it)'}`);
  }
}
