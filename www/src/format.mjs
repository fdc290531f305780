// Turning the library's values into words. No numbers are computed here: each function formats a value it is
// given, and anything that is not a finite number (null, undefined, NaN) becomes an em dash, so the page can never
// show `NaN` or `undefined`.

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export const DASH = '—';

export function isNum(v) {
  return typeof v === 'number' && Number.isFinite(v);
}

/** 12,345 */
export function count(v) {
  return isNum(v) ? whole.format(v) : DASH;
}

/** A wait in milliseconds in human units: 450 ms, 3.2 s, 2 min 5 s, 1 h 3 min. */
export function duration(ms) {
  if (!isNum(ms)) return DASH;
  if (ms < 1000) return `${whole.format(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${oneDecimal.format(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) {
    const rest = Math.round(s - m * 60);
    return rest ? `${m} min ${rest} s` : `${m} min`;
  }
  const h = Math.floor(m / 60);
  const rm = m - h * 60;
  return rm ? `${whole.format(h)} h ${rm} min` : `${whole.format(h)} h`;
}

/** A string field, or the dash. */
export function text(v) {
  return typeof v === 'string' && v !== '' ? v : DASH;
}

const CONTENT = {
  empty: 'empty',
  prose: 'prose',
  cyrillic: 'Cyrillic text',
  arabic: 'Arabic text',
  indic: 'Indic script',
  cjk: 'Chinese / Japanese',
  korean: 'Korean',
  'other-script': 'other script',
  code: 'code',
  json: 'JSON',
  markup: 'markup',
  latex: 'LaTeX',
  tabular: 'tables',
  numeric: 'numbers',
  encoded: 'encoded data',
  emoji: 'emoji',
  repetitive: 'repetitive text',
};

export function content(kind) {
  return CONTENT[kind] ?? text(kind);
}

const CLASS = {
  letters: 'letters',
  cjk: 'CJK characters',
  digits: 'digits',
  punctuation: 'punctuation',
  whitespace: 'whitespace',
  symbols: 'symbols & emoji',
  repeats: 'repeated runs',
  control: 'control characters',
};

export function charClass(c) {
  return CLASS[c] ?? text(c);
}

const DIMENSION = {
  tokens: 'tokens per minute',
  input_tokens: 'input tokens per minute',
  output_tokens: 'output tokens per minute',
  requests: 'requests per minute',
  tokens_per_day: 'tokens per day',
  requests_per_day: 'requests per day',
  context: 'the context window',
};

export function dimension(d) {
  return DIMENSION[d] ?? text(d);
}

const VERDICT = {
  sendable: 'Sendable now',
  queueable: 'Queueable',
  never_sendable: 'Never sendable',
};

export function verdictWord(v) {
  return VERDICT[v] ?? DASH;
}

/** The verdict of a check, in one sentence. */
export function verdictDetail(c) {
  if (!c) return DASH;
  if (c.verdict === 'sendable') return `It fits now: ${count(c.input_tokens)} prompt tokens at this policy, ${count(c.reserved_output)} reserved for output.`;
  if (c.verdict === 'queueable') {
    return `It fits the limit but not what is left of it now: wait ${duration(c.wait_ms)} for ${dimension(c.dimension)} to refill.`;
  }
  if (c.verdict === 'never_sendable') {
    return `It needs ${count(c.needed)} but ${dimension(c.dimension)} is ${count(c.limit)}: cut ${count(c.excess)} tokens, or raise the limit.`;
  }
  return DASH;
}

/** Whether the verdict holds across the p5–p95 band. */
export function verdictBand(c) {
  if (!c) return DASH;
  if (c.holds_across_band) return 'The same at both ends of the p5–p95 band.';
  return `At p5 it is ${(VERDICT[c.at_low] ?? DASH).toLowerCase()}, at p95 ${(VERDICT[c.at_high] ?? DASH).toLowerCase()}: the verdict flips inside the band.`;
}

const KIND = {
  rate_limit_requests: 'Rate limited: too many requests in the window.',
  rate_limit_tokens: 'Rate limited: too many tokens in the window.',
  rate_limit_other: 'Rate limited (the provider did not say which limit).',
  too_large: 'Too large: this request is bigger than the limit allows at all.',
  quota_exhausted: 'Quota or credit exhausted: waiting a minute will not help.',
  overloaded: 'The provider is overloaded: not your limit, their capacity.',
  context_length: 'Too long for the model: prompt plus output exceed the context window.',
  other: 'Not a rate-limit or capacity refusal.',
};

export function refusalKind(k) {
  return KIND[k] ?? DASH;
}

const FALLBACK = {
  deadline_too_short: 'the wait would pass your deadline',
  wait_exceeds_cap: 'the wait asked for is longer than the retry cap',
  attempts_exhausted: 'the retries are used up',
  repeated_overload: 'the provider stayed overloaded',
  retry_budget_exhausted: 'the retry budget is spent',
  circuit_open: 'the circuit breaker is open',
};

const GIVE_UP = {
  quota_exhausted: 'the quota is exhausted; fix billing or wait for the quota period',
  not_retryable: 'the same request will fail the same way',
  unsafe_to_resend: 'it may already have had effects, so resending is not safe',
};

/** What to do next, in plain words. */
export function action(a) {
  if (!a || typeof a !== 'object') return DASH;
  switch (a.type) {
    case 'retry':
      return `Next: retry after ${duration(a.after_ms)}.`;
    case 'fallback':
      return `Next: fall back to another model or key: ${FALLBACK[a.reason] ?? text(a.reason)}.`;
    case 'shrink':
      return isNum(a.by_tokens) ? `Next: shrink the request by at least ${count(a.by_tokens)} tokens.` : 'Next: shrink the request.';
    case 'give_up':
      return `Next: give up: ${GIVE_UP[a.reason] ?? text(a.reason)}.`;
    default:
      return DASH;
  }
}

const WINDOW = { minute: 'per minute', day: 'per day', month: 'per month' };

export function window(w) {
  return WINDOW[w] ?? DASH;
}

/** The message of a thrown error, without the library's prefix. */
export function errorMessage(e) {
  const m = e && typeof e.message === 'string' ? e.message : String(e);
  return m.replace(/^llm-preflight: /, '');
}

const MEDIA_KIND = { image: 'Image', document: 'PDF', audio: 'Audio' };

/** One media part of a request as a line: what it is, its size, pages or length, and its tokens (or their band). */
export function mediaPart(m) {
  const what = [MEDIA_KIND[m.kind] ?? text(m.kind)];
  if (isNum(m.width) && isNum(m.height)) what.push(`${count(m.width)} × ${count(m.height)}`);
  if (isNum(m.pages)) what.push(`${count(m.pages)} ${m.pages === 1 ? 'page' : 'pages'}`);
  if (isNum(m.duration_ms)) what.push(`${(m.duration_ms / 1000).toFixed(1)} s`);
  if (m.format) what.push(m.format);
  if (!m.measured) what.push(`by ${m.source}, not measured`);
  const tokens = m.low === m.high ? `${count(m.tokens)} tokens` : `${count(m.low)}–${count(m.high)} tokens (${count(m.tokens)} at the median)`;
  return `${what.join(', ')}: ${tokens} · ${m.pointer}`;
}
