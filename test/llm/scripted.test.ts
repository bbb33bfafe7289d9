import { describe, expect, it, vi } from 'vitest';
import { AbortError } from '../../src/errors.js';
import { ProviderError } from '../../src/model-errors.js';
import type { LLMChunk, LLMRequest } from '../../src/llm/provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';

const ask = (content: string, extra: Partial<LLMRequest> = {}): LLMRequest => ({ messages: [{ role: 'user', content }], ...extra });

async function collect(iterable: AsyncIterable<LLMChunk>): Promise<LLMChunk[]> {
  const chunks: LLMChunk[] = [];
  for await (const c of iterable) chunks.push(c);
  return chunks;
}

describe('createScriptedProvider', () => {
  it('answers every call with one value; objects are sent as JSON', async () => {
    const llm = createScriptedProvider({ task_summary: 'Tour', todos: [] });
    expect(await llm.generate(ask('a'))).toEqual({ text: '{"task_summary":"Tour","todos":[]}', finishReason: 'stop' });
    expect((await llm.generate(ask('b'))).text).toBe('{"task_summary":"Tour","todos":[]}');
    await expect(createScriptedProvider('plain').generate(ask('x'))).resolves.toEqual({ text: 'plain', finishReason: 'stop' });
  });

  it('takes an LLMResult-like object as the result itself', async () => {
    const llm = createScriptedProvider({ text: '{"cut', finishReason: 'length', usage: { inputTokens: 3, outputTokens: 2 } });
    expect(await llm.generate(ask('a'))).toEqual({ text: '{"cut', finishReason: 'length', usage: { inputTokens: 3, outputTokens: 2 } });
    expect((await collect(llm.stream(ask('a')))).at(-1)).toEqual({ type: 'finish', finishReason: 'length', usage: { inputTokens: 3, outputTokens: 2 } });
    // an object with other keys besides text is data, sent as JSON
    expect((await createScriptedProvider({ text: 'hi', type: 'narrate' }).generate(ask('a'))).text).toBe('{"text":"hi","type":"narrate"}');
  });

  it('answers a list one per call and says how many were scripted when it runs out', async () => {
    const llm = createScriptedProvider(['first', { n: 2 }]);
    expect((await llm.generate(ask('1'))).text).toBe('first');
    expect((await llm.generate(ask('2'))).text).toBe('{"n":2}');
    const error = (await llm.generate(ask('3')).catch((x: unknown) => x)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toContain('call 3');
    expect(error.message).toContain('only 2 were scripted');
  });

  it('answers from a function of the request and the call index', async () => {
    const llm = createScriptedProvider(async (request, index) => `${index}:${request.messages[0]?.content}`);
    expect((await llm.generate(ask('a'))).text).toBe('0:a');
    expect((await collect(llm.stream(ask('b'))))[0]).toEqual({ type: 'text-delta', delta: '1:b' });
  });

  it('throws a scripted Error from its call', async () => {
    const failure = new ProviderError('provider_error', 'rate limited', { provider: 'test', status: 429, retryable: true });
    const llm = createScriptedProvider([failure, 'ok']);
    await expect(llm.generate(ask('a'))).rejects.toBe(failure);
    expect((await llm.generate(ask('b'))).text).toBe('ok');
    await expect(collect(createScriptedProvider(new Error('down')).stream(ask('c')))).rejects.toThrow('down');
  });

  it('records each call as a copy without its signal', async () => {
    const llm = createScriptedProvider('ok');
    const request = ask('hello', { jsonSchema: { type: 'object' }, maxTokens: 9, signal: new AbortController().signal });
    await llm.generate(request);
    request.messages[0]!.content = 'mutated later';
    await collect(llm.stream(ask('second')));
    expect(llm.calls).toEqual([
      { messages: [{ role: 'user', content: 'hello' }], jsonSchema: { type: 'object' }, maxTokens: 9 },
      { messages: [{ role: 'user', content: 'second' }] },
    ]);
  });

  it('streams in chunks of the chosen size, never splitting a character', async () => {
    const llm = createScriptedProvider('Café 🚀 tour!', { chunkSize: 3 });
    const chunks = await collect(llm.stream(ask('a')));
    expect(chunks).toEqual([...['Caf', 'é 🚀', ' to', 'ur!'].map((delta) => ({ type: 'text-delta', delta })), { type: 'finish', finishReason: 'stop' }]);
    const defaults = await collect(createScriptedProvider('x'.repeat(40)).stream(ask('a')));
    expect(defaults.filter((c) => c.type === 'text-delta').map((c) => (c as { delta: string }).delta.length)).toEqual([16, 16, 8]);
  });

  it('waits delayMs before each chunk', async () => {
    vi.useFakeTimers();
    try {
      const llm = createScriptedProvider('abcdef', { chunkSize: 2, delayMs: 30 });
      const seen: string[] = [];
      const reading = (async () => {
        for await (const c of llm.stream(ask('a'))) if (c.type === 'text-delta') seen.push(c.delta);
      })();
      await vi.advanceTimersByTimeAsync(29);
      expect(seen).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(seen).toEqual(['ab']);
      await vi.advanceTimersByTimeAsync(59);
      expect(seen).toEqual(['ab', 'cd']);
      await vi.advanceTimersByTimeAsync(1);
      expect(seen).toEqual(['ab', 'cd', 'ef']);
      await reading;
    } finally {
      vi.useRealTimers();
    }
  });

  it('honours an abort during a delay', async () => {
    vi.useFakeTimers();
    try {
      const llm = createScriptedProvider('abcdef', { chunkSize: 1, delayMs: 1000 });
      const controller = new AbortController();
      const seen: string[] = [];
      const reading = (async () => {
        for await (const c of llm.stream(ask('a', { signal: controller.signal }))) if (c.type === 'text-delta') seen.push(c.delta);
      })().catch((x: unknown) => x);
      await vi.advanceTimersByTimeAsync(20);
      controller.abort();
      // Settles without the clock reaching the end of the delay.
      const error = await reading;
      expect(error).toBeInstanceOf(AbortError);
      expect(seen).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
    const generate = createScriptedProvider('x', { delayMs: 1000 }).generate(ask('a', { signal: AbortSignal.timeout(10) }));
    expect(((await generate.catch((x: unknown) => x)) as AbortError).code).toBe('timeout');
  });
});
