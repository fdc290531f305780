// llm-preflight/exact for Node (require): exact o200k / cl100k counts. Megabytes: loaded only when required.
'use strict';
let w;
const counters = new Map();
function count(text, profile = 'o200k') {
  if (typeof text !== 'string') throw new TypeError(`llm-preflight/exact: text must be a string, got ${typeof text}`);
  if (typeof profile !== 'string') throw new TypeError('llm-preflight/exact: profile must be "o200k" or "cl100k"');
  w ??= require('../dist/exact-node/llm_preflight_wasm_exact.js');
  let c = counters.get(profile);
  if (!c) counters.set(profile, (c = new w.ExactCounter(profile)));
  return c.count(text);
}
module.exports = { count };
