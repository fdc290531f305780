#!/usr/bin/env node
// How many of the common Han tier's ideographs (the 2,515 that o200k holds as one token: src/scan/han_tier.rs's
// HAN_COMMON) each vendor profile holds as one token, and how many of the other CJK Unified Ideographs (every
// seventh code point from U+4E00 to U+9FA5 outside the tier). A character's cost is what it adds after "a".
//
//   node tier-share.mjs
import { readFileSync } from "node:fs";
import { PROFILES, loadProfile } from "./tokenizers.mjs";

const source = readFileSync(new URL("../../src/scan/han_tier.rs", import.meta.url), "utf8");
const from = source.indexOf("HAN_COMMON");
const words = source
  .slice(source.indexOf("= [", from) + 3, source.indexOf("];", from))
  .match(/0x[0-9a-fA-F_]+/g)
  .map((w) => BigInt(w.replaceAll("_", "")));
const common = new Set();
words.forEach((w, i) => {
  for (let b = 0n; b < 64n; b++) if ((w >> b) & 1n) common.add(0x4e00 + i * 64 + Number(b));
});
const others = [];
for (let u = 0x4e00; u <= 0x9fa5; u += 7) if (!common.has(u)) others.push(u);

console.log("profile\tcommon tier in one token\tothers in one token");
for (const name of PROFILES) {
  const tok = await loadProfile(name);
  const base = tok.ids("a").length;
  const one = (cps) => cps.filter((u) => tok.ids("a" + String.fromCodePoint(u)).length - base === 1).length;
  console.log(`${name}\t${one([...common])} of ${common.size}\t${one(others)} of ${others.length}`);
}
