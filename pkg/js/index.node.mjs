// Node (import): the same instance as require() gets, so both module systems share one ledger state. Loaded with
// createRequire rather than `import ... from './index.node.cjs'`: importing CommonJS from ESM makes node parse the
// file for its export names first (cjs-module-lexer), a cost on every cold start that buys nothing here.
import { createRequire } from 'node:module';

const api = createRequire(import.meta.url)('./index.node.cjs');

export const {
  estimate, Estimator, loadProfile, profileJson, estimateRequest, check, parseRateLimitHeaders, classifyResponse,
  classifyStreamChunk,
  explainResponse, nextAction, profiles, Ledger, Reservation, AdmissionQueue, guard,
} = api;
export default api;
