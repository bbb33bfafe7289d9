import { ProviderError } from '../model-errors.js';
import { throwIfAborted, toAbortError } from '../abort.js';
import type { LLMChunk, LLMProvider, LLMRequest, LLMResult } from './provider.js';

/** How {@link withRetry} retries. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  retries?: number;
  /** First backoff delay; doubles each retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Cap on a backoff delay. Default 8000 ms. */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  /** Waits `ms`; inject a fake in tests. Must reject when `signal` aborts. Default: a timer. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each wait, e.g. to log. */
  onRetry?: (info: { attempt: number; delayMs: number; error: ProviderError }) => void;
}

/**
 * Wraps a provider so that failures a retry can help with ({@link ProviderError} with
 * `retryable: true`: 429, 5xx, dropped connections) are tried again. Waits what `Retry-After`
 * asked for, else an exponential backoff with jitter. Never retries after an abort, and retries
 * a stream only while it has yielded nothing (a retry would repeat text already shown).
 * Defaults: 2 retries, 500 ms base, 8 s cap.
 *
 * @example
 * ```ts
 * const llm = withRetry(createOpenAICompatibleProvider({ baseURL: 'http://localhost:11434/v1', model: 'qwen2.5:7b' }), { retries: 3 });
 * ```
 */
export function withRetry(provider: LLMProvider, options: RetryOptions = {}): LLMProvider {
  const { retries = 2, baseDelayMs = 500, maxDelayMs = 8000, maxRetryAfterMs = 60_000, sleep = abortableSleep, onRetry } = options;

  /** The wait before retry number `attempt` (0-based), or `undefined` to give up and rethrow. */
  function delayFor(error: unknown, attempt: number, signal?: AbortSignal): number | undefined {
    if (signal?.aborted || attempt >= retries) return undefined;
    if (!ProviderError.isInstance(error) || !error.retryable) return undefined;
    if (error.retryAfterMs !== undefined) return error.retryAfterMs <= maxRetryAfterMs ? error.retryAfterMs : undefined;
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  async function wait(error: ProviderError, attempt: number, delayMs: number, signal?: AbortSignal): Promise<void> {
    onRetry?.({ attempt: attempt + 1, delayMs, error });
    await sleep(delayMs, signal);
    throwIfAborted(signal);
  }

  const wrapped: LLMProvider = {
    async generate(request: LLMRequest): Promise<LLMResult> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await provider.generate(request);
        } catch (error) {
          const delayMs = delayFor(error, attempt, request.signal);
          if (delayMs === undefined) throw error;
          await wait(error as ProviderError, attempt, delayMs, request.signal);
        }
      }
    },
  };
  const inner = provider.stream?.bind(provider);
  if (inner) {
    wrapped.stream = async function* (request: LLMRequest): AsyncIterable<LLMChunk> {
      for (let attempt = 0; ; attempt++) {
        let yielded = false;
        try {
          for await (const chunk of inner(request)) {
            yielded = true;
            yield chunk;
          }
          return;
        } catch (error) {
          const delayMs = yielded ? undefined : delayFor(error, attempt, request.signal);
          if (delayMs === undefined) throw error;
          await wait(error as ProviderError, attempt, delayMs, request.signal);
        }
      }
    };
  }
  return wrapped;
}

/**
 * Applies an adapter's `retry` option: `true` for the defaults, an object to tune them, absent or
 * `false` for none.
 *
 * @example
 * ```ts
 * declare const options: { retry?: boolean | RetryOptions }; // an adapter's options
 * const llm = applyRetry(provider, options.retry);
 * ```
 */
export function applyRetry(provider: LLMProvider, retry: boolean | RetryOptions | undefined): LLMProvider {
  if (!retry) return provider;
  return withRetry(provider, retry === true ? {} : retry);
}

/**
 * Waits `ms`, rejecting with an `AbortError` as soon as `signal` aborts.
 *
 * @example
 * ```ts
 * await abortableSleep(250, request.signal);
 * ```
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(toAbortError(signal.reason));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(toAbortError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
