import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors.js';
import { callModel, withTimeout } from '../../src/llm/call.js';
import type { LLMChunk, LLMProvider } from '../../src/llm/provider.js';
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

/** Settles how `promise` settles while forcing a collection every few milliseconds. */
async function whileCollecting<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  let settled = false;
  const result = promise.then(
    (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
    (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason }),
  );
  void result.then(() => (settled = true));
  while (!settled) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return result;
}

function timedOut(result: PromiseSettledResult<unknown>): boolean {
  return result.status === 'rejected' && result.reason instanceof AbortError && result.reason.code === 'timeout';
}

describe('timeouts hold however the garbage collector behaves (nodejs/node#57736)', () => {
  it('a stalled model call with a host signal ends at its timeout in each of 20 runs with forced collections', async () => {
    for (let run = 0; run < 20; run++) {
      const host = new AbortController();
      const result = await whileCollecting(callModel(stalledProvider(), { messages: [{ role: 'user', content: 'hi' }], signal: host.signal }, { timeoutMs: 40 }));
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
