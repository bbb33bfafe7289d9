import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors.js';
import { RefusalError, refusalOf } from '../../src/model-errors.js';
import { callModel, streamOrGenerate, withTimeout } from '../../src/llm/call.js';
import { createFunctionProvider } from '../../src/llm/function-provider.js';
import type { LLMChunk, LLMProvider } from '../../src/llm/provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import { editDocument } from '../../src/planning/edit-with-instruction.js';
import { planTodos } from '../../src/planning/make-todos.js';

// A forced collection, as the garbage collector may run at any moment of a long call.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A provider whose stream sends one piece and then never another (a stalled connection). */
function stalledProvider(): LLMProvider {
  return {
    name: 'stalled',
    generate: () => new Promise(() => {}),
    stream: async function* (): AsyncGenerator<LLMChunk> {
      yield { type: 'text-delta', delta: '{"task_summary":"' };
      await new Promise(() => {});
    },
  };
}

/**
 * Settles how `promise` settles while forcing a collection every few milliseconds; after 400
 * collections (a few seconds) with no end, it gives up and says the call is still running, so a
 * timeout that never fires fails the test instead of keeping the process busy.
 */
async function whileCollecting<T>(promise: Promise<T>): Promise<PromiseSettledResult<T> | { status: 'still running' }> {
  let settled = false;
  const result = promise.then(
    (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason }),
  );
  void result.then(() => (settled = true));
  for (let i = 0; i < 400 && !settled; i++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return settled ? result : { status: 'still running' };
}

function timedOut(result: PromiseSettledResult<unknown> | { status: 'still running' }): boolean {
  return result.status === 'rejected' && result.reason instanceof AbortError && result.reason.code === 'timeout';
}

describe('timeouts hold however the garbage collector behaves (nodejs/node#57736)', () => {
  it('a stalled model call with a host signal ends at its timeout in each of 20 runs with forced collections', async () => {
    for (let run = 0; run < 20; run++) {
      const host = new AbortController();
      const result = await whileCollecting(
        callModel(stalledProvider(), { messages: [{ role: 'user', content: 'hi' }], signal: host.signal }, { timeoutMs: 40 }),
      );
      expect(timedOut(result), `run ${run + 1}`).toBe(true);
    }
  });

  it('planning and document edits end at their timeouts too', async () => {
    const host = new AbortController();
    expect(timedOut(await whileCollecting(planTodos(stalledProvider(), { task: 'Tour' }, { timeoutMs: 40, signal: host.signal })))).toBe(true);
    const doc = { title: 'Notes', content: 'Short.' };
    expect(timedOut(await whileCollecting(editDocument(stalledProvider(), doc, 'Longer.', { timeoutMs: 40, signal: host.signal })))).toBe(true);
  });

  it("the host's abort still wins, and is told apart from the timeout", async () => {
    const host = new AbortController();
    const call = callModel(stalledProvider(), { messages: [{ role: 'user', content: 'hi' }], signal: host.signal }, { timeoutMs: 60_000 });
    host.abort();
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).code).toBe('aborted');
  });
});

describe('withTimeout', () => {
  it('clear() stops the timer and unlinks the host signal', async () => {
    const host = new AbortController();
    const deadline = withTimeout(host.signal, 20);
    deadline.clear();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(deadline.signal?.aborted).toBe(false);
    host.abort();
    expect(deadline.signal?.aborted).toBe(false);
  });

  it('no timeout (0, Infinity, past the timer range) hands the host signal back as it is', () => {
    const host = new AbortController();
    for (const ms of [0, Infinity, 2 ** 31, undefined]) expect(withTimeout(host.signal, ms).signal).toBe(host.signal);
  });
});

// Issue 26: callModel turns every provider's way of declining into one typed outcome, a
// RefusalError with code `model_refused` and the model's words.
const request = { messages: [{ role: 'user' as const, content: 'Plan a tour of the admin panel' }] };

describe('callModel: refusals', () => {
  it('throws a RefusalError with the words of a refusal finish, streamed or generated', async () => {
    for (const provider of [
      createScriptedProvider({ text: '', finishReason: 'refusal', refusal: "I can't help with that." }),
      { generate: async () => ({ text: '', finishReason: 'refusal' as const, refusal: "I can't help with that." }) },
    ]) {
      const error = await callModel(provider, request).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RefusalError);
      expect(error).toMatchObject({ code: 'model_refused', refusal: "I can't help with that.", text: '' });
      expect(refusalOf(error)).toBe("I can't help with that.");
    }
  });

  it('takes the text the model wrote as its words when the API gave none apart', async () => {
    const error = (await callModel(createScriptedProvider({ text: 'Sorry, I will not do that. ', finishReason: 'refusal' }), request).catch(
      (caught: unknown) => caught,
    )) as RefusalError;
    expect(error.refusal).toBe('Sorry, I will not do that.');
    expect(error.text).toBe('Sorry, I will not do that. ');
    expect(error.message).toMatch(/^The model declined to answer: Sorry, I will not do that\./);
  });

  it("reads the AI SDK's content-filter finish returned through a function provider", async () => {
    const provider = createFunctionProvider(async () => ({ text: '', finishReason: 'content-filter' as never }));
    expect(await provider.generate(request)).toEqual({ text: '', finishReason: 'refusal' });
    const error = await callModel(provider, request).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'model_refused', refusal: '' });
  });
});

describe('streamOrGenerate', () => {
  it('falls back to generate for providers that cannot stream', async () => {
    const chunks: LLMChunk[] = [];
    const provider = { generate: async () => ({ text: 'hi', usage: { outputTokens: 1 } }) };
    for await (const c of streamOrGenerate(provider, { messages: [] })) chunks.push(c);
    expect(chunks).toEqual([
      { type: 'text-delta', delta: 'hi' },
      { type: 'finish', finishReason: 'stop', usage: { outputTokens: 1 } },
    ]);
  });
});
