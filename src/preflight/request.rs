//! Estimating whole request bodies: OpenAI chat completions and Responses, Anthropic Messages, Gemini
//! generateContent, Amazon Bedrock Converse, legacy text completions (OpenAI `/v1/completions`, Anthropic's
//! `/v1/complete`, and the text-generation bodies of Hugging Face, Titan, SGLang, Ollama and llama.cpp), OpenAI-style
//! embeddings and Cohere's chat; an OpenAI Batch input line, an Anthropic Message Batches request, a Gemini or Vertex
//! AI batch line, a Bedrock batch record or CountTokens body, and DashScope's or Replicate's native body are read as
//! the body inside.
//! System prompts, messages, content parts and tool definitions are all counted, with the structural overhead each
//! API adds around them; prompts given as token ids are counted exactly.
//!
//! # Output reserved
//!
//! [`RequestEstimate::max_output`] is what the request may generate in all: its cap times the completions it asks
//! for. OpenAI's rate limiter charges `n` choices of `max_tokens` each (the cookbook's
//! `api_request_parallel_processor.py`: `completion_tokens = n * max_tokens`); legacy completions generate
//! `best_of` (at least `n`) per prompt, each prompt of an array its own, with a cap of 16 when the body gives none
//! (the API's default); Gemini's `candidateCount` multiplies `maxOutputTokens`. Embeddings generate nothing.
//!
//! # Overhead constants
//!
//! OpenAI's (o200k and cl100k), measured with tiktoken-rs by encoding the chat format with its special tokens
//! counted as one token each (`tests/preflight.rs`, `openai_overheads_are_measured`):
//! - every message costs [`OPENAI_PER_MESSAGE`] = 4 tokens besides its content: `<|im_start|>`, the role (each of
//!   `system`, `developer`, `user`, `assistant`, `tool` is one token in both encodings), `<|im_sep|>` and
//!   `<|im_end|>`; constant across contents (leading spaces, newlines, CJK, code, empty), because special tokens
//!   stop BPE merges. This agrees with OpenAI's cookbook "3 per message" plus the role counted separately.
//! - the reply is primed with `<|im_start|>assistant<|im_sep|>`: [`OPENAI_REPLY_PRIMING`] = 3.
//! - a message `name` costs [`OPENAI_PER_NAME`] = 1 beyond its text (the cookbook's figure; the exact rendering is
//!   not public, so this one is not measured).
//! - function tools are rendered into the system prompt as a TypeScript `namespace functions { ... }`; measured on
//!   that rendering, against the tokens of the names, descriptions, types and enum values it contains:
//!   [`OPENAI_TOOLS_BASE`] = 13 once per request (o200k; 13 in cl100k too), [`OPENAI_PER_TOOL`] = 10 per function
//!   ([`OPENAI_CL100K_PER_TOOL`] = 11 in cl100k), [`OPENAI_PER_PROPERTY`] = 4 per parameter, [`OPENAI_PER_ENUM_ITEM`] = 2 per enum value
//!   ([`OPENAI_CL100K_PER_ENUM_ITEM`] = 3 in cl100k), and
//!   and [`OPENAI_PER_ENUM_PROPERTY`] = -2 for a parameter given as an enum (its type is not written). The cookbook's
//!   API-fitted figures for gpt-4o (7 per function, 6 per property, 3 per enum item, -3 per enum, 12 at the end)
//!   have the same size.
//!
//! Anthropic publishes no tokenizer for current models, so its per-message overhead is an assumption
//! ([`ANTHROPIC_PER_MESSAGE`]), small next to the band. Gemini's `promptTokenCount` counts the parts alone
//! ([`GEMINI_PER_CONTENT`] = 0: a recorded request whose system instruction and one turn hold 13 tokens of text
//! reports 13), and a function call's or response's `id`, which pairs the two, is not counted. Anthropic documents
//! the system prompt it adds when tools are present: [`ANTHROPIC_TOOL_SYSTEM_PROMPT`] (346 tokens for Claude 4 and
//! 3.7 with `tool_choice` auto or none, [`ANTHROPIC_TOOL_SYSTEM_PROMPT_FORCED`] 313 with any or a named tool, other
//! figures for the Claude 3 models; docs.anthropic.com, "Tool use: pricing").
//!
//! # Media
//!
//! Images, PDFs and audio are priced from the bytes the body carries (an image's size from its header, a PDF's
//! pages, a clip's duration) by each provider's documented rule for the model (the `media` module, which cites
//! them): OpenAI's tile and patch rules, Anthropic's 28-px visual tokens, Gemini's tiles and media resolutions.
//! Each is a [`MediaPart`] of the estimate. A part whose bytes are not there (a URL, a file id) or cannot be read
//! is priced as the rule's documented band, floor to ceiling, and listed in `unpriced` with the estimate flagged
//! incomplete; a conservative verdict decides at the ceiling. Video and other files are unpriced at 0.

use super::error::{count_from_f64, PreflightError};
use super::verdict::{Band, Cost};
use crate::estimate::{Estimate, Estimator};
use crate::media::{decode_base64, Data, MediaPart, Pricing};
use crate::names::{Names, UnknownName};
use crate::profile::Profile;
use crate::profile_file::Tables;
use serde::Serialize;
use serde_json::Value;

/// OpenAI: tokens per message besides its content (measured; see the module documentation).
pub const OPENAI_PER_MESSAGE: u64 = 4;
/// OpenAI: tokens priming the reply (measured).
pub const OPENAI_REPLY_PRIMING: u64 = 3;
/// OpenAI: tokens for a message's `name` beyond its text (cookbook).
pub const OPENAI_PER_NAME: u64 = 1;
/// OpenAI: the `namespace functions` scaffold, once per request with tools (measured, o200k).
pub const OPENAI_TOOLS_BASE: u64 = 13;
/// OpenAI: per function definition (measured, o200k).
pub const OPENAI_PER_TOOL: u64 = 10;
/// OpenAI: per parameter (measured, o200k).
pub const OPENAI_PER_PROPERTY: u64 = 4;
/// OpenAI: per enum value (measured, o200k).
pub const OPENAI_PER_ENUM_ITEM: u64 = 2;
/// OpenAI: per parameter given as an enum, on top of its items (measured, o200k; negative: no type is written).
pub const OPENAI_PER_ENUM_PROPERTY: i64 = -2;
/// OpenAI, cl100k models (GPT-4, GPT-3.5): per function definition (measured).
pub const OPENAI_CL100K_PER_TOOL: u64 = 11;
/// OpenAI, cl100k models: per enum value (measured).
pub const OPENAI_CL100K_PER_ENUM_ITEM: u64 = 3;
/// Anthropic: per message (assumed; no public tokenizer).
pub const ANTHROPIC_PER_MESSAGE: u64 = 4;
/// Anthropic: the tool-use system prompt (documented for Claude 4 / 3.7, tool_choice auto or none).
pub const ANTHROPIC_TOOL_SYSTEM_PROMPT: u64 = 346;
/// Anthropic: the tool-use system prompt with `tool_choice` any or tool (documented for Claude 4 / 3.7).
pub const ANTHROPIC_TOOL_SYSTEM_PROMPT_FORCED: u64 = 313;
/// Anthropic: per `tool_use` or `tool_result` block, besides its name, input or content (measured on recorded
/// `usage.input_tokens` of Claude 4: a tool round, one block of each, adds 28–47 tokens beyond the blocks' text,
/// median 39, over six pairs of requests with and without it).
pub const ANTHROPIC_PER_TOOL_BLOCK: u64 = 20;
/// OpenAI: gpt-5 models on chat completions with tools, once per request (measured on recorded `prompt_tokens`: 60–74
/// tokens more than the same request counts through Responses, which adds none; o4-mini's chat adds none).
pub const OPENAI_GPT5_CHAT_TOOLS: u64 = 74;
/// gpt-oss: the harmony format's system message its chat template writes before every conversation ("You are
/// ChatGPT, ... Knowledge cutoff ... Current date ... Reasoning: medium ... # Valid channels"; recorded counts run
/// 60–62 tokens over the messages' on llama.cpp, Cerebras and Groq).
pub const GPT_OSS_PREAMBLE: u64 = 60;
/// Llama 3.1, 3.2 and 3.3: the chat template's system header ("Cutting Knowledge Date: December 2023\nToday Date:
/// ..."), written whether or not a system message is given (recorded counts 21 and 27 tokens over on Groq and
/// Cerebras).
pub const LLAMA3_DATE_HEADER: u64 = 25;

/// Text a model's chat template or its provider adds to an OpenAI-style chat request that the body does not show:
/// [`OPENAI_GPT5_CHAT_TOOLS`], [`GPT_OSS_PREAMBLE`], [`LLAMA3_DATE_HEADER`]. A model named with a router's prefix
/// (`openai/gpt-5`) is served through another endpoint and gets none of OpenAI's own.
fn chat_template_tokens(model: &str, tools: bool) -> u64 {
    let m = model.to_ascii_lowercase();
    if m.contains("gpt-oss") {
        GPT_OSS_PREAMBLE
    } else if m.starts_with("gpt-5") && tools {
        OPENAI_GPT5_CHAT_TOOLS
    } else if is_llama31(&m) {
        LLAMA3_DATE_HEADER
    } else {
        0
    }
}

/// Whether a (lowercase) model name is Meta's Llama 3.1, 3.2 or 3.3 itself, its last path segment starting with it
/// (`llama-3.3-70b-versatile`, `meta-llama/Llama-3.1-8B-Instruct`, `Meta-Llama-3.1-...`, `llama3.1:8b`,
/// `llama-3-3-70b-instruct`, Fireworks' `llama-v3p1-...`), not a fine-tune named after it with a template of its own (`hermes-3-llama-3.1-405b`).
fn is_llama31(m: &str) -> bool {
    let last = m.rsplit('/').next().unwrap_or(m);
    ["llama-3", "llama3", "llama-v3p", "meta-llama-3"]
        .iter()
        .any(|p| {
            last.strip_prefix(p).is_some_and(|rest| {
                let v = rest.trim_start_matches(['.', '-']);
                v.len() < rest.len() + usize::from(*p == "llama-v3p")
                    && ["1", "2", "3"].iter().any(|d| v.starts_with(d))
                    && !v[1..].starts_with(|c: char| c.is_ascii_digit() || c == 'b')
            })
        })
}

/// Gemini: per content turn, besides its parts (measured on recorded `usageMetadata.promptTokenCount`: none).
pub const GEMINI_PER_CONTENT: u64 = 0;
/// Bedrock Converse: per message (assumed, as Anthropic's: the models behind it publish no chat format).
pub const BEDROCK_PER_MESSAGE: u64 = 4;
/// Cohere chat: per turn (assumed, as Anthropic's: Cohere publishes no tokenizer for its chat format).
pub const COHERE_PER_TURN: u64 = 4;
/// Legacy completions: the output cap when the body gives none (OpenAI `/v1/completions`, `max_tokens` default).
pub const COMPLETIONS_DEFAULT_MAX_TOKENS: u64 = 16;

/// Amazon Titan's text models' default `maxTokenCount` (Bedrock user guide, "Amazon Titan Text models").
pub const TITAN_DEFAULT_MAX_TOKENS: u64 = 512;

/// IBM watsonx.ai's default `parameters.max_new_tokens` for text generation (its API reference).
pub const WATSONX_DEFAULT_MAX_NEW_TOKENS: u64 = 20;

/// SGLang's default `sampling_params.max_new_tokens` (its "Sampling Parameters" docs).
pub const SGLANG_DEFAULT_MAX_NEW_TOKENS: u64 = 128;

impl std::str::FromStr for Api {
    type Err = UnknownName;
    /// Parses an API's name (`open_ai_chat`, `open_ai_responses`, `anthropic_messages`,
    /// `gemini_generate_content`, `bedrock_converse`, `completions`, `embeddings`, `cohere_chat`; `-` for `_` too).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        static APIS: Names = Names {
            what: "api",
            list: "APIs",
            valid: &Api::NAMES,
            note: "",
        };
        APIS.parse(&Api::ALL, s)
    }
}

/// Which API a request body is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Api {
    /// OpenAI `POST /v1/chat/completions` (and every OpenAI-compatible API; Ollama's `POST /api/chat`, capped by
    /// `options.num_predict`).
    OpenAiChat,
    /// OpenAI `POST /v1/responses`.
    OpenAiResponses,
    /// Anthropic `POST /v1/messages`.
    AnthropicMessages,
    /// Gemini `models/*:generateContent`.
    GeminiGenerateContent,
    /// Amazon Bedrock `POST /model/{modelId}/converse` (content blocks keyed by kind, `inferenceConfig`).
    BedrockConverse,
    /// Legacy text completions: OpenAI `POST /v1/completions` (`prompt`, `max_tokens`), Anthropic's
    /// `POST /v1/complete` (`prompt`, `max_tokens_to_sample`), Hugging Face text generation (`inputs`,
    /// `parameters.max_new_tokens`), Ollama's `POST /api/generate` (`prompt`, `options.num_predict`), llama.cpp's
    /// `POST /completion` (`n_predict`), Meta's Llama models on Bedrock (`prompt`, `max_gen_len`) and IBM watsonx.ai's
    /// text generation (`input`, `model_id`, `parameters.max_new_tokens`).
    Completions,
    /// Embeddings: OpenAI `POST /v1/embeddings` and the APIs that copy it (`input`: a string, strings or token ids).
    Embeddings,
    /// Cohere's v1 chat, `POST /v1/chat`, and Cohere's Command R models on Bedrock (InvokeModel): a `message`, a
    /// `preamble`, the `chat_history`, `documents` and `tools`. (Cohere's v2 chat has `messages`: OpenAI chat.)
    CohereChat,
}

impl Api {
    /// Every API, in the order they are listed.
    pub const ALL: [Api; 8] = [
        Api::OpenAiChat,
        Api::OpenAiResponses,
        Api::AnthropicMessages,
        Api::GeminiGenerateContent,
        Api::BedrockConverse,
        Api::Completions,
        Api::Embeddings,
        Api::CohereChat,
    ];

    /// Every API's name, in [`Api::ALL`] order.
    pub const NAMES: [&'static str; 8] = [
        "open_ai_chat",
        "open_ai_responses",
        "anthropic_messages",
        "gemini_generate_content",
        "bedrock_converse",
        "completions",
        "embeddings",
        "cohere_chat",
    ];

    /// The API's name in JSON (`open_ai_chat`, `anthropic_messages`, ...).
    pub const fn name(self) -> &'static str {
        Api::NAMES[self as usize]
    }

    /// Recognizes the API from the body's shape: `contents` is Gemini; watsonx.ai's string `input` for a `model_id`
    /// in a project or space is a completion; `input` is embeddings when it is an array of strings or token ids, or
    /// the body has `encoding_format` or `dimensions` or an embedding model, else (and
    /// `instructions`, `previous_response_id` or a stored `prompt` object) Responses; without `messages`, a string
    /// `message` is Cohere's v1 chat and a `prompt` (Hugging Face's `inputs`, Titan's `inputText`, SGLang's `text`) a
    /// legacy completion; `messages` is Bedrock Converse when there is an `inferenceConfig` or `toolConfig` or a
    /// content block keyed by its kind (`{"text": ...}`, no `type`), Anthropic when there is a top-level `system` or
    /// `anthropic_version` (Vertex AI, Bedrock's InvokeModel), a tool with `input_schema`, an Anthropic content block
    /// (`tool_use`, `tool_result`, an image with `source`) or a `claude` model, else OpenAI chat.
    pub fn detect(body: &Value) -> Option<Api> {
        let o = body.as_object()?;
        if o.contains_key("contents") {
            return Some(Api::GeminiGenerateContent);
        }
        if is_watsonx_generation(body) {
            return Some(Api::Completions);
        }
        if let Some(input) = o.get("input") {
            let embedding_model = o
                .get("model")
                .and_then(Value::as_str)
                .is_some_and(|m| m.to_ascii_lowercase().contains("embed"));
            let plain_items = input.as_array().is_some_and(|items| {
                items
                    .iter()
                    .find(|i| !i.is_null())
                    .is_some_and(|i| i.is_string() || i.is_number() || i.is_array())
            });
            if embedding_model
                || plain_items
                || o.contains_key("encoding_format")
                || o.contains_key("dimensions")
            {
                return Some(Api::Embeddings);
            }
        }
        // A stored prompt (`prompt: {id, version, variables}`) or a continued conversation is Responses too.
        if o.contains_key("input")
            || o.contains_key("instructions")
            || o.contains_key("previous_response_id")
            || o.get("prompt").is_some_and(|p| p.get("id").is_some())
        {
            return Some(Api::OpenAiResponses);
        }
        if !o.contains_key("messages") {
            // Cohere's v1 chat names its new turn `message`.
            if o.get("message").is_some_and(Value::is_string) {
                return Some(Api::CohereChat);
            }
            // Titan's `inputText`, SGLang's `text` (a string or strings: Responses' `text` is an object).
            // llama.cpp's `POST /infill`: code before and after the cursor, and other files (`input_extra`).
            let prompt = o.contains_key("prompt")
                || o.contains_key("input_prefix")
                || o.contains_key("input_suffix")
                || o.contains_key("inputs")
                || o.contains_key("inputText")
                || o.get("text").is_some_and(|t| t.is_string() || t.is_array());
            return prompt.then_some(Api::Completions);
        }
        let keyed_blocks = any_block(body, |p| {
            p.is_object()
                && p.get("type").is_none()
                && BEDROCK_BLOCKS.iter().any(|k| p.get(k).is_some())
        });
        if o.contains_key("inferenceConfig") || o.contains_key("toolConfig") || keyed_blocks {
            return Some(Api::BedrockConverse);
        }
        let claude = o
            .get("model")
            .and_then(Value::as_str)
            .is_some_and(is_claude);
        let anthropic_tools = o
            .get("tools")
            .and_then(Value::as_array)
            .is_some_and(|t| t.iter().any(|t| t.get("input_schema").is_some()));
        // (Mistral's reasoning models send `thinking` chunks too, their `thinking` an array of text chunks, not
        // Anthropic's string.)
        let anthropic_blocks = any_block(body, |p| {
            let thinking = p.get("thinking").is_some_and(Value::is_string);
            matches!(
                p.get("type").and_then(Value::as_str),
                Some("tool_use" | "tool_result" | "document")
            ) || (thinking && p.get("type").and_then(Value::as_str) == Some("thinking"))
                || p.get("source").is_some()
        });
        // Anthropic's body on Vertex AI and Bedrock's InvokeModel names no model but an `anthropic_version`.
        if o.contains_key("system")
            || o.contains_key("anthropic_version")
            || claude
            || anthropic_tools
            || anthropic_blocks
        {
            Some(Api::AnthropicMessages)
        } else {
            Some(Api::OpenAiChat)
        }
    }

    /// The profile that counts this API's tokens when the model does not say.
    pub const fn default_profile(self) -> Profile {
        match self {
            // Cohere publishes no tokenizer a profile reads; o200k stands in, as for other OpenAI-style APIs.
            Api::OpenAiChat | Api::OpenAiResponses | Api::Completions | Api::CohereChat => {
                Profile::O200k
            }
            // OpenAI's embedding models (text-embedding-3, ada-002) use cl100k.
            Api::Embeddings => Profile::Cl100k,
            Api::AnthropicMessages | Api::BedrockConverse => Profile::ClaudeLegacy,
            Api::GeminiGenerateContent => Profile::Gemini,
        }
    }
}

/// Whether a body is IBM watsonx.ai's text generation (`POST /ml/v1/text/generation`): a string `input` for a
/// `model_id` in a project or space, its cap in `parameters.max_new_tokens`.
fn is_watsonx_generation(body: &Value) -> bool {
    body.get("input").is_some_and(Value::is_string)
        && body.get("model_id").is_some()
        && (body.get("project_id").is_some() || body.get("space_id").is_some())
}

/// Whether a model name is a Claude model's.
fn is_claude(model: &str) -> bool {
    model.to_ascii_lowercase().contains("claude")
}

/// The tool-use system prompt Anthropic adds for `model` when tools are present, by its pricing page's table:
/// [`ANTHROPIC_TOOL_SYSTEM_PROMPT`] (auto or none) or [`ANTHROPIC_TOOL_SYSTEM_PROMPT_FORCED`] (`forced`: any or a
/// named tool) for Claude 4 and 3.7 (and a model it does not list), 530 or 281 for Claude 3 Opus, 159 or 235 for
/// Claude 3 Sonnet, 264 or 340 for Claude 3 and 3.5 Haiku.
fn anthropic_tool_prompt(model: &str, forced: bool) -> u64 {
    let m = model.to_ascii_lowercase();
    let (auto, any) = if m.contains("claude-3-opus") {
        (530, 281)
    } else if m.contains("claude-3-sonnet") {
        (159, 235)
    } else if m.contains("claude-3-haiku") || m.contains("claude-3-5-haiku") {
        (264, 340)
    } else {
        (
            ANTHROPIC_TOOL_SYSTEM_PROMPT,
            ANTHROPIC_TOOL_SYSTEM_PROMPT_FORCED,
        )
    };
    if forced {
        any
    } else {
        auto
    }
}

/// The input tokens an Anthropic built-in tool's definition adds, from Anthropic's pricing page ("Specific tool
/// pricing"): bash 245 (325 for Claude Opus 4.7 and 4.8), the text editor 700 (`text_editor_20250124` and before)
/// or 722 (later), computer use 735 per definition plus its system prompt of 466-499 (taken at 499). `None` for a
/// tool the page gives no figure for (web search, web fetch, code execution, memory, MCP).
fn anthropic_tool_tokens(ty: &str, model: &str) -> Option<u64> {
    let (name, date) = ty.rsplit_once('_')?;
    let newer_opus = ["opus-4-7", "opus-4-8"].iter().any(|m| model.contains(m));
    match name {
        "bash" if newer_opus => Some(325),
        "bash" => Some(245),
        "text_editor" if date <= "20250124" => Some(700),
        "text_editor" => Some(722),
        "computer" => Some(735 + 499),
        _ => None,
    }
}

/// [`ANTHROPIC_PER_TOOL_BLOCK`] for a Claude model after Claude 3 (measured on Claude 4; a recorded Claude 3 Haiku
/// request counted less), none for Claude 3 Haiku, Sonnet and Opus.
fn tool_block_tokens(model: &str) -> u64 {
    let m = model.to_ascii_lowercase();
    if ["claude-3-haiku", "claude-3-sonnet", "claude-3-opus"]
        .iter()
        .any(|c| m.contains(c))
    {
        0
    } else {
        ANTHROPIC_PER_TOOL_BLOCK
    }
}

/// Whether any content block of any message in `body` passes `test`.
fn any_block(body: &Value, test: impl Fn(&Value) -> bool) -> bool {
    let contents = body.get("messages").and_then(Value::as_array);
    contents.is_some_and(|ms| {
        ms.iter()
            .filter_map(|m| m.get("content").and_then(Value::as_array))
            .any(|ps| ps.iter().any(&test))
    })
}

/// The kinds of a Bedrock Converse content block, each its block's one key.
const BEDROCK_BLOCKS: [&str; 9] = [
    "text",
    "image",
    "document",
    "video",
    "toolUse",
    "toolResult",
    "reasoningContent",
    "cachePoint",
    "guardContent",
];

/// A whole request's estimate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestEstimate {
    /// The API the body is for.
    pub api: Api,
    /// The body's `model`, if any.
    pub model: Option<String>,
    /// Prompt tokens with their band: the text's estimate plus `overhead_tokens` and `media_tokens`. `chars` and
    /// `content` describe the text parts only.
    pub estimate: Estimate,
    /// Structural tokens included (per message, per tool, reply priming).
    pub overhead_tokens: u64,
    /// Media tokens included at the point estimate (the sum over `media`).
    pub media_tokens: u64,
    /// Prompt tokens given as token ids (legacy completions, embeddings): counted exactly, included in `estimate`.
    pub token_ids: u64,
    /// Each image, PDF and audio part, with its size, pages or duration and what it was priced at.
    pub media: Vec<MediaPart>,
    /// The output the body may generate in all: its cap (`max_tokens`, `max_completion_tokens`,
    /// `max_output_tokens`, `maxOutputTokens`, `inferenceConfig.maxTokens` (Nova's `max_new_tokens`),
    /// `max_tokens_to_sample`, `max_gen_len`, Ollama's `options.num_predict`, llama.cpp's `n_predict`) times the
    /// completions it asks for (`n`, `best_of`, `candidateCount`, one per prompt of a legacy completion's array).
    /// `None` when the body sets no cap (for a legacy completion the API's default of 16 applies, but for a
    /// `num_predict` or `n_predict` of -1 or -2, which lift the cap); `Some(0)` for embeddings.
    pub max_output: Option<u64>,
    /// Messages (turns, input items) counted.
    pub messages: u64,
    /// Tool or function definitions counted.
    pub tools: u64,
    /// Some parts could not be measured (a URL, a file id): each is priced as its rule's documented band. Context the
    /// provider holds and prepends (Responses' `previous_response_id`, `conversation` or stored `prompt`, Gemini's
    /// `cachedContent`, an earlier spoken reply by id) and built-in tools' prompts are not priced at all: their
    /// pointers are in `unpriced` too.
    pub incomplete: bool,
    /// JSON pointers of the parts that could not be priced.
    pub unpriced: Vec<String>,
}

impl RequestEstimate {
    /// The request's cost for a preflight check.
    pub fn cost(&self) -> Cost {
        Cost {
            input: Band::from(&self.estimate),
            max_output: self.max_output,
            incomplete: self.incomplete,
        }
    }
}

/// Estimates a request body (JSON text). `api` and `profile` are detected from the body when `None` (the profile
/// from its `model`, else the API's default).
pub fn estimate_request(
    body: &str,
    api: Option<Api>,
    profile: Option<Profile>,
) -> Result<RequestEstimate, PreflightError> {
    let v: Value =
        serde_json::from_str(body).map_err(|e| PreflightError::NotJson(e.to_string()))?;
    estimate_request_value(&v, api, profile)
}

/// Estimates a request body already parsed.
pub fn estimate_request_value(
    body: &Value,
    api: Option<Api>,
    profile: Option<Profile>,
) -> Result<RequestEstimate, PreflightError> {
    estimate_request_priced(body, api, profile.map(Tables::from))
}

/// Estimates a request body already parsed, priced with the given tables (a shipped profile's or a
/// [`crate::CustomProfile`]'s); `None` picks the profile from the body's `model`, else the API's default.
pub fn estimate_request_priced(
    body: &Value,
    api: Option<Api>,
    tables: Option<Tables<'_>>,
) -> Result<RequestEstimate, PreflightError> {
    if !body.is_object() {
        return Err(shape("", "a JSON object (a request body)"));
    }
    if let Some(r) = envelope(body, api, tables) {
        return r;
    }
    let api = match api.or_else(|| Api::detect(body)) {
        Some(a) => a,
        None => {
            return Err(shape(
                "",
                "an OpenAI chat (`messages`), Responses (`input`), Anthropic or Bedrock Converse (`messages`), Gemini \
                 (`contents`), Cohere chat (`message`), completion (`prompt`) or embeddings (`input`) request",
            ))
        }
    };
    // Bedrock names the model in the URL; a body that carries it (as the SDKs' `modelId`) says it there, and
    // watsonx's says `model_id`.
    let (model_key, model_value) = ["/model", "/modelId", "/model_id"]
        .into_iter()
        .map(|k| (k, body.pointer(k)))
        .find(|(_, m)| m.is_some_and(|m| !m.is_null()))
        .unwrap_or(("/model", None));
    let model = match model_value {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(shape(model_key, "a string")),
    };
    let tables = tables.unwrap_or_else(|| {
        model
            .as_deref()
            .and_then(|m| Profile::for_model(m).ok())
            .unwrap_or(api.default_profile())
            .into()
    });
    let family = match api {
        Api::OpenAiChat
        | Api::OpenAiResponses
        | Api::Completions
        | Api::Embeddings
        | Api::CohereChat => "openai",
        Api::AnthropicMessages | Api::BedrockConverse => "anthropic",
        Api::GeminiGenerateContent => "gemini",
    };
    let resolution = body
        .pointer("/generationConfig/mediaResolution")
        .or_else(|| body.pointer("/generation_config/media_resolution"))
        .and_then(resolution_level)
        .map(str::to_string);
    let mut w = Walker {
        cl100k: tables.base() == Profile::Cl100k,
        est: Estimator::new(tables.base()),
        overhead: 0,
        messages: 0,
        tools: 0,
        token_ids: 0,
        claude: model.as_deref().is_some_and(is_claude),
        tool_block: tool_block_tokens(model.as_deref().unwrap_or("")),
        unpriced: Vec::new(),
        fed: false,
        pricing: Pricing {
            api: family,
            model: model.clone().unwrap_or_default(),
            resolution,
        },
        parts: Vec::new(),
    };
    let max_output = match api {
        Api::OpenAiChat => {
            w.openai_chat(body)?;
            let cap = match first_count(body, &["/max_completion_tokens", "/max_tokens"])? {
                None => num_predict(body)?.flatten(),
                cap => cap,
            };
            times(cap, choices(body, &["/n"])?)
        }
        Api::OpenAiResponses => {
            w.openai_responses(body)?;
            first_count(body, &["/max_output_tokens"])?
        }
        Api::AnthropicMessages => {
            w.anthropic(body)?;
            first_count(body, &["/max_tokens"])?
        }
        Api::GeminiGenerateContent => {
            w.gemini(body)?;
            let cap = first_count(
                body,
                &[
                    "/generationConfig/maxOutputTokens",
                    "/generation_config/max_output_tokens",
                ],
            )?;
            let candidates = choices(
                body,
                &[
                    "/generationConfig/candidateCount",
                    "/generation_config/candidate_count",
                ],
            )?;
            times(cap, candidates)
        }
        Api::BedrockConverse => {
            w.bedrock(body)?;
            // Amazon Nova's InvokeModel body names it `inferenceConfig.max_new_tokens`.
            first_count(
                body,
                &[
                    "/inferenceConfig/maxTokens",
                    "/inferenceConfig/max_new_tokens",
                ],
            )?
        }
        Api::Completions => {
            let prompts = w.completions(body)?;
            let cap = match first_count(
                body,
                &[
                    "/max_tokens",
                    "/max_tokens_to_sample",
                    "/parameters/max_new_tokens",
                    // Meta's Llama models on Bedrock (InvokeModel: `prompt`, `max_gen_len`).
                    "/max_gen_len",
                    // AI21's Jurassic-2 on Bedrock, Amazon Titan's text models, SGLang's `POST /generate`.
                    "/maxTokens",
                    "/textGenerationConfig/maxTokenCount",
                    "/sampling_params/max_new_tokens",
                ],
            )? {
                None => num_predict(body)?.unwrap_or_else(|| default_completion_cap(body)),
                cap => cap,
            };
            // `best_of` completions are generated server-side (at least `n`), for each prompt.
            let per_prompt = choices(body, &["/n"])?.max(choices(body, &["/best_of"])?);
            times(cap, per_prompt.saturating_mul(prompts.max(1)))
        }
        Api::Embeddings => {
            w.embeddings(body)?;
            Some(0)
        }
        Api::CohereChat => {
            w.cohere(body)?;
            first_count(body, &["/max_tokens"])?
        }
    };
    let mut estimate = w.est.finish_as(tables);
    let (mut tokens, mut low, mut high) = (0, 0, 0);
    for p in &w.parts {
        tokens += p.tokens;
        low += p.low;
        high += p.high;
        if !p.measured {
            w.unpriced.push(p.pointer.clone());
        }
    }
    let exact = w.overhead + w.token_ids;
    estimate.tokens += exact + tokens;
    estimate.low += exact + low;
    estimate.high += exact + high;
    Ok(RequestEstimate {
        api,
        model,
        estimate,
        overhead_tokens: w.overhead,
        media_tokens: tokens,
        token_ids: w.token_ids,
        media: w.parts,
        max_output,
        messages: w.messages,
        tools: w.tools,
        incomplete: !w.unpriced.is_empty(),
        unpriced: w.unpriced,
    })
}

/// The output cap of a text-generation body that sets none: the API's default where it is documented (OpenAI's
/// `/v1/completions` 16, Amazon Titan's `maxTokenCount` 512, SGLang's `max_new_tokens` 128, watsonx.ai's 20); none
/// for Ollama's and llama.cpp's bodies (both generate without a limit by default) and Hugging Face's `inputs` (whose
/// default differs by server version).
fn default_completion_cap(body: &Value) -> Option<u64> {
    /// Keys only Ollama's `/api/generate` or llama.cpp's server bodies carry.
    const NATIVE: [&str; 14] = [
        "options",
        "format",
        "images",
        "system",
        "template",
        "raw",
        "keep_alive",
        "context",
        "think",
        "input_prefix",
        "input_suffix",
        "input_extra",
        "cache_prompt",
        "n_keep",
    ];
    if body.get("inputText").is_some() {
        Some(TITAN_DEFAULT_MAX_TOKENS)
    } else if is_watsonx_generation(body) {
        Some(WATSONX_DEFAULT_MAX_NEW_TOKENS)
    } else if body.get("prompt").is_none() && body.get("text").is_some() {
        Some(SGLANG_DEFAULT_MAX_NEW_TOKENS)
    } else if body.get("inputs").is_some() || NATIVE.iter().any(|k| body.get(k).is_some()) {
        None
    } else {
        Some(COMPLETIONS_DEFAULT_MAX_TOKENS)
    }
}

/// A body wrapped in an envelope, estimated as the body inside with its pointers (in `unpriced`, `media` and errors)
/// made the envelope's: an OpenAI Batch input line (`{custom_id, method, url, body}`), an Anthropic Message Batches
/// request (`{custom_id, params}`), a Gemini or Vertex AI batch line (`{key, request}`, `{request}`), Bedrock's
/// CountTokens body (`{input: {converse}}`), a Bedrock batch inference
/// record (`{recordId, modelInput}`) and DashScope's native bodies (`input: {messages}` or `input: {prompt}`, its
/// caps in `parameters`, the model beside them; embeddings' `input: {texts}`; Replicate's `input: {prompt}` with its
/// caps inside). `None` when the body is in no
/// envelope.
fn envelope(
    body: &Value,
    api: Option<Api>,
    tables: Option<Tables<'_>>,
) -> Option<Result<RequestEstimate, PreflightError>> {
    if let (Some(inner), Some(_)) = (body.get("body"), body.get("custom_id")) {
        return Some(within("/body", estimate_request_priced(inner, api, tables)));
    }
    // An Anthropic Message Batches request: `{custom_id, params}`, a Messages body inside.
    if let (Some(inner), Some(_)) = (body.get("params"), body.get("custom_id")) {
        return Some(within(
            "/params",
            estimate_request_priced(inner, api, tables),
        ));
    }
    // A whole batch is many requests, each admitted on its own: it has no one estimate.
    if body
        .pointer("/requests/0/params")
        .or_else(|| body.pointer("/requests/0/body"))
        .or_else(|| body.pointer("/requests/0/request"))
        .is_some()
    {
        return Some(Err(shape(
            "/requests",
            "one request of the batch (`{custom_id, params}`, `{custom_id, body}` or `{request}`): each is \
             checked on its own",
        )));
    }
    // A Gemini batch line (`{key, request}`), a Vertex AI batch prediction line (`{request}`).
    if let Some(inner) = body
        .get("request")
        .filter(|r| r.get("contents").is_some() || r.get("messages").is_some())
    {
        return Some(within(
            "/request",
            estimate_request_priced(inner, api, tables),
        ));
    }
    // Bedrock's CountTokens body: `{input: {converse: {...}}}`, a Converse request without its model.
    if let Some(inner) = body.pointer("/input/converse") {
        let api = api.or(Some(Api::BedrockConverse));
        return Some(within(
            "/input/converse",
            estimate_request_priced(inner, api, tables),
        ));
    }
    // A Bedrock batch inference record: `{recordId, modelInput}`, the model's InvokeModel body inside.
    if let (Some(inner), Some(_)) = (body.get("modelInput"), body.get("recordId")) {
        return Some(within(
            "/modelInput",
            estimate_request_priced(inner, api, tables),
        ));
    }
    let input = body.get("input").filter(|i| {
        i.get("messages").is_some() || i.get("prompt").is_some() || i.get("texts").is_some()
    })?;
    // DashScope's embeddings: `input: {texts: [...]}`.
    let api = api.or(input.get("texts").map(|_| Api::Embeddings));
    let model = body.get("model").and_then(Value::as_str);
    // DashScope's bodies are Qwen's (qwen3 when the model is not known). Replicate's (a `version`, or caps and a
    // system prompt inside `input`) name the model in the URL: the API's default then.
    let replicate = body.get("version").is_some()
        || ["max_tokens", "max_new_tokens", "system_prompt"]
            .iter()
            .any(|k| input.get(k).is_some());
    let tables = tables.or_else(|| match model {
        None if replicate => None,
        _ => Some(
            model
                .and_then(|m| Profile::for_model(m).ok())
                .unwrap_or(Profile::Qwen3)
                .into(),
        ),
    });
    let r = within("/input", estimate_request_priced(input, api, tables));
    Some(r.and_then(|mut r| {
        r.model = model.map(str::to_string);
        if r.api == Api::Embeddings {
            return Ok(r);
        }
        // DashScope's default cap is the model's own maximum output, which the body does not say. Replicate's
        // bodies (`input: {prompt, system_prompt, max_tokens}`) keep their caps in `input`.
        let cap = first_count(
            body,
            &[
                "/parameters/max_tokens",
                "/input/max_tokens",
                "/input/max_new_tokens",
            ],
        )?;
        r.max_output = times(cap, choices(body, &["/parameters/n"])?);
        if body
            .pointer("/parameters/tools")
            .is_some_and(|t| !t.is_null())
        {
            r.unpriced.push("/parameters/tools".into());
            r.incomplete = true;
        }
        Ok(r)
    }))
}

/// An estimate of the body at `prefix`, with its pointers made the outer body's.
fn within(
    prefix: &str,
    r: Result<RequestEstimate, PreflightError>,
) -> Result<RequestEstimate, PreflightError> {
    let outer = |p: &mut String| {
        if p.starts_with('/') || p.is_empty() {
            *p = if p.as_str() == "/" || p.is_empty() {
                prefix.to_string()
            } else {
                format!("{prefix}{p}")
            };
        }
    };
    match r {
        Ok(mut r) => {
            r.unpriced.iter_mut().for_each(outer);
            r.media.iter_mut().for_each(|m| outer(&mut m.pointer));
            Ok(r)
        }
        Err(PreflightError::WrongShape { mut path, expected }) => {
            outer(&mut path);
            Err(PreflightError::WrongShape { path, expected })
        }
        Err(PreflightError::InvalidCount { mut what, value }) => {
            outer(&mut what);
            Err(PreflightError::InvalidCount { what, value })
        }
        Err(e) => Err(e),
    }
}

fn shape(path: &str, expected: &str) -> PreflightError {
    PreflightError::WrongShape {
        path: if path.is_empty() {
            "/".into()
        } else {
            path.into()
        },
        expected: expected.into(),
    }
}

/// How many completions a body asks for at the first of `paths` it sets (1 when none): a whole number from 1.
fn choices(body: &Value, paths: &[&'static str]) -> Result<u64, PreflightError> {
    match first_set(body, paths) {
        None => Ok(1),
        Some((p, v)) => match v.as_f64() {
            Some(f) if f >= 1.0 => count_from_f64(p, f),
            _ => Err(shape(p, "a whole number of completions, at least 1")),
        },
    }
}

/// The first of `paths` the body sets (to anything but null), with its path.
fn first_set<'a>(body: &'a Value, paths: &[&'static str]) -> Option<(&'static str, &'a Value)> {
    paths
        .iter()
        .find_map(|&p| body.pointer(p).filter(|v| !v.is_null()).map(|v| (p, v)))
}

/// A cap times a number of completions (none stays none).
fn times(cap: Option<u64>, n: u64) -> Option<u64> {
    cap.map(|c| c.saturating_mul(n))
}

/// Where Ollama's native APIs (`/api/chat`, `/api/generate`) and llama.cpp's server (`/completion`) take their
/// output cap.
const NUM_PREDICT: [&str; 2] = ["/options/num_predict", "/n_predict"];

/// Ollama's or llama.cpp's output cap, `options.num_predict` or `n_predict`, when the body sets it: `Some(None)` for
/// their sentinels -1 (no limit) and -2 (until the context is full), which cap nothing.
fn num_predict(body: &Value) -> Result<Option<Option<u64>>, PreflightError> {
    let Some((p, v)) = first_set(body, &NUM_PREDICT) else {
        return Ok(None);
    };
    match v.as_f64() {
        Some(f) if f == -1.0 || f == -2.0 => Ok(Some(None)),
        Some(f) => count_from_f64(p, f).map(|n| Some(Some(n))),
        None => Err(shape(p, "a whole number of tokens, or -1 or -2")),
    }
}

fn first_count(body: &Value, paths: &[&'static str]) -> Result<Option<u64>, PreflightError> {
    let Some((p, v)) = first_set(body, paths) else {
        return Ok(None);
    };
    let f = v
        .as_f64()
        .ok_or_else(|| shape(p, "a whole number of tokens"))?;
    count_from_f64(p, f).map(Some)
}

struct Walker {
    cl100k: bool,
    est: Estimator,
    overhead: u64,
    messages: u64,
    tools: u64,
    /// Prompt tokens given as token ids.
    token_ids: u64,
    /// The body's model is a Claude model (Bedrock: the tool-use system prompt applies).
    claude: bool,
    /// What each Anthropic `tool_use` or `tool_result` block adds for the body's model ([`tool_block_tokens`]).
    tool_block: u64,
    unpriced: Vec<String>,
    fed: bool,
    pricing: Pricing,
    parts: Vec<MediaPart>,
}

/// Gemini's media resolution, as a string or `{level: ...}`.
fn resolution_level(v: &Value) -> Option<&str> {
    v.as_str()
        .or_else(|| v.get("level").and_then(Value::as_str))
}

/// Whether a MIME type or file name is a PDF.
fn is_pdf(mime: &str) -> bool {
    mime.eq_ignore_ascii_case("application/pdf") || mime.to_ascii_lowercase().ends_with(".pdf")
}

/// A text file's media type (`text/plain`, `text/markdown`, `text/csv`, `text/html`, ...): the model reads its text.
fn is_text(mime: &str) -> bool {
    mime.get(..5)
        .is_some_and(|t| t.eq_ignore_ascii_case("text/"))
}

/// Bedrock Converse's document formats that are text (the others are PDF and office files).
const BEDROCK_TEXT_FORMATS: [&str; 4] = ["txt", "md", "csv", "html"];

fn arr<'a>(v: &'a Value, path: &str, what: &str) -> Result<&'a [Value], PreflightError> {
    v.as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| shape(path, what))
}

/// A JSON object serialized without its `id` member, as `Value::to_string` writes the rest.
struct WithoutId<'a>(&'a serde_json::Map<String, Value>);

impl Serialize for WithoutId<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().filter(|(k, _)| k.as_str() != "id"))
    }
}

/// An optional array field: `null`, as SDKs send one they leave unset (`"tool_calls": null`), is an empty one.
fn opt_arr<'a>(v: &'a Value, path: &str, what: &str) -> Result<&'a [Value], PreflightError> {
    match v {
        Value::Null => Ok(&[]),
        _ => arr(v, path, what),
    }
}

/// The `messages` array of a chat body (OpenAI chat, Anthropic), each with its JSON pointer; every one an object.
/// Checked lazily, so errors come in the order the walk meets them.
fn messages(
    body: &Value,
) -> Result<impl Iterator<Item = Result<(String, &Value), PreflightError>>, PreflightError> {
    let msgs = body
        .get("messages")
        .ok_or_else(|| shape("/messages", "an array of messages"))?;
    objects(
        msgs,
        "/messages",
        "an array of messages",
        "a message object with `role` and `content`",
    )
}

/// The items of the array `v` at `path`, each with its JSON pointer; every one an object (`item` says what was
/// expected of one). Checked lazily, so errors come in the order the walk meets them.
fn objects<'a>(
    v: &'a Value,
    path: &'a str,
    what: &str,
    item: &'a str,
) -> Result<impl Iterator<Item = Result<(String, &'a Value), PreflightError>>, PreflightError> {
    Ok(arr(v, path, what)?.iter().enumerate().map(move |(i, m)| {
        let p = format!("{path}/{i}");
        if m.is_object() {
            Ok((p, m))
        } else {
            Err(shape(&p, item))
        }
    }))
}

impl Walker {
    fn text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        self.next_piece();
        self.est.update(s);
    }

    /// Starts a piece of the prompt's text: after another, a newline joins them.
    fn next_piece(&mut self) {
        if self.fed {
            self.est.update("\n");
        }
        self.fed = true;
    }

    /// The string members `keys` of `obj`, each as text (an absent or null one is nothing; another value, an error
    /// at `{p}/{key}`).
    fn members(&mut self, obj: &Value, keys: &[&str], p: &str) -> Result<(), PreflightError> {
        for key in keys {
            self.string_at(obj.get(key).unwrap_or(&Value::Null), &format!("{p}/{key}"))?;
        }
        Ok(())
    }

    /// Context the provider holds and prepends, billed as input but not in the body: each of `keys` the body sets is
    /// unpriced.
    fn held(&mut self, body: &Value, keys: &[&str]) {
        for key in keys {
            if body.get(key).is_some_and(|v| !v.is_null()) {
                self.unpriced(format!("/{key}"));
            }
        }
    }

    fn string_at(&mut self, v: &Value, path: &str) -> Result<(), PreflightError> {
        match v {
            Value::String(s) => {
                self.text(s);
                Ok(())
            }
            Value::Null => Ok(()),
            _ => Err(shape(path, "a string")),
        }
    }

    /// A text document carried as base64 (a `.txt`, `.md`, `.csv` or `.html` file): its text, decoded in pieces into
    /// the estimate with no copy of its size. Where the base64 breaks off, the rest is unpriced.
    fn base64_text(&mut self, b64: &str, path: String) {
        if b64.trim().is_empty() {
            return;
        }
        self.next_piece();
        let est = &mut self.est;
        if !decode_base64(b64, |piece| {
            est.update_bytes(piece);
        }) {
            self.unpriced(path);
        }
    }

    fn unpriced(&mut self, path: String) {
        self.unpriced.push(path);
    }

    /// Arguments, tool results and other free-form JSON: counted as their compact JSON text.
    fn json_text(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.text(s),
            Value::Null => {}
            other => self.text(&other.to_string()),
        }
    }

    // ---- OpenAI chat completions ------------------------------------------------------------------------------

    fn openai_chat(&mut self, body: &Value) -> Result<(), PreflightError> {
        for msg in messages(body)? {
            let (p, m) = msg?;
            match m.get("role") {
                Some(Value::String(_)) => {}
                _ => return Err(shape(&format!("{p}/role"), "a role string")),
            }
            self.messages += 1;
            self.overhead += OPENAI_PER_MESSAGE;
            if let Some(n) = m.get("name").filter(|n| !n.is_null()) {
                self.string_at(n, &format!("{p}/name"))?;
                self.overhead += OPENAI_PER_NAME;
            }
            self.openai_content(
                m.get("content").unwrap_or(&Value::Null),
                &format!("{p}/content"),
            )?;
            self.bare_images(m.get("images"), &format!("{p}/images"))?;
            // An earlier spoken reply, referred to by id (`audio: {id}`): the provider holds it and bills it as input.
            if m.pointer("/audio/id").is_some_and(|id| !id.is_null()) {
                self.unpriced(format!("{p}/audio"));
            }
            if let Some(calls) = m.get("tool_calls") {
                for (j, c) in opt_arr(calls, &format!("{p}/tool_calls"), "an array of tool calls")?
                    .iter()
                    .enumerate()
                {
                    let f = c.get("function").unwrap_or(c);
                    self.string_at(
                        f.get("name").unwrap_or(&Value::Null),
                        &format!("{p}/tool_calls/{j}/function/name"),
                    )?;
                    self.json_text(f.get("arguments").unwrap_or(&Value::Null));
                    self.overhead += OPENAI_PER_NAME;
                }
            }
            if let Some(fc) = m.get("function_call").filter(|f| !f.is_null()) {
                self.json_text(fc.get("name").unwrap_or(&Value::Null));
                self.json_text(fc.get("arguments").unwrap_or(&Value::Null));
            }
        }
        self.overhead += OPENAI_REPLY_PRIMING;
        let mut defs = Vec::new();
        if let Some(tools) = body.get("tools") {
            for (i, t) in opt_arr(tools, "/tools", "an array of tools")?
                .iter()
                .enumerate()
            {
                // A function tool, or a custom one (free-form text input, `custom: {name, description, format}`).
                let f = t.get("function").or_else(|| t.get("custom")).unwrap_or(t);
                if !f.is_object() {
                    return Err(shape(&format!("/tools/{i}"), "a tool object"));
                }
                defs.push((f, format!("/tools/{i}")));
            }
        }
        if let Some(fs) = body.get("functions") {
            for (i, f) in opt_arr(fs, "/functions", "an array of functions")?
                .iter()
                .enumerate()
            {
                defs.push((f, format!("/functions/{i}")));
            }
        }
        self.openai_tools(&defs)?;
        self.overhead += chat_template_tokens(&self.pricing.model, !defs.is_empty());
        // Structured Outputs: `response_format: {type: json_schema, json_schema: {name, description, schema}}`.
        if let Some(f) = body.pointer("/response_format/json_schema") {
            self.output_schema(f, "/response_format/json_schema")?;
        }
        // Azure OpenAI "On Your Data": the provider retrieves documents from `data_sources` into the prompt.
        self.held(body, &["data_sources"]);
        // OpenRouter's web search (`plugins: [{id: "web"}]`, or a model named `...:online`) adds its results to the
        // prompt as a system message.
        if let Some(plugins) = body.get("plugins").and_then(Value::as_array) {
            for (i, pl) in plugins.iter().enumerate() {
                if pl.get("id").and_then(Value::as_str) == Some("web") {
                    self.unpriced(format!("/plugins/{i}"));
                }
            }
        }
        if self.pricing.model.ends_with(":online") {
            self.unpriced("/model".into());
        }
        // Cohere's v2 chat: grounding `documents` beside the messages.
        self.documents(body)
    }

    /// A Structured Outputs schema (`response_format`'s, `text.format`'s): its name, description and properties
    /// count as prompt tokens, rendered as a function's parameters are (OpenAI does not document how it renders
    /// them).
    fn output_schema(&mut self, f: &Value, p: &str) -> Result<(), PreflightError> {
        if !f.is_object() {
            return Err(shape(p, "a JSON schema format object"));
        }
        self.members(f, &["name", "description"], p)?;
        if let Some(schema) = f.get("schema") {
            let over = self.schema(schema, &format!("{p}/schema"))?;
            self.overhead += over.max(0) as u64;
        }
        Ok(())
    }

    fn openai_content(&mut self, c: &Value, p: &str) -> Result<(), PreflightError> {
        match c {
            Value::Null => Ok(()),
            Value::String(s) => {
                self.text(s);
                Ok(())
            }
            Value::Array(parts) => {
                for (k, part) in parts.iter().enumerate() {
                    self.openai_part(part, format!("{p}/{k}"))?;
                }
                Ok(())
            }
            _ => Err(shape(p, "a string or an array of content parts")),
        }
    }

    /// One content part of an OpenAI chat message or Responses item, at `pp`.
    fn openai_part(&mut self, part: &Value, pp: String) -> Result<(), PreflightError> {
        let ty = part.get("type").and_then(Value::as_str).unwrap_or("");
        match ty {
            "text" | "input_text" | "output_text" | "refusal" => {
                let t = part
                    .get("text")
                    .or_else(|| part.get("refusal"))
                    .unwrap_or(&Value::Null);
                self.string_at(t, &format!("{pp}/text"))?;
            }
            // Mistral's reasoning models: a `thinking` chunk holds text chunks, sent back as history.
            "thinking" if part.get("thinking").is_some_and(Value::is_array) => {
                self.openai_content(&part["thinking"], &format!("{pp}/thinking"))?;
            }
            // Responses' `computer_call_output` carries a `computer_screenshot`.
            "image_url" | "input_image" | "computer_screenshot" => {
                let detail = part
                    .pointer("/image_url/detail")
                    .or_else(|| part.get("detail"))
                    .and_then(Value::as_str);
                // Chat: `image_url: {url}` (Mistral: a bare string); Responses: `image_url` or `file_id`.
                let url = part
                    .pointer("/image_url/url")
                    .or_else(|| part.get("image_url"))
                    .and_then(Value::as_str);
                let data = url.map_or(Data::Elsewhere("file"), Data::url);
                let m = self.pricing.image(pp, data, detail, None);
                self.parts.push(m);
            }
            "file" | "input_file" => {
                // Chat: `file: {file_data, file_id, filename}`; Responses: the same members on the part.
                let f = part.get("file").unwrap_or(part);
                let name = f.get("filename").and_then(Value::as_str).unwrap_or("");
                let data = f.get("file_data").and_then(Value::as_str);
                let mime = data
                    .and_then(|d| d.strip_prefix("data:"))
                    .and_then(|d| d.split([';', ',']).next())
                    .unwrap_or("");
                if is_pdf(mime) || is_pdf(name) || (data.is_none() && name.is_empty()) {
                    let data = data.map_or(Data::Elsewhere("file"), Data::url);
                    let m = self.pricing.pdf(pp, data);
                    self.parts.push(m);
                } else if let (true, Some(Data::Base64(b))) = (is_text(mime), data.map(Data::url)) {
                    self.base64_text(b, pp);
                } else {
                    self.unpriced(pp);
                }
            }
            "input_audio" => {
                let data = part
                    .pointer("/input_audio/data")
                    .and_then(Value::as_str)
                    .map_or(Data::Elsewhere("file"), Data::Base64);
                let m = self.pricing.audio(pp, data);
                self.parts.push(m);
            }
            "" if part.is_string() => self.json_text(part),
            "" => return Err(shape(&pp, "a content part with a `type`")),
            _ => self.unpriced(pp),
        }
        Ok(())
    }

    fn openai_tools(&mut self, defs: &[(&Value, String)]) -> Result<(), PreflightError> {
        if defs.is_empty() {
            return Ok(());
        }
        let mut over: i64 = OPENAI_TOOLS_BASE as i64;
        for (f, p) in defs {
            self.tools += 1;
            over += if self.cl100k {
                OPENAI_CL100K_PER_TOOL
            } else {
                OPENAI_PER_TOOL
            } as i64;
            self.members(f, &["name", "description"], p)?;
            if let Some(params) = f.get("parameters") {
                over += self.schema(params, &format!("{p}/parameters"))?;
            }
            // A custom tool's input format (a grammar's definition) as its JSON text.
            if let Some(format) = f.get("format") {
                self.json_text(format);
            }
        }
        self.overhead += over.max(0) as u64;
        Ok(())
    }

    /// A JSON schema's properties, rendered the way OpenAI renders them; returns the structural overhead.
    fn schema(&mut self, s: &Value, p: &str) -> Result<i64, PreflightError> {
        let Some(props) = s.get("properties") else {
            return Ok(0);
        };
        let props = props
            .as_object()
            .ok_or_else(|| shape(&format!("{p}/properties"), "an object of properties"))?;
        let mut over = 0i64;
        for (name, prop) in props {
            over += OPENAI_PER_PROPERTY as i64;
            self.text(name);
            if let Some(d) = prop.get("description") {
                self.json_text(d);
            }
            match prop.get("enum").and_then(Value::as_array) {
                Some(items) => {
                    over += OPENAI_PER_ENUM_PROPERTY;
                    for it in items {
                        over += if self.cl100k {
                            OPENAI_CL100K_PER_ENUM_ITEM
                        } else {
                            OPENAI_PER_ENUM_ITEM
                        } as i64;
                        self.json_text(it);
                    }
                }
                None => {
                    if let Some(t) = prop.get("type") {
                        self.json_text(t);
                    }
                }
            }
            over += self.schema(prop, &format!("{p}/properties/{name}"))?;
            if let Some(items) = prop.get("items") {
                over += self.schema(items, &format!("{p}/properties/{name}/items"))?;
            }
        }
        Ok(over)
    }

    // ---- OpenAI Responses -------------------------------------------------------------------------------------

    fn openai_responses(&mut self, body: &Value) -> Result<(), PreflightError> {
        if let Some(ins) = body.get("instructions") {
            if !ins.is_null() {
                self.string_at(ins, "/instructions")?;
                self.messages += 1;
                self.overhead += OPENAI_PER_MESSAGE;
            }
        }
        match body.get("input") {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) => {
                self.messages += 1;
                self.overhead += OPENAI_PER_MESSAGE;
                self.text(s);
            }
            Some(Value::Array(items)) => {
                for (i, it) in items.iter().enumerate() {
                    let p = format!("/input/{i}");
                    if !it.is_object() {
                        return Err(shape(&p, "an input item object"));
                    }
                    self.messages += 1;
                    self.overhead += OPENAI_PER_MESSAGE;
                    match it.get("type").and_then(Value::as_str) {
                        Some("function_call") => {
                            self.json_text(it.get("name").unwrap_or(&Value::Null));
                            self.json_text(it.get("arguments").unwrap_or(&Value::Null));
                        }
                        Some("custom_tool_call") => {
                            self.json_text(it.get("name").unwrap_or(&Value::Null));
                            self.json_text(it.get("input").unwrap_or(&Value::Null));
                        }
                        // An output is a string, or content parts (text, images, files) priced as a message's.
                        Some("function_call_output" | "custom_tool_call_output") => {
                            match it.get("output") {
                                Some(parts @ Value::Array(_)) => {
                                    self.openai_content(parts, &format!("{p}/output"))?
                                }
                                other => self.json_text(other.unwrap_or(&Value::Null)),
                            }
                        }
                        Some("computer_call_output") => match it.get("output") {
                            Some(shot) if shot.is_object() => {
                                self.openai_part(shot, format!("{p}/output"))?
                            }
                            _ => self.unpriced(p),
                        },
                        Some("message") | None => self.openai_content(
                            it.get("content").unwrap_or(&Value::Null),
                            &format!("{p}/content"),
                        )?,
                        Some(_) => self.unpriced(p),
                    }
                }
            }
            Some(_) => return Err(shape("/input", "a string or an array of input items")),
        }
        self.overhead += OPENAI_REPLY_PRIMING;
        let mut defs = Vec::new();
        if let Some(tools) = body.get("tools") {
            for (i, t) in opt_arr(tools, "/tools", "an array of tools")?
                .iter()
                .enumerate()
            {
                let ty = t.get("type").and_then(Value::as_str).unwrap_or("function");
                if ty == "function" || ty == "custom" {
                    defs.push((t, format!("/tools/{i}")));
                } else {
                    // Built-in tools (web search, file search, ...) add prompts OpenAI does not document.
                    self.unpriced(format!("/tools/{i}"));
                }
            }
        }
        self.openai_tools(&defs)?;
        // Structured Outputs: `text.format: {type: json_schema, name, description, schema}`.
        if let Some(f) = body.pointer("/text/format") {
            if f.get("type").and_then(Value::as_str) == Some("json_schema") {
                self.output_schema(f, "/text/format")?;
            }
        }
        // Context the provider holds and prepends, billed as input: an earlier response's whole conversation, a
        // stored conversation, a stored prompt. Its size is not in the body.
        self.held(body, &["previous_response_id", "conversation", "prompt"]);
        Ok(())
    }

    // ---- Anthropic Messages -----------------------------------------------------------------------------------

    fn anthropic(&mut self, body: &Value) -> Result<(), PreflightError> {
        match body.get("system") {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) => self.text(s),
            Some(Value::Array(blocks)) => {
                for (i, b) in blocks.iter().enumerate() {
                    self.string_at(
                        b.get("text").unwrap_or(&Value::Null),
                        &format!("/system/{i}/text"),
                    )?;
                }
            }
            Some(_) => return Err(shape("/system", "a string or an array of text blocks")),
        }
        for msg in messages(body)? {
            let (p, m) = msg?;
            self.messages += 1;
            self.overhead += ANTHROPIC_PER_MESSAGE;
            self.anthropic_content(
                m.get("content").unwrap_or(&Value::Null),
                &format!("{p}/content"),
            )?;
        }
        if let Some(tools) = body.get("tools") {
            let tools = opt_arr(tools, "/tools", "an array of tools")?;
            if !tools.is_empty() {
                let forced = matches!(
                    body.pointer("/tool_choice/type").and_then(Value::as_str),
                    Some("any" | "tool")
                );
                self.overhead += anthropic_tool_prompt(&self.pricing.model, forced);
            }
            for (i, t) in tools.iter().enumerate() {
                if !t.is_object() {
                    return Err(shape(&format!("/tools/{i}"), "a tool object"));
                }
                self.tool_definition(t, &format!("/tools/{i}"), t.get("input_schema"))?;
                // Anthropic's own tools (`bash_20250124`, `text_editor_...`, `computer_...`, `web_search_...`)
                // carry no schema: their definitions, which Anthropic writes, add the tokens its pricing page
                // gives; a tool it gives no figure for is unpriced.
                let ty = t.get("type").and_then(Value::as_str).unwrap_or("custom");
                if ty != "custom" && t.get("input_schema").is_none() {
                    match anthropic_tool_tokens(ty, &self.pricing.model) {
                        Some(n) => self.overhead += n,
                        None => self.unpriced(format!("/tools/{i}")),
                    }
                }
            }
        }
        Ok(())
    }

    /// A tool definition's name and description, and its input schema as JSON text (Anthropic, Bedrock).
    fn tool_definition(
        &mut self,
        def: &Value,
        p: &str,
        schema: Option<&Value>,
    ) -> Result<(), PreflightError> {
        self.tools += 1;
        self.members(def, &["name", "description"], p)?;
        if let Some(s) = schema {
            self.json_text(s);
        }
        // Anthropic's `input_examples`: example inputs shown to the model with the tool, counted as JSON text.
        if let Some(x) = def.get("input_examples") {
            self.json_text(x);
        }
        Ok(())
    }

    fn anthropic_content(&mut self, c: &Value, p: &str) -> Result<(), PreflightError> {
        match c {
            Value::Null => Ok(()),
            Value::String(s) => {
                self.text(s);
                Ok(())
            }
            Value::Array(blocks) => {
                for (k, b) in blocks.iter().enumerate() {
                    let bp = format!("{p}/{k}");
                    match b.get("type").and_then(Value::as_str) {
                        Some("text") => self.string_at(
                            b.get("text").unwrap_or(&Value::Null),
                            &format!("{bp}/text"),
                        )?,
                        Some("thinking") => {
                            self.json_text(b.get("thinking").unwrap_or(&Value::Null))
                        }
                        // A call of the client's tool, or of one Anthropic runs (web search, code execution): its
                        // name and input are in the body. (The server tool's result is encrypted: unpriced.)
                        Some("tool_use" | "server_tool_use") => {
                            self.overhead += self.tool_block;
                            self.json_text(b.get("name").unwrap_or(&Value::Null));
                            self.json_text(b.get("input").unwrap_or(&Value::Null));
                        }
                        Some("tool_result") => {
                            self.overhead += self.tool_block;
                            match b.get("content") {
                                Some(inner @ Value::Array(_)) => {
                                    self.anthropic_content(inner, &format!("{bp}/content"))?
                                }
                                Some(other) => self.json_text(other),
                                None => {}
                            }
                        }
                        Some(t @ ("image" | "document")) => {
                            let src = b.get("source").unwrap_or(&Value::Null);
                            let media_type =
                                src.get("media_type").and_then(Value::as_str).unwrap_or("");
                            let data = match src.get("type").and_then(Value::as_str) {
                                Some("base64") => src
                                    .get("data")
                                    .and_then(Value::as_str)
                                    .map_or(Data::Elsewhere("file"), Data::Base64),
                                Some("url") => Data::Elsewhere("url"),
                                _ => Data::Elsewhere("file"),
                            };
                            if t == "document" {
                                // A document's title and context reach the model too (Anthropic's docs,
                                // "Citations").
                                self.members(b, &["title", "context"], &bp)?;
                            }
                            if t == "image" {
                                let m = self.pricing.image(bp, data, None, None);
                                self.parts.push(m);
                            } else if src.get("type").and_then(Value::as_str) == Some("text") {
                                self.json_text(src.get("data").unwrap_or(&Value::Null));
                            } else if src.get("type").and_then(Value::as_str) == Some("content") {
                                self.anthropic_content(
                                    src.get("content").unwrap_or(&Value::Null),
                                    &format!("{bp}/source/content"),
                                )?;
                            } else if media_type.is_empty() || is_pdf(media_type) {
                                let m = self.pricing.pdf(bp, data);
                                self.parts.push(m);
                            } else {
                                self.unpriced(bp);
                            }
                        }
                        Some("search_result") => {
                            // A search result: its source, title and text blocks (Anthropic's docs,
                            // "Search results").
                            self.members(b, &["source", "title"], &bp)?;
                            self.anthropic_content(
                                b.get("content").unwrap_or(&Value::Null),
                                &format!("{bp}/content"),
                            )?;
                        }
                        Some(_) => self.unpriced(bp),
                        None => return Err(shape(&bp, "a content block with a `type`")),
                    }
                }
                Ok(())
            }
            _ => Err(shape(p, "a string or an array of content blocks")),
        }
    }

    // ---- Gemini generateContent -------------------------------------------------------------------------------

    fn gemini(&mut self, body: &Value) -> Result<(), PreflightError> {
        let sys = body
            .get("systemInstruction")
            .or_else(|| body.get("system_instruction"));
        if let Some(s) = sys.filter(|s| !s.is_null()) {
            self.messages += 1;
            self.overhead += GEMINI_PER_CONTENT;
            self.gemini_parts(s, "/systemInstruction")?;
        }
        let contents = body
            .get("contents")
            .ok_or_else(|| shape("/contents", "an array of contents"))?;
        let list: Vec<&Value> = match contents {
            Value::Array(a) => a.iter().collect(),
            Value::Object(_) => vec![contents],
            Value::String(_) => vec![contents],
            _ => return Err(shape("/contents", "an array of contents")),
        };
        let one = !contents.is_array();
        for (i, c) in list.into_iter().enumerate() {
            self.messages += 1;
            self.overhead += GEMINI_PER_CONTENT;
            if let Value::String(s) = c {
                self.text(s);
            } else if one {
                self.gemini_parts(c, "/contents")?;
            } else {
                self.gemini_parts(c, &format!("/contents/{i}"))?;
            }
        }
        if let Some(tools) = body.get("tools") {
            for (i, t) in opt_arr(tools, "/tools", "an array of tools")?
                .iter()
                .enumerate()
            {
                let decls = t
                    .get("functionDeclarations")
                    .or_else(|| t.get("function_declarations"));
                match decls {
                    Some(d) => {
                        for f in opt_arr(
                            d,
                            &format!("/tools/{i}/functionDeclarations"),
                            "an array of functions",
                        )? {
                            self.tools += 1;
                            self.json_text(f.get("name").unwrap_or(&Value::Null));
                            self.json_text(f.get("description").unwrap_or(&Value::Null));
                            // `parametersJsonSchema` is the JSON Schema form of `parameters` (the google-genai
                            // SDK sends it).
                            let params = [
                                "parameters",
                                "parametersJsonSchema",
                                "parameters_json_schema",
                            ];
                            if let Some(s) = params
                                .iter()
                                .find_map(|k| f.get(k).filter(|v| !v.is_null()))
                            {
                                self.json_text(s);
                            }
                        }
                    }
                    None => self.unpriced(format!("/tools/{i}")),
                }
            }
        }
        // A response schema counts as input ("The size of response schema counts towards the input token limit":
        // Vertex AI docs, "Controlled generation"), counted as its JSON text.
        for key in [
            "/generationConfig/responseSchema",
            "/generationConfig/responseJsonSchema",
            "/generation_config/response_schema",
            "/generation_config/response_json_schema",
        ] {
            if let Some(s) = body.pointer(key) {
                self.json_text(s);
            }
        }
        // Cached content is part of the prompt (and of its token count), held by the provider.
        self.held(body, &["cachedContent", "cached_content"]);
        Ok(())
    }

    // ---- Bedrock Converse -------------------------------------------------------------------------------------

    fn bedrock(&mut self, body: &Value) -> Result<(), PreflightError> {
        match body.get("system") {
            None | Some(Value::Null) => {}
            Some(Value::Array(blocks)) => {
                for (i, b) in blocks.iter().enumerate() {
                    self.bedrock_block(b, &format!("/system/{i}"))?;
                }
            }
            Some(_) => return Err(shape("/system", "an array of system blocks")),
        }
        for msg in messages(body)? {
            let (p, m) = msg?;
            self.messages += 1;
            self.overhead += BEDROCK_PER_MESSAGE;
            match m.get("content") {
                None | Some(Value::Null) => {}
                Some(Value::Array(blocks)) => {
                    for (k, b) in blocks.iter().enumerate() {
                        self.bedrock_block(b, &format!("{p}/content/{k}"))?;
                    }
                }
                Some(_) => {
                    return Err(shape(&format!("{p}/content"), "an array of content blocks"))
                }
            }
        }
        if let Some(tools) = body.pointer("/toolConfig/tools") {
            let tools = opt_arr(tools, "/toolConfig/tools", "an array of tools")?;
            if self.claude && !tools.is_empty() {
                // Converse's `toolChoice`: `{"auto": {}}`, `{"any": {}}` or `{"tool": {"name": ...}}`.
                let choice = body.pointer("/toolConfig/toolChoice");
                let forced =
                    choice.is_some_and(|c| c.get("any").is_some() || c.get("tool").is_some());
                self.overhead += anthropic_tool_prompt(&self.pricing.model, forced);
            }
            for (i, t) in tools.iter().enumerate() {
                let p = format!("/toolConfig/tools/{i}");
                match t.get("toolSpec") {
                    Some(spec) => {
                        let schema = spec
                            .pointer("/inputSchema/json")
                            .or_else(|| spec.get("inputSchema"));
                        self.tool_definition(spec, &format!("{p}/toolSpec"), schema)?;
                    }
                    // A cache point costs nothing; any other entry (a system tool) is not documented.
                    None if t.get("cachePoint").is_some() => {}
                    None if t.is_object() => self.unpriced(p),
                    None => return Err(shape(&p, "a tool object")),
                }
            }
        }
        Ok(())
    }

    /// One Converse content block: an object whose one key says its kind (`text`, `image`, `toolUse`, ...).
    fn bedrock_block(&mut self, b: &Value, p: &str) -> Result<(), PreflightError> {
        let Some(o) = b.as_object() else {
            return Err(shape(p, "a content block object"));
        };
        if let Some(t) = o.get("text") {
            return self.string_at(t, &format!("{p}/text"));
        }
        if o.contains_key("cachePoint") {
            return Ok(());
        }
        if let Some(j) = o.get("json") {
            // A tool result's JSON content.
            self.json_text(j);
        } else if let Some(r) = o.get("reasoningContent") {
            self.json_text(r.pointer("/reasoningText/text").unwrap_or(&Value::Null));
        } else if let Some(u) = o.get("toolUse") {
            if self.claude {
                self.overhead += self.tool_block;
            }
            self.json_text(u.get("name").unwrap_or(&Value::Null));
            self.json_text(u.get("input").unwrap_or(&Value::Null));
        } else if let Some(r) = o.get("toolResult") {
            if self.claude {
                self.overhead += self.tool_block;
            }
            match r.get("content") {
                Some(Value::Array(items)) => {
                    for (k, c) in items.iter().enumerate() {
                        self.bedrock_block(c, &format!("{p}/toolResult/content/{k}"))?;
                    }
                }
                Some(other) => self.json_text(other),
                None => {}
            }
        } else if let Some(g) = o.get("guardContent") {
            self.json_text(g.pointer("/text/text").unwrap_or(&Value::Null));
        } else if let Some(img) = o.get("image") {
            // `source.bytes` is the image's base64 in the REST API's JSON; `source.s3Location` is elsewhere.
            let data = img
                .pointer("/source/bytes")
                .and_then(Value::as_str)
                .map_or(Data::Elsewhere("file"), Data::Base64);
            let m = self.pricing.image(p.to_string(), data, None, None);
            self.parts.push(m);
        } else if let Some(d) = o.get("document") {
            let src = d.get("source").unwrap_or(&Value::Null);
            let format = d.get("format").and_then(Value::as_str).unwrap_or("");
            if let Some(t) = src.get("text") {
                self.string_at(t, &format!("{p}/document/source/text"))?;
            } else if let Some(Value::Array(items)) = src.get("content") {
                for (k, c) in items.iter().enumerate() {
                    self.bedrock_block(c, &format!("{p}/document/source/content/{k}"))?;
                }
            } else if format.eq_ignore_ascii_case("pdf") {
                let data = src
                    .get("bytes")
                    .and_then(Value::as_str)
                    .map_or(Data::Elsewhere("file"), Data::Base64);
                let m = self.pricing.pdf(p.to_string(), data);
                self.parts.push(m);
            } else if let (true, Some(b)) = (
                BEDROCK_TEXT_FORMATS
                    .iter()
                    .any(|f| format.eq_ignore_ascii_case(f)),
                src.get("bytes").and_then(Value::as_str),
            ) {
                self.base64_text(b, p.to_string());
            } else {
                self.unpriced(p.to_string());
            }
        } else {
            // Video, and kinds this walk does not know.
            self.unpriced(p.to_string());
        }
        Ok(())
    }

    // ---- Cohere chat (v1) ---------------------------------------------------------------------------------------

    /// Cohere's v1 chat: the `preamble`, each `chat_history` turn (`{role, message}`, a chatbot's `tool_calls`, a tool
    /// turn's `tool_results`), the new `message`, the `tool_results` sent with it, `documents` and `tools`.
    /// `connectors` (web search, say) add documents the provider fetches: unpriced.
    fn cohere(&mut self, body: &Value) -> Result<(), PreflightError> {
        self.string_at(body.get("preamble").unwrap_or(&Value::Null), "/preamble")?;
        if let Some(h) = body.get("chat_history").filter(|h| !h.is_null()) {
            let turn = "a turn object with `role` and `message`";
            for t in objects(h, "/chat_history", "an array of turns", turn)? {
                let (p, turn) = t?;
                self.messages += 1;
                self.overhead += COHERE_PER_TURN;
                self.members(turn, &["message"], &p)?;
                self.json_text(turn.get("tool_calls").unwrap_or(&Value::Null));
                self.json_text(turn.get("tool_results").unwrap_or(&Value::Null));
            }
        }
        self.messages += 1;
        self.overhead += COHERE_PER_TURN;
        self.members(body, &["message"], "")?;
        self.json_text(body.get("tool_results").unwrap_or(&Value::Null));
        self.documents(body)?;
        if let Some(tools) = body.get("tools").filter(|t| !t.is_null()) {
            for t in objects(tools, "/tools", "an array of tools", "a tool object")? {
                let (p, t) = t?;
                let params = t
                    .get("parameter_definitions")
                    .or_else(|| t.get("parameterDefinitions"));
                self.tool_definition(t, &p, params)?;
            }
        }
        self.held(body, &["connectors"]);
        Ok(())
    }

    /// Cohere's `documents` (v1 chat and v2 chat, whose body is otherwise OpenAI chat's): each a string, an object
    /// of fields (v1: `title`, `snippet`, ...) or `{id, data}` with `data` a string or such an object. Every field's
    /// name and value count: Cohere renders them into the prompt.
    fn documents(&mut self, body: &Value) -> Result<(), PreflightError> {
        let Some(docs) = body.get("documents").filter(|d| !d.is_null()) else {
            return Ok(());
        };
        for (i, d) in opt_arr(docs, "/documents", "an array of documents")?
            .iter()
            .enumerate()
        {
            let fields = match (d, d.get("data")) {
                (Value::String(s), _) => {
                    self.text(s);
                    continue;
                }
                (_, Some(Value::String(s))) => {
                    self.text(s);
                    continue;
                }
                (_, Some(Value::Object(f))) => f,
                (Value::Object(f), None | Some(Value::Null)) => f,
                _ => {
                    return Err(shape(
                        &format!("/documents/{i}"),
                        "a document: a string, an object of fields or `{id, data}`",
                    ))
                }
            };
            for (k, v) in fields {
                self.text(k);
                self.json_text(v);
            }
        }
        Ok(())
    }

    // ---- Legacy completions and embeddings --------------------------------------------------------------------

    /// A legacy completion's `prompt` (and `suffix`); returns how many prompts it holds.
    fn completions(&mut self, body: &Value) -> Result<u64, PreflightError> {
        // OpenAI's and most servers' `prompt`, Hugging Face's `inputs`, Titan's `inputText`, SGLang's `text`.
        let key = ["prompt", "inputs", "inputText", "text", "input"]
            .into_iter()
            .find(|k| body.get(k).is_some())
            .unwrap_or("prompt");
        let prompts = self.prompts(body.get(key).unwrap_or(&Value::Null), &format!("/{key}"))?;
        for key in ["suffix", "input_prefix", "input_suffix"] {
            if let Some(v) = body.get(key) {
                self.string_at(v, &format!("/{key}"))?;
            }
        }
        // llama.cpp's `input_extra`: other files' chunks, `{filename, text}` each, in the prompt before the prefix.
        if let Some(extra) = body.get("input_extra").filter(|v| !v.is_null()) {
            for (i, x) in arr(extra, "/input_extra", "an array of {filename, text} chunks")?
                .iter()
                .enumerate()
            {
                self.members(x, &["filename", "text"], &format!("/input_extra/{i}"))?;
            }
        }
        // Ollama's `POST /api/generate`: a system prompt and images beside the prompt (Replicate's Llama models:
        // `system_prompt`).
        for key in ["system", "system_prompt"] {
            if let Some(system) = body.get(key) {
                self.string_at(system, &format!("/{key}"))?;
            }
        }
        self.bare_images(body.get("images"), "/images")?;
        // SGLang's `image_data`: one image (a path, a URL or base64) or an array of them.
        match body.get("image_data") {
            Some(one @ Value::String(_)) => self.bare_image(one, "/image_data".into())?,
            more => self.bare_images(more, "/image_data")?,
        }
        Ok(prompts)
    }

    /// Ollama's images (a chat message's `images`, `/api/generate`'s): an array of bare base64 strings, each priced
    /// as an image part.
    fn bare_images(&mut self, v: Option<&Value>, p: &str) -> Result<(), PreflightError> {
        let Some(v) = v.filter(|v| !v.is_null()) else {
            return Ok(());
        };
        for (j, img) in arr(v, p, "an array of base64 images")?.iter().enumerate() {
            self.bare_image(img, format!("{p}/{j}"))?;
        }
        Ok(())
    }

    /// One image given as a bare base64 string, priced as an image part (unmeasured when it does not decode).
    fn bare_image(&mut self, img: &Value, p: String) -> Result<(), PreflightError> {
        let data = img.as_str().ok_or_else(|| shape(&p, "a base64 image"))?;
        let m = self.pricing.image(p, Data::Base64(data), None, None);
        self.parts.push(m);
        Ok(())
    }

    /// OpenAI's `input`; DashScope's `texts` (inside its `input` envelope).
    fn embeddings(&mut self, body: &Value) -> Result<(), PreflightError> {
        match body.get("texts") {
            Some(texts) => self.prompts(texts, "/texts")?,
            None => self.prompts(body.get("input").unwrap_or(&Value::Null), "/input")?,
        };
        Ok(())
    }

    /// A prompt or an embedding input: a string, an array of strings, an array of token ids, or an array of such
    /// arrays. Token ids are counted exactly. Returns how many prompts it holds.
    fn prompts(&mut self, v: &Value, p: &str) -> Result<u64, PreflightError> {
        const WHAT: &str =
            "a string, an array of strings, an array of token ids or an array of such arrays";
        let n = match v {
            Value::Null => 0,
            Value::String(s) => {
                self.text(s);
                1
            }
            Value::Array(items) if items.iter().all(Value::is_number) => {
                self.ids(items, p)?;
                1
            }
            Value::Array(items) => {
                for (i, it) in items.iter().enumerate() {
                    let ip = format!("{p}/{i}");
                    match it {
                        Value::String(s) => self.text(s),
                        Value::Array(ids) => self.ids(ids, &ip)?,
                        _ => return Err(shape(&ip, "a string or an array of token ids")),
                    }
                }
                items.len() as u64
            }
            _ => return Err(shape(p, WHAT)),
        };
        self.messages += n;
        Ok(n)
    }

    /// Token ids: each a whole number, one token each.
    fn ids(&mut self, ids: &[Value], p: &str) -> Result<(), PreflightError> {
        for (i, id) in ids.iter().enumerate() {
            match id.as_f64() {
                Some(f) => {
                    count_from_f64(&format!("{p}/{i}"), f)?;
                }
                None => return Err(shape(&format!("{p}/{i}"), "a token id")),
            }
        }
        self.token_ids += ids.len() as u64;
        Ok(())
    }

    fn gemini_parts(&mut self, c: &Value, p: &str) -> Result<(), PreflightError> {
        // `parts` may be one part object, as `contents` may be one content (the API's JSON mapping takes a single
        // value for a repeated field: the cookbook's function-calling curl sample sends both so).
        let (parts, one) = match c.get("parts") {
            Some(part @ Value::Object(_)) => (std::slice::from_ref(part), true),
            Some(parts) => (
                arr(parts, &format!("{p}/parts"), "an array of parts")?,
                false,
            ),
            None if c.is_object() => return Err(shape(&format!("{p}/parts"), "an array of parts")),
            None => return Err(shape(p, "a content object with `parts`")),
        };
        for (k, part) in parts.iter().enumerate() {
            let pp = if one {
                format!("{p}/parts")
            } else {
                format!("{p}/parts/{k}")
            };
            if let Some(t) = part.get("text") {
                self.string_at(t, &format!("{pp}/text"))?;
            } else if let Some(call) = part
                .get("functionCall")
                .or_else(|| part.get("function_call"))
                .or_else(|| part.get("functionResponse"))
                .or_else(|| part.get("function_response"))
            {
                // A call's or a response's `id` only pairs the two: its name and arguments or result count, written
                // as the JSON text of the object without it (not a copy of it).
                match call.as_object() {
                    Some(o) if o.contains_key("id") => {
                        let text = serde_json::to_string(&WithoutId(o)).unwrap_or_default();
                        self.text(&text);
                    }
                    _ => self.json_text(call),
                }
            } else if let Some(code) = part
                .get("executableCode")
                .or_else(|| part.get("executable_code"))
            {
                // Code the model ran with the code-execution tool, and what it printed, sent back as history.
                self.members(code, &["code"], &format!("{pp}/executableCode"))?;
            } else if let Some(out) = part
                .get("codeExecutionResult")
                .or_else(|| part.get("code_execution_result"))
            {
                self.members(out, &["output"], &format!("{pp}/codeExecutionResult"))?;
            } else if let Some(d) = part
                .get("inlineData")
                .or_else(|| part.get("inline_data"))
                .or_else(|| part.get("fileData"))
                .or_else(|| part.get("file_data"))
            {
                let mime = d
                    .get("mimeType")
                    .or_else(|| d.get("mime_type"))
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_ascii_lowercase();
                let data = match d.get("data").and_then(Value::as_str) {
                    Some(b) => Data::Base64(b),
                    None => Data::Elsewhere("file"),
                };
                let level = part
                    .get("mediaResolution")
                    .or_else(|| part.get("media_resolution"))
                    .and_then(resolution_level);
                if let (true, Data::Base64(b)) = (is_text(&mime), data) {
                    self.base64_text(b, pp);
                    continue;
                }
                let m = if mime.starts_with("image/") {
                    Some(self.pricing.image(pp.clone(), data, None, level))
                } else if is_pdf(&mime) {
                    Some(self.pricing.pdf(pp.clone(), data))
                } else if mime.starts_with("audio/") {
                    Some(self.pricing.audio(pp.clone(), data))
                } else {
                    None
                };
                match m {
                    Some(m) => self.parts.push(m),
                    None => self.unpriced(pp),
                }
            } else if part.is_object() {
                self.unpriced(pp);
            } else {
                return Err(shape(&pp, "a part object"));
            }
        }
        Ok(())
    }
}
