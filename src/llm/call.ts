import { PlanloopError } from '../errors.js';
import { ProviderError, RefusalError } from '../model-errors.js';
import { throwIfAborted, toAbortError, untilAborted } from '../abort.js';
import type { FinishReason, LLMChunk, LLMProvider, LLMRequest, LLMUsage } from './provider.js';

/** Options of {@link callModel}. */
export interface CallModelOptions {
  /**
   * Receives each piece of text as it arrives, and everything so far. Returning `false` stops
   * reading: the call resolves with the text so far (and no finish reason), and the provider's
   * stream is closed. For callers that already know the answer is unusable.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a listener that returns nothing (void) is the usual case; `true` stops the stream
  onDelta?: ((delta: string, text: string) => boolean | void) | undefined;
  /**
   * The most characters the answer may have: past it the call stops and throws code
   * `output_too_long` (a stream that never closes its JSON must not grow without bound). Default none.
   */
  maxChars?: number | undefined;
  /** Bound on the call, in ms; past it the call stops and throws an `AbortError` with code `timeout`. Default none. */
  timeoutMs?: number | undefined;
}

/** What {@link callModel} returns. */
export interface ModelReply {
  text: string;
  finishReason: FinishReason | undefined;
  usage: LLMUsage | undefined;
}

/**
 * One model call, for everyone who calls a model (the planner, the turn loop, document edits):
 * streamed when the provider can, else `generate`; stops waiting as soon as the request's signal
 * aborts or the timeout passes, even if the provider ignores the signal, and lets the provider
 * close its stream. Errors: a finish reason `refusal` as a {@link RefusalError} (`model_refused`, the
 * model's words kept), an abort as an `AbortError` (`aborted`, or `timeout`), a
 * {@link PlanloopError} from the provider as it is, anything else wrapped in a
 * {@link ProviderError} naming the provider (its `name`, else `unknown`).
 *
 * @example
 * ```ts
 * const { text, finishReason } = await callModel(provider, { messages, signal }, { onDelta: (delta) => console.log(delta), timeoutMs: 30_000 });
 * ```
 */
export async function callModel(provider: LLMProvider, request: LLMRequest, options: CallModelOptions = {}): Promise<ModelReply> {
  const deadline = withTimeout(request.signal, options.timeoutMs);
  try {
    return await readReply(provider, request, options, deadline.signal);
  } finally {
    deadline.clear();
  }
}

async function readReply(provider: LLMProvider, request: LLMRequest, options: CallModelOptions, signal: AbortSignal | undefined): Promise<ModelReply> {
  throwIfAborted(signal);
  const iterator = streamOrGenerate(provider, signal ? { ...request, signal } : request)[Symbol.asyncIterator]();
  let text = '';
  let finishReason: FinishReason | undefined;
  let refusal: string | undefined;
  let usage: LLMUsage | undefined;
  try {
    for (;;) {
      const step = await untilAborted(iterator.next(), signal);
      if (step.done) break;
      const chunk = step.value;
      if (chunk.type === 'text-delta') {
        if (typeof chunk.delta !== 'string' || chunk.delta === '') continue;
        text += chunk.delta;
        if (options.maxChars !== undefined && text.length > options.maxChars) {
          throw new PlanloopError(
            'output_too_long',
            `The model's answer passed ${options.maxChars} characters without finishing; it was stopped. Answer in fewer words.`,
          );
        }
        if (options.onDelta?.(chunk.delta, text) === false) {
          iterator.return?.().catch(() => {});
          break;
        }
      } else if (chunk.type === 'finish') {
        finishReason = chunk.finishReason;
        refusal = chunk.refusal;
        usage = chunk.usage;
      }
    }
  } catch (error) {
    // Let the provider clean up (close its stream); never wait on it.
    iterator.return?.().catch(() => {});
    if (signal?.aborted) throw toAbortError(signal.reason);
    if (PlanloopError.isInstance(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ProviderError('provider_error', `The model call failed: ${message}`, { provider: provider.name ?? 'unknown', retryable: false, cause: error });
  }
  throwIfAborted(signal);
  if (finishReason === 'refusal') {
    throw new RefusalError('model_refused', undefined, { refusal: refusal?.trim() || text.trim(), text, provider: provider.name });
  }
  return { text, finishReason, usage };
}

/** A signal bounded by a timeout, and the way to stop its timer once the call is over. */
export interface Deadline {
  /** Aborts when the caller's signal aborts or the time is up (reason: a `TimeoutError`). */
  readonly signal: AbortSignal | undefined;
  /** Stops the timer and unlinks the caller's signal. Call it when the bounded work ends. */
  clear(): void;
}

/**
 * `signal` bounded by a timeout. `0`, `Infinity` or nothing means no timeout; timers overflow past
 * 2^31 - 1 ms (about 24.8 days) and would fire at once, so longer is none too.
 *
 * The timer is our own and held until `clear()`: `AbortSignal.any([signal, AbortSignal.timeout(ms)])`
 * keeps its sources only weakly, so once nothing else refers to the timeout signal the garbage
 * collector may take it and the timeout never fires (nodejs/node#57736; Chromium 156 held it in our
 * test, but nothing in the spec promises that).
 *
 * @example
 * ```ts
 * const deadline = withTimeout(signal, 30_000);
 * try {
 *   await callModel(provider, { messages, signal: deadline.signal });
 * } finally {
 *   deadline.clear();
 * }
 * ```
 */
export function withTimeout(signal: AbortSignal | undefined, timeoutMs: number | undefined): Deadline {
  if (!timeoutMs || timeoutMs > 2_147_483_647 || signal?.aborted) return { signal, clear: () => {} };
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    signal?.removeEventListener('abort', onAbort);
    controller.abort(new DOMException(`The operation timed out after ${timeoutMs} ms.`, 'TimeoutError'));
  }, timeoutMs);
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * Streams a request when the provider can, else yields `generate`'s answer as one delta and a
 * finish. Lets callers write one code path.
 *
 * @example
 * ```ts
 * for await (const chunk of streamOrGenerate(provider, request)) if (chunk.type === 'text-delta') console.log(chunk.delta);
 * ```
 */
export async function* streamOrGenerate(provider: LLMProvider, request: LLMRequest): AsyncIterable<LLMChunk> {
  if (provider.stream) {
    yield* provider.stream(request);
    return;
  }
  const result = await provider.generate(request);
  if (result.text) yield { type: 'text-delta', delta: result.text };
  yield {
    type: 'finish',
    finishReason: result.finishReason ?? 'stop',
    ...(result.refusal !== undefined ? { refusal: result.refusal } : {}),
    ...(result.usage ? { usage: result.usage } : {}),
  };
}
