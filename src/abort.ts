/**
 * The abort helpers every long call uses: one way to turn an aborted `AbortSignal` into planloop's
 * {@link AbortError} (keeping a timeout's `timeout` code), and to stop waiting when it aborts.
 */
import { AbortError } from './errors.js';

/**
 * Throws an {@link AbortError} when `signal` is aborted (keeping a timeout's `timeout` code).
 *
 * @example
 * ```ts
 * for (const step of ['plan', 'save']) {
 *   throwIfAborted(signal); // before each step of a long call
 *   console.log(step);
 * }
 * ```
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw toAbortError(signal.reason);
}

/**
 * Turns whatever an aborted signal carries into an {@link AbortError}: an `AbortError` is kept, a
 * `TimeoutError` (from `AbortSignal.timeout`) becomes code `timeout`, anything else code `aborted`
 * with the reason as `cause`.
 *
 * @example
 * ```ts
 * const stopped = new Promise<never>((_, reject) => {
 *   signal.addEventListener('abort', () => reject(toAbortError(signal.reason)));
 * });
 * ```
 */
export function toAbortError(reason: unknown): AbortError {
  if (AbortError.isInstance(reason)) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new AbortError('timeout', 'The operation timed out.', { cause: reason });
  }
  return new AbortError('aborted', 'The operation was aborted.', { cause: reason });
}

/**
 * Settles with `promise`, or rejects with an {@link AbortError} as soon as `signal` aborts, even
 * if the promise never settles (a stalled stream, a host callback waiting on the user).
 *
 * @example
 * ```ts
 * const iterator = provider.stream!(request)[Symbol.asyncIterator]();
 * const next = await untilAborted(iterator.next(), signal);
 * ```
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(toAbortError(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(toAbortError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
