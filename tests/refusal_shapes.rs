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
          RateLimitRequests, true, None, N3, REQ, MIN),
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
          RateLimitTokens, true, None, N3, TOK, DAY),
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
    assert!(real.len() >= 60, "only {} real shapes", real.len());
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
            "action"
        ]
    );
    let line = out.to_string();
    assert!(line.starts_with(r#"{"kind":"rate_limit_tokens","retryable":true,"retry_after_ms":6000,"limit":10000,"requested":1210,"used":9840,"dimension":"tokens","window":"minute","action":{"type":"retry","after_ms":"#), "{line}");

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
    assert_eq!(r.kind, RefusalKind::Other);
    assert!(r.retryable && !r.output_delivered, "{r:?}");
    let anthropic = "event: message_start\ndata: {\"type\": \"message_start\", \"message\": {\"id\": \"msg_1\"}}\n\nevent: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"api_error\", \"message\": \"Internal server error\"}}\n\n";
    let r = classify(Some(200), std::iter::empty::<(&str, &str)>(), anthropic, 0);
    assert!(r.retryable, "{r:?}");
    // An invalid request stays final, however it arrives.
    let bad = "data: {\"error\": {\"message\": \"Invalid 'messages'\", \"type\": \"invalid_request_error\"}}\n\n";
    assert!(!classify(Some(200), std::iter::empty::<(&str, &str)>(), bad, 0).retryable);
}
