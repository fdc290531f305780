//! Real refusal shapes from providers' documentation and public bug reports, each with its source, and what
//! `classify` must make of them. Organisation, team and account ids are redacted; no keys appear.

use llm_preflight::{classify, Dimension, RefusalKind, Window};
use RefusalKind::*;

struct Case {
    /// Where the shape was seen.
    src: &'static str,
    provider: &'static str,
    status: Option<u16>,
    headers: &'static [(&'static str, &'static str)],
    body: &'static str,
    kind: RefusalKind,
    retryable: bool,
    retry_after_ms: Option<u64>,
    limit: Option<u64>,
    requested: Option<u64>,
    used: Option<u64>,
    dimension: Option<Dimension>,
    window: Option<Window>,
}

const NONE: &[(&str, &str)] = &[];
const TOK: Option<Dimension> = Some(Dimension::Tokens);
const REQ: Option<Dimension> = Some(Dimension::Requests);
const MIN: Option<Window> = Some(Window::Minute);
const DAY: Option<Window> = Some(Window::Day);
const MONTH: Option<Window> = Some(Window::Month);

#[allow(clippy::too_many_arguments)]
const fn c(
    src: &'static str,
    provider: &'static str,
    status: Option<u16>,
    headers: &'static [(&'static str, &'static str)],
    body: &'static str,
    kind: RefusalKind,
    retryable: bool,
    retry_after_ms: Option<u64>,
    (limit, requested, used): (Option<u64>, Option<u64>, Option<u64>),
    dimension: Option<Dimension>,
    window: Option<Window>,
) -> Case {
    Case {
        src,
        provider,
        status,
        headers,
        body,
        kind,
        retryable,
        retry_after_ms,
        limit,
        requested,
        used,
        dimension,
        window,
    }
}

const N3: (Option<u64>, Option<u64>, Option<u64>) = (None, None, None);

fn cases() -> Vec<Case> {
    vec![
        // ---------------------------------------------------------------- OpenAI
        c("github.com/BuilderIO/micro-agent/issues/86", "openai", Some(429), NONE,
          r#"{"error":{"message":"Rate limit reached for gpt-4o in organization org-REDACTED on tokens per min (TPM): Limit 30000, Used 29937, Requested 385. Please try again in 644ms.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}"#,
          RateLimitTokens, true, Some(644), (Some(30000), Some(385), Some(29937)), TOK, MIN),
        c("github.com/FoundationAgents/MetaGPT/issues/523", "openai", Some(429), NONE,
          "openai.error.RateLimitError: Rate limit reached for gpt-4 in organization org-REDACTED on tokens per min (TPM): Limit 10000, Used 8554, Requested 3082. Please try again in 9.816s. Visit https://platform.openai.com/account/rate-limits to learn more.",
          RateLimitTokens, true, Some(9816), (Some(10000), Some(3082), Some(8554)), TOK, MIN),
        c("github.com/semanser/codel/issues/72", "openai", Some(429), NONE,
          "API returned unexpected status code: 429: Rate limit reached for gpt-4o in organization XXXXXXXXX on tokens per min (TPM): Limit 30000, Used 14567, Requested 24754. Please try again in 18.642s. Visit https://platform.openai.com/account/rate-limits to learn more.",
          RateLimitTokens, true, Some(18642), (Some(30000), Some(24754), Some(14567)), TOK, MIN),
        c("github.com/TheR1D/shell_gpt/issues/653", "openai", Some(429), NONE,
          r#"{"error":{"message":"Request too large for gpt-4o in organization org-REDACTED on tokens per min (TPM): Limit 30000, Requested 31538. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}"#,
          TooLarge, false, None, (Some(30000), Some(31538), None), TOK, MIN),
        c("github.com/continuedev/continue/issues/11472", "openai", Some(429), NONE,
          "429 Rate limit reached for gpt-4.1 in organization org-REDACTED on tokens per min (TPM): Limit 30000, Used 18928, Requested 11159. Please try again in 174ms. Visit https://platform.openai.com/account/rate-limits to learn more.",
          RateLimitTokens, true, Some(174), (Some(30000), Some(11159), Some(18928)), TOK, MIN),
        c("github.com/agent0ai/agent-zero/issues/711", "openai", Some(429), NONE,
          "litellm.exceptions.RateLimitError: litellm.RateLimitError: RateLimitError: OpenAIException - Request too large for gpt-5 in organization org-123456 on tokens per min (TPM): Limit 30000, Requested 36055. The input or output tokens must be reduced in order to run successfully.",
          TooLarge, false, None, (Some(30000), Some(36055), None), TOK, MIN),
        c("github.com/daveshap/Medical_Intake/issues/9", "openai", Some(429), NONE,
          "Rate limit reached for 10KTPM-200RPM in organization org-REDACTED on tokens per min. Limit: 10000 / min. Please try again in 6ms. Contact us through our help center at help.openai.com if you continue to have issues.",
          RateLimitTokens, true, Some(6), (Some(10000), None, None), TOK, MIN),
        c("github.com/jorge-menjivar/unsaged/issues/53", "openai", Some(429), NONE,
          r#"{"error":{"message":"Rate limit reached for gpt-4 in organization ***** on tokens per min. Limit: 10000 / min. Please try again in 6ms. Visit https://platform.openai.com/account/rate-limits to learn more.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}"#,
          RateLimitTokens, true, Some(6), (Some(10000), None, None), TOK, MIN),
        c("github.com/continuedev/continue/issues/10502", "openai", Some(429), NONE,
          "429 Rate limit reached for gpt-4.1 in organization org-REDACTED on tokens per min (TPM): Limit 30000, Used 28039, Requested 3906. Please try again in 3.89s. Visit https://platform.openai.com/account/rate-limits to learn more.",
          RateLimitTokens, true, Some(3890), (Some(30000), Some(3906), Some(28039)), TOK, MIN),
        c("github.com/DrShushen/climb/issues/13", "openai", Some(429), NONE,
          "RateLimitError: Error code: 429 - {'error': {'message': 'Request too large for gpt-4o in organization org-REDACTED on tokens per min (TPM): Limit 30000, Requested 30601. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}",
          TooLarge, false, None, (Some(30000), Some(30601), None), TOK, MIN),
        c("github.com/vanna-ai/vanna-flask/issues/11", "openai", Some(429), NONE,
          "Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 342389. The input or output tokens must be reduced in order to run successfully.",
          TooLarge, false, None, (Some(30000), Some(342389), None), TOK, MIN),
        c("github.com/ChatGPTNextWeb/NextChat/issues/3123", "openai", Some(429), NONE,
          r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/ChatGPTNextWeb/NextChat/issues/1792", "openai", Some(429), NONE,
          r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":null}}"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/ChatGPTNextWeb/NextChat/issues/4101", "openai", Some(429), NONE,
          r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/zurawiki/gptcommit/issues/84", "openai", None, NONE,
          "Error: insufficient_quota: You exceeded your current quota, please check your plan and billing details.",
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/chathub-dev/chathub/issues/126", "openai", Some(400), NONE,
          r#"{"error":{"message":"This model's maximum context length is 4097 tokens. However, your messages resulted in 4294 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
          ContextLength, false, None, (Some(4097), Some(4294), None), TOK, None),
        c("github.com/Chanzhaoyu/chatgpt-web/issues/354", "openai", Some(400), NONE,
          r#"{"error":{"message":"This model's maximum context length is 4096 tokens. However, you requested 4130 tokens (3130 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
          ContextLength, false, None, (Some(4096), Some(4130), None), TOK, None),
        c("github.com/crewAIInc/crewAI-examples/issues/121", "openai", Some(400), NONE,
          "openai.BadRequestError: Error code: 400 - {'error': {'message': \"This model's maximum context length is 8192 tokens. However, your messages resulted in 8227 tokens. Please reduce the length of the messages.\", 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}",
          ContextLength, false, None, (Some(8192), Some(8227), None), TOK, None),
        c("github.com/mckaywrigley/chatbot-ui/issues/820", "openai", Some(400), NONE,
          "This model's maximum context length is 8192 tokens. However, you requested 8554 tokens (7554 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
          ContextLength, false, None, (Some(8192), Some(8554), None), TOK, None),
        c("github.com/anomalyco/opencode/issues/26129 (Responses API stream error frame)", "openai", Some(200), NONE,
          "event: error\ndata: {\"type\":\"error\",\"sequence_number\":2,\"error\":{\"type\":\"service_unavailable_error\",\"code\":\"server_is_overloaded\",\"message\":\"Our servers are currently overloaded. Please try again later.\",\"param\":null}}\n\n",
          Overloaded, true, None, N3, None, None),
        // ---------------------------------------------------------------- Azure OpenAI
        c("github.com/alex-wolf-ps/dbchatprov2/issues/2", "azure", Some(429), NONE,
          "HTTP 429 (429) Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-05-01-preview have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 86400 seconds. Please go here:\nhttps://aka.ms/oai/quotaincrease\nif you would like to further increase the default rate limit.",
          RateLimitTokens, true, Some(86_400_000), N3, TOK, None),
        c("github.com/jasonacox/TinyLLM/issues/17", "azure", Some(429), NONE,
          "Error code: 429 - {'error': {'message': \"litellm.RateLimitError: AzureException RateLimitError - Error code: 429 - {'error': {'code': '429', 'message': 'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2023-05-15 have exceeded token rate limit of your current AIServices S0 pricing tier. Please retry after 86400 seconds. Please contact Azure support service if you would like to further increase the default rate limit.'}}\", 'type': 'throttling_error', 'param': None, 'code': '429'}}",
          RateLimitTokens, true, Some(86_400_000), N3, TOK, None),
        c("github.com/langchain-ai/langchain/issues/12986", "azure", Some(429), NONE,
          r#"{"error":{"code":"429","message":"Requests to the Embeddings_Create Operation under Azure OpenAI API version 2023-07-01-preview have exceeded call rate limit of your current OpenAI S0 pricing tier. Please retry after 3 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."}}"#,
          RateLimitRequests, true, Some(3000), N3, REQ, None),
        c("github.com/microsoft/PubSec-Info-Assistant/issues/479", "azure", Some(429), NONE,
          "openai.error.RateLimitError: Requests to the Embeddings_Create Operation under Azure OpenAI API version 2023-06-01-preview have exceeded the call rate limit of your current OpenAI S0 pricing tier. Please retry after 54 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.",
          RateLimitRequests, true, Some(54_000), N3, REQ, None),
        c("github.com/microsoft/sample-app-aoai-chatGPT/issues/131", "azure", Some(429), NONE,
          "Requests to the Creates a completion for the chat message Operation under Azure OpenAI API version 2023-03-15-preview have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 7 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.",
          RateLimitTokens, true, Some(7000), N3, TOK, None),
        c("github.com/pollinations/pollinations/issues/6260", "azure", Some(429), NONE,
          r#"{"success":false,"error":{"message":"azure-openai error: The system is currently experiencing high demand and cannot process your request. Your request exceeds the maximum usage size allowed during peak load. Please retry after 20 seconds. For improved latency reliability, consider switching to Provisioned Throughput.","code":"RATE_LIMITED","timestamp":"2025-12-21T01:27:42.111Z"},"status":429}"#,
          Overloaded, true, Some(20_000), N3, None, None),
        c("github.com/Azure-Samples/azure-search-openai-demo/issues/177", "azure", Some(429), NONE,
          "Error: Rate limit is exceeded. Try again in 30 seconds.",
          RateLimitOther, true, Some(30_000), N3, None, None),
        c("github.com/openai/openai-python/issues/937 (Azure 429 with only x-rate-limit-reset-tokens)", "azure", Some(429),
          &[("x-rate-limit-reset-tokens", "55"), ("policy-id", "DeploymentRatelimit-Token"), ("x-ratelimit-remaining-requests", "119")],
          "", RateLimitOther, true, Some(55_000), N3, None, None),
        // ---------------------------------------------------------------- Groq
        c("github.com/ITSpecialist111/ai_automation_suggester/issues/61", "groq", Some(413), NONE,
          r#"{"error":{"message":"Request too large for model `llama-3.3-70b-versatile` in organization `org_REDACTED` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 14810, please reduce your message size and try again. Visit https://console.groq.com/docs/rate-limits for more information.","type":"tokens","code":"rate_limit_exceeded"}}"#,
          TooLarge, false, None, (Some(6000), Some(14810), None), TOK, MIN),
        c("github.com/assafelovic/gpt-researcher/issues/985", "groq", Some(413), NONE,
          "Error code: 413 - {'error': {'message': 'Request too large for model `llama-3.1-70b-versatile` in organization `org_REDACTED` on tokens per minute (TPM): Limit 6000, Requested 14368, please reduce your message size and try again. Visit https://console.groq.com/docs/rate-limits for more information.', 'type': 'tokens', 'code': 'rate_limit_exceeded'}}",
          TooLarge, false, None, (Some(6000), Some(14368), None), TOK, MIN),
        c("github.com/elizaOS/eliza/issues/4040", "groq", Some(429), NONE,
          "Rate limit reached for model `llama-3.1-8b-instant` in organization `org_REDACTED` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Used 5034, Requested 1443. Please try again in 4.77s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing",
          RateLimitTokens, true, Some(4770), (Some(6000), Some(1443), Some(5034)), TOK, MIN),
        c("github.com/continuedev/continue/issues/10218", "groq", Some(413), NONE,
          "413 Request too large for model `llama-3.3-70b-versatile` in organization `org_REDACTED` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Requested 14137, please reduce your message size and try again. Need more tokens%3F Upgrade to Dev Tier today at https://console.groq.com/settings/billing",
          TooLarge, false, None, (Some(12000), Some(14137), None), TOK, MIN),
        c("github.com/autohandai/code-cli/issues/338", "groq", Some(413), NONE,
          "Request too large for model `openai/gpt-oss-20b` in organization `org_REDACTED` service tier `on_demand` on tokens per minute (TPM): Limit 8000, Requested 34031, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing",
          TooLarge, false, None, (Some(8000), Some(34031), None), TOK, MIN),
        c("github.com/chigwell/telegram-mcp/issues/16", "groq", Some(413), NONE,
          "Error code: 413 - {'error': {'message': 'Request too large for model `deepseek-r1-distill-llama-70b` in organization `org_REDACTED` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 11814, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing', 'type': 'tokens', 'code': 'rate_limit_exceeded'}}",
          TooLarge, false, None, (Some(6000), Some(11814), None), TOK, MIN),
        c("github.com/bklieger-groq/NotebookLlama-Groq/issues/1", "groq", Some(413), NONE,
          "APIStatusError: Error code: 413 - {'error': {'message': 'Request too large for model `llama-3.1-70b-versatile` in organization `org_REDACTED` on tokens per minute (TPM): Limit 6000, Requested 18993, please reduce your message size and try again. Visit https://console.groq.com/docs/rate-limits for more information.', 'type': 'tokens', 'code': 'rate_limit_exceeded'}}",
          TooLarge, false, None, (Some(6000), Some(18993), None), TOK, MIN),
        c("github.com/HunorLaczko/ha-groq-cloud-api/issues/27", "groq", Some(413), NONE,
          "Error code: 413 - {'error': {'message': 'Request too large for model llama-3.1-8b-instant in organization org_xxxxxxx service tier on_demand on tokens per minute (TPM): Limit 6000, Requested 12328, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing', 'type': 'tokens', 'code': 'rate_limit_exceeded'}}",
          TooLarge, false, None, (Some(6000), Some(12328), None), TOK, MIN),
        c("github.com/ItzCrazyKns/Vane/issues/286", "groq", Some(429), NONE,
          "RateLimitError: 429 Rate limit reached for model `llama-3.1-70b-versatile` in organization `org_REDACTED` on : Limit 131072, Used 130385, Requested 731. Please try again in 28.542992187s. Visit https://console.groq.com/docs/rate-limits for more information.",
          RateLimitOther, true, Some(28_543), (Some(131072), Some(731), Some(130385)), None, None),
        c("/work/shared/background/peak-at-4-percent.txt (Groq 413 that is really a per-minute limit)", "groq", Some(413), NONE,
          r#"{"error":{"message":"Request too large for model `openai/gpt-oss-120b` on tokens per minute (TPM): Limit 8000, Requested 8478, please reduce your message size and try again","type":"tokens","code":"rate_limit_exceeded"}}"#,
          TooLarge, false, None, (Some(8000), Some(8478), None), TOK, MIN),
        // ---------------------------------------------------------------- Gemini / Vertex
        c("github.com/googleapis/python-genai/issues/1875", "gemini", Some(429), NONE,
          r#"{"error":{"code":429,"message":"You exceeded your current quota... Please retry in 53.016342224s.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"53s"}]}}"#,
          RateLimitOther, true, Some(53_000), N3, None, None),
        c("github.com/RooCodeInc/Roo-Code/issues/3883 (Gemini error nested as a JSON string)", "gemini", Some(429), NONE,
          "{\"error\":{\"message\":\"{\\n  \\\"error\\\": {\\n    \\\"code\\\": 429,\\n    \\\"message\\\": \\\"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\\\",\\n    \\\"status\\\": \\\"RESOURCE_EXHAUSTED\\\",\\n    \\\"details\\\": [\\n      {\\n        \\\"@type\\\": \\\"type.googleapis.com/google.rpc.QuotaFailure\\\",\\n        \\\"violations\\\": [\\n          {\\n            \\\"quotaMetric\\\": \\\"generativelanguage.googleapis.com/generate_content_free_tier_input_token_count\\\",\\n            \\\"quotaId\\\": \\\"GenerateContentInputTokensPerModelPerMinute-FreeTier\\\",\\n            \\\"quotaDimensions\\\": {\\n              \\\"location\\\": \\\"global\\\",\\n              \\\"model\\\": \\\"gemini-2.5-flash\\\"\\n            },\\n            \\\"quotaValue\\\": \\\"250000\\\"\\n          }\\n        ]\\n      },\\n      {\\n        \\\"@type\\\": \\\"type.googleapis.com/google.rpc.Help\\\",\\n        \\\"links\\\": [\\n          {\\n            \\\"description\\\": \\\"Learn more about Gemini API quotas\\\",\\n            \\\"url\\\": \\\"https://ai.google.dev/gemini-api/docs/rate-limits\\\"\\n          }\\n        ]\\n      },\\n      {\\n        \\\"@type\\\": \\\"type.googleapis.com/google.rpc.RetryInfo\\\",\\n        \\\"retryDelay\\\": \\\"26s\\\"\\n      }\\n    ]\\n  }\\n}\\n\",\"code\":429,\"status\":\"Too Many Requests\"}}",
          RateLimitTokens, true, Some(26_000), (Some(250000), None, None), TOK, MIN),
        c("github.com/googleapis/python-genai/issues/2044 (several QuotaFailure violations)", "gemini", Some(429), NONE,
          r#"{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.Help","links":[{"description":"Learn more about Gemini API quotas","url":"https://ai.google.dev/gemini-api/docs/rate-limits"}]},{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerDayPerProjectPerModel-FreeTier","quotaDimensions":{"location":"global","model":"gemini-2.0-flash"}},{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"GenerateRequestsPerMinutePerProjectPerModel-FreeTier","quotaDimensions":{"location":"global","model":"gemini-2.0-flash"}},{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_input_token_count","quotaId":"GenerateContentInputTokensPerModelPerMinute-FreeTier","quotaDimensions":{"location":"global","model":"gemini-2.0-flash"}}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"47s"}]}}"#,
          RateLimitOther, true, Some(47_000), N3, None, MIN),
        c("github.com/google-gemini/gemini-cli/issues/14831 (Vertex, wrapped in an array)", "vertex", Some(429), NONE,
          r#"[{"error":{"code":429,"message":"Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.","errors":[{"message":"Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.","domain":"global","reason":"rateLimitExceeded"}],"status":"RESOURCE_EXHAUSTED"}}]"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/google-gemini/gemini-cli/issues/14811 (nested as a string in an SDK error)", "gemini", Some(429), NONE,
          "{\"error\":{\"message\":\"{\\n  \\\"error\\\": {\\n    \\\"code\\\": 429,\\n    \\\"message\\\": \\\"Resource has been exhausted (e.g. check quota).\\\",\\n    \\\"status\\\": \\\"RESOURCE_EXHAUSTED\\\"\\n  }\\n}\\n\",\"code\":429,\"status\":\"Too Many Requests\"}}",
          RateLimitOther, true, None, N3, None, None),
        c("github.com/gke-labs/gemini-for-kubernetes-development/issues/1215 (sticky until midnight)", "gemini", Some(429), NONE,
          "{\"error\":{\"message\":\"{\\n  \\\"error\\\": {\\n    \\\"code\\\": 429,\\n    \\\"message\\\": \\\"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/rate-limit. \\\",\\n    \\\"status\\\": \\\"RESOURCE_EXHAUSTED\\\",\\n    \\\"details\\\": [\\n      {\\n        \\\"@type\\\": \\\"type.googleapis.com/google.rpc.Help\\\",\\n        \\\"links\\\": [\\n          {\\n            \\\"description\\\": \\\"Learn more about Gemini API quotas\\\",\\n            \\\"url\\\": \\\"https://ai.google.dev/gemini-api/docs/rate-limits\\\"\\n          }\\n        ]\\n      }\\n    ]\\n  }\\n}\\n\",\"code\":429,\"status\":\"Too Many Requests\"}}",
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/llmsresearch/paperbanana/issues/10", "gemini", Some(429), NONE,
          r#"{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_input_token_count","quotaId":"GenerateContentInputTokensPerModelPerMinute-FreeTier","quotaDimensions":{"model":"gemini-2.0-flash","location":"global"}}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"59s"}]}}"#,
          RateLimitTokens, true, Some(59_000), N3, TOK, MIN),
        c("github.com/ShishirPatil/gorilla/pull/764 (Vertex, plain text)", "vertex", Some(429), NONE,
          "Error: 429 Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/quotas#error-code-429 for more details.",
          Overloaded, true, None, N3, None, None),
        c("github.com/googleapis/python-genai/pull/2114", "gemini", Some(429), NONE,
          r#"{"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details. Please retry in 58.934310785s.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"58s"}]}}"#,
          RateLimitOther, true, Some(58_000), N3, None, None),
        c("github.com/continuedev/continue/issues/10066 (free tier with limit: 0, nested as a string)", "gemini", None, NONE,
          "{\"error\":{\"message\":\"{\\n  \\\"error\\\": {\\n    \\\"code\\\": 429,\\n    \\\"message\\\": \\\"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/rate-limit. \\\\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.0-flash\\\\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.0-flash\\\\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 0, model: gemini-2.0-flash\\\\nPlease retry in 7.967587226s.\\\",\\n    \\\"status\\\": \\\"RESOURCE_EXHAUSTED\\\"\\n  }\\n}\\n\",\"code\":429,\"status\":\"Too Many Requests\"}}",
          QuotaExhausted, false, Some(7968), (Some(0), None, None), None, None),
        c("github.com/xtekky/gpt4free/issues/1700 (legacy Gemini, text then details; key removed)", "gemini", Some(429), NONE,
          "[GoogleGenerativeAI Error]: Error fetching from https://generativelanguage.googleapis.com/v1/models/gemini-pro:generateContent: [429 Too Many Requests] Quota exceeded for quota metric 'Generate Content API requests per minute' and limit 'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com' for consumer 'project_number:REDACTED'. [{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"RATE_LIMIT_EXCEEDED\",\"domain\":\"googleapis.com\",\"metadata\":{\"quota_location\":\"us-east2\",\"service\":\"generativelanguage.googleapis.com\",\"consumer\":\"projects/REDACTED\",\"quota_limit_value\":\"60\",\"quota_metric\":\"generativelanguage.googleapis.com/generate_content_requests\",\"quota_limit\":\"GenerateContentRequestsPerMinutePerProjectPerRegion\"}}]",
          RateLimitRequests, true, None, (Some(60), None, None), REQ, MIN),
        // ---------------------------------------------------------------- Anthropic
        c("github.com/anthropics/claude-code/issues/5769", "anthropic", Some(529), NONE,
          r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/35792", "anthropic", Some(529), NONE,
          r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_REDACTED"}"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/4248 (overload reported as a 500 api_error)", "anthropic", Some(500), NONE,
          r#"{"type":"error","error":{"type":"api_error","message":"Overloaded"}}"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/5769 (429 rate_limit_error)", "anthropic", Some(429), NONE,
          r#"{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account's rate limit. Please try again later."}}"#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/continuedev/continue/issues/9623 (unwrapped error object)", "anthropic", Some(429), NONE,
          r#"{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization (REDACTED) of 30,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."}"#,
          RateLimitTokens, true, None, (Some(30000), None, None), TOK, MIN),
        c("github.com/continuedev/continue/issues/11665", "anthropic", Some(429),
          &[("anthropic-ratelimit-input-tokens-limit", "30000"), ("anthropic-ratelimit-input-tokens-remaining", "0"), ("retry-after", "17")],
          r#"{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your organization's rate limit of 30,000 input tokens per minute (org: REDACTED, model: claude-sonnet-4-20250514). For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later."}}"#,
          RateLimitTokens, true, Some(17_000), (Some(30000), None, None), TOK, MIN),
        c("github.com/getappmap/appmap-js/issues/1996", "anthropic", Some(429), NONE,
          r#"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."}}"#,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/nraiden/cofounder/issues/40", "anthropic", Some(429), NONE,
          "Anthropic: Number of request tokens has exceeded your daily rate limit",
          QuotaExhausted, false, None, N3, Some(Dimension::TokensPerDay), DAY),
        c("github.com/anthropics/claude-code/issues/66314", "anthropic", Some(400), NONE,
          r#"{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."},"request_id":"req_REDACTED"}"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/38758", "anthropic", Some(429), NONE,
          r#"{"type":"error","error":{"type":"rate_limit_error","message":"Extra usage is required for long context requests."},"request_id":"req_REDACTED"}"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/61368", "anthropic", Some(500), NONE,
          r#"{"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_REDACTED"}"#,
          Other, true, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/64667", "anthropic", Some(401), NONE,
          r#"{"type":"error","error":{"type":"authentication_error","message":"Invalid authentication credentials"},"request_id":"req_REDACTED"}"#,
          Other, false, None, N3, None, None),
        c("docs.anthropic.com/en/api/messages-streaming (error event after content)", "anthropic", Some(200), NONE,
          "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[]}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hello\"}}\n\nevent: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n",
          Overloaded, true, None, N3, None, None),
        // ---------------------------------------------------------------- Mistral
        c("github.com/dnakov/anon-kode/issues/53", "mistral", Some(429), NONE,
          r#"{"message":"Requests rate limit exceeded"}"#,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/raycast/extensions/issues/31107", "mistral", Some(429), NONE,
          r#"{"object":"error","message":"Rate limit exceeded","type":"rate_limited","param":null,"code":"1300","raw_status_code":429}"#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/cline/cline/issues/9085 (SDK message with the body inside)", "mistral", Some(429), NONE,
          r#"{"message":"API error occurred: Status 429 Content-Type application/json Body \n{\"object\":\"error\",\"message\":\"Rate limit exceeded\",\"type\":\"rate_limited\",\"param\":null,\"code\":\"1300\"}","status":429,"modelId":"devstral-2512","providerId":"mistral"}"#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/mistralai/mistral-vibe/issues/264", "mistral", Some(429), NONE,
          "Error: API error from mistral (model: mistral-vibe-cli-latest): Ratelimit exceeded. Please wait a moment before trying again.",
          RateLimitOther, true, None, N3, None, None),
        // ---------------------------------------------------------------- Together
        c("github.com/togethercomputer/MoA/issues/27", "together", Some(429), NONE,
          r#"{"error":{"message":"You have been rate limited. Your rate limit is 60 queries per minute. Please navigate to https://api.together.xyz/settings/billing to upgrade to a paid plan.","type":"credit_limit","param":null,"code":null}}"#,
          RateLimitRequests, true, None, (Some(60), None, None), REQ, MIN),
        c("github.com/xtekky/gpt4free/issues/3032", "together", Some(429), NONE,
          "You have reached the rate limit specific to this model black-forest-labs/FLUX.1-kontext-pro. The maximum rate limit for this model is 9.0 queries per minute. This limit differs from the general rate limits published at Together AI rate limits documentation (https://docs.together.ai/docs/rate-limits).",
          RateLimitRequests, true, None, N3, REQ, MIN),
        // ---------------------------------------------------------------- DeepSeek
        c("github.com/continuedev/continue/issues/9942", "deepseek", Some(402), NONE,
          "402 Insufficient Balance", QuotaExhausted, false, None, N3, None, None),
        c("github.com/Aider-AI/aider/issues/4851", "deepseek", Some(402), NONE,
          r#"{"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}"#,
          QuotaExhausted, false, None, N3, None, None),
        // ---------------------------------------------------------------- xAI
        c("github.com/continuedev/continue/issues/10373 (a bare JSON string)", "xai", Some(429), NONE,
          r#""Your team REDACTED has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit.""#,
          QuotaExhausted, false, None, N3, None, MONTH),
        c("github.com/Wei-Shaw/sub2api/issues/4069", "xai", Some(403), NONE,
          r#"{"code":"***","error":"You have run out of credits or need a Grok subscription. Add credits at https://grok.com/?_s=usage or upgrade at https://grok.com/supergrok."}"#,
          QuotaExhausted, false, None, N3, None, None),
        // ---------------------------------------------------------------- Fireworks
        c("github.com/GordeyZuev/LEAP/issues/6", "fireworks", Some(429), NONE,
          r#"{"error":"Too Many Requests","message":"You have exceeded your usage limits. Please try again later or contact Fireworks to explore dedicated capacity."}"#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/BerriAI/litellm/pull/11455", "fireworks", Some(400), NONE,
          r#"{"error":{"type":"invalid_request_error","message":"rate limit exceeded, please try again later"}}"#,
          RateLimitOther, true, None, N3, None, None),
        // ---------------------------------------------------------------- OpenRouter
        c("github.com/open-webui/computer/issues/293", "openrouter", Some(429), NONE,
          r#"{"error":{"message":"Provider returned error","code":429,"metadata":{"raw":"z-ai/glm-5.3-flash is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: ...","provider_name":"BaseTen","limit_source":"upstream_provider_shared_pool","remedy_hint":"Retry shortly, add your own provider key, or route to another provider"}}}"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/BerriAI/litellm/issues/8448 (error inside a 200 completion)", "openrouter", Some(200), NONE,
          r#"{"id":"chatcmpl-REDACTED","choices":[],"error":{"message":"Provider returned error","code":429,"metadata":{"raw":"error code: 1015","provider_name":"Kluster"}}}"#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/digiogithub/pando/issues/8", "openrouter", Some(429), NONE,
          r#"{"error":{"message":"Provider returned error","code":429,"metadata":{"error_type":"rate_limit_exceeded"}}}"#,
          RateLimitOther, true, None, N3, None, None),
        // ---------------------------------------------------------------- Cerebras
        c("github.com/continuedev/continue/issues/9800", "cerebras", Some(429), NONE,
          r#""Tokens per minute limit exceeded - too many tokens processed.""#,
          RateLimitTokens, true, None, N3, TOK, MIN),
        // ---------------------------------------------------------------- Bedrock
        c("github.com/aws-samples/amazon-bedrock-client-for-mac/issues/99", "bedrock", Some(429),
          &[("x-amzn-ErrorType", "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/")],
          r#"{"message":"Too many tokens, please wait before trying again."}"#,
          RateLimitTokens, true, None, N3, TOK, None),
        c("github.com/BerriAI/litellm/issues/589", "bedrock", None, NONE,
          "An error occurred (throttlingException) when calling the InvokeModelWithResponseStream operation: Too many requests, please wait before trying again. You have sent too many requests.  Wait before trying again.",
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/anthropics/claude-code/issues/236", "bedrock", Some(429), NONE,
          "429 Too many tokens, please wait before trying again.",
          RateLimitTokens, true, None, N3, TOK, None),
        c("github.com/kirodotdev/Kiro/issues/8113", "bedrock", Some(429), NONE,
          r#"Error { code: "ThrottlingException", message: "Too many requests, please wait before trying again.", aws_request_id: "REDACTED" }"#,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/awslabs/agent-evaluation/issues/64", "bedrock", None, NONE,
          "EventStreamError: An error occurred (throttlingException) when calling the InvokeAgent operation: Your request rate is too high. Reduce the frequency of requests.",
          RateLimitRequests, true, None, N3, REQ, None),
        // ---------------------------------------------------------------- Background shapes (the project's own notes)
        c("/work/shared/background/crossing-the-ceiling.txt", "openai", Some(429),
          &[("retry-after", "6"), ("x-ratelimit-limit-tokens", "10000"), ("x-ratelimit-remaining-tokens", "0"), ("x-ratelimit-reset-tokens", "5.94s"), ("x-ratelimit-remaining-requests", "47")],
          "{\"error\": {\"message\": \"Rate limit reached for gpt-4o-mini in organization\n org-8f2 on tokens per min (TPM): Limit 10000, Used 9840, Requested 1210.\",\n \"type\": \"tokens\", \"param\": null, \"code\": \"rate_limit_exceeded\"}}",
          RateLimitTokens, true, Some(6000), (Some(10000), Some(1210), Some(9840)), TOK, MIN),
        c("/work/shared/background/chaos-testing-429.txt", "openai", Some(429),
          &[("retry-after", "2"), ("x-ratelimit-remaining-requests", "0"), ("x-ratelimit-reset-requests", "2s")],
          r#"{"error": {"type": "rate_limit_exceeded", "message": "Rate limit reached for requests"}}"#,
          RateLimitRequests, true, Some(2000), N3, REQ, None),
        // ---------------------------------------------------------------- Collected for issue 30 (139 refusals from 38 providers)
        c("github.com/babikov/doka-site/issues/7", "openrouter", Some(402), NONE,
          r#"{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 10114. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account","code":402,"metadata":{"provider_name":null}},"user_id":"user_"}"#,
          QuotaExhausted, false, None, (Some(10114), Some(65536), None), Some(Dimension::OutputTokens), None),
        c("github.com/anomalyco/opencode/issues/12219", "openrouter", None, NONE,
          r#"This request requires more credits, or fewer max_tokens. You requested up to 32000 tokens, but can only afford 0. To increase, visit https://openrouter.ai/settings/keys and create a key with a higher monthly limit"#,
          QuotaExhausted, false, None, (Some(0), Some(32000), None), Some(Dimension::OutputTokens), MONTH),
        c("github.com/Taewan-P/gpt_mobile/issues/284", "openrouter", None, NONE,
          r#"Error: This request requires more credits, or fewer max_tokens. You requested up to 16384 tokens, but can only afford 3919. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account"#,
          QuotaExhausted, false, None, (Some(3919), Some(16384), None), Some(Dimension::OutputTokens), None),
        c("github.com/QwenLM/qwen-code/issues/73", "openrouter", Some(402), NONE,
          r#"402 This request requires more credits, or fewer max_tokens. You requested up to 225702 tokens, but can only afford 92985. To increase, visit https://openrouter.ai/settings/credits and add more credits"#,
          QuotaExhausted, false, None, (Some(92985), Some(225702), None), Some(Dimension::OutputTokens), None),
        c("github.com/binaricat/Netcatty/issues/532", "openrouter", Some(402), NONE,
          r#"402 This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 13333. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account"#,
          QuotaExhausted, false, None, (Some(13333), Some(65536), None), Some(Dimension::OutputTokens), None),
        c("github.com/The-Vibe-Company/quivr/issues/505", "openai", None, NONE,
          r#"openai.error.InvalidRequestError: This model's maximum context length is 4097 tokens. However, you requested 4203 tokens (3703 in the messages, 500 in the completion). Please reduce the length of the messages or completion."#,
          ContextLength, false, None, (Some(4097), Some(4203), None), TOK, None),
        c("github.com/LianjiaTech/BELLE/issues/54", "openai", None, NONE,
          r#"OpenAIError: This model's maximum context length is 2049 tokens, however you requested 3643 tokens (3643 in your prompt; 0 for the completion). Please reduce your prompt; or completion length.."#,
          ContextLength, false, None, (Some(2049), Some(3643), None), TOK, None),
        c("github.com/conghaonet/hao_chatgpt/issues/4", "openai", None, NONE,
          r#"This model's maximum context length is 4097 tokens. However, you requested 4268 tokens (4012 in the messages, 256 in the completion). Please reduce the length of the messages or completion."#,
          ContextLength, false, None, (Some(4097), Some(4268), None), TOK, None),
        c("github.com/thepersonalaicompany/amurex-backend/issues/51", "groq", Some(400), NONE,
          r#"groq.BadRequestError: Error code: 400 - {'error': {'message': 'Please reduce the length of the messages or completion.', 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}"#,
          ContextLength, false, None, (None, None, None), TOK, None),
        c("github.com/OpenHands/OpenHands/issues/1902", "groq", Some(400), NONE,
          r#"GroqException - Error code: 400 - {'error': {'message': 'Please reduce the length of the messages or completion.', 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}"#,
          ContextLength, false, None, (None, None, None), TOK, None),
        c("github.com/cline/cline/issues/5140", "cerebras", Some(400), NONE,
          r#"400 Please reduce the length of the messages or completion. Current length is 42328 while limit is 40000"#,
          ContextLength, false, None, (Some(40000), Some(42328), None), TOK, None),
        c("github.com/continuedev/continue/issues/6080", "anthropic", None, NONE,
          r#"{"type":"error","error":{"type":"invalid_request_error","message":"input length and `max_tokens` exceed context limit: 199759 + 8192 > 200000, decrease input length or `max_tokens` and try again"}}"#,
          ContextLength, false, None, (Some(200000), Some(207951), None), TOK, None),
        c("github.com/stackblitz/bolt.new/issues/7414", "anthropic", None, NONE,
          r#"input length and max_tokens exceed context limit: 90402 + 116650 > 204648, decrease input length or max_tokens and try again"#,
          ContextLength, false, None, (Some(204648), Some(207052), None), TOK, None),
        c("github.com/docker/docker-agent/issues/569", "anthropic", Some(400), NONE,
          r#"{
  "type": "error",
  "error": {
    "type": "invalid_request_error",
    "message": "input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length or `max_tokens` and try again"
  },
  "request_id":"req_011CUB2XUHWkFnQzxcKBbjpF"
}"#,
          ContextLength, false, None, (Some(200000), Some(242959), None), TOK, None),
        c("github.com/AIDotNet/OpenCowork/issues/82", "vllm", None, NONE,
          r#"This model's maximum context length is 262144 tokens. However, you requested 128000 output tokens and your prompt contains at least 134145 input tokens, for a total of at least 262145 tokens. Please reduce the length of the input prompt or the number of requested output tokens. (parameter=input_tokens, value=134145)"#,
          ContextLength, false, None, (Some(262144), Some(262145), None), TOK, None),
        c("github.com/dimagi/open-chat-studio/issues/463", "openai", Some(400), NONE,
          r#"Error code: 400 - {'error': {'message': "This model's maximum context length is 8192 tokens. However, your messages resulted in 8202 tokens. Please reduce the length of the messages.", 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}"#,
          ContextLength, false, None, (Some(8192), Some(8202), None), TOK, None),
        c("github.com/pydantic/pydantic-ai/issues/1885", "mistral", Some(429), NONE,
          r#"{"message":"Requests rate limit exceeded"}"#,
          RateLimitRequests, true, None, (None, None, None), REQ, None),
        c("github.com/chenyme/grok2api/issues/693", "xai", Some(400), NONE,
          r#"This model's maximum prompt length is 500000 but the request contains 907154 tokens."#,
          ContextLength, false, None, (Some(500000), Some(907154), None), TOK, None),
        c("github.com/googleapis/python-genai/issues/1427", "gemini", Some(429), NONE,
          r#"google.genai.errors.ClientError: 429 RESOURCE_EXHAUSTED. {'error': {'code': 429, 'message': 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.', 'status': 'RESOURCE_EXHAUSTED', 'details': [{'@type': 'type.googleapis.com/google.rpc.Help', 'links': [{'description': 'Learn more about Gemini API quotas', 'url': 'https://ai.google.dev/gemini-api/docs/rate-limits'}]}]}}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/googleapis/python-genai/issues/2065", "gemini", Some(429), NONE,
          r#"ClientError: 429 RESOURCE_EXHAUSTED. {'error': {'code': 429, 'message': 'Resource has been exhausted (e.g. check quota).', 'status': 'RESOURCE_EXHAUSTED'}}"#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/GoogleCloudPlatform/Open_Data_QnA/issues/61", "vertex", Some(429), NONE,
          r#"google.api_core.exceptions.ResourceExhausted: 429 Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model with base model: gemini-pro. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai."#,
          RateLimitRequests, true, None, (None, None, None), REQ, MIN),
        c("github.com/GoogleCloudPlatform/generative-ai/issues/382", "gemini", None, NONE,
          r#"Quota exceeded for quota metric 'Generate Content API requests per minute' and limit 'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com'"#,
          RateLimitRequests, true, None, (None, None, None), REQ, MIN),
        c("github.com/tech-shrimp/gemini-playground/issues/10", "gemini", Some(429), NONE,
          r#"{ "error": { "code": 429, "message": "Quota exceeded for quota metric 'Generate Content API requests per minute' and limit 'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com' for consumer 'project_number:REDACTED'.", "status": "RESOURCE_EXHAUSTED", "details": [ { "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMIT_EXCEEDED", "domain": "googleapis.com", "metadata": { "service": "generativelanguage.googleapis.com", "quota_location": "us-west4", "quota_limit_value": "0", "quota_limit": "GenerateContentRequestsPerMinutePerProjectPerRegion", "quota_metric": "generativelanguage.googleapis.com/generate_content_requests", "consumer": "projects/REDACTED" } }, { "@type": "type.googleapis.com/google.rpc.Help", "links": [ { "description": "Request a higher quota limit.", "url": "https://cloud.google.com/docs/quotas/help/request_increase" } ] } ] } }"#,
          QuotaExhausted, false, None, (Some(0), None, None), REQ, MIN),
        c("github.com/google-gemini/deprecated-generative-ai-python/issues/244", "gemini", Some(429), NONE,
          r#"429 Quota exceeded for quota metric 'Generate Content API requests per minute' and limit 'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com' for consumer 'project_number:**********'. [reason: "RATE_LIMIT_EXCEEDED"
domain: "googleapis.com"
metadata {
  key: "service"
  value: "generativelanguage.googleapis.com"
}
metadata {
  key: "quota_metric"
  value: "generativelanguage.googleapis.com/generate_content_requests"
}
metadata {
  key: "quota_location"
  value: "us-west4"
}
metadata {
  key: "quota_limit"
  value: "GenerateContentRequestsPerMinutePerProjectPerRegion"
}
metadata {
  key: "quota_limit_value"
  value: "0"
}
metadata {
  key: "consumer"
  value: "projects/***********"
}
, links {
  description: "Request a higher quota limit."
  url: "https://cloud.google.com/docs/quota#requesting_higher_quota"
}
]"#,
          QuotaExhausted, false, None, (Some(0), None, None), REQ, MIN),
        c("github.com/google-gemini/gemini-cli/issues/8414", "gemini", Some(429), NONE,
          r#"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.
code: 429"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/google-gemini/gemini-cli/issues/15576", "gemini", None, NONE,
          r#"You have exhausted your daily quota on this model."#,
          QuotaExhausted, false, None, (None, None, None), None, DAY),
        c("github.com/vanderschaarlab/climb/issues/1", "openai", Some(429), NONE,
          r#"RateLimitError: Error code: 429 - {'error': {'message': 'Request too large for gpt-4o in organization org-REDACTED on tokens per min (TPM): Limit 30000, Requested 30601. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}"#,
          TooLarge, false, None, (Some(30000), Some(30601), None), TOK, MIN),
        c("github.com/microsoft/copilot-camp/issues/551", "azure", Some(429), &[("apim-request-id", "3d37de60-f6c3-4ced-a637-92bc9d16d8b5"), ("content-length", "281"), ("content-type", "application/json; charset=UTF-8"), ("date", "Thu, 03 Apr 2025 14:12:23 GMT"), ("strict-transport-security", "max-age=31536000; includeSubDomains; preload"), ("x-content-type-options", "nosniff"), ("x-envoy-upstream-service-time", "68"), ("x-ms-region", "North Central US"), ("x-ratelimit-limit-requests", "8"), ("x-ratelimit-limit-tokens", "8000"), ("x-ratelimit-remaining-requests", "7"), ("x-ratelimit-remaining-tokens", "1014")],
          r#"{"error":{"code":"429","message": "Rate limit is exceeded. Try again in 2 seconds."}}"#,
          RateLimitOther, true, Some(2000), (None, None, None), None, None),
        c("github.com/anthropics/claude-code/issues/1466", "bedrock", Some(429), NONE,
          r#"An error occurred (ThrottlingException) when calling the InvokeModel operation (reached max retries: 2): Too many tokens, please wait before trying again."#,
          RateLimitTokens, true, None, (None, None, None), TOK, None),
        c("github.com/posit-dev/positron/issues/7844", "bedrock", Some(429), NONE,
          r#"{
	"name": "ThrottlingException",
	"$fault": "client",
	"$metadata": {
		"httpStatusCode": 429,
		"requestId": "<REQUEST_ID>",
		"attempts": 3,
		"totalRetryDelay": 787
	}
}"#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/aws-samples/well-architected-iac-analyzer/issues/25", "bedrock", None, NONE,
          r#"Error invoking Bedrock model: ThrottlingException: Too many tokens, please wait before trying again."#,
          RateLimitTokens, true, None, (None, None, None), TOK, None),
        c("github.com/RooCodeInc/Roo-Code/issues/5050", "bedrock", Some(429), NONE,
          r#"message: Too many tokens, please wait before trying again.
name: ThrottlingException
$fault: client
$metadata: {"httpStatusCode":429,"requestId":"158a2e26-c851-4440-9f98-e3065df1de46","attempts":3,"totalRetryDelay":274}
$response: {"statusCode":429,"headers":"[Object]","body":"[Object]"}"#,
          RateLimitTokens, true, None, (None, None, None), TOK, None),
        c("github.com/minorun365/agent-book/issues/29", "bedrock", Some(429), NONE,
          r#"botocore.errorfactory.ThrottlingException: An error occurred (ThrottlingException) when calling the Converse operation (reached max retries: 4): Too many tokens per day, please wait before trying again."#,
          QuotaExhausted, false, None, (None, None, None), Some(Dimension::TokensPerDay), DAY),
        c("github.com/i-dot-ai/caddy-chatbot/issues/97", "bedrock", Some(429), NONE,
          r#"botocore.errorfactory.ThrottlingException: An error occurred (ThrottlingException) when calling the InvokeModel operation (reached max retries: 4): Too many requests, please wait before trying again. You have sent too many requests. Wait before trying again."#,
          RateLimitRequests, true, None, (None, None, None), REQ, None),
        c("github.com/RooCodeInc/Roo-Code/issues/248", "bedrock", None, NONE,
          r#"The maximum tokens you requested exceed the model limit of 4096. Try again with a maximum tokens value lower than 4096."#,
          ContextLength, false, None, (Some(4096), None, None), TOK, None),
        c("github.com/continuedev/continue/issues/10121", "deepseek", Some(402), NONE,
          r#"402 Insufficient Balance"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/continuedev/continue/issues/10442", "openrouter", Some(429), NONE,
          r#"429 Provider returned error"#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/anthropics/claude-code/issues/26247", "anthropic", Some(429), NONE,
          r#"{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your account's rate limit. Please try again later."},"request_id":"req_011CYD9zsCNJ2SqV7pegeu3k"}"#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/Gitlawb/openclaude/issues/1549", "openrouter", Some(429), NONE,
          r#"{"error":{"message":"Rate limit exceeded: free-models-per-day-high-balance.","type":"rate_limit_error","code":"429"}}"#,
          QuotaExhausted, false, None, (None, None, None), Some(Dimension::RequestsPerDay), DAY),
        c("github.com/cline/cline/issues/5301", "openrouter", Some(429), NONE,
          r#"429 Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day"#,
          QuotaExhausted, false, None, (None, None, None), Some(Dimension::RequestsPerDay), DAY),
        c("github.com/vybestack/llxprt-code/issues/144", "fireworks", Some(429), NONE,
          r#"429 Request didn't generate first token before the given deadline"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/perplexityai/api-discussion/issues/262", "perplexity", Some(400), NONE,
          r#"{"error":{"message":"Invalid model 'sonar-pro '. Permitted models can be found in the documentation at https://docs.perplexity.ai/guides/model-cards.","type":"invalid_model","code":400}}"#,
          Other, false, None, (None, None, None), None, None),
        c("github.com/popjane/free_chatgpt_api/issues/7", "one-api", None, NONE,
          r#"{
  "error": {
    "message": "当前分组上游负载已饱和，请稍后再试 (request id: 2024052310260941388718971918754)",
    "type": "requests",
    "param": "",
    "code": "rate_limit_exceeded"
  }
}"#,
          RateLimitRequests, true, None, (None, None, None), REQ, None),
        c("github.com/WEIFENG2333/VideoCaptioner/issues/1120", "new-api", Some(429), NONE,
          r#"Error code: 429 - {'error': {'message': '当前分组上游负载已饱和，请稍后再试 (request id: 20260521174921838127707FxeB1sRH)', 'type': 'upstream_error', 'param': '404', 'code': 'bad_response_status_code'}}"#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/songquanpeng/one-api/issues/330", "one-api", None, NONE,
          r#"{
  "error": {
    "message": "当前分组负载已饱和，请稍后再试，或升级账户以提升服务质量。",
    "type": "billing_not_active",
    "param": "",
    "code": "billing_not_active"
  }
}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/nano-step/nano-brain/issues/208", "ollama", Some(400), NONE,
          r#"{"error":"the input length exceeds the context length"}"#,
          ContextLength, false, None, (None, None, None), TOK, None),
        c("github.com/lmstudio-ai/examples/issues/29", "lmstudio", None, NONE,
          r#"[ERROR] Error: Input length 6491 exceeds context length 1500"#,
          ContextLength, false, None, (Some(1500), Some(6491), None), TOK, None),
        c("github.com/edison7009/EchoBird/issues/104", "zhipu", Some(429), NONE,
          r#"{"error":{"code":"1113","message":"余额不足或无可用资源包,请充值。"}}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/langgenius/dify/issues/5850", "zhipu", Some(429), NONE,
          r#"{"error":{"code":"1113","message":"您的账户已欠费，请充值后重试。"}}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/zai-org/GLM-5/issues/148", "zhipu", None, NONE,
          r#"{"error":{"code":"1113","message":"Insufficient balance or no resource package. Please recharge."}}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/MoonshotAI/Kimi-K2/issues/5", "moonshot", Some(403), NONE,
          r#"{"error":{"message":"Your account xx> is not active, organization <xx> exceeded current quota, please check your plan and billing details","type":"exceeded_current_quota_error"}}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/MoonshotAI/Kimi-K2/issues/34", "moonshot", Some(429), NONE,
          r#"request reached organization max RPM: 3, please try again after 1 seconds"#,
          RateLimitRequests, true, Some(1000), (Some(3), None, None), REQ, MIN),
        c("github.com/vllm-project/vllm/issues/4667", "vllm", Some(400), NONE,
          r#"openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': 'max_tokens must be at least 1, got -344.', 'type': 'BadRequestError', 'param': None, 'code': 400}"#,
          ContextLength, false, None, (None, None, None), TOK, None),
        c("github.com/vllm-project/vllm/issues/12165", "vllm", None, NONE,
          r#"ValueError: The prompt (total length 25938) is too long to fit into the model (context length 4096). Make sure that `max_model_len` is no smaller than the number of text tokens plus multimodal tokens."#,
          ContextLength, false, None, (Some(4096), Some(25938), None), TOK, None),
        c("github.com/QwenLM/qwen-code/issues/882", "qwen", Some(429), NONE,
          r#"429 status code (no body)"#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/hawkxtreme/mini-ai-1c/issues/23", "dashscope", Some(429), NONE,
          r#"{"error":{"code":"insufficient_quota","message":"You exceeded your current quota, please check your plan and billing details. For details, see: https://help.aliyun.com/zh/model-studio/error-code#token-limit","param":null,"type":"insufficient_quota"},"request_id":""}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/paperclipai/paperclip/issues/2885", "dashscope", None, NONE,
          r#"Upstream error from Alibaba: Request rate increased too quickly. To ensure system stability, please adjust your client logic to scale requests more smoothly over time."#,
          RateLimitRequests, true, None, (None, None, None), REQ, None),
        c("github.com/hsliuping/TradingAgents-CN/issues/170", "dashscope", Some(400), NONE,
          r#"{'error': {'code': 'Arrearage', 'param': None, 'message': 'Access denied, please make sure your account is in good standing.', 'type': 'Arrearage'}, 'id': 'chatcmpl-f9fdb027-830c-9e05-8366-ce479a878825', 'request_id': 'f9fdb027-830c-9e05-8366-ce479a878825'}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/tencentmusic/supersonic/issues/1572", "dashscope", Some(400), NONE,
          r#"{"statusCode":400,"message":"Access denied, please make sure your account is in good standing.","code":"Arrearage","isJson":true,"requestId":"8af536f9-6b8b-93b5-bb5f-1597a3f65db4"}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/langgenius/dify/issues/18378", "huawei-modelarts", Some(429), NONE,
          r#"{"error_msg":"The throttling threshold has been reached: policy ip over ratelimit,limit:5,time:1 minute","error_code":"APIG.0308","request_id":"914a39d68c290da3e187f827f7e1b771"}"#,
          RateLimitOther, true, None, (Some(5), None, None), None, MIN),
        c("github.com/huggingface/unity-api/issues/18", "huggingface", Some(503), NONE,
          r#"{"error":"Model distilbert-base-cased-distilled-squad is currently loading","estimated_time":20.0}"#,
          Overloaded, true, Some(20000), (None, None, None), None, None),
        c("github.com/huggingface/api-inference-community/issues/137", "huggingface", None, NONE,
          r#"{'error': 'Model allenai/unifiedqa-t5-11b is currently loading',
 'estimated_time': 1809.1820068359375}"#,
          Overloaded, true, Some(1809183), (None, None, None), None, None),
        c("github.com/ai-genie/chatgpt-vscode/issues/100", "openai", Some(500), NONE,
          r#"{
  "error": {
    "message": "The server had an error processing your request. Sorry about that! You can retry your request, or contact us through our help center at help.openai.com if you keep seeing this error. (Please include the request ID e5c949c8ec2c86be225544e5eefcbe4d in your email.)",
    "type": "server_error",
    "param": null,
    "code": null
  }
}"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/openai/openai-realtime-console/issues/51", "openai", None, NONE,
          r#"The server had an error while processing your request. Sorry about that! You can retry your request, or contact us through our help center at help.openai.com if the error persists. (Please include the session ID sess_*** in your message.)"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/LlmKira/Openaibot/issues/177", "openai", Some(500), NONE,
          r#"Openai Error:500:server_error:The server had an error while processing your request. Sorry about that!"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/dust-tt/dust/issues/428", "openai", None, NONE,
          r#"OpenAIAPIError: [server_error] That model is currently overloaded with other requests. You can retry your request, or contact us through our help center at help.openai.com if the error persists. (Please include the request ID aec445619612a1d8772af4ad6f63d193 in your message.)"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/VectifyAI/OpenKB/issues/164", "gemini", Some(503), NONE,
          r#"{
  "error": {
    "code": 503,
    "message": "This model is currently experiencing high demand. Spikes in demand are usually temporary. Please try again later.",
    "status": "UNAVAILABLE"
  }
}"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/google-gemini/gemini-cli/issues/7392", "gemini", Some(503), NONE,
          r#"{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/cottongeeks/podscript/issues/20", "groq", Some(413), NONE,
          r#"{"error":{"message":"Request too large for model `llama-3.3-70b-versatile` in organization `org_REDACTED` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 10338, please reduce your message size and try again. Visit https://console.groq.com/docs/rate-limits for more information.","type":"tokens","code":"rate_limit_exceeded"}}"#,
          TooLarge, false, None, (Some(6000), Some(10338), None), TOK, MIN),
        c("github.com/mikeizbicki/cmc-csci143/issues/590", "groq", Some(413), NONE,
          r#"Error code: 413 - {'error': {'message': 'Request too large for model `llama-3.3-70b-versatile` in organization `org_REDACTED` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 6284, please reduce your message size and try again. Visit https://console.groq.com/docs/rate-limits for more information.', 'type': 'tokens', 'code': 'rate_limit_exceeded'}}"#,
          TooLarge, false, None, (Some(6000), Some(6284), None), TOK, MIN),
        c("github.com/boldsoftware/exe.dev/issues/8", "anthropic", Some(413), NONE,
          r#"{
  "error": {
    "type": "request_too_large",
    "message": "Request exceeds the maximum size"
  }
}"#,
          TooLarge, false, None, (None, None, None), None, None),
        c("github.com/anthropics/anthropic-sdk-python/issues/938", "anthropic", Some(413), NONE,
          r#"anthropic._exceptions.RequestTooLargeError: Error code: 413 - {'error': {'type': 'request_too_large', 'message': 'Request exceeds the maximum size'}}"#,
          TooLarge, false, None, (None, None, None), None, None),
        c("github.com/cline/cline/issues/995", "github-models", Some(413), NONE,
          r#"413 Request body too large for meta-llama-3-70b-instruct model. Max size: 8000 tokens."#,
          TooLarge, false, None, (Some(8000), None, None), None, None),
        c("github.com/MoonshotAI/kimi-cli/issues/1222", "moonshot", Some(413), NONE,
          r#"<html>
<head><title>413 Request Entity Too Large</title></head>
<body>
<center><h1>413 Request Entity Too Large</h1></center>
<hr><center>nginx</center>
</body>
</html>"#,
          TooLarge, false, None, (None, None, None), None, None),
        c("github.com/continuedev/continue/issues/10920", "groq", Some(429), NONE,
          r#"429 Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_REDACTED` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 97050, Requested 3619. Please try again in 9m38.016s. Need more tokens%3F Upgrade to Dev Tier today at https://console.groq.com/settings/billing"#,
          RateLimitTokens, true, Some(578016), (Some(100000), Some(3619), Some(97050)), Some(Dimension::TokensPerDay), DAY),
        c("github.com/googleapis/google-cloud-java/issues/11195", "vertex", Some(429), NONE,
          r#"com.google.api.gax.rpc.ResourceExhaustedException: io.grpc.StatusRuntimeException: RESOURCE_EXHAUSTED: Unable to submit request because the service is temporarily out of capacity. Try again later."#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/google-gemini/gemini-cli/issues/15911", "vertex", Some(429), NONE,
          r#"Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details."#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/cocoindex-io/cocoindex/issues/1151", "vertex", Some(429), NONE,
          r#"the service reports an error with code RESOURCE_EXHAUSTED described as: Quota exceeded for aiplatform.googleapis.com/embed_content_input_tokens_per_minute_per_base_model with base model: gemini-embedding. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai."#,
          RateLimitTokens, true, None, (None, None, None), TOK, MIN),
        c("github.com/anthropics/anthropic-sdk-typescript/issues/616", "anthropic", Some(529), &[("cache-control", "no-store, no-cache"), ("cf-cache-status", "DYNAMIC"), ("cf-ray", "8e695a03eed4f9fd-SJC"), ("connection", "keep-alive"), ("content-length", "75"), ("content-type", "application/json"), ("date", "Fri, 22 Nov 2024 13:44:10 GMT"), ("request-id", "req_01RCc7MbLyQNtGKzBTv8VCep"), ("server", "cloudflare"), ("via", "1.1 google"), ("x-robots-tag", "none"), ("x-should-retry", "true")],
          r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/nminaya/grammar-nazi-bot/issues/958", "cerebras", Some(429), NONE,
          r#"{"message":"Requests per minute limit exceeded - too many requests sent.","type":"too_many_requests_error","param":"quota","code":"request_quota_exceeded"}"#,
          RateLimitRequests, true, None, (None, None, None), REQ, MIN),
        c("github.com/continuedev/continue/issues/9233", "ollama", Some(429), NONE,
          r#""you've reached your hourly usage limit, please wait or upgrade to continue""#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/continuedev/continue/issues/11158", "ollama", Some(429), NONE,
          r#""you (REDACTED) have reached your session usage limit, please wait or upgrade to continue""#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/anthropics/claude-code/issues/71504", "anthropic", Some(429), NONE,
          r#"{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"},"request_id":"req_011CcQs88ju9s5K64Q8U2Gok"}"#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/BerriAI/litellm/issues/9035", "openrouter", Some(429), NONE,
          r#"{"error":{"message":"Rate limit exceeded: limit_rpd/google/gemini-2.0-flash-thinking-exp-01-21/REDACTED","code":429,"metadata":{"headers":{"X-RateLimit-Limit":"80","X-RateLimit-Remaining":"0","X-RateLimit-Reset":"1741305600000"}}}}"#,
          QuotaExhausted, false, None, (None, None, None), Some(Dimension::RequestsPerDay), DAY),
        c("github.com/BerriAI/litellm/issues/11197", "litellm", Some(429), NONE,
          r#"litellm.RateLimitError: BedrockException - {"message":"Too many tokens, please wait before trying again."}. Received Model Group=anthropic.claude-sonnet-4-20250514-v1:0
Available Model Group Fallbacks=None
Error doing the fallback: list index out of range LiteLLM Retried: 1 times, LiteLLM Max Retries: 2"#,
          RateLimitTokens, true, None, (None, None, None), TOK, None),
        c("github.com/BerriAI/litellm/issues/20867", "litellm", Some(429), NONE,
          r#"litellm.types.router.RouterRateLimitErrorBasic: No deployments available for selected model."#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/diegosouzapw/OmniRoute/pull/6983", "cloudflare", Some(429), NONE,
          r#"you have used up your daily free allocation of 10,000 neurons, please upgrade to Cloudflare's Workers Paid plan"#,
          QuotaExhausted, false, None, (Some(10000), None, None), None, DAY),
        c("github.com/nodetool-ai/nodetool/issues/5196", "replicate", Some(429), NONE,
          r#"{"detail":"Request was throttled. Your rate limit for creating predictions is reduced to 6 requests per minute with a burst of 1 requests while you have less than $5.0 in credit. Your rate limit resets in ~5s.","status":429,"retry_after":5}"#,
          RateLimitRequests, true, Some(5000), (Some(6), None, None), REQ, MIN),
        c("github.com/continuedev/continue/issues/10740", "xai", Some(429), NONE,
          r#"429 "Your team REDACTED has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit.""#,
          QuotaExhausted, false, None, (None, None, None), None, MONTH),
        c("github.com/warpdotdev/warp/issues/14863", "xai", Some(403), NONE,
          r#"XAI API error: POST "https://api.x.ai/v1/responses": 403 Forbidden "Your team REDACTED has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit.""#,
          QuotaExhausted, false, None, (None, None, None), None, MONTH),
        c("github.com/Anantys-oss/koan/issues/2412", "xai", Some(403), NONE,
          r#"{"type":"error","message":"Internal error: {\n  \"message\": \"API error (status 403 Forbidden): permission-denied: Your team deadb-a58d-46ca-80a1-beefbeef has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit.\\n\\nRequest URL: https://cli-chat-proxy.grok.com/v1/responses\",\n  \"http_status\": 403\n}"}"#,
          QuotaExhausted, false, None, (None, None, None), None, MONTH),
        c("github.com/luxus/pi-xai/issues/10", "xai", Some(403), NONE,
          r#"403 "You have run out of credits or need a Grok subscription.""#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/stanford-crfm/helm/pull/2079", "together", None, NONE,
          r#"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 2019 `inputs` tokens and 30 `max_new_tokens`"#,
          ContextLength, false, None, (Some(2048), Some(2049), None), TOK, None),
        c("github.com/huggingface/chat-ui/issues/1149", "huggingface", None, NONE,
          r#"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 8192. Given: 6204 `inputs` tokens and 2047 `max_new_tokens`"#,
          ContextLength, false, None, (Some(8192), Some(8251), None), TOK, None),
        c("github.com/bytedance/UI-TARS-desktop/issues/626", "huggingface", Some(422), NONE,
          r#"422 "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 65537. Given: 79993 `inputs` tokens and 1024 `max_new_tokens`""#,
          ContextLength, false, None, (Some(65537), Some(81017), None), TOK, None),
        c("github.com/meta-llama/llama/issues/1103", "huggingface", Some(422), NONE,
          r#"HfHubHTTPError: 422 Client Error: Unprocessable Entity for url: https://api-inference.huggingface.co/models/meta-llama/Llama-2-7b-chat-hf (Request ID: gPxf6Ns0plH9zveHLZP_A)

Input validation error: `inputs` must have less than 4096 tokens. Given: 4545
Make sure 'text-generation' task is supported by the model."#,
          ContextLength, false, None, (Some(4096), Some(4545), None), TOK, None),
        c("docs.cohere.com/reference/errors", "cohere", Some(400), NONE,
          r#"too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 4292. Try using a shorter prompt, or enabling prompt truncating. See https://docs.cohere.com/reference/generate for more details."#,
          ContextLength, false, None, (Some(4081), Some(4292), None), TOK, None),
        c("docs.cohere.com/reference/errors", "cohere", Some(400), NONE,
          r#"too many tokens: max tokens must be less than or equal to 4096, the maximum output for this model - received 8192."#,
          ContextLength, false, None, (Some(4096), Some(8192), None), TOK, None),
        c("docs.cohere.com/reference/errors", "cohere", Some(400), NONE,
          r#"too many tokens: size limit exceeded by 11326 tokens. Try using shorter or fewer inputs, or setting prompt_truncation=‘AUTO’."#,
          ContextLength, false, None, (None, None, None), TOK, None),
        c("github.com/llmjava/cohere4j/blob/HEAD/src/main/java/com/github/llmjava/cohere4j/exception/CohereException.java", "cohere", Some(429), NONE,
          r#"{"message":"You are using a Trial key, which is limited to 5 API calls / minute. You can continue to use the Trial key for free or upgrade to a Production key with higher rate limits at 'https://dashboard.cohere.ai/api-keys'. Contact us on 'https://discord.gg/XW44jPfYJu' or email us at support@cohere.com with any questions"}"#,
          RateLimitRequests, true, None, (Some(5), None, None), REQ, MIN),
        c("github.com/bjulius/dax-bench-solver/blob/HEAD/dax-bench/runs/2025-12-13_2138_task-026_meta-llama_llama-3.3-70b-instruct_free.md", "openrouter", Some(429), NONE,
          r#"{"error":{"message":"Rate limit exceeded: free-models-per-min. ","code":429,"metadata":{"headers":{"X-RateLimit-Limit":"20","X-RateLimit-Remaining":"0","X-RateLimit-Reset":"1765680000000"},"provider_name":null}},"user_id":"user_REDACTED"}"#,
          RateLimitRequests, true, None, (None, None, None), REQ, MIN),
        c("github.com/anthropics/claude-code/issues/88711", "anthropic", Some(400), NONE,
          r#"{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."},"request_id":"req_011CeGphKfhi1XAd3tJp1z1E"}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/anthropics/claude-code/issues/42616", "anthropic", Some(429), NONE,
          r#"{"type":"error","error":{"type":"rate_limit_error","message":"Extra usage is required for long context requests."},"request_id":"req_011CZf8TJf84hAUziB6LuRoc"}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/RooCodeInc/Roo-Code/issues/554", "anthropic", Some(429), NONE,
          r#"{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your organization’s rate limit of 80,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits; see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."}}"#,
          RateLimitTokens, true, None, (Some(80000), None, None), TOK, MIN),
        c("github.com/kortix-ai/suna/issues/172", "litellm", Some(400), NONE,
          r#"litellm.BadRequestError: AnthropicException - b'{"type":"error","error":{"type":"invalid_request_error","message":"input length and `max_tokens` exceed context limit: 174167 + 64000 > 200000, decrease input length or `max_tokens` and try again"}}'"#,
          ContextLength, false, None, (Some(200000), Some(238167), None), TOK, None),
        c("github.com/truefoundry/models/pull/862", "deepinfra", Some(429), NONE,
          r#"openai.RateLimitError: Error code: 429 - {'status': 'failure', 'message': 'Invalid response received from deepinfra: {"error":{"message":"Model busy, retry later"}}', 'error': {'message': 'Invalid response received from deepinfra: {"error":{"message":"Model busy, retry later"}}', 'type': 'APIError', 'code': '429'}, 'error_origin_level': 'api_error', 'provider': 'deepinfra'}"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/FoundationAgents/OpenManus/issues/62", "openai", Some(400), NONE,
          r#"Error code: 400 - {'error': {'message': "This model's maximum context length is 8192 tokens. However, you requested 8213 tokens (6683 in the messages, 730 in the functions, and 800 in the completion). Please reduce the length of the messages, functions, or completion.", 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}"#,
          ContextLength, false, None, (Some(8192), Some(8213), None), TOK, None),
        c("github.com/stackblitz-labs/bolt.diy/issues/1088", "deepseek", None, NONE,
          r#"This model's maximum context length is 65536 tokens. However, you requested 69135 tokens (61135 in the messages, 8000 in the completion). Please reduce the length of the messages or completion."#,
          ContextLength, false, None, (Some(65536), Some(69135), None), TOK, None),
        c("github.com/feder-cr/invisible_playwright_mcp/issues/109", "openai", Some(429), NONE,
          r#"openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o-mini in organization org-xxxxxxxxx on requests per day (RPD): Limit 200, Used 200, Requested 1. Please try again in 7m12s. Visit https://platform.openai.com/account/rate-limits to learn more. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.', 'type': 'requests', 'param': None, 'code': 'rate_limit_exceeded'}}"#,
          RateLimitRequests, true, Some(432000), (Some(200), Some(1), Some(200)), Some(Dimension::RequestsPerDay), DAY),
        c("github.com/farion1231/cc-switch/issues/240", "moonshot", Some(429), NONE,
          r#"request reached organization TPD rate limit, current: 1508351, limit: 1500000"#,
          QuotaExhausted, false, None, (Some(1500000), None, Some(1508351)), Some(Dimension::TokensPerDay), DAY),
        c("github.com/bklieger-groq/stockbot-on-groq/issues/46", "groq", Some(429), NONE,
          r#"Rate limit reached for model `llama3-70b-8192` in organization `org_REDACTED` on : Limit 500000, Used 500370, Requested 252. Please try again in 1m47.5854s. Visit https://console.groq.com/docs/rate-limits for more information."#,
          RateLimitOther, true, Some(107586), (Some(500000), Some(252), Some(500370)), None, None),
        c("github.com/google-gemini/gemini-cli/issues/23520", "gemini", Some(503), NONE,
          r#"{
  "error": {
    "code": 503,
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "domain": "cloudcode-pa.googleapis.com",
        "reason": "MODEL_CAPACITY_EXHAUSTED"
      }
    ],
    "message": "No capacity available for model on the server",
    "status": "UNAVAILABLE"
  }
}"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/googlecodelabs/feedback/issues/1857", "antigravity", Some(503), &[("Alt-Svc", "h3=\":443\"; ma=2592000,h3-29=\":443\"; ma=2592000"), ("Content-Length", "429"), ("Content-Type", "text/event-stream"), ("Date", "Tue, 21 Apr 2026 01:38:11 GMT"), ("Server", "ESF"), ("Server-Timing", "gfet4t7; dur=1045"), ("Vary", "Origin, X-Origin, Referer"), ("X-Cloudaicompanion-Trace-Id", "71e379e3bb5c38c5"), ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "SAMEORIGIN"), ("X-Xss-Protection", "0")],
          r#"{
  "error": {
    "code": 503,
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "domain": "cloudcode-pa.googleapis.com",
        "metadata": {
          "model": "claude-opus-4-6-thinking"
        },
        "reason": "MODEL_CAPACITY_EXHAUSTED"
      }
    ],
    "message": "No capacity available for model claude-opus-4-6-thinking on the server",
    "status": "UNAVAILABLE"
  }
}"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/continuedev/continue/issues/6185", "mistral", None, NONE,
          r#"{"object":"error","message":"Service tier capacity exceeded for this model.","type":"invalid_request_error","param":null,"code":null}"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/openai/codex/issues/19446", "openai", None, NONE,
          r#"Selected model is at capacity. Please try a different model."#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/valentinfrlch/ha-llmvision/issues/648", "ollama", Some(503), NONE,
          r#"server busy, please try again.  maximum pending requests exceeded"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/ollama/ollama/issues/4159", "ollama", None, NONE,
          r#"unexpected server status: llm busy - no slots available"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/microsoft/action-python/issues/12", "azure", Some(429), NONE,
          r#"Requests to the Creates a completion for the chat message Operation under Azure OpenAI API version 2023-03-15-preview have exceeded call rate limit of your current OpenAI S0 pricing tier. Please retry after 3 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."#,
          RateLimitRequests, true, Some(3000), (None, None, None), REQ, None),
        c("github.com/openai/openai-dotnet/issues/404", "openai", Some(429), NONE,
          r#"{
    "error": {
        "message": "Rate limit reached for gpt-4o-mini in organization [orgID] on tokens per min (TPM): Limit 100000, Used 96749, Requested 19126. Please try again in 114h18m0s. Visit https://platform.openai.com/account/rate-limits to learn more. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.",
        "type": "tokens",
        "param": null,
        "code": "rate_limit_exceeded"
    }
}"#,
          RateLimitTokens, true, Some(411480000), (Some(100000), Some(19126), Some(96749)), TOK, MIN),
        c("github.com/Pythagora-io/gpt-pilot/issues/340", "openai", Some(429), NONE,
          r#"{
    "error": {
        "message": "You exceeded your current quota, please check your plan and billing details.",
        "type": "insufficient_quota",
        "param": null,
        "code": "insufficient_quota"
    }
}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/expectedparrot/edsl/issues/2098", "together", Some(402), NONE,
          r#"Error code: 402 - {'id': 'o3LiXw4-62bZhn-96040daf687810ab', 'error': {'message': 'Credit limit exceeded. Please navigate to https://api.together.xyz/settings/billing to add credit or upgrade your plan.', 'type': 'credit_limit', 'param': None, 'code': None}}"#,
          QuotaExhausted, false, None, (None, None, None), None, None),
        c("github.com/xberg-io/liter-llm/pull/189", "groq", Some(200), NONE,
          r#"{"error":{"message":"tool call validation failed","type":"invalid_request_error","code":"tool_use_failed","status_code":400}}"#,
          Other, false, None, (None, None, None), None, None),
        c("github.com/dcdpr/jp/pull/978", "openrouter", Some(200), NONE,
          r#"prompt is too long: 1284668 tokens > 1000000 maximum"#,
          ContextLength, false, None, (Some(1000000), Some(1284668), None), TOK, None),
        c("github.com/diegosouzapw/OmniRoute/pull/8210", "openrouter", Some(200), NONE,
          r#"Worker local total request limit reached (33/32)"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/AIDotNet/OpenDeepWiki/issues/269", "siliconflow", Some(429), NONE,
          r#"{"message":"Request was rejected due to rate limiting. Details: TPM limit reached.","data":null}"#,
          RateLimitTokens, true, None, (None, None, None), TOK, MIN),
        c("github.com/chatboxai/chatbox/issues/2060", "siliconflow", Some(400), NONE,
          r#"{"code":20015,"message":"length of prompt_tokens (68957) must be less than max_seq_len (65536).","data":null}"#,
          ContextLength, false, None, (Some(65536), Some(68957), None), TOK, None),
        c("github.com/QwenLM/qwen-code/issues/1641", "qwen", Some(503), NONE,
          r#"<5000202> InternalError.Algo.ModelServingError.ModelServingUnknownError: An error occurred in model serving. The error message it sent us is [{"request_id":"2bddb1e5-de8d-45f0-8f8b-e09874e1aad7","service_id":"v-d47ed302","status_code":503,"status_name":"ServiceUnavailable","status_message":"Too many requests. Your requests are being throttled due to system capacity limits. Please try again later."}]"#,
          Overloaded, true, None, (None, None, None), None, None),
        c("github.com/PaddlePaddle/ERNIE/issues/1031", "baidu", Some(429), NONE,
          r#"openai.RateLimitError: Error code: 429 - {'error': {'code': 'rpm_rate_limit_exceeded', 'message': 'Rate limit reached for RPM', 'type': 'rate_limit_exceeded'}, 'id': 'as-wbx23eriqh'}"#,
          RateLimitRequests, true, None, (None, None, None), REQ, MIN),
        c("github.com/PaddlePaddle/PaddleClas/issues/3044", "baidu", None, NONE,
          r#"erniebot.errors.RequestLimitError: 并发超限"#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/stackblitz/bolt.new/issues/2307", "anthropic", Some(400), NONE,
          r#"prompt is too long: 202788 tokens > 200000 maximum"#,
          ContextLength, false, None, (Some(200000), Some(202788), None), TOK, None),
        c("github.com/Azure/azure-sdk-for-python/issues/40986", "azure", Some(400), NONE,
          r#"(context_length_exceeded) This model's maximum context length is 128000 tokens. However, you requested 1124171 tokens (124171 in the messages, 1000000 in the completion). Please reduce the length of the messages or completion.
Code: context_length_exceeded
Message: This model's maximum context length is 128000 tokens. However, you requested 1124171 tokens (124171 in the messages, 1000000 in the completion). Please reduce the length of the messages or completion."#,
          ContextLength, false, None, (Some(128000), Some(1124171), None), TOK, None),
        c("github.com/microsoft/kernel-memory/issues/516", "azure", Some(400), NONE,
          r#"{
  "error": {
    "message": "This model's maximum context length is 8192 tokens. However, your messages resulted in 10383 tokens. Please reduce the length of the messages.",
    "type": "invalid_request_error",
    "param": "messages",
    "code": "context_length_exceeded"
  }
}"#,
          ContextLength, false, None, (Some(8192), Some(10383), None), TOK, None),
        c("github.com/FlowiseAI/Flowise/issues/1711", "azure", None, NONE,
          r#"This model's maximum context length is 4096 tokens. However, your messages resulted in 4106 tokens (4054 in the messages, 52 in the functions). Please reduce the length of the messages or functions."#,
          ContextLength, false, None, (Some(4096), Some(4106), None), TOK, None),
        c("github.com/meta-llama/llama-models/issues/354", "meta", Some(429), NONE,
          r#"Error code: 429 - {'title': 'Too Many Requests', 'detail': 'You have exceeded the maximum number of tokens allowed within a given time frame. Wait a bit and try again.', 'status': 429}"#,
          RateLimitTokens, true, None, (None, None, None), TOK, None),
        c("github.com/ovh/shai/issues/105", "ovhcloud", Some(429), NONE,
          r#"{
  "message": "API rate limit exceeded",
  "request_id": "af8869793862ad7ab720bb7f5438dd6a"
}"#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/chatchat-space/Langchain-Chatchat/issues/2600", "fastchat", Some(400), NONE,
          r#"openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': "This model's maximum context length is 2048 tokens. However, your messages resulted in 3503 tokens. Please reduce the length of the messages.", 'code': 40303}"#,
          ContextLength, false, None, (Some(2048), Some(3503), None), TOK, None),
        c("github.com/missuo/koe/issues/117", "openai", Some(429), NONE,
          r#""#,
          RateLimitOther, true, None, (None, None, None), None, None),
        c("github.com/akshayaggarwal99/nodenest/issues/1", "gemini", Some(429), NONE,
          r#"[GoogleGenerativeAI Error]: Error fetching from https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash-exp:generateContent: [429 Too Many Requests] You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/usage?tab=rate-limit. 
* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 0, model: gemini-2.0-flash-exp"#,
          QuotaExhausted, false, None, (Some(0), None, None), TOK, None),
        c("github.com/google-gemini/gemini-cli/issues/2047", "gemini", Some(429), NONE,
          r#"Quota exceeded for quota metric 'Gemini 2.5 Pro Requests' and limit 'Gemini 2.5 Pro Requests per day per user per tier' of service 'cloudcode-pa.googleapis.com' for consumer 'project_number:REDACTED'."#,
          QuotaExhausted, false, None, (None, None, None), Some(Dimension::RequestsPerDay), DAY),
        // ---------------------------------------------------------------- Round 2 (a second public collection)
        c("github.com/anthropics/claude-code/issues/562", "bedrock", Some(503), NONE,
          r##"Too many connections, please wait before trying again."##,
          Overloaded, true, None, N3, None, None),
        c("github.com/aws-samples/bedrock-chat/issues/95", "bedrock", None, NONE,
          r##"An error occurred (validationException) when calling the InvokeModelWithResponseStream operation: Input is too long for requested model."##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/aws-samples/assessment-generator/issues/2", "bedrock", Some(400), NONE,
          r##"{
    "errorType": "ValidationException",
    "errorMessage": "Input is too long for requested model.",
    "name": "ValidationException",
    "$fault": "client",
    "$metadata": {
        "httpStatusCode": 400,
        "requestId": "16fb0962-139d-4c70-ba9c-602d9630e854",
        "attempts": 1,
        "totalRetryDelay": 0
    }
}"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/ryanadoty/Amazon-Bedrock-Amazon-RDS-POC/issues/9", "bedrock", Some(400), NONE,
          r##"An error occurred (ValidationException) when calling the InvokeModel operation: Malformed input request: expected maxLength: 42000, actual: 46735, please reformat your input and try again."##,
          ContextLength, false, None, (Some(42000), Some(46735), None), TOK, None),
        c("github.com/langchain-ai/langchain-aws/issues/419", "bedrock", Some(400), NONE,
          r##"ValidationException: An error occurred (ValidationException) when calling the InvokeModel operation: 1 validation error detected: Value at 'body' failed to satisfy constraint: Member must have length less than or equal to 25000000"##,
          TooLarge, false, None, (Some(25000000), None, None), None, None),
        c("github.com/continuedev/continue/issues/9592", "bedrock", None, NONE,
          r##"The model returned the following errors: Input is too long for requested model."##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/aws-samples/well-architected-iac-analyzer/issues/32", "bedrock", None, NONE,
          r##"ThrottlingException: Your request rate is too high. Reduce the frequency of requests."##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/aws-samples/foundation-model-benchmarking-tool/issues/247", "bedrock", None, &[(":exception-type", "serviceUnavailableException"), (":content-type", "application/json"), (":message-type", "exception")],
          r##"{"message":"Bedrock is unable to process your request."}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/danny-avila/LibreChat/issues/4217", "bedrock", None, NONE,
          r##"ServiceUnavailableException: Bedrock is unable to process your request."##,
          Overloaded, true, None, N3, None, None),
        c("www.repost.aws/ja/knowledge-center/bedrock-imported-models-modelnotreadyexception", "bedrock", Some(429), NONE,
          r##""errorMessage": "Model is not ready for inference.Wait and try your request again.""##,
          Overloaded, true, None, N3, None, None),
        c("github.com/ridgesai/ridges-old/pull/75", "openai", Some(400), NONE,
          r##"Error code: 400 - {'error': {'message': 'Requested 319487 tokens, max 300000 tokens per request', 'type': 'max_tokens_per_request', 'param': None, 'code': 'max_tokens_per_request'}}"##,
          TooLarge, false, None, (Some(300000), Some(319487), None), TOK, None),
        c("github.com/weaviate/weaviate/issues/3095", "azure-openai", Some(429), NONE,
          r##"Requests to the Embeddings_Create Operation under Azure OpenAI API version 2022-12-01 have exceeded call rate limit of your current OpenAI S0 pricing tier. Please retry after 9 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."##,
          RateLimitRequests, true, Some(9000), N3, REQ, None),
        c("github.com/langchain-ai/langchain/issues/2493", "azure-openai", Some(429), NONE,
          r##"Requests to the Get a vector representation of a given input that can be easily consumed by machine learning models and algorithms. Operation under Azure OpenAI API version 2023-05-15 have exceeded call rate limit of your current OpenAI S0 pricing tier. Please retry after 2 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."##,
          RateLimitRequests, true, Some(2000), N3, REQ, None),
        c("github.com/sigoden/aichat/issues/877", "azure-openai", Some(429), NONE,
          r##"Requests to the Embeddings_Create Operation under Azure OpenAI API version 2024-02-01 have exceeded call rate limit of your current OpenAI S0 pricing tier. Please retry after 55 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit. (code: 429)"##,
          RateLimitRequests, true, Some(55000), N3, REQ, None),
        c("github.com/dyad-sh/dyad/issues/1849", "azure-openai", Some(429), NONE,
          r##"Your requests to gpt-5.1 for gpt-5.1 in East US 2 have exceeded the token rate limit for your current AIServices S0 pricing tier. This request was for ChatCompletions_Create under Azure OpenAI API version 2025-03-01-preview. Please retry after 60 seconds. To increase your default rate limit, visit: https://aka.ms/oai/quotaincrease."##,
          RateLimitTokens, true, Some(60000), N3, TOK, None),
        c("github.com/microsoft/sample-app-aoai-chatGPT/issues/406", "azure-openai", Some(429), NONE,
          r##"Requests to the Creates a completion for the chat message Operation under Azure OpenAI API version 2023-03-15-preview have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 9 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."##,
          RateLimitTokens, true, Some(9000), N3, TOK, None),
        c("github.com/Azure/azure-sdk-for-net/issues/47779", "azure-openai", Some(429), NONE,
          r##"Rate limit is exceeded. Try again in 40 seconds."##,
          RateLimitOther, true, Some(40000), N3, None, None),
        c("github.com/Azure/azure-sdk-for-net/issues/41892", "azure-openai", Some(400), NONE,
          r##"{
      "error": {
        "message": "This model's maximum context length is 32768 tokens. However, you requested 35969 tokens (9969 in the 
    messages, 26000 in the completion). Please reduce the length of the messages or completion.",
        "type": "invalid_request_error",
        "param": "messages",
        "code": "context_length_exceeded"
      }
    }"##,
          ContextLength, false, None, (Some(32768), Some(35969), None), TOK, None),
        c("github.com/ikechan8370/chatgpt-plugin/issues/219", "openai", Some(400), NONE,
          r##"{ "error":{ "message": "This model's maximum context length is 4096 tokens. However, you requested 4104tokens (3104 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.", "type": "invalid_request_error","param": "messages", "code": "context_length_exceeded" } }"##,
          ContextLength, false, None, (Some(4096), Some(4104), None), TOK, None),
        c("github.com/webtimemachine/wtm2/issues/579", "openai", Some(400), NONE,
          r##"400 This model's maximum context length is 128000 tokens. However, your messages resulted in 204308 tokens. Please reduce the length of the messages."##,
          ContextLength, false, None, (Some(128000), Some(204308), None), TOK, None),
        c("github.com/assafelovic/gpt-researcher/issues/680", "azure-openai", Some(400), NONE,
          r##"{'error': {'message': "This model's maximum context length is 128000 tokens. However, your messages resulted in 192041 tokens. Please reduce the length of the messages.", 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}"##,
          ContextLength, false, None, (Some(128000), Some(192041), None), TOK, None),
        c("github.com/run-llama/llama_index/pull/402", "azure-openai", Some(400), NONE,
          r##"This model's maximum context length is 2046 tokens, however you requested 3383 tokens (3383 in your prompt; 0 for the completion). Please reduce your prompt; or completion length."##,
          ContextLength, false, None, (Some(2046), Some(3383), None), TOK, None),
        c("github.com/anthropics/claude-code/issues/12186", "anthropic", Some(400), NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"},"request_id":"req_011CVQe1dLrGNMJyE1ghG1av"}"##,
          ContextLength, false, None, (Some(200000), Some(208310), None), TOK, None),
        c("github.com/anthropics/claude-code/issues/39743", "anthropic", Some(529), NONE,
          r##"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded. https://docs.claude.com/en/api/errors"},"request_id":"req_011CZTE7i3e4tJVTPSyKsDMR"}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/charmbracelet/crush/issues/121", "anthropic", Some(200), NONE,
          r##"{"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"}}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/10314", "anthropic", Some(413), NONE,
          r##"{"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}"##,
          TooLarge, false, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/6380", "anthropic", Some(413), NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"Request size exceeds model context window"},"request_id":"req_011CSPcw1jaHBKxvgq8Kga6G"}"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/anthropics/claude-code/issues/4684", "anthropic", Some(400), NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/29584", "anthropic", Some(429), NONE,
          r##"{"type":"error","error":{"type":"rate_limit_error","message":"Extra usage is required for long context requests."},"request_id":"req_011CYZAjb9kGCRmAhG79ySi5"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/continuedev/continue/issues/10597", "gemini", Some(429), NONE,
          r##"{"error":{"message":"{\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.\",\n    \"status\": \"RESOURCE_EXHAUSTED\"\n  }\n}\n","code":429,"status":"Too Many Requests"}}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/anomalyco/opencode/issues/9789", "zhipu", Some(429), NONE,
          r##"您当前使用该API的并发数过高，请降低并发，或联系客服增加限额。"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/continuedev/continue/issues/11823", "zhipu", Some(429), NONE,
          r##"429 余额不足或无可用资源包,请充值。"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/agentscope-ai/QwenPaw/issues/202", "zhipu", Some(429), NONE,
          r##"{'error': {'code': '1113', 'message': '余额不足或无可用资源包,请充值。'}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/7836246/cursor2api/issues/30", "zhipu", Some(429), NONE,
          r##"{"error":{"code":"1113","message":"Insufficient balance or no resource package. Please recharge."},"request_id":"202603142338501da90b7ebe1d473d"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/vercel/ai/issues/9290", "vercel-ai-gateway", None, NONE,
          r##"{"error":{"message":"Insufficient balance or no resource package. Please recharge.","type":"AI_APICallError","param":{"error":"Insufficient balance or no resource package. Please recharge.","statusCode":429,"name":"AI_APICallError","message":"Insufficient balance or no resource package. Please recharge.","url":"https://api.z.ai/api/paas/v4/chat/completions","isRetryable":true,"type":"AI_APICallError"}}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/FoundationAgents/OpenManus/issues/438", "siliconflow", Some(403), NONE,
          r##"{'code': 30011, 'message': 'The selected model requires paid balance. Your paid balance is insufficient. Please top up and try again.', 'data': None}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/infiniflow/ragflow/issues/10598", "dashscope", Some(429), NONE,
          r##"You exceeded your current requests list."##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/LLM-Red-Team/kimi-cc/issues/41", "moonshot", Some(429), NONE,
          r##"{"error":{"type":"rate_limit_reached_error","message":"Your account xxxxx / proj-xxxxxx <ak-xxxxx> request reached project TPM rate limit, current: 1410, limit: 100, see https://platform.moonshot.cn/docs/pricing/limits"}}"##,
          RateLimitTokens, true, None, (Some(100), None, Some(1410)), TOK, MIN),
        c("github.com/Wei-Shaw/sub2api/issues/3821", "sub2api", Some(429), NONE,
          r##"{
  "error": {
    "message": "Concurrency limit exceeded for user, please retry later",
    "type": "rate_limit_error"
  },
  "type": "error"
}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/continuedev/continue/issues/9473", "deepseek", Some(402), NONE,
          r##"402 Insufficient Balance"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/volcengine/MineContext/issues/328", "volcengine", None, NONE,
          r##"Your account ［2100334555］ has reached the set inference limit for the ［doubao-seed-1-6-flashl model, and the model service has been paused. To continue
using this model, please visit the Model Activation page to adjust or close the "Safe Experience Mode""##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Vizards/deepseek-v4-for-copilot/issues/279", "new-api", Some(429), NONE,
          r##"status_code=429, TPM (Tokens Per Minute) limit of the model deepseek-v4-1-flash is exceeded. Please try again later"##,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/vanna-ai/vanna/issues/1045", "modelscope", Some(429), NONE,
          r##"{'errors': {'message': 'We have to rate limit you for model Qwen/Qwen3-235B-A22B-Instruct-2507. If you need higher limits, please consider other (commercial) API providers.', 'request_id': '22c0eada-2617-41bb-8de8-808a2aac2711'}}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/LLM-Red-Team/kimi-cc/issues/16", "moonshot", Some(429), NONE,
          r##"{"error":{"message":"Your account org-e664b178c0f74d818f6b62f87efa49f7<ak-f3t8pfk16fki11gzh6i1> request reached max organization concurrency: 1, please try again after 1 seconds","type":"rate_limit_reached_error"}}"##,
          RateLimitOther, true, Some(1000), (Some(1), None, None), None, None),
        c("github.com/JackDance/DocumentQA_RAG/issues/2", "openai", Some(429), NONE,
          r##"{'error': {'message': 'Rate limit reached for gpt-3.5-turbo in organization org-fDaMe8LMZ8iU6sMXwl6htXIl on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20
s. Visit https://platform.openai.com/account/rate-limits to learn more. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.', 'type': 'requests', 'param': None, 'code': 'rate_limit_exceeded'}}"##,
          RateLimitRequests, true, Some(20000), (Some(3), Some(1), Some(3)), REQ, MIN),
        c("github.com/PaddlePaddle/ERNIE-SDK/issues/107", "baidu", None, NONE,
          r##"APIError: 访问过于频繁，请稍候再试"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/modelscope/modelscope/issues/1691", "modelscope", Some(429), NONE,
          r##"{'error': {'http_code': '429', 'message': 'insufficient balance (1008)', 'type': 'insufficient_balance_error'}, 'request_id': 'xxxx'}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/MiniMax-AI/MiniMax-M2/issues/62", "minimax", Some(500), NONE,
          r##"{"type":"error","error":{"type":"api_error","message":"insufficient balance (1008)"},"request_id":"05997465cd2ee4bd50b24b216c911b75"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/gabrielkoerich/orch/issues/3150", "minimax", Some(429), NONE,
          r##"usage limit exceeded (2056)"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/infiniflow/ragflow/issues/6542", "siliconflow", Some(429), NONE,
          r##"{'message': 'Request was rejected due to rate limiting. Details: TPM limit reached.', 'data': None}"##,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/openai/codex/issues/10055", "openai", None, NONE,
          r##"Rate limit reached for organization org-BOvpEHVcDPTe8h4lZnwMO5Ly on tokens per min (TPM): Limit 250000, Used 250000, Requested 58487.
    Please try again in 14.036s. Visit https://platform.openai.com/account/rate-limits to learn more."##,
          RateLimitTokens, true, Some(14036), (Some(250000), Some(58487), Some(250000)), TOK, MIN),
        c("github.com/anomalyco/opencode/issues/18733", "minimax", Some(429), NONE,
          r##"rate limit exceeded(TPM)(1039)"##,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/SUSYUSTC/MathTranslate/issues/21", "tencentcloud", None, NONE,
          r##"[TencentCloudSDKException] code:RequestLimitExceeded message:您当前每秒请求 `6` 次，超过了每秒频率上限 `5`，请稍后重试。 requestId:bc0e30fe-037b-48ce-85a7-0376e0cff672"##,
          RateLimitRequests, true, None, (Some(5), None, Some(6)), REQ, None),
        c("github.com/wazuh/wazuh-dashboard-plugins/pull/8790", "groq", Some(429), NONE,
          r##"Rate limit reached for model
`llama-3.3-70b-versatile` in organization `org_01k…` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 94976, Requested 5632. Please try again in 8m45.312s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing"##,
          RateLimitTokens, true, Some(525312), (Some(100000), Some(5632), Some(94976)), Some(Dimension::TokensPerDay), DAY),
        c("github.com/xtekky/gpt4free/issues/3456", "g4f", Some(500), NONE,
          r##"500 - Token limit (500,000 per day) exceeded. Used: 508,311 tokens. Sign up at g4f.dev/members.html for higher limits."##,
          QuotaExhausted, false, None, (Some(500000), None, Some(508311)), Some(Dimension::TokensPerDay), DAY),
        c("github.com/anthropics/claude-code/issues/71634", "anthropic", Some(429), NONE,
          r##"{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"},"request_id":"req_011CcQsAXVBFuxNeCXAGEafH"}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/anomalyco/opencode/issues/7463", "cerebras", Some(429), NONE,
          r##"Tokens per minute limit exceeded - too many tokens processed"##,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/OpenCoworkAI/open-codesign/issues/402", "openrouter", Some(429), NONE,
          r##"429 Provider returned error
meta-llama/llama-3.3-70b-instruct:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: [url omitted]"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/anomalyco/opencode/issues/34886", "opencode-go", Some(503), NONE,
          r##"HTTP 503: Inference is temporarily unavailable"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/anomalyco/opencode/issues/47747", "opencode-go", Some(429), NONE,
          r##"{"param":null,"code":"rate_limit_exceeded","type":"rate_limit_error","message":"Error from provider (Console Go): Upstream request failed: [rate_limit_exceeded] Rate limit exceeded. Please retry after a brief wait."}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/anomalyco/opencode/issues/29912", "opencode-go", Some(429), NONE,
          r##"{'code': '429', 'message': 'Error from provider (Xiaomi): Too many requests', 'type': 'limitation'}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/google-gemini/gemini-cli/issues/26633", "gemini", Some(429), NONE,
          r##"{
    "error": {
      "code": 429,
      "message": "No capacity available for model on the server",
      "status": "RESOURCE_EXHAUSTED",
      "details": [{ "reason": "MODEL_CAPACITY_EXHAUSTED" }]
    }
  }"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/Alishahryar1/free-claude-code/issues/690", "nvidia-nim", Some(429), NONE,
          r##"{"status":429,"title":"Too Many Requests"}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/autohandai/code-cli/issues/141", "openrouter", Some(429), NONE,
          r##"Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day"##,
          QuotaExhausted, false, None, N3, Some(Dimension::RequestsPerDay), DAY),
        c("github.com/swarmauri/swarmauri-sdk/pull/634", "cohere", Some(429), NONE,
          r##"status_code: 429, body: data=None message="You are using a Trial key, which is limited to 10 API calls / minute. You can continue to use the Trial key for free or upgrade to a Production key with h..."##,
          RateLimitRequests, true, None, (Some(10), None, None), REQ, MIN),
        c("github.com/leancodepl/arb_translate/issues/7", "vertex-ai", Some(429), NONE,
          r##"Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model with base model: gemini-pro. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai."##,
          RateLimitRequests, true, None, N3, REQ, MIN),
        c("github.com/home-assistant/core/issues/132832", "gemini", Some(429), NONE,
          r##"429 Quota exceeded for quota metric 'Generate Content API requests per minute' and limit 'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com' for consumer 'project_number:***********'. [reason: "RATE_LIMIT_EXCEEDED" domain: "googleapis.com" metadata { key: "service" value: "generativelanguage.googleapis.com" } metadata { key: "quota_metric" value: "generativelanguage.googleapis.com/generate_content_requests" } metadata { key: "quota_location" value: "us-west4" } metadata { key: "quota_limit" value: "GenerateContentRequestsPerMinutePerProjectPerRegion" } metadata { key: "quota_limit_value" value: "0" } metadata { key: "consumer" value: "projects/***********" }"##,
          QuotaExhausted, false, None, (Some(0), None, None), REQ, MIN),
        c("github.com/diegosouzapw/OmniRoute/issues/6980", "cloudflare-workers-ai", Some(429), NONE,
          r##"you have used up your daily free allocation of 10,000 neurons, please upgrade to Cloudflare's Workers Paid plan"##,
          QuotaExhausted, false, None, (Some(10000), None, None), None, DAY),
        c("github.com/microsoft/vscode-copilot-release/issues/3210", "github-copilot", None, NONE,
          r##"Sorry, your request is rate-limited. Please wait 8 hours 24 minutes and try again"##,
          RateLimitOther, true, Some(30240000), N3, None, None),
        c("github.com/opea-project/GenAIInfra/issues/487", "tgi", Some(200), NONE,
          r##"{"error":"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 1887 `inputs` tokens and 1024 `max_new_tokens`","error_type":"validation"}"##,
          ContextLength, false, None, (Some(2048), Some(2911), None), TOK, None),
        c("github.com/ogx-ai/ogx/issues/4534", "vllm", Some(400), NONE,
          r##"{'object': 'error', 'message': "This model's maximum context length is 6048 tokens. However, you requested 6616 tokens (568 in the messages, 6048 in the completion). Please reduce the length of the messages or completion.", 'type': 'BadRequestError', 'param': None, 'code': 400}"##,
          ContextLength, false, None, (Some(6048), Some(6616), None), TOK, None),
        c("github.com/lmstudio-ai/lmstudio-bug-tracker/issues/546", "lmstudio", None, NONE,
          r##"Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with context length of only 32768 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input. Error Data: n/a, Additional Data: n/a"##,
          ContextLength, false, None, (Some(32768), Some(111490), None), TOK, None),
        c("github.com/anomalyco/opencode/issues/2259", "lmstudio", None, NONE,
          r##"The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/anomalyco/opencode/issues/11141", "lmstudio", None, NONE,
          r##"Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)"##,
          ContextLength, false, None, (Some(7424), Some(15028), None), TOK, None),
        c("github.com/google-gemini/gemini-cli/issues/27761", "gemini", Some(429), NONE,
          r##"Cloud Code Assist API error (429): Individual quota reached. Contact your administrator to enable overages"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/BerriAI/litellm/issues/22726", "litellm", None, NONE,
          r##"Budget has been exceeded! Current cost: 26.075, Max budget: 0.25"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/open-assistant-org/open-assistant/issues/80", "openrouter", Some(402), NONE,
          r##"{'error': {'message': 'Insufficient credits. Add more using https://openrouter.ai/settings/credits', 'code': 402, 'metadata': {'limit_source': 'openrouter_credits', 'remedy_hint': 'Add credits at https://openrouter.ai/settings/credits, or lower max_tokens / prompt size to fit your remaining balance.'}}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/brianpetro/obsidian-smart-connections/issues/725", "anthropic", Some(429), NONE,
          r##"Number of request tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."##,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/ikechan8370/chatgpt-plugin/issues/125", "openai", Some(503), NONE,
          r##"{
  "error": {
    "message": "That model is currently overloaded with other requests. You can retry your request, or contact us through our help center at help.openai.com if the error persists. (Please include the request ID 500d9fff2057e4af93a280f67002c342 in your message.)",
    "type": "server_error",
    "param": null,
    "code": null
  }
}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/google-gemini/cookbook/issues/425", "gemini", Some(503), NONE,
          r##"503 UNAVAILABLE. {'error': {'code': 503, 'message': 'The model is overloaded. Please try again later.', 'status': 'UNAVAILABLE'}}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/cline/cline/issues/3120", "xai", Some(400), NONE,
          r##""This model's maximum prompt length is 131072 but the request contains 136973 tokens.""##,
          ContextLength, false, None, (Some(131072), Some(136973), None), TOK, None),
        c("github.com/tarigelamin1997/jobfetcher/pull/42", "deepseek", Some(429), NONE,
          r##"Your current concurrency is 40, which exceeds your concurrency limit of 39 based on your remaining balance. Please top up your balance to restore your concurrency."##,
          RateLimitOther, true, None, (Some(39), None, Some(40)), None, None),
        c("github.com/CherryHQ/cherry-studio/issues/2959", "moonshot", Some(429), NONE,
          r##"{
  "message": "429 Rate limit exceeded, please try again after 1 seconds",
  "status": 429,
  "error": {
    "message": "Rate limit exceeded, please try again after 1 seconds",
    "type": "rate_limit_reached_error"
  },
  "type": "rate_limit_reached_error"
}"##,
          RateLimitOther, true, Some(1000), N3, None, None),
        c("github.com/BerriAI/litellm/issues/4934", "together", Some(400), NONE,
          r##"{'error': {'message': 'Input validation
error: `inputs` tokens + `max_new_tokens` must be <= 4097. Given: 80125 `inputs` tokens and 4096 `max_new_tokens`', 'type':
'invalid_request_error', 'param': 'max_tokens', 'code': None}}"##,
          ContextLength, false, None, (Some(4097), Some(84221), None), TOK, None),
        c("github.com/huggingface/llm-vscode/issues/94", "huggingface", Some(422), NONE,
          r##"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 3474 `inputs` tokens and 60 `max_new_tokens`"##,
          ContextLength, false, None, (Some(2048), Some(3534), None), TOK, None),
        // ---------------------------------------------------------------- Round 3 (a third public collection)
        c("github.com/yushangxiao/pplx2api/issues/34", "perplexity", Some(429), NONE,
          r##"{"status":"failed","error_code":"RATE_LIMITED","_response_type":"RATE_LIMITED","text":"Query rate limit exceeded. Please try Perplexity again later."}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/Alishahryar1/free-claude-code/issues/1482", "nvidia-nim", Some(429), NONE,
          r##"{"status":429,"title":"Too Many Requests"}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/ggml-org/llama.cpp/issues/19774", "llama.cpp", Some(500), NONE,
          r##"{"error":{"code":500,"message":"Context size has been exceeded.","type":"server_error"}}"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/ItzCrazyKns/Vane/issues/1011", "llama.cpp", Some(400), NONE,
          r##"request (355724 tokens) exceeds the available context size (262144 tokens), try increasing it"##,
          ContextLength, false, None, (Some(262144), Some(355724), None), TOK, None),
        // The newer wording names no number: they are only in the fields beside it.
        c("github.com/oobabooga/textgen/issues/7257", "llama.cpp", Some(400), NONE,
          r##"{"error":{"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":14429,"n_ctx":8192}}"##,
          ContextLength, false, None, (Some(8192), Some(14429), None), TOK, None),
        c("github.com/ggml-org/llama.cpp/pull/15780", "llama.cpp", Some(500), NONE,
          r##"{"error":{"code":500,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":1407,"n_ctx":256}}"##,
          ContextLength, false, None, (Some(256), Some(1407), None), TOK, None),
        c("github.com/ollama/ollama/issues/15934", "ollama", Some(503), NONE,
          r##"{"error":"Server overloaded, please retry shortly (ref: aaa65c70-cfa0-446b-86f1-4ab0e2deb9e4)"}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/liuw1535/antigravity2api-nodejs/pull/140", "antigravity", Some(503), NONE,
          r##"{ "error": { "code": 503, "message": "No capacity available for model claude-opus-4-5-thinking on the server", "status": "UNAVAILABLE", "details": [ { "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "MODEL_CAPACITY_EXHAUSTED", "domain": "cloudcode-pa.googleapis.com", "metadata": { "model": "claude-opus-4-5-thinking" } } ] } }"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/explyt/explyt/issues/35", "cerebras", Some(429), NONE,
          r##"{"message":"Requests per second limit exceeded - too many requests sent.","type":"too_many_requests_error","param":"quota","code":"request_quota_exceeded"}"##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/sandialabs/atlas-ui-3/issues/111", "cerebras", Some(429), NONE,
          r##"We're experiencing high traffic right now! Please try again soon."##,
          Overloaded, true, None, N3, None, None),
        c("github.com/router-for-me/CLIProxyAPI/issues/4068", "xai", None, NONE,
          r##"You have run out of credits or need a Grok subscription"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/QwenLM/Qwen3/issues/1321", "sglang", Some(400), NONE,
          r##"{"object":"error","message":"The input (61709 tokens) is longer than the model\'s context length (40960 tokens).","type":"BadRequestError","param":null,"code":400}"##,
          ContextLength, false, None, (Some(40960), Some(61709), None), TOK, None),
        c("github.com/vllm-project/vllm/issues/20409", "vllm", Some(400), NONE,
          r##"{'object': 'error', 'message': "This model's maximum context length is 16384 tokens. However, you requested 19591 tokens (9591 in the messages, 10000 in the completion). Please reduce the length of the messages or completion. None", 'type': 'BadRequestError', 'param': None, 'code': 400}"##,
          ContextLength, false, None, (Some(16384), Some(19591), None), TOK, None),
        c("github.com/Gabesarch/grounded-rl/issues/16", "vllm", Some(400), NONE,
          r##"{'object': 'error', 'message': 'The decoder prompt (length 10127) is longer than the maximum model length of 8192. Make sure that `max_model_len` is no smaller than the number of text tokens plus multimodal tokens. For image inputs, the number of image tokens depends on the number of images, and possibly their aspect ratios as well.', 'type': 'BadRequestError', 'param': None, 'code': 400}"##,
          ContextLength, false, None, (Some(8192), Some(10127), None), TOK, None),
        c("github.com/THUDM/LongBench/issues/104", "vllm", Some(400), NONE,
          r##"This model's maximum context length is 131072 tokens. However, you requested 351430 tokens. Please reduce the length of the messages or completion."##,
          ContextLength, false, None, (Some(131072), Some(351430), None), TOK, None),
        c("github.com/huggingface/chat-ui/issues/340", "tgi", Some(422), NONE,
          r##"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 1512. Given: 1000 `inputs` tokens and 1024 `max_new_tokens`"##,
          ContextLength, false, None, (Some(1512), Some(2024), None), TOK, None),
        c("github.com/huggingface/text-generation-inference/issues/628", "tgi", Some(422), NONE,
          r##"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 1244 `inputs` tokens and 1000 `max_new_tokens`"##,
          ContextLength, false, None, (Some(2048), Some(2244), None), TOK, None),
        c("github.com/huggingface/text-generation-inference/issues/695", "tgi", Some(422), NONE,
          r##"Input validation error: `inputs` must have less than 1024 tokens. Given: 1168."##,
          ContextLength, false, None, (Some(1024), Some(1168), None), TOK, None),
        c("github.com/666ghj/BettaFish/issues/258", "moonshot", Some(429), NONE,
          r##"{'error': {'message': 'Your account org-6fa89d3da3e94bdda00f94d3e1124e38<ak-f6638spadmh111g8hzo1> request reached max organization concurrency: 1, please try again after 1 seconds', 'type': 'rate_limit_reached_error'}}"##,
          RateLimitOther, true, Some(1000), (Some(1), None, None), None, None),
        c("github.com/zhukunpenglinyutong/jetbrains-cc-gui/issues/897", "zhipu", Some(429), NONE,
          r##"{"error":{"code":"1302","message":"您的账户已达到速率限制，请您控制请求频率"},"request_id":"2026041314372115099c8b3a024339"}"##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/zhukunpenglinyutong/jetbrains-cc-gui/issues/897", "zhipu", Some(429), NONE,
          r##"{"error":{"code":"1305","message":"该模型当前访问量过大，请您稍后再试"},"request_id":"20260416094124822021dae9564747"}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/kaitranntt/ccs/issues/536", "zhipu", Some(429), NONE,
          r##"{"error":{"code":"1302","message":"Rate limit reached for requests"},"request_id":"20260212064144579f5b8f457f4e06"}"##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/dirge-code/dirge/issues/818", "zhipu", Some(429), NONE,
          r##"{"error":{"code":"1308","message":"已达到 5\n小时的使用上限。您的限额将在 2026-08-25 07:41:44 重置。"}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/MiniMax-AI/MiniMax-M2/issues/119", "minimax", None, NONE,
          r##"invalid params, context window exceeds limit (2013)"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/samanhappy/mcphub/issues/120", "siliconflow", Some(429), NONE,
          r##"Request was rejected due to rate limiting. Details: TPM limit reached."##,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/iflytek/spark-ai-python/issues/39", "spark", None, NONE,
          r##"Error Code: 11202, Error: AppIdQpsOverFlowError"##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/ago19800/HomeMind/issues/29", "groq", Some(429), NONE,
          r##"{'error': {'message': 'Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01kes94v04f9ramd2n1vj4gjnc` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 92498, Requested 10921. Please try again in 49m14.015999999s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing', 'type': 'tokens', 'code': 'rate_limit_exceeded'}}"##,
          RateLimitTokens, true, Some(2954016), (Some(100000), Some(10921), Some(92498)), Some(Dimension::TokensPerDay), DAY),
        c("github.com/diegosouzapw/OmniRoute/issues/3044", "openrouter", Some(400), NONE,
          r##"{
  "error": {
    "message": "Provider returned error",
    "code": 400,
    "metadata": {
      "raw": "{\"error\":{\"type\":\"invalid_request_error\",\"code\":\"invalid_request_error\",\"message\":\"Model 'moonshotai/kimi-k2.6' supports at most 1 image per prompt.\",\"request_id\":\"req_*******\"}}",
      "provider_name": "Crucible",
      "is_byok": false
    }
  },
  "user_id": "user_***************"
}"##,
          Other, false, None, N3, None, None),
        c("github.com/BerriAI/litellm/issues/20615", "litellm", None, NONE,
          r##"Budget has been exceeded! Current cost: 76.16, Max budget: 10.0"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/BerriAI/litellm/pull/7210", "litellm", Some(429), NONE,
          r##"Max parallel request limit reached Hit limit for LiteLLM Virtual Key user_api_key_hash: 375840de19b9b031b9d55a273xxxxxx"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/ago19800/HomeMind/issues/29", "groq", Some(429), NONE,
          r##"{'error': {'message': 'Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01kes94v04f9ramd2n1vj4gjnc` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 2542, Requested 9855. Please try again in 1.984999999s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing', 'type': 'tokens', 'code': 'rate_limit_exceeded'}}"##,
          RateLimitTokens, true, Some(1985), (Some(12000), Some(9855), Some(2542)), TOK, MIN),
        c("developers.cloudflare.com/workers-ai/platform/errors/", "cloudflare-workers-ai", Some(429), NONE,
          r##"No more data centers to forward the request to"##,
          Overloaded, true, None, N3, None, None),
        c("developers.cloudflare.com/workers-ai/platform/errors/", "cloudflare-workers-ai", Some(413), NONE,
          r##"Request is too large"##,
          TooLarge, false, None, N3, None, None),
        c("developers.cloudflare.com/workers-ai/platform/errors/", "cloudflare-workers-ai", Some(408), NONE,
          r##"Request timeout"##,
          Other, true, None, N3, None, None),
        c("developers.cloudflare.com/workers-ai/platform/errors/", "cloudflare-workers-ai", Some(429), NONE,
          r##"You have used up your daily free allocation of 10,000 neurons. Please upgrade to Cloudflare's Workers Paid plan if you would like to continue usage."##,
          QuotaExhausted, false, None, (Some(10000), None, None), None, DAY),
        c("docs.coreweave.com/support/inference/tags/quotas-rate-limits", "coreweave", Some(429), NONE,
          r##"Concurrency limit reached for requests"##,
          RateLimitOther, true, None, N3, None, None),
        c("docs.coreweave.com/support/inference/tags/quotas-rate-limits", "coreweave", Some(402), NONE,
          r##"You exceeded your current quota, please check your plan and billing details"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/NanmiCoder/cc-haha/issues/1208", "kimi-code", Some(403), NONE,
          r##"{"error":{"type":"permission_error","message":"You've reached your usage limit for this billing cycle. Your quota will be refreshed in the next cycle. To continue now, purchase extra usage or upgrade your plan: https://www.kimi.com/code/#pricing"},"type":"error"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/openclaw/openclaw/pull/142656", "kimi-code", Some(403), NONE,
          r##"{"error":{"message":"You've reached your weekly (7-day) usage limit. Your quota will reset when the current 7-day window ends. To continue now, purchase extra usage or upgrade your plan: https://www.kimi.com/membership/subscription?tab=quota","type":"access_terminated_error"}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/pollinations/pollinations/issues/12136", "fireworks", Some(412), NONE,
          r##"{
  "success": false,
  "error": {
    "message": "Image provider error: Fireworks FLUX generation failed: {\"error\":{\"message\":\"Account pollinations is suspended, possibly due to reaching the monthly spending limit or failure to pay past invoices. Please go to https://fireworks.ai/account/billing for more information.\",\"param\":null,\"code\":\"PRECONDITION_FAILED\",\"type\":\"error\"},\"request_id\":\"11650e2f-ff1b-4aac-9719-98006adf7349\"}",
    "code": "UNKNOWN_ERROR",
    "timestamp": "2026-07-01T05:13:34.294Z",
    "details": {
      "name": "UpstreamError",
      "upstreamStatus": 412,
      "upstreamHost": "api.fireworks.ai",
      "upstreamBody": "{\"message\":\"Fireworks FLUX generation failed: {\\\"error\\\":{\\\"message\\\":\\\"Account pollinations is suspended, possibly due to reaching the monthly spending limit or failure to pay past invoices. Please go to https://fireworks.ai/account/billing for more information.\\\",\\\"param\\\":null,\\\"code\\\":\\\"PRECONDITION_FAILED\\\",\\\"type\\\":\\\"error\\\"},\\\"request_id\\\":\\\"11650e2f-ff1b-4aac-9719-98006adf7349\\\"}\"}"
    },
    "cause": {
      "status": 412,
      "upstreamUrl": "https://api.fireworks.ai/inference/v1/workflows/accounts/fireworks/models/flux-1-schnell-fp8/text_to_image",
      "name": "HttpError"
    }
  },
  "status": 412
}"##,
          QuotaExhausted, false, None, N3, None, MONTH),
        c("github.com/jjleng/copilot-more/issues/35", "github-copilot", Some(400), NONE,
          r##"{"error":{"message":"prompt token count of 93854 exceeds the limit of 90000","param":"","code":"","type":""}}"##,
          ContextLength, false, None, (Some(90000), Some(93854), None), TOK, None),
        c("github.com/stackblitz/bolt.new/issues/7422", "anthropic", Some(400), NONE,
          r##"input length and max_tokens exceed context limit: 86888 + 119866 > 204648, decrease input length or max_tokens and try again"##,
          ContextLength, false, None, (Some(204648), Some(206754), None), TOK, None),
        c("github.com/lfnovo/open-notebook/issues/470", "localai", Some(500), NONE,
          r##"{'error': {'code': 500, 'message': 'rpc error: code = Internal desc = request (20652 tokens) exceeds the available context size (8192 tokens), try increasing it', 'type': ''}}"##,
          ContextLength, false, None, (Some(8192), Some(20652), None), TOK, None),
        c("github.com/openakita/openakita/issues/459", "lmstudio", Some(400), NONE,
          r##"{"error":{"code":400,"message":"request (44593 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":44593,"n_ctx":4096}}"##,
          ContextLength, false, None, (Some(4096), Some(44593), None), TOK, None),
        c("github.com/anthropics/claude-code/issues/6368", "anthropic", Some(413), NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"Request size exceeds model context window"},"request_id":"req_011CSPWKXCRRY6RUpJykZ77v"}"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/tech-shrimp/gemini-balance-lite/issues/7", "claude-code-router", Some(429), NONE,
          r##"{"error":{"message":"Error from provider(429): {\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"Resource has been exhausted (e.g. check quota).\",\n    \"status\": \"RESOURCE_EXHAUSTED\"\n  }\n}\nError: Error from provider(429): {\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"Resource has been exhausted (e.g. check quota).\",\n    \"status\": \"RESOURCE_EXHAUSTED\"\n  }\n}\n\n    at bt (C:\\Users\\sophus\\AppData\\Roaming\\npm\\node_modules\\@musistudio\\claude-code-router\\dist\\cli.js:74653:11)\n    at a0 (C:\\Users\\sophus\\AppData\\Roaming\\npm\\node_modules\\@musistudio\\claude-code-router\\dist\\cli.js:74711:11)\n    at process.processTicksAndRejections (node:internal/process/task_queues:105:5)\n    at async o0 (C:\\Users\\sophus\\AppData\\Roaming\\npm\\node_modules\\@musistudio\\claude-code-router\\dist\\cli.js:74678:84)","type":"api_error","code":"provider_response_error"}}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/MoonshotAI/MoonshotAI-Cookbook/issues/16", "moonshot", Some(429), NONE,
          r##"{"error":{"message":"The engine is currently overloaded, please try again later","type":"engine_overloaded_error"}}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/XilyFeAAAA/DoubaoFreeApi/issues/5", "doubao", Some(200), NONE,
          r##"data: {"event_data":"{\"code\":710022002,\"message\":\"block\",\"error_detail\":{\"code\":710022002,\"locale\":\"zh\",\"message\":\"当前服务访问频繁，请稍后重试\"}}","event_id":"0","event_type":2005}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/NVIDIA/nvcf/issues/1690", "nvidia-llm-gateway", Some(429), NONE,
          r##"{"message":"rate limit exceeded"}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/M-China/mcd-mcp-server/issues/4", "envoy", Some(429), NONE,
          r##"local_rate_limited"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/mmz-001/knowledge_gpt/issues/5", "openai", Some(429), NONE,
          r##"Rate limit reached for default-global-with-image-limits in organization org-Yu8pTMWbwQ0jvtsUA1H1py29 on requests per min. Limit: 60.000000 / min. Current: 70.000000 / min. Contact [support@openai.com](mailto:support@openai.com) if you continue to have issues. Please add a payment method to your account to increase your rate limit. Visit https://platform.openai.com/account/billing to add a payment method."##,
          RateLimitRequests, true, None, (Some(60), None, Some(70)), REQ, MIN),
        c("github.com/HacxGPT-Official/HacxGPT-CLI/issues/31", "openrouter", Some(429), NONE,
          r##"{'error': {'message': 'Provider returned error', 'code': 429, 'metadata': {'raw': 'deepseek/deepseek-chat-v3-0324:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations', 'provider_name': 'Chutes'}}, 'user_id': 'user_33jF90V8MuPsx2czsN5fxAmwXnx'}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/earendil-works/pi/issues/6378", "openrouter", Some(400), NONE,
          r##"{"message":"This endpoint's maximum context length is 262000 tokens. However, you requested about 263390 tokens (658 of text input, 732 of tool input, 262000 in the output). Please reduce the length of either one, or use the context-compression plugin to compress your prompt automatically.","code":400,"metadata":{"provider_name":null}}"##,
          ContextLength, false, None, (Some(262000), Some(263390), None), TOK, None),
        c("github.com/cline/cline/issues/13194", "openrouter", Some(400), NONE,
          r##"{"message":"Provider returned error","code":400,"metadata":{"raw":"{\"error\":{\"message\":\"This model's maximum context length is 262144 tokens. However, your messages resulted in 262897 tokens. Please reduce the length of the messages.\",\"type\":\"Bad Request\",\"code\":400}}","provider_name":"Nvidia","is_byok":false,"provider_error_code":"400"}}"##,
          ContextLength, false, None, (Some(262144), Some(262897), None), TOK, None),
        c("github.com/huggingface/agents-course/issues/386", "huggingface", None, NONE,
          r##"You have exceeded your monthly included credits for Inference Providers. Subscribe to PRO to get 20x more monthly included credits."##,
          QuotaExhausted, false, None, N3, None, MONTH),
        c("github.com/philschmid/easyllm/issues/34", "huggingface", Some(429), NONE,
          r##"Model is overloaded"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/vercel/ai/issues/2441", "vertex-ai", Some(429), NONE,
          r##"{"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model with base model: anthropic-claude-3-5-sonnet. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.","status":"RESOURCE_EXHAUSTED"}}"##,
          RateLimitRequests, true, None, N3, REQ, MIN),
        c("github.com/n8n-io/n8n/pull/38642", "databricks", Some(429), NONE,
          r##"REQUEST_LIMIT_EXCEEDED: Exceeded workspace QPS rate limit for databricks-qwen35-122b-a10b. Please use a provisioned throughput Foundation Model APIs endpoint for a higher rate limit."##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/vercel/ai/issues/2698", "openrouter", Some(200), NONE,
          r##"{"error":{"message":"{\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"Resource has been exhausted (e.g. check quota).\",\n    \"status\": \"RESOURCE_EXHAUSTED\"\n  }\n}\n","code":429}}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/continuedev/continue/issues/11359", "openrouter", Some(429), NONE,
          r##"429 Provider returned error"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/musistudio/claude-code-router/issues/731", "sambanova", Some(500), NONE,
          r##"Something went wrong! Unknown error when running prediction service."##,
          Other, true, None, N3, None, None),
        c("github.com/continuedev/continue/issues/10974", "ollama", Some(500), NONE,
          r##""Internal Server Error""##,
          Other, true, None, N3, None, None),
        c("github.com/anthropics/anthropic-sdk-python/issues/1028", "vertex-ai", Some(413), NONE,
          r##"{'type': 'error', 'error': {'type': 'invalid_request_error', 'message': 'Prompt is too long'}, 'request_id': 'req_vrtx_...'}"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/google-gemini/gemini-cli/issues/13776", "gemini", Some(413), NONE,
          r##"{"error":{"message":"Maximum request body size 1048576 exceeded, actual body size 1056562","code":413,"status":"Request Entity Too Large"}}"##,
          TooLarge, false, None, (Some(1048576), Some(1056562), None), None, None),
        c("github.com/googleapis/js-genai/issues/1391", "vertex-ai", Some(400), NONE,
          r##"{"error":{"code":400,"message":"The file size of `gs://data/abc/image.png` is 47688287, which exceeds max allowed file size of 31457280 for `image/png` files. Reduce the file size by lowering the image resolution, splitting the PDF into multiple files, and so on.","status":"INVALID_ARGUMENT"}}"##,
          TooLarge, false, None, (Some(31457280), Some(47688287), None), None, None),
        c("github.com/google-gemini/deprecated-generative-ai-android/issues/26", "gemini", Some(400), NONE,
          r##"Request payload size exceeds the limit: 4194304 bytes."##,
          TooLarge, false, None, (Some(4194304), None, None), None, None),
        c("github.com/daisuke-awaji/moca/issues/254", "bedrock", Some(400), NONE,
          r##"The model returned the following errors: prompt is too long: 200049 tokens > 200000 maximum"##,
          ContextLength, false, None, (Some(200000), Some(200049), None), TOK, None),
        c("github.com/entropy-research/Devon/issues/88", "anthropic", Some(400), NONE,
          r##"litellm.BadRequestError: litellm.ContextWindowExceededError: AnthropicError - {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 209353 tokens > 199999 maximum"}}"##,
          ContextLength, false, None, (Some(199999), Some(209353), None), TOK, None),
        c("github.com/openai/codex/issues/43337", "openai", Some(200), &[("server", "cloudflare")],
          r##"event: response.created
event: response.in_progress
event: error
data: {"type":"error","error":{"type":"service_unavailable_error","code":"server_is_overloaded","message":"Our servers are currently overloaded. Please try again later.","param":null},"sequence_number":2}
event: response.failed"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/nminaya/grammar-nazi-bot/issues/931", "groq", Some(503), NONE,
          r##"upstream connect error or disconnect/reset before headers. reset reason: overflow"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/badrisnarayanan/antigravity-claude-proxy/issues/197", "antigravity", Some(503), NONE,
          r##"{
  "error": {
    "code": 503,
    "message": "No capacity available for model gemini-3-pro-high on the server",
    "status": "UNAVAILABLE",
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "MODEL_CAPACITY_EXHAUSTED",
        "domain": "cloudcode-pa.googleapis.com",
        "metadata": {
          "model": "gemini-3-pro-high"
        }
      },
      {
        "@type": "type.googleapis.com/google.rpc.RetryInfo",
        "retryDelay": "40s"
      }
    ]
  }
}"##,
          Overloaded, true, Some(40000), N3, None, None),
        c("github.com/cline/cline/issues/4826", "xai", Some(429), NONE,
          r##""Too many tokens for team e9fe19cb-de96-4c57-9ffb-2f1b9c631ce2 and model grok-4-0709. Your team's rate limit is — Tokens per Minute (actual/limit): 65605/16000. You can view your team rate limits at https://console.x.ai.""##,
          RateLimitTokens, true, None, (Some(16000), None, Some(65605)), TOK, MIN),
        c("github.com/diegosouzapw/OmniRoute/issues/7638", "mistral", Some(401), NONE,
          r##"{"detail":"Unauthorized"}"##,
          Other, false, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/37943", "anthropic", Some(429), NONE,
          r##"{"type":"error","error":{"type":"rate_limit_error","message":"Extra usage is required for long context requests."},"request_id":"req_011CZLZ9vwX8NqcFKMUJhEKJ"}"##,
          QuotaExhausted, false, None, N3, None, None),
        // ---------------------------------------------------------------- a fourth public collection (issue 30): 29 providers and gateways
        c("github.com/google-gemini/gemini-cli/issues/4231", "gemini", Some(400), NONE,
          r##"{"error":{"message":"{\n  \"error\": {\n    \"code\": 400,\n    \"message\": \"The input token count (3475108) exceeds the maximum number of tokens allowed (1048576).\",\n    \"status\": \"INVALID_ARGUMENT\"\n  }\n}\n","code":400,"status":"Bad Request"}}"##,
          ContextLength, false, None, (Some(1048576), Some(3475108), None), TOK, None),
        c("github.com/google-gemini/gemini-cli/issues/6678", "gemini", Some(400), NONE,
          r##"[{
    "error": {
      "code": 400,
      "message": "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).",
      "errors": [
        {
          "message": "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).",
          "domain": "global",
          "reason": "badRequest"
        }
      ],
      "status": "INVALID_ARGUMENT"
    }
  }
  ]"##,
          ContextLength, false, None, (Some(1048576), Some(1200293), None), TOK, None),
        c("github.com/googleapis/python-genai/issues/2466", "vertex-ai", Some(400), NONE,
          r##"google.genai.errors.ClientError: 400 INVALID_ARGUMENT. {'error': {'code': 400, 'message': 'The input token count (81881) exceeds the maximum number of tokens allowed (65536).', 'status': 'INVALID_ARGUMENT'}}"##,
          ContextLength, false, None, (Some(65536), Some(81881), None), TOK, None),
        c("github.com/oficcejo/aiagents-stock/issues/33", "deepseek", Some(402), NONE,
          r##"Error code: 402 - {'error': {'message': 'Insufficient Balance', 'type': 'unknown_error', 'param': None, 'code': 'invalid_request_error'}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Wei-Shaw/sub2api/issues/890", "sub2api", Some(403), NONE,
          r##"{"code":"INSUFFICIENT_BALANCE","message":"Insufficient account balance"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/microsoft/copilot-intellij-feedback/issues/94", "github-copilot", Some(400), NONE,
          r##"{"error":{"message":"prompt token count of 138898 exceeds the limit of 64000","code":"model_max_prompt_tokens_exceeded"}}"##,
          ContextLength, false, None, (Some(64000), Some(138898), None), TOK, None),
        c("github.com/microsoft/vscode/issues/293419", "github-copilot", Some(400), NONE,
          r##"CAPIError: 400 prompt token count of 184399 exceeds the limit of 128000"##,
          ContextLength, false, None, (Some(128000), Some(184399), None), TOK, None),
        c("github.com/james-6-23/codex2api/issues/415", "openai", None, NONE,
          r##"context_length_exceeded · invalid_request_error · Your input exceeds the context window of this model. Please adjust your input and try again."##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/BerriAI/litellm/issues/4208", "litellm", Some(400), NONE,
          r##"{"error":{"message":"Budget has been exceeded! Current cost: 0.0010747, Max budget: 0.0","type":"auth_error","param":null,"code":400}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/BerriAI/litellm/issues/14144", "litellm", Some(429), NONE,
          r##"Error fetching response:Error: 429 No deployments available - crossed budget: Exceeded budget for deployment model_name: xxx, litellm_params.model: xxx, model_id: xxx: 0.36300000000000004 >= 1d"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/microsoft/agent-lightning/issues/290", "litellm", None, NONE,
          r##"No deployments available for selected model, Try again in 5 seconds. Passed model=Qwen/Qwen2.5-0.5B-Instruct. pre-call-checks=False, cooldown_list=['3dfdf3fc7bce8b4337b0c174251a6cff311d9f85b7afb2d3214bdbdfecd3b907']"##,
          RateLimitOther, true, Some(5000), N3, None, None),
        c("github.com/Gitlawb/openclaude/issues/1489", "opengateway", Some(402), NONE,
          r##"{"error":{"message":"Insufficient credits — top up your balance at https://gitlawb.com/opengateway/credits","type":"insufficient_quota","code":"insufficient_credits"}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/opencodeschool/opencode.school/issues/211", "replicate", Some(402), NONE,
          r##"{"title":"Insufficient credit","detail":"You have insufficient credit to run this model. Go to https://replicate.com/account/billing#billing to purchase credit."}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/osaurus-ai/osaurus/issues/2431", "venice", Some(402), NONE,
          r##"{"error":"Insufficient USD or Diem balance to complete request. Visit https://venice.ai/settings/api to add credits."}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/continuedev/continue/issues/12649", "openrouter", Some(402), NONE,
          r##"402 Insufficient credits. This account never purchased credits. Make sure your key is on the correct account or org, and if so, purchase more at https://openrouter.ai/settings/credits"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/assafelovic/gpt-researcher/issues/1148", "voyage", Some(429), NONE,
          r##"voyageai.error.RateLimitError: You have not yet added your payment method in the billing page and will have reduced rate limits of 3 RPM and 10K TPM.  Please add your payment method in the billing page (https://dash.voyageai.com/billing/payment-methods) to unlock our standard rate limits (https://docs.voyageai.com/docs/rate-limits).  Even with payment methods entered, the free tokens (200M tokens for Voyage series 3) will still apply. See our pricing docs (https://docs.voyageai.com/docs/pricing) for the free tokens for your model."##,
          RateLimitOther, true, None, (Some(3), None, None), None, MIN),
        c("github.com/coderabbitai/ai-pr-reviewer/issues/451", "openai", Some(429), NONE,
          r##"{
    "error": {
        "message": "Rate limit reached for default-gpt-3.5-turbo in organization org-tWLJpza6PfFNRXgGrT00shKI on tokens per min. Limit: 60000 / min. Please try again in 1ms. Contact us through our help center at help.openai.com if you continue to have issues.",
        "type": "tokens",
        "param": null,
        "code": "rate_limit_exceeded"
    }
}"##,
          RateLimitTokens, true, Some(1), (Some(60000), None, None), TOK, MIN),
        c("github.com/NousResearch/hermes-agent/pull/68832", "ollama", Some(429), NONE,
          r##"you (seppe) have reached your weekly usage limit, upgrade for higher limits: https://ollama.com/upgrade or add extra usage: https://ollama.com/settings (ref: ...)"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/HomericIntelligence/Scylla/issues/346", "ollama", Some(429), NONE,
          r##"Rate limit exceeded: 429 Too Many Requests: you've reached your weekly usage limit, please wait or upgrade to continue"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/QwenLM/qwen-code/issues/98", "dashscope", Some(400), NONE,
          r##"OpenAI API error: 400 <400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 204800]"##,
          ContextLength, false, None, (Some(204800), None, None), TOK, None),
        c("github.com/QwenLM/qwen-code/issues/2068", "dashscope", Some(400), NONE,
          r##"Error: Internal error (code: -32603)
Data: {“details”:“<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 983616]”}"##,
          ContextLength, false, None, (Some(983616), None, None), TOK, None),
        c("github.com/agentscope-ai/QwenPaw/issues/6255", "dashscope", Some(400), NONE,
          r##"Error code: 400 - {'error': {'code': 'invalid_parameter_error', 'message': '<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 983616]', 'param': None, 'type': 'invalid_request_error'}, 'request_id': '81a373d6-28bd-9968-8335-e22a2127c41b'}"##,
          ContextLength, false, None, (Some(983616), None, None), TOK, None),
        c("github.com/esengine/DeepSeek-Reasonix/issues/9696", "volcengine", Some(400), NONE,
          r##"Malformed request (HTTP 400): the request body was rejected. This is likely a bug — please report it if it persists. Input length 1048826 exceeds the maximum length 1048566. Request id: 021788256632854add9fca5277b8939d33af9a0f1789d6cf09b11"##,
          ContextLength, false, None, (Some(1048566), Some(1048826), None), TOK, None),
        c("github.com/arkavo-org/arkavo-edge/issues/371", "gemini", Some(400), NONE,
          r##"{
  "error": {
    "code": 400,
    "message": "The input token count exceeds the maximum number of tokens allowed (1048576).",
    "status": "INVALID_ARGUMENT"
  }
}"##,
          ContextLength, false, None, (Some(1048576), None, None), TOK, None),
        c("github.com/OpenHands/OpenHands/pull/9252", "sambanova", Some(400), NONE,
          r##"BadRequestError: litellm.BadRequestError: SambanovaException - The maximum context length of DeepSeek-V3-0324 is 32768. However, answering your request will take 39732 tokens. Please reduce the length of the messages or the specified max_completion_tokens value."##,
          ContextLength, false, None, (Some(32768), Some(39732), None), TOK, None),
        c("github.com/forcedotcom/Einstein-GPT-for-Developers/issues/228", "salesforce-einstein", None, NONE,
          r##"Request input tokens exceed model token limit. Reduce the input size."##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/anomalyco/opencode/issues/25458", "opencode-go", Some(429), NONE,
          r##"{
  "error": {
    "message": "Error from provider: Provider returned error",
    "code": 429,
    "metadata": {
      "raw": "{\"error\":{\"message\":\"Your account org-446a70bb2cc542e3960c0b7f05e4e0e1 <ak-f817m9q3k3wi11gjwbgi> is suspended due to insufficient balance, please recharge your account or check your plan and billing details\",\"type\":\"exceeded_current_quota_error\"}}",
      "provider_name": "Moonshot AI",
      "is_byok": true
    }
  }
}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anomalyco/opencode/issues/27593", "opencode-go", Some(402), NONE,
          r##""{\"error\":{\"message\":\"Insufficient Balance\",\"type\":\"unknown_error\",\"param\":null,\"code\":\"invalid_request_error\"}}""##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/earendil-works/pi/pull/1458", "azure-openai", Some(200), NONE,
          r##"{
  "type": "response.failed",
  "response": {
    "status": "failed",
    "error": {
      "code": "rate_limit_exceeded",
      "message": "Requests to the ... Operation have exceeded token rate limit ..."
    }
  }
}"##,
          RateLimitTokens, true, None, N3, TOK, None),
        c("github.com/pomerium/mcp-app-demo/issues/156", "openai", None, NONE,
          r##"Error during streamed response: APIError: Rate limit reached for o3-deep-research in organization org-REDACTED on tokens per min (TPM): Limit 450000, Used 379102, Requested 89741. Please try again in 2.512s. Visit https://platform.openai.com/account/rate-limits to learn more."##,
          RateLimitTokens, true, Some(2512), (Some(450000), Some(89741), Some(379102)), TOK, MIN),
        c("github.com/davidmigloz/ai_clients_dart/issues/85", "bedrock", Some(200), NONE,
          r##"data: {
  "object": "chat.completion",
  "error": {
    "error": "Too many tokens, please wait before trying again. (Service: BedrockRuntime, Status Code: 429, Request ID: e19c3839-1a0f-4e00-88ca-bbfb1989bc71)",
    "error_code": 4001
  }
}"##,
          RateLimitTokens, true, None, N3, TOK, None),
        c("github.com/BerriAI/litellm/issues/29223", "openai", Some(200), NONE,
          r##"type=<ResponsesAPIStreamEvents.RESPONSE_FAILED: 'response.failed'> response=ResponsesAPIResponse(id='resp_bGl0ZWxsbTpjdXN0b21fbGxtX3Byb3ZpZGVyOm9wZW5haTttb2RlbF9pZDpOb25lO3Jlc3BvbnNlX2lkOnJlc3BfMDNlYmFhMzk3N2I0NmY2ZjAwNmExODhjOGIyZDQ4ODE5ZmI2NzVjN2QzMzE3ZTIyNWE=', created_at=1779993739, error={'code': 'context_length_exceeded', 'message': 'Your input exceeds the context window of this model. Please adjust your input and try again.'}, incomplete_details=None, instructions=None, metadata={}, model='gpt-5.4-mini-2026-03-17', object='response', output=[], parallel_tool_calls=True, temperature=1.0, tool_choice='auto', tools=[], top_p=0.98, max_output_tokens=None, previous_response_id=None, reasoning={'context': 'current_turn', 'effort': 'none', 'summary': None}, status='failed', "##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/MCPJam/inspector/issues/1287", "openrouter", None, NONE,
          r##"{"ok":false,"error":"Key limit exceeded (total limit). Manage it using https://openrouter.ai/settings/keys"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/RooCodeInc/Roo-Code/issues/515", "openrouter", Some(403), NONE,
          r##"403 Key limit exceeded. Manage it using https://openrouter.ai/keys"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Lapis0x0/obsidian-yolo/issues/297", "azure-openai", Some(200), NONE,
          r##"{
    "error": {
        "message": "HTTP 429: {\"error\":{\"code\":\"RateLimitReached\",\"message\": \"Your requests to text-embedding-3-small for text-embedding-3-small in East US 2 have exceeded the call rate limit for your current AIServices S0 pricing tier. This request was for Embeddings_Create under Azure OpenAI API version 2024-12-01-preview. Please retry after 2 seconds. To increase your default rate limit, visit: https://aka.ms/oai/quotaincrease.\"}}",
        "code": 429
    }
}"##,
          RateLimitRequests, true, Some(2000), N3, REQ, None),
        c("github.com/microsoft/foundry-dev-tools/issues/222", "github-models", Some(429), NONE,
          r##"{"error":{"code":"RateLimitReached","message":"Rate limit of 40000 per 60s exceeded for UserByModelByMinuteTokens. Please wait 60 seconds before retrying.","details":"Rate limit of 40000 per 60s exceeded for UserByModelByMinuteTokens. Please wait 60 seconds before retrying."}}"##,
          RateLimitTokens, true, Some(60000), (Some(40000), None, None), TOK, MIN),
        c("github.com/github/copilot-cli/issues/2696", "github-copilot", Some(429), NONE,
          r##"Sorry, you've hit a rate limit that restricts the number of Copilot model requests you can make within a specific time period. Please try again in 58 hours. Please review our Terms of Service (https://docs.github.com/site-policy/github-terms/github-terms-of-service). (Request ID: E942:3A5438:35DBCE:3F8F3D:69DD984"##,
          RateLimitRequests, true, Some(208800000), N3, REQ, None),
        c("github.com/microsoft/vscode-copilot-release/issues/5795", "github-copilot", None, NONE,
          r##"Sorry, you have been rate-limited. Please wait a moment before trying again. Learn More

Server Error: Sorry, you have exceeded your Copilot token usage. Please review our Terms of Service. Error Code: rate_limited"##,
          RateLimitTokens, true, None, N3, TOK, None),
        c("github.com/microsoft/vscode-copilot-release/issues/3519", "github-copilot", None, NONE,
          r##"Sorry, your request was rate-limited. Please wait 10 hours 58 minutes before trying again."##,
          RateLimitOther, true, Some(39480000), N3, None, None),
        c("github.com/continuedev/continue/issues/9797", "llama.cpp", Some(400), NONE,
          r##"400 the request exceeds the available context size, try increasing it"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/dfinke/PowerShellAI/issues/127", "openai", Some(400), NONE,
          r##"{   "error": {     "code": "billing_hard_limit_reached",     "message": "Billing hard limit has been reached",     "param": null,     "type": "invalid_request_error"   } }"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/fedora-copr/logdetective-website/pull/193", "llama-cpp-python", None, NONE,
          r##"Exception: Requested tokens (2285) exceed context window of 2048"##,
          ContextLength, false, None, (Some(2048), Some(2285), None), TOK, None),
        c("github.com/RhythmicWave/NovelForge/issues/136", "siliconflow", None, NONE,
          r##"'number of input tokens (167594) has exceeded max_prompt_tokens (163840) limit.', 'data': None}"##,
          ContextLength, false, None, (Some(163840), Some(167594), None), TOK, None),
        c("github.com/bespokelabsai/curator/issues/205", "together", Some(429), NONE,
          r##"litellm.RateLimitError: RateLimitError: Together_aiException - Error code: 429 - {'error': {'message': 'Request was rejected due to request rate limiting. Your rate limits are 600 RPM (10 QPS) and 180000 TPM (3000 TPS). See details: https://docs.together.ai/docs/rate-limits', 'type': 'credit_limit', 'param': None, 'code': None}}"##,
          RateLimitOther, true, None, N3, None, MIN),
        c("github.com/anthropics/anthropic-sdk-typescript/issues/346", "vertex-ai", Some(200), NONE,
          r##"Error: SSE Error: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"} }"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/onlybooks/llm/issues/6", "openai", Some(429), NONE,
          r##"{'message': 'Rate limit reached for gpt-4-turbo-preview in organization org------------------------------- on requests per day (RPD): Limit 200, Used 200, Requested 1. Please try again in 7m12s. Visit https://platform.openai.com/account/rate-limits to learn more. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.', 'type': 'requests', 'param': None, 'code': 'rate_limit_exceeded'}"##,
          RateLimitRequests, true, Some(432000), (Some(200), Some(1), Some(200)), Some(Dimension::RequestsPerDay), DAY),
        c("github.com/phodal/auto-dev/issues/21", "openai", Some(429), NONE,
          r##"com.theokanning.openai.OpenAiHttpException: Rate limit reached for default-gpt-3.5-turbo in organization org-lpTV8JA1Fonfq3PljHSxtabv on requests per min. Limit: 3 / min. Please try again in 20s. Contact us through our help center at help.openai.com if you continue to have issues. Please add a payment method to your account to increase your rate limit. Visit https://platform.openai.com/account/billing to add a payment method."##,
          RateLimitRequests, true, Some(20000), (Some(3), None, None), REQ, MIN),
        c("github.com/ValueCell-ai/ClawX/issues/658", "omlx", Some(400), NONE,
          r##"400 Prompt too long: 41911 tokens exceeds max context window of 32768 tokens"##,
          ContextLength, false, None, (Some(32768), Some(41911), None), TOK, None),
        c("github.com/deepseek-ai/DeepSeek-V3/issues/552", "deepseek", None, NONE,
          r##"The server is busy. Please try again later."##,
          Overloaded, true, None, N3, None, None),
        // ---------------------------------------------------------------- a fifth public collection (issue 30): caps and context errors in many wordings
        c("github.com/langflow-ai/openrag/issues/615", "watsonx", Some(429), NONE,
          r##"{"errors":[{"code":"rate_limit_reached_requests","message":"Rate limit of 2 requests per 1s was reached for instance id 857f0e97-5fe1-43c4-94db-962104f71b70 (user IBMid-6910011FLG, plan 3f6acf43-ede8-413a-ac69-f8af3bb0cbfe)","more_info":"https://cloud.ibm.com/apidocs/watsonx-ai#text-embeddings"}],"trace":"d58f7270765ecdbf232d530e810e3d3b","status_code":429}"##,
          RateLimitRequests, true, None, (Some(2), None, None), REQ, None),
        c("github.com/Gitlawb/openclaude/issues/1125", "openrouter", Some(402), NONE,
          r##"{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 32000 tokens, but can only afford 27342. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account","code":402,"metadata":{"provider_name":null}},"user_id":"user_XXXXXXXX"}"##,
          QuotaExhausted, false, None, (Some(27342), Some(32000), None), Some(Dimension::OutputTokens), None),
        c("github.com/continuedev/continue/issues/10298", "openrouter", Some(402), NONE,
          r##"402 This request requires more credits, or fewer max_tokens. You requested up to 4096 tokens, but can only afford 4000. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account"##,
          QuotaExhausted, false, None, (Some(4000), Some(4096), None), Some(Dimension::OutputTokens), None),
        c("github.com/continuedev/continue/issues/11579", "litellm", Some(400), NONE,
          r##"400 ExceededBudget: User=486535c5-8027-4fc4-bee6-21b19cfbd1aa over budget. Spend=10.63354472, Budget=10.0"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/forpublicai/chat.publicai.co/issues/46", "litellm", None, NONE,
          r##"litellm.BadRequestError: OpenAIException - Budget has been exceeded!"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/continuedev/continue/issues/9853", "deepseek", Some(402), NONE,
          r##"402 Insufficient Balance"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/ranxianglei/billion-context-pi/issues/169", "bedrock", None, NONE,
          r##"{"message":"Too many tokens, please wait before trying again."}"##,
          RateLimitTokens, true, None, N3, TOK, None),
        c("github.com/DmitryKatson/bc-code-interpreter/issues/2", "azure-openai", None, NONE,
          r##"Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-02-01 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 60 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit. For Free Account customers, upgrade to Pay as you Go here: https://aka.ms/429TrialUpgrade."##,
          RateLimitTokens, true, Some(60000), N3, TOK, None),
        c("github.com/askimo-ai/askimo/issues/277", "anthropic", None, NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."},"request_id":"req_011CZD3mDb69Z9r51roH2oy4"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/2127", "anthropic", Some(400), NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"You have reached your specified API usage limits. You will regain access on 2025-07-01 at 00:00 UTC."}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/64982", "anthropic", Some(429), NONE,
          r##"{"type":"error","error":{"type":"rate_limit_error","message":"Usage credits are required for long context requests."},"request_id":"req_011Cbfu5Y9YjjLTXtuBBRj6B"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/39948", "anthropic", Some(429), NONE,
          r##"{"type":"error","error":{"type":"rate_limit_error","message":"Extra usage is required for long context requests."},"request_id":"req_011CZTxMdaHqLNSHtJGUM7mh"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/ayaka14732/ChatGPTAPIFree/issues/16", "openai", None, NONE,
          r##"{
    "error": {
        "message": "You exceeded your current quota, please check your plan and billing details.",
        "type": "insufficient_quota",
        "param": null,
        "code": null
    }
}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/ChatGPTNextWeb/NextChat/issues/3664", "openai", None, NONE,
          r##"{
  "error": {
    "message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
    "type": "insufficient_quota",
    "param": null,
    "code": "insufficient_quota"
  }
}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/HeyPuter/puter/issues/1977", "puter", None, NONE,
          r##"Object { success: false, error: "429 You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors." }"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Center-for-AI-Innovation/ai-ta-backend/issues/67", "openai", None, NONE,
          r##"{'message': 'You exceeded your current quota, please check your plan and billing details.', 'type': 'insufficient_quota', 'param': None, 'code': 'insufficient_quota'}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/hyunhwan-bcm/MARRVEL_MCP/issues/225", "bedrock", None, NONE,
          r##"An error occurred (ThrottlingException) when calling the InvokeModel operation (reached max retries: 4): Too many tokens, please wait before trying again."##,
          RateLimitTokens, true, None, N3, TOK, None),
        c("github.com/ardanlabs/kronk/issues/862", "kronk", Some(200), &[("content-type", "text/event-stream")],
          r##"data: {"error":{"code":"server_error","message":"start-slot: imc decode: imc: failed to decode extension tokens at pos 16384: unable to process request: the context window is full. Please reduce the input size or increase the context window","type":"server_error"}}"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/tashfeenahmed/freellmapi/issues/426", "github-models", Some(413), NONE,
          r##"GitHub Models API error 413: Request body too large for gpt-4.1 model. Max size: 8000 tokens."##,
          TooLarge, false, None, (Some(8000), None, None), None, None),
        c("github.com/cohere-ai/sandbox-topically/issues/4", "cohere", None, NONE,
          r##"CohereError: too many tokens: total number of tokens (prompt and prediction) cannot exceed 2048 - received 6354. Try using a shorter prompt or a smaller max_tokens value."##,
          ContextLength, false, None, (Some(2048), Some(6354), None), TOK, None),
        c("github.com/huggingface/chat-ui/issues/327", "huggingface", None, NONE,
          r##"Input validation error: `inputs` tokens + `max_new_tokens`  must be <= 1512. Given: 603 `inputs tokens and 1024 `max_new_tokens"##,
          ContextLength, false, None, (Some(1512), Some(1627), None), TOK, None),
        c("github.com/h2oai/h2ogpt/issues/373", "tgi", None, NONE,
          r##"Input validation error: `inputs` must have less than 2048 tokens. Given: 2222"##,
          ContextLength, false, None, (Some(2048), Some(2222), None), TOK, None),
        c("github.com/diffbot/code-gpt-docs/issues/284", "openai", Some(400), NONE,
          r##"400 max_tokens is too large: 6000. This model supports at most 4096 completion tokens, whereas you provided 6000."##,
          ContextLength, false, None, (Some(4096), Some(6000), None), TOK, None),
        c("github.com/anthropics/claude-code/issues/24451", "anthropic", Some(400), NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 128001 > 64000, which is the maximum allowed number of output tokens for claude-opus-4-5-20251101"},"request_id":"req_011CXxg3eqF8ZMvqtkKHNjKQ"}"##,
          ContextLength, false, None, (Some(64000), Some(128001), None), TOK, None),
        c("github.com/chathub-dev/chathub/issues/1222", "anthropic", Some(400), NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 32000 > 4096, which is the maximum allowed number of output tokens for claude-3-opus-20240229"}}"##,
          ContextLength, false, None, (Some(4096), Some(32000), None), TOK, None),
        c("github.com/vercel/ai/issues/2772", "bedrock", Some(400), NONE,
          r##"ValidationException: The maximum tokens you requested exceeds the model limit of 4096. Try again with a maximum tokens value that is lower than 4096."##,
          ContextLength, false, None, (Some(4096), None, None), TOK, None),
        c("github.com/charmbracelet/crush/issues/946", "bedrock", Some(400), NONE,
          r##"{"message":"The maximum tokens you requested exceeds the model limit of 32768"}"##,
          ContextLength, false, None, (Some(32768), None, None), TOK, None),
        c("github.com/Backtthefuture/chatlogwebUI/issues/7", "deepseek", Some(400), NONE,
          r##"{"error":{"message":"Invalid max_tokens value, the valid range of max_tokens is [1, 8192]","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}"##,
          ContextLength, false, None, (Some(8192), None, None), TOK, None),
        c("github.com/open-webui/open-webui/issues/10507", "dashscope", Some(400), NONE,
          r##"400: <400> InternalError.Algo.InvalidParameter: Range of max_tokens should be [1, 8192]"##,
          ContextLength, false, None, (Some(8192), None, None), TOK, None),
        c("github.com/yiliqi78/TOKENICODE/issues/3", "volcengine", Some(400), NONE,
          r##"{"error":{"code":"InvalidParameter","message":"The parameter max_tokens specified in the request is not valid: integer above maximum value, expected a value <= 32768, but got 64000 instead. Request id: 0217724325966514087c9e55f8b322b82cd17f72450d06e16ef7b","param":"max_tokens","type":"BadRequest"}}"##,
          ContextLength, false, None, (Some(32768), Some(64000), None), TOK, None),
        c("github.com/anomalyco/opencode/issues/1000", "groq", Some(400), NONE,
          r##"{"error":{"message":"`max_tokens` must be less than or equal to `16384`, the maximum value for `max_tokens` is less than the `context_window` for this model","type":"invalid_request_error"}}"##,
          ContextLength, false, None, (Some(16384), None, None), TOK, None),
        c("github.com/anthropics/claude-code/issues/11281", "anthropic", Some(400), NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 201130 tokens > 200000 maximum"},"request_id":"req_011CUxvgPsLcjkyzm6NHj17F"}"##,
          ContextLength, false, None, (Some(200000), Some(201130), None), TOK, None),
        c("github.com/QuantumNous/new-api/issues/6929", "new-api", Some(403), NONE,
          r##"unexpected status 403 Forbidden: CC Switch local proxy failed while handling Codex endpoint /responses. Provider: DeepSeek; model: glm-5.1; upstream_status: HTTP 403; cause: 用户额度不足, 剩余额度: ＄-0.000002 (request id: 202608190933135792535838268d9d6rhgZmzsh), url: http://127.0.0.1:15721/v1/responses"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/millylee/anyrouter-check-in/issues/2", "new-api", Some(403), NONE,
          r##"{"error":{"type":"new_api_error","message":"token quota is not enough, token remain quota: ＄0.142328, need quota: ＄0.161646 (request id: 20250712160654132580247NFrnt4gU)"},"type":"error"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/songquanpeng/one-api/issues/1270", "one-api", Some(403), NONE,
          r##"{Error:{Message:user quota is not enough Type:one_api_error Param: Code:insufficient_user_quota} StatusCode:403}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/GaiZhenbiao/ChuanhuChatGPT/issues/792", "openai", None, NONE,
          r##"Exception: {    "error": {        "message": "You exceeded your current quota, please check your plan and billing details.",        "type": "insufficient_quota",        "param": null,        "code": null    }}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/songquanpeng/one-api/issues/468", "one-api", Some(400), NONE,
          r##"{"error":{"message":"This model's maximum context length is 4097 tokens, however you requested 4179 tokens (3965 in your prompt; 214 for the completion). Please reduce your prompt; or completion length.","type":"invalid_request_error","param":"","code":null}}"##,
          ContextLength, false, None, (Some(4097), Some(4179), None), TOK, None),
        c("github.com/gptme/gptme/issues/1449", "openrouter", Some(403), NONE,
          r##"Error code: 403 - {'error': {'message': 'Key limit exceeded (monthly limit). Manage it using https://openrouter.ai/settings/keys', 'code': 403}}"##,
          QuotaExhausted, false, None, N3, None, MONTH),
        c("github.com/danielsmithdevelopment/ClawQL/pull/876", "openrouter", Some(403), NONE,
          r##"Key limit exceeded (total limit)"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/kuangquanshuisn/blink2api/issues/1", "vercel-ai-gateway", Some(402), NONE,
          r##"{
    "error": {
        "message": "blink.new API error 402: {\"error\":{\"message\":\"Insufficient funds. Please add credits to your account to continue using AI services. Visit https://vercel.com/d?to=%2F%5Bteam%5D%2F%7E%2Fai%3Fmodal%3Dtop-up to top up your credits.\",\"type\":\"insufficient_funds\"}}",
        "type": "api_error"
    }
}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/hassanmsthf11/unlimited-claude-AI/issues/22", "openrouter", Some(402), NONE,
          r##""error": "402 Insufficient credits. Add more using https://openrouter.ai/settings/credits""##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Gitlawb/openclaude/issues/43", "openrouter", Some(402), NONE,
          r##"{"error":{"message":"Insufficient credits. This account never purchased credits. Make sure your key is on the correct account or org, and if so, purchase more at https://openrouter.ai/settings/credits","code":402}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Gitlawb/openclaude/issues/1528", "opengateway", Some(402), NONE,
          r##"{"error":{"message":"Insufficient credits — top up your balance at https://gitlawb.com/opengateway/credits","type":"insufficient_quota","code":"insufficient_credits"}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Azure-Samples/graphrag-accelerator/issues/129", "azure-openai", Some(429), NONE,
          r##"Error code: 429 - {'error': {'code': '429', 'message': 'Rate limit is exceeded. Try again in 50 seconds.'}}"##,
          RateLimitOther, true, Some(50000), N3, None, None),
        c("github.com/get-engram/engram/issues/34", "cloudflare-workers-ai", None, NONE,
          r##"4006: you have used up your daily free allocation of 10,000 neurons"##,
          QuotaExhausted, false, None, (Some(10000), None, None), None, DAY),
        c("github.com/openai/openai-agents-js/issues/1022", "openai", Some(429), NONE,
          r##"Rate limit reached for gpt-4o-mini-realtime in organization org-xx on requests per day (RPD): Limit 1000, Used 1000, Requested 1. Please try again in 1m26.4s. Visit https://platform.openai.com/account/rate-limits to learn more."##,
          RateLimitRequests, true, Some(86400), (Some(1000), Some(1), Some(1000)), Some(Dimension::RequestsPerDay), DAY),
        c("github.com/simonw/llm/issues/494", "openai", Some(429), NONE,
          r##"Error code: 429 - {'error': {'message': 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.', 'type': 'insufficient_quota', 'param': None, 'code': 'insufficient_quota'}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/lbjlaq/Antigravity-Manager/issues/2294", "antigravity", Some(503), &[("Content-Type", "text/event-stream"), ("Server", "ESF")],
          r##"{
  "error": {
    "code": 503,
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "domain": "cloudcode-pa.googleapis.com",
        "metadata": {
          "model": "claude-opus-4-6-thinking"
        },
        "reason": "MODEL_CAPACITY_EXHAUSTED"
      }
    ],
    "message": "No capacity available for model claude-opus-4-6-thinking on the server",
    "status": "UNAVAILABLE"
  }
}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/infiniflow/ragflow/issues/1552", "dashscope", None, NONE,
          r##"SUM: **ERROR**: Access denied, please make sure your account is in good standing."##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/1Panel-dev/MaxKB/issues/5297", "dashscope", Some(400), NONE,
          r##"sync_call Failed, status_code: 400, code: Arrearage, message: Access denied, please make sure your account is in good standing. For details, see: https://help.aliyun.com/zh/model-studio/error-code#overdue-payment"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/QwenLM/Qwen/issues/1414", "dashscope", Some(400), NONE,
          r##"[API Error: OpenAI API error: 400 Access denied, please make sure your account is in good standing.]"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anomalyco/opencode/issues/22994", "opencode-go", None, NONE,
          r##"Access denied, please make sure your account is in good standing. For details, see: https://help.aliyun.com/zh/model-studio/error-code#overdue-payment"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/coze-dev/coze-studio/issues/2195", "volcengine", Some(403), NONE,
          r##"{
  "$error": "Workflow execution failure: Error code: 403 - {\"code\":\"AccountOverdueError\",\"message\":\"The request failed because your account has an overdue balance. Request id: 02175807918128087536ccb70d6c1a12319f6b583ee3463218d67\",\"param\":\"\",\"type\":\"Forbidden\",\"request_id\":\"20250917031941000049CCD20589BB8F4A\"}"
}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/volcengine/OpenViking/issues/729", "volcengine", Some(403), NONE,
          r##"AccountOverdueError: 403 Forbidden
Request ID: 0217738016782801549c1a8259f4ab1e99092b4a0e368272c9c39"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/NousResearch/hermes-agent/issues/16680", "minimax", Some(500), NONE,
          r##"HTTP 500: insufficient balance (1008)"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/chaogei/Kiro-account-manager/issues/27", "kiro", Some(402), NONE,
          r##"{"message":"You have reached the limit.","reason":"MONTHLY_REQUEST_COUNT"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/FerroxLabs/wayland/issues/545", "fireworks", Some(412), NONE,
          r##"Provider error: API error 412: {"error":{"message":"Flux.APIError: APIError: Fireworks_aiException - {\"error\":{\"message\":\"Account ferroxlabs is suspended, possibly due to reaching the monthly spending limit or failure to pay past invoices. Please go to https://fireworks.ai/account/billing for more information.\",\"param\":null,\"code\":\"PRECONDITION_FAILED\",\"type\":\"error\"},\"request_id\":\"chatcmpl-ebdfbe6116404a62bbd8856f06f6a81b\"}. Received Model Group=glm-5-2\nAvailable Model Group Fallbacks=None","type":null,"param":null,"code":"412"}}"##,
          QuotaExhausted, false, None, N3, None, MONTH),
        c("github.com/continuedev/continue/issues/6005", "bedrock", None, NONE,
          r##"Error processing Bedrock stream: The model returned the following errors: Input is too long for requested model."##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/Alishahryar1/free-claude-code/issues/1228", "nvidia-nim", Some(429), NONE,
          r##"API Error: Request rejected (429) · Upstream provider NIM returned HTTP 429.
  Category: rate_limit
  Mapped message: Provider rate limit reached. Please retry shortly.

  Upstream error:
  {"status":429,"title":"Too Many Requests"}

  Request ID: req_eaa7e94be8ce47ceb623b5d4294b91dc"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/NVIDIA-NeMo/Guardrails/issues/563", "groq", Some(400), NONE,
          r##"Error code: 400 - {'error': {'message': 'Organization has been restricted. Please reach out to support if you believe this was in error.', 'type': 'invalid_request_error', 'code': 'organization_restricted'}}"##,
          Other, false, None, N3, None, None),
        c("github.com/OtterMind/Chat2DB/issues/907", "api2d", None, NONE,
          r##"{"object":"error","message":"流式输出失败 {\"error\":{\"message\":\"This model's maximum context length is 4097 tokens. However, you requested 4146 tokens (2098 in the messages, 2048 in the completion). Please reduce the length of the messages or completion.\",\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}","code":50099}"##,
          ContextLength, false, None, (Some(4097), Some(4146), None), TOK, None),
        c("github.com/stackblitz/bolt.new/issues/8383", "anthropic", None, NONE,
          r##"input length and max_tokens exceed context limit: 101960 + 102873 > 200000, decrease input length or max_tokens and try again"##,
          ContextLength, false, None, (Some(200000), Some(204833), None), TOK, None),
        c("github.com/stackblitz/bolt.new/issues/1177", "anthropic", None, NONE,
          r##"prompt is too long: 200263 tokens > 200000 maximum"##,
          ContextLength, false, None, (Some(200000), Some(200263), None), TOK, None),
        c("github.com/google-gemini/gemini-cli/issues/4118", "gemini", Some(400), NONE,
          r##"{"error":{"code":400,"message":"The input token count (132478) exceeds the maximum number of tokens allowed (131072).","status":"INVALID_ARGUMENT"}}"##,
          ContextLength, false, None, (Some(131072), Some(132478), None), TOK, None),
        c("github.com/google-gemini/gemini-cli/issues/12214", "gemini", Some(400), NONE,
          r##"[{
    "error": {
      "code": 400,
      "message": "The input token count (134123) exceeds the maximum number of tokens allowed (131072).",
      "errors": [
        {
          "message": "The input token count (134123) exceeds the maximum number of tokens allowed (131072).",
          "domain": "global",
          "reason": "badRequest"
        }
      ],
      "status": "INVALID_ARGUMENT"
    }
  }
  ]"##,
          ContextLength, false, None, (Some(131072), Some(134123), None), TOK, None),
        c("github.com/666ghj/BettaFish/issues/498", "aihubmix", Some(403), NONE,
          r##"{'error': {'message': 'Your account balance is insufficient. Please recharge your account to continue using the API. (tid: 2025121504014619744820954697486)', 'type': 'Aihubmix_api_error', 'param': '', 'code': 'insufficient_user_quota'}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/databricks/databricks-sdk-go/issues/1183", "databricks", Some(400), NONE,
          r##"Bad request: rpc error: code = InvalidArgument desc = max_tokens (10000) cannot exceed 8192. Please reduce the length of max output tokens generated."##,
          ContextLength, false, None, (Some(8192), Some(10000), None), TOK, None),
        c("github.com/oobabooga/textgen/issues/3910", "text-generation-webui", None, NONE,
          r##"This model maximum context length is 2048 tokens. However, your messages resulted in over 2054 tokens."##,
          ContextLength, false, None, (Some(2048), Some(2054), None), TOK, None),
        c("github.com/TavernAI/TavernAI-v1/issues/137", "koboldai", None, NONE,
          r##"{ detail:
   { msg: 'Server is busy; please try again later.',
     type: 'service_unavailable' } }"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/iflow-ai/iflow-cli/issues/301", "iflow", None, NONE,
          r##"Your account has reached the platform concurrency limit,
  the system will retry the request. Please limit to single concurrent
  usage"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/songquanpeng/one-api/issues/625", "one-api", None, NONE,
          r##"{
  "error": {
    "message": "the length of messages must be an odd number (request id: 20231023231353318399840aB01obf0)",
    "type": "baidu_error",
    "param": "",
    "code": 336006
  }
}"##,
          Other, false, None, N3, None, None),
        c("github.com/Aider-AI/aider/issues/3550", "openrouter", Some(200), NONE,
          r##"{'error': {'message': 'Rate limit exceeded: free-models-per-day', 'code': 429, 'metadata': {'headers': {'X-RateLimit-Limit': '200', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '1743292800000'}, 'provider_name': 'Google AI Studio'}}, 'user_id': 'user_XXXXXXXXXXXXXXXXXXXXXXXXX'}"##,
          QuotaExhausted, false, None, N3, Some(Dimension::RequestsPerDay), DAY),
        c("github.com/anomalyco/opencode/issues/18897", "sub2api", Some(200), NONE,
          r##"{"error":{"type":"rate_limit_error","message":"Concurrency limit exceeded for user, please retry later"}}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/router-for-me/CLIProxyAPI/pull/4980", "anthropic", Some(200), NONE,
          r##"event: error
data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/Alishahryar1/free-claude-code/issues/1021", "nvidia-nim", Some(404), NONE,
          r##"{"status":404,"title":"Not Found","detail":"Function '23d4f03a-b8a6-4adb-a183-7daa083a09cc': Not found for account 'XXXX'"}"##,
          Other, false, None, N3, None, None),
        c("github.com/lbjlaq/Antigravity-Manager/pull/186", "antigravity", Some(429), NONE,
          r##"所有账号配额已耗尽或请求失败。最后错误: API 返回错误 429 Too Many Requests: {
  "error": {
    "code": 429,
    "message": "No capacity available for model gemini-3-pro-image on the server",
    "status": "RESOURCE_EXHAUSTED",
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "MODEL_CAPACITY_EXHAUSTED",
        "domain": "cloudcode-pa.googleapis.com",
        "metadata": {
          "model": "gemini-3-pro-image"
        }
      }
    ]
  }
}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/CherryHQ/cherry-studio/issues/16997", "cherryin", Some(429), NONE,
          r##"status_code=429, Request was rejected due to rate limiting. Details: TPM limit reached."##,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/MoonshotAI/kimi-cli/issues/1599", "moonshot", Some(429), NONE,
          r##"{'error': {'message': 'Your account org-XXXX / proj-XXXX <ak-XXXX> request reach
ed organization TPD rate limit, current: 1526210, limit: 1500000', 'type': 'rate_limit_reached_error'}}"##,
          QuotaExhausted, false, None, (Some(1500000), None, Some(1526210)), Some(Dimension::TokensPerDay), DAY),
        c("github.com/earendil-works/pi/issues/3494", "moonshot", Some(429), NONE,
          r##"{"error":{"type":"rate_limit_error","message":"The engine is currently overloaded, please try again later"},"type":"error"}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/MoonshotAI/kimi-cli/issues/901", "moonshot", Some(429), NONE,
          r##"{'error': {'message': "We're receiving too many requests at the moment. Please wait 
a moment and try again.", 'type': 'rate_limit_reached_error'}}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/MoonshotAI/kimi-cli/issues/1599", "moonshot", Some(429), NONE,
          r##"{'error': {'message': 'Your account org-XXXX<ak-XXXX> request reached organization max RPM: 20, please try a
gain after 1 seconds', 'type': 'rate_limit_reached_error'}}"##,
          RateLimitRequests, true, None, (Some(20), None, None), REQ, MIN),
        c("github.com/MoonshotAI/kimi-code/issues/1252", "kimi-code", Some(429), NONE,
          r##"429 The engine is currently overloaded, please try again later"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/continuedev/continue/issues/8439", "deepseek", None, NONE,
          r##"{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/popjane/free_chatgpt_api/issues/76", "one-api", Some(403), NONE,
          r##"{'error': {'message': 'user quota is not enough (request id: 2025020911093417487821572799492)', 'type': 'v_api_error', 'param': '', 'code': 'insufficient_user_quota'}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/voideditor/void/issues/557", "gemini", Some(429), NONE,
          r##"{"error":{"message":"{\n \"error\": {\n \"code\": 429,\n \"message\": \"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\",\n \"status\": \"RESOURCE_EXHAUSTED\",\n \"details\": [\n {\n \"@type\": \"type.googleapis.com/google.rpc.QuotaFailure\",\n \"violations\": [\n {\n \"quotaMetric\": \"generativelanguage.googleapis.com/generate_content_free_tier_requests\",\n \"quotaId\": \"GenerateRequestsPerDayPerProjectPerModel-FreeTier\",\n \"quotaDimensions\": {\n \"model\": \"gemini-2.0-pro-exp\",\n \"location\": \"global\"\n },\n \"quotaValue\": \"25\"\n }\n ]\n },\n {\n \"@type\": \"type.googleapis.com/google.rpc.Help\",\n \"links\": [\n {\n \"description\": \"Learn more about Gemini API quotas\",\n \"url\": \"https://ai.google.dev/gemini-api/docs/rate-limits\"\n }\n ]\n },\n {\n \"@type\": \"type.googleapis.com/google.rpc.RetryInfo\",\n \"retryDelay\": \"5s\"\n }\n ]\n }\n}\n","code":429,"status":"Too Many Requests"}}"##,
          QuotaExhausted, false, Some(5000), (Some(25), None, None), Some(Dimension::RequestsPerDay), DAY),
        c("github.com/dyad-sh/dyad/issues/3626", "gemini", None, NONE,
          r##"Your prepayment credits are depleted. Please go to AI Studio at https://ai.studio/projects to manage your project and billing."##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Ivy-Interactive/Ivy-Tendril/issues/1756", "bedrock", Some(429), NONE,
          r##"Too many tokens per day, please wait before trying again."##,
          QuotaExhausted, false, None, N3, Some(Dimension::TokensPerDay), DAY),
        c("github.com/MoonshotAI/kimi-code/issues/3014", "kimi-code", Some(403), NONE,
          r##"You've reached your usage limit for this billing cycle. Your quota will be refreshed in the next cycle."##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Wei-Shaw/sub2api/issues/6203", "kimi-code", Some(403), NONE,
          r##"You've reached your concurrent request limit. Please wait for your ongoing requests to finish and try again."##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/anomalyco/opencode/issues/38208", "opencode-zen", None, NONE,
          r##"Insufficient balance. Manage your billing here: https://opencode.ai/workspace/wrk_XXXX/billing"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/lancedb/lancedb/issues/1535", "watsonx", Some(400), NONE,
          r##"{"errors":[{"code":"invalid_input_argument","message":"Invalid input argument for Model 'ibm/slate-125m-english-rtrvr': Token sequence length is longer than the specified maximum sequence length for this model (1336 \u003e 512).","more_info":"https://cloud.ibm.com/apidocs/watsonx-ai"}],"trace":"85527f4d559b71672661bd561a6768fe","status_code":400}"##,
          ContextLength, false, None, (Some(512), Some(1336), None), TOK, None),
        c("github.com/continuedev/continue/issues/11934", "anthropic", None, NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"You have reached your specified API usage limits. You will regain access on 2026-04-01 at 00:00 UTC."},"request_id":"req_011CZU9ocxah4cy6JURKXhnn"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/RooCodeInc/Roo-Code/issues/5729", "groq", Some(413), NONE,
          r##"Request too large for model moonshotai/kimi-k2-instruct in organization org_01hsjxygceejnvjd05wgz483z2 service tier on_demand on tokens per minute (TPM): Limit 10000, Requested 21247, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing"##,
          TooLarge, false, None, (Some(10000), Some(21247), None), TOK, MIN),
        c("github.com/ChatGPTNextWeb/NextChat/issues/3195", "openai", None, NONE,
          r##"{
  "error": {
    "message": "max_tokens is too large: 8192. This model supports at most 4096 completion tokens, whereas you provided 8192.",
    "type": "invalid_request_error",
    "param": "max_tokens",
    "code": null
  }
}"##,
          ContextLength, false, None, (Some(4096), Some(8192), None), TOK, None),
        c("github.com/ChatGPTNextWeb/NextChat/issues/3195", "openai", None, NONE,
          r##"{
  "error": {
    "message": "This model's maximum context length is 8192 tokens. However, you requested 8256 tokens (64 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.",
    "type": "invalid_request_error",
    "param": "messages",
    "code": "context_length_exceeded"
  }
}"##,
          ContextLength, false, None, (Some(8192), Some(8256), None), TOK, None),
        c("github.com/claude-code-best/claude-code/issues/272", "vllm", Some(400), NONE,
          r##"'max_tokens' or 'max_completion_tokens' is too large: 64000. This model's maximum context length is      64001 tokens and your request has 24235 input tokens (64000 > 64001 - 24235). None"##,
          ContextLength, false, None, (Some(64001), Some(88235), None), TOK, None),
        c("github.com/enoch3712/ExtractThinker/issues/346", "litellm", None, NONE,
          r##"litellm.BadRequestError: OpenAIException - max_tokens is too large: 32000. This model supports at most 16384 completion tokens, whereas you provided 32000."##,
          ContextLength, false, None, (Some(16384), Some(32000), None), TOK, None),
        c("github.com/AQBot-Desktop/AQBot/issues/93", "openai-compatible-relay", Some(400), NONE,
          r##"{"error":{"message":"Param Incorrect","type":"upstream_error","param":"max_tokens is too large: 1048576. This model supports at most 131072 completion tokens, whereas you provided 1048576.","code":"400"}}"##,
          ContextLength, false, None, (Some(131072), Some(1048576), None), TOK, None),
        c("github.com/QwenLM/qwen-code/issues/1082", "dashscope", Some(400), NONE,
          r##"String value length (20054016) exceeds the maximum allowed (20000000, from `StreamReadConstraints.getMaxStringLength()`)"##,
          TooLarge, false, None, (Some(20000000), Some(20054016), None), None, None),
        c("github.com/ela-codes/vibin/issues/2", "huggingface", None, NONE,
          r##"{"error":"Model mrm8488/t5-base-finetuned-emotion is currently loading","estimated_time":35.6677131652832}"##,
          Overloaded, true, Some(35668), N3, None, None),
        c("github.com/Wei-Shaw/sub2api/issues/1213", "sub2api", None, NONE,
          r##"Concurrency limit exceeded for account, please retry later"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/github/copilot-cli/issues/3431", "github-copilot", Some(402), NONE,
          r##"{"error":{"message":"You have no quota","code":"quota_exceeded"}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/sbounmy/hongbao_bitcoin/issues/497", "openai", None, NONE,
          r##"Billing hard limit has been reached."##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/continuedev/continue/issues/11154", "openrouter", Some(402), NONE,
          r##"This request requires more credits, or fewer max_tokens. You requested up to 4096 tokens, but can only afford 222. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account"##,
          QuotaExhausted, false, None, (Some(222), Some(4096), None), Some(Dimension::OutputTokens), None),
        c("github.com/Trae-AI/TRAE/issues/625", "anthropic", None, NONE,
          r##"{
  "type": "error",
  "error": {
    "type": "rate_limit_error",
    "message": "This request would exceed the rate limit for your organization (---) of 20,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."
  }
}"##,
          RateLimitTokens, true, None, (Some(20000), None, None), TOK, MIN),
        c("github.com/logancyang/obsidian-copilot/issues/2327", "anthropic", Some(429), NONE,
          r##"{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your organization's rate limit of 30,000 input tokens per minute (org: XXXX, model: claude-sonnet-4-20250514). For details, refer to: faviconhttps://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at faviconhttps://claude.com/contact-sales to discuss your options for a rate limit increase."},"request_id":"req_011CZRtHe9vmeRRMu6G4rMhJ"}"##,
          RateLimitTokens, true, None, (Some(30000), None, None), TOK, MIN),
        c("github.com/onyx-dot-app/onyx/pull/6368", "bedrock", Some(503), NONE,
          r##"{"exceptionMetadata":{"qosTier":"10","rudiMetadata":"{\"queueDwellTimeInMs\":0,\"expectedQueueDelayInMs\":394460,\"variantIdentifier\":\"anthropic.claude-3-7-sonnet-20250219-v1:0:18k\"}"},"message":"Too many connections, please wait before trying again."}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/lobehub/lobehub/issues/9728", "gemini", Some(503), NONE,
          r##"{
    "error": {
        "code": 503,
        "message": "The model is overloaded. Please try again later.",
        "status": "UNAVAILABLE"
    }
}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/continuedev/continue/issues/10639", "gemini", Some(503), NONE,
          r##"{"error":{"message":"{\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"This model is currently experiencing high demand. Spikes in demand are usually temporary. Please try again later.\",\n    \"status\": \"UNAVAILABLE\"\n  }\n}\n","code":503,"status":"Service Unavailable"}}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/continuedev/continue/issues/12670", "xai", Some(403), NONE,
          r##"Your newly created team doesn't have any credits or licenses yet. You can purchase those on https://console.x.ai/team/XXXX."##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Azure-Samples/jp-azureopenai-samples/pull/35", "azure-openai", None, NONE,
          r##"{"code": "InsufficientQuota", "message": "The specified capacity '60' of account deployment is bigger than available capacity '0' for UsageName 'Tokens Per Minute (thousands) - Text-Davinci-003'."}"##,
          QuotaExhausted, false, None, N3, TOK, MIN),
        c("github.com/Azure-Samples/aks-store-demo/issues/116", "azure-openai", None, NONE,
          r##"This operation requires 30 new capacity in quota Tokens Per Minute (thousands) - GPT-35-Turbo, which is bigger than the current available capacity 0. The current quota usage is 300 and the quota limit is 300 for quota Tokens Per Minute (thousands) - GPT-35-Turbo. (Code: InsufficientQuota)"##,
          QuotaExhausted, false, None, (Some(300), None, None), TOK, MIN),
        c("github.com/multica-ai/multica/issues/4130", "moonshot", Some(400), NONE,
          r##"Invalid request: Your request exceeded model token limit: 262144 (requested: 275363)"##,
          ContextLength, false, None, (Some(262144), Some(275363), None), TOK, None),
        c("github.com/boldsoftware/exe.dev/issues/62", "anthropic", Some(400), NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 200251 tokens > 200000 maximum"},"request_id":"req_011CWdepJvA2D819tdYYq4h7"}"##,
          ContextLength, false, None, (Some(200000), Some(200251), None), TOK, None),
        c("github.com/chatgpt-web-dev/chatgpt-web/issues/568", "qianfan", None, NONE,
          r##"Open api qps request limit reached"##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/continuedev/continue/issues/9563", "openai", Some(429), NONE,
          r##"Rate limit reached for gpt-4.1 in organization org-XXXX on tokens per min (TPM): Limit 30000, Used 22343, Requested 10955. Please try again in 6.596s. Visit https://platform.openai.com/account/rate-limits to learn more."##,
          RateLimitTokens, true, Some(6596), (Some(30000), Some(10955), Some(22343)), TOK, MIN),
        c("github.com/XiaomiMiMo/MiMo/issues/99", "xiaomi-mimo", Some(402), NONE,
          r##"{"type":"server_error","message":"Upstream request failed: Insufficient account funds"}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/58393", "anthropic", Some(400), NONE,
          r##"{"type":"error","error":{"type":"invalid_request_error","message":"This organization has been disabled."},"request_id":"req_011CaxuuGSRKW2SYjnShfDe3"}"##,
          Other, false, None, N3, None, None),
        c("github.com/continuedev/continue/issues/10594", "anthropic", Some(429), NONE,
          r##"{"type":"rate_limit_error","message":"This request would exceed your organization's rate limit of 10,000 input tokens per minute (org: XXXX, model: claude-sonnet-4-20250514). For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."}"##,
          RateLimitTokens, true, None, (Some(10000), None, None), TOK, MIN),
        c("github.com/transformrs/ata/issues/63", "openai", None, NONE,
          r##"{
    "error": {
        "message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
        "type": "insufficient_quota",
        "param": null,
        "code": "insufficient_quota"
    }
}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/diegosouzapw/OmniRoute/issues/3709", "ollama-cloud", Some(429), NONE,
          r##"you (<account>) have reached your weekly usage limit, upgrade for higher limits: https://ollama.com/upgrade"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/continuedev/continue/issues/11444", "ollama-cloud", Some(429), NONE,
          r##""you (XXXX) have reached your session usage limit, upgrade for higher limits: https://ollama.com/upgrade""##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/iflow-ai/iflow-cli/issues/288", "iflow", Some(402), NONE,
          r##"{"error":{"message":"{\"error\":{\"message\":\"Insufficient Balance\",\"type\":\"unknown_error\",\"param\":null,\"code\":\"invalid_request_error\"}}","type":"EngineInternalError","code":"402"}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/nminaya/grammar-nazi-bot/issues/954", "cerebras", Some(429), NONE,
          r##"{"message":"Requests per minute limit exceeded - too many requests sent.","type":"too_many_requests_error","param":"quota","code":"request_quota_exceeded"}"##,
          RateLimitRequests, true, None, N3, REQ, MIN),
        c("github.com/miaoxworld/OpenClawInstaller/issues/16", "zhipu", Some(429), NONE,
          r##"AI 响应: 429 余额不足或无可用资源包,请充值。"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/QwenLM/qwen-code/issues/1742", "qwen-oauth", Some(429), NONE,
          r##"429 Free allocated quota exceeded."##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/FoundationAgents/OpenManus/issues/746", "anthropic", Some(429), NONE,
          r##"Error code: 429 - {'error': {'code': 'rate_limit_error', 'message': 'This request would exceed the rate limit for your organization of 20,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.', 'type': 'invalid_request_error', 'param': None}}"##,
          RateLimitTokens, true, None, (Some(20000), None, None), TOK, MIN),
        c("github.com/yokingma/fetch-sse/issues/1", "moonshot", Some(429), NONE,
          r##"{
    "error": {
        "message": "request reached max request: 3, please try again after 1 seconds",
        "type": "rate_limit_reached_error"
    }
}"##,
          RateLimitRequests, true, Some(1000), (Some(3), None, None), REQ, None),
        c("github.com/BerriAI/litellm/issues/10431", "litellm", Some(400), NONE,
          r##"litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError: DeepseekException - {"error":{"message":"This model's maximum context length is 65536 tokens. However, you requested 68161 tokens (68161 in the messages, 0 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}"##,
          ContextLength, false, None, (Some(65536), Some(68161), None), TOK, None),
        c("github.com/refly-ai/refly/issues/1177", "openrouter", Some(400), NONE,
          r##"Error: 400 This endpoint's maximum context length is 32768 tokens. However, you requested about 42832 tokens (42832 of text input). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically."##,
          ContextLength, false, None, (Some(32768), Some(42832), None), TOK, None),
        c("github.com/evalstate/fast-agent/issues/621", "deepseek", Some(400), NONE,
          r##"Error code: 400 - {'error': {'message': "This model's maximum context length is 131072 tokens. However, you requested 131134 tokens (122942 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.", 'type': 'invalid_request_error', 'param': None, 'code': 'invalid_request_error'}}"##,
          ContextLength, false, None, (Some(131072), Some(131134), None), TOK, None),
        c("github.com/666ghj/BettaFish/issues/535", "new-api", Some(429), NONE,
          r##"Error code: 429 - {'error': {'message': '当前分组上游负载已饱和，请稍后再试 (request id: 202601071246251544566634hAu4T9s)', 'type': 'new_api_error', 'param': '', 'code': None}}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/m4xxxxx/AIxVuln/issues/2", "one-api", Some(429), NONE,
          r##"error, status code: 429, status: 429 Too Many Requests, message: 当前分组上游负载已饱和，请稍后再试 (request id: 20260203113641101064610dirTcn8H)"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/diegosouzapw/OmniRoute/issues/9731", "omniroute", Some(503), NONE,
          r##"Omniroute API error: Omniroute API error: 0 [nvidia/minimaxai/minimax-m3] [503]: Request dropped after exceeding the local rate-limit queue budget maxWaitMs (15000ms) for nvidia/minimaxai/minimax-m3 — this is OmniRoute's request queue (resilienceSettings.requestQueue.maxWaitMs), not an upstream timeout. Raise it in Settings → Resilience if this is queue saturation rather than a slow provider. (cause: This job timed out after 15000 ms.) (reset after 3s)"##,
          RateLimitOther, true, Some(3000), N3, None, MIN),
        c("github.com/xtekky/gpt4free/issues/3020", "gpt4free", None, NONE,
          r##"You have used all your credits for this month. Please add more credits to continue."##,
          QuotaExhausted, false, None, N3, None, MONTH),
        c("github.com/NousResearch/hermes-agent/issues/26847", "xai", Some(403), NONE,
          r##"403 Forbidden: personal-team-blocked:spending-limit:
You have run out of credits or need a Grok subscription.
Add credits at https://grok.com/?_s=usage or upgrade at https://grok.com/supergrok"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/google-gemini/gemini-cli/issues/11916", "gemini", Some(400), NONE,
          r##"[{
    "error": {
      "code": 400,
      "message": "The input token count (218152) exceeds the maximum number of tokens allowed (65536).",
      "errors": [
        {
          "message": "The input token count (218152) exceeds the maximum number of tokens allowed (65536).",
          "domain": "global",
          "reason": "badRequest"
        }
      ],
      "status": "INVALID_ARGUMENT"
    }
  }
  ]"##,
          ContextLength, false, None, (Some(65536), Some(218152), None), TOK, None),
        c("github.com/google-gemini/gemini-cli/issues/5807", "gemini", Some(400), NONE,
          r##"ApiError: {"error":{"message":"{\n  \"error\": {\n    \"code\": 400,\n    \"message\": \"The input token count (1091639) exceeds the maximum number of tokens allowed (1048576).\",\n    \"status\": \"INVALID_ARGUMENT\"\n  }\n}\n","code":400,"status":"Bad Request"}}"##,
          ContextLength, false, None, (Some(1048576), Some(1091639), None), TOK, None),
        c("github.com/anthropics/claude-code/issues/3335", "anthropic", Some(413), NONE,
          r##"API Error: 413 
    {"error":{"type":"request_too_large","message":"Request 
    exceeds the maximum size"}}"##,
          TooLarge, false, None, N3, None, None),
        c("github.com/jxq1997216/AITranslator/issues/32", "siliconflow", Some(429), NONE,
          r##"服务回复状态错误[429],返回数据为:{"message":"Requestwas
  rejected due to rate limiting. Details: RPH limit
  reached.","data":null)"##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/continuedev/continue/issues/10579", "ollama", Some(429), NONE,
          r##""you (XXXX) have reached your session usage limit, please wait or upgrade to continue""##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Gitlawb/openclaude/issues/1554", "opengateway", Some(402), NONE,
          r##"{"error":{"message":"Free quota used (30 requests / 5h). Resets at 10:00 UTC. Top up for unlimited access at
     https://gitlawb.com/opengateway/credits.","type":"insufficient_quota","code":"free_quota_exceeded"}}"##,
          QuotaExhausted, false, None, (None, None, Some(30)), None, None),
        c("github.com/songquanpeng/one-api/issues/1503", "baidu-qianfan", None, NONE,
          r##"relay error (channel id 2, user id: 1): Open api daily request limit reached"##,
          QuotaExhausted, false, None, N3, Some(Dimension::RequestsPerDay), DAY),
        c("github.com/Wei-Shaw/sub2api/issues/6502", "sub2api", None, NONE,
          r##"Concurrency limit exceeded for user, please retry later"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/cline/cline/issues/252", "anthropic", Some(429), NONE,
          r##"429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."}}"##,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/autohandai/code-cli/issues/339", "groq", None, NONE,
          r##"An unexpected error occurred. Please try again.
Request too large for model `qwen/qwen3-32b` in organization `org_XXXX` service tier `on_demand` on tokens per minute (TPM): Limit 6000, Requested 38891, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing"##,
          TooLarge, false, None, (Some(6000), Some(38891), None), TOK, MIN),
        c("github.com/kaitranntt/ccs/issues/402", "zhipu", Some(429), NONE,
          r##"[glmt-proxy] Request error: Upstream error: 429 Too Many Requests
{"error":{"code":"1302","message":"High concurrency usage of this API, please reduce concurrency or contact customer service to increase limits"}}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/yilewang/llm-for-zotero/issues/17", "zhipu", Some(429), NONE,
          r##"Error: 429 - {"error":{"code":"1302","message":"您的账户已达到速率限制，请您控制请求频率"}}"##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/mahonzhan/awesome-coding-plan/issues/20", "moonshot", Some(429), NONE,
          r##"status_code=429, The engine is currently overloaded, please try again later"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/Aider-AI/aider/issues/3936", "openrouter", None, NONE,
          r##"litellm.RateLimitError: RateLimitError: OpenrouterException - Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day"##,
          QuotaExhausted, false, None, N3, Some(Dimension::RequestsPerDay), DAY),
        c("github.com/clacky-ai/openclacky/issues/100", "new-api", None, NONE,
          r##"[LLM] Access denied: 预扣费额度失败, 用户剩余额度: ＄2.533620, 需要预扣费额度: ＄2.627750 (request id: 202605112024597472269388268d9d6jwygcKzZ)"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/songquanpeng/one-api/issues/1846", "one-api", None, NONE,
          r##"user [3446] quota [-20847155]preConsumedQuota [743]is not enough(request id:2024092600274225879598085091467)"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/badrisnarayanan/antigravity-claude-proxy/issues/278", "antigravity", Some(503), NONE,
          r##"[CloudCode] Stream error at https://daily-cloudcode-pa.googleapis.com: 503 - {
  "error": {
    "code": 503,
    "message": "No capacity available for model gemini-3-pro-low on the server",
    "status": "UNAVAILABLE",
    "details": [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "MODEL_CAPACITY_EXHAUSTED",
        "domain": "cloudcode-pa.googleapis.com",
        "metadata": {
          "model": "gemini-3-pro-low"
        }
      },
      {
        "@type": "type.googleapis.com/google.rpc.RetryInfo",
        "retryDelay": "39s"
      }
    ]
  }
}"##,
          Overloaded, true, Some(39000), N3, None, None),
        c("github.com/router-for-me/CLIProxyAPI/issues/1224", "cliproxyapi", Some(503), NONE,
          r##""status_message": "{\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"No capacity available for model claude-opus-4-5-thinking on the server\",\n    \"status\": \"UNAVAILABLE\",\n    \"details\": [\n      {\n        \"@type\": \"type.googleapis.com/google.rpc.ErrorInfo\",\n        \"reason\": \"MODEL_CAPACITY_EXHAUSTED\",\n        \"domain\": \"cloudcode-pa.googleapis.com\",\n        \"metadata\": {\n          \"model\": \"claude-opus-4-5-thinking\"\n        }\n      }\n    ]\n  }\n}\n",
  "type": "antigravity","##,
          Overloaded, true, None, N3, None, None),
        c("github.com/QwenLM/Qwen3-Coder/issues/540", "dashscope", Some(400), NONE,
          r##"✕ [API Error: 400 String value length (20054016) exceeds the maximum allowed (20000000, 
  from `StreamReadConstraints.getMaxStringLength()`)]"##,
          TooLarge, false, None, (Some(20000000), Some(20054016), None), None, None),
        c("github.com/Azure-Samples/azure-search-openai-demo/issues/1199", "azure-openai", Some(400), NONE,
          r##"Error code: 400 - {'error': {'message': "This model's maximum context length is 4096 tokens. However, you requested 4201 tokens (3177 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.", 'type': 'invalid_request_error', 'param': 'messages', 'code': 'context_length_exceeded'}}"##,
          ContextLength, false, None, (Some(4096), Some(4201), None), TOK, None),
        c("github.com/anthropics/claude-code/issues/1440", "vertex", Some(429), NONE,
          r##"API Error (429 {"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/online_prediction_input_tokens_per_minute_per_base_model with base model: anthropic-claude-opus-4. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.","status":"RESOURCE_EXHAUSTED"}}) · Retrying in 32 seconds… (attempt 7/10)"##,
          RateLimitTokens, true, Some(32000), N3, TOK, MIN),
        c("github.com/Intelligent-Internet/ii-agent/issues/41", "vertex", Some(429), NONE,
          r##"Error code: 429 - {'error': {'code': 429, 'message': 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-3-7-sonnet. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.', 'status': 'RESOURCE_EXHAUSTED'}}"##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/microsoft/vscode-copilot-release/issues/7148", "github-copilot", None, NONE,
          r##"Sorry, you have exhausted this model's rate limit. Please wait a moment before trying again, or switch to a different model"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/CherryHQ/cherry-studio/issues/4541", "siliconflow", Some(503), NONE,
          r##"{
  "message": "503 System is too busy now. Please try again later.",
  "status": 503,
  "error": {
    "code": 50508,
    "message": "System is too busy now. Please try again later.",
    "data": null
  },
  "code": 50508
}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/google-gemini/gemini-cli/issues/15745", "gemini", Some(503), NONE,
          r##"✕ [API Error: {"error":{"message":"{\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"The model is overloaded. Please try
  again later.\",\n    \"status\": \"UNAVAILABLE\"\n  }\n}\n","code":503,"status":"Service Unavailable"}}]"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/diegosouzapw/OmniRoute/issues/9504", "gemini", Some(429), NONE,
          r##"{
    "error": {
      "code": 429,
      "message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/rate-limit. \n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 20, model: gemini-3.6-flash\nPlease retry in 36.429760048s.",
      "status": "RESOURCE_EXHAUSTED",
      "details": [
        { "@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [
          { "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
            "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
            "quotaDimensions": "[MaxDepth]", "quotaValue": "20" } ] },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "36s" }
      ]
    }
  }"##,
          QuotaExhausted, false, Some(36000), (Some(20), None, None), Some(Dimension::RequestsPerDay), DAY),
        c("github.com/icereed/paperless-gpt/issues/814", "azure-openai", Some(429), NONE,
          r##"API returned unexpected status code: 429: Your requests to gpt-4.1-nano for gpt-4.1-nano in Sweden Central have exceeded the token rate limit for your current AIServices S0 pricing tier. This request was for ChatCompletions_Create under Azure OpenAI API version 2023-05-15. Please retry after 45 seconds."##,
          RateLimitTokens, true, Some(45000), N3, TOK, None),
        c("github.com/bobrware/bobrchat/issues/143", "openrouter", Some(402), NONE,
          r##"Error [AI_APICallError]: This request requires more credits, or fewer max_tokens. You requested up to 64000 tokens, but can only afford 61586. To increase, visit https://openrouter.ai/settings/credits and add more credits"##,
          QuotaExhausted, false, None, (Some(61586), Some(64000), None), Some(Dimension::OutputTokens), None),
        c("github.com/Nutlope/logocreator/issues/10", "together", None, NONE,
          r##"Access to this model is allowed for build tier 2 and above. Also please make sure that you have a positive balance. Please upgrade your tier by buying credits at https://api.together.xyz/settings/billing."##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/danilofalcao/jarvis/issues/62", "deepseek", Some(402), NONE,
          r##"Error code: 402 - {'error': {'message': 'Insufficient Balance', 'type': 'unknown_error', 'param': None, 'code': 'invalid_request_error'}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anthropics/anthropic-sdk-go/issues/200", "anthropic", Some(200), NONE,
          r##"received error while streaming: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"} }"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/stackblitz/bolt.new/issues/2520", "anthropic", None, NONE,
          r##"prompt is too long: 208544 tokens > 200000 maximum"##,
          ContextLength, false, None, (Some(200000), Some(208544), None), TOK, None),
        c("github.com/webstudio-is/webstudio/issues/4268", "openai", Some(400), NONE,
          r##"API Internal Error: 400 This model's maximum context length is 16385 tokens. However, your messages resulted in 19311 tokens. Please reduce the length of the messages.
 400 This model's maximum context length is 16385 tokens. However, your messages resulted in 19311 tokens. Please reduce the length of the messages."##,
          ContextLength, false, None, (Some(16385), Some(19311), None), TOK, None),
        c("github.com/anthropics/claude-quickstarts/issues/229", "anthropic", None, NONE,
          r##"{'type': 'invalid_request_error', 'message': 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.'}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/stackblitz/bolt.new/issues/8589", "anthropic", None, NONE,
          r##"Failed after 3 attempts. Last error: This request would exceed the rate limit for your organization (XXXX) of 1,000,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."##,
          RateLimitTokens, true, None, (Some(1000000), None, None), TOK, MIN),
        c("github.com/mmz-001/knowledge_gpt/issues/3", "openai", None, NONE,
          r##"Rate limit reached for default-global-with-image-limits in organization org-XXXX on requests per min. Limit: 60.000000 / min. Current: 80.000000 / min. Contact support@openai.com if you continue to have issues."##,
          RateLimitRequests, true, None, (Some(60), None, Some(80)), REQ, MIN),
        c("github.com/cline/cline/issues/4196", "bedrock", None, NONE,
          r##"[ERROR] Failed to process response: Too many tokens, please wait before trying again."##,
          RateLimitTokens, true, None, N3, TOK, None),
        c("disputatio.itservice-braun.de/artifacts/92ffbdcb-b8dc-4392-b1ea-c6c53bab3411/raw", "openrouter", Some(429), &[("Retry-After", "17")],
          r##"OpenRouter HTTP 429: {"error": {"message": "Provider returned error", "code": 429, "metadata": {"raw": "meta-llama/llama-3.3-70b-instruct:free is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations", "provider_name": "Venice", "is_byok": false, "retry_after_seconds": 17, "retry_after_seconds_raw": 16.007, "headers": {"Retry-After": "17"}}}, "user_id": "user_XXXX"}"##,
          RateLimitOther, true, Some(17000), N3, None, None),
        c("tempfileserver.knowledge.yunwoai.com/mistral_ocr_resp_after_restart.json", "mistral", Some(429), NONE,
          r##"{"object":"error","message":"Rate limit exceeded","type":"rate_limited","param":null,"code":"1300","raw_status_code":429}"##,
          RateLimitOther, true, None, N3, None, None),
        c("www.llmzone.net/docs/errors", "llmzone", Some(403), NONE,
          r##"{
  "error": {
    "message": "Daily request limit reached. Resets in 12h 34m.",
    "type": "auth_error"
  }
}"##,
          QuotaExhausted, false, Some(43200000), N3, Some(Dimension::RequestsPerDay), DAY),
        c("app.ultramaxo.tech/docs/errors", "ultramaxo", Some(402), NONE,
          r##"{
  "error": {
    "message": "Insufficient credits",
    "type": "payment_required",
    "code": 402
  }
}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/SakanaAI/AI-Scientist/issues/115", "anthropic", Some(429), NONE,
          r##"Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'Number of request tokens has exceeded your daily rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.'}}"##,
          QuotaExhausted, false, None, N3, Some(Dimension::TokensPerDay), DAY),
        c("github.com/stackblitz/bolt.new/issues/122", "anthropic", None, NONE,
          r##"prompt is too long: 204548 tokens > 199999 maximum"##,
          ContextLength, false, None, (Some(199999), Some(204548), None), TOK, None),
        c("github.com/BerriAI/litellm/issues/5983", "openai", Some(429), NONE,
          r##"Failed to populate the FAISS store with the provided flows. error=ProviderClientAPIException("Failed to embed documents\nOriginal error: litellm.RateLimitError: RateLimitError: OpenAIException - Error code: 429 - {'error': {'message': 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.', 'type': 'insufficient_quota', 'param': None, 'code': 'insufficient_quota'}})")"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/Aider-AI/aider/issues/1263", "gemini", Some(429), NONE,
          r##"litellm.llms.vertex_httpx.VertexAIError: {
  "error": {
    "code": 429,
    "message": "Resource has been exhausted (e.g. check quota).",
    "status": "RESOURCE_EXHAUSTED"
  }
}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/google-gemini/deprecated-generative-ai-python/issues/206", "gemini", Some(429), NONE,
          r##"429 Quota exceeded for quota metric 'Generate Content API requests per minute' and limit 'GenerateContent request limit per minute for a region' of service 'generativelanguage.googleapis.com' for consumer 'project_number:XXXX'. [reason: "RATE_LIMIT_EXCEEDED"
domain: "googleapis.com"
metadata {
  key: "service"
  value: "generativelanguage.googleapis.com"
}
metadata {
  key: "quota_metric"
  value: "generativelanguage.googleapis.com/generate_content_requests"
}
metadata {
  key: "quota_location"
  value: "us-west4"
}
metadata {
  key: "quota_limit"
  value: "GenerateContentRequestsPerMinutePerProjectPerRegion"
}
metadata {
  key: "quota_limit_value"
  value: "0"
}
metadata {
  key: "consumer"
  value: "projects/XXXX"
}
, links {
  description: "Request a higher quota limit."
  url: "https://cloud.google.com/docs/quota#requesting_higher_quota"
}
]"##,
          QuotaExhausted, false, None, (Some(0), None, None), REQ, MIN),
        c("github.com/popjane/free_chatgpt_api/issues/65", "new-api", None, NONE,
          r##"{
  "error": {
    "message": "当前分组上游负载已饱和，请稍后再试 (request id: 2024121602163036521732429064585)",
    "type": "new_api_error",
    "param": "",
    "code": null
  }
}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/QuantumNous/new-api/issues/991", "new-api", Some(429), NONE,
          r##"429 当前分组上游负载已饱和，请稍后再试 (request id: 20250423020142736330894dLoIRrS6)"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/ai-forever/gigachat-java/issues/5", "gigachat", Some(200), NONE,
          r##"Ошибка в запросе к LLM: {"status":429,"message":"Too many requests"}
Response: CompletionResponse(choices=[], created=null, model=null, usage=null, object=null)"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/langchain-ai/langchain/issues/19773", "yandexgpt", None, NONE,
          r##"_InactiveRpcError: <_InactiveRpcError of RPC that terminated with:
	status = StatusCode.RESOURCE_EXHAUSTED
	details = "ai.embeddingsTextEmbeddingRequestsPerSecond.rate rate quota limit exceed: allowed 10 requests"
	debug_error_string = "UNKNOWN:Error received from peer ipv4:158.160.54.160:443 {grpc_message:"ai.embeddingsTextEmbeddingRequestsPerSecond.rate rate quota limit exceed: allowed 10 requests", grpc_status:8, created_time:"2024-03-29T23:40:55.529921+03:00"}"
>"##,
          RateLimitRequests, true, None, (Some(10), None, None), REQ, None),
        c("github.com/continuedev/continue/issues/10062", "gemini", None, NONE,
          r##"{"error":{"message":"{\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/rate-limit. \\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 0, model: gemini-2.5-pro\\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro\\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro\\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 0, model: gemini-2.5-pro\\nPlease retry in 20.04466179s.\",\n    \"status\": \"RESOURCE_EXHAUSTED\",\n    \"details\": [\n      {\n        \"@type\": \"type.googleapis.com/google.rpc.Help\",\n        \"links\": [\n          {\n            \"description\": \"Learn more about Gemini API quotas\",\n            \"url\": \"https://ai.google.dev/gemini-api/docs/rate-limits\"\n          }\n"##,
          QuotaExhausted, false, Some(20045), (Some(0), None, None), None, None),
        c("github.com/continuedev/continue/issues/10655", "gemini", Some(429), NONE,
          r##"{"error":{"message":"{\n  \"error\": {\n    \"code\": 429,\n    \"message\": \"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/rate-limit. \",\n    \"status\": \"RESOURCE_EXHAUSTED\"\n  }\n}\n","code":429,"status":"Too Many Requests"}}"##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/continuedev/continue/issues/11580", "groq", None, NONE,
          r##"Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_XXXX` service tier `on_demand` on tokens per day (TPD): Limit 100000, Used 99926, Requested 1739. Please try again in 23m58.56s. Need more tokens%3F Upgrade to Dev Tier today at https://console.groq.com/settings/billing"##,
          RateLimitTokens, true, Some(1438560), (Some(100000), Some(1739), Some(99926)), Some(Dimension::TokensPerDay), DAY),
        c("github.com/pollinations/pollinations/issues/12135", "fireworks", Some(412), NONE,
          r##""message": "Image provider error: Fireworks FLUX generation failed: {\"error\":{\"message\":\"Account pollinations is suspended, possibly due to reaching the monthly spending limit or failure to pay past invoices. Please go to https://fireworks.ai/account/billing for more information.\",\"param\":null,\"code\":\"PRECONDITION_FAILED\",\"type\":\"error\"},\"request_id\":\"19fcf8df-9bb3-4aab-bdf5-d67a7c7adee7\"}",
        "code": "UNKNOWN_ERROR","##,
          QuotaExhausted, false, None, N3, None, MONTH),
        c("github.com/microsoft/vscode-copilot-release/issues/1853", "github-copilot", None, NONE,
          r##"Sorry, your request was rate-limited. Please wait 8 seconds before trying again."##,
          RateLimitOther, true, Some(8000), N3, None, None),
        c("github.com/microsoft/vscode-copilot-release/issues/7132", "github-copilot", None, NONE,
          r##"Sorry, you have exhausted this model's rate limit. Please wait a moment before trying again, or switch to a different model. Learn More"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/mostlygeek/llama-swap/issues/146", "llama.cpp", Some(503), NONE,
          r##"{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/mindverse/Second-Me/issues/20", "llama.cpp", Some(503), NONE,
          r##"Chunk has no choices attribute: {'error': {'code': 1, 'message': "Request processing failed: Error code: 503 - {'error': {'code': 503, 'message': 'Loading model', 'type': 'unavailable_error'}}", 'data': None}}"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/google-gemini/gemini-cli/issues/5191", "gemini", Some(503), NONE,
          r##"[API Error: got status: UNAVAILABLE. {"error":{"code":503,"message":"The model is overloaded. Please try 
  again later.","status":"UNAVAILABLE"}}]"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/decolua/9router/issues/1106", "google-code-assist", Some(429), NONE,
          r##"[ERROR] [429]: { "error": { "code": 429, "message": "No capacity available for model gemini-3-flash-preview on the server", "status": "RESOURCE_EXHAUSTED", "details": [ { "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "MODEL_CAPACITY_EXHAUSTED", "domain": "cloudcode-pa.googleapis.com", "metadata": { "model": "gemini-3-flash-preview" } } ] } }"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/huggingface/huggingface_hub/issues/2175", "huggingface", Some(429), NONE,
          r##"429 Client Error: Too Many Requests for url: https://api-inference.huggingface.co/models"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/esengine/DeepSeek-Reasonix/issues/2387", "deepseek", Some(429), NONE,
          r##"DeepSeek 并发超限（429）：Rate limit reached for TPM。账号在跑的请求超过上限（v4-pro 500、v4-flash 2500，账号下所有 API key 累加）。通常是同一账号开了多个 Reasonix 进程，或者并行 subagent 一次发太多。等几秒重试、减少并行，或在 https://platform.deepseek.com 申请扩容。"##,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/langgenius/dify/issues/14543", "dify", Some(413), NONE,
          r##"Run failed: [google] Error: PluginInvokeError: {
    "args": null,
    "error_type": "PluginDaemonInnerError",
    "message": "encountered an error: invalid character '<' looking for beginning of value status: 413 Request Entity Too Large original response: <html>"
  }"##,
          TooLarge, false, None, N3, None, None),
        c("github.com/huggingface/text-generation-inference/issues/1802", "tgi", None, NONE,
          r##"Failed to buffer the request body: length limit exceeded"##,
          TooLarge, false, None, N3, None, None),
        c("github.com/DaWe35/image-router/issues/32", "imagerouter", None, NONE,
          r##"Insufficient credits. Please top up."##,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/felixbinder/introspection_self_prediction/issues/66", "vertex", Some(429), NONE,
          r##"Encountered API error: Exception Type: ResourceExhausted, Error Details: 429 Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model with base model: gemini-pro. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai."##,
          RateLimitRequests, true, None, N3, REQ, MIN),
        c("github.com/promptfoo/promptfoo/issues/374", "vertex", Some(429), NONE,
          r##"{"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: gemini-pro. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/quotas.","status":"RESOURCE_EXHAUSTED"}}"##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/google-gemini/gemini-cli/issues/15498", "vertex", Some(429), NONE,
          r##"✕ [API Error: Resource exhausted. Please try again later. Please refer to
  https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more
  details.]"##,
          Overloaded, true, None, N3, None, None),
        c("github.com/zai-org/GLM-5/issues/78", "zhipu", None, NONE,
          r##"API Error: [1302][您的账户已达到速率限制，请您控制请求频率]"##,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/agentscope-ai/QwenPaw/issues/2038", "modelscope", Some(429), NONE,
          r##"Error: Unknown agent error: RateLimitError: Error code: 429 - {'error': {'message': 'We have to rate limit you for model ZhipuAI/GLM-5. If you need higher limits, please consider other (commercial) API providers.', 'request_id': 'bd8d7fb0-9af3-4073-98e8-3b1e59267063'}}"##,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/cline/cline/issues/879", "anthropic", Some(429), NONE,
          r##"429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed your organization’s rate limit of 80,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits; see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."}}"##,
          RateLimitTokens, true, None, (Some(80000), None, None), TOK, MIN),
        c("github.com/aws-solutions/generative-ai-application-builder-on-aws/issues/207", "bedrock", Some(400), NONE,
          r##"{
    "level": "ERROR",
    "location": "handle_event:103",
    "message": "An exception occurred in the processing of chat: Error occurred while invoking Bedrock model family 'anthropic' model 'apac.anthropic.claude-3-5-sonnet-20241022-v2:0'. An error occurred (ValidationException) when calling the Converse operation: The model returned the following errors: Input is too long for requested model.",
    "timestamp": "2025-08-21 10:23:24,337+0000",
    "service": "BEDROCK_CHAT",
    "xray_trace_id": "1-68a6f390-ff0b18e031e0b7a792d9255d"
}"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/logancyang/obsidian-copilot/issues/256", "openai", Some(400), NONE,
          r##"LangChain error: Error: 400 max_tokens is too large: 10000. This model supports at most 4096 completion tokens, whereas you len provided 10000"##,
          ContextLength, false, None, (Some(4096), Some(10000), None), TOK, None),
        c("github.com/sigoden/aichat/pull/825", "voyage", Some(400), NONE,
          r##"Invalid response data: {"detail":"Request to model 'voyage-large-2-instruct' failed. The max allowed tokens per submitted batch is 120000. Your batch has 121138 tokens after truncation. Please lower the number of tokens in the batch."} (status: 400)"##,
          TooLarge, false, None, (Some(120000), Some(121138), None), None, None),
        c("github.com/sweepai/sweep/issues/3412", "voyage", Some(400), NONE,
          r##"voyageai.error.InvalidRequestError: Request to model 'voyage-code-2' failed. The example at index 0 in your batch has too many tokens and does not fit into the model's context window of 16000 tokens. Please lower the number of tokens in the listed example(s) or use truncation."##,
          ContextLength, false, None, (Some(16000), None, None), TOK, None),
        c("github.com/aurelio-labs/semantic-router/issues/297", "mistral", Some(400), NONE,
          r##"MistralAPIException: Status: 400. Message: {"object":"error","message":"Too many tokens in batch. Max is 16384 got 17555","type":"invalid_request_error","param":null,"code":null}"##,
          TooLarge, false, None, (Some(16384), Some(17555), None), TOK, None),
        c("github.com/diegosouzapw/OmniRoute/pull/7165", "cloudflare-workers-ai", Some(429), NONE,
          r##"you have used up your daily free allocation of 10,000 neurons"##,
          QuotaExhausted, false, None, (Some(10000), None, None), None, DAY),
        // GitHub Models' daily and per-minute caps, as public repositories' logs and tests quote them (found by code
        // search, which named no repository); the limits are the provider's documented ones.
        c("docs.github.com/en/github-models/use-github-models/prototyping-with-ai-models (its limits; the body as public repositories' logs and tests quote it)", "github-models", Some(429), NONE,
          r#"{"error":{"code":"RateLimitReached","message":"Rate limit of 50 per 86400s exceeded for UserByModelByDay. Please wait 5631 seconds before retrying.","details":"Rate limit of 50 per 86400s exceeded for UserByModelByDay. Please wait 5631 seconds before retrying."}}"#,
          QuotaExhausted, false, Some(5631000), (Some(50), None, None), None, DAY),
        c("docs.github.com/en/github-models/use-github-models/prototyping-with-ai-models (its limits; the body as public repositories' logs and tests quote it)", "github-models", Some(429), NONE,
          r#"Rate limit of 15 per 60s exceeded for UserByModelByMinute. Please wait 25 seconds before retrying."#,
          RateLimitOther, true, Some(25000), (Some(15), None, None), None, MIN),
        // ---------------------------------------------------------------- an eleventh public collection (2026-12-07): 37 providers, labelled by the helper that gathered them
        c("docs.llmgateway.io/troubleshooting/anthropic-529-overloaded", "anthropic", Some(529), NONE,
          r#"{
"type": "error",
"error": {
"type": "overloaded_error",
"message": "Overloaded"
}
}"#,
          Overloaded, true, None, N3, None, None),
        c("docs.litellm.ai/docs/proxy/error_reference", "litellm", Some(429), NONE,
          r#"{
"error": {
"message": "litellm.RateLimitError: RateLimitError: OpenAIException - Rate limit reached for gpt-4o-mini in organization org-abc on requests per min (RPM): Limit 3, Used 3.",
"type": "throttling_error",
"param": null,
"code": "429"
}
}"#,
          RateLimitRequests, true, None, (Some(3), None, Some(3)), REQ, MIN),
        c("openrouter.ai/docs/client-sdks/python/errors/paymentrequiredresponseerror.md", "openrouter", Some(402), NONE,
          r#"{"code": 402,"message": "Insufficient credits. Add more using [https://openrouter.ai/credits](https://openrouter.ai/credits)"}"#,
          QuotaExhausted, false, None, N3, None, None),
        c("forum.moonshot.ai/t/the-engine-is-currently-overloaded/569", "moonshot", None, NONE,
          r#"{‘error’: {‘message’: ‘The engine is currently overloaded, please try again later’, ‘type’: ‘engine_overloaded_error’}}"#,
          Overloaded, true, None, N3, None, None),
        c("learn.microsoft.com/en-us/answers/questions/1791032/rate-limit-exceeded", "azure", Some(429), NONE,
          r#"Error Server responded with status 429. Error message: {'error': {'code': '429', 'message': 'Rate limit is exceeded. Try again in 86400 seconds.'}}"#,
          RateLimitOther, true, Some(86400000), N3, None, None),
        c("github.com/zhayujie/CowAgent/issues/2910", "zhipu", Some(429), NONE,
          r#"{'error': True, 'message': 'Error code: 429, with error text {"error":{"code":"1113","message":"余额不足或无可用资源包,请充值。"}}', 'status_code': 500}"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/dyad-sh/dyad/issues/1469", "gemini", Some(429), NONE,
          r#"AI_RetryError: Failed after 3 attempts. Last error: You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.
* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 250000
Please retry in 30.638054576s.
"#,
          RateLimitTokens, true, Some(30639), (Some(250000), None, None), TOK, None),
        c("github.com/kirodotdev/Kiro/issues/8998", "kiro", None, NONE,
          r#"The model is temporarily busy. Please try again in a moment."#,
          Overloaded, true, None, N3, None, None),
        c("github.com/Afool4U/MIGPT/issues/11", "openai", Some(429), NONE,
          r#"Error: 429 Too Many Requests {
    "error": {
        "message": "You exceeded your current quota, please check your plan and billing details.",
        "type": "insufficient_quota",
        "param": null,
        "code": "insufficient_quota"
    }
}"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/TiaraBasori/OpenCode2API/issues/5", "opencode", Some(401), NONE,
          r#"Error: 401: {"message":"Insufficient balance. Manage your billing here: https://***.ai/***/***/***","type":"CreditsError","param":"","code":null}"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/google-gemini/gemini-cli/issues/16205", "gemini", None, NONE,
          r#"✕ [API Error: You have exhausted your daily quota on this model.]"#,
          QuotaExhausted, false, None, N3, None, DAY),
        c("github.com/huggingface/transformers/issues/11904", "huggingface", None, NONE,
          r#"{'error': 'Model Matthieu/stsb-xlm-r-multilingual is currently loading', 'estimated_time': 44.49033436}"#,
          Overloaded, true, Some(44491), N3, None, None),
        c("github.com/BerriAI/litellm/issues/1242", "huggingface", None, NONE,
          r#"litellm.exceptions.APIError: HuggingfaceException - response is not in expected format - [{'error': 'Model echarlaix/tiny-random-mistral is currently loading', 'estimated_time': 20.0}]"#,
          Overloaded, true, Some(20000), N3, None, None),
        c("www.dotnetstudioai.com/hospital/fix-429-rate-limit-exceeded-azure-openai-dotnet", "azure-openai", Some(429), &[("Retry-After", "6"), ("x-ratelimit-remaining-tokens", "0"), ("x-ratelimit-remaining-requests", "12")],
          r#"{
"error": {
"code": "429",
"message": "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds."
}
}"#,
          RateLimitTokens, true, Some(6000), N3, TOK, None),
        c("oppl.ai/llms/gemini_complex_1/JE00B3XR4V72.json", "gemini", Some(429), NONE,
          r#"{
    "error": "Gemini API error",
    "response": {
        "error": {
            "code": 429,
            "message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
            "status": "RESOURCE_EXHAUSTED",
            "details": [
                {
                    "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                    "violations": [
                        {
                            "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                            "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                            "quotaDimensions": {
                                "location": "global",
                                "model": "gemini-2.5-flash"
                            },
                            "quotaValue": "250"
                        }
                    ]
                },
                {
                    "@type": "type.googleapis.com/google.rpc.Help",
                    "links": [
                        {
                            "description": "Learn more about Gemini API quotas",
                            "url": "https://ai.google.dev/gemini-api/docs/rate-limits"
                        }
                    ]
                },
                {
                    "@type": "type.googleapis.com/google.rpc.RetryInfo",
                    "retryDelay": "22s"
                }
            ]
        }
    }
}"#,
          QuotaExhausted, false, Some(22000), (Some(250), None, None), Some(Dimension::RequestsPerDay), DAY),
        c("github.com/cline/cline/issues/440", "together", Some(503), NONE,
          r#"503 server is overloaded."#,
          Overloaded, true, None, N3, None, None),
        c("github.com/Alishahryar1/free-claude-code/issues/30", "nvidia-nim", Some(429), NONE,
          r#"Error code: 429 - {'status': 429, 'title': 'Too Many Requests'}"#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/IBM/unitxt/issues/1215", "watsonx", Some(429), NONE,
          r#"{
    "errors": [
        {
            "code": "rate_limit_reached_requests",
            "message": "Rate limit of 8 requests per 1s was reached for instance id <INSTANCE_ID> (user <USER_ID>, plan v2-standard)",
            "more_info": "https://cloud.ibm.com/apidocs/watsonx-ai"
        }
    ],
    "trace": "1a29827ea1b6c65ae7f7376487c3c7fe",
    "status_code": 429
}"#,
          RateLimitRequests, true, None, (Some(8), None, None), REQ, None),
        c("github.com/github/copilot-cli/issues/3819", "github-copilot", None, NONE,
          r#"✗ You've hit your rate limit. Please wait for your limit to reset in 3 hours 49 minutes or switch to auto model to continue. Learn More (https://docs.github.com/copilot/concepts/rate-limits)."#,
          RateLimitOther, true, Some(13740000), N3, None, None),
        c("github.com/wandb/docs/pull/1769", "wandb", Some(402), NONE,
          r#"You exceeded your current quota, please check your plan and billing details"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/lemonade-sdk/lemonade/pull/2975", "llama.cpp", Some(400), NONE,
          r#"{"error":{"code":400,"message":"request (6009 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":6009,"n_ctx":4096}}"#,
          ContextLength, false, None, (Some(4096), Some(6009), None), TOK, None),
        c("github.com/caidaoli/ccLoad/pull/69", "sub2api", Some(200), NONE,
          r#"data: {"type": "ping"}
data: {"type": "ping"}
data: {"type":"error","error":{"type":"rate_limit_error","message":"Concurrency limit exceeded for account, please retry later"}}"#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/farzaa/clicky/issues/132", "anthropic", Some(200), &[("Content-Type", "text/event-stream")],
          r#"event: error
data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}

"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/stanfordnlp/dspy/pull/203", "openai", Some(502), &[("Content-Type", "application/json"), ("Content-Length", "84"), ("Server", "cloudflare"), ("CF-RAY", "81f306648c6ab0ed-ATL")],
          r#"openai.error.APIError: Bad gateway. {"error":{"code":502,"message":"Bad gateway.","param":null,"type":"cf_bad_gateway"}} 502 {'error': {'code': 502, 'message': 'Bad gateway.', 'param': None, 'type': 'cf_bad_gateway'}} {'Date': 'Wed, 01 Nov 2023 09:23:59 GMT', 'Content-Type': 'application/json', 'Content-Length': '84', 'Connection': 'keep-alive', 'X-Frame-Options': 'SAMEORIGIN', 'Referrer-Policy': 'same-origin', 'Cache-Control': 'private, max-age=0, no-store, no-cache, must-revalidate, post-check=0, pre-check=0', 'Expires': 'Thu, 01 Jan 1970 00:00:01 GMT', 'Server': 'cloudflare', 'CF-RAY': '81f306648c6ab0ed-ATL', 'alt-svc': 'h3=":443"; ma=86400'}"#,
          Other, true, None, N3, None, None),
        c("github.com/smol-ai/developer/issues/7", "openai", Some(400), NONE,
          r#"openai.error.InvalidRequestError: This model's maximum context length is 4097 tokens. However, your messages resulted in 7575 tokens. Please reduce the length of the messages."#,
          ContextLength, false, None, (Some(4097), Some(7575), None), TOK, None),
        c("github.com/dirk1983/deepseek/issues/11", "openai", Some(400), NONE,
          r#"Server returned an error message：This model's maximum context length is 4096 tokens. However, you requested 4222 tokens (1222 in the messages, 3000 in the completion). Please reduce the length of the messages or completion."#,
          ContextLength, false, None, (Some(4096), Some(4222), None), TOK, None),
        c("github.com/lmstudio-ai/model-catalog/issues/38", "lmstudio", None, NONE,
          r#"An error occurred

Input length 1581 exceeds context length 1500"#,
          ContextLength, false, None, (Some(1500), Some(1581), None), TOK, None),
        c("community.sambanova.ai/t/api-error-codes/196", "sambanova", Some(400), NONE,
          r#"{
  "error": {
    "message": "Decimal above maximum value. Expected a value between 0 and 1, but got 100 instead.",
    "type": "invalid_request_error",
    "param": "top_p",
    "code": "decimal_above_max_value"
  }
}"#,
          Other, false, None, N3, None, None),
        c("github.com/open-webui/open-webui/issues/3273", "nginx", Some(413), NONE,
          r#"<html>
<head><title>413 Request Entity Too Large</title></head>
<body>
<center><h1>413 Request Entity Too Large</h1></center>
<hr><center>nginx/1.26.1</center>
</body>
</html>
<!-- a padding to disable MSIE and Chrome friendly error page -->
<!-- a padding to disable MSIE and Chrome friendly error page -->
<!-- a padding to disable MSIE and Chrome friendly error page -->
<!-- a padding to disable MSIE and Chrome friendly error page -->
<!-- a padding to disable MSIE and Chrome friendly error page -->
<!-- a padding to disable MSIE and Chrome friendly error page -->"#,
          TooLarge, false, None, N3, None, None),
        c("github.com/wandb/openui/issues/150", "openai", Some(413), NONE,
          r#"fastapi.exceptions.HTTPException: 413: Error code: 413 - {'error': {'message': 'Request Entity Too Large', 'type': 'invalid_request_error', 'code': 'request_too_large'}}"#,
          TooLarge, false, None, N3, None, None),
        c("github.com/etalab-ia/OpenGateLLM/issues/116", "albert-api", Some(504), NONE,
          r#"Albert API error: <html>
<head><title>504 Gateway Time-out</title></head>
<body>
<center><h1>504 Gateway Time-out</h1></center>
<hr><center>nginx/1.27.0</center>
</body>
</html>"#,
          Other, true, None, N3, None, None),
        c("github.com/cline/cline/issues/651", "vertex-anthropic", Some(429), NONE,
          r#"429 [{"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-3-5-sonnet-v2. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.","status":"RESOURCE_EXHAUSTED"}}]"#,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/yym68686/uni-api/issues/41", "vertex-anthropic", Some(400), NONE,
          r#"[{'error': {'code': 400, 'message': 'Project `*********` is not allowed to use Publisher Model `projects/*****-*****-********-m8/locations/asia-southeast1/publishers/anthropic/models/claude-3-sonnet@20240229`', 'status': 'FAILED_PRECONDITION'}}]"#,
          Other, false, None, N3, None, None),
        c("github.com/MiniMax-AI/MiniMax-M2/issues/16", "minimax", Some(413), NONE,
          r#"API Error: 413 <html>
     <head><title>413 Request Entity Too Large</title></head>
     <body>"#,
          TooLarge, false, None, N3, None, None),
        c("github.com/darko-mesaros/bedrust/issues/47", "bedrock", Some(503), NONE,
          r#"Error: Can't invoke. Reason: Bedrock is unable to process your request."#,
          Overloaded, true, None, N3, None, None),
        c("github.com/Aider-AI/aider/issues/2530", "bedrock", Some(503), NONE,
          r#"httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'https://bedrock-runtime.us-west-2.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2:0/converse'
For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/503"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/langgenius/dify-official-plugins/issues/1997", "jina", Some(400), NONE,
          r#"[models] Bad Request Error, [RID: ec422fa8b74c3c20b493406ac1388555] Validation error: 'body -> jina-embeddings-v4' Each input list can contain at most 512 items.. Field errors: : Invalid value"#,
          TooLarge, false, None, (Some(512), None, None), None, None),
        c("github.com/openai/openai-cookbook/issues/141", "openai", Some(429), NONE,
          r#"Rate limit reached for default-global-with-image-limits in organization org-REDACTED on requests per min. Limit: 60.000000 / min. Current: 70.000000 / min. Contact support@openai.com if you continue to have issues. Please add a payment method to your account to increase your rate limit. Visit https://platform.openai.com/account/billing to add a payment method."#,
          RateLimitRequests, true, None, (Some(60), None, Some(70)), REQ, MIN),
        c("github.com/langgenius/dify/issues/11694", "dashscope", Some(429), NONE,
          r#"2024-12-16 09:29:32.967 ERROR [ThreadPoolExecutor-221_1] [http_request.py:181] - Request: https://dashscope.aliyuncs.com/api/v1/services/embeddings/text-embedding/text-embedding failed, status: 429, message: Requests rate limit exceeded, please try again later."#,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/warpdotdev/warp/issues/15402", "fireworks", Some(400), NONE,
          r#"Fireworks API error: POST "https://api.fireworks.ai/inference/v1/chat/completions": 400 Bad Request {"object":"error","type":"invalid_request_error","code":"invalid_request_error","message":"The prompt is too long: 264613, model maximum context length: 262141"}"#,
          ContextLength, false, None, (Some(262141), Some(264613), None), TOK, None),
        c("github.com/perplexityai/api-discussion/issues/281", "perplexity", Some(401), NONE,
          r#"<html>
<head><title>401 Authorization Required</title></head>
<body>
<center><h1>401 Authorization Required</h1></center>
<hr><center>openresty/1.27.4</center>
<script>(function(){function c(){var b=a.contentDocument||a.contentWindow.document;if(b){var d=b.createElement('script');d.innerHTML="window.__CF$cv$params={r:'930dc0abc8f136da',t:'MTc0NDc0NDMyNy4wMDAwMDA='};var a=document.createElement('script');a.nonce='';a.src='/cdn-cgi/challenge-platform/scripts/jsd/main.js';document.getElementsByTagName('head')[0].appendChild(a);";b.getElementsByTagName('head')[0].appendChild(d)}}if(document.body){var a=document.createElement('iframe');a.height=1;a.width=1;a.style.position='absolute';a.style.top=0;a.style.left=0;a.style.border='none';a.style.visibility='hidden';document.body.appendChild(a);if('loading'!==document.readyState)c();else if(window.addEventListener)document.addEventListener('DOMContentLoaded',c);else{var e=document.onreadystatechange||function(){};document.onreadystatechange=function(b){e(b);'loading'!==document.readyState&&(document.onreadystatechange=e,c())}}}})();</script></body>
</html>"#,
          Other, false, None, N3, None, None),
        c("github.com/openclaw/openclaw/issues/36182", "perplexity", Some(401), NONE,
          r#"Perplexity Search API error (401): {"error":{"message":"Invalid API key provided. You can find your API key at https://www.perplexity.ai/settings/api.","type":"invalid_api_key","code":401}}"#,
          Other, false, None, N3, None, None),
        c("github.com/lobehub/lobehub/issues/2795", "openai", Some(429), &[("content-type", "text/plain; charset=UTF-8"), ("content-length", "16"), ("retry-after", "54749")],
          r#"error code: 1015"#,
          RateLimitOther, true, Some(54749000), N3, None, None),
        c("github.com/harry0703/MoneyPrinterTurbo/issues/208", "moonshot", Some(429), NONE,
          r#"RateLimitError: Error code: 429 - {'error': {'message': 'max request per minute reached: 3, please try again after 1 seconds', 'type': 'rate_limit_reached_error'}}"#,
          RateLimitRequests, true, Some(1000), (Some(3), None, None), REQ, MIN),
        c("github.com/MoonshotAI/Kimi-K2.5/issues/42", "moonshot", Some(429), NONE,
          r#"The engine is currently overloaded, please try again later (HTTP Status: 429)"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/nicepkg/aide/issues/80", "volcengine", Some(404), NONE,
          r#"404 The request targeted an endpoint that does not exist or is invalid. Request id: 02172282444093840571e3ce5f26177b37c29bf9d076c3b40a73e"#,
          Other, false, None, N3, None, None),
        c("github.com/huggingface/huggingface_hub/issues/2763", "huggingface", Some(422), NONE,
          r#"{
    "error": {
        "message": "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 8740 `inputs` tokens and 500 `max_new_tokens`",
        "http_status_code": 422
    }
}"#,
          ContextLength, false, None, (Some(4096), Some(9240), None), TOK, None),
        c("github.com/stanford-crfm/helm/issues/188", "ai21", None, NONE,
          r#"AI21 error: 50 per 1 minute"#,
          RateLimitOther, true, None, (Some(50), None, None), None, MIN),
        c("errornotes.dev/en/errors/ai-tools/fix-coheretoomanyrequestserror-429-cohere-trial-key-rate-limit-exceeded", "cohere", Some(429), NONE,
          r#"cohere.errors.too_many_requests_error.TooManyRequestsError: status_code: 429, body: You are using a Trial key, which is limited to 10 API calls / minute. Upgrade to a Production key to increase your rate limit."#,
          RateLimitRequests, true, None, (Some(10), None, None), REQ, MIN),
        c("github.com/ollama/ollama/issues/2203", "ollama", Some(404), NONE,
          r#"Exception: API call got non-200 response code (code=404, msg={"error":"model 'codellama:7b-instruct-q6_K' not found, try pulling it first"}) for address: http://127.0.0.1:63321/api/generate. Make sure that the ollama API server is running and reachable at http://127.0.0.1:63321/api/generate."#,
          Other, false, None, N3, None, None),
        c("github.com/compl-ai/compl-ai/issues/20", "azure-openai", Some(400), NONE,
          r#"{'error': {'message': "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766", 'type': None, 'param': 'prompt', 'code': 'content_filter', 'status': 400, 'innererror': {'code': 'ResponsibleAIPolicyViolation', 'content_filter_result': {'hate': {'filtered': False, 'severity': 'safe'}, 'jailbreak': {'filtered': False, 'detected': False}, 'self_harm': {'filtered': False, 'severity': 'safe'}, 'sexual': {'filtered': False, 'severity': 'safe'}, 'violence': {'filtered': True, 'severity': 'medium'}}}}}"#,
          Other, false, None, N3, None, None),
        c("github.com/mckaywrigley/repo-chat/issues/13", "openai", None, NONE,
          r#"2023-05-09 17:07:39,503:INFO - error_code=None error_message='The server is currently overloaded with other requests. Sorry about that! You can retry your request, or contact us through our help center at help.openai.com if the error persists.' error_param=None error_type=server_error message='OpenAI API error received' stream_error=False"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/binary-husky/gpt_academic/issues/1824", "baidu-qianfan", None, NONE,
          r#"RuntimeError: Open api daily request limit reached"#,
          QuotaExhausted, false, None, N3, Some(Dimension::RequestsPerDay), DAY),
        c("github.com/anthropics/claude-code/issues/8118", "anthropic", Some(500), NONE,
          r#"Error: 500 {"type":"error","error":{"type":"api_error","message":"Overloaded"},"request_id":null}"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/replicate/replicate-python/issues/445", "replicate", Some(429), NONE,
          r#"Error generating image: Error: HTTP error! status: 400 - {"error":"Replicate API error: 429 - {\"detail\":\"Request was throttled. Your rate limit resets in ~10s.\",\"status\":429,\"retry_after\":10}\n","success":false}"#,
          RateLimitOther, true, Some(10000), N3, None, None),
        c("github.com/replicate/replicate-javascript/issues/74", "replicate", Some(402), NONE,
          r#"Error: API request failed: Payment Required"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/anthropics/claude-code/issues/47113", "anthropic", Some(400), NONE,
          r#"Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 209375 tokens > 200000 maximum"},"request_id":"req_011CZzaJU6FVzDrNhvLAntgu"}"#,
          ContextLength, false, None, (Some(200000), Some(209375), None), TOK, None),
        c("github.com/Aider-AI/aider/pull/4495", "vercel-ai-gateway", None, NONE,
          r#"Free credits temporarily have restricted access due to abuse. We are working on a resolution. 
Paid credits continue to have unrestricted access. Read more on how to purchase credits at https://vercel.com/docs/ai-gateway/pricing"#,
          QuotaExhausted, false, None, N3, None, None),
        c("github.com/astrio-labs/forall/issues/76", "openrouter", Some(402), NONE,
          r#"litellm.APIError: APIError: OpenrouterException - {"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 64000 tokens, but can only afford 2666. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account","code":402,"metadata":{"provider_name":null}},"user_id":"user_REDACTED"}"#,
          QuotaExhausted, false, None, (Some(2666), Some(64000), None), Some(Dimension::OutputTokens), None),
        c("github.com/stackblitz/bolt.new/issues/8578", "anthropic", Some(429), NONE,
          r#"Failed after 3 attempts. Last error: This request would exceed the rate limit for your organization (REDACTED) of 1,000,000 input tokens per minute. For details, refer to: https://docs.anthropic.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."#,
          RateLimitTokens, true, None, (Some(1000000), None, None), TOK, MIN),

        // ---------------------------------------------------------------- a twelfth public collection (2026-12-07): 35 providers, labelled by the helper that gathered them
        c("strdtime.com/articles/447-groq-ai-rate-limit-error", "groq", Some(429), NONE,
          r#"Rate limit reached for model openai/gpt-oss-20b in organization org_01 service tier on_demand on tokens per day (TPD): Limit 200,000 · Used 199,336 · Requested 1,524 Please try again in 6m 11.52s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing"#,
          RateLimitTokens, true, Some(360000), (Some(200000), Some(1524), Some(199336)), Some(Dimension::TokensPerDay), DAY),
        c("www.answeroverflow.com/m/1429996101569613855", "cloudflare-workers-ai", None, NONE,
          r#""error": {
"message": "4006: you have used up your daily free allocation of 10,000 neurons, please upgrade to Cloudflare's Workers Paid plan if you would like to continue usage.",
"stage": "pipeline",
"code": "internal_error"
},
"timestamp": "2025-10-27T08:26:51.928Z""#,
          QuotaExhausted, false, None, (Some(10000), None, None), None, DAY),
        c("answeroverflow.com/m/1349849373210574900", "cloudflare-workers-ai", Some(429), NONE,
          r#"3040: Capacity temporarily exceeded, please try again."#,
          Overloaded, true, None, N3, None, None),
        c("www.techrounder.com/blog/how-to-fix-kimi-moonshot-429-rate_limit_reached_error-tpd-when-you-havent-used-it/", "moonshot", Some(429), NONE,
          r#"Error code: 429 … request reached organization TPD rate limit, current: 1501880, limit: 1500000"#,
          QuotaExhausted, false, None, (Some(1500000), None, Some(1501880)), Some(Dimension::TokensPerDay), DAY),
        c("github.com/continuedev/continue/issues/10947", "openrouter", Some(429), NONE,
          r#"429 Provider returned error"#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/huggingface/huggingface_hub/blob/bb5c9971296344673ff4c968c79643b59e819f1c/tests/test_inference_client.py", "tgi", Some(200), NONE,
          r#"data: {"error":"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 6 `inputs` tokens and 4091 `max_new_tokens`","error_type":"validation"}"#,
          ContextLength, false, None, (Some(4096), Some(4097), None), TOK, None),
        c("github.com/dyad-sh/dyad/issues/925", "lmstudio", None, NONE,
          r#"{
  error: 'Trying to keep the first 14538 tokens when context the overflows. However, the model is loaded with context length of only 2048 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input'
}"#,
          ContextLength, false, None, (Some(2048), Some(14538), None), TOK, None),
        c("github.com/fedora-copr/logdetective/issues/100", "llama-cpp-python", None, NONE,
          r#"xception: Requested tokens (2138) exceed context window of 2048"#,
          ContextLength, false, None, (Some(2048), Some(2138), None), TOK, None),
        c("github.com/mudler/LocalAI/issues/1150", "localai", None, NONE,
          r#"rpc error: code = ResourceExhausted desc = grpc: received message larger than max (400000002 vs. 4194304)"#,
          TooLarge, false, None, (Some(4194304), Some(400000002), None), None, None),
        c("github.com/sgl-project/sglang/issues/4048", "sglang", None, NONE,
          r#"Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens)."#,
          ContextLength, false, None, (Some(59862), Some(160062), None), TOK, None),
        c("github.com/llmmllab/llmmllab-api/issues/202", "llama.cpp", Some(500), NONE,
          r#"Error code: 500 - {'error': {'code': 500, 'message': 'Context size has been exceeded.', 'type': 'server_error'}}"#,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/arbs-io/github-copilot-llm-gateway/issues/55", "llama.cpp", Some(400), NONE,
          r#"Chat completion failed: 400 Bad Request - {"error":{"code":400,"message":"request (124315 tokens) exceeds the available context size (123904 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":124315,"n_ctx":123904}}"#,
          ContextLength, false, None, (Some(123904), Some(124315), None), TOK, None),
        c("github.com/TheValkyrja/VertexClaudeProxy/issues/5", "vertex-anthropic", None, NONE,
          r#"{'type': 'error', 'error': {'type': 'RESOURCE_EXHAUSTED', 'message': 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-3-5-sonnet. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.'}}"#,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/cg-dot/vertexai-cf-workers/issues/18", "vertex-anthropic", Some(429), NONE,
          r#"    "code": 429,
    "message": "Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-3-5-sonnet. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.",
    "status": "RESOURCE_EXHAUSTED""#,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/voideditor/void/issues/426", "gemini", Some(429), &[("content-type", "application/json; charset=UTF-8"), ("server", "scaffolding on HTTPServer2"), ("date", "Mon, 21 Apr 2025 10:37:22 GMT")],
          r#"{
  "status": 429,
  "headers": {
    "alt-svc": "h3=\":443\"; ma=2592000,h3-29=\":443\"; ma=2592000",
    "content-encoding": "gzip",
    "content-type": "application/json; charset=UTF-8",
    "date": "Mon, 21 Apr 2025 10:37:22 GMT",
    "server": "scaffolding on HTTPServer2",
    "server-timing": "gfet4t7; dur=71",
    "transfer-encoding": "chunked",
    "vary": "Origin, X-Origin, Referer",
    "x-content-type-options": "nosniff",
    "x-frame-options": "SAMEORIGIN",
    "x-xss-protection": "0"
  }
}"#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/laurent22/joplin/issues/16428", "joplin-cloud", Some(400), NONE,
          r#"Code: 400
Error: Upstream returned 429"#,
          RateLimitOther, true, None, N3, None, None),
        c("community.databricks.com/t5/generative-ai/permission-denied-the-endpoint-is-temporarily-disabled-due-to-a/td-p/150773", "databricks", None, NONE,
          r#""error_code":"PERMISSION_DENIED","message":"PERMISSION_DENIED: The endpoint is temporarily disabled due to a Databricks-set rate limit of 0."}%"#,
          QuotaExhausted, false, None, (Some(0), None, None), None, None),
        c("f8cxtsvnr8.apifox.cn/apidoc/project-3794483/doc-3441122", "baichuan", Some(429), NONE,
          r#"Insufficient account balance, please recharge"#,
          QuotaExhausted, false, None, N3, None, None),
        c("docs.cloudbase.net/faq/knowledge/ai-429-error-and-token-quota", "tencent-cloudbase", Some(429), NONE,
          r#"{
"code": "EXCEED_TOKEN_QUOTA_LIMIT",
"message": "Token usage exceeded quota limit."
}"#,
          QuotaExhausted, false, None, N3, TOK, None),
        c("docs.cloudbase.net/en/error-code/service/EXCEED_CONCURRENT_REQUEST_LIMIT", "tencent-cloudbase", None, NONE,
          r#"The invocation of the large model has exceeded the concurrency limit. Please wait a moment and try again, or submit a ticket to apply for an increase in concurrency."#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/huggingface/transformers/issues/25220", "hf-inference-api", Some(422), NONE,
          r#"ValueError: Error 422: {'error': 'Input validation error: `inputs` must have less than 1024 tokens. Given: 1553', 'error_type': 'validation'}"#,
          ContextLength, false, None, (Some(1024), Some(1553), None), TOK, None),
        c("github.com/ProfSynapse/nexus/issues/17", "anthropic", Some(400), NONE,
          r#"400 {"type":"error","error":{"type":"invalid_request_error","message":"`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size"},"request_id":"req_011CXs6hk18SX5aBxD3jchRc"}"#,
          Other, false, None, N3, None, None),
        c("github.com/web-infra-dev/midscene/issues/315", "tgi", Some(422), NONE,
          r#"422 "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 32768. Given: 82004 `inputs` tokens and 2048 `max_new_tokens`""#,
          ContextLength, false, None, (Some(32768), Some(84052), None), TOK, None),
        c("github.com/yuntianhe2014/Easy-RAG/issues/9", "ollama", Some(500), NONE,
          r#"ValueError: Ollama call failed with status code 500. Details: {"error":"model requires more system memory (3.7 GiB) than is available (3.6 GiB)"}"#,
          Other, true, None, N3, None, None),
        c("github.com/BerriAI/litellm/pull/40002", "litellm", Some(429), NONE,
          r#"{"error":{"message":"Budget has been exceeded! Key=REDACTED Current cost: 0.0, Estimated request cost: 3.6432300000000004, Max budget: 2.5","type":"budget_exceeded","param":null,"code":"429"}}"#,
          QuotaExhausted, false, None, N3, None, None),
        c("docs.siliconflow.cn/faqs/error-code", "siliconflow", Some(400), &[("Date", "Thu, 19 Dec 2024 08:39:19 GMT"), ("Content-Type", "application/json; charset=utf-8"), ("Content-Length", "87"), ("Connection", "keep-alive")],
          r#"{"code":20012,"message":"Model does not exist. Please check it carefully.","data":null}"#,
          Other, false, None, N3, None, None),
        c("3dpixelmaster.emperinter.com/error-429-messagerequest-was-rejected-due-to-rate-limiting-if-you-want-more-please-contact-contactsiliconflow-cndatanull-34/", "siliconflow", Some(429), NONE,
          r#"429, {message:Request was rejected due to rate limiting. If you want more, please contact [email protected], data: null}"#,
          RateLimitOther, true, None, N3, None, None),
        c("github.com/aws-samples/aws-genai-llm-chatbot/issues/220", "bedrock", None, NONE,
          r#"<class 'botocore.exceptions.EventStreamError'>:An error occurred (throttlingException) when calling the InvokeModelWithResponseStream operation: Too many requests, please wait before trying again. You have sent too many requests. Wait before trying again."#,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/2FastLabs/agent-squad/issues/47", "bedrock", None, NONE,
          r#"An error occurred (ThrottlingException) when calling the Converse operation (reached max retries: 4): Too many requests, please wait before trying again. You have sent too many requests. Wait before trying again."#,
          RateLimitRequests, true, None, N3, REQ, None),
        c("github.com/VeraTools/vera/pull/18", "voyage", Some(400), NONE,
          r#"embedding API error (status 400): {"detail":"Request to model 'voyage-code-3' failed. The max allowed tokens per submitted batch is 120000. Your batch has 124417 tokens after truncation. Please lower the number of tokens in the batch."}"#,
          TooLarge, false, None, (Some(120000), Some(124417), None), None, None),
        c("github.com/kenn-io/agentsview/issues/1356", "voyage", Some(400), NONE,
          r#"status 400: The max allowed tokens per submitted batch is 120000.
Your batch has 147910 tokens after truncation.  TOO_MANY_TOKENS_IN_BATCH"#,
          TooLarge, false, None, (Some(120000), Some(147910), None), None, None),
        c("github.com/continuedev/continue/issues/11584", "openrouter", Some(402), NONE,
          r#"402 Prompt tokens limit exceeded: 23229 > 14796. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account"#,
          QuotaExhausted, false, None, (Some(14796), Some(23229), None), TOK, None),
        c("github.com/lm-sys/FastChat/issues/2432", "fastchat", None, NONE,
          r#"{"object":"error","message":"This model's maximum context length is 2048 tokens. However, you requested 3583 tokens (583 in the messages, 3000 in the completion). Please reduce the length of the messages or completion.","code":40303}"#,
          ContextLength, false, None, (Some(2048), Some(3583), None), TOK, None),
        c("github.com/BerriAI/litellm/issues/29703", "litellm", Some(500), NONE,
          r#"OciException - param `n` is not supported on OCI"#,
          Other, true, None, N3, None, None),
        c("github.com/MaartenGr/BERTopic/issues/1864", "cohere", None, NONE,
          r#"CohereAPIError: model 'xlarge' not found, make sure the correct model ID was used and that you have access to the model."#,
          Other, false, None, N3, None, None),
        c("github.com/Kilo-Org/kilocode/issues/2262", "gemini", Some(503), NONE,
          r#"خطأ في تدفق السياق من Gemini: got status: 503 Service Unavailable. {"error":{"message":"{\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"The model is overloaded. Please try again later.\",\n    \"status\": \"UNAVAILABLE\"\n  }\n}\n","code":503,"status":"Service Unavailable"}}"#,
          Overloaded, true, None, N3, None, None),
        c("github.com/langgenius/dify/issues/14986", "dashscope", Some(400), NONE,
          r#"[models] Server Unavailable Error, Failed to invoke model qwen-max-latest, status code: 400, message: <400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 30720]"#,
          ContextLength, false, None, (Some(30720), None, None), TOK, None),
        c("github.com/openai/codex/issues/1352", "xai", Some(400), NONE,
          r#"OpenAI rejected the request. Error details: Status: 400, Code: unknown, Type: unknown, Message: 400 "Incorrect API
    key provided: sk***gA. You can obtain an API key from https://console.x.ai.". Please verify your settings and try again."#,
          Other, false, None, N3, None, None),
        c("github.com/anomalyco/opencode/issues/1551", "cerebras", None, NONE,
          r#"AI_APICallError with Qwen 3 Coder 480b: Please reduce the length of the messages or completion. Current length is 69553 while limit is 65536"#,
          ContextLength, false, None, (Some(65536), Some(69553), None), TOK, None),
        c("github.com/lbjlaq/Antigravity-Manager/issues/1198", "antigravity-manager", None, NONE,
          r#"Token error: All accounts are currently limited. Please wait 84152s."#,
          RateLimitOther, true, Some(84152000), N3, None, None),
        c("github.com/Alishahryar1/free-claude-code/issues/391", "nvidia-nim", Some(400), NONE,
          r#"Error code: 400 - {'error': {'message': "This model's maximum context length is 196608 tokens. However, your messages resulted in 199906 tokens. Please reduce the length of the messages.", 'type': 'Bad Request', 'code': 400}} (request_id=req_e60975c13a6c)"#,
          ContextLength, false, None, (Some(196608), Some(199906), None), TOK, None),
        c("github.com/skapadia3214/groq-moa/issues/8", "groq", Some(400), NONE,
          r#"BadRequestError: Error code: 400 - {'error': {'message': 'max_tokens for `llama-3.1-8b-instant` must be less than or equal to 8000', 'type': 'invalid_request_error'}}"#,
          ContextLength, false, None, (Some(8000), None, None), TOK, None),
        c("github.com/Gitlawb/openclaude/issues/353", "lmstudio", Some(400), NONE,
          r#"{"error":"The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter input."}"#,
          ContextLength, false, None, (Some(4096), Some(13055), None), TOK, None),
        c("github.com/stanford-crfm/helm/issues/97", "openai", Some(429), NONE,
          r#"OpenAI error: Rate limit reached for tokens. Limit: 150000.000000 / min. Current: 176000.000000 / min. Contact support@openai.com if you continue to have issues."#,
          RateLimitTokens, true, None, (Some(150000), None, Some(176000)), TOK, MIN),
        c("github.com/MoonshotAI/MoonshotAI-Cookbook/issues/18", "moonshot", Some(400), NONE,
          r#"code: 400 - {'error': {'message': 'model max length exceeded, max length:8192',"#,
          ContextLength, false, None, (Some(8192), None, None), TOK, None),
        c("github.com/HeyPuter/puter/issues/3564", "deepinfra", None, NONE,
          r#"{"type": "error", "message": "Upstream error from DeepInfra: max_tokens=131072 cannot be greater than max_model_len=max_total_tokens=28672. Please request fewer output tokens. (parameter=max_tokens, value=131072)"}"#,
          ContextLength, false, None, (Some(28672), Some(131072), None), TOK, None),
        c("github.com/cline/cline/issues/940", "openrouter", None, NONE,
          r#"max_tokens limit exceeded: 100000 > 9577. To increase, visit https://openrouter.ai/keys and create a key with a higher limit"#,
          QuotaExhausted, false, None, (Some(9577), Some(100000), None), TOK, None),
        c("github.com/hotovo/aider-desk/issues/103", "openrouter", Some(200), NONE,
          r#"APIConnectionError. OpenrouterException - openrouter raised a streaming error - finish_reason. error, no content string given. Received Chunk={'text'. '', 'is_finished'. True, 'finish_reason'. 'error', 'logprobs'. None, 'original_chunk'. ModelResponseStream(id='gen-1746476745-fk1UtxcLOZMNLZYIIVow', created=1746476745, model='deepseek/deepseek-r1', object='chat.completion.chunk', system_fingerprint=None, choices=[StreamingChoices(error={'message'. 'Error processing stream', 'code'. 502, 'metadata'. {'provider_name'. 'DeepInfra', 'raw'. {'retryable'. True}}}, native_finish_reason='error', finish_reason='error', index=0, delta=Delta(provider_specific_fields=None, content='', role='assistant', function_call=None, tool_calls=None, audio=None), logprobs=None)], provider_specific_fields=None), 'usage'. None}"#,
          Other, true, None, N3, None, None),
        c("github.com/openai/codex/issues/10061", "openai", None, NONE,
          "stream disconnected before completion: Rate limit reached for organization org-{xxx} on tokens per min (TPM): Limit 250000, Used 250000, Requested 22700. Please try\nagain in 5.448s. Visit https://platform.openai.com/account/rate-limits to learn more.",
          RateLimitTokens, true, Some(5448), (Some(250000), Some(22700), Some(250000)), TOK, MIN),
        c("docs.together.ai/docs/error-codes", "together", Some(403), NONE,
          r#"Input token count + max_tokens parameter must be less than the context length of the model being queried."#,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/bhdicaire/visioStencils/issues/3", "perplexity", Some(400), NONE,
          r#"[Service Issue] Perplexity: Bad Request (400): "error": { "message": "Invalid model 'llama-3-sonar-large-32k-online'. Permitted models can be found in the documentation at https://docs.perplexity.ai/docs/model-cards.", "type": "invalid_model", "code": 400 } [DEV_URL: https://api.perplexity.ai/chat/completions]"#,
          Other, false, None, N3, None, None),
        c("github.com/deepseek-ai/DeepSeek-V2/issues/30", "deepseek", Some(400), NONE,
          r#"BadRequestError: Error code: 400 - {'detail': 'Content Exists Risk'}"#,
          Other, false, None, N3, None, None),
        c("github.com/bytedance/deer-flow/issues/66", "deepseek", Some(400), NONE,
          r#"openai.BadRequestError: Error code: 400 - {'error': {'message': "This model's maximum context length is 65536 tokens. However, you requested 87731 tokens (87731 in the messages, 0 in the completion). Please reduce the length of the messages or completion.", 'type': 'invalid_request_error', 'param': None, 'code': 'invalid_request_error'}}"#,
          ContextLength, false, None, (Some(65536), Some(87731), None), TOK, None),
        c("github.com/666ghj/BettaFish/issues/108", "deepseek", Some(400), NONE,
          r#"HTTP Request: POST https://api.deepseek.com/chat/completions "HTTP/1.1 400 Bad Request"
{'error': {'message': 'Content Exists Risk', 'type': 'invalid_request_error', 'param': None, 'code': 'invalid_request_error'}}"#,
          Other, false, None, N3, None, None),
        c("github.com/labring/FastGPT/issues/1595", "fastgpt", None, NONE,
          r#"当前上游负载已饱和，请稍后再试。"#,
          RateLimitOther, true, None, N3, None, None),
        // Refusals gathered in round 58 (public issue threads, none used before); each was misread before its fix.
        c("github.com/OpenHands/OpenHands/issues/4957", "anthropic", Some(429), NONE,
          r##"litellm.RateLimitError: AnthropicException - {"type":"error","error":{"type":"rate_limit_error","message":"Number of tokens has exceeded your per-minute rate limit (https://docs.anthropic.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase."}}"##,
          RateLimitTokens, true, None, N3, TOK, MIN),
        c("github.com/n8n-io/n8n/issues/19117", "openrouter", None, NONE,
          r##"{
  "errorMessage": "OpenAI: Rate limit reached",
  "errorDescription": "Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day",
  "errorDetails": {},
  "n8nDetails": {
    "time": "3/9/2025, 05.17.16",
    "n8nVersion": "1.109.1 (Self Hosted)",
    "binaryDataMode": "default"
  }
}"##,
          QuotaExhausted, false, None, N3, Some(Dimension::RequestsPerDay), DAY),
        c("github.com/vllm-project/vllm-ascend/issues/7535", "vllm", Some(400), &[("date", "Fri, 20 Mar 2026 07:58:15 GMT"), ("server", "envoy"), ("content-length", "108"), ("content-type", "application/json"), ("x-request-id", "94c6df85-e7b6-9f06-8d8e-85309bd79d1a"), ("x-envoy-upstream-service-time", "3")],
          r##"{"msg":"Token indices sequence length is longer than the specified maximum sequence length for this model!"]"##,
          ContextLength, false, None, N3, TOK, None),
        c("github.com/aipoch/open-science/issues/14", "anthropic", None, NONE,
          r##"Request too large (max 32MB). Try with a smaller file."##,
          TooLarge, false, None, N3, None, None),
        c("github.com/BerriAI/litellm/issues/13898", "litellm", Some(429), NONE,
          r##"429: LiteLLM Rate Limit Handler for rate limit type = team. Crossed TPM / RPM / Max Parallel Request Limit. current rpm: 1, rpm limit: 15, current tpm: 12260, tpm limit: 5000, current max_parallel_requests: 0, max_parallel_requests: 9223372036854775807"##,
          RateLimitTokens, true, None, (Some(5000), None, Some(12260)), TOK, MIN),
        c("github.com/BerriAI/litellm/issues/9440", "litellm", Some(429), NONE,
          r##"429: LiteLLM Rate Limit Handler for rate limit type = team. Crossed TPM / RPM / Max Parallel Request Limit. current rpm: 1, rpm limit: -2, current tpm: 0, tpm limit: 9223372036854775807, current max_parallel_requests: 1, max_parallel_requests: 9223372036854775807"##,
          RateLimitRequests, true, None, (None, None, Some(1)), REQ, MIN),
        c("github.com/BerriAI/litellm/issues/8392", "litellm", None, NONE,
          r##"LiteLLM Rate Limit Handler for rate limit type = key. Crossed TPM, RPM Limit. current rpm: 1, rpm limit: 9223372036854775807, current tpm: 0, tpm limit: 9223372036854775807"##,
          RateLimitOther, true, None, N3, None, MIN),
        c("github.com/whoz-oss/coday/issues/110", "anthropic", Some(429), &[("x-should-retry", "true"), ("anthropic-ratelimit-input-tokens-limit", "200000"), ("anthropic-ratelimit-input-tokens-remaining", "0"), ("anthropic-ratelimit-input-tokens-reset", "2025-06-02T15:15:48Z"), ("anthropic-ratelimit-output-tokens-limit", "80000"), ("anthropic-ratelimit-output-tokens-remaining", "80000"), ("anthropic-ratelimit-output-tokens-reset", "2025-06-02T15:14:45Z"), ("anthropic-ratelimit-requests-limit", "4000"), ("anthropic-ratelimit-requests-remaining", "4000"), ("anthropic-ratelimit-requests-reset", "2025-06-02T15:14:45Z"), ("retry-after", "16"), ("anthropic-ratelimit-tokens-limit", "280000"), ("anthropic-ratelimit-tokens-remaining", "80000"), ("anthropic-ratelimit-tokens-reset", "2025-06-02T15:14:45Z")],
          r##""##,
          RateLimitTokens, true, Some(16000), (Some(200000), None, None), TOK, None),

    ]
}

#[test]
fn every_real_shape_classifies_as_documented() {
    let cases = cases();
    let mut failures = Vec::new();
    for k in &cases {
        let r = classify(
            k.status,
            k.headers.iter().copied(),
            k.body,
            1_700_000_000_000,
        );
        let got = (
            r.kind,
            r.retryable,
            r.retry_after_ms,
            r.limit,
            r.requested,
            r.used,
            r.dimension,
            r.window,
        );
        let want = (
            k.kind,
            k.retryable,
            k.retry_after_ms,
            k.limit,
            k.requested,
            k.used,
            k.dimension,
            k.window,
        );
        if got != want {
            failures.push(format!(
                "{} [{}]\n   got  {:?}\n   want {:?}",
                k.src, k.provider, got, want
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} shapes misclassified:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn the_table_is_big_and_varied_enough() {
    let cases = cases();
    let real: Vec<&Case> = cases
        .iter()
        .filter(|c| !c.src.starts_with("/work/"))
        .collect();
    let mut providers: Vec<&str> = real.iter().map(|c| c.provider).collect();
    providers.sort_unstable();
    providers.dedup();
    assert!(real.len() >= 375, "only {} real shapes", real.len());
    assert!(
        providers.len() >= 10,
        "only {} providers: {providers:?}",
        providers.len()
    );
    assert!(
        real.iter().all(|c| c.src.contains('.')),
        "every shape names its source"
    );
}

#[test]
fn a_stream_error_after_content_says_output_was_delivered() {
    let k = cases()
        .into_iter()
        .find(|c| c.src.starts_with("docs.anthropic.com"))
        .unwrap();
    let r = classify(k.status, k.headers.iter().copied(), k.body, 0);
    assert!(r.output_delivered);
    let k = cases()
        .into_iter()
        .find(|c| c.src.contains("opencode/issues/26129"))
        .unwrap();
    let r = classify(k.status, k.headers.iter().copied(), k.body, 0);
    assert!(!r.output_delivered, "the error came before any content");
}

// -------------------------------------------------------------------------------------------------------------
// Malformed bodies: `other` with whatever could be read; no panic, no stack overflow, no hang.

fn assert_other(body: &str) {
    let r = classify(None, std::iter::empty::<(&str, &str)>(), body, 0);
    assert_eq!(
        r.kind,
        RefusalKind::Other,
        "{:?}",
        &body[..body.len().min(80)]
    );
    assert!(!r.retryable);
}

#[test]
fn truncated_json_is_read_as_far_as_it_goes() {
    assert_other(r#"{"error": {"message": "Internal"#);
    // Truncated, but the text that survived still names a token rate limit: read what could be read.
    let r = classify(
        Some(429),
        [("x", "y")],
        r#"{"error": {"message": "Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29937, Requ"#,
        0,
    );
    assert_eq!(r.kind, RefusalKind::RateLimitTokens);
    assert_eq!((r.limit, r.used), (Some(30000), Some(29937)));
}

#[test]
fn binary_and_empty_bodies() {
    assert_other("");
    assert_other("\u{0}\u{1}\u{fffd}\u{7f}PK\u{3}\u{4}");
    let bytes: Vec<u8> = (0..=255u8).cycle().take(10_000).collect();
    assert_other(&String::from_utf8_lossy(&bytes));
}

#[test]
fn ten_megabytes_of_garbage() {
    let garbage: String = "x7{]\"\\ :,"
        .chars()
        .cycle()
        .take(10 * 1024 * 1024)
        .collect();
    assert_other(&garbage);
    // JSON that is valid and enormous is walked within its node budget.
    let big = format!(
        "{{\"error\": {{\"message\": \"{}\", \"items\": [{}]}}}}",
        "a".repeat(1 << 20),
        "1,".repeat(500_000) + "1"
    );
    assert_other(&big);
}

#[test]
fn deeply_nested_json_does_not_overflow_the_stack() {
    for (open, close) in [("[", "]"), ("{\"error\":", "}")] {
        // Too deep for serde_json (it stops at 128 levels); the text read instead is cut at 64 KiB, before the
        // only words in it.
        let deep = format!(
            "{}{}{}",
            open.repeat(100_000),
            "\"rate limit\"",
            close.repeat(100_000)
        );
        assert_other(&deep);
    }
    assert_other(&"[".repeat(100_000));
    // Nesting within serde_json's limit but beyond the walk's depth is cut, not followed.
    let deep = format!(
        "{}{}{}",
        "{\"error\":".repeat(100),
        "\"Overloaded\"",
        "}".repeat(100)
    );
    let _ = classify(None, std::iter::empty::<(&str, &str)>(), &deep, 0);
    // JSON nested in strings nested in strings is unwrapped only a few levels.
    let mut s = r#"{"error":{"message":"Overloaded"}}"#.to_string();
    for _ in 0..12 {
        s = serde_json::json!({ "error": { "message": s } }).to_string();
    }
    let _ = classify(None, std::iter::empty::<(&str, &str)>(), &s, 0);
}

#[test]
fn a_huge_stream_is_scanned_once() {
    let frame = "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n";
    let mut body = frame.repeat(100_000);
    body.push_str(
        "data: {\"error\":{\"message\":\"Overloaded\",\"type\":\"overloaded_error\"}}\n\n",
    );
    let se = llm_preflight::find_stream_error(&body).unwrap();
    assert!(se.output_delivered);
    assert!(llm_preflight::find_stream_error(&frame.repeat(1000)).is_none());
    assert!(llm_preflight::find_stream_error("data: [DONE]\n\n").is_none());
}

// -------------------------------------------------------------------------------------------------------------
// `explain-response` contract.

#[test]
fn explain_prints_the_contract_keys_in_order() {
    use llm_preflight::explain;
    let input = serde_json::json!({
        "status": 429,
        "headers": {"retry-after": "6", "x-ratelimit-remaining-tokens": "0", "x-ratelimit-reset-tokens": "5.94s"},
        "body": "{\"error\": {\"message\": \"Rate limit reached for gpt-4o-mini in organization org-8f2 on tokens per min (TPM): Limit 10000, Used 9840, Requested 1210.\", \"type\": \"tokens\", \"code\": \"rate_limit_exceeded\"}}",
        "stream": false,
        "extra": "ignored"
    });
    let out = explain(&input.to_string()).unwrap();
    let keys: Vec<&str> = out
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "kind",
            "retryable",
            "retry_after_ms",
            "limit",
            "requested",
            "used",
            "dimension",
            "window",
            "reason",
            "action"
        ]
    );
    let line = out.to_string();
    assert!(line.starts_with(r#"{"kind":"rate_limit_tokens","retryable":true,"retry_after_ms":6000,"limit":10000,"requested":1210,"used":9840,"dimension":"tokens","window":"minute","reason":"a rate limit: wait and send again","action":{"type":"retry","after_ms":"#), "{line}");

    // Nulls, an absent stream flag, and an HTTP-date measured from the response's own Date header.
    let out = explain(r#"{"status": 503, "headers": {"Date": "Sun, 06 Nov 1994 08:49:30 GMT", "Retry-After": "Sun, 06 Nov 1994 08:49:37 GMT"}, "body": null}"#).unwrap();
    assert_eq!(out["kind"], "other");
    assert_eq!(out["retryable"], true);
    assert_eq!(out["retry_after_ms"], 7000);
    assert_eq!(out["dimension"], serde_json::Value::Null);

    // A stream with an error after content: retrying would repeat delivered output.
    let stream = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\nevent: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    let out = explain(
        &serde_json::json!({"status": 200, "headers": {}, "body": stream, "stream": true})
            .to_string(),
    )
    .unwrap();
    assert_eq!(out["kind"], "overloaded");
    assert_eq!(
        out["action"],
        serde_json::json!({"type": "give_up", "reason": "unsafe_to_resend"})
    );

    for bad in [
        "",
        "[]",
        "{\"status\": \"429\"}",
        "{\"headers\": []}",
        "{\"body\": 5}",
        "{\"stream\": \"yes\"}",
        "{\"status\": 7}",
    ] {
        let e = explain(bad).unwrap_err();
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn a_server_error_frame_inside_a_200_stream_is_worth_a_retry() {
    // The shape the ceiling drill's simulated provider sends, and OpenAI streams when generation fails: the status
    // line said 200, the error frame says the server failed. Before any content it is safe to send again.
    let openai = "data: {\"error\": {\"message\": \"The server had an error while processing your request. Sorry about that!\", \"type\": \"server_error\", \"param\": null, \"code\": null}}\n\n";
    let r = classify(Some(200), std::iter::empty::<(&str, &str)>(), openai, 0);
    // "The server had an error" is an overload without the word (issue 30): retried like one.
    assert_eq!(r.kind, RefusalKind::Overloaded);
    assert!(r.retryable && !r.output_delivered, "{r:?}");
    let anthropic = "event: message_start\ndata: {\"type\": \"message_start\", \"message\": {\"id\": \"msg_1\"}}\n\nevent: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"api_error\", \"message\": \"Internal server error\"}}\n\n";
    let r = classify(Some(200), std::iter::empty::<(&str, &str)>(), anthropic, 0);
    assert!(r.retryable, "{r:?}");
    // An invalid request stays final, however it arrives.
    let bad = "data: {\"error\": {\"message\": \"Invalid 'messages'\", \"type\": \"invalid_request_error\"}}\n\n";
    assert!(!classify(Some(200), std::iter::empty::<(&str, &str)>(), bad, 0).retryable);
}

/// Issue 30: a refusal that might be a quota (its words are a balance's, a plan's, a week's or a month's) is not
/// called retryable without a wait the provider stated, and the reason says so; a stated short wait, a short window
/// or a concurrency limit keeps it a rate limit.
#[test]
fn a_rate_limit_worded_like_a_cap_leans_safe_without_a_stated_wait() {
    let lean = [
        "Insufficient account balance.",
        "Weekly token allowance exhausted. Resets on Monday.",
        "Your organization has exceeded its spending cap.",
        "You exceeded your usage limit for this billing period.",
        "The free tier limit has been reached. Add a payment method to continue.",
    ];
    for body in lean {
        let r = classify(Some(429), NONE.iter().copied(), body, 0);
        assert_eq!((r.kind, r.retryable), (QuotaExhausted, false), "{body}");
        assert!(r.reason.contains("leans safe"), "{body}: {}", r.reason);
    }
    let retry_after: &[(&str, &str)] = &[("retry-after", "30")];
    let r = classify(Some(429), retry_after.iter().copied(), lean[0], 0);
    assert!(r.retryable && r.kind.is_rate_limit(), "{r:?}");
    assert!(!r.reason.contains("leans safe"));
    for body in [
        "Rate limit reached: 3 RPM on the free tier. Add a payment method to raise it.",
        "Your current concurrency is 40, which exceeds your concurrency limit of 39 based on your remaining balance.",
        "Weekly digest limit reached, please try again later.",
    ] {
        let r = classify(Some(429), NONE.iter().copied(), body, 0);
        assert!(r.retryable && r.kind.is_rate_limit(), "{body}: {r:?}");
    }
    // A daily cap whose wait is hours away is the day's; one whose wait is minutes away clears by waiting.
    let r = classify(
        Some(429),
        NONE.iter().copied(),
        "Daily request limit reached. Resets in 12h 34m.",
        0,
    );
    assert_eq!(
        (r.kind, r.retryable, r.window),
        (QuotaExhausted, false, DAY)
    );
    let r = classify(
        Some(429),
        NONE.iter().copied(),
        "Daily request limit reached. Please try again in 20m.",
        0,
    );
    assert!(r.retryable && r.kind.is_rate_limit(), "{r:?}");
}
