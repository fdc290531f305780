// Node (import): the same instance as require() gets, so both module systems share one ledger state.
import api from './index.node.cjs';

export const {
  estimate, Estimator, loadProfile, profileJson, estimateRequest, check, parseRateLimitHeaders, classifyResponse,
  classifyStreamChunk,
  explainResponse, nextAction, profiles, Ledger, Reservation, AdmissionQueue,
} = api;
export default api;
