// Drawing: puts the library's values into the DOM. The only arithmetic here places marks on a bar (a value over
// the bar's scale, as a percentage); every number shown as text is one the library returned.

import * as f from './format.mjs';

const $ = (id) => document.getElementById(id);

/** Sets text only when it changed, so unchanged numbers are not re-laid out. */
export function setText(el, s) {
  if (el.textContent !== s) el.textContent = s;
}

function setNum(el, v) {
  setText(el, f.count(v));
  el.dataset.value = f.isNum(v) ? String(v) : '';
}

export function figures(est) {
  setNum($('tokens'), est?.tokens);
  setNum($('low'), est?.low);
  setNum($('high'), est?.high);
  setNum($('chars'), est?.chars);
  setText($('content'), est ? f.content(est.content) : f.DASH);
  $('content').dataset.value = est?.content ?? '';
}

/** The facts of a request estimate (overhead, media, messages, tools), or nothing for plain text. */
export function requestFacts(req) {
  const el = $('request-facts');
  requestMedia(req?.media ?? []);
  if (!req) {
    el.hidden = true;
    setText(el, '');
    return;
  }
  el.hidden = false;
  const parts = [
    `API: ${f.text(req.api)}`,
    `model: ${f.text(req.model)}`,
    `${f.count(req.messages)} messages`,
    `${f.count(req.tools)} tools`,
    `${f.count(req.overhead_tokens)} tokens of overhead`,
    `${f.count(req.media_tokens)} of media`,
    `max output ${f.count(req.max_output)}`,
  ];
  let s = parts.join(' · ');
  if (req.incomplete) s += `. Some parts could not be measured (${(req.unpriced || []).join(', ') || f.DASH}): each is priced as its documented band, and the conservative policy decides at its top.`;
  setText(el, s);
}

/** Each image, PDF and audio part of a request with its size and tokens. */
function requestMedia(media) {
  const list = $('request-media');
  const lines = media.map(f.mediaPart);
  list.hidden = lines.length === 0;
  const items = [...list.children];
  if (items.length === lines.length && items.every((li, i) => li.textContent === lines[i])) return;
  list.replaceChildren(...lines.map((line) => {
    const li = document.createElement('li');
    li.textContent = line;
    return li;
  }));
}

/** A round step for about `n` ticks up to `max`. */
function tickStep(max, n) {
  const raw = max / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return Math.max(1, (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p);
}

function place(el, value, scale) {
  if (!f.isNum(value) || !(scale > 0)) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  el.style.left = `${Math.min(100, (value / scale) * 100)}%`;
}

function span(el, from, to, scale) {
  if (!f.isNum(from) || !f.isNum(to) || !(scale > 0) || to < from) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  el.style.left = `${Math.min(100, (from / scale) * 100)}%`;
  el.style.width = `${Math.max(0.4, Math.min(100, (to / scale) * 100) - Math.min(100, (from / scale) * 100))}%`;
}

function niceScale(top) {
  const step = tickStep(top, 4);
  return Math.ceil(top / step) * step;
}

/** Tick labels under a bar, redrawn only when the scale changes. */
function axis(el, scale) {
  const step = tickStep(scale, 4);
  const ticks = [];
  for (let t = 0; t <= scale + step / 2; t += step) ticks.push(t);
  const key = ticks.join(',');
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.replaceChildren(
    ...ticks.map((t) => {
      const s = document.createElement('span');
      s.textContent = f.count(t);
      s.style.left = `${(t / scale) * 100}%`;
      return s;
    }),
  );
}

/**
 * The band bar: the prompt's p5–p95 band with the median marked, the output reserved stacked after the policy's
 * point of the band, the limit the person set and what remains now, and the exact count when there is one.
 */
export function band({ est, check, limit, remaining, exact }) {
  const reserved = check && f.isNum(check.reserved_output) ? check.reserved_output : null;
  const start = check && f.isNum(check.input_tokens) ? check.input_tokens : est?.tokens;
  const ends = [est?.high, reserved && f.isNum(start) ? start + reserved : null, limit, remaining, exact].filter(f.isNum);
  const scale = niceScale(Math.max(1, ...ends) * 1.08);

  span($('band-range'), est?.low, est?.high, scale);
  place($('band-median'), est?.tokens, scale);
  if (reserved && f.isNum(start)) span($('band-output'), start, start + reserved, scale);
  else $('band-output').hidden = true;
  place($('band-limit'), limit, scale);
  place($('band-remaining'), remaining, scale);
  place($('band-exact'), exact, scale);
  $('band').dataset.scale = String(scale);
  axis($('band-axis'), scale);

  // The same band up close (the limit often dwarfs it): from zero to a little past p95 or the exact count.
  const zoom = niceScale(Math.max(1, ...[est?.high, exact].filter(f.isNum)) * 1.08);
  span($('zoom-range'), est?.low, est?.high, zoom);
  place($('zoom-median'), est?.tokens, zoom);
  place($('zoom-exact'), exact, zoom);
  // The limit and what remains, when they fall inside the close-up: where the verdict flips, seen up close.
  place($('zoom-limit'), f.isNum(limit) && limit <= zoom ? limit : null, zoom);
  place($('zoom-remaining'), f.isNum(remaining) && remaining <= zoom ? remaining : null, zoom);
  if (reserved && f.isNum(start) && start < zoom) span($('zoom-output'), start, Math.min(zoom, start + reserved), zoom);
  else $('zoom-output').hidden = true;
  axis($('zoom-axis'), zoom);

  let desc = est
    ? `Median ${f.count(est.tokens)} tokens, p5–p95 band ${f.count(est.low)} to ${f.count(est.high)}`
    : 'No estimate';
  if (reserved) desc += `, plus ${f.count(reserved)} reserved for output`;
  if (f.isNum(limit)) desc += `; limit ${f.count(limit)}`;
  if (f.isNum(remaining)) desc += `; ${f.count(remaining)} remaining now`;
  if (f.isNum(exact)) desc += `; exact count ${f.count(exact)}`;
  setText($('band-desc'), `${desc}.`);
}

export function verdict(check, hint) {
  const box = $('verdict');
  box.dataset.verdict = check?.verdict ?? '';
  setText($('verdict-word'), check ? f.verdictWord(check.verdict) : f.DASH);
  setText($('verdict-detail'), check ? f.verdictDetail(check) : hint || '\u00a0');
  setText($('verdict-band'), check ? f.verdictBand(check) : '\u00a0');
}

const CLASSES = ['letters', 'cjk', 'digits', 'punctuation', 'whitespace', 'symbols', 'repeats', 'control'];

/** The content mix, one row a character class in a fixed order (so rows never move), bars for the shares. */
export function mix(tbody, parts, est) {
  const by = new Map((parts || []).map((p) => [p.class, p]));
  if (tbody.children.length !== CLASSES.length) {
    tbody.replaceChildren(
      ...CLASSES.map((c) => {
        const tr = document.createElement('tr');
        tr.dataset.class = c;
        tr.innerHTML = '<th scope="row"></th><td class="num chars"></td><td class="num toks"></td><td class="chart"><div class="share c"><i></i></div><div class="share t"><i></i></div></td>';
        tr.firstChild.textContent = f.charClass(c);
        return tr;
      }),
    );
  }
  const totalChars = est?.chars;
  const totalTokens = (parts || []).reduce((a, p) => a + (f.isNum(p.tokens) ? p.tokens : 0), 0);
  for (const tr of tbody.children) {
    const p = by.get(tr.dataset.class);
    tr.classList.toggle('absent', !p);
    setNum(tr.querySelector('.chars'), p?.chars);
    setNum(tr.querySelector('.toks'), p?.tokens);
    const c = p && totalChars > 0 ? (p.chars / totalChars) * 100 : 0;
    const t = p && totalTokens > 0 ? (p.tokens / totalTokens) * 100 : 0;
    tr.querySelector('.c i').style.width = `${Math.min(100, c)}%`;
    tr.querySelector('.t i').style.width = `${Math.min(100, t)}%`;
  }
}

/** Every profile side by side; `onPick(name)` when the person picks a row's profile. */
export function profiles(tbody, rows, selected, onPick) {
  if (tbody.children.length !== rows.length) {
    tbody.replaceChildren(
      ...rows.map((r) => {
        const tr = document.createElement('tr');
        tr.dataset.profile = r.profile;
        tr.innerHTML = '<th scope="row"><button type="button" class="pick"></button><span class="desc"></span></th><td class="num toks"></td><td class="num range"></td><td class="chart"><div class="mini"><i class="r"></i><i class="m"></i></div></td>';
        const b = tr.querySelector('.pick');
        b.textContent = r.profile;
        b.setAttribute('aria-label', `Use profile ${r.profile}`);
        b.addEventListener('click', () => onPick(r.profile));
        tr.querySelector('.desc').textContent = r.description ?? '';
        return tr;
      }),
    );
  }
  const highs = rows.map((r) => r.estimate?.high).filter(f.isNum);
  const scale = Math.max(1, ...highs);
  rows.forEach((r, i) => {
    const tr = tbody.children[i];
    const e = r.estimate;
    tr.classList.toggle('selected', r.profile === selected);
    tr.querySelector('.pick').setAttribute('aria-pressed', String(r.profile === selected));
    setNum(tr.querySelector('.toks'), e?.tokens);
    const range = tr.querySelector('.range');
    setText(range, e ? `${f.count(e.low)}–${f.count(e.high)}` : f.text(r.error));
    range.dataset.low = f.isNum(e?.low) ? String(e.low) : '';
    range.dataset.high = f.isNum(e?.high) ? String(e.high) : '';
    const bar = tr.querySelector('.r');
    const med = tr.querySelector('.m');
    if (e && f.isNum(e.low) && f.isNum(e.high)) {
      bar.style.left = `${(e.low / scale) * 100}%`;
      bar.style.width = `${Math.max(0.5, ((e.high - e.low) / scale) * 100)}%`;
      med.style.left = `${(e.tokens / scale) * 100}%`;
      bar.hidden = med.hidden = false;
    } else {
      bar.hidden = med.hidden = true;
    }
  });
}

export function error(message) {
  const el = $('error');
  el.hidden = !message;
  setText(el, message || '');
}

/** The classified refusal and the next move. */
export function refusal(r, next, problem) {
  const box = $('refusal');
  box.dataset.kind = r?.kind ?? '';
  if (problem) {
    setText($('refusal-kind'), problem);
    setText($('refusal-action'), '\u00a0');
    $('refusal-facts').replaceChildren();
    return;
  }
  if (!r) {
    setText($('refusal-kind'), 'Paste a response to classify it.');
    setText($('refusal-action'), '\u00a0');
    $('refusal-facts').replaceChildren();
    return;
  }
  setText($('refusal-kind'), f.refusalKind(r.kind));
  setText($('refusal-action'), f.action(next));
  $('refusal-action').dataset.type = next?.type ?? '';
  const facts = [
    ['Kind', f.text(r.kind)],
    ['Retryable', r.retryable ? 'yes' : 'no'],
    ['Status', f.isNum(r.status) ? String(r.status) : f.DASH],
    ['Retry after', f.duration(r.retry_after_ms)],
    ['Limit', f.count(r.limit)],
    ['Requested', f.count(r.requested)],
    ['Used', f.count(r.used)],
    ['Limit on', r.dimension ? f.text(r.dimension) : f.DASH],
    ['Window', f.window(r.window)],
    ['Output delivered', r.output_delivered ? 'yes' : 'no'],
    ['Why', f.text(r.reason)],
    ['Provider said', f.text(r.message)],
  ];
  $('refusal-facts').replaceChildren(
    ...facts.map(([k, v]) => {
      const d = document.createElement('div');
      const dt = document.createElement('dt');
      const dd = document.createElement('dd');
      dt.textContent = k;
      dd.textContent = v;
      if (k === 'Provider said' || k === 'Why') d.className = 'wide';
      d.append(dt, dd);
      return d;
    }),
  );
}
