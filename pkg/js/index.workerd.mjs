// Edge workers that forbid compiling wasm from bytes (Cloudflare workerd): the .wasm is imported as a module.
import * as w from '../dist/web/llm_preflight_wasm.js';
import module from '../dist/web/llm_preflight_wasm_bg.wasm';
import { makeApi } from './api.mjs';

w.initSync({ module });
const api = makeApi(w);

export const {
  estimate, Estimator, estimateRequest, check, parseRateLimitHeaders, classifyResponse, classifyStreamChunk,
  explainResponse, nextAction, profiles, Ledger, Reservation, AdmissionQueue,
} = api;
export default api;
