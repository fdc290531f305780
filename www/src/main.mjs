// The page's wiring: read the form, call the library (the wasm build of the Rust core), hand the results to draw.mjs.
// Nothing is decided here: estimates, bands, verdicts, waits and classifications all come from the library.

import * as lp from 'llm-preflight';
import * as draw from './draw.mjs';
import { errorMessage, count, isNum } from './format.mjs';

const $ = (id) => document.getElementById(id);
const el = {
  prompt: $('prompt'),
  file: $('file'),
  clear: $('clear'),
  status: $('input-status'),
  profile: $('profile'),
  profileFile: $('profile-file'),
  profileStatus: $('profile-status'),
  provider: $('provider'),
  tpm: $('tpm'),
  rpm: $('rpm'),
  remaining: $('remaining'),
  maxTokens: $('max-tokens'),
  policy: $('policy'),
  mix: $('mix'),
  profiles: $('profiles'),
  exactBtn: $('exact-btn'),
  exactOut: $('exact-out'),
  errStatus: $('err-status'),
  errStream: $('err-stream'),
  errHeaders: $('err-headers'),
  errBody: $('err-body'),
};

/** Typing waits this long for a pause; settings apply at once. */
const DEBOUNCE_MS = 60;
const EXACT_PROFILES = ['o200k', 'cl100k'];
/** Below this many UTF-16 units the whole profile table is computed at once. */
const SYNC_TABLE_CHARS = 100_000;

const PROFILES = lp.profiles();
for (const p of PROFILES) {
  const o = document.createElement('option');
  o.value = p.profile;
  o.textContent = `${p.profile}: ${p.description}`;
  el.profile.append(o);
}
el.profile.value = 'o200k';

/** Profiles loaded from files, by their option's value (`file:<name>`). */
const loadedProfiles = new Map();
/** What to price with: a shipped profile's name, or a loaded profile. */
const pricing = () => loadedProfiles.get(el.profile.value) ?? el.profile.value;

const mode = () => document.querySelector('input[name="mode"]:checked').value;

/** A number field: undefined when empty; the library says what is wrong with a bad value. */
function field(input, name) {
  if (input.validity.badInput) throw new Error(`${name} must be a number`);
  const v = input.value.trim();
  return v === '' ? undefined : Number(v);
}

function budget() {
  const o = { provider: el.provider.value, policy: el.policy.value };
  const add = (k, v) => {
    if (v !== undefined) o[k] = v;
  };
  add('tpm', field(el.tpm, 'Tokens per minute'));
  add('rpm', field(el.rpm, 'Requests per minute'));
  add('remaining_tokens', field(el.remaining, 'Tokens remaining'));
  add('max_tokens', field(el.maxTokens, 'max_tokens'));
  return o;
}

// ---------------------------------------------------------------------------------------------------------------
// The estimate panel.

let last = null; // what was drawn last: {text, profile, est, check, limit, remaining}
let exact = { on: false, module: null, value: null, key: null, busy: false };
let updates = 0;

/** Any failure the library did not report is still shown, not thrown (and logged, so tests catch it). */
function guarded(fn) {
  return (...args) => {
    try {
      return fn(...args);
    } catch (e) {
      console.error(e);
      draw.error(`Something went wrong: ${errorMessage(e)}`);
    }
  };
}

const update = guarded(function update() {
  const t0 = performance.now();
  const text = el.prompt.value;
  const pr = pricing();
  // The tokenizer family: a loaded profile's base (for the exact count and the table's highlighted row).
  const profile = typeof pr === 'string' ? pr : pr.base;
  const isRequest = mode() === 'request';
  let est = null;
  let req = null;
  let check = null;
  let problem = null;
  let opts = null;

  try {
    opts = budget();
  } catch (e) {
    problem = errorMessage(e);
  }
  if (isRequest && text.trim() === '') {
    problem = 'Paste a request body: the JSON you would POST to the provider (OpenAI chat or responses, Anthropic messages, Gemini generateContent).';
  } else {
    try {
      if (isRequest) {
        req = lp.estimateRequest(text, { profile: pr });
        est = req.estimate;
      }
      if (opts) {
        check = lp.check(text, { ...opts, profile: pr, request: isRequest });
        if (!est) est = check.estimate;
      }
    } catch (e) {
      problem = errorMessage(e);
    }
    if (!est && !isRequest) {
      try {
        est = lp.estimate(text, { profile: pr });
      } catch (e) {
        problem = problem ?? errorMessage(e);
      }
    }
  }

  const limit = opts?.tpm;
  const remaining = opts?.remaining_tokens;
  draw.error(problem);
  draw.figures(est);
  draw.requestFacts(req);
  const empty = text.trim() === '';
  draw.verdict(empty ? null : check, empty ? 'Type, paste or drop a prompt to see whether it can be sent.' : '');
  draw.mix(el.mix, est?.mix, est);
  if (exact.key !== exactKey(text, profile)) exact.value = null;
  last = { text, profile, est, check, limit, remaining };
  draw.band({ est, check, limit, remaining, exact: exact.value });

  updates += 1;
  document.body.dataset.updates = String(updates);
  document.body.dataset.updateMs = (performance.now() - t0).toFixed(1);
  // The table shows the shipped profiles; a loaded profile's estimate is not any of its rows.
  table.start({ text, profile: typeof pr === 'string' ? pr : null, isRequest, est, failed: isRequest && !req });
  if (exact.on) scheduleExact();
});

/**
 * The table of every profile. Each profile is another pass over the text, so for a long text they are computed one
 * per task after the main numbers are drawn (typing stays responsive); a new update cancels the rest.
 */
const table = {
  job: 0,
  rows: [],
  start({ text, profile, isRequest, est, failed }) {
    const job = ++this.job;
    const one = (p, description) => {
      if (p === profile && est) return { profile: p, description, estimate: est };
      if (failed) return { profile: p, description, estimate: null, error: '—' };
      try {
        const e = isRequest ? lp.estimateRequest(text, { profile: p }).estimate : lp.estimate(text, { profile: p });
        return { profile: p, description, estimate: e };
      } catch {
        return { profile: p, description, estimate: null, error: '—' };
      }
    };
    const pending = (p, description) => ({ profile: p, description, estimate: null, error: '…' });
    const t0 = performance.now();
    document.body.dataset.tableDone = 'false';
    if (text.length < SYNC_TABLE_CHARS) {
      this.rows = PROFILES.map((p) => one(p.profile, p.description));
      this.done(profile, t0);
      return;
    }
    this.rows = PROFILES.map((p) => (p.profile === profile ? one(p.profile, p.description) : pending(p.profile, p.description)));
    draw.profiles(el.profiles, this.rows, profile, pickProfile);
    let i = 0;
    const step = guarded(() => {
      if (job !== this.job) return;
      while (i < PROFILES.length && PROFILES[i].profile === profile) i++;
      if (i >= PROFILES.length) {
        this.done(profile, t0);
        return;
      }
      this.rows[i] = one(PROFILES[i].profile, PROFILES[i].description);
      i++;
      draw.profiles(el.profiles, this.rows, profile, pickProfile);
      setTimeout(step, 0);
    });
    setTimeout(step, 0);
  },
  done(profile, t0) {
    draw.profiles(el.profiles, this.rows, profile, pickProfile);
    document.body.dataset.tableMs = (performance.now() - t0).toFixed(1);
    document.body.dataset.tableDone = 'true';
  },
};

function pickProfile(p) {
  el.profile.value = p;
  update();
}

let timer = 0;
function soon() {
  clearTimeout(timer);
  timer = setTimeout(update, DEBOUNCE_MS);
}

el.prompt.addEventListener('input', soon);
for (const x of [el.profile, el.provider, el.policy]) x.addEventListener('change', update);
for (const x of [el.tpm, el.rpm, el.remaining, el.maxTokens]) x.addEventListener('input', soon);
for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener('change', update);

el.clear.addEventListener('click', () => {
  el.prompt.value = '';
  draw.setText(el.status, '');
  update();
  el.prompt.focus();
});

async function loadFile(file) {
  if (!file) return;
  try {
    el.prompt.value = await file.text();
    draw.setText(el.status, `Loaded ${file.name}.`);
  } catch (e) {
    draw.setText(el.status, `Could not read ${file.name}: ${errorMessage(e)}`);
  }
  update();
}

el.file.addEventListener('change', () => loadFile(el.file.files[0]));

el.profileFile.addEventListener('change', async () => {
  const file = el.profileFile.files[0];
  if (!file) return;
  try {
    const p = lp.loadProfile(await file.text());
    const value = `file:${p.name}`;
    let o = [...el.profile.options].find((x) => x.value === value);
    if (!o) {
      o = document.createElement('option');
      o.value = value;
      el.profile.append(o);
    }
    o.textContent = `${p.name}: from ${file.name} (base ${p.base})`;
    loadedProfiles.set(value, p);
    el.profile.value = value;
    draw.setText(el.profileStatus, `Loaded profile ${p.name} (base ${p.base}) from ${file.name}; estimates now use its rates and bands.`);
  } catch (e) {
    draw.setText(el.profileStatus, `Could not load ${file.name} as a profile: ${errorMessage(e)}`);
  }
  el.profileFile.value = '';
  update();
});
// A file dropped anywhere on the page goes into the prompt (instead of the browser opening it).
document.addEventListener('dragover', (e) => e.preventDefault());
document.addEventListener('drop', (e) => {
  const file = e.dataTransfer?.files?.[0];
  if (!file) return;
  e.preventDefault();
  loadFile(file);
});

// ---------------------------------------------------------------------------------------------------------------
// The exact count, loaded on request: a separate chunk with the OpenAI vocabularies.

function exactKey(text, profile) {
  return `${profile}\u0000${text.length}\u0000${text}`;
}

function exactValue(r) {
  if (isNum(r)) return r;
  if (r && isNum(r.tokens)) return r.tokens;
  return null;
}

let exactTimer = 0;
function scheduleExact() {
  clearTimeout(exactTimer);
  exactTimer = setTimeout(runExact, 0);
}

async function runExact() {
  if (!last) return;
  const { text, profile } = last;
  if (!EXACT_PROFILES.includes(profile)) {
    draw.setText(el.exactOut, `Exact counts exist for o200k and cl100k only; ${profile} has the estimate alone.`);
    el.exactOut.dataset.value = '';
    return;
  }
  const key = exactKey(text, profile);
  if (exact.key === key && exact.value !== null) return;
  try {
    if (!exact.module) {
      draw.setText(el.exactOut, 'Loading the exact counter…');
      exact.busy = true;
      const m = await import('llm-preflight/exact');
      await m.load(new URL('exact.wasm', document.baseURI));
      exact.module = m;
    }
    const value = exactValue(await exact.module.count(text, profile));
    if (last.text !== text || last.profile !== profile) return; // the text moved on; its own run follows
    exact.key = key;
    exact.value = value;
    draw.setText(el.exactOut, `Exact ${profile} count: ${count(value)} tokens (the marker on the bar).`);
    el.exactOut.dataset.value = isNum(value) ? String(value) : '';
    draw.band({ ...last, exact: value });
  } catch (e) {
    exact.on = false;
    el.exactBtn.setAttribute('aria-pressed', 'false');
    draw.setText(el.exactOut, `The exact counter is not available: ${errorMessage(e)}`);
  } finally {
    exact.busy = false;
  }
}

el.exactBtn.setAttribute('aria-pressed', 'false');
el.exactBtn.addEventListener('click', () => {
  exact.on = !exact.on;
  el.exactBtn.setAttribute('aria-pressed', String(exact.on));
  if (exact.on) runExact();
  else {
    exact.value = null;
    exact.key = null;
    el.exactOut.dataset.value = '';
    draw.setText(el.exactOut, 'Exact count off.');
    if (last) draw.band({ ...last, exact: null });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// The error-response panel.

/** `name: value` lines as header pairs; other lines (a status line, blanks) are left out. */
function headerPairs(s) {
  const out = [];
  for (const line of s.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) out.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
  }
  return out;
}

const classify = guarded(function classify() {
  const body = el.errBody.value;
  const headers = headerPairs(el.errHeaders.value);
  let status;
  try {
    status = field(el.errStatus, 'Status');
  } catch (e) {
    draw.refusal(null, null, errorMessage(e));
    return;
  }
  if (status === undefined && headers.length === 0 && body.trim() === '') {
    draw.refusal(null, null);
    return;
  }
  try {
    const now = Date.now();
    const response = { status: status ?? null, headers };
    let r;
    if (el.errStream.checked) {
      r = lp.classifyStreamChunk(body, response, now);
      if (r === null) {
        draw.refusal(null, null, 'No error frame in this stream.');
        return;
      }
    } else {
      r = lp.classifyResponse({ ...response, body }, now);
    }
    // The draw at 0.5 is the middle of the jitter, as `llm-preflight explain-response` uses.
    const next = lp.nextAction(r, {}, now, 0.5);
    draw.refusal(r, next);
  } catch (e) {
    draw.refusal(null, null, errorMessage(e));
  }
});

let errTimer = 0;
for (const x of [el.errStatus, el.errHeaders, el.errBody]) {
  x.addEventListener('input', () => {
    clearTimeout(errTimer);
    errTimer = setTimeout(classify, DEBOUNCE_MS);
  });
}
el.errStream.addEventListener('change', classify);

update();
classify();
document.body.dataset.ready = 'true';
