// Shared by the tests: where the repository's corpus and CLI are, also when run from an installed copy.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root: LLM_PREFLIGHT_REPO when tests run from a temporary project, else two levels up. */
export const repo = process.env.LLM_PREFLIGHT_REPO || resolve(here, '..', '..');
export const cli = process.env.LLM_PREFLIGHT_CLI || join(repo, 'target', 'debug', 'llm-preflight');

/** The first `perDir` files of every corpus folder: every content kind the estimator knows. */
export function corpusSamples(perDir = 2) {
  const dir = join(repo, 'corpus');
  const out = [];
  for (const d of readdirSync(dir).sort()) {
    const sub = join(dir, d);
    let files;
    try {
      files = readdirSync(sub).filter((f) => /\.(txt|md|json|js|py|rs|c|html|csv|tex|toml|yaml|log|b64|hex)$/.test(f)).sort();
    } catch {
      continue;
    }
    for (const f of files.slice(0, perDir)) out.push({ name: `${d}/${f}`, path: join(sub, f), text: readFileSync(join(sub, f), 'utf8') });
  }
  return out;
}

export function requireCli() {
  if (!existsSync(cli)) throw new Error(`the CLI is not built at ${cli}: run \`cargo build\` first`);
  return cli;
}
