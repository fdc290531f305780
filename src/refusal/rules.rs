//! The refusal rules as data: which error code, message phrase or HTTP status signals what, each with the public
//! source it was taken from. A provider's new wording is a row here (and a shape in `tests/refusal_shapes.rs`),
//! not a change to the classifier's control flow, which only decides between the signals that fire
//! (`classify_body`: the context window first, then billing, a request too large for its window, capacity and rate
//! limits).
//!
//! Codes are matched whole against the body's error codes, types and statuses (lowercased); phrases as substrings
//! of its lowercased messages; statuses against the response's status (or the one the body states). Rows whose
//! source says "not seen in a provider body" were kept from earlier versions as plausible wordings: they are the
//! first to question when a shape is misread.

/// What a rule's match says about a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Signal {
    /// The prompt does not fit the model's context window.
    Context,
    /// Billing, credit or plan caps.
    HardQuota,
    /// "You exceeded your current quota": billing, unless a wait or a window says otherwise.
    SoftQuota,
    /// A rate limit.
    RateLimit,
    /// The provider is over capacity.
    Overloaded,
    /// The request body is larger than the API accepts.
    PayloadCap,
    /// A server-side failure.
    ServerError,
    /// Words of a cap no short wait clears (a balance, billing, a plan, a week or a month): a rate limit that says
    /// them, with no wait and no short window stated, is not retried.
    CapWords,
}

/// What a rule looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum When {
    /// An error code, type or status string in the body, whole (lowercase here).
    Code(&'static str),
    /// A substring of the body's messages (lowercase here).
    Phrase(&'static str),
    /// The HTTP status (or the one the body states).
    Status(u16),
}

/// One row: a match, what it signals, and where it was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rule {
    pub(crate) signal: Signal,
    pub(crate) when: When,
    /// The public documentation or report the wording was taken from.
    #[allow(dead_code)]
    pub(crate) source: &'static str,
}

const fn rule(signal: Signal, when: When, source: &'static str) -> Rule {
    Rule {
        signal,
        when,
        source,
    }
}

use Signal::*;
use When::*;

/// Every rule, grouped by signal.
pub(crate) const RULES: &[Rule] = &[
    // The context window: the prompt (with its output cap) can never fit the model.
    rule(Context, Code("context_length_exceeded"), "OpenAI 400 code context_length_exceeded, github.com/chathub-dev/chathub/issues/126"),
    rule(Context, Code("string_above_max_length"), "OpenAI 400 'string too long ... 10485760' code string_above_max_length, github.com/VectorlyApp/bluebox/issues/31"),
    rule(Context, Phrase("maximum context length"), "OpenAI 400 \"This model's maximum context length is 4097 tokens\", github.com/chathub-dev/chathub/issues/126"),
    rule(Context, Phrase("context length exceeded"), "not seen in a provider body: generic client/gateway wording (e.g. LiteLLM ContextWindowExceededError); no provider body found with this exact phrase"),
    rule(Context, Phrase("context_length_exceeded"), "OpenAI 400 body carries context_length_exceeded (as code), github.com/chathub-dev/chathub/issues/126"),
    rule(Context, Phrase("prompt is too long"), "Anthropic 400 'prompt is too long: 208310 tokens > 200000 maximum', github.com/anthropics/claude-code/issues/12186"),
    rule(Context, Phrase("exceeds the context window"), "OpenAI Responses API 'Your input exceeds the context window of this model', github.com/anomalyco/opencode/issues/6071"),
    rule(Context, Phrase("context window exceeded"), "not seen in a provider body: generic client wording (many agent tools print it); no provider error body found with this phrase"),
    rule(Context, Phrase("input is too long"), "AWS Bedrock ValidationException 'Input is too long for requested model.', github.com/aws-samples/assessment-generator/issues/2"),
    rule(Context, Phrase("exceeds the maximum number of tokens allowed"), "Gemini 400 'The input token count (N) exceeds the maximum number of tokens allowed', github.com/google-gemini/gemini-cli/issues/6678"),
    rule(Context, Phrase("too many input tokens"), "not seen in a provider body: likely Bedrock (Titan) 'Too many input tokens. Max input tokens: 8192' quoted in public client code; no citable URL found"),
    rule(Context, Phrase("maximum prompt length"), "xAI grok-3 400 \"This model's maximum prompt length is 131072 but the request contains...\", github.com/cline/cline/issues/3120"),
    rule(Context, Phrase("reduce the length of the messages"), "OpenAI 400 'Please reduce the length of the messages.', github.com/chathub-dev/chathub/issues/126"),
    rule(Context, Phrase("total number of tokens in the prompt cannot exceed"), "Cohere 'too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 4292', docs.cohere.com/reference/errors"),
    rule(Context, Phrase("size limit exceeded by"), "Cohere 'too many tokens: size limit exceeded by 11326 tokens. Try using shorter or fewer inputs', docs.cohere.com/reference/errors"),
    rule(Context, Phrase("does not fit into the model's context window"), "Voyage AI 'The example at index 0 in your batch has too many tokens and does not fit into the model's context window of 16000 tokens', github.com/sweepai/sweep/issues/3412"),
    rule(Context, Phrase("the maximum output for this model"), "Cohere 'too many tokens: max tokens must be less than or equal to 4096, the maximum output for this model - received 8192', docs.cohere.com/reference/errors"),
    rule(Context, Phrase("exceed context limit"), "Anthropic 400 'input length and `max_tokens` exceed context limit: 199759 + 8192 > 200000', github.com/anthropics/claude-code/issues (refusals collected this round)"),
    rule(Context, Phrase("exceeds the context length"), "Ollama 'the input length exceeds the context length', refusals collected this round (GitHub issue)"),
    rule(Context, Phrase("exceeds context length"), "LM Studio 'Input length 6491 exceeds context length 1500', refusals collected this round (GitHub issue)"),
    rule(Context, Phrase("too long to fit into the model"), "vLLM 'The prompt (total length 25938) is too long to fit into the model (context length 4096)', refusals collected this round"),
    rule(Context, Phrase("must be less than max_seq_len"), "SiliconFlow code 20015 'length of prompt_tokens (68957) must be less than max_seq_len (65536)', refusals collected this round"),
    rule(Context, Phrase("`max_new_tokens` must be <="), "text-generation-inference 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048', refusals collected this round (Together, Hugging Face); the same with two spaces before `must` (blanks read as one), github.com/huggingface/chat-ui/issues/327"),
    rule(Context, Phrase("`inputs` must have less than"), "Hugging Face 422 'Input validation error: `inputs` must have less than 4096 tokens. Given: 4545', github.com/meta-llama/llama/issues/1103"),
    rule(Context, Phrase("max_tokens must be at least 1, got -"), "vLLM 400 'max_tokens must be at least 1, got -344.' (the prompt left no room for output), refusals collected this round"),
    rule(Context, Phrase("exceeds model context window"), "Anthropic 413 invalid_request_error 'Request size exceeds model context window', github.com/anthropics/claude-code/issues/6380"),
    rule(Context, Phrase("expected maxlength:"), "AWS Bedrock ValidationException 'Malformed input request: expected maxLength: 42000, actual: 46735', github.com/ryanadoty/Amazon-Bedrock-Amazon-RDS-POC/issues/9"),
    rule(Context, Phrase("context length of only"), "LM Studio 'the model is loaded with context length of only 32768 tokens, which is not enough', github.com/lmstudio-ai/lmstudio-bug-tracker/issues/546"),
    rule(Context, Phrase("greater than the context length"), "LM Studio 'The number of tokens to keep from the initial prompt is greater than the context length', github.com/anomalyco/opencode/issues/2259"),
    rule(Context, Phrase(">= n_ctx"), "llama.cpp via LM Studio 'Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)', github.com/anomalyco/opencode/issues/11141"),
    rule(Context, Code("exceed_context_size_error"), "llama.cpp server 400 type exceed_context_size_error with n_prompt_tokens and n_ctx, github.com/oobabooga/textgen/issues/7257"),
    rule(Context, Phrase("exceeds the available context size"), "llama.cpp server 'request (355724 tokens) exceeds the available context size (262144 tokens)', github.com/ItzCrazyKns/Vane/issues/1011"),
    rule(Context, Phrase("context size has been exceeded"), "llama.cpp server 500 'Context size has been exceeded.', github.com/ggml-org/llama.cpp/issues/19774"),
    rule(Context, Phrase("is longer than the model"), "SGLang 400 'The input (61709 tokens) is longer than the model\\'s context length (40960 tokens).' (the quote escaped as posted), github.com/QwenLM/Qwen3/issues/1321"),
    rule(Context, Phrase("longer than the maximum model length"), "vLLM 400 'The decoder prompt (length 10127) is longer than the maximum model length of 8192', github.com/Gabesarch/grounded-rl/issues/16"),
    rule(Context, Phrase("context window exceeds limit"), "MiniMax 'invalid params, context window exceeds limit (2013)', github.com/MiniMax-AI/MiniMax-M2/issues/119"),
    rule(Context, Phrase("prompt token count of"), "GitHub Copilot 400 'prompt token count of 93854 exceeds the limit of 90000', github.com/jjleng/copilot-more/issues/35"),
    rule(Context, Phrase("range of input length should be"), "Alibaba DashScope 400 InvalidParameter 'Range of input length should be [1, 204800]', github.com/QwenLM/qwen-code/issues/98"),
    rule(Context, Phrase("exceeds the maximum allowed length"), "SGLang 'Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens).', github.com/sgl-project/sglang/issues/4048"),
    rule(Context, Phrase("exceeds the maximum length"), "Volcengine Ark 400 'Input length 1048826 exceeds the maximum length 1048566', github.com/esengine/DeepSeek-Reasonix/issues/9696"),
    rule(Context, Phrase("exceed model token limit"), "Salesforce Einstein 'Request input tokens exceed model token limit. Reduce the input size.', github.com/forcedotcom/Einstein-GPT-for-Developers/issues/228"),
    rule(Context, Phrase("exceed context window of"), "llama-cpp-python 'Requested tokens (2285) exceed context window of 2048', github.com/fedora-copr/logdetective-website/pull/193"),
    rule(Context, Phrase("has exceeded max_prompt_tokens"), "SiliconFlow 'number of input tokens (167594) has exceeded max_prompt_tokens (163840) limit.', github.com/RhythmicWave/NovelForge/issues/136"),
    rule(Context, Phrase("prompt too long:"), "oMLX 400 'Prompt too long: 41911 tokens exceeds max context window of 32768 tokens', github.com/ValueCell-ai/ClawX/issues/658"),
    rule(Context, Phrase("answering your request will take"), "SambaNova 400 'The maximum context length of DeepSeek-V3-0324 is 32768. However, answering your request will take 39732 tokens', github.com/OpenHands/OpenHands/pull/9252"),
    rule(Context, Phrase("context window is full"), "kronk (llama.cpp-based) 'unable to process request: the context window is full' as an error frame inside a 200 stream, github.com/ardanlabs/kronk/issues/862"),
    rule(Context, Phrase("too many tokens: total number of tokens"), "Cohere 'too many tokens: total number of tokens (prompt and prediction) cannot exceed 2048 - received 6354', github.com/cohere-ai/sandbox-topically/issues/4"),
    rule(Context, Phrase("max_tokens is too large"), "OpenAI 400 'max_tokens is too large: 6000. This model supports at most 4096 completion tokens', github.com/diffbot/code-gpt-docs/issues/284"),
    rule(Context, Phrase("reduce the length of max output tokens"), "Databricks model serving 'max_tokens (10000) cannot exceed 8192. Please reduce the length of max output tokens generated.', github.com/databricks/databricks-sdk-go/issues/1183"),
    rule(Context, Phrase("sequence length is longer than the specified maximum sequence length"), "vLLM (Ascend) 400 {\"msg\":\"Token indices sequence length is longer than the specified maximum sequence length for this model!\"} (max_tokens 32769 on a short prompt), github.com/vllm-project/vllm-ascend/issues/7535"),
    rule(Context, Phrase("token sequence length is longer than"), "IBM watsonx.ai 400 'Token sequence length is longer than the specified maximum sequence length for this model (1336 > 512)', github.com/lancedb/lancedb/issues/1535"),
    // An output cap above the model's maximum output: as the context window, the request as sent never fits.
    rule(Context, Phrase("which is the maximum allowed number of output tokens"), "Anthropic 400 invalid_request_error 'max_tokens: 128001 > 64000, which is the maximum allowed number of output tokens for claude-opus-4-5-20251101', github.com/anthropics/claude-code/issues/24451"),
    rule(Context, Phrase("the maximum tokens you requested exceed"), "AWS Bedrock ValidationException 'The maximum tokens you requested exceeds the model limit of 4096. Try again with a maximum tokens value that is lower than 4096.', github.com/vercel/ai/issues/2772"),
    rule(Context, Phrase("valid range of max_tokens is"), "DeepSeek 400 invalid_request_error 'Invalid max_tokens value, the valid range of max_tokens is [1, 8192]', github.com/Backtthefuture/chatlogwebUI/issues/7"),
    rule(Context, Phrase("range of max_tokens should be"), "Alibaba DashScope 400 'InternalError.Algo.InvalidParameter: Range of max_tokens should be [1, 8192]', github.com/open-webui/open-webui/issues/10507"),
    rule(Context, Phrase("max_tokens specified in the request is not valid: integer above maximum"), "Volcengine Ark 400 InvalidParameter 'The parameter max_tokens specified in the request is not valid: integer above maximum value, expected a value <= 32768, but got 64000 instead', github.com/yiliqi78/TOKENICODE/issues/3"),
    rule(Context, Phrase("`max_tokens` must be less than or equal to"), "Groq 400 '`max_tokens` must be less than or equal to `16384`, the maximum value for `max_tokens` is less than the `context_window` for this model', github.com/anomalyco/opencode/issues/1000"),
    rule(Context, Phrase("max_tokens for `"), "Groq 400 invalid_request_error 'max_tokens for `llama-3.1-8b-instant` must be less than or equal to 8000', github.com/skapadia3214/groq-moa/issues/8"),
    rule(Context, Phrase("model max length exceeded"), "Moonshot (Kimi) 400 'model max length exceeded, max length:8192' (moonshot-v1-8k), github.com/MoonshotAI/MoonshotAI-Cookbook/issues/18"),
    rule(Context, Phrase("must be less than the context length"), "Together AI error codes (docs.together.ai/docs/error-codes): 'Input token count + max_tokens parameter must be less than the context length of the model being queried'"),
    rule(Context, Phrase("cannot be greater than max_model_len"), "vLLM via DeepInfra 'max_tokens=131072 cannot be greater than max_model_len=max_total_tokens=28672. Please request fewer output tokens.', github.com/HeyPuter/puter/issues/3564"),
    rule(Context, Phrase("exceeded model token limit"), "Moonshot (Kimi) 400 'Your request exceeded model token limit: 262144 (requested: 275363)', github.com/multica-ai/multica/issues/4130"),
    // Billing and credit: no wait clears it.
    rule(HardQuota, Code("insufficient_quota"), "OpenAI 429 code insufficient_quota, github.com/ChatGPTNextWeb/NextChat/issues/3123"),
    rule(HardQuota, Code("billing_hard_limit_reached"), "OpenAI (images) code billing_hard_limit_reached 'Billing hard limit has been reached', github.com/dfinke/PowerShellAI/issues/127"),
    rule(HardQuota, Code("billing_not_active"), "OpenAI 429 code billing_not_active 'Your account is not active...', github.com/BerriAI/litellm/issues/2743"),
    rule(HardQuota, Code("insufficient_balance"), "Venice AI API docs error code INSUFFICIENT_BALANCE (github.com/veniceai/api-docs/pull/149)"),
    rule(HardQuota, Code("payment_required"), "OpenRouter 402 payment_required, per developersdigest.tech/errors/api/openrouter/402-payment-required (secondary summary of OpenRouter docs)"),
    rule(HardQuota, Status(402), "DeepSeek error codes doc (api-docs.deepseek.com/quick_start/error_codes): 402 Insufficient Balance; OpenRouter errors doc: 402 credits"),
    rule(HardQuota, Phrase("insufficient balance"), "DeepSeek error codes doc (api-docs.deepseek.com/quick_start/error_codes): 402 Insufficient Balance"),
    rule(HardQuota, Phrase("insufficient_quota"), "OpenAI 'Error: insufficient_quota: You exceeded your current quota...', github.com/zurawiki/gptcommit/issues/84"),
    rule(HardQuota, Phrase("credit balance is too low"), "Anthropic 400 'Your credit balance is too low to access the Anthropic API', github.com/anthropics/claude-code/issues/66314"),
    rule(HardQuota, Phrase("used all available credits"), "xAI 429 'has either used all available credits or reached its monthly spending limit', github.com/continuedev/continue/issues/10373"),
    rule(HardQuota, Phrase("monthly spending limit"), "xAI 429 '...reached its monthly spending limit', github.com/continuedev/continue/issues/10373"),
    rule(HardQuota, Phrase("spending limit"), "xAI 429 '...raise your spending limit', github.com/continuedev/continue/issues/10373"),
    rule(HardQuota, Phrase("run out of credits"), "OpenAI error codes guide (platform.openai.com/docs/guides/error-codes): 429 cause: you have run out of credits; also xAI 403"),
    rule(HardQuota, Phrase("out of credits"), "xAI 403 'You have run out of credits or need a Grok subscription', github.com/Wei-Shaw/sub2api/issues/4069"),
    rule(HardQuota, Phrase("requires more credits"), "OpenRouter 402 'This request requires more credits, or fewer max_tokens', github.com/Gitlawb/openclaude/issues/1125"),
    rule(HardQuota, Phrase("insufficient credits"), "OpenRouter errors doc (openrouter.ai/docs/api/errors): 402 insufficient credits; SDK 'Insufficient credits. Add more...'"),
    rule(HardQuota, Phrase("billing hard limit"), "OpenAI 'Billing hard limit has been reached', github.com/dfinke/PowerShellAI/issues/127"),
    rule(HardQuota, Phrase("exceeded your monthly"), "Hugging Face Inference Providers 'You have exceeded your monthly included credits', github.com/huggingface/agents-course/issues/386"),
    rule(HardQuota, Phrase("monthly usage limit"), "Anthropic/Claude \"You've hit your org's monthly usage limit\", github.com/anthropics/claude-code/issues/54635"),
    rule(HardQuota, Phrase("quota exceeded for this month"), "not seen in a provider body: plausible monthly-plan gateway wording; closest seen 'You have exceeded the monthly usage quota' (opencode issue 44099)"),
    rule(HardQuota, Phrase("free tier limit exceeded"), "not seen in a provider body: plausible free-tier provider wording; no provider body with this exact phrase found (Gemini/Qwen free-tier use other text)"),
    rule(HardQuota, Phrase("account is not active"), "OpenAI 429 'Your account is not active, please check your billing details', github.com/BerriAI/litellm/issues/2743"),
    rule(HardQuota, Phrase("extra usage is required"), "Anthropic 429 'Extra usage is required for long context requests.', github.com/anthropics/claude-code/issues/38758"),
    rule(HardQuota, Phrase("your account has been suspended"), "not seen in a provider body: plausible account-ban wording (OpenAI/Anthropic); closest seen Gemini 403 CONSUMER_SUSPENDED 'has been suspended'"),
    rule(HardQuota, Code("1113"), "Zhipu (GLM) code 1113 '余额不足或无可用资源包,请充值' sent with HTTP 429, github.com/edison7009/EchoBird/issues/104"),
    rule(HardQuota, Phrase("余额不足"), "Zhipu (GLM) 'insufficient balance' wording, github.com/edison7009/EchoBird/issues/104"),
    rule(HardQuota, Phrase("欠费"), "Zhipu (GLM) '您的账户已欠费' (account in arrears), github.com/langgenius/dify/issues/5850"),
    rule(HardQuota, Code("arrearage"), "Alibaba DashScope code Arrearage 'Access denied, please make sure your account is in good standing', refusals collected this round"),
    rule(HardQuota, Phrase("account is in good standing"), "Alibaba DashScope Arrearage message, refusals collected this round"),
    rule(HardQuota, Phrase("daily free allocation"), "Cloudflare Workers AI 4006 'you have used up your daily free allocation of 10,000 neurons', github.com/diegosouzapw/OmniRoute/pull/6983"),
    rule(HardQuota, Phrase("or upgrade to continue"), "Ollama Cloud 'you've reached your hourly usage limit, please wait or upgrade to continue', github.com/continuedev/continue/issues/9233"),
    rule(HardQuota, Phrase("exhausted your daily quota"), "Gemini CLI 'You have exhausted your daily quota on this model.', github.com/google-gemini/gemini-cli/issues/15576"),
    rule(HardQuota, Phrase("api calls / month"), "Cohere trial key 'limited to 1000 API calls / month' (docs.cohere.com/docs/rate-limits: trial keys are limited to 1,000 calls a month)"),
    rule(HardQuota, Phrase("specified api usage limits"), "Anthropic 400 'You have reached your specified API usage limits. You will regain access on 2026-04-01', github.com/anthropics/claude-code/issues/38035"),
    rule(HardQuota, Phrase("balance is insufficient"), "SiliconFlow 403 code 30011 'Your paid balance is insufficient. Please top up', github.com/FoundationAgents/OpenManus/issues/438"),
    rule(HardQuota, Phrase("set inference limit"), "Volcengine Ark 'has reached the set inference limit for the model, and the model service has been paused', github.com/volcengine/MineContext/issues/328"),
    rule(HardQuota, Phrase("usage limit exceeded (2056)"), "MiniMax 429 'usage limit exceeded (2056)' (plan usage cap, code 2056), github.com/gabrielkoerich/orch/issues/3150"),
    rule(HardQuota, Phrase("enable overages"), "Gemini Code Assist 429 'Individual quota reached. Contact your administrator to enable overages', github.com/google-gemini/gemini-cli/issues/27761"),
    rule(HardQuota, Phrase("budget has been exceeded"), "LiteLLM proxy 'Budget has been exceeded! Current cost: 26.075, Max budget: 0.25', github.com/BerriAI/litellm/issues/22726"),
    rule(HardQuota, Code("1308"), "Zhipu (GLM) 429 code 1308 '已达到 5 小时的使用上限。您的限额将在 2026-08-25 07:41:44 重置' (a plan's 5-hour cap), github.com/dirge-code/dirge/issues/818"),
    rule(HardQuota, Phrase("使用上限"), "Zhipu (GLM) code 1308 '已达到 5 小时的使用上限' (the plan's usage ceiling reached), github.com/dirge-code/dirge/issues/818"),
    rule(HardQuota, Phrase("usage limit reached for"), "MiniMax 429 rate_limit_error 'usage limit exceeded, 5-hour usage limit reached for Token Plan Starter (0/0 used)', github.com/MiniMax-AI/MiniMax-M2.7/issues/36"),
    rule(HardQuota, Phrase("usage limit for this billing cycle"), "Kimi Code 403 'You've reached your usage limit for this billing cycle', github.com/NanmiCoder/cc-haha/issues/1208"),
    rule(HardQuota, Phrase("purchase extra usage or upgrade your plan"), "Kimi Code 403 'weekly (7-day) usage limit ... To continue now, purchase extra usage or upgrade your plan', github.com/openclaw/openclaw/pull/142656"),
    rule(HardQuota, Code("usage_limit_reached"), "OpenAI Codex type usage_limit_reached 'The usage limit has been reached' with plan_type and resets_at, github.com/Biliniko/cpa-control-center/issues/5"),
    rule(HardQuota, Phrase("crossed budget"), "LiteLLM router 429 'No deployments available - crossed budget: Exceeded budget for deployment', github.com/BerriAI/litellm/issues/14144"),
    rule(HardQuota, Phrase("upgrade for higher limits"), "Ollama Cloud 429 'you have reached your session usage limit, upgrade for higher limits' (a plan's cap, as its weekly one), github.com/continuedev/continue/issues/11444"),
    rule(HardQuota, Phrase("credits are depleted"), "Gemini API 'Your prepayment credits are depleted. Please go to AI Studio ... to manage your project and billing.', github.com/dyad-sh/dyad/issues/3626"),
    rule(HardQuota, Phrase("have any credits"), "xAI 403 'Your newly created team doesn't have any credits or licenses yet', github.com/continuedev/continue/issues/12670"),
    rule(HardQuota, Code("insufficientquota"), "Azure OpenAI deployment 'InsufficientQuota: The specified capacity '60' of account deployment is bigger than available capacity '0'', github.com/Azure-Samples/jp-azureopenai-samples/pull/35"),
    rule(HardQuota, Phrase("bigger than the current available capacity"), "Azure OpenAI 'This operation requires 30 new capacity in quota Tokens Per Minute (thousands) ... bigger than the current available capacity 0 ... (Code: InsufficientQuota)', github.com/Azure-Samples/aks-store-demo/issues/116"),
    rule(HardQuota, Phrase("weekly usage limit"), "Ollama Cloud 429 'you have reached your weekly usage limit, upgrade for higher limits', github.com/NousResearch/hermes-agent/pull/68832"),
    rule(HardQuota, Phrase("key limit exceeded"), "OpenRouter 403 'Key limit exceeded (total limit). Manage it using https://openrouter.ai/settings/keys' (the key's credit cap), github.com/MCPJam/inspector/issues/1287 and github.com/RooCodeInc/Roo-Code/issues/515"),
    rule(HardQuota, Phrase("usage credits are required"), "Anthropic 429 rate_limit_error 'Usage credits are required for long context requests.' (a plan gate), github.com/anthropics/claude-code/issues/64982"),
    rule(HardQuota, Phrase("exceededbudget"), "LiteLLM proxy 400 'ExceededBudget: User=... over budget. Spend=10.63, Budget=10.0', github.com/continuedev/continue/issues/11579"),
    rule(HardQuota, Phrase("quota is not enough"), "new-api 403 'token quota is not enough, token remain quota: $0.14, need quota: $0.16', github.com/millylee/anyrouter-check-in/issues/2; one-api 'user quota is not enough', github.com/songquanpeng/one-api/issues/1270"),
    rule(HardQuota, Code("insufficient_user_quota"), "one-api 403 code insufficient_user_quota 'user quota is not enough', github.com/songquanpeng/one-api/issues/1270"),
    rule(HardQuota, Phrase("额度不足"), "new-api relay 403 '用户额度不足, 剩余额度: $-0.000002' (the user's quota is insufficient), github.com/QuantumNous/new-api/issues/6929"),
    rule(HardQuota, Phrase("free allocated quota exceeded"), "Qwen Code OAuth free tier 429 'Free allocated quota exceeded.' (its daily free allocation; no wait stated), github.com/QwenLM/qwen-code/issues/1742"),
    rule(HardQuota, Code("exceed_token_quota_limit"), "Tencent CloudBase AI 429 EXCEED_TOKEN_QUOTA_LIMIT 'Token usage exceeded quota limit.' (the free token allowance used up), docs.cloudbase.net/faq/knowledge/ai-429-error-and-token-quota"),
    rule(HardQuota, Phrase("purchase credits"), "Vercel AI Gateway 'Free credits temporarily have restricted access due to abuse ... how to purchase credits', github.com/Aider-AI/aider/pull/4495"),
    rule(HardQuota, Phrase("used all your credits"), "gpt4free upstream 'You have used all your credits for this month. Please add more credits to continue.', github.com/xtekky/gpt4free/issues/3020"),
    rule(HardQuota, Phrase("预扣费额度失败"), "new-api relay 'Access denied: 预扣费额度失败, 用户剩余额度: $2.53, 需要预扣费额度: $2.63' (the pre-charge exceeds the balance), github.com/clacky-ai/openclacky/issues/100"),
    rule(HardQuota, Phrase("preconsumedquota"), "one-api 'user [3446] quota [-20847155]preConsumedQuota [743]is not enough', github.com/songquanpeng/one-api/issues/1846"),
    rule(HardQuota, Phrase("upgrade your tier"), "Together AI 'Access to this model is allowed for build tier 2 and above ... Please upgrade your tier by buying credits', github.com/Nutlope/logocreator/issues/10"),
    rule(HardQuota, Phrase("accountoverdueerror"), "Volcengine Ark 403 AccountOverdueError 'your account has an overdue balance', github.com/coze-dev/coze-studio/issues/2195 and github.com/volcengine/OpenViking/issues/729"),
    rule(HardQuota, Phrase("overdue balance"), "Volcengine Ark AccountOverdueError 'The request failed because your account has an overdue balance', github.com/coze-dev/coze-studio/issues/2195"),
    rule(HardQuota, Phrase("create a key with a higher limit"), "OpenRouter's per-key credit limit 'max_tokens limit exceeded: 100000 > 9577. To increase, visit https://openrouter.ai/keys and create a key with a higher limit', github.com/cline/cline/issues/940"),
    // "You exceeded your current quota": billing unless something says a short window is involved.
    rule(SoftQuota, Code("credit_limit"), "Together 429 type credit_limit ('You have been rate limited... 60 queries per minute'), github.com/togethercomputer/MoA/issues/27"),
    rule(SoftQuota, Phrase("exceeded your current quota"), "OpenAI error codes guide (platform.openai.com/docs/guides/error-codes): 429 You exceeded your current quota (run out of credits)"),
    rule(SoftQuota, Phrase("check your plan and billing"), "OpenAI error codes guide (platform.openai.com/docs/guides/error-codes): 429 ...please check your plan and billing details"),
    rule(SoftQuota, Phrase("credit_limit"), "Together 429 body with type credit_limit, github.com/togethercomputer/MoA/issues/27"),
    // A rate limit: waiting clears it.
    rule(RateLimit, Code("rate_limit_exceeded"), "OpenAI 429 code rate_limit_exceeded (TPM), github.com/BuilderIO/micro-agent/issues/86; Groq same code"),
    rule(RateLimit, Code("rate_limit_error"), "Anthropic errors doc (docs.anthropic.com/en/api/errors): 429 rate_limit_error"),
    rule(RateLimit, Code("rate_limited"), "Mistral 429 type rate_limited code 1300, github.com/raycast/extensions/issues/31107"),
    rule(RateLimit, Code("ratelimitexceeded"), "Vertex AI 429 reason rateLimitExceeded, github.com/google-gemini/gemini-cli/issues/14831"),
    rule(RateLimit, Code("resource_exhausted"), "Gemini troubleshooting doc (ai.google.dev/gemini-api/docs/troubleshooting): 429 RESOURCE_EXHAUSTED"),
    rule(RateLimit, Code("throttlingexception"), "Bedrock API error codes doc (docs.aws.amazon.com/bedrock/latest/userguide/troubleshooting-api-error-codes.html): ThrottlingException 429"),
    rule(RateLimit, Code("throttling_error"), "Azure OpenAI 429 wrapped by LiteLLM as type throttling_error, github.com/jasonacox/TinyLLM/issues/17"),
    rule(RateLimit, Code("too_many_requests"), "not seen in a provider body: generic snake_case 429 code; no LLM provider body with code too_many_requests found"),
    rule(RateLimit, Code("too many requests"), "Gemini (SDK-nested) outer status 'Too Many Requests', github.com/RooCodeInc/Roo-Code/issues/3883"),
    rule(RateLimit, Code("requests"), "not seen in a provider body: OpenAI RPM 429 type 'requests' (counterpart of type 'tokens'); seen quoted in public client code, no citable URL"),
    rule(RateLimit, Code("tokens"), "OpenAI 429 type tokens (TPM), github.com/BuilderIO/micro-agent/issues/86; Groq 413/429 same type"),
    rule(RateLimit, Code("too_many_tokens_error"), "not seen in a provider body: Cerebras 429 type too_many_tokens_error/code token_quota_exceeded seen in public client tests; msg in continue issue 9800"),
    rule(RateLimit, Code("request_limit_exceeded"), "not seen in a provider body: plausible generic gateway code; no provider body found with request_limit_exceeded"),
    rule(RateLimit, Code("tokens_per_minute_limit_exceeded"), "not seen in a provider body: appears only in client-side lists of guessed OpenAI codes; no real provider body found"),
    rule(RateLimit, Status(429), "HTTP 429 Too Many Requests (RFC 6585); OpenAI error codes guide (platform.openai.com/docs/guides/error-codes): 429 rate limit / quota"),
    rule(RateLimit, Phrase("rate limit"), "OpenAI error codes guide (platform.openai.com/docs/guides/error-codes): 429 Rate limit reached for requests"),
    rule(RateLimit, Phrase("rate-limit"), "OpenRouter 429 '...is temporarily rate-limited upstream', github.com/open-webui/computer/issues/293"),
    rule(RateLimit, Phrase("ratelimit"), "Mistral 429 'Ratelimit exceeded. Please wait a moment', github.com/mistralai/mistral-vibe/issues/264"),
    rule(RateLimit, Phrase("too many requests"), "AWS Bedrock ThrottlingException 'Too many requests, please wait before trying again' (repost.aws/knowledge-center/bedrock-throttling-error)"),
    rule(RateLimit, Phrase("too many tokens"), "AWS Bedrock ThrottlingException 'Too many tokens, please wait before trying again.' (repost.aws/knowledge-center/bedrock-throttling-error)"),
    rule(RateLimit, Phrase("throttl"), "Bedrock API error codes doc (docs.aws.amazon.com/bedrock/latest/userguide/troubleshooting-api-error-codes.html): ThrottlingException"),
    rule(RateLimit, Phrase("resource exhausted"), "Vertex AI 429 'Resource exhausted. Please try again later.', github.com/google-gemini/gemini-cli/issues/14831"),
    rule(RateLimit, Phrase("resource has been exhausted"), "Gemini 429 'Resource has been exhausted (e.g. check quota).', github.com/google-gemini/gemini-cli/issues/14811"),
    rule(RateLimit, Phrase("limit exceeded"), "Mistral 429 'Rate limit exceeded', github.com/raycast/extensions/issues/31107; Cerebras 'Tokens per minute limit exceeded'"),
    rule(RateLimit, Phrase("rate quota limit exceed"), "Yandex Cloud gRPC RESOURCE_EXHAUSTED 'ai.embeddingsTextEmbeddingRequestsPerSecond.rate rate quota limit exceed: allowed 10 requests', github.com/langchain-ai/langchain/issues/19773"),
    rule(RateLimit, Phrase("速率限制"), "Zhipu (Z.ai) '[1302][您的账户已达到速率限制，请您控制请求频率]' (the account reached its rate limit), github.com/zai-org/GLM-5/issues/78"),
    rule(RateLimit, Phrase("limit reached"), "OpenAI error codes guide (platform.openai.com/docs/guides/error-codes): 429 Rate limit reached for requests"),
    rule(RateLimit, Phrase("exceeded call rate"), "Azure OpenAI 429 '...have exceeded call rate limit of your current OpenAI S0 pricing tier', github.com/langchain-ai/langchain/issues/12986"),
    rule(RateLimit, Phrase("exceeded token rate"), "Azure OpenAI 429 '...have exceeded token rate limit of your current OpenAI S0 pricing tier', github.com/alex-wolf-ps/dbchatprov2/issues/2"),
    rule(RateLimit, Phrase("rate limited"), "Together 429 'You have been rate limited. Your rate limit is 60 queries per minute', github.com/togethercomputer/MoA/issues/27"),
    rule(RateLimit, Phrase("request limit"), "Gemini (legacy) 429 '...GenerateContent request limit per minute for a region', github.com/xtekky/gpt4free/issues/1700"),
    rule(RateLimit, Phrase("quota exceeded"), "Gemini 429 'Quota exceeded for metric: ...free_tier_requests', github.com/continuedev/continue/issues/10066"),
    rule(RateLimit, Phrase("exceeded your current quota"), "Gemini 429 RESOURCE_EXHAUSTED 'You exceeded your current quota... Please retry in 53s', github.com/googleapis/python-genai/issues/1875"),
    rule(RateLimit, Phrase("tokens per min"), "OpenAI 429 'Rate limit reached ... on tokens per min (TPM)', github.com/BuilderIO/micro-agent/issues/86"),
    rule(RateLimit, Phrase("upstream returned 429"), "Joplin Cloud's AI gateway, HTTP 400 'Error: Upstream returned 429', github.com/laurent22/joplin/issues/16428"),
    rule(RateLimit, Phrase("accounts are currently limited"), "an account-pool proxy 'All accounts are currently limited. Please wait 84152s.', github.com/lbjlaq/Antigravity-Manager/issues/1198"),
    rule(RateLimit, Phrase(" per 1 minute"), "AI21 'AI21 error: 50 per 1 minute' (the limits library's wording, as Flask-Limiter sends it), github.com/stanford-crfm/helm/issues/188"),
    rule(RateLimit, Phrase("requests per min"), "Gemini (legacy) 429 \"Quota exceeded for quota metric 'Generate Content API requests per minute'\", github.com/xtekky/gpt4free/issues/1700"),
    rule(RateLimit, Phrase("exceeded your usage limits"), "Fireworks 429 'You have exceeded your usage limits. Please try again later', github.com/GordeyZuev/LEAP/issues/6"),
    rule(RateLimit, Phrase("rate increased too quickly"), "Alibaba (DashScope) 'Request rate increased too quickly. To ensure system stability, please adjust your client logic', github.com/paperclipai/paperclip/issues/2885"),
    rule(RateLimit, Phrase("并发超限"), "Baidu ERNIE Bot RequestLimitError '并发超限' (concurrency limit exceeded), github.com/PaddlePaddle/PaddleClas/issues/3044"),
    rule(RateLimit, Phrase("负载已饱和"), "one-api/new-api '当前(分组)上游负载已饱和，请稍后再试' (the upstream keys' load is full, try later: the relay's rate limit), github.com/labring/FastGPT/issues/1595"),
    rule(RateLimit, Phrase("request rate is too high"), "Bedrock Agents 'Your request rate is too high. Reduce the frequency of requests', github.com/aws-samples/amazon-bedrock-agents-healthcare-lifesciences/issues/136"),
    rule(RateLimit, Code("1302"), "Zhipu (GLM) 429 code 1302 'Rate limit reached for requests', github.com/kaitranntt/ccs/issues/536"),
    rule(RateLimit, Phrase("qpsoverflow"), "iFlytek Spark 'Error Code: 11202, Error: AppIdQpsOverFlowError' (the app's queries per second), github.com/iflytek/spark-ai-python/issues/39"),
    rule(RateLimit, Phrase("访问频繁"), "Doubao '当前服务访问频繁，请稍后重试' (requests too frequent, try later) in an SSE event, github.com/XilyFeAAAA/DoubaoFreeApi/issues/5"),
    rule(RateLimit, Phrase("allocated quota exceeded"), "DashScope 429 'Allocated quota exceeded, please increase your quota limit' (its per-minute token quota), github.com/QwenLM/Qwen/issues/2254"),
    rule(RateLimit, Phrase("exceeded your current requests"), "DashScope 429 'You exceeded your current requests list.', github.com/infiniflow/ragflow/issues/10598"),
    rule(RateLimit, Phrase("访问过于频繁"), "Baidu ERNIE SDK '访问过于频繁，请稍候再试' (requests too frequent, try later), github.com/PaddlePaddle/ERNIE-SDK/issues/107"),
    rule(RateLimit, Phrase("requestlimitexceeded"), "Tencent Cloud API 3.0 code RequestLimitExceeded '您当前每秒请求 `6` 次，超过了每秒频率上限 `5`', github.com/SUSYUSTC/MathTranslate/issues/21"),
    rule(RateLimit, Phrase("per day) exceeded"), "gpt4free 500 'Token limit (500,000 per day) exceeded. Used: 508,311 tokens', github.com/xtekky/gpt4free/issues/3456"),
    rule(RateLimit, Phrase("rate-limited upstream"), "OpenRouter 429 ':free is temporarily rate-limited upstream. Please retry shortly', github.com/open-webui/computer/issues/293 and github.com/OpenCoworkAI/open-codesign/issues/402: the upstream's rate limit on the shared key, not capacity"),
    rule(RateLimit, Phrase("no deployments available"), "LiteLLM router 'No deployments available for selected model, Try again in 5 seconds' (every deployment cooling down), github.com/microsoft/agent-lightning/issues/290"),
    rule(RateLimit, Code("rate_limit_reached_requests"), "IBM watsonx.ai 429 code rate_limit_reached_requests 'Rate limit of 2 requests per 1s was reached', github.com/langflow-ai/openrag/issues/615"),
    rule(RateLimit, Phrase("concurrency limit"), "iFlow 'Your account has reached the platform concurrency limit ... Please limit to single concurrent usage', github.com/iflow-ai/iflow-cli/issues/301"),
    rule(RateLimit, Phrase("exceeded rate limit"), "Poe {\"allow_retry\": true, \"text\": \"You have exceeded rate limit to query bot using User API Key. Try again later.\"}, github.com/qingyanbaby/poe-to-openai/issues/11"),
    // The provider's capacity, not the caller's budget.
    rule(Overloaded, Code("overloaded_error"), "Anthropic errors doc (docs.anthropic.com/en/api/errors): 529 overloaded_error"),
    rule(Overloaded, Code("overloaded"), "not seen in a provider body: bare code 'overloaded' not seen; Anthropic uses overloaded_error with message 'Overloaded' (likely origin)"),
    rule(Overloaded, Code("unavailable"), "Gemini troubleshooting doc (ai.google.dev/gemini-api/docs/troubleshooting): 503 UNAVAILABLE ('The model is overloaded', gemini-cli issue 5191)"),
    rule(Overloaded, Code("serviceunavailableexception"), "Bedrock Runtime API reference (InvokeModel errors): ServiceUnavailableException, HTTP 503"),
    rule(Overloaded, Code("service_unavailable"), "Gemini API 503 service_unavailable, per developersdigest.tech/errors/api/gemini-api (secondary summary, not checked at source)"),
    rule(Overloaded, Code("service_tier_capacity_exceeded"), "Mistral 429 'Service tier capacity exceeded for this model.' (code 3505), github.com/continuedev/continue/issues/6185"),
    rule(Overloaded, Code("upstream_provider_shared_pool"), "OpenRouter 429 metadata.limit_source upstream_provider_shared_pool, github.com/open-webui/computer/issues/293"),
    rule(Overloaded, Status(529), "Anthropic errors doc (docs.anthropic.com/en/api/errors): 529 overloaded_error"),
    rule(Overloaded, Phrase("overloaded"), "Anthropic errors doc (docs.anthropic.com/en/api/errors): 529 overloaded_error 'Overloaded'; OpenAI 503 server_is_overloaded"),
    rule(Overloaded, Phrase("over capacity"), "Groq service tiers doc (console.groq.com/docs/service-tiers): flex tier 'may get over capacity errors'"),
    rule(Overloaded, Phrase("capacity exceeded"), "Groq errors doc (console.groq.com/docs/errors): 498 Flex Tier Capacity Exceeded; Mistral 'Service tier capacity exceeded'"),
    rule(Overloaded, Phrase("at capacity"), "OpenAI Codex 'Selected model is at capacity. Please try a different model.', github.com/openai/codex/issues/46142"),
    rule(Overloaded, Phrase("slow down"), "OpenAI error codes guide (platform.openai.com/docs/guides/error-codes): 503 Slow Down (sudden increase in request rate)"),
    rule(Overloaded, Phrase("high demand"), "Azure OpenAI 429 'The system is currently experiencing high demand', github.com/pollinations/pollinations/issues/6260"),
    rule(Overloaded, Phrase("currently unavailable"), "not seen in a provider body: plausible 503 wording; only a client message seen ('The LLM is currently unavailable', Warp issue 8382)"),
    rule(Overloaded, Phrase("temporarily unavailable"), "Ollama Cloud 503 'Service Temporarily Unavailable', github.com/continuedev/continue/issues/10319"),
    rule(Overloaded, Phrase("shared capacity"), "not seen in a provider body: likely OpenRouter free/shared-pool wording (cf. limit_source upstream_provider_shared_pool); phrase not seen"),
    rule(Overloaded, Phrase("resource exhausted. please try again later"), "Vertex AI 429 'Resource exhausted. Please try again later.' (links Vertex error-code-429 doc), gemini-cli issue 14831"),
    rule(Overloaded, Phrase("no capacity"), "Gemini Code Assist 503 MODEL_CAPACITY_EXHAUSTED 'No capacity available for model', github.com/google-gemini/gemini-cli/issues/23520"),
    rule(Overloaded, Phrase("insufficient capacity"), "not seen in a provider body: plausible cloud capacity wording (Bedrock/Azure provisioned); no LLM error body with this phrase found"),
    rule(Overloaded, Phrase("experiencing high traffic"), "Cerebras 429 queue_exceeded \"We're experiencing high traffic right now!\", github.com/LondonTipton/ai-chatbot docs"),
    rule(Overloaded, Phrase("server busy"), "Ollama 'server busy, please try again.  maximum pending requests exceeded', refusals collected this round"),
    rule(Overloaded, Phrase("server is busy"), "DeepSeek 'The server is busy. Please try again later.', github.com/deepseek-ai/DeepSeek-V3/issues/552"),
    rule(Overloaded, Phrase("maximum pending requests"), "Ollama 'maximum pending requests exceeded' (OLLAMA_MAX_QUEUE), refusals collected this round"),
    rule(Overloaded, Phrase("no slots available"), "Ollama 'llm busy - no slots available', refusals collected this round"),
    rule(Overloaded, Phrase("model busy"), "DeepInfra 429 'Model busy, retry later', refusals collected this round"),
    rule(Overloaded, Phrase("is currently loading"), "Hugging Face Inference 503 'Model ... is currently loading' with estimated_time, refusals collected this round"),
    rule(Overloaded, Phrase("server had an error"), "OpenAI 500 server_error 'The server had an error while processing your request. Sorry about that!', refusals collected this round"),
    rule(Overloaded, Phrase("unable to process your request"), "named by the refusal issue (issue 30) as an overload wording on 429/5xx; not yet seen in a collected body"),
    rule(Overloaded, Phrase("out of capacity"), "Vertex AI 429 'the service is currently unavailable ... temporarily out of capacity', refusals collected this round"),
    rule(Overloaded, Code("model_capacity_exhausted"), "Gemini Code Assist 503 reason MODEL_CAPACITY_EXHAUSTED, github.com/google-gemini/gemini-cli/issues/23520"),
    rule(Overloaded, Phrase("before the given deadline"), "Fireworks 429 'Request didn't generate first token before the given deadline', refusals collected this round"),
    rule(Overloaded, Phrase("due to system capacity"), "Qwen (DashScope) 503 'requests are being throttled due to system capacity limits', github.com/QwenLM/qwen-code/issues/1641"),
    rule(Overloaded, Phrase("worker local total request limit"), "OpenRouter 'Worker local total request limit reached (33/32)' inside a 200, github.com/diegosouzapw/OmniRoute/pull/8210"),
    rule(Overloaded, Phrase("too many connections"), "AWS Bedrock 503 'Too many connections, please wait before trying again.', github.com/anthropics/claude-code/issues/562"),
    rule(Overloaded, Code("1305"), "Zhipu (GLM) 429 code 1305 '该模型当前访问量过大，请您稍后再试' (the model is too busy), github.com/zhukunpenglinyutong/jetbrains-cc-gui/issues/897"),
    rule(Overloaded, Phrase("capacity temporarily exceeded"), "Cloudflare Workers AI '3040: Capacity temporarily exceeded, please try again.', answeroverflow.com/m/1349849373210574900"),
    rule(Overloaded, Phrase("temporarily busy"), "Kiro 'The model is temporarily busy. Please try again in a moment.', github.com/kirodotdev/Kiro/issues/8998"),
    rule(Overloaded, Phrase("503 service unavailable"), "Bedrock Converse through httpx: \"Server error '503 Service Unavailable' for url '...bedrock-runtime...'\", github.com/Aider-AI/aider/issues/2530"),
    rule(Overloaded, Phrase("too busy"), "SiliconFlow 503 code 50508 'System is too busy now. Please try again later.', github.com/CherryHQ/cherry-studio/issues/4541"),
    rule(Overloaded, Phrase("loading model"), "llama.cpp server 503 unavailable_error 'Loading model' (the model is not loaded yet), github.com/mostlygeek/llama-swap/issues/146"),
    rule(Overloaded, Code("unavailable_error"), "llama.cpp server 503 type unavailable_error 'Loading model', github.com/mindverse/Second-Me/issues/20"),
    rule(Overloaded, Phrase("访问量过大"), "Zhipu (GLM) code 1305 '该模型当前访问量过大' (the model's traffic is too high), github.com/zhukunpenglinyutong/jetbrains-cc-gui/issues/897"),
    rule(Overloaded, Phrase("no more data centers"), "Cloudflare Workers AI 429 error 3040 'No more data centers to forward the request to', developers.cloudflare.com/workers-ai/platform/errors/"),
    rule(Overloaded, Phrase("reset reason: overflow"), "Envoy 503 'upstream connect error or disconnect/reset before headers. reset reason: overflow' (its circuit breaker), github.com/nminaya/grammar-nazi-bot/issues/931"),
    rule(Overloaded, Code("modelnotreadyexception"), "Bedrock InvokeModel API reference: ModelNotReadyException (429), the imported model is being restored; retry"),
    rule(Overloaded, Phrase("model is not ready"), "Bedrock ModelNotReadyException 'Model is not ready for inference. Wait and try your request again.', www.repost.aws/ja/knowledge-center/bedrock-imported-models-modelnotreadyexception"),
    rule(Overloaded, Phrase("receiving too many requests at the moment"), "Moonshot (Kimi) 429 rate_limit_reached_error \"We're receiving too many requests at the moment. Please wait a moment and try again.\" (the service's load, not the account's limit), github.com/MoonshotAI/kimi-cli/issues/901"),
    // A cap on the request body's size.
    rule(PayloadCap, Phrase("string value length"), "DashScope (Jackson) 400 'String value length (20054016) exceeds the maximum allowed (20000000, from `StreamReadConstraints.getMaxStringLength()`)', github.com/QwenLM/qwen-code/issues/1082"),
    rule(PayloadCap, Code("request_too_large"), "Anthropic errors doc (docs.anthropic.com/en/api/errors): 413 request_too_large"),
    rule(PayloadCap, Status(413), "Anthropic errors doc (docs.anthropic.com/en/api/errors): 413 request_too_large; Groq errors doc: 413 Request Entity Too Large"),
    rule(PayloadCap, Phrase("received message larger than max"), "LocalAI (gRPC) 'ResourceExhausted desc = grpc: received message larger than max (400000002 vs. 4194304)', github.com/mudler/LocalAI/issues/1150"),
    rule(PayloadCap, Phrase("input list can contain at most"), "Jina embeddings 400 'Each input list can contain at most 512 items.', github.com/langgenius/dify-official-plugins/issues/1997"),
    rule(PayloadCap, Phrase("request entity too large"), "Groq errors doc (console.groq.com/docs/errors): 413 Request Entity Too Large"),
    rule(PayloadCap, Phrase("payload too large"), "OpenAI (Codex backend) 'unexpected status 413 Payload Too Large', github.com/openai/codex/issues/7682"),
    rule(PayloadCap, Phrase("maximum allowed number of bytes"), "Anthropic errors doc (docs.anthropic.com/en/api/errors): 413 request_too_large 'Request exceeds the maximum allowed number of bytes'"),
    rule(PayloadCap, Phrase("value at 'body' failed to satisfy constraint"), "Bedrock ValidationException \"Value at 'body' failed to satisfy constraint: Member must have length less than or equal to 25000000\", github.com/langchain-ai/langchain-aws/issues/419"),
    rule(PayloadCap, Phrase("max_tokens_per_request"), "OpenAI 400 'max_tokens_per_request' in a client's Python-repr wrapping of the body, github.com/ridgesai/ridges-old/pull/75"),
    rule(PayloadCap, Code("max_tokens_per_request"), "OpenAI 400 type max_tokens_per_request 'Requested 319487 tokens, max 300000 tokens per request', github.com/ridgesai/ridges-old/pull/75"),
    rule(PayloadCap, Phrase("payload size exceeds the limit"), "Gemini 400 'Request payload size exceeds the limit: 4194304 bytes.', github.com/google-gemini/deprecated-generative-ai-android/issues/26"),
    rule(PayloadCap, Phrase("exceeds max allowed file size"), "Vertex AI 400 'The file size of gs://... is 47688287, which exceeds max allowed file size of 31457280', github.com/googleapis/js-genai/issues/1391"),
    rule(PayloadCap, Phrase("failed to buffer the request body"), "TGI (axum) 'Failed to buffer the request body: length limit exceeded' (its body size cap), github.com/huggingface/text-generation-inference/issues/1802"),
    rule(PayloadCap, Phrase("tokens per submitted batch"), "Voyage AI 'The max allowed tokens per submitted batch is 120000. Your batch has 121138 tokens', github.com/sigoden/aichat/pull/825"),
    rule(PayloadCap, Phrase("request too large (max"), "Claude (an agent runtime's relay of the 413) 'Request too large (max 32MB). Try with a smaller file.', github.com/aipoch/open-science/issues/14"),
    rule(PayloadCap, Phrase("too many tokens in batch"), "Mistral embeddings 400 'Too many tokens in batch. Max is 16384 got 17555', github.com/aurelio-labs/semantic-router/issues/297"),
    // A failure on the server's side: worth another try.
    rule(ServerError, Code("server_error"), "OpenAI error type server_error (e.g. 'That model is currently overloaded...'), github.com/agi-merge/waggle-dance/issues/53"),
    rule(ServerError, Code("internal_error"), "not seen in a provider body: plausible OpenAI-compatible gateway code (seen with type internal_server_error in public gateway tests); no provider URL"),
    rule(ServerError, Code("internal_server_error"), "not seen in a provider body: seen as type in OpenAI-compatible gateways (e.g. LiteLLM proxy) and 'Worker local total request limit' bodies; no provider doc"),
    rule(ServerError, Code("api_error"), "Anthropic errors doc (docs.anthropic.com/en/api/errors): 500 api_error"),
    rule(ServerError, Code("internal"), "Gemini troubleshooting doc (ai.google.dev/gemini-api/docs/troubleshooting): 500 INTERNAL"),
    rule(ServerError, Phrase("error processing stream"), "OpenRouter's mid-stream error chunk {'message': 'Error processing stream', 'code': 502, 'metadata': {'raw': {'retryable': True}}} relayed by LiteLLM, github.com/hotovo/aider-desk/issues/103"),
    rule(ServerError, Status(408), "RFC 9110 15.5.9: 408 Request Timeout, the server would not wait for the request"),
    rule(ServerError, Status(500), "RFC 9110 15.6.1: 500 Internal Server Error"),
    rule(ServerError, Status(502), "RFC 9110 15.6.3: 502 Bad Gateway"),
    rule(ServerError, Status(503), "RFC 9110 15.6.4: 503 Service Unavailable, a temporary overload or maintenance"),
    rule(ServerError, Status(504), "RFC 9110 15.6.5: 504 Gateway Timeout"),
    // Words of a cap: a rate limit that says them, with no wait and no short window stated, is not retried.
    rule(CapWords, Phrase("account balance"), "not seen in a provider body: a cap's wording (issue 30: a refusal that might be a quota is not retried without a stated wait)"),
    rule(CapWords, Phrase("insufficient balance"), "DeepSeek 402 'Insufficient Balance' (api-docs.deepseek.com/quick_start/error_codes); iFlow's relay of it, github.com/iflow-ai/iflow-cli/issues/288"),
    rule(CapWords, Phrase("余额"), "Zhipu 429 code 1113 '余额不足或无可用资源包,请充值' (the balance is short), docs.bigmodel.cn error codes"),
    rule(CapWords, Phrase("充值"), "Zhipu 429 code 1113 '...请充值' (please top up), docs.bigmodel.cn error codes"),
    rule(CapWords, Phrase("top up"), "OpenGateway 402 'Top up for unlimited access', github.com/Gitlawb/openclaude/issues/1554"),
    rule(CapWords, Phrase("top-up"), "not seen in a provider body: a cap's wording (issue 30: a refusal that might be a quota is not retried without a stated wait)"),
    rule(CapWords, Phrase("spending cap"), "Claude Code 'spending cap reached' for a plan's cap (its client's wording of the 429), github.com/anthropics/claude-code/issues/14470"),
    rule(CapWords, Phrase("spend limit"), "Claude Code Action: an API key's monthly spend limit, github.com/anthropics/claude-code-action/issues/876"),
    rule(CapWords, Phrase("billing"), "OpenAI error codes guide (platform.openai.com/docs/guides/error-codes): 'check your plan and billing details'"),
    rule(CapWords, Phrase("payment method"), "not seen in a provider body: a cap's wording (issue 30: a refusal that might be a quota is not retried without a stated wait)"),
    rule(CapWords, Phrase("hard limit"), "OpenAI 'Billing hard limit has been reached' (billing_hard_limit_reached)"),
    rule(CapWords, Phrase("allowance"), "not seen in a provider body: a cap's wording (issue 30: a refusal that might be a quota is not retried without a stated wait)"),
    rule(CapWords, Phrase("weekly"), "Ollama Cloud 429 'weekly usage limit', github.com/diegosouzapw/OmniRoute/issues/3709"),
    rule(CapWords, Phrase("per week"), "not seen in a provider body: a cap's wording (issue 30: a refusal that might be a quota is not retried without a stated wait)"),
    rule(CapWords, Phrase("this week"), "not seen in a provider body: a cap's wording (issue 30: a refusal that might be a quota is not retried without a stated wait)"),
    rule(CapWords, Phrase("monthly"), "Cohere trial key 'limited to 1000 API calls / month' (docs.cohere.com); xAI 'monthly spending limit'"),
    rule(CapWords, Phrase("per month"), "not seen in a provider body: a cap's wording (issue 30: a refusal that might be a quota is not retried without a stated wait)"),
    rule(CapWords, Phrase("this month"), "gpt4free upstream 'You have used all your credits for this month', github.com/xtekky/gpt4free/issues/3020"),
    rule(CapWords, Phrase("billing period"), "not seen in a provider body: a cap's wording (issue 30: a refusal that might be a quota is not retried without a stated wait)"),
    rule(CapWords, Phrase("subscription"), "xAI 403 'You have run out of credits or need a Grok subscription', github.com/Wei-Shaw/sub2api/issues/4069"),
    rule(CapWords, Phrase("upgrade your"), "Together AI 'Please upgrade your tier by buying credits', github.com/Nutlope/logocreator/issues/10"),
    rule(CapWords, Phrase("credits"), "OpenRouter errors doc (openrouter.ai/docs/api/errors): 402 insufficient credits"),
    rule(CapWords, Phrase("trial"), "Cohere trial key limits (docs.cohere.com/docs/rate-limits)"),
    rule(CapWords, Phrase("free tier limit"), "not seen in a provider body: a cap's wording (issue 30: a refusal that might be a quota is not retried without a stated wait)"),
    rule(CapWords, Phrase("free quota"), "OpenGateway 402 'Free quota used (30 requests / 5h)', github.com/Gitlawb/openclaude/issues/1554"),
    rule(CapWords, Phrase("usage limit"), "Ollama Cloud 429 'session usage limit, upgrade for higher limits', github.com/continuedev/continue/issues/11444"),
];

/// What a body said, lowercased, for the rules to look at.
pub(crate) struct Said<'a> {
    /// The error codes, types and statuses found in the body.
    pub(crate) codes: &'a [String],
    /// The messages, joined.
    pub(crate) text: &'a str,
    /// The response's status, or the one the body states.
    pub(crate) status: Option<u16>,
}

impl Said<'_> {
    /// Whether any rule for `signal` matches.
    pub(crate) fn signals(&self, signal: Signal) -> bool {
        self.signals_where(signal, |_| true)
    }

    /// Whether any rule for `signal` matches the body (its codes or words), leaving the status aside.
    pub(crate) fn signals_in_body(&self, signal: Signal) -> bool {
        self.signals_where(signal, |w| !matches!(w, Status(_)))
    }

    fn signals_where(&self, signal: Signal, keep: impl Fn(When) -> bool) -> bool {
        RULES
            .iter()
            .filter(|r| r.signal == signal && keep(r.when))
            .any(|r| self.matches(r.when))
    }

    /// Whether one match holds.
    pub(crate) fn matches(&self, when: When) -> bool {
        match when {
            Code(c) => self.codes.iter().any(|x| x == c),
            Phrase(p) => self.text.contains(p),
            Status(s) => self.status == Some(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_lowercase_sourced_and_unique() {
        for (i, r) in RULES.iter().enumerate() {
            if let Code(s) | Phrase(s) = r.when {
                assert_eq!(s, s.to_ascii_lowercase(), "{r:?}");
                assert!(!s.is_empty(), "{r:?}");
            }
            assert!(r.source.len() > 10, "{r:?} names no source");
            assert!(
                !RULES[..i]
                    .iter()
                    .any(|o| o.signal == r.signal && o.when == r.when),
                "{r:?} is listed twice"
            );
        }
    }

    #[test]
    fn a_rule_fires_on_its_own_wording() {
        for r in RULES {
            let codes = match r.when {
                Code(c) => vec![c.to_string()],
                _ => vec![],
            };
            let text = match r.when {
                Phrase(p) => format!("error: {p}."),
                _ => String::new(),
            };
            let status = match r.when {
                Status(s) => Some(s),
                _ => None,
            };
            let said = Said {
                codes: &codes,
                text: &text,
                status,
            };
            assert!(said.signals(r.signal), "{r:?}");
        }
    }
}
