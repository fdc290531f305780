// Types of the llm-preflight npm package. Field names are the CLI's JSON names (snake_case).

/** A tokenizer profile name. */
export type ProfileName =
  | 'o200k' | 'cl100k' | 'llama3' | 'qwen3' | 'deepseek-v3' | 'gemini' | 'gemma3' | 'mistral-v1' | 'claude-legacy';

/** What a text is mostly made of; the band is measured per kind. */
export type ContentKind =
  | 'empty' | 'prose' | 'cyrillic' | 'arabic' | 'indic' | 'cjk' | 'korean' | 'other-script' | 'code' | 'json'
  | 'markup' | 'latex' | 'tabular' | 'numeric' | 'encoded' | 'emoji' | 'repetitive';

export type CharClass = 'letters' | 'cjk' | 'digits' | 'punctuation' | 'whitespace' | 'symbols' | 'repeats' | 'control';

/** Pick the profile by name, by model (`gpt-4o`, `claude-sonnet-4`, ...) or as a profile loaded with `loadProfile`,
 * not both; o200k when neither. */
export type Which =
  | { profile?: ProfileName | string | LoadedProfile; model?: never }
  | { model?: string; profile?: never };

/** A profile file: one fitted to your traffic by `llm-preflight calibrate`, or a shipped one (`profileJson`). */
export interface ProfileFile {
  format: 'llm-preflight-profile/1';
  name: string;
  base: ProfileName;
  description?: string | null;
  /** Tokens per count, for every feature the scanner counts. */
  rates: Record<string, number>;
  /**
   * σ = sqrt(spread[0] + spread[1] / L + spread[2] · r), r the share of characters in long runs of one character.
   * Files written before the third term hold two numbers, read as [a, b, 0].
   */
  spread: [number, number, number] | [number, number];
  /**
   * The additive high end's terms: the high end is Σ U[class] · L[class] + sqrt · √L over the content classes' parts
   * of the linear estimate L (each U ≥ 1), so it never falls as text is appended. Files without it (written before,
   * or whose bands were refitted to traffic) price the high end by their bands.
   */
  high?: Record<'letters' | 'cjk' | 'digits' | 'punctuation' | 'whitespace' | 'symbols' | 'repeats' | 'control' | 'sqrt', number>;
  /** Per content kind: [m, z_lo, z_hi]. */
  bands: Record<ContentKind, [number, number, number]>;
  /** Per content kind: characters per token at p5, p50, p95. */
  chars_per_token: Record<ContentKind, [number, number, number]>;
  /** What it was fitted on (free-form). */
  fitted?: unknown;
}

/** A profile loaded from a profile file. Pass it as `profile` wherever a profile is taken. */
export interface LoadedProfile {
  readonly name: string;
  readonly base: ProfileName;
  /** The profile file, as JSON text. */
  toJson(): string;
}

/** Reads a profile file (JSON text or the parsed object); a bad file throws an Error naming the field. */
export function loadProfile(file: string | ProfileFile): LoadedProfile;

/** A shipped profile as a profile file (JSON text). */
export function profileJson(name: ProfileName): string;

export interface MixPart {
  class: CharClass;
  chars: number;
  /** Median tokens these characters cost. */
  tokens: number;
}

/** A token estimate: the median and the p5-p95 band. */
export interface Estimate {
  tokens: number;
  low: number;
  high: number;
  /** Unicode scalar values. */
  chars: number;
  content: ContentKind;
  /** The profile's name: a shipped one, or a loaded profile file's own name. */
  profile: ProfileName | (string & {});
  /** Character classes present, largest token share first. */
  mix: MixPart[];
}

export function estimate(text: string, options?: Which): Estimate;

/** Streaming estimation: feed strings or UTF-8 bytes as they arrive. */
export class Estimator {
  constructor(options?: Which);
  update(chunk: string | Uint8Array): this;
  finish(): Estimate;
  free(): void;
}

export type Api =
  | 'open_ai_chat'
  | 'open_ai_responses'
  | 'anthropic_messages'
  | 'gemini_generate_content'
  | 'bedrock_converse'
  | 'completions'
  | 'embeddings'
  | 'cohere_chat';

/** One image, PDF or audio part of a request, priced by its provider's documented rule for the model. */
export interface MediaPart {
  /** Where it is in the body (a JSON pointer). */
  pointer: string;
  kind: 'image' | 'document' | 'audio';
  /** `base64`: measured from its bytes; `url` or `file`: not there to measure. */
  source: 'base64' | 'url' | 'file';
  /** `png`, `jpeg`, `gif`, `webp`, `pdf`, `wav`, `mp3`, when read. */
  format: string | null;
  width: number | null;
  height: number | null;
  pages: number | null;
  duration_ms: number | null;
  /** Tokens at the point estimate, and the band. */
  tokens: number;
  low: number;
  high: number;
  rule: 'openai_tile' | 'openai_patch' | 'anthropic' | 'gemini_tiles' | 'fixed' | 'pdf_pages' | 'audio_seconds';
  /** Whether its size, pages or duration were read; `false`: priced as the rule's documented band. */
  measured: boolean;
}

export interface RequestEstimate {
  api: Api;
  model: string | null;
  /** Prompt tokens with their band, including overhead and media; chars and content describe the text parts. */
  estimate: Omit<Estimate, 'mix'> & { mix: MixPart[] };
  overhead_tokens: number;
  media_tokens: number;
  /** Prompt tokens given as token ids (legacy completions, embeddings): counted exactly, included in `estimate`. */
  token_ids: number;
  /** What the request may generate in all: its cap times the completions it asks for (`n`, `best_of`,
   *  `candidateCount`); null when it sets no cap, 0 for embeddings. */
  max_output: number | null;
  messages: number;
  tools: number;
  /** Some parts could not be measured (a URL, a file id): they are priced as their rules' documented bands. Context
   *  the provider holds (`previous_response_id`, `conversation`, a stored `prompt`, Gemini's `cachedContent`) and
   *  built-in tools are not priced at all. */
  incomplete: boolean;
  /** JSON pointers of the parts that could not be measured or priced. */
  unpriced: string[];
  /** Each media part and what it was priced at. */
  media: MediaPart[];
}

/** A request body: JSON text or the object itself. */
export type RequestBody = string | Record<string, unknown>;

export function estimateRequest(body: RequestBody, options?: Which & { api?: Api }): RequestEstimate;

export type Provider =
  | 'open_ai'
  | 'azure_open_ai'
  | 'groq'
  | 'cerebras'
  | 'anthropic'
  | 'gemini'
  | 'open_ai_compatible'
  | 'bedrock';
export type Dimension = 'tokens' | 'input_tokens' | 'output_tokens' | 'requests' | 'tokens_per_day' | 'requests_per_day' | 'context';
export type Policy = 'median' | 'conservative' | 'optimistic' | 'p50' | 'p95' | 'p5';
export type VerdictKind = 'sendable' | 'queueable' | 'never_sendable';

/** A key's limits; an absent limit is no limit. Limits are whole numbers of at least 1. */
export interface BudgetOptions {
  /** Whose admission rules apply (default open_ai_compatible). */
  provider?: Provider;
  tpm?: number;
  rpm?: number;
  itpm?: number;
  otpm?: number;
  tpd?: number;
  rpd?: number;
  context_window?: number;
}

/** Headers in any of the shapes JavaScript has them. */
export type HeadersLike =
  | Headers
  | Map<string, string>
  | ReadonlyArray<readonly [string, string]>
  | Record<string, string | number | ReadonlyArray<string> | undefined>;

interface CheckCommon {
  policy: 'median' | 'conservative' | 'optimistic';
  /** Prompt tokens at the policy's point of the band. */
  input_tokens: number;
  /** Output tokens reserved at admission under the provider's rules. */
  reserved_output: number;
  /** Tokens needed in the deciding dimension. */
  needed: number;
  at_low: VerdictKind;
  at_high: VerdictKind;
  holds_across_band: boolean;
  incomplete: boolean;
}

/** The verdict, discriminated by `verdict`. */
export type Check =
  | (CheckCommon & { verdict: 'sendable'; wait_ms: 0; dimension: null; limit: number | null; excess: null })
  | (CheckCommon & { verdict: 'queueable'; wait_ms: number; dimension: Dimension; limit: number | null; excess: null })
  | (CheckCommon & { verdict: 'never_sendable'; wait_ms: null; dimension: Dimension; limit: number; excess: number });

/** `unpriced` and `media`: a request body's parts that could not be measured, and each media part (empty for a prompt). */
export type CheckResult = Check & { estimate: Estimate; unpriced: string[]; media: MediaPart[] };

export interface CheckOptions extends BudgetOptions {
  profile?: ProfileName | string | LoadedProfile;
  model?: string;
  api?: Api;
  remaining_tokens?: number;
  remaining_requests?: number;
  /** `577ms`, `5.94s`, `6m0s`, plain seconds. */
  reset_tokens?: string;
  reset_requests?: string;
  headers?: HeadersLike;
  /** The output cap reserved at admission (overrides the request body's). */
  max_tokens?: number;
  policy?: Policy;
  /** Treat a string input as a request body (objects always are). */
  request?: boolean;
}

/** `llm-preflight check`: a prompt (string) or a request body (object, or string with `request: true`). */
export function check(input: string | Record<string, unknown>, options: CheckOptions, now?: number): CheckResult;

export interface DimensionState {
  limit: number | null;
  remaining: number | null;
  reset_ms: number | null;
}

export interface RateLimitHeaders {
  requests: DimensionState;
  tokens: DimensionState;
  input_tokens: DimensionState;
  output_tokens: DimensionState;
  /** A window whose headers do not say what it counts (`x-ratelimit-remaining`, `ratelimit-reset`, `ratelimit`). */
  unnamed: DimensionState;
  /** Requests per day (`x-ratelimit-*-requests-day`). */
  requests_per_day: DimensionState;
  /** Tokens per day (`x-ratelimit-*-tokens-day`). */
  tokens_per_day: DimensionState;
  /** Of the windows of an hour or a month (`...-requests-1h`, `...-tokens-month`), the one with least remaining. */
  long_window: DimensionState;
  retry_after_ms: number | null;
  /** Rate-limit headers whose values could not be used. */
  malformed: { name: string; value: string; message: string }[];
}

export function parseRateLimitHeaders(headers: HeadersLike, now?: number): RateLimitHeaders;

export type RefusalKind =
  | 'rate_limit_requests' | 'rate_limit_tokens' | 'rate_limit_other' | 'too_large' | 'quota_exhausted'
  | 'overloaded' | 'context_length' | 'other';

export interface Refusal {
  kind: RefusalKind;
  retryable: boolean;
  retry_after_ms: number | null;
  limit: number | null;
  requested: number | null;
  used: number | null;
  dimension: 'requests' | 'tokens' | null;
  window: 'minute' | 'day' | 'month' | null;
  status: number | null;
  message: string | null;
  output_delivered: boolean;
  /** Why the kind and `retryable` are what they are, in a sentence (a cap that might be a quota leans safe). */
  reason: string;
}

export interface ResponseLike {
  status?: number | null;
  headers?: HeadersLike;
  /** The raw body text (or a parsed JSON object). */
  body?: string | Record<string, unknown> | null;
}

export function classifyResponse(response: ResponseLike, now?: number): Refusal;
/** Looks for an error frame in streamed text (SSE or NDJSON); `null` when there is none. */
export function classifyStreamChunk(chunk: string, response?: Omit<ResponseLike, 'body'>, now?: number): Refusal | null;

export type FallbackReason =
  | 'deadline_too_short' | 'wait_exceeds_cap' | 'attempts_exhausted' | 'repeated_overload'
  | 'retry_budget_exhausted' | 'circuit_open';
export type GiveUpReason = 'quota_exhausted' | 'not_retryable' | 'unsafe_to_resend';

/** What to do next, discriminated by `type`. */
export type Action =
  | { type: 'retry'; after_ms: number }
  | { type: 'fallback'; reason: FallbackReason }
  | { type: 'shrink'; by_tokens: number | null }
  | { type: 'give_up'; reason: GiveUpReason };

export interface RetryOptions {
  /** 0 for the first refusal. */
  attempt?: number;
  base_ms?: number;
  cap_ms?: number;
  max_attempts?: number;
  max_overloaded_attempts?: number;
  /** In the same clock as `now`. */
  deadline_ms?: number;
  idempotency_key?: boolean;
  side_effects_ran?: boolean;
}

/** `random` defaults to Math.random(), `now` to Date.now(). */
export function nextAction(refusal: Refusal, options?: RetryOptions, now?: number, random?: number): Action;

/** `llm-preflight explain-response`: the same input, the same output. */
export function explainResponse(input: string | {
  status?: number | null;
  headers?: Record<string, string | number | string[]> | null;
  body?: string | null;
  stream?: boolean;
  now_ms?: number;
}): {
  kind: RefusalKind;
  retryable: boolean;
  retry_after_ms: number | null;
  limit: number | null;
  requested: number | null;
  used: number | null;
  dimension: 'requests' | 'tokens' | null;
  window: 'minute' | 'day' | 'month' | null;
  /** Why the kind and `retryable` are what they are, in a sentence. */
  reason: string;
  action: Action;
};

export function profiles(): { profile: ProfileName; description: string }[];

/** A token count, an estimate, a request estimate, or a band with an optional output cap. */
export type CostLike =
  | number
  | Estimate
  | RequestEstimate
  | { tokens: number; low?: number; high?: number; max_output?: number | null; incomplete?: boolean };

export interface PolicyOptions {
  policy?: Policy;
  /** The output cap reserved at admission (overrides the cost's). */
  max_output?: number;
}

export interface Settled {
  reserved: number;
  used: number;
  /** Negative when usage went beyond the reservation. */
  refunded: number;
}

export type Usage = { input_tokens: number; output_tokens: number } | Record<string, unknown>;

/** Capacity held for one admitted request. Settle it or release it. */
export class Reservation {
  private constructor();
  readonly check: Check;
  /** Whether it still holds capacity. */
  readonly active: boolean;
  held(dimension: Dimension): number;
  /** `{input_tokens, output_tokens}` or a whole response body with a usage block. */
  settle(usage: Usage | string, now?: number): Settled;
  release(): void;
}

export type Refused =
  | { ok: false; refused: 'not_yet'; wait_ms: number; dimension: Dimension }
  | { ok: false; refused: 'never'; dimension: Dimension; limit: number; needed: number; excess: number };

export type ReserveResult = { ok: true; reservation: Reservation; check: Check } | Refused;

/** One key's budget, with the reservations in flight. */
export class Ledger {
  constructor(budget: BudgetOptions, now?: number);
  check(cost: CostLike, options?: PolicyOptions, now?: number): Check;
  tryReserve(cost: CostLike, options?: PolicyOptions, now?: number): ReserveResult;
  /** Applies a response's rate-limit headers; returns what they said. */
  observe(headers: HeadersLike, now?: number): RateLimitHeaders;
  readonly inFlight: number;
  held(dimension: Dimension): number;
  /** What one bucket holds now; null when the budget does not limit that dimension. */
  available(dimension: Dimension, now?: number): number | null;
  snapshot(): Record<string, unknown>;
}

export type ShedReason =
  | { reason: 'never_sendable'; dimension: Dimension; limit: number; needed: number; excess: number }
  | { reason: 'deadline_unreachable'; earliest_start_ms: number; deadline_ms: number }
  | { reason: 'queue_full'; work_ms: number; max_work_ms: number };

export type Shed = ShedReason & { retry_after_ms: number | null; message: string };

export type OfferResult<T> =
  | { offer: 'admitted'; item: T; reservation: Reservation; check: Check }
  | { offer: 'queued'; eta_ms: number; position: number }
  | ({ offer: 'shed'; item: T } & Shed);

export interface PollResult<T> {
  admitted: { item: T; reservation: Reservation }[];
  shed: ({ item: T } & Shed)[];
  /** When to poll again; null when the queue is empty. */
  wake_at_ms: number | null;
}

/** A FIFO admission queue over a ledger, bounded in milliseconds of work rather than in requests. */
export class AdmissionQueue<T = unknown> {
  constructor(ledger: Ledger, options: { policy?: Policy; max_work_ms: number });
  readonly length: number;
  /** `deadline`: the latest time it may start, in the same clock as `now`. */
  offer(item: T, cost: CostLike, deadline: number, now?: number): OfferResult<T>;
  poll(now?: number): PollResult<T>;
}

/** One provider (or key) a guarded fetch may send to, in preference order. */
export interface GuardProvider {
  /** A name for events and breakers. */
  name: string;
  /** Requests whose URL starts with this are guarded; a fallback sends the same path and query here. */
  base_url: string;
  /** Whose admission rules apply (default open_ai_compatible). */
  provider?: Provider;
  /** The API shape it speaks; a call only falls back between providers of one shape. Default: any. */
  api?: Api;
  /** The `model` to write into the body when sending here; default: keep the caller's. */
  model?: string;
  budget: Omit<BudgetOptions, 'provider'>;
}

export interface GuardOptions {
  providers: GuardProvider[];
  /** Which end of the estimate's band admission decides on (default median). */
  policy?: Policy;
  /** Each call must start by this many milliseconds after it was made (default 30000); `init.signal` aborts too. */
  deadline_ms?: number;
  /** The most work a provider's queue holds, in milliseconds of refill (default 30000). */
  max_queue_ms?: number;
  /** Every decision, as it happens. */
  onEvent?: (event: GuardEvent) => void;
  /** The clock, in milliseconds (default Date.now). */
  now?: () => number;
  /** Draws in [0, 1) for retry jitter (default Math.random). */
  random?: () => number;
}

interface GuardEventBase {
  /** The call's number, from 1 per guard. */
  id: number;
  at_ms: number;
  /** The provider concerned, by name. */
  provider?: string;
}

export type GuardEvent = GuardEventBase & (
  | { type: 'queued'; eta_ms: number }
  | { type: 'admitted' }
  | { type: 'shed'; message: string }
  | { type: 'never_sendable'; dimension: Dimension; limit: number; needed: number; excess: number }
  | { type: 'sent'; attempt: number }
  | { type: 'response'; status: number }
  | { type: 'refused'; kind: RefusalKind; mid_stream: boolean; retry_after_ms: number | null }
  | { type: 'retry'; after_ms: number; at: number }
  | { type: 'fallback'; reason: string }
  | { type: 'shrunk'; by_tokens: number }
  | { type: 'settled'; input_tokens: number; output_tokens: number; estimated_tokens: number; reported_tokens: number | null }
  | { type: 'released' }
  | { type: 'calibrated'; answers: number; ratio: number }
  | { type: 'breaker_open' }
  | { type: 'transport_error' }
  | { type: 'ledger'; mode: 'shared' | 'fail_open' | 'fail_closed'; decision: string }
  | { type: 'ledger_error'; message: string }
  | { type: 'answered'; status: number }
  | { type: 'ended'; end: 'succeeded' | 'answered' | 'failed' | 'abandoned' }
);

/** The body of the guard's own 413: the request exceeds a whole limit of every provider that could take it. */
export interface NeverSendableBody {
  error: { type: 'never_sendable'; dimension: Dimension; limit: number; needed: number; excess: number; message: string };
}

/** The body of the guard's own 429 (with `retry-after`): the call could not start by its deadline, or the queue is full. */
export interface ShedBody {
  error: { type: 'shed'; reason: 'deadline_unreachable' | 'queue_full' | 'never_sendable'; message: string; retry_after_ms: number | null };
}

/** `fetch` with the guarded call around it. */
export type GuardedFetch = ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) & {
  /** What the guard holds now, over every provider: zero once every call has ended. */
  state(): { held_tokens: number; in_flight: number };
};

/**
 * Wraps `fetch`: a POST whose URL starts with a provider's `base_url` is estimated and admitted against the
 * providers' budgets, sent byte for byte, retried no earlier than Retry-After, fallen back to the next provider of
 * the same API shape, and settled at the usage it reports. The guard answers itself with 413 (`NeverSendableBody`)
 * or 429 with `retry-after` (`ShedBody`); a provider's refusal that is not retried comes back as the provider sent
 * it; a stream comes back unbuffered. Any other request goes to `fetchFn` untouched.
 */
export function guard(fetchFn: typeof fetch, options: GuardOptions): GuardedFetch;
