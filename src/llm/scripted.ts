import { ProviderError } from '../model-errors.js';
import { throwIfAborted } from '../abort.js';
import type { FinishReason, LLMChunk, LLMProvider, LLMRequest, LLMResult, LLMUsage } from './provider.js';
import { abortableSleep } from './retry.js';

/** A scripted answer given as a result: its text, and optionally how it finished (a refusal's words too) and its usage. */
export interface ScriptedResult {
  text: string;
  finishReason?: FinishReason;
  refusal?: string;
  usage?: LLMUsage;
}

/**
 * One scripted answer: a string (the text), a {@link ScriptedResult} (an object whose only keys are
 * `text`, `finishReason`, `refusal`, `usage`; `{ text: '', finishReason: 'refusal', refusal: "I can't help" }`
 * scripts a model declining), an `Error` (thrown by the call), or any other value, sent as
 * its `JSON.stringify`.
 */
export type ScriptedResponse = string | ScriptedResult | Error | object | number | boolean | null;

/** Computes the answer to call number `callIndex` (0-based). */
export type ScriptedResponder = (request: LLMRequest, callIndex: number) => ScriptedResponse | Promise<ScriptedResponse>;

/** One answer for every call, a list (one per call, in order), or a function of the request. */
export type ScriptedResponses = ScriptedResponse | readonly ScriptedResponse[] | ScriptedResponder;

/** A recorded call: the request as it was made (a copy, without its `signal`). */
export type ScriptedCall = Omit<LLMRequest, 'signal'>;

/** Options of {@link createScriptedProvider}. */
export interface ScriptedProviderOptions {
  /** Characters (code points) per streamed delta. Default 16. */
  chunkSize?: number;
  /** Wait before each streamed delta, and once before a `generate` answer. Default 0. */
  delayMs?: number;
}

/** The provider returned by {@link createScriptedProvider}: it always streams and records its calls. */
export interface ScriptedProvider extends LLMProvider {
  stream(request: LLMRequest): AsyncIterable<LLMChunk>;
  /** Every request received so far, in order. */
  readonly calls: ScriptedCall[];
}

/**
 * A fake model for tests and offline demos: answers from a script and records every call.
 *
 * `responses` is one answer for every call, a list (one per call; an array is always a list, so
 * script a JSON array answer as a string), or a function `(request, callIndex)`. Objects that are
 * not a {@link ScriptedResult} are sent as JSON; an `Error` is thrown by its call. Calling past the
 * end of a list throws a `ProviderError` saying how many calls were scripted. Streams cut the text
 * into `chunkSize`-character deltas with `delayMs` before each, and honour aborts.
 * Defaults: `chunkSize` 16, `delayMs` 0.
 *
 * @example
 * ```ts
 * const llm = createScriptedProvider([
 *   { task_summary: 'Tour the pricing page', todos: [{ intent: 'navigate', description: 'Open pricing' }] },
 *   new ProviderError('provider_error', 'rate limited', { provider: 'test', status: 429, retryable: true }),
 * ], { chunkSize: 8, delayMs: 20 });
 * await plan.makeTodos({ task: 'Show me the prices' }, { onSummaryDelta: console.log });
 * llm.calls[0]?.messages; // what the planner sent
 * ```
 */
export function createScriptedProvider(responses: ScriptedResponses, options: ScriptedProviderOptions = {}): ScriptedProvider {
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? 16));
  const delayMs = options.delayMs ?? 0;
  const calls: ScriptedCall[] = [];

  async function answer(request: LLMRequest): Promise<LLMResult> {
    const callIndex = calls.length;
    const { signal: _signal, ...rest } = request;
    calls.push(structuredClone(rest));
    throwIfAborted(request.signal);
    let response: ScriptedResponse;
    if (typeof responses === 'function') {
      response = await (responses as ScriptedResponder)(request, callIndex);
    } else if (Array.isArray(responses)) {
      if (callIndex >= responses.length) {
        throw new ProviderError(
          'provider_error',
          `Scripted provider: call ${callIndex + 1} has no response, only ${responses.length} ` +
            `${responses.length === 1 ? 'was' : 'were'} scripted. Add responses or pass a function.`,
          { provider: 'scripted', retryable: false },
        );
      }
      response = responses[callIndex] as ScriptedResponse;
    } else {
      response = responses as ScriptedResponse;
    }
    if (response instanceof Error) throw response;
    return toResult(response);
  }

  async function pause(signal: AbortSignal | undefined): Promise<void> {
    if (delayMs > 0) await abortableSleep(delayMs, signal);
    throwIfAborted(signal);
  }

  return {
    calls,
    async generate(request) {
      const result = await answer(request);
      await pause(request.signal);
      return result;
    },
    async *stream(request) {
      const result = await answer(request);
      const points = Array.from(result.text);
      for (let i = 0; i < points.length; i += chunkSize) {
        await pause(request.signal);
        yield { type: 'text-delta', delta: points.slice(i, i + chunkSize).join('') };
      }
      throwIfAborted(request.signal);
      yield {
        type: 'finish',
        finishReason: result.finishReason ?? 'stop',
        ...(result.refusal !== undefined ? { refusal: result.refusal } : {}),
        ...(result.usage ? { usage: result.usage } : {}),
      };
    },
  };
}

const RESULT_KEYS = new Set(['text', 'finishReason', 'refusal', 'usage']);

function toResult(response: ScriptedResponse): LLMResult {
  if (typeof response === 'string') return { text: response, finishReason: 'stop' };
  if (isScriptedResult(response)) return { finishReason: 'stop', ...response };
  return { text: JSON.stringify(response) ?? String(response), finishReason: 'stop' };
}

function isScriptedResult(value: unknown): value is ScriptedResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.text === 'string' && Object.keys(record).every((key) => RESULT_KEYS.has(key));
}
