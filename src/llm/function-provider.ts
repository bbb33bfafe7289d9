import { ProviderError } from '../model-errors.js';
import { throwIfAborted, untilAborted } from '../abort.js';
import type { FinishReason, LLMChunk, LLMProvider, LLMRequest, LLMResult } from './provider.js';
import { readStream } from './read-stream.js';

/** A result as a backend spells it: an {@link LLMResult} whose finish reason may be the AI SDK's (`content-filter`, `tool-calls`, …). */
export interface FunctionProviderResult extends Omit<LLMResult, 'finishReason'> {
  finishReason?: FinishReason | 'content-filter' | 'tool-calls' | 'unknown' | (string & {}) | undefined;
}

/** What a function given to {@link createFunctionProvider} may return. */
export type FunctionProviderOutput = string | FunctionProviderResult | AsyncIterable<string>;

/** A backend as one function of the request. */
export type FunctionProviderFn = (request: LLMRequest) => FunctionProviderOutput | Promise<FunctionProviderOutput>;

/**
 * Wraps any backend as a provider: `fn` gets the request (with its `signal`) and returns the text,
 * an {@link LLMResult}, a promise of either, or an async iterable of text deltas to stream.
 * Both `generate` and `stream` work whatever `fn` returns; a returned string finishes with `stop`.
 * A result's `finishReason` may be spelled as the Vercel AI SDK does: `content-filter` (the model
 * or its filter declined) becomes `refusal`, `tool-calls` and `unknown` become `other`.
 *
 * @example
 * ```ts
 * declare const myBackend: { chat(messages: LLMMessage[], options: { signal?: AbortSignal | undefined }): Promise<{ text: string }> };
 * const llm = createFunctionProvider(async ({ messages, signal }) => {
 *   const reply = await myBackend.chat(messages, { signal });
 *   return reply.text;
 * });
 * ```
 */
export function createFunctionProvider(fn: FunctionProviderFn): LLMProvider {
  if (typeof fn !== 'function') throw new TypeError('createFunctionProvider needs a function of the request.');

  async function run(request: LLMRequest): Promise<FunctionProviderOutput> {
    throwIfAborted(request.signal);
    // A backend that ignores the signal must not keep an aborted call waiting.
    const output = await untilAborted(
      Promise.resolve().then(() => fn(request)),
      request.signal,
    );
    throwIfAborted(request.signal);
    return output;
  }

  return {
    async generate(request) {
      const output = await run(request);
      if (!isIterable(output)) return toResult(output);
      let text = '';
      for await (const piece of readStream(output, request.signal)) text += piece;
      return { text, finishReason: 'stop' };
    },

    async *stream(request): AsyncIterable<LLMChunk> {
      const output = await run(request);
      if (isIterable(output)) {
        for await (const delta of readStream(output, request.signal)) if (delta) yield { type: 'text-delta', delta };
        yield { type: 'finish', finishReason: 'stop' };
        return;
      }
      const result = toResult(output);
      if (result.text) yield { type: 'text-delta', delta: result.text };
      yield {
        type: 'finish',
        finishReason: result.finishReason ?? 'stop',
        ...(result.refusal !== undefined ? { refusal: result.refusal } : {}),
        ...(result.usage ? { usage: result.usage } : {}),
      };
    },
  };
}

function isIterable(output: FunctionProviderOutput): output is AsyncIterable<string> {
  return typeof output === 'object' && output !== null && Symbol.asyncIterator in output;
}

function toResult(output: string | FunctionProviderResult): LLMResult {
  if (typeof output === 'string') return { text: output, finishReason: 'stop' };
  if (output && typeof output.text === 'string') {
    const { finishReason, ...rest } = output;
    return finishReason === undefined ? rest : { ...rest, finishReason: finishReasonOf(finishReason) };
  }
  throw new ProviderError(
    'provider_error',
    `The function given to createFunctionProvider returned ${JSON.stringify(output)?.slice(0, 80)}; ` +
      'return a string, { text }, or an async iterable of strings.',
    { provider: 'function', retryable: false },
  );
}

const FINISH_REASONS = new Set<string>(['stop', 'length', 'refusal', 'abort', 'error', 'other']);

/** A finish reason as a host's backend spells it (the AI SDK's `content-filter`, …) as a {@link FinishReason}. */
function finishReasonOf(reason: string): FinishReason {
  if (FINISH_REASONS.has(reason)) return reason as FinishReason;
  return reason === 'content-filter' || reason === 'content_filter' ? 'refusal' : 'other';
}
