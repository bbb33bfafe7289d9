import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors.js';
import { ProviderError } from '../../src/model-errors.js';
import type { LLMChunk, LLMProvider, LLMRequest } from '../../src/llm/provider.js';
import { withRetry } from '../../src/llm/retry.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';

const request: LLMRequest = { messages: [{ role: 'user', content: 'hi' }] };
const busy = (retryAfterMs?: number) =>
  new ProviderError('provider_error', 'busy', { provider: 'test', status: 429, retryable: true, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
const fatal = () => new ProviderError('provider_error', 'bad key', { provider: 'test', status: 401, retryable: false });

function fakeSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

async function collect(iterable: AsyncIterable<LLMChunk>): Promise<string> {
  let text = '';
  for await (const c of iterable) if (c.type === 'text-delta') text += c.delta;
  return text;
}

describe('withRetry', () => {
  it('retries retryable errors, waiting what Retry-After asked for', async () => {
    const inner = createScriptedProvider([busy(1500), busy(0), 'ok']);
    const { waits, sleep } = fakeSleep();
    const retries: number[] = [];
    const llm = withRetry(inner, { sleep, onRetry: ({ attempt }) => retries.push(attempt) });
    expect((await llm.generate(request)).text).toBe('ok');
    expect(waits).toEqual([1500, 0]);
    expect(retries).toEqual([1, 2]);
    expect(inner.calls).toHaveLength(3);
  });

  it('backs off exponentially with jitter, capped, when there is no Retry-After', async () => {
    const inner = createScriptedProvider([busy(), busy(), busy(), busy(), 'ok']);
    const { waits, sleep } = fakeSleep();
    await withRetry(inner, { retries: 4, baseDelayMs: 100, maxDelayMs: 300, sleep }).generate(request);
    const ceilings = [100, 200, 300, 300];
    expect(waits).toHaveLength(4);
    waits.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(ceilings[i]! / 2);
      expect(ms).toBeLessThanOrEqual(ceilings[i]!);
    });
  });

  it('gives up after `retries` and throws the last error', async () => {
    const inner = createScriptedProvider([busy(), busy(), busy(), 'never']);
    const error = await withRetry(inner, { sleep: fakeSleep().sleep })
      .generate(request)
      .catch((x: unknown) => x);
    expect((error as ProviderError).status).toBe(429);
    expect(inner.calls).toHaveLength(3); // 1 + 2 retries (the default)
  });

  it('never retries errors that are not retryable, nor a Retry-After beyond the limit', async () => {
    const inner = createScriptedProvider([fatal(), busy(120_000), 'ok']);
    const llm = withRetry(inner, { sleep: fakeSleep().sleep });
    expect(((await llm.generate(request).catch((x: unknown) => x)) as ProviderError).status).toBe(401);
    expect(((await llm.generate(request).catch((x: unknown) => x)) as ProviderError).retryAfterMs).toBe(120_000);
    expect(inner.calls).toHaveLength(2);
  });

  it('never retries after an abort, also one during the wait', async () => {
    const controller = new AbortController();
    const inner = createScriptedProvider([busy(10_000), 'ok']);
    const pending = withRetry(inner).generate({ ...request, signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    const error = await pending.catch((x: unknown) => x);
    expect(error).toBeInstanceOf(AbortError);
    expect(inner.calls).toHaveLength(1);
  });

  it('retries a stream that failed before yielding, not one that failed after', async () => {
    const early = createScriptedProvider([busy(5), 'streamed']);
    expect(await collect(withRetry(early, { sleep: fakeSleep().sleep }).stream!(request))).toBe('streamed');
    expect(early.calls).toHaveLength(2);

    let calls = 0;
    const late: LLMProvider = {
      generate: async () => ({ text: '' }),
      async *stream() {
        calls += 1;
        yield { type: 'text-delta', delta: 'partial' };
        throw busy();
      },
    };
    const error = await collect(withRetry(late, { sleep: fakeSleep().sleep }).stream!(request)).catch((x: unknown) => x);
    expect((error as ProviderError).status).toBe(429);
    expect(calls).toBe(1);
  });

  it('adds no stream to a provider without one', () => {
    expect(withRetry({ generate: async () => ({ text: '' }) }).stream).toBeUndefined();
  });
});
