import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors.js';
import { ProviderError } from '../../src/model-errors.js';
import { createOpenAICompatibleProvider } from '../../src/llm/openai-compatible.js';
import type { LLMChunk, LLMProvider, LLMRequest } from '../../src/llm/provider.js';
import { chunkedFetch, sendJSON, sseEvent, startServer, writeSSE, type TestHandler, type TestServer } from '../helpers/sse-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: TestHandler): Promise<TestServer> {
  server = await startServer(handler);
  return server;
}

const request: LLMRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Plan the tour' },
  ],
};

/** One chunk as OpenAI sends it (fields copied from a real gpt-4o-mini stream). */
function chunk(delta: Record<string, unknown>, finish: string | null = null, usage: unknown = null): string {
  return sseEvent({
    id: 'chatcmpl-AbC123',
    object: 'chat.completion.chunk',
    created: 1_735_000_000,
    model: 'gpt-4o-mini-2024-07-18',
    system_fingerprint: 'fp_0ba0d124f1',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage,
  });
}
const usageChunk = sseEvent({
  id: 'chatcmpl-AbC123',
  object: 'chat.completion.chunk',
  created: 1_735_000_000,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [],
  usage: { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 },
});

const TEXT = '{"task_summary":"Visite guidée du café ☕ — prix 🚀","todos":[]}';
const PIECES = ['{"task_summary":"', 'Visite guidée', ' du café ☕', ' — prix 🚀', '","todos":[]}'];
/** A recorded-style body: role chunk, content chunks, finish, usage, [DONE]. */
const RECORDED = [
  chunk({ role: 'assistant', content: '', refusal: null }),
  ...PIECES.map((content) => chunk({ content })),
  chunk({}, 'stop'),
  usageChunk,
  'data: [DONE]\n\n',
].join('');

async function collect(provider: LLMProvider, req: LLMRequest = request): Promise<{ text: string; chunks: LLMChunk[] }> {
  const chunks: LLMChunk[] = [];
  for await (const c of provider.stream!(req)) chunks.push(c);
  const text = chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join('');
  return { text, chunks };
}

function viaFetch(body: string | Uint8Array[], extra: Partial<Parameters<typeof createOpenAICompatibleProvider>[0]> = {}) {
  const pieces = typeof body === 'string' ? [new TextEncoder().encode(body)] : body;
  return createOpenAICompatibleProvider({ baseURL: 'http://example.test/v1', model: 'm', fetch: chunkedFetch(pieces), ...extra });
}

describe('createOpenAICompatibleProvider: generate', () => {
  it('posts a Chat Completions request and maps text, finish reason and usage', async () => {
    const s = await serve((_req, res) =>
      sendJSON(res, 200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello é' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
      }),
    );
    const llm = createOpenAICompatibleProvider({
      baseURL: `${s.url}/v1/`,
      model: 'gpt-4o-mini',
      apiKey: 'sk-test',
      headers: { 'x-extra': '1' },
      temperature: 0.3,
    });
    const result = await llm.generate({ ...request, maxTokens: 256, jsonSchema: { type: 'object' } });
    expect(result).toEqual({ text: 'Hello é', finishReason: 'stop', usage: { inputTokens: 9, outputTokens: 3 } });
    const sent = s.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.headers['x-extra']).toBe('1');
    expect(sent.json).toEqual({
      model: 'gpt-4o-mini',
      messages: request.messages,
      temperature: 0.3,
      max_tokens: 256,
      response_format: { type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object' }, strict: false } },
    });
  });

  it('lets a request temperature win and sends no key, schema or limit it was not given', async () => {
    const s = await serve((_req, res) => sendJSON(res, 200, { choices: [{ message: { content: 'x' }, finish_reason: 'length' }] }));
    const llm = createOpenAICompatibleProvider({ baseURL: s.url, model: 'llama3', temperature: 0.3 });
    expect(await llm.generate({ ...request, temperature: 0 })).toEqual({ text: 'x', finishReason: 'length' });
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
    expect(s.requests[0]!.json).toEqual({ model: 'llama3', messages: request.messages, temperature: 0 });
  });

  it.each([
    ['content_filter', 'refusal'],
    ['tool_calls', 'other'],
    ['length', 'length'],
  ] as const)('maps finish_reason %s to %s', async (wire, mapped) => {
    const s = await serve((_req, res) => sendJSON(res, 200, { choices: [{ message: { content: null }, finish_reason: wire }] }));
    const result = await createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' }).generate(request);
    expect(result).toEqual({ text: '', finishReason: mapped });
  });

  it('throws a ProviderError for an error object in a 200 body', async () => {
    const s = await serve((_req, res) => sendJSON(res, 200, { error: { message: 'model is loading', type: 'server_error' } }));
    const error = await createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' })
      .generate(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain('model is loading');
    expect((error as ProviderError).retryable).toBe(true);
  });
});

describe('createOpenAICompatibleProvider: HTTP errors', () => {
  it.each([
    { status: 400, retryable: false, hint: 'rejected the request' },
    { status: 401, retryable: false, hint: 'API key' },
    { status: 404, retryable: false, hint: 'model name' },
    { status: 500, retryable: true, hint: 'retrying may help' },
    { status: 503, retryable: true, hint: 'retrying may help' },
  ])('HTTP $status becomes a ProviderError (retryable $retryable)', async ({ status, retryable, hint }) => {
    const s = await serve((_req, res) => sendJSON(res, status, { error: { message: `boom ${status}`, type: 'x' } }));
    const llm = createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' });
    for (const run of [() => llm.generate(request), () => collect(llm)]) {
      const error = (await run().catch((e: unknown) => e)) as ProviderError;
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.code).toBe('provider_error');
      expect(error.provider).toBe('openai-compatible');
      expect(error.status).toBe(status);
      expect(error.retryable).toBe(retryable);
      expect(error.body).toContain(`boom ${status}`);
      expect(error.message).toContain(`HTTP ${status}`);
      expect(error.message).toContain(`boom ${status}`);
      expect(error.message).toContain(hint);
    }
  });

  it('reads Retry-After on a 429 and keeps the body excerpt to 500 characters', async () => {
    const s = await serve((_req, res) => sendJSON(res, 429, { error: { message: 'slow down', pad: 'x'.repeat(2000) } }, { 'retry-after': '3' }));
    const error = (await createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' })
      .generate(request)
      .catch((e: unknown) => e)) as ProviderError;
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(3000);
    expect(error.body?.length).toBe(500);
    expect(error.message).toContain('slow down');
  });

  it('turns a refused connection into a retryable ProviderError without status', async () => {
    const s = await serve((_req, res) => void res.end());
    const url = s.url;
    await s.close();
    server = undefined;
    const error = (await createOpenAICompatibleProvider({ baseURL: url, model: 'm' })
      .generate(request)
      .catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.status).toBeUndefined();
    expect(error.retryable).toBe(true);
    expect(error.message).toContain(url);
  });

  it('retries a 429 after its Retry-After when the retry option is on', async () => {
    let calls = 0;
    const s = await serve(async (_req, res) => {
      calls += 1;
      if (calls === 1) sendJSON(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '2' });
      else await writeSSE(res, RECORDED.split(/(?<=\n\n)/));
    });
    const waits: number[] = [];
    const llm = createOpenAICompatibleProvider({
      baseURL: s.url,
      model: 'm',
      retry: { sleep: async (ms) => void waits.push(ms) },
    });
    expect((await collect(llm)).text).toBe(TEXT);
    expect(waits).toEqual([2000]);
    expect(s.requests).toHaveLength(2);
  });
});

describe('createOpenAICompatibleProvider: json_schema fallback', () => {
  it('asks again with json_object when the server refuses json_schema, and remembers it', async () => {
    const s = await serve((req, res) => {
      const format = (req.json as { response_format?: { type: string } }).response_format;
      if (format?.type === 'json_schema') {
        sendJSON(res, 400, {
          error: { message: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", param: 'response_format' },
        });
      } else sendJSON(res, 200, { choices: [{ message: { content: '{"ok":true}' }, finish_reason: 'stop' }] });
    });
    const llm = createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    expect((await llm.generate({ ...request, jsonSchema: schema })).text).toBe('{"ok":true}');
    expect((await llm.generate({ ...request, jsonSchema: schema })).text).toBe('{"ok":true}');
    const formats = s.requests.map((r) => (r.json as { response_format: { type: string } }).response_format.type);
    expect(formats).toEqual(['json_schema', 'json_object', 'json_object']);
    // json_object cannot carry the schema, so it travels as a system message
    const messages = (s.requests[1]!.json as { messages: Array<{ role: string; content: string }> }).messages;
    expect(messages.at(-1)?.role).toBe('system');
    expect(messages.at(-1)?.content).toContain('of this type: {ok?:boolean}'); // the schema's shortest faithful form
  });

  it('falls back for every call that was refused, also calls made at the same time', async () => {
    const refusals: Array<() => void> = [];
    const s = await serve((req, res) => {
      const format = (req.json as { response_format?: { type: string } }).response_format;
      if (format?.type !== 'json_schema') return sendJSON(res, 200, { choices: [{ message: { content: '{"ok":true}' }, finish_reason: 'stop' }] });
      // Both first requests are refused only once both have arrived, so neither has asked again yet.
      refusals.push(() =>
        sendJSON(res, 400, { error: { message: "'response_format' of type 'json_schema' is not supported with this model.", param: 'response_format' } }),
      );
      if (refusals.length === 2) for (const refuse of refusals) refuse();
    });
    const llm = createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' });
    const ask = () => llm.generate({ ...request, jsonSchema: { type: 'object' } }).then((result) => result.text);
    expect(await Promise.all([ask(), ask()])).toEqual(['{"ok":true}', '{"ok":true}']);
  });

  it('does not retry a 400 that is about something else', async () => {
    const s = await serve((_req, res) => sendJSON(res, 400, { error: { message: 'messages must not be empty' } }));
    const error = (await createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' })
      .generate({ ...request, jsonSchema: {} })
      .catch((e: unknown) => e)) as ProviderError;
    expect(error.status).toBe(400);
    expect(s.requests).toHaveLength(1);
  });

  it('switches to max_completion_tokens for servers that want it', async () => {
    const s = await serve((req, res) => {
      if ('max_tokens' in (req.json as object))
        sendJSON(res, 400, {
          error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead." },
        });
      else sendJSON(res, 200, { choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }] });
    });
    const llm = createOpenAICompatibleProvider({ baseURL: s.url, model: 'o4-mini' });
    expect((await llm.generate({ ...request, maxTokens: 50 })).text).toBe('ok');
    expect(s.requests[1]!.json).toMatchObject({ max_completion_tokens: 50 });
  });
});

describe('createOpenAICompatibleProvider: streaming', () => {
  it('streams deltas from a local server and finishes with the reason and usage', async () => {
    const s = await serve((_req, res) => writeSSE(res, RECORDED.split(/(?<=\n\n)/)));
    const llm = createOpenAICompatibleProvider({ baseURL: s.url, model: 'gpt-4o-mini', apiKey: 'k' });
    const { text, chunks } = await collect(llm, { ...request, maxTokens: 100 });
    expect(text).toBe(TEXT);
    expect(chunks.filter((c) => c.type === 'text-delta').map((c) => (c as { delta: string }).delta)).toEqual(PIECES);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 42, outputTokens: 17 } });
    expect(s.requests[0]!.json).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 100 });
    expect(s.requests[0]!.headers.accept).toBe('text/event-stream');
  });

  it('reassembles events and characters split across TCP writes', async () => {
    const bytes = Buffer.from(RECORDED);
    const cuts = [3, 20, 151, 152, 153, 400, 401, 700];
    const eAcute = bytes.indexOf(Buffer.from('é'));
    const rocket = bytes.indexOf(Buffer.from('🚀'));
    cuts.push(eAcute + 1, rocket + 1, rocket + 2, rocket + 3);
    const sorted = [...new Set(cuts)].filter((n) => n > 0 && n < bytes.length).sort((a, b) => a - b);
    const pieces = sorted.map((cut, i) => bytes.subarray(sorted[i - 1] ?? 0, cut));
    pieces.push(bytes.subarray(sorted.at(-1)));
    const s = await serve((_req, res) => writeSSE(res, pieces, { delayMs: 2 }));
    expect((await collect(createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' }))).text).toBe(TEXT);
  });

  it('yields the same text however the recorded body is split (property)', async () => {
    const bytes = new TextEncoder().encode(RECORDED);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), async (cuts) => {
        const sorted = [...cuts].sort((a, b) => a - b);
        const pieces = [...sorted, bytes.length].map((cut, i) => bytes.slice(sorted[i - 1] ?? 0, cut));
        const { text, chunks } = await collect(viaFetch(pieces));
        expect(text).toBe(TEXT);
        expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 42, outputTokens: 17 } });
      }),
      { numRuns: 150 },
    );
  });

  it('handles CRLF line endings, keep-alive comments and multi-line data', async () => {
    const body = `: keep-alive\r\n\r\n${RECORDED.replaceAll('\n', '\r\n').replace('data: [DONE]', ': ping\r\ndata: [DONE]')}:\n\n`;
    expect((await collect(viaFetch(body))).text).toBe(TEXT);
    // a JSON payload spread over two data lines joins with \n, which JSON accepts as whitespace
    const split = 'data: {"choices":[{"delta":\ndata: {"content":"hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    expect((await collect(viaFetch(split))).text).toBe('hi');
  });

  it('emits only the new suffix from hosts that send the cumulative content', async () => {
    const cumulative = ['{"a"', '{"a":', '{"a": "é🚀', '{"a": "é🚀"}'];
    const body = `${cumulative.map((content) => chunk({ content })).join('') + chunk({}, 'stop')}data: [DONE]\n\n`;
    const { chunks, text } = await collect(viaFetch(body));
    expect(text).toBe('{"a": "é🚀"}');
    expect(chunks.filter((c) => c.type === 'text-delta')).toEqual(['{"a"', ':', ' "é🚀', '"}'].map((delta) => ({ type: 'text-delta', delta })));
  });

  it('throws a ProviderError for malformed JSON in a data line', async () => {
    const body = `${chunk({ content: 'ok' })}data: {"choices": [ oops\n\ndata: [DONE]\n\n`;
    const seen: LLMChunk[] = [];
    const error = await (async () => {
      for await (const c of viaFetch(body).stream!(request)) seen.push(c);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ type: 'text-delta', delta: 'ok' }]);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain('not valid JSON');
    expect((error as ProviderError).body).toContain('oops');
    expect((error as ProviderError).retryable).toBe(false);
  });

  it('throws an error event sent inside the stream', async () => {
    const body = chunk({ content: 'par' }) + sseEvent({ error: { message: 'upstream overloaded', type: 'server_error', code: 503 } });
    const error = (await collect(viaFetch(body)).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toContain('upstream overloaded');
    expect(error.retryable).toBe(true);
  });

  it('reports a stream cut off before [DONE] and any finish_reason as truncated and retryable', async () => {
    const s = await serve((_req, res) => writeSSE(res, [chunk({ content: '{"task' }), 'data: {"choices":[{"del']));
    const error = (await collect(createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' })).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('ended before the model finished');
  });

  it('accepts a stream that gave its finish_reason but no [DONE]', async () => {
    const body = chunk({ content: 'done' }) + chunk({}, 'length');
    const { chunks } = await collect(viaFetch(body));
    expect(chunks).toEqual([
      { type: 'text-delta', delta: 'done' },
      { type: 'finish', finishReason: 'length' },
    ]);
  });

  it('stops with an AbortError when aborted in the middle of a stream', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const s = await serve(async (_req, res) => {
      res.on('close', () => closed());
      await writeSSE(res, [chunk({ content: 'first' })], { keepOpen: true });
    });
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const c of createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' }).stream!({ ...request, signal: controller.signal })) {
        if (c.type === 'text-delta') {
          seen.push(c.delta);
          controller.abort();
        }
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['first']);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).code).toBe('aborted');
    await connectionClosed; // the connection was dropped, not left hanging
  });

  it('stops with an AbortError when aborted while waiting for the response, and never retries', async () => {
    const controller = new AbortController();
    // Never answers; aborts once the request has arrived (a fixed delay is too short on a busy machine).
    const s = await serve(() => void setTimeout(() => controller.abort(), 5));
    const llm = createOpenAICompatibleProvider({ baseURL: s.url, model: 'm', retry: { sleep: async () => undefined } });
    const pending = llm.generate({ ...request, signal: controller.signal });
    const error = await pending.catch((e: unknown) => e);
    expect((error as AbortError).code).toBe('aborted');
    expect(s.requests).toHaveLength(1);
  });

  it('keeps the timeout code when the signal is a timeout', async () => {
    const s = await serve(() => undefined);
    const error = await createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' })
      .generate({ ...request, signal: AbortSignal.timeout(20) })
      .catch((e: unknown) => e);
    expect((error as AbortError).code).toBe('timeout');
  });
});

describe('createOpenAICompatibleProvider: refusals', () => {
  const refusal = "I'm sorry, I can't help with that request.";

  it('finishes a refusal answer with finishReason refusal and its words, when generating (issue 26)', async () => {
    const s = await serve((_req, res) =>
      sendJSON(res, 200, {
        id: 'chatcmpl-x',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: null, refusal }, finish_reason: 'stop' }],
      }),
    );
    const result = await createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' }).generate({ ...request, jsonSchema: { type: 'object' } });
    expect(result).toEqual({ text: '', finishReason: 'refusal', refusal });
  });

  it('does the same for refusal deltas in a stream: no text, one refusal finish with the words', async () => {
    const s = await serve((_req, res) =>
      writeSSE(res, [
        chunk({ role: 'assistant', content: null, refusal: "I'm sorry, " }),
        chunk({ refusal: "I can't help with that request." }),
        chunk({}, 'stop'),
        'data: [DONE]\n\n',
      ]),
    );
    const chunks: LLMChunk[] = [];
    for await (const piece of createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' }).stream!(request)) chunks.push(piece);
    expect(chunks).toEqual([{ type: 'finish', finishReason: 'refusal', refusal }]);
  });

  it('streams a content_filter finish as a refusal without words, keeping the text before it', async () => {
    const s = await serve((_req, res) => writeSSE(res, [chunk({ role: 'assistant', content: 'Here is' }), chunk({}, 'content_filter'), 'data: [DONE]\n\n']));
    const chunks: LLMChunk[] = [];
    for await (const piece of createOpenAICompatibleProvider({ baseURL: s.url, model: 'm' }).stream!(request)) chunks.push(piece);
    expect(chunks).toEqual([
      { type: 'text-delta', delta: 'Here is' },
      { type: 'finish', finishReason: 'refusal' },
    ]);
  });
});
