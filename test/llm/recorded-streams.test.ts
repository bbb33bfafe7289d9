/**
 * Provider streams as servers send them (see test/fixtures/streams/README.md), served byte for
 * byte by a local HTTP server to our OpenAI-compatible and Anthropic providers: whole, and cut into
 * 29-byte pieces (inside events and inside UTF-8 characters). Each row says what a user of the
 * provider must see: the text, the finish reason and usage, or the ProviderError.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/model-errors.js';
import { createAnthropicProvider } from '../../src/llm/anthropic.js';
import { createOpenAICompatibleProvider } from '../../src/llm/openai-compatible.js';
import type { FinishReason, LLMProvider, LLMUsage } from '../../src/llm/provider.js';
import { sendJSON, startServer, writeSSE, type TestServer } from '../helpers/sse-server.js';

const fixture = (path: string) => readFileSync(fileURLToPath(new URL(`../fixtures/streams/${path}`, import.meta.url)));

type Expected = { text: string; finishReason: FinishReason; refusal?: string; usage?: LLMUsage } | { error: RegExp; retryable: boolean };

const ANSWER = '{"task_summary":"Un tour des tarifs ☕, puis l’essai gratuit 🚀","todos":[{"intent":"navigate","description":"Ouvrir /pricing"}]}';

const STREAMS: Array<[file: string, expected: Expected]> = [
  ['openai-compatible/openai-text-usage.sse', { text: ANSWER, finishReason: 'stop', usage: { inputTokens: 212, outputTokens: 41 } }],
  // A model declining is an answer, not a failure: finishReason 'refusal' with its words (issue 26).
  [
    'openai-compatible/openai-refusal.sse',
    { text: '', finishReason: 'refusal', refusal: 'I’m sorry, I can’t help with that request.', usage: { inputTokens: 90, outputTokens: 11 } },
  ],
  ['openai-compatible/openai-tool-calls.sse', { text: '', finishReason: 'other', usage: { inputTokens: 301, outputTokens: 38 } }],
  [
    'openai-compatible/azure-content-filter.sse',
    { text: 'Three tiers: Free, Team and Business.', finishReason: 'stop', usage: { inputTokens: 18, outputTokens: 142 } },
  ],
  [
    'openai-compatible/mistral-content-parts.sse',
    { text: '{"task_summary":"Prices first","todos":[]}', finishReason: 'stop', usage: { inputTokens: 64, outputTokens: 67 } },
  ],
  ['openai-compatible/mistral-text.sse', { text: 'Bonjour ! Voici nos offres.', finishReason: 'stop', usage: { inputTokens: 21, outputTokens: 9 } }],
  ['openai-compatible/deepseek-reasoning.sse', { text: '{"todos":[]}', finishReason: 'stop', usage: { inputTokens: 33, outputTokens: 27 } }],
  ['openai-compatible/xai-reasoning.sse', { text: 'Open pricing.', finishReason: 'stop', usage: { inputTokens: 15, outputTokens: 4 } }],
  ['openai-compatible/groq-tool-call.sse', { text: '', finishReason: 'other', usage: { inputTokens: 233, outputTokens: 19 } }],
  [
    'openai-compatible/error-event-mid-stream.sse',
    { error: /reported an error: The server had an error while processing your request\. Sorry about that!/, retryable: true },
  ],
  ['openai-compatible/error-event-text.sse', { error: /reported an error: upstream connect error or disconnect\/reset before headers/, retryable: false }],
  ['openai-compatible/openrouter-error-chunk.sse', { error: /reported an error: Provider returned error/, retryable: true }],
  [
    'openai-compatible/openrouter-spliced.sse',
    { text: '{"todos":[{"id":"t1","status":"completed"}]}', finishReason: 'stop', usage: { inputTokens: 48, outputTokens: 14 } },
  ],
  ['anthropic/text.sse', { text: ANSWER, finishReason: 'stop', usage: { inputTokens: 312, outputTokens: 38 } }],
  ['anthropic/thinking.sse', { text: '{"todos":[]}', finishReason: 'stop', usage: { inputTokens: 312, outputTokens: 96 } }],
  ['anthropic/tool-use.sse', { text: 'I’ll update the plan first.', finishReason: 'other', usage: { inputTokens: 540, outputTokens: 61 } }],
  [
    'anthropic/refusal.sse',
    { text: '', finishReason: 'refusal', refusal: 'This request was blocked under the usage policy.', usage: { inputTokens: 18, outputTokens: 5 } },
  ],
  ['anthropic/usage-in-message-delta.sse', { text: 'Sure.', finishReason: 'stop', usage: { inputTokens: 74, outputTokens: 3 } }],
  ['anthropic/overloaded-mid-stream.sse', { error: /reported overloaded_error: Overloaded/, retryable: true }],
  // One stream carries one message: another message's start inside it is a broken stream (issue 26),
  // worth a retry; the same message's start sent twice is ignored, usage and all (issue 36), as the
  // Vercel AI SDK ignores it.
  ['anthropic/duplicate-message-start.sse', { text: 'Fine.', finishReason: 'stop', usage: { inputTokens: 23, outputTokens: 4 } }],
  [
    'anthropic/duplicate-message-start-after-text.sse',
    { text: '{"todo":"t2","actions":[]}', finishReason: 'stop', usage: { inputTokens: 23, outputTokens: 12 } },
  ],
  ['anthropic/spliced-second-message.sse', { error: /second message_start, for another message/, retryable: true }],
  ['anthropic/second-message-start-without-id.sse', { error: /second message_start, for another message/, retryable: true }],
  ['anthropic/max-tokens.sse', { text: '{"todos":[{"id":"t1","description":"Open pri', finishReason: 'length', usage: { inputTokens: 312, outputTokens: 16 } }],
];

let server: TestServer;
let body: { bytes: Buffer; pieceSize: number } = { bytes: Buffer.alloc(0), pieceSize: Infinity };
beforeAll(async () => {
  server = await startServer(async (request, response) => {
    if ((request.json as { stream?: boolean }).stream !== true) return sendJSON(response, 200, JSON.parse(body.bytes.toString('utf8')));
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < body.bytes.length; at += body.pieceSize) pieces.push(body.bytes.subarray(at, at + body.pieceSize));
    await writeSSE(response, pieces);
  });
});
afterAll(() => server.close());

const providerFor = (file: string): LLMProvider =>
  file.startsWith('anthropic/')
    ? createAnthropicProvider({ apiKey: 'test-key', model: 'claude-sonnet-4-5', maxTokens: 1024, baseURL: server.url })
    : createOpenAICompatibleProvider({ baseURL: `${server.url}/v1`, model: 'test-model' });

/** Streams one fixture and reports what a caller sees. */
async function play(file: string, pieceSize: number) {
  body = { bytes: fixture(file), pieceSize };
  let text = '';
  let finish: { finishReason: FinishReason; refusal?: string; usage?: LLMUsage } | undefined;
  try {
    for await (const chunk of providerFor(file).stream!({ messages: [{ role: 'user', content: 'Plan the tour' }] })) {
      if (chunk.type === 'text-delta') text += chunk.delta;
      else
        finish = {
          finishReason: chunk.finishReason,
          ...(chunk.refusal !== undefined ? { refusal: chunk.refusal } : {}),
          ...(chunk.usage ? { usage: chunk.usage } : {}),
        };
    }
  } catch (error) {
    return { error };
  }
  return { text, ...finish };
}

describe('recorded provider streams', () => {
  it.each(STREAMS)('%s', async (file, expected) => {
    for (const pieceSize of [Infinity, 29]) {
      const seen = await play(file, pieceSize);
      if ('error' in expected) {
        expect(seen.error, `${file} in ${pieceSize}-byte pieces`).toBeInstanceOf(ProviderError);
        expect((seen.error as ProviderError).message).toMatch(expected.error);
        expect((seen.error as ProviderError).retryable).toBe(expected.retryable);
      } else {
        expect(seen, `${file} in ${pieceSize}-byte pieces`).toEqual(expected);
      }
    }
  });

  it('reads a non-streamed answer whose content is an array of parts as text (Mistral)', async () => {
    body = { bytes: fixture('openai-compatible/mistral-content-parts.json'), pieceSize: Infinity };
    const result = await providerFor('openai-compatible/').generate({ messages: [{ role: 'user', content: 'Plan the tour' }] });
    expect(result).toEqual({ text: '{"task_summary":"Prices first","todos":[]}', finishReason: 'stop', usage: { inputTokens: 64, outputTokens: 67 } });
  });
});
