// Edge workers that forbid compiling wasm from bytes (Cloudflare workerd): the .wasm files are imported as
// modules; the lazy module is instantiated on its first use.
import * as w from '../dist/web/llm_preflight_wasm.js';
import module from '../dist/web/llm_preflight_wasm_bg.wasm';
import * as lw from '../dist/lazy-web/llm_preflight_wasm.js';
import lazyModule from '../dist/lazy-web/llm_preflight_wasm_bg.wasm';
import { makeApi } from './api.mjs';

w.initSync({ module });
const api = makeApi(w, () => {
  lw.initSync({ module: lazyModule });
  return lw;
});

export const {
  estimate, Estimator, loadProfile, profileJson, estimateRequest, check, parseRateLimitHeaders, classifyResponse,
  classifyStreamChunk,
  explainResponse, nextAction, profiles, Ledger, Reservation, AdmissionQueue, guard,
} = api;
export default api;
