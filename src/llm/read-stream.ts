import { throwIfAborted, toAbortError } from '../abort.js';

/**
 * Iterates a `ReadableStream` (or any async iterable) until it ends, stopping with an
 * {@link AbortError} as soon as `signal` aborts: the reader is cancelled, so a stalled source
 * cannot keep the caller waiting.
 *
 * @example
 * ```ts
 * const response = await fetch('/model', { signal });
 * const decoder = new TextDecoder();
 * for await (const bytes of readStream(response.body!, signal)) decoder.decode(bytes, { stream: true });
 * ```
 */
export async function* readStream<T>(source: ReadableStream<T> | AsyncIterable<T>, signal?: AbortSignal): AsyncGenerator<T, void, undefined> {
  throwIfAborted(signal);
  if (!('getReader' in source)) {
    yield* readIterable(source, signal);
    return;
  }
  const reader = source.getReader();
  // Cancelling settles a pending read() even when the source never looks at the signal.
  const onAbort = (): void => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      let result: ReadableStreamReadResult<T>;
      try {
        result = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw toAbortError(signal.reason);
        throw error;
      }
      throwIfAborted(signal);
      if (result.done) return;
      yield result.value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    void reader.cancel().catch(() => {});
  }
}

/** Iterates an async iterable, racing each step against `signal` so a stalled source cannot hang. */
async function* readIterable<T>(source: AsyncIterable<T>, signal?: AbortSignal): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(toAbortError(signal?.reason));
  });
  aborted.catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const result = await (signal ? Promise.race([iterator.next(), aborted]) : iterator.next());
      throwIfAborted(signal);
      if (result.done) return;
      yield result.value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Not awaited: a generator stuck in next() only runs return() after that step settles.
    void Promise.resolve(iterator.return?.()).catch(() => {});
  }
}
