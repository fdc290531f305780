// llm-preflight/exact for browsers, bundlers and Deno: fetched and compiled asynchronously (several megabytes).
import init, * as w from '../dist/exact-web/llm_preflight_wasm_exact.js';

let ready;
const counters = new Map();
/** Loads the module; `count` may be called once this resolves. */
export function load(input) {
  ready ??= init(input ? { module_or_path: input } : undefined);
  return ready;
}
export async function count(text, profile = 'o200k') {
  if (typeof text !== 'string') throw new TypeError(`llm-preflight/exact: text must be a string, got ${typeof text}`);
  await load();
  let c = counters.get(profile);
  if (!c) counters.set(profile, (c = new w.ExactCounter(profile)));
  return c.count(text);
}
