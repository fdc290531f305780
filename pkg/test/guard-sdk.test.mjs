// `guard(fetch, ...)` as the `fetch` option of the official OpenAI and Anthropic SDKs, against a local server that
// answers as those APIs do: the SDKs get the provider's answers through the guard, and the guard's own 413 as an
// API error they understand.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { guard } from 'llm-preflight';

const require = createRequire(import.meta.url);
const OpenAI = require('openai');
const Anthropic = require('@anthropic-ai/sdk');

async function fakeApi() {
  const seen = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    seen.push({ url: req.url, body });
    res.setHeader('content-type', 'application/json');
    if (req.url.endsWith('/chat/completions')) {
      res.setHeader('x-ratelimit-remaining-tokens', '9000');
      res.end(JSON.stringify({
        id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 17, completion_tokens: 1, total_tokens: 18 },
      }));
    } else if (req.url.endsWith('/messages')) {
      res.end(JSON.stringify({
        id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'hello' }], stop_reason: 'end_turn', stop_sequence: null,
        usage: { input_tokens: 19, output_tokens: 1 },
      }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${server.address().port}`, seen, close: () => new Promise((r) => server.close(r)) };
}

test('guard as the OpenAI SDK fetch: answers pass through, the guard settles them, its 413 is an APIError', async () => {
  const api = await fakeApi();
  const events = [];
  try {
    const guarded = guard(fetch, {
      providers: [{ name: 'openai', base_url: api.base, provider: 'open_ai', budget: { tpm: 8000 } }],
      onEvent: (e) => events.push(e),
    });
    const client = new OpenAI({ apiKey: 'k', baseURL: `${api.base}/v1`, fetch: guarded, maxRetries: 0 });
    const r = await client.chat.completions.create({ model: 'gpt-4o', max_tokens: 50, messages: [{ role: 'user', content: 'Say hello' }] });
    assert.equal(r.choices[0].message.content, 'hello');
    assert.equal(events.find((e) => e.type === 'settled')?.reported_tokens, 17);
    assert.deepEqual(guarded.state(), { held_tokens: 0, in_flight: 0 });
    await assert.rejects(
      client.chat.completions.create({ model: 'gpt-4o', max_tokens: 9000, messages: [{ role: 'user', content: 'hi' }] }),
      (e) => e.status === 413 && e.error?.type === 'never_sendable' && e.error?.limit === 8000,
    );
    assert.equal(api.seen.length, 1, 'the never-sendable request never reached the server');
  } finally {
    await api.close();
  }
});

test('guard as the Anthropic SDK fetch', async () => {
  const api = await fakeApi();
  const events = [];
  try {
    const guarded = guard(fetch, {
      providers: [{ name: 'anthropic', base_url: api.base, provider: 'anthropic', budget: { itpm: 30000, otpm: 8000 } }],
      onEvent: (e) => events.push(e),
    });
    const client = new Anthropic({ apiKey: 'k', baseURL: api.base, fetch: guarded, maxRetries: 0 });
    const m = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'Say hello' }] });
    assert.equal(m.content[0].text, 'hello');
    assert.equal(events.find((e) => e.type === 'settled')?.reported_tokens, 19);
    assert.deepEqual(guarded.state(), { held_tokens: 0, in_flight: 0 });
    assert.equal(api.seen[0].url, '/v1/messages');
  } finally {
    await api.close();
  }
});
