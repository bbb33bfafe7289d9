import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors.js';
import { ProviderError } from '../../src/model-errors.js';
import { createAnthropicProvider } from '../../src/llm/anthropic.js';
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
    { role: 'system', content: 'You plan tours.' },
    { role: 'user', content: 'Hi' },
    { role: 'user', content: 'Plan the café tour' },
    { role: 'system', content: 'Answer in French.' },
  ],
};

const e = (type: string, data: Record<string, unknown>): string => sseEvent({ type, ...data }, type);
const TEXT = 'Bonjour ! Voici la visite du café ☕ 🚀';
const DELTAS = ['Bonjour', ' ! Voici la visite', ' du café ☕', ' 🚀'];
/** The event sequence of a real Messages stream. */
const RECORDED = [
  e('message_start', {
    message: {
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'claude-sonnet-4-5',
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 25, output_tokens: 1 },
    },
  }),
  e('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  e('ping', {}),
  ...DELTAS.map((text) => e('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
  e('content_block_stop', { index: 0 }),
  e('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 15 } }),
  e('message_stop', {}),
].join('');

async function collect(provider: LLMProvider, req: LLMRequest = request): Promise<{ text: string; chunks: LLMChunk[] }> {
  const chunks: LLMChunk[] = [];
  for await (const c of provider.stream!(req)) chunks.push(c);
  return { text: chunks.map((c) => (c.type === 'text-delta' ? c.delta : '')).join(''), chunks };
}

function viaFetch(body: string | Uint8Array[]) {
  const pieces = typeof body === 'string' ? [new TextEncoder().encode(body)] : body;
  return createAnthropicProvider({ apiKey: 'k', model: 'm', maxTokens: 100, fetch: chunkedFetch(pieces) });
}

describe('createAnthropicProvider: generate', () => {
  it('sends the Messages API shape: system apart, same roles merged, the browser header', async () => {
    const s = await serve((_req, res) =>
      sendJSON(res, 200, {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'text', text: 'Voilà' },
          { type: 'text', text: ' !' },
        ],
        stop_reason: 'end_turn',
        usage: { input_tokens: 12, output_tokens: 4 },
      }),
    );
    const llm = createAnthropicProvider({
      apiKey: 'sk-ant',
      model: 'claude-sonnet-4-5',
      maxTokens: 1024,
      baseURL: `${s.url}/`,
      headers: { 'anthropic-beta': 'x' },
    });
    const result = await llm.generate({ ...request, temperature: 0.2 });
    expect(result).toEqual({ text: 'Voilà !', finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 4 } });
    const sent = s.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(sent.headers['anthropic-beta']).toBe('x');
    expect(sent.json).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'You plan tours.\n\nAnswer in French.',
      messages: [{ role: 'user', content: 'Hi\n\nPlan the café tour' }],
      temperature: 0.2,
    });
  });

  it('turns a schema into a system instruction and lets a request override max_tokens', async () => {
    const s = await serve((_req, res) => sendJSON(res, 200, { content: [{ type: 'text', text: '{}' }], stop_reason: 'max_tokens' }));
    const schema = { type: 'object', required: ['todos'] };
    const llm = createAnthropicProvider({ apiKey: 'k', model: 'm', maxTokens: 1024, baseURL: s.url });
    const result = await llm.generate({ messages: [{ role: 'user', content: 'go' }], jsonSchema: schema, maxTokens: 64 });
    expect(result).toEqual({ text: '{}', finishReason: 'length' });
    const body = s.requests[0]!.json as { system: string; max_tokens: number };
    expect(body.max_tokens).toBe(64);
    expect(body.system).toContain('JSON');
    expect(body.system).toContain(JSON.stringify(schema));
  });

  it('turns an overloaded 529 into a retryable ProviderError with the API message', async () => {
    const s = await serve((_req, res) => sendJSON(res, 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    const error = (await createAnthropicProvider({ apiKey: 'k', model: 'm', maxTokens: 10, baseURL: s.url })
      .generate(request)
      .catch((x: unknown) => x)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.provider).toBe('anthropic');
    expect(error.status).toBe(529);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('Overloaded');
    expect(error.body).toContain('overloaded_error');
  });

  it.each([
    [401, 'authentication_error', false],
    [429, 'rate_limit_error', true],
  ] as const)('turns HTTP %i into a ProviderError (retryable %s)', async (status, type, retryable) => {
    const s = await serve((_req, res) => sendJSON(res, status, { type: 'error', error: { type, message: `${type} happened` } }, { 'retry-after': '1' }));
    const error = (await collect(createAnthropicProvider({ apiKey: 'k', model: 'm', maxTokens: 10, baseURL: s.url })).catch(
      (x: unknown) => x,
    )) as ProviderError;
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(retryable);
    expect(error.retryAfterMs).toBe(1000);
    expect(error.message).toContain(`${type} happened`);
  });
});

describe('createAnthropicProvider: streaming', () => {
  it('streams text deltas with the stop reason and usage from a local server', async () => {
    const s = await serve((_req, res) => writeSSE(res, RECORDED.split(/(?<=\n\n)/)));
    const { text, chunks } = await collect(createAnthropicProvider({ apiKey: 'k', model: 'm', maxTokens: 100, baseURL: s.url }));
    expect(text).toBe(TEXT);
    expect(chunks.filter((c) => c.type === 'text-delta').map((c) => (c as { delta: string }).delta)).toEqual(DELTAS);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 25, outputTokens: 15 } });
    expect(s.requests[0]!.json).toMatchObject({ stream: true });
  });

  it('yields the same text however the recorded body is split (property)', async () => {
    const bytes = new TextEncoder().encode(RECORDED.replaceAll('\n', '\r\n'));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), async (cuts) => {
        const sorted = [...cuts].sort((a, b) => a - b);
        const pieces = [...sorted, bytes.length].map((cut, i) => bytes.slice(sorted[i - 1] ?? 0, cut));
        const { text, chunks } = await collect(viaFetch(pieces));
        expect(text).toBe(TEXT);
        expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 25, outputTokens: 15 } });
      }),
      { numRuns: 150 },
    );
  });

  it('maps stop reasons: max_tokens to length, stop_sequence to stop, tool_use to other', async () => {
    for (const [wire, mapped] of [
      ['max_tokens', 'length'],
      ['stop_sequence', 'stop'],
      ['tool_use', 'other'],
    ] as const) {
      const body =
        e('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'x' } }) +
        e('message_delta', { delta: { stop_reason: wire }, usage: { output_tokens: 1 } }) +
        e('message_stop', {});
      expect((await collect(viaFetch(body))).chunks.at(-1)).toEqual({ type: 'finish', finishReason: mapped, usage: { outputTokens: 1 } });
    }
  });

  it('ignores non-text deltas', async () => {
    const body =
      e('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }) +
      e('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'ok' } }) +
      e('message_delta', { delta: { stop_reason: 'end_turn' } }) +
      e('message_stop', {});
    expect((await collect(viaFetch(body))).text).toBe('ok');
  });

  it('throws an error event: overloaded is retryable, invalid_request is not', async () => {
    const start = RECORDED.slice(0, RECORDED.indexOf('event: content_block_stop'));
    for (const [type, retryable] of [
      ['overloaded_error', true],
      ['invalid_request_error', false],
    ] as const) {
      const body = start + e('error', { error: { type, message: 'Overloaded' } });
      const seen: string[] = [];
      const error = (await (async () => {
        for await (const c of viaFetch(body).stream!(request)) if (c.type === 'text-delta') seen.push(c.delta);
      })().catch((x: unknown) => x)) as ProviderError;
      expect(seen.join('')).toBe(TEXT);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.message).toContain(type);
      expect(error.retryable).toBe(retryable);
    }
  });

  it('reports a stream cut before message_stop and any stop_reason as truncated', async () => {
    const s = await serve((_req, res) => writeSSE(res, [RECORDED.slice(0, RECORDED.indexOf('event: content_block_stop') - 30)]));
    const error = (await collect(createAnthropicProvider({ apiKey: 'k', model: 'm', maxTokens: 1, baseURL: s.url })).catch((x: unknown) => x)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.retryable).toBe(true);
  });

  it('throws a ProviderError for malformed JSON in a data line', async () => {
    const error = (await collect(viaFetch('event: ping\ndata: {nope}\n\n')).catch((x: unknown) => x)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.body).toBe('{nope}');
  });

  it('stops with an AbortError when aborted in the middle of a stream', async () => {
    const s = await serve((_req, res) => writeSSE(res, RECORDED.split(/(?<=\n\n)/).slice(0, 4), { keepOpen: true }));
    const controller = new AbortController();
    const llm = createAnthropicProvider({ apiKey: 'k', model: 'm', maxTokens: 1, baseURL: s.url, retry: true });
    const seen: string[] = [];
    // Aborted once the first text arrived (not after a delay: a loaded machine may be slower than any delay).
    const error = await (async () => {
      for await (const c of llm.stream!({ ...request, signal: controller.signal })) {
        if (c.type !== 'text-delta') continue;
        seen.push(c.delta);
        controller.abort();
      }
    })().catch((x: unknown) => x);
    expect(seen).toEqual(['Bonjour']);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).code).toBe('aborted');
  });
});

describe('createAnthropicProvider: refusals (issue 26)', () => {
  it('answers a whole refusal body with finishReason refusal and the API explanation as its words', async () => {
    const s = await serve((_req, res) =>
      sendJSON(res, 200, {
        id: 'msg_r',
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: 'refusal',
        stop_details: { type: 'refusal', category: 'cyber', explanation: 'This request was blocked under the usage policy.' },
        usage: { input_tokens: 18, output_tokens: 5 },
      }),
    );
    const result = await createAnthropicProvider({ apiKey: 'k', model: 'm', maxTokens: 10, baseURL: s.url }).generate(request);
    expect(result).toEqual({
      text: '',
      finishReason: 'refusal',
      refusal: 'This request was blocked under the usage policy.',
      usage: { inputTokens: 18, outputTokens: 5 },
    });
  });

  it('keeps the words a model wrote before a streamed refusal stop, and finishes with refusal', async () => {
    const body = [
      e('message_start', { message: { id: 'msg_x', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 9, output_tokens: 1 } } }),
      e('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      e('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'I can’t help with that.' } }),
      e('content_block_stop', { index: 0 }),
      e('message_delta', { delta: { stop_reason: 'refusal', stop_sequence: null }, usage: { output_tokens: 7 } }),
      e('message_stop', {}),
    ].join('');
    const { text, chunks } = await collect(viaFetch(body));
    expect(text).toBe('I can’t help with that.');
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'refusal', usage: { inputTokens: 9, outputTokens: 7 } });
  });
});
