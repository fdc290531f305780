//! Budgets per key, and how each provider charges a request's output reservation against them.
//!
//! # Reservation profiles and their sources
//!
//! | provider | output cap field | charged against TPM at admission | separate input/output limits | absent cap |
//! |---|---|---|---|---|
//! | OpenAI | `max_tokens`, `max_completion_tokens`, Responses `max_output_tokens` | yes | no | nothing reserved |
//! | Azure OpenAI | same | yes | no | nothing reserved |
//! | Groq | `max_tokens`, `max_completion_tokens` | yes | ITPM/OTPM for some organizations | nothing reserved |
//! | Cerebras | `max_tokens`, `max_completion_tokens` | yes | no | nothing reserved |
//! | Anthropic | `max_tokens` (required) | no TPM: ITPM and OTPM | yes | required by the API |
//! | Gemini | `generationConfig.maxOutputTokens` | no: TPM counts input | no | model default |
//! | Amazon Bedrock | `inferenceConfig.maxTokens`, `max_tokens` | yes | no | the model's maximum (set it) |
//!
//! - OpenAI, rate-limits guide (platform.openai.com/docs/guides/rate-limits, "Reduce the max_tokens to match the
//!   size of your completions"): "Your rate limit is calculated as the maximum of max_tokens and the estimated
//!   number of tokens based on the character count of your request." In practice the prompt estimate *plus* the
//!   cap is charged: a request whose prompt plus `max_tokens` exceeds the TPM limit is refused on its own
//!   (community.openai.com/t/360359: "max tokens are also counted and a single input denied if it comes to over
//!   the limit"; /t/1384351: a 100 TPM project refused "hi" because of `max_output_tokens`). Without a cap only the
//!   prompt is charged up front (same thread: "you might be able to say 'hi' if you don't use any max_tokens").
//!   Prompt plus cap must also fit the context window (a 400 otherwise).
//! - Azure OpenAI, "Azure OpenAI quota management": the estimated max-processed-token count added at admission
//!   "includes prompt text and count, the max_tokens parameter setting, and the best_of parameter setting".
//! - Groq, console.groq.com/docs/rate-limits: RPM, RPD, TPM, TPD, and ITPM/OTPM for some organizations; the
//!   public report in `shared/background/peak-at-4-percent.txt` shows a 413/429 "Request too large ... Limit 8000,
//!   Requested 8478" for a single request, i.e. the whole request including its cap is charged at admission.
//! - Cerebras, inference-docs.cerebras.ai rate limits: requests and tokens per minute/hour/day; tokens are counted
//!   as prompt plus `max_completion_tokens` at admission (the same OpenAI-compatible rule).
//! - Anthropic, docs.anthropic.com rate limits: separate input tokens per minute (ITPM; cached reads excluded)
//!   and output tokens per minute (OTPM), token-bucket replenishment, `anthropic-ratelimit-*-reset` timestamps.
//!   Output is metered as it is generated, not reserved from `max_tokens`; a request still needs room for output
//!   to start, so it needs at least one token of OTPM. `max_tokens` is required and prompt plus `max_tokens` must
//!   fit the context window (validation error otherwise, Claude 3.7 and later).
//! - Gemini, ai.google.dev/gemini-api/docs/rate-limits: RPM, TPM (input tokens) and RPD per model; output is
//!   capped by `generationConfig.maxOutputTokens` (default: the model's output limit) and not charged at
//!   admission; the input alone must fit the model's input token limit.
//! - Amazon Bedrock, "How tokens are counted in Amazon Bedrock" (docs.aws.amazon.com/bedrock/latest/userguide/
//!   quotas-token-burndown.html): tokens per minute count input and output; at the start of a request the input
//!   plus `max_tokens` is taken from the quota, and at its end the charge is the input tokens plus the cache writes
//!   plus the output tokens times the model's burndown rate, 5 for Claude 3.7 Sonnet and the Claude 4 models (one
//!   output token consumes five), 1 for the others. A request without `max_tokens` reserves the model's maximum
//!   output, which only the caller knows (`absent_cap: AbsentCap::Tokens(max)`). [`Budget::for_model`] sets the
//!   rate.
//!
//! These are the documented or publicly observed behaviours as of this writing; a [`ReservationProfile`] is
//! plain data, so a caller who measures otherwise can build their own.

use super::error::{limit_from_f64, PreflightError};
use crate::dimension::Dimension;
use crate::names::{Names, UnknownName};
use serde::Serialize;
use std::num::NonZeroU64;

/// A provider whose admission rules are known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    /// OpenAI (chat completions, Responses).
    OpenAi,
    /// Azure OpenAI.
    AzureOpenAi,
    /// Groq.
    Groq,
    /// Cerebras.
    Cerebras,
    /// Anthropic (Messages).
    Anthropic,
    /// Google Gemini (generateContent).
    Gemini,
    /// Any other OpenAI-compatible endpoint: charged like OpenAI, the conservative assumption.
    OpenAiCompatible,
    /// Amazon Bedrock (Converse, InvokeModel): output reserved at admission, output charged at the model's
    /// burndown rate at settlement.
    Bedrock,
}

impl Provider {
    /// Every provider.
    pub const ALL: [Provider; 8] = [
        Provider::OpenAi,
        Provider::AzureOpenAi,
        Provider::Groq,
        Provider::Cerebras,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::OpenAiCompatible,
        Provider::Bedrock,
    ];

    /// Every provider's name, in [`Provider::ALL`] order.
    pub const NAMES: [&'static str; 8] = [
        "open_ai",
        "azure_open_ai",
        "groq",
        "cerebras",
        "anthropic",
        "gemini",
        "open_ai_compatible",
        "bedrock",
    ];

    /// The provider's name in JSON (`open_ai`, `anthropic`, ...).
    pub const fn name(self) -> &'static str {
        Provider::NAMES[self as usize]
    }

    /// How this provider charges a request at admission. See the module documentation for the sources.
    pub const fn reservation(self) -> ReservationProfile {
        match self {
            Provider::OpenAi
            | Provider::AzureOpenAi
            | Provider::Groq
            | Provider::Cerebras
            | Provider::OpenAiCompatible => ReservationProfile {
                output_reserved_at_admission: true,
                context_includes_output: true,
                absent_cap: AbsentCap::Nothing,
                output_burndown: 1,
            },
            Provider::Anthropic => ReservationProfile {
                output_reserved_at_admission: false,
                context_includes_output: true,
                absent_cap: AbsentCap::Nothing,
                output_burndown: 1,
            },
            Provider::Gemini => ReservationProfile {
                output_reserved_at_admission: false,
                context_includes_output: false,
                absent_cap: AbsentCap::Nothing,
                output_burndown: 1,
            },
            // Without `maxTokens` Bedrock reserves the model's maximum output, which this rule cannot know: set it
            // as the budget's `absent_cap` (`AbsentCap::Tokens`). The rest of the context window would stand in
            // badly: it grows as the prompt shrinks, so a smaller prompt could need more.
            Provider::Bedrock => ReservationProfile {
                output_reserved_at_admission: true,
                context_includes_output: true,
                absent_cap: AbsentCap::Nothing,
                output_burndown: 1,
            },
        }
    }

    /// Quota tokens one output token consumes when a request of `model` settles: 5 on Bedrock for Claude 3.7
    /// Sonnet and the Claude 4 models (`anthropic.claude-sonnet-4-...`, `us.anthropic.claude-opus-4-1-...`), else 1.
    pub fn output_burndown(self, model: &str) -> u64 {
        let m = model.to_ascii_lowercase();
        let five = [
            "claude-3-7",
            "claude-4",
            "claude-opus-4",
            "claude-sonnet-4",
            "claude-haiku-4",
        ];
        if self == Provider::Bedrock && five.iter().any(|f| m.contains(f)) {
            5
        } else {
            1
        }
    }
}

/// What an absent output cap reserves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "tokens")]
pub enum AbsentCap {
    /// Nothing beyond the prompt is charged at admission.
    Nothing,
    /// A fixed default number of output tokens.
    Tokens(u64),
    /// Whatever the context window leaves after the prompt. It grows as the prompt shrinks, so the verdict at the
    /// band's low end may be worse than at its median; no shipped provider uses it.
    RestOfContext,
}

/// How a provider charges a request's output at admission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct ReservationProfile {
    /// The output cap counts against tokens per minute (and output tokens per minute) when the request is admitted,
    /// before anything is generated.
    pub output_reserved_at_admission: bool,
    /// Prompt plus output cap must fit the context window (otherwise the prompt alone must).
    pub context_includes_output: bool,
    /// What is reserved when the request sets no cap.
    pub absent_cap: AbsentCap,
    /// Quota tokens each output token consumes when the request settles (Bedrock's burndown rate; 1 elsewhere).
    pub output_burndown: u64,
}

impl ReservationProfile {
    /// The output tokens reserved at admission for a request with this cap and prompt.
    pub fn reserved_output(
        &self,
        max_output: Option<u64>,
        input: u64,
        context_window: Option<u64>,
    ) -> u64 {
        if !self.output_reserved_at_admission {
            return 0;
        }
        self.output_cap(max_output, input, context_window)
    }

    /// The output cap in force: the request's, or what an absent one means.
    pub fn output_cap(
        &self,
        max_output: Option<u64>,
        input: u64,
        context_window: Option<u64>,
    ) -> u64 {
        match (max_output, self.absent_cap) {
            (Some(n), _) => n,
            (None, AbsentCap::Nothing) => 0,
            (None, AbsentCap::Tokens(n)) => n,
            (None, AbsentCap::RestOfContext) => {
                context_window.map_or(0, |w| w.saturating_sub(input))
            }
        }
    }
}

impl std::str::FromStr for Provider {
    type Err = UnknownName;
    /// Parses a provider's name (`open_ai`, `azure_open_ai`, `groq`, ...; `-` for `_` too).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        static PROVIDERS: Names = Names {
            what: "provider",
            list: "providers",
            valid: &Provider::NAMES,
            note: "",
        };
        PROVIDERS.parse(&Provider::ALL, s)
    }
}

/// The limits of one provider key (optionally one model on it). An absent limit is no limit; a limit is never
/// zero (`NonZeroU64`): a key that admits nothing is not a budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Budget {
    /// Whose rules apply.
    pub provider: Provider,
    /// How output reservations are charged (from [`Provider::reservation`] unless replaced).
    pub reservation: ReservationProfile,
    /// Requests per minute.
    pub requests_per_minute: Option<NonZeroU64>,
    /// Tokens per minute.
    pub tokens_per_minute: Option<NonZeroU64>,
    /// Input tokens per minute.
    pub input_tokens_per_minute: Option<NonZeroU64>,
    /// Output tokens per minute.
    pub output_tokens_per_minute: Option<NonZeroU64>,
    /// Requests per day.
    pub requests_per_day: Option<NonZeroU64>,
    /// Tokens per day.
    pub tokens_per_day: Option<NonZeroU64>,
    /// The model's context window in tokens.
    pub context_window: Option<NonZeroU64>,
}

impl Budget {
    /// A budget with no limits yet, charged by `provider`'s rules.
    pub const fn new(provider: Provider) -> Budget {
        Budget {
            provider,
            reservation: provider.reservation(),
            requests_per_minute: None,
            tokens_per_minute: None,
            input_tokens_per_minute: None,
            output_tokens_per_minute: None,
            requests_per_day: None,
            tokens_per_day: None,
            context_window: None,
        }
    }

    /// The rules for requests of `model` on this key: the provider's output burndown rate for it
    /// ([`Provider::output_burndown`]).
    pub fn for_model(mut self, model: &str) -> Budget {
        self.reservation.output_burndown = self.provider.output_burndown(model);
        self
    }

    /// Sets tokens per minute.
    pub fn tokens_per_minute(self, n: NonZeroU64) -> Budget {
        self.with(Dimension::Tokens, n)
    }

    /// Sets requests per minute.
    pub fn requests_per_minute(self, n: NonZeroU64) -> Budget {
        self.with(Dimension::Requests, n)
    }

    /// Sets input tokens per minute.
    pub fn input_tokens_per_minute(self, n: NonZeroU64) -> Budget {
        self.with(Dimension::InputTokens, n)
    }

    /// Sets output tokens per minute.
    pub fn output_tokens_per_minute(self, n: NonZeroU64) -> Budget {
        self.with(Dimension::OutputTokens, n)
    }

    /// Sets the context window.
    pub fn context_window(self, n: NonZeroU64) -> Budget {
        self.with(Dimension::Context, n)
    }

    /// Sets one limit.
    pub fn with(mut self, dimension: Dimension, n: NonZeroU64) -> Budget {
        *self.slot_mut(dimension) = Some(n);
        self
    }

    /// Sets one limit from an untrusted number (JSON, JavaScript): negative, NaN, infinite, fractional or zero
    /// limits are errors.
    pub fn try_with(mut self, dimension: Dimension, value: f64) -> Result<Budget, PreflightError> {
        *self.slot_mut(dimension) = Some(limit_from_f64(dimension, value)?);
        Ok(self)
    }

    /// The limit for a dimension, if there is one.
    pub fn limit(&self, dimension: Dimension) -> Option<u64> {
        let limit = match dimension {
            Dimension::Requests => self.requests_per_minute,
            Dimension::Tokens => self.tokens_per_minute,
            Dimension::InputTokens => self.input_tokens_per_minute,
            Dimension::OutputTokens => self.output_tokens_per_minute,
            Dimension::RequestsPerDay => self.requests_per_day,
            Dimension::TokensPerDay => self.tokens_per_day,
            Dimension::Context => self.context_window,
        };
        limit.map(NonZeroU64::get)
    }

    fn slot_mut(&mut self, dimension: Dimension) -> &mut Option<NonZeroU64> {
        match dimension {
            Dimension::Requests => &mut self.requests_per_minute,
            Dimension::Tokens => &mut self.tokens_per_minute,
            Dimension::InputTokens => &mut self.input_tokens_per_minute,
            Dimension::OutputTokens => &mut self.output_tokens_per_minute,
            Dimension::RequestsPerDay => &mut self.requests_per_day,
            Dimension::TokensPerDay => &mut self.tokens_per_day,
            Dimension::Context => &mut self.context_window,
        }
    }

    /// What a request needs in one dimension, given its input tokens and output cap.
    pub fn needed(&self, dimension: Dimension, input: u64, max_output: Option<u64>) -> u64 {
        let r = &self.reservation;
        let reserved = r.reserved_output(max_output, input, self.limit(Dimension::Context));
        match dimension {
            Dimension::Requests | Dimension::RequestsPerDay => 1,
            Dimension::Tokens | Dimension::TokensPerDay => input.saturating_add(reserved),
            Dimension::InputTokens => input,
            // Output metered after the fact still needs room for the first token.
            Dimension::OutputTokens => reserved.max(1),
            Dimension::Context => {
                if r.context_includes_output {
                    input.saturating_add(r.output_cap(
                        max_output,
                        input,
                        self.limit(Dimension::Context),
                    ))
                } else {
                    input
                }
            }
        }
    }
}
