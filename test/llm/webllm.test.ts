import { describe, expect, it } from 'vitest';
import { createWebLLMProvider, type WebLLMEngine } from '../../src/llm/webllm.js';
import { ProviderError } from '../../src/model-errors.js';
import type { ChatPayload } from '../../src/llm/openai-compatible.js';

/** A stand-in for WebLLM's MLCEngine: OpenAI-shaped answers, in process, interruptible. */
function fakeEngine(text: string, options: { pieceDelayMs?: number } = {}) {
  const requests: Record<string, unknown>[] = [];
  let interrupted = false;
  const engine: WebLLMEngine = {
    interruptGenerate: () => void (interrupted = true),
    chat: {
      completions: {
        async create(request) {
          requests.push(request);
          if (!request.stream) {
            return { choices: [{ message: { content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 12, completion_tokens: 5 } };
          }
          return (async function* (): AsyncGenerator<ChatPayload> {
            for (const piece of text.match(/.{1,3}/gs) ?? []) {
              if (interrupted) {
                yield { choices: [{ delta: {}, finish_reason: 'abort' }] };
                return;
              }
              if (options.pieceDelayMs) await new Promise((resolve) => setTimeout(resolve, options.pieceDelayMs));
              yield { choices: [{ delta: { content: piece }, finish_reason: null }] };
            }
            yield { choices: [{ delta: {}, finish_reason: 'length' }] };
            yield { choices: [], usage: { prompt_tokens: 12, completion_tokens: 5 } };
          })();
        },
      },
    },
  };
  return { engine, requests, wasInterrupted: () => interrupted };
}

describe('createWebLLMProvider', () => {
  it('generates, mapping finish reason and usage, with the schema in WebLLM JSON mode', async () => {
    const { engine, requests } = fakeEngine('{"ok":true}');
    const llm = createWebLLMProvider({ engine, temperature: 0.2 });
    const result = await llm.generate({ messages: [{ role: 'user', content: 'hi' }], jsonSchema: { type: 'object' }, maxTokens: 64 });
    expect(result).toEqual({ text: '{"ok":true}', finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 5 } });
    expect(requests[0]).toMatchObject({
      stream: false,
      temperature: 0.2,
      max_tokens: 64,
      response_format: { type: 'json_object', schema: '{"type":"object"}' },
    });
  });

  it('streams deltas, then one finish with usage', async () => {
    const { engine, requests } = fakeEngine('héllo wörld');
    const chunks = [];
    for await (const chunk of createWebLLMProvider({ engine }).stream!({ messages: [{ role: 'user', content: 'hi' }] })) chunks.push(chunk);
    const text = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('');
    expect(text).toBe('héllo wörld');
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'length', usage: { inputTokens: 12, outputTokens: 5 } });
    expect(requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('interrupts the engine and throws aborted when the signal aborts mid-stream', async () => {
    const { engine, wasInterrupted } = fakeEngine('a fairly long answer that takes a while', { pieceDelayMs: 5 });
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const chunk of createWebLLMProvider({ engine }).stream!({ messages: [{ role: 'user', content: 'hi' }], signal: controller.signal })) {
        if (chunk.type === 'text-delta') seen.push(chunk.delta);
        if (seen.length === 2) controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ code: 'aborted' });
    expect(wasInterrupted()).toBe(true);
  });

  it('turns engine failures into ProviderError', async () => {
    const engine: WebLLMEngine = {
      interruptGenerate: () => {},
      chat: { completions: { create: () => Promise.reject(new Error('WebGPU device lost')) } },
    };
    const error = await createWebLLMProvider({ engine })
      .generate({ messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider_error', provider: 'webllm', retryable: false });
    expect((error as Error).message).toMatch(/WebGPU device lost/);
  });
});

describe('createWebLLMProvider, early stop', () => {
  it('interrupts the engine when the consumer stops reading early', async () => {
    const { engine, wasInterrupted } = fakeEngine('a fairly long answer');
    for await (const chunk of createWebLLMProvider({ engine }).stream!({ messages: [{ role: 'user', content: 'hi' }] })) {
      if (chunk.type === 'text-delta') break;
    }
    expect(wasInterrupted()).toBe(true);
  });
});

/**
 * Like WebLLM's MLCEngine: a streaming generation holds the model's lock until its generator
 * finishes (its `finally`), and the next request waits for that lock. In a web-worker engine the
 * worker only advances its generator when the page asks for the next chunk.
 */
function lockingEngine(text: string) {
  let locked: Promise<void> = Promise.resolve();
  let interrupted = false;
  const acquire = async (): Promise<() => void> => {
    const previous = locked;
    let release = () => {};
    locked = new Promise<void>((resolve) => (release = resolve));
    await previous;
    return release;
  };
  const engine: WebLLMEngine = {
    interruptGenerate: () => void (interrupted = true),
    chat: {
      completions: {
        async create(request) {
          if (!request.stream) {
            const release = await acquire();
            release();
            return { choices: [{ message: { content: text }, finish_reason: 'stop' }] };
          }
          return (async function* (): AsyncGenerator<ChatPayload> {
            const release = await acquire();
            interrupted = false;
            try {
              for (const piece of text.match(/.{1,3}/gs) ?? []) {
                if (interrupted) break;
                await new Promise((resolve) => setTimeout(resolve, 2));
                yield { choices: [{ delta: { content: piece }, finish_reason: null }] };
              }
              yield { choices: [{ delta: {}, finish_reason: interrupted ? 'abort' : 'stop' }] };
            } finally {
              release();
            }
          })();
        },
      },
    },
  };
  return engine;
}

const settlesWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => 'settled'), new Promise((resolve) => setTimeout(() => resolve('hung'), ms))]);

describe('createWebLLMProvider, the engine lock', () => {
  it('leaves the engine usable after a stream is aborted mid-way', async () => {
    const llm = createWebLLMProvider({ engine: lockingEngine('a fairly long answer that takes a while') });
    const controller = new AbortController();
    const run = (async () => {
      for await (const chunk of llm.stream!({ messages: [{ role: 'user', content: 'hi' }], signal: controller.signal })) {
        if (chunk.type === 'text-delta') controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ code: 'aborted' });
    expect(await settlesWithin(llm.generate({ messages: [{ role: 'user', content: 'again' }] }), 500)).toBe('settled');
  });

  it('leaves the engine usable after the consumer stops reading early', async () => {
    const llm = createWebLLMProvider({ engine: lockingEngine('a fairly long answer that takes a while') });
    for await (const chunk of llm.stream!({ messages: [{ role: 'user', content: 'hi' }] })) {
      if (chunk.type === 'text-delta') break;
    }
    expect(await settlesWithin(llm.generate({ messages: [{ role: 'user', content: 'again' }] }), 500)).toBe('settled');
  });
});
