import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors.js';
import { ProviderError } from '../../src/model-errors.js';
import { createFunctionProvider } from '../../src/llm/function-provider.js';
import type { LLMChunk, LLMProvider, LLMRequest } from '../../src/llm/provider.js';

const request: LLMRequest = { messages: [{ role: 'user', content: 'hi' }] };

async function collect(provider: LLMProvider, req: LLMRequest = request): Promise<LLMChunk[]> {
  const chunks: LLMChunk[] = [];
  for await (const c of provider.stream!(req)) chunks.push(c);
  return chunks;
}

describe('createFunctionProvider', () => {
  it('wraps a function returning a string, or a promise of one', async () => {
    const llm = createFunctionProvider(async ({ messages }) => `echo ${messages[0]?.content}`);
    expect(await llm.generate(request)).toEqual({ text: 'echo hi', finishReason: 'stop' });
    expect(await collect(llm)).toEqual([
      { type: 'text-delta', delta: 'echo hi' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  it('passes an LLMResult through, finish reason and usage included', async () => {
    const llm = createFunctionProvider(() => ({ text: 'cut', finishReason: 'length', usage: { outputTokens: 1 } }));
    expect(await llm.generate(request)).toEqual({ text: 'cut', finishReason: 'length', usage: { outputTokens: 1 } });
    expect((await collect(llm)).at(-1)).toEqual({ type: 'finish', finishReason: 'length', usage: { outputTokens: 1 } });
  });

  it('streams an async iterable of deltas, and joins it for generate', async () => {
    const llm = createFunctionProvider(async function* () {
      yield 'Hel';
      yield '';
      yield 'lo';
    });
    expect(await collect(llm)).toEqual([
      { type: 'text-delta', delta: 'Hel' },
      { type: 'text-delta', delta: 'lo' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(await llm.generate(request)).toEqual({ text: 'Hello', finishReason: 'stop' });
  });

  it('hands the signal to the function and stops a stream on abort', async () => {
    const controller = new AbortController();
    const llm = createFunctionProvider(async function* ({ signal }) {
      expect(signal).toBe(controller.signal);
      yield 'one';
      await new Promise(() => undefined); // a backend that never answers again
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const c of llm.stream!({ ...request, signal: controller.signal })) {
        if (c.type === 'text-delta') {
          seen.push(c.delta);
          setTimeout(() => controller.abort(), 5);
        }
      }
    })().catch((x: unknown) => x);
    expect(seen).toEqual(['one']);
    expect(error).toBeInstanceOf(AbortError);
  });

  it('rejects an output it cannot use with a clear error', async () => {
    const llm = createFunctionProvider(() => ({ content: 'x' }) as never);
    const error = await llm.generate(request).catch((x: unknown) => x);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain('return a string');
  });
});

describe('createFunctionProvider and a backend that ignores the signal', () => {
  it('rejects with aborted at once, whether generating or streaming, when the function never answers', async () => {
    const llm = createFunctionProvider(() => new Promise<string>(() => undefined));
    for (const call of [(r: LLMRequest) => llm.generate(r), (r: LLMRequest) => collect(llm, r)]) {
      const controller = new AbortController();
      const pending = call({ ...request, signal: controller.signal });
      setTimeout(() => controller.abort(), 5);
      const outcome = await Promise.race([pending.catch((error: unknown) => error), new Promise((resolve) => setTimeout(() => resolve('hung'), 300))]);
      expect(outcome).toBeInstanceOf(AbortError);
    }
  });
});
