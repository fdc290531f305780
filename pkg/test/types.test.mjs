// The TypeScript declarations (index.d.ts) as a TypeScript user meets them: test/types/usage.mts is compiled in strict
// mode against the package (its misuses must stay errors), then the emitted JavaScript runs against the real package.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const here = dirname(fileURLToPath(import.meta.url));

test('the declarations compile a strict user program, refuse its misuses, and match the values', () => {
  // Compiled beside the tests, so `llm-preflight` resolves to the package under test (the repository's pkg/ by
  // self-reference, or the installed tarball in a temporary project).
  const dir = mkdtempSync(join(here, 'types', 'tmp-'));
  try {
    cpSync(join(here, 'types', 'usage.mts'), join(dir, 'usage.mts'));
    const cfg = JSON.parse(readFileSync(join(here, 'types', 'tsconfig.json'), 'utf8'));
    const options = ts.convertCompilerOptionsFromJson({ ...cfg.compilerOptions, outDir: join(dir, 'out'), rootDir: dir }, dir).options;
    const program = ts.createProgram([join(dir, 'usage.mts')], options);
    const emitted = program.emit();
    const diagnostics = ts.getPreEmitDiagnostics(program).concat(emitted.diagnostics);
    const text = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');
    assert.equal(diagnostics.length, 0, text);
    assert.ok(!emitted.emitSkipped);
    const out = execFileSync(process.execPath, [join(dir, 'out', 'usage.mjs')], { encoding: 'utf8' });
    assert.match(out, /^types ok/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
