// Browsers, bundlers, Deno: the wasm-bindgen web build, instantiated synchronously from inlined bytes.
import * as w from '../dist/web/llm_preflight_wasm.js';
import { wasmBytes } from '../dist/web/wasm-bytes.mjs';
import { makeApi } from './api.mjs';

w.initSync({ module: wasmBytes() });
const api = makeApi(w);

export const {
  estimate, Estimator, estimateRequest, check, parseRateLimitHeaders, classifyResponse, classifyStreamChunk,
  explainResponse, nextAction, profiles, Ledger, Reservation, AdmissionQueue,
} = api;
export default api;
