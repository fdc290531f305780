// The JavaScript face of llm-preflight: thin wrappers that check argument types, convert them (strings, numbers,
// JSON text, header pairs) and parse the JSON results. Every decision is made in Rust (pkg/wasm/src/ and the
// llm-preflight crate). Time defaults to Date.now() and randomness to Math.random() here, at the boundary only.
//
// Two WebAssembly modules: the estimate module (`estimate`, `Estimator`, `profiles`) is instantiated at import;
// the lazy module (checks, headers, ledger, queue, request bodies, responses, refusals, retries) is instantiated
// synchronously on the first call that needs it, through `loadLazy()`.

/** Strings longer than this are fed to the estimator in pieces, so wasm memory stays bounded. */
const CHUNK = 1 << 20;

function fail(message) {
  throw new TypeError(`llm-preflight: ${message}`);
}

function typeName(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v).slice(0, 40)}`;
}

function str(v, what) {
  if (typeof v !== 'string') fail(`${what} must be a string, got ${typeName(v)}`);
  return v;
}

function optStr(v, what) {
  return v === undefined || v === null ? undefined : str(v, what);
}

function num(v, what) {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${what} must be a finite number, got ${typeName(v)}`);
  return v;
}

function isPlainObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function options(v, what, allowed) {
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) fail(`${what} must be an object, got ${typeName(v)}`);
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k)) fail(`${what}: unknown option ${JSON.stringify(k)}; the options are ${allowed.join(', ')}`);
  }
  return v;
}

function time(now) {
  return now === undefined ? Date.now() : num(now, 'now');
}

/** JSON text for Rust; non-finite numbers, bigints and cycles become clear errors instead of silent nulls. */
function json(v, what) {
  try {
    return JSON.stringify(v, (k, x) => {
      if (typeof x === 'number' && !Number.isFinite(x)) fail(`${what}: ${k || 'value'} must be a finite number, got ${x}`);
      if (typeof x === 'bigint') fail(`${what}: ${k || 'value'} must be a number, not a bigint`);
      return x;
    });
  } catch (e) {
    if (e instanceof TypeError && e.message.startsWith('llm-preflight:')) throw e;
    fail(`${what} cannot be converted to JSON: ${e.message}`);
  }
}

/** Headers as `[name, value, name, value, ...]` from a fetch Headers, a Map, pairs, a plain object or
 * IncomingHttpHeaders. */
function headerPairs(h, what = 'headers') {
  if (h === undefined || h === null) return [];
  const out = [];
  const push = (n, v) => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) {
      for (const x of v) push(n, x);
      return;
    }
    if (typeof v === 'number' && Number.isFinite(v)) v = String(v);
    if (typeof v !== 'string') fail(`${what}: header ${JSON.stringify(String(n))} must be a string, a number or an array of them`);
    out.push(str(n, `${what}: a header name`), v);
  };
  if (Array.isArray(h)) {
    for (const p of h) {
      if (!Array.isArray(p) || p.length !== 2) fail(`${what}: an array of headers must hold [name, value] pairs`);
      push(p[0], p[1]);
    }
  } else if (typeof h === 'object' && typeof h.forEach === 'function' && typeof h.get === 'function') {
    h.forEach((v, n) => push(n, v)); // fetch Headers or Map: forEach(value, name)
  } else if (isPlainObject(h)) {
    for (const n of Object.keys(h)) push(n, h[n]);
  } else {
    fail(`${what} must be a Headers, a Map, an object of names to values or [name, value] pairs, got ${typeName(h)}`);
  }
  return out;
}

/** A cost for the ledger: a token count, an estimate, a request estimate, or `{low, tokens, high}`. */
function toCost(c, maxOutput) {
  let cost;
  if (typeof c === 'number') {
    num(c, 'cost');
    cost = { low: c, tokens: c, high: c, max_output: null, incomplete: false };
  } else if (isPlainObject(c) && isPlainObject(c.estimate)) {
    const e = c.estimate;
    cost = { low: e.low, tokens: e.tokens, high: e.high, max_output: c.max_output ?? null, incomplete: !!c.incomplete };
  } else if (isPlainObject(c) && 'tokens' in c) {
    const t = c.tokens;
    cost = { low: c.low ?? t, tokens: t, high: c.high ?? t, max_output: c.max_output ?? null, incomplete: !!c.incomplete };
  } else {
    fail(`cost must be a token count, an estimate, a request estimate or {low, tokens, high}, got ${typeName(c)}`);
  }
  for (const k of ['low', 'tokens', 'high']) num(cost[k], `cost ${k}`);
  if (maxOutput !== undefined) cost.max_output = num(maxOutput, 'max_output');
  else if (cost.max_output !== null) num(cost.max_output, 'cost max_output');
  return costArray(cost);
}

/** `[low, tokens, high, max_output (NaN: none), incomplete]`, as the core module takes a cost. */
function costArray(c) {
  return new Float64Array([c.low, c.tokens, c.high, c.max_output ?? NaN, c.incomplete ? 1 : 0]);
}

/** An optional number option: undefined when absent. */
function optNum(v, what) {
  return v === undefined || v === null ? undefined : num(v, what);
}

const LIMIT_OPTIONS = ['tpm', 'rpm', 'itpm', 'otpm', 'tpd', 'rpd', 'context_window'];

/** A budget's limits in the core module's order; NaN for none. */
function limits(o) {
  return new Float64Array(LIMIT_OPTIONS.map((k) => optNum(o[k], k) ?? NaN));
}

/** `w`: the estimate module's exports; `loadLazy()`: the lazy module's exports, instantiated on first call. */
export function makeApi(w, loadLazy) {
  let lm;
  const j = () => (lm ??= loadLazy());

  /** Parses an estimate module result, putting back the floats it passes beside the text (`{"\u0000": i}`). */
  function parse(text) {
    if (!text.includes('"\\u0000"')) return JSON.parse(text);
    const floats = w.takeFloats();
    return JSON.parse(text, (k, v) => (v !== null && typeof v === 'object' && '\u0000' in v ? floats[v['\u0000']] : v));
  }

  /** A profile file loaded with `loadProfile`: its wasm handle, kept out of reach of callers. */
  const handles = new WeakMap();

  class LoadedProfile {
    constructor(h) {
      handles.set(this, h);
      this.name = h.name();
      this.base = h.base();
      Object.freeze(this);
    }
    /** The profile file, as JSON text. */
    toJson() {
      return handle(this).toJson();
    }
  }

  function handle(p) {
    const h = handles.get(p);
    if (!h) fail('profile must be a profile name or a profile returned by loadProfile()');
    return h;
  }

  /** Reads a profile file (JSON text or the parsed object): one fitted by `llm-preflight calibrate`, or a shipped
   * one from `profileJson(name)`. Bad files throw, naming the field. */
  function loadProfile(file) {
    const text = typeof file === 'string' ? file : isPlainObject(file) ? json(file, 'profile file') : fail(`profile file must be JSON text or an object, got ${typeName(file)}`);
    return new LoadedProfile(j().LoadedProfile.fromJson(text));
  }

  /** A shipped profile as a profile file (JSON text). */
  function profileJson(name) {
    return j().profileJson(str(name, 'profile'));
  }

  /** `{loaded}` for a loaded profile, else `{profile, model}` names. */
  function which(o) {
    if (o.profile instanceof LoadedProfile) {
      if (o.model !== undefined && o.model !== null) fail('give either `profile` or `model`, not both');
      return { loaded: handle(o.profile) };
    }
    return { profile: optStr(o.profile, 'profile'), model: optStr(o.model, 'model') };
  }

  /** Feeds `text` to a wasm estimator `e` in pieces of at most CHUNK code units, never splitting a surrogate pair. */
  function feed(e, text) {
    for (let i = 0; i < text.length; ) {
      let j = Math.min(i + CHUNK, text.length);
      const c = text.charCodeAt(j - 1);
      if (j < text.length && c >= 0xd800 && c <= 0xdbff) j -= 1; // keep a surrogate pair together
      e.update(text.slice(i, j));
      i = j;
    }
  }

  function estimate(text, opts) {
    str(text, 'text');
    const { loaded, profile, model } = which(options(opts, 'estimate options', ['profile', 'model']));
    if (loaded) {
      if (text.length <= CHUNK) return JSON.parse(loaded.estimate(text));
      const e = loaded.estimator();
      try {
        feed(e, text);
        return JSON.parse(e.finish());
      } finally {
        e.free();
      }
    }
    if (text.length <= CHUNK) return parse(w.estimate(text, profile, model));
    const e = new w.Estimator(profile, model);
    try {
      feed(e, text);
      return parse(e.finish());
    } finally {
      e.free();
    }
  }

  class Estimator {
    #e;
    #loaded;
    constructor(opts) {
      const { loaded, profile, model } = which(options(opts, 'Estimator options', ['profile', 'model']));
      this.#loaded = !!loaded;
      this.#e = loaded ? loaded.estimator() : new w.Estimator(profile, model);
    }
    update(chunk) {
      if (chunk instanceof Uint8Array) {
        for (let i = 0; i < chunk.length; i += CHUNK) this.#e.updateBytes(chunk.subarray(i, i + CHUNK));
      } else {
        str(chunk, 'chunk');
        feed(this.#e, chunk);
      }
      return this;
    }
    finish() {
      return this.#loaded ? JSON.parse(this.#e.finish()) : parse(this.#e.finish());
    }
    free() {
      this.#e.free();
    }
  }

  function body(b, what) {
    if (typeof b === 'string') return b;
    if (!isPlainObject(b)) fail(`${what} must be a JSON string or an object, got ${typeName(b)}`);
    return json(b, what);
  }

  function estimateRequest(requestBody, opts) {
    const o = options(opts, 'estimateRequest options', ['profile', 'model', 'api']);
    const text = body(requestBody, 'request body');
    const { loaded, profile, model } = which(o);
    const api = optStr(o.api, 'api');
    if (loaded) return JSON.parse(loaded.estimateRequest(text, json({ api }, 'estimateRequest options')));
    const ro = { profile, model, api };
    return JSON.parse(j().estimateRequest(text, json(ro, 'estimateRequest options')));
  }

  const CHECK_OPTIONS = [
    'provider', 'tpm', 'rpm', 'itpm', 'otpm', 'tpd', 'rpd', 'context_window', 'profile', 'model', 'api',
    'remaining_tokens', 'remaining_requests', 'reset_tokens', 'reset_requests', 'headers', 'max_tokens', 'policy',
    'request',
  ];

  function check(input, opts, now) {
    const o = { ...options(opts, 'check options', CHECK_OPTIONS) };
    const isRequest = typeof input !== 'string' || o.request === true;
    if (o.request !== undefined && typeof o.request !== 'boolean') fail('request must be true or false');
    delete o.request;
    const text = isRequest ? body(input, 'request body') : input;
    const t = time(now);
    const { loaded, profile, model } = which(o);
    const api = optStr(o.api, 'api');
    let cost = new Float64Array(0);
    let rc;
    if (isRequest) {
      // The request's cost from the JSON module; the verdict from the core module.
      const ro = { profile, model, api };
      rc = JSON.parse(loaded ? loaded.requestCost(text, json({ api }, 'check options')) : j().requestCost(text, json(ro, 'check options')));
      cost = costArray(rc);
    } else if (loaded) {
      // A loaded profile prices the text here; the verdict is the same core check.
      const e = JSON.parse(loaded.estimate(text));
      rc = { estimate: e };
      cost = costArray({ ...e, max_output: null, incomplete: false });
    }
    const out = JSON.parse(j().check(
      rc ? '' : text, cost, optStr(o.provider, 'provider'), limits(o), profile, model,
      optNum(o.remaining_tokens, 'remaining_tokens'), optNum(o.remaining_requests, 'remaining_requests'),
      optStr(o.reset_tokens, 'reset_tokens'), optStr(o.reset_requests, 'reset_requests'), headerPairs(o.headers),
      optNum(o.max_tokens, 'max_tokens'), optStr(o.policy, 'policy'), t,
    ));
    if (rc) out.estimate = rc.estimate;
    // What of a request could not be measured (a URL, a file id), and what each media part was priced at.
    out.unpriced = rc?.unpriced ?? [];
    out.media = rc?.media ?? [];
    return out;
  }

  function parseRateLimitHeaders(headers, now) {
    const h = headerPairs(headers);
    return JSON.parse(j().parseRateLimitHeaders(h, time(now)));
  }

  function response(r, what, withBody) {
    const o = options(r, what, withBody ? ['status', 'headers', 'body'] : ['status', 'headers']);
    const status = o.status === undefined || o.status === null ? null : num(o.status, 'status');
    const h = headerPairs(o.headers);
    const out = { status, headers: [] };
    for (let i = 0; i < h.length; i += 2) out.headers.push([h[i], h[i + 1]]);
    if (withBody && o.body !== undefined && o.body !== null) out.body = body(o.body, 'body');
    return json(out, what);
  }

  function classifyResponse(r, now) {
    if (!isPlainObject(r)) fail(`classifyResponse takes {status, headers, body}, got ${typeName(r)}`);
    return JSON.parse(j().classifyResponse(response(r, 'response', true), time(now)));
  }

  function classifyStreamChunk(chunk, r, now) {
    str(chunk, 'chunk');
    return JSON.parse(j().classifyStreamChunk(chunk, response(r, 'response', false), time(now)));
  }

  function explainResponse(input) {
    return JSON.parse(j().explainResponse(body(input, 'explainResponse input')));
  }

  const RETRY_OPTIONS = [
    'attempt', 'base_ms', 'cap_ms', 'max_attempts', 'max_overloaded_attempts', 'deadline_ms', 'idempotency_key',
    'side_effects_ran',
  ];

  function nextAction(refusal, opts, now, random) {
    if (!isPlainObject(refusal)) fail(`refusal must be what classifyResponse returned, got ${typeName(refusal)}`);
    const o = options(opts, 'nextAction options', RETRY_OPTIONS);
    const r = random === undefined ? Math.random() : num(random, 'random');
    return JSON.parse(j().nextAction(json(refusal, 'refusal'), json(o, 'nextAction options'), time(now), r));
  }

  function profiles() {
    return parse(w.profiles());
  }

  function policyOf(opts, what) {
    const o = options(opts, what, ['policy', 'max_output']);
    return [optStr(o.policy, 'policy'), o.max_output];
  }

  class Reservation {
    #r;
    constructor(r) {
      this.#r = r;
    }
    /** The check it was admitted on. */
    get check() {
      return JSON.parse(this.#r.check());
    }
    held(dimension) {
      return this.#r.held(str(dimension, 'dimension'));
    }
    /** Whether it still holds capacity (not yet settled or released). */
    get active() {
      return this.#r.held_now;
    }
    settle(usage, now) {
      const t = time(now);
      let u;
      const keys = isPlainObject(usage) ? Object.keys(usage) : [];
      if (keys.length === 2 && typeof usage.input_tokens === 'number' && typeof usage.output_tokens === 'number') {
        u = [usage.input_tokens, usage.output_tokens];
      } else {
        // A response body with a usage block (or anything else): read by the JSON module, which says what is wrong.
        if (!this.#r.held_now) this.#r.check(); // throws "already settled or released"
        u = j().usageOf(body(usage, 'usage'));
      }
      return JSON.parse(this.#r.settle(u[0], u[1], t));
    }
    release() {
      this.#r.release();
    }
  }

  const BUDGET_OPTIONS = ['provider', 'tpm', 'rpm', 'itpm', 'otpm', 'tpd', 'rpd', 'context_window'];

  class Ledger {
    #l;
    constructor(budget, now) {
      const b = options(budget, 'budget', BUDGET_OPTIONS);
      const provider = optStr(b.provider, 'provider');
      const l = limits(b);
      this.#l = new (j().Ledger)(provider, l, time(now));
    }
    /** @internal */
    get _inner() {
      return this.#l;
    }
    check(cost, opts, now) {
      const [policy, maxOutput] = policyOf(opts, 'check options');
      return JSON.parse(this.#l.check(toCost(cost, maxOutput), policy, time(now)));
    }
    tryReserve(cost, opts, now) {
      const [policy, maxOutput] = policyOf(opts, 'tryReserve options');
      const out = this.#l.tryReserve(toCost(cost, maxOutput), policy, time(now));
      try {
        const r = out.takeReservation();
        const v = JSON.parse(out.json());
        return r ? { ok: true, reservation: new Reservation(r), check: v } : { ok: false, ...v };
      } finally {
        out.free();
      }
    }
    observe(headers, now) {
      return JSON.parse(this.#l.observe(headerPairs(headers), time(now)));
    }
    get inFlight() {
      return this.#l.inFlight();
    }
    held(dimension) {
      return this.#l.held(str(dimension, 'dimension'));
    }
    available(dimension, now) {
      return this.#l.available(str(dimension, 'dimension'), time(now)) ?? null;
    }
    snapshot() {
      return JSON.parse(this.#l.snapshot());
    }
  }

  class AdmissionQueue {
    #q;
    #items = new Map();
    #next = 1;
    constructor(ledger, opts) {
      if (!(ledger instanceof Ledger)) fail('AdmissionQueue needs a Ledger');
      const o = options(opts, 'AdmissionQueue options', ['policy', 'max_work_ms']);
      this.#q = new (j().AdmissionQueue)(ledger._inner, optStr(o.policy, 'policy'), num(o.max_work_ms, 'max_work_ms'));
    }
    get length() {
      return this.#q.length;
    }
    offer(item, cost, deadline, now) {
      const c = toCost(cost);
      const t = time(now);
      const d = num(deadline, 'deadline');
      const id = this.#next++;
      if (this.#next > 0xffffffff) this.#next = 1;
      const out = this.#q.offer(id, c, d, t);
      try {
        const v = JSON.parse(out.json());
        if (v.offer === 'admitted') return { ...v, item, reservation: new Reservation(out.takeReservation()) };
        if (v.offer === 'queued') this.#items.set(id, item);
        else v.item = item;
        return v;
      } finally {
        out.free();
      }
    }
    poll(now) {
      const out = this.#q.poll(time(now));
      try {
        const v = JSON.parse(out.json());
        const admitted = v.admitted.map((id) => {
          const item = this.#items.get(id);
          this.#items.delete(id);
          return { item, reservation: new Reservation(out.takeReservation()) };
        });
        const shed = v.shed.map(({ id, ...s }) => {
          const item = this.#items.get(id);
          this.#items.delete(id);
          return { item, ...s };
        });
        return { admitted, shed, wake_at_ms: v.wake_at_ms };
      } finally {
        out.free();
      }
    }
  }


  const GUARD_OPTIONS = ['providers', 'policy', 'deadline_ms', 'max_queue_ms', 'onEvent', 'now', 'random'];
  const PROVIDER_OPTIONS = ['name', 'base_url', 'provider', 'api', 'model', 'budget'];
  const GUARD_BUDGET = BUDGET_OPTIONS.filter((k) => k !== 'provider');

  /** The call's events as the contract names them: `{type, id, provider, at_ms, ...}`. */
  function guardEvent(id, at, e, names) {
    const { event, target, ...rest } = e;
    const out = { type: event, id, at_ms: at };
    if (target !== undefined) out.provider = names[target];
    switch (event) {
      case 'retry':
        out.after_ms = Math.max(0, rest.at_ms - at);
        out.at = rest.at_ms;
        delete rest.at_ms;
        break;
      case 'fell_back':
        out.type = 'fallback';
        out.provider = names[rest.from];
        delete rest.from;
        break;
      default:
    }
    return Object.assign(out, rest);
  }

  function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
      const t = setTimeout(() => {
        signal?.removeEventListener?.('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      function onAbort() {
        clearTimeout(t);
        reject(signal.reason ?? new Error('aborted'));
      }
      signal?.addEventListener?.('abort', onAbort, { once: true });
    });
  }

  /**
   * `fetch` with the guarded call around it: requests to a provider's `base_url` are estimated, admitted against
   * the providers' budgets (queued, shed or answered 413 when they can never fit), sent, retried no earlier than
   * Retry-After, fallen back to the next provider of the same API shape, and settled at the usage the provider
   * reports. Every decision is the core's `Call`; this only moves bytes and time. Other URLs go to `fetchFn`
   * untouched.
   */
  function guard(fetchFn, opts) {
    if (typeof fetchFn !== 'function') fail(`guard needs a fetch function, got ${typeName(fetchFn)}`);
    const o = options(opts, 'guard options', GUARD_OPTIONS);
    if (!Array.isArray(o.providers) || o.providers.length === 0) fail('guard options: providers must be a non-empty array');
    const ps = o.providers.map((p, i) => {
      const what = `providers[${i}]`;
      const q = options(p, what, PROVIDER_OPTIONS);
      const base = str(q.base_url, `${what}.base_url`).replace(/\/+$/, '');
      if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(base)) fail(`${what}.base_url must be an absolute URL, got ${JSON.stringify(base)}`);
      return {
        name: str(q.name, `${what}.name`),
        base,
        provider: optStr(q.provider, `${what}.provider`) ?? 'open_ai_compatible',
        api: optStr(q.api, `${what}.api`) ?? '',
        model: optStr(q.model, `${what}.model`) ?? '',
        limits: limits(options(q.budget, `${what}.budget`, GUARD_BUDGET)),
      };
    });
    const names = ps.map((p) => p.name);
    const allLimits = new Float64Array(ps.length * 7);
    ps.forEach((p, i) => allLimits.set(p.limits, i * 7));
    const deadlineMs = optNum(o.deadline_ms, 'deadline_ms') ?? 30000;
    const maxQueueMs = optNum(o.max_queue_ms, 'max_queue_ms') ?? 30000;
    const onEvent = o.onEvent === undefined ? undefined : o.onEvent;
    if (onEvent !== undefined && typeof onEvent !== 'function') fail('guard options: onEvent must be a function');
    const clock = o.now ?? Date.now;
    const rand = o.random ?? Math.random;
    if (typeof clock !== 'function' || typeof rand !== 'function') fail('guard options: now and random must be functions');
    const inner = new (j().Guard)(names, ps.map((p) => p.provider), ps.map((p) => p.api), ps.map((p) => p.model),
      allLimits, optStr(o.policy, 'policy'), maxQueueMs);
    let nextId = 1;

    async function guarded(input, init) {
      const isRequest = typeof Request !== 'undefined' && input instanceof Request;
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : isRequest ? input.url : undefined;
      const base = url === undefined ? -1 : ps.findIndex((p) => url === p.base || url.startsWith(`${p.base}/`) || url.startsWith(`${p.base}?`));
      const method = String(init?.method ?? (isRequest ? input.method : 'GET')).toUpperCase();
      if (base < 0 || method !== 'POST') return fetchFn(input, init);
      let body = init && 'body' in init ? init.body : isRequest ? await input.clone().text() : undefined;
      if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) body = new TextDecoder().decode(body);
      if (typeof body !== 'string') return fetchFn(input, init);
      const path = url.slice(ps[base].base.length);
      const signal = init?.signal ?? (isRequest ? input.signal : undefined);
      const headers = new Headers(init?.headers ?? (isRequest ? input.headers : undefined));
      headers.delete('content-length');
      const rest = { ...(init ?? {}) };
      delete rest.body;
      delete rest.headers;
      delete rest.signal;
      const id = nextId++;
      const t0 = Math.floor(clock());
      // Guarded against the provider the URL names; fallbacks go to the providers after it.
      const call = inner.start(body, base, t0 + deadlineMs, t0);
      const now = () => Math.max(t0, Math.floor(clock()));
      const emit = () => {
        const evs = JSON.parse(call.takeEvents());
        if (onEvent) for (const [at, e] of evs) onEvent(guardEvent(id, at, e, names));
      };
      let handedOver = false;
      try {
        for (let i = 0; i < 10000; i++) {
          const t = now();
          const step = JSON.parse(call.poll(t));
          emit();
          if (step.step === 'send') {
            let res;
            try {
              res = await fetchFn(ps[step.target].base + path, { ...rest, method: 'POST', headers, body: step.body, signal });
            } catch (e) {
              if (signal?.aborted) throw e;
              call.onTransportError(now());
              emit();
              continue;
            }
            const d = call.onResponse(res.status, headerPairs(res.headers), now());
            emit();
            if (d === 'pass_through') {
              handedOver = true;
              return watch(res, call, emit, now, rand);
            }
            const buf = new Uint8Array(await res.arrayBuffer());
            call.onBody(buf, now());
            call.onEnd(now(), rand());
            emit();
          } else if (step.step === 'wait') {
            await sleep(step.until_ms - t, signal);
          } else if (step.step === 'answer') {
            return new Response(step.body, { status: step.status, headers: step.headers });
          } else if (step.step === 'done') {
            return new Response(JSON.stringify({ error: { type: 'guard', message: step.reason } }), {
              status: step.status ?? 502,
              headers: { 'content-type': 'application/json' },
            });
          } else {
            fail(`guard: unexpected step ${step.step}`);
          }
        }
        fail('guard: the call did not settle');
      } catch (e) {
        call.onClientGone(now());
        emit();
        throw e;
      } finally {
        if (!handedOver) call.free();
      }
    }

    /** The provider's answer, passed to the caller as it comes; the call reads each chunk too. */
    function watch(res, call, emit, now, rand) {
      const out = new Headers(res.headers);
      out.delete('content-length');
      out.delete('content-encoding');
      const finish = () => {
        call.onEnd(now(), rand());
        call.poll(now());
        emit();
        call.free();
      };
      if (!res.body) {
        finish();
        return new Response(null, { status: res.status, statusText: res.statusText, headers: out });
      }
      const reader = res.body.getReader();
      let over = false;
      const stream = new ReadableStream({
        async pull(controller) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              over = true;
              finish();
              controller.close();
              return;
            }
            call.onBody(value, now());
            controller.enqueue(value);
          } catch (e) {
            if (!over) {
              over = true;
              call.onTransportError(now());
              call.poll(now());
              emit();
              call.free();
            }
            controller.error(e);
          }
        },
        cancel(reason) {
          if (!over) {
            over = true;
            call.onClientGone(now());
            emit();
            call.free();
          }
          return reader.cancel(reason);
        },
      });
      return new Response(stream, { status: res.status, statusText: res.statusText, headers: out });
    }

    Object.defineProperty(guarded, 'state', {
      value: () => ({ held_tokens: inner.heldTokens(), in_flight: inner.inFlight() }),
    });
    return guarded;
  }

  return {
    estimate,
    Estimator,
    loadProfile,
    profileJson,
    estimateRequest,
    check,
    parseRateLimitHeaders,
    classifyResponse,
    classifyStreamChunk,
    explainResponse,
    nextAction,
    profiles,
    Ledger,
    Reservation,
    AdmissionQueue,
    guard,
  };
}
