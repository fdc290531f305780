// Browsers, bundlers, Deno: the wasm-bindgen web builds, instantiated synchronously from inlined bytes. The lazy
// module's bytes are decoded and compiled on its first use.
import * as w from '../dist/web/llm_preflight_wasm.js';
import { wasmBytes } from '../dist/web/wasm-bytes.mjs';
import * as lw from '../dist/lazy-web/llm_preflight_wasm.js';
import { wasmBytes as lazyBytes } from '../dist/lazy-web/wasm-bytes.mjs';
import { makeApi } from './api.mjs';

w.initSync({ module: wasmBytes() });
const api = makeApi(w, () => {
  lw.initSync({ module: lazyBytes() });
  return lw;
});

export const {
  estimate, Estimator, loadProfile, profileJson, estimateRequest, check, parseRateLimitHeaders, classifyResponse,
  classifyStreamChunk,
  explainResponse, nextAction, profiles, Ledger, Reservation, AdmissionQueue, guard,
} = api;
export default api;
