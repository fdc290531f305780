// The JavaScript results equal the CLI's (`target/debug/llm-preflight`) for the same inputs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimate, check, explainResponse } from 'llm-preflight';
import { corpusSamples, requireCli } from './helpers.mjs';

const cli = requireCli();
const run = (args, input) => execFileSync(cli, args, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
const samples = corpusSamples(1);
const tmp = mkdtempSync(join(tmpdir(), 'llm-preflight-parity-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

test('estimate: every corpus kind, several profiles', () => {
  assert.ok(samples.length >= 25, `only ${samples.length} corpus samples`);
  for (const profile of ['o200k', 'cl100k', 'llama3', 'gemini', 'claude-legacy']) {
    const out = run(['estimate', '--profile', profile, ...samples.map((s) => s.path)]).trim().split('\n');
    assert.equal(out.length, samples.length);
    out.forEach((line, i) => {
      const { source, ...want } = JSON.parse(line);
      const { mix, ...got } = estimate(samples[i].text, { profile });
      assert.deepEqual(got, want, `${samples[i].name} (${profile})`);
    });
  }
  for (const model of ['gpt-4o', 'claude-sonnet-4', 'meta-llama/Llama-3.1-8B-Instruct']) {
    const { source, ...want } = JSON.parse(run(['estimate', '--model', model, samples[0].path]));
    const { mix, ...got } = estimate(samples[0].text, { model });
    assert.deepEqual(got, want, model);
  }
});

test('check: prompts and request bodies, with budgets and remaining tokens', () => {
  const prompt = samples.find((s) => s.name.startsWith('prose-en')).text;
  const body = JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 700, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: prompt }] });
  const bodyPath = join(tmp, 'body.json');
  writeFileSync(bodyPath, body);
  const promptPath = join(tmp, 'prompt.txt');
  writeFileSync(promptPath, prompt);
  // A multimodal body: a 1024 × 1024 PNG as a data: URL (its header read), and an image by URL (a band).
  const ihdr = Buffer.alloc(8);
  ihdr.writeUInt32BE(1024, 0);
  ihdr.writeUInt32BE(1024, 4);
  const pngHeader = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), ihdr, Buffer.alloc(300, 7)]);
  const media = JSON.stringify({ model: 'gpt-4o', max_tokens: 300, messages: [{ role: 'user', content: [
    { type: 'text', text: 'Compare these.' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${pngHeader.toString('base64')}` } },
    { type: 'image_url', image_url: { url: 'https://example.com/chart.png' } },
  ] }] });
  const mediaPath = join(tmp, 'media.json');
  writeFileSync(mediaPath, media);
  const cases = [
    [['--tpm', '100000'], {}],
    [['--tpm', '200'], {}],
    [['--tpm', '30000', '--remaining-tokens', '5', '--reset-tokens', '6m0s'], { remaining_tokens: 5, reset_tokens: '6m0s' }],
    [['--tpm', '30000', '--rpm', '10', '--remaining-requests', '0', '--reset-requests', '5.94s'], { rpm: 10, remaining_requests: 0, reset_requests: '5.94s' }],
    [['--tpm', '30000', '--policy', 'conservative', '--max-tokens', '29000'], { policy: 'conservative', max_tokens: 29000 }],
    [['--tpm', '30000', '--model', 'claude-sonnet-4'], { model: 'claude-sonnet-4' }],
  ];
  const m = check(JSON.parse(media), { tpm: 30000 });
  assert.equal(m.incomplete, true);
  assert.deepEqual(m.unpriced, ['/messages/0/content/2']);
  assert.equal(m.media[0].tokens, 765);
  assert.equal(m.media[0].width, 1024);
  for (const [flags, opts] of cases) {
    const tpm = Number(flags[1]);
    for (const [file, input, extra] of [[promptPath, prompt, []], [bodyPath, JSON.parse(body), ['--request']], [mediaPath, JSON.parse(media), ['--request']]]) {
      const want = JSON.parse(run(['check', ...flags, ...extra, file]));
      const got = check(input, { tpm, ...opts });
      delete want.estimate.source;
      delete got.estimate.mix;
      const keys = ['verdict', 'dimension', 'needed', 'limit', 'excess', 'estimate', 'incomplete', 'unpriced', 'media'];
      const pick = (o) => Object.fromEntries(keys.map((k) => [k, o[k]]));
      assert.deepEqual(pick(got), pick(want), `${flags.join(' ')} ${extra.join(' ')}`);
      // Waits are measured from each side's own clock reading: equal to within the time between the two calls.
      if (want.wait_ms === null) assert.equal(got.wait_ms, null);
      else assert.ok(Math.abs(got.wait_ms - want.wait_ms) <= 2000, `${got.wait_ms} vs ${want.wait_ms}`);
    }
  }
});

test('explain-response: the same input gives the same output', () => {
  const responses = [
    { status: 429, headers: { 'retry-after': '6', 'x-ratelimit-remaining-tokens': '0' }, body: '{"error":{"message":"Rate limit reached for gpt-4o-mini in organization org-x on tokens per min (TPM): Limit 10000, Used 9840, Requested 1210. Please try again in 6.3s.","type":"tokens","code":"rate_limit_exceeded"}}' },
    { status: 413, headers: {}, body: '{"error":{"message":"Request too large for model `llama-3.3-70b-versatile` in organization `org_x` service tier `on_demand` on tokens per minute (TPM): Limit 8000, Requested 8478, please reduce your message size and try again.","type":"tokens","code":"rate_limit_exceeded"}}' },
    { status: 429, headers: { 'anthropic-ratelimit-input-tokens-reset': '2025-01-01T12:00:30Z', 'retry-after': '30' }, body: '{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 40,000 input tokens per minute."}}', now_ms: Date.UTC(2025, 0, 1, 12) },
    { status: 529, headers: {}, body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' },
    { status: 429, headers: {}, body: '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"17s"}]}}' },
    { status: 429, headers: {}, body: '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}' },
    { status: 400, headers: {}, body: '{"error":{"message":"This model\'s maximum context length is 128000 tokens. However, you requested 130500 tokens (126500 in the messages, 4000 in the completion).","type":"invalid_request_error","code":"context_length_exceeded"}}' },
    { status: 200, headers: {}, body: 'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n', stream: true },
    { status: 503, headers: { 'retry-after': 'Wed, 01 Jan 2025 12:00:10 GMT', date: 'Wed, 01 Jan 2025 12:00:00 GMT' }, body: 'Service Unavailable' },
    { status: null, headers: null, body: null },
    // Shapes of issue 30: token-count context refusals, billing codes, daily caps, overloads without the word.
    { status: 400, headers: {}, body: '{"message":"too many tokens: total number of tokens in the prompt cannot exceed 4081 - received 4292. Try using a shorter prompt, or enabling prompt truncating."}' },
    { status: 400, headers: {}, body: '{"type":"error","error":{"type":"invalid_request_error","message":"input length and `max_tokens` exceed context limit: 199759 + 8192 > 200000, decrease input length or `max_tokens` and try again"}}' },
    { status: 429, headers: {}, body: '{"error":{"code":"1113","message":"余额不足或无可用资源包,请充值。"}}' },
    { status: 429, headers: {}, body: '{"error":{"message":"Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day","code":429}}' },
    { status: 503, headers: {}, body: '{"error":"server busy, please try again.  maximum pending requests exceeded"}' },
    { status: 402, headers: {}, body: '{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 10114.","code":402}}' },
    // The second collection's shapes: Chinese numbers, llama.cpp's context, a day's token cap on a 500, hours and minutes.
    { status: null, headers: {}, body: '[TencentCloudSDKException] code:RequestLimitExceeded message:您当前每秒请求 `6` 次，超过了每秒频率上限 `5`，请稍后重试。' },
    { status: null, headers: {}, body: 'Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)' },
    { status: 500, headers: {}, body: '500 - Token limit (500,000 per day) exceeded. Used: 508,311 tokens. Sign up for higher limits.' },
    { status: 429, headers: {}, body: 'Sorry, your request is rate-limited. Please wait 8 hours 24 minutes and try again' },
    { status: 429, headers: {}, body: '"errorMessage": "Model is not ready for inference.Wait and try your request again."' },
    { status: 400, headers: {}, body: '{"type":"error","error":{"type":"invalid_request_error","message":"You have reached your specified API usage limits. You will regain access on 2026-04-01 at 00:00 UTC."}}' },
    { status: 400, headers: {}, body: '{"error":{"code":400,"message":"request (44593 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":44593,"n_ctx":4096}}' },
    { status: 429, headers: {}, body: '{"error":{"code":"1305","message":"该模型当前访问量过大，请您稍后再试"}}' },
    { status: 413, headers: {}, body: '{"error":{"message":"Maximum request body size 1048576 exceeded, actual body size 1056562","code":413,"status":"Request Entity Too Large"}}' },
    // The fourth collection's: a key's credit cap, a weekly plan cap, new context wordings, an unnamed window's reset.
    { status: 403, headers: {}, body: '403 Key limit exceeded. Manage it using https://openrouter.ai/keys' },
    { status: 429, headers: {}, body: 'you (someone) have reached your weekly usage limit, upgrade for higher limits' },
    { status: 400, headers: {}, body: "Error code: 400 - {'error': {'code': 'invalid_parameter_error', 'message': '<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 983616]', 'param': None, 'type': 'invalid_request_error'}}" },
    { status: 400, headers: {}, body: 'BadRequestError: litellm.BadRequestError: SambanovaException - The maximum context length of DeepSeek-V3-0324 is 32768. However, answering your request will take 39732 tokens.' },
    { status: 429, headers: { 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '20' }, body: '' },
    // The fifth: a plan gate worded as a rate limit, a relay's quota, an overdue account inside a workflow's output.
    { status: 429, headers: {}, body: '{"type":"error","error":{"type":"rate_limit_error","message":"Usage credits are required for long context requests."}}' },
    { status: 403, headers: {}, body: '{Error:{Message:user quota is not enough Type:one_api_error Param: Code:insufficient_user_quota} StatusCode:403}' },
    { status: 403, headers: {}, body: '{"$error": "Workflow execution failure: Error code: 403 - {\\"code\\":\\"AccountOverdueError\\",\\"message\\":\\"The request failed because your account has an overdue balance.\\"}"}' },
    { status: null, headers: {}, body: 'CohereError: too many tokens: total number of tokens (prompt and prediction) cannot exceed 2048 - received 6354. Try using a shorter prompt.' },
    // The sixth: a body printed as a Python literal (double quotes around an apostrophe), Poe's `text`, a cap on max_tokens.
    { status: 429, headers: {}, body: `{'error': {'message': "We're receiving too many requests at the moment. Please wait a moment and try again.", 'type': 'rate_limit_reached_error'}}` },
    { status: 429, headers: {}, body: "{'error': {'message': 'Your account org-XXXX request reached organization TPD rate limit, current: 1526210, limit: 1500000', 'type': 'rate_limit_reached_error'}}" },
    { status: null, headers: {}, body: '{"allow_retry": true, "text": "You have exceeded rate limit to query bot using User API Key. Try again later."}' },
    { status: 400, headers: {}, body: 'Bad request: rpc error: code = InvalidArgument desc = max_tokens (10000) cannot exceed 8192. Please reduce the length of max output tokens generated.' },
    // The seventh: hard refusals that look like rate limits, and context numbers in new phrasings.
    { status: 429, headers: {}, body: '"you (XXXX) have reached your session usage limit, upgrade for higher limits: https://ollama.com/upgrade"' },
    { status: null, headers: {}, body: 'This operation requires 30 new capacity in quota Tokens Per Minute (thousands) - GPT-35-Turbo, which is bigger than the current available capacity 0. The current quota usage is 300 and the quota limit is 300 for quota Tokens Per Minute (thousands) - GPT-35-Turbo. (Code: InsufficientQuota)' },
    { status: 400, headers: {}, body: "'max_tokens' or 'max_completion_tokens' is too large: 64000. This model's maximum context length is      64001 tokens and your request has 24235 input tokens (64000 > 64001 - 24235). None" },
    { status: 400, headers: {}, body: '{"error":{"message":"Param Incorrect","type":"upstream_error","param":"max_tokens is too large: 1048576. This model supports at most 131072 completion tokens, whereas you provided 1048576.","code":"400"}}' },
    // The ninth: JSON embedded after a prefix (its retry delay read), relay pre-charges, capacity without the word.
    { status: 503, headers: {}, body: "[CloudCode] Stream error at https://daily-cloudcode-pa.googleapis.com: 503 - {\n  \"error\": {\n    \"code\": 503,\n    \"message\": \"No capacity available for model gemini-3-pro-low on the server\",\n    \"status\": \"UNAVAILABLE\",\n    \"details\": [\n      {\n        \"@type\": \"type.googleapis.com/google.rpc.ErrorInfo\",\n        \"reason\": \"MODEL_CAPACITY_EXHAUSTED\",\n        \"domain\": \"cloudcode-pa.googleapis.com\",\n        \"metadata\": {\n          \"model\": \"gemini-3-pro-low\"\n        }\n      },\n      {\n        \"@type\": \"type.googleapis.com/google.rpc.RetryInfo\",\n        \"retryDelay\": \"39s\"\n      }\n    ]\n  }\n}" },
    { status: null, headers: {}, body: "[LLM] Access denied: 预扣费额度失败, 用户剩余额度: ＄2.533620, 需要预扣费额度: ＄2.627750 (request id: 202605112024597472269388268d9d6jwygcKzZ)" },
    { status: 503, headers: {}, body: "{\n  \"message\": \"503 System is too busy now. Please try again later.\",\n  \"status\": 503,\n  \"error\": {\n    \"code\": 50508,\n    \"message\": \"System is too busy now. Please try again later.\",\n    \"data\": null\n  },\n  \"code\": 50508\n}" },
    { status: 503, headers: {}, body: "Omniroute API error: Omniroute API error: 0 [nvidia/minimaxai/minimax-m3] [503]: Request dropped after exceeding the local rate-limit queue budget maxWaitMs (15000ms) for nvidia/minimaxai/minimax-m3 — this is OmniRoute's request queue (resilienceSettings.requestQueue.maxWaitMs), not an upstream timeout. Raise it in Settings → Resilience if this is queue saturation rather than a slow provider. (cause: This job timed out after 15000 ms.) (reset after 3s)" },
    // The tenth: payload caps said in words, a batch cap with its numbers, a gRPC rate quota, a model loading.
    { status: null, headers: {}, body: "Failed to buffer the request body: length limit exceeded" },
    { status: 400, headers: {}, body: "Invalid response data: {\"detail\":\"Request to model 'voyage-large-2-instruct' failed. The max allowed tokens per submitted batch is 120000. Your batch has 121138 tokens after truncation. Please lower the number of tokens in the batch.\"} (status: 400)" },
    { status: null, headers: {}, body: "_InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.RESOURCE_EXHAUSTED\n\tdetails = \"ai.embeddingsTextEmbeddingRequestsPerSecond.rate rate quota limit exceed: allowed 10 requests\"\n\tdebug_error_string = \"UNKNOWN:Error received from peer ipv4:158.160.54.160:443 {grpc_message:\"ai.embeddingsTextEmbeddingRequestsPerSecond.rate rate quota limit exceed: allowed 10 requests\", grpc_status:8, created_time:\"2024-03-29T23:40:55.529921+03:00\"}\"\n>" },
    { status: 503, headers: {}, body: "{\"error\":{\"code\":503,\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}" },
    { status: 429, headers: {}, body: 'Insufficient account balance.' },
  ];
  for (const r of responses) {
    const input = JSON.stringify(r);
    assert.deepEqual(explainResponse(input), JSON.parse(run(['explain-response'], input)), input.slice(0, 80));
  }
});
