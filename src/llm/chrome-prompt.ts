import { PlanloopError, ValidationError } from '../errors.js';
import { ProviderError } from '../model-errors.js';
import { throwIfAborted, toAbortError } from '../abort.js';
import { createDeltaNormalizer } from './delta-normalizer.js';
import { isDescribedInPrompt } from './json-instruction.js';
import type { LLMChunk, LLMMessage, LLMProvider, LLMRequest } from './provider.js';
import { readStream } from './read-stream.js';

const PROVIDER = 'chrome-prompt';

/** The part of a Prompt API session this adapter uses. */
export interface ChromeLanguageModelSession {
  prompt(input: string, options?: ChromePromptOptions): Promise<string>;
  promptStreaming(input: string, options?: ChromePromptOptions): ReadableStream<string> | AsyncIterable<string>;
  destroy(): void;
}

/** Options passed to `session.prompt()` / `promptStreaming()`. */
export interface ChromePromptOptions {
  responseConstraint?: Record<string, unknown>;
  /** Chrome adds `responseConstraint` to the model's input unless this is `true`. */
  omitResponseConstraintInput?: boolean;
  signal?: AbortSignal;
}

/** What the `LanguageModel` global offers (or a stand-in with the same shape). */
export interface ChromeLanguageModel {
  availability?(options?: Record<string, unknown>): Promise<string>;
  params?(): Promise<{ defaultTemperature?: number; defaultTopK?: number } | null | undefined>;
  create(options?: Record<string, unknown>): Promise<ChromeLanguageModelSession>;
}

/** `expectedInputs` / `expectedOutputs` entries, e.g. `{ type: 'text', languages: ['en'] }`. */
export interface ChromeExpectedIO {
  type: 'text' | 'image' | 'audio';
  languages?: string[];
}

/** Options of {@link createChromePromptProvider}. */
export interface ChromePromptProviderOptions {
  /** The Prompt API entry point. Default: `globalThis.LanguageModel`, read on each call. */
  languageModel?: ChromeLanguageModel;
  /** Messages placed before each request's own (e.g. few-shot examples); system ones join the system prompt. */
  initialPrompts?: LLMMessage[];
  /** Default: the model's. */
  temperature?: number;
  /** Default: the model's. */
  topK?: number;
  expectedInputs?: ChromeExpectedIO[];
  expectedOutputs?: ChromeExpectedIO[];
  /** Passed to `LanguageModel.create()`, e.g. to follow the model download's `downloadprogress`. */
  monitor?: (monitor: EventTarget) => void;
}

/**
 * A provider for Chrome's built-in Prompt API (`LanguageModel`, Gemini Nano on device).
 *
 * The API is looked up when called, not at import: where it is missing or unavailable the call
 * throws a {@link ProviderError} with code `provider_unavailable`. Each call runs in a fresh
 * session, destroyed afterwards, so calls never share history: system messages become the
 * session's system prompt, earlier turns its `initialPrompts`, and the last message (which must
 * be the user's) the prompt. A request's `jsonSchema` is passed as `responseConstraint` (not also added to the
 * model's input when marked by `describedInPrompt`: the prompt says it already).
 * The Prompt API has no token limit option, so `maxTokens` is ignored.
 * Defaults: the model's temperature and topK.
 *
 * @example
 * ```ts
 * const llm = createChromePromptProvider({ expectedOutputs: [{ type: 'text', languages: ['en'] }] });
 * const { text } = await llm.generate({ messages: [{ role: 'user', content: 'Say hi' }] });
 * ```
 */
export function createChromePromptProvider(options: ChromePromptProviderOptions = {}): LLMProvider {
  async function open(request: LLMRequest): Promise<{ session: ChromeLanguageModelSession; input: string; promptOptions: ChromePromptOptions }> {
    throwIfAborted(request.signal);
    const api = options.languageModel ?? (globalThis as { LanguageModel?: ChromeLanguageModel }).LanguageModel;
    if (!api || typeof api.create !== 'function') {
      throw unavailable(
        "Chrome's built-in Prompt API (LanguageModel) is not available here. Use a Chrome version with built-in AI " +
          '(enable chrome://flags/#prompt-api-for-gemini-nano on older ones), or pick another provider.',
      );
    }
    const all = [...(options.initialPrompts ?? []), ...request.messages];
    const last = all.at(-1);
    if (last?.role !== 'user') {
      throw new ValidationError('invalid_input', `${PROVIDER}: the last message must be the user's, as it becomes the prompt.`, {
        issues: [
          request.messages.length > 0
            ? { path: `messages[${request.messages.length - 1}].role`, message: 'must be "user"' }
            : { path: 'messages', message: 'must hold at least one user message' },
        ],
      });
    }
    const system = all.filter((m) => m.role === 'system').map((m) => m.content);
    // The Prompt API allows one system prompt, and only as the first initial prompt.
    const initialPrompts = [
      ...(system.length > 0 ? [{ role: 'system', content: system.join('\n\n') }] : []),
      ...all.slice(0, -1).filter((m) => m.role !== 'system'),
    ];
    const io: Record<string, unknown> = {};
    if (options.expectedInputs) io.expectedInputs = options.expectedInputs;
    if (options.expectedOutputs) io.expectedOutputs = options.expectedOutputs;
    const availability = await call(() => api.availability?.(io), request.signal);
    if (availability === 'unavailable') {
      throw unavailable(
        "Chrome's built-in model is unavailable on this device or for these options (hardware, storage, " + 'languages). Pick another provider.',
      );
    }
    const createOptions: Record<string, unknown> = { ...io, initialPrompts };
    if (request.signal) createOptions.signal = request.signal;
    if (options.monitor) createOptions.monitor = options.monitor;
    let temperature = request.temperature ?? options.temperature;
    let topK = options.topK;
    if (temperature !== undefined || topK !== undefined) {
      // Chrome rejects a session that sets only one of temperature and topK: fill the other in.
      const params = await call(() => api.params?.(), request.signal);
      temperature ??= params?.defaultTemperature;
      topK ??= params?.defaultTopK;
      if (temperature !== undefined && topK !== undefined) Object.assign(createOptions, { temperature, topK });
    }
    const session = await call(() => api.create(createOptions), request.signal);
    const promptOptions: ChromePromptOptions = {};
    if (request.jsonSchema) Object.assign(promptOptions, constraintOptions(request.jsonSchema));
    if (request.signal) promptOptions.signal = request.signal;
    return { session, input: last.content, promptOptions };
  }

  return {
    async generate(request) {
      const { session, input, promptOptions } = await open(request);
      try {
        const text = await call(() => session.prompt(input, promptOptions), request.signal);
        return { text, finishReason: 'stop' };
      } finally {
        session.destroy();
      }
    },

    async *stream(request): AsyncIterable<LLMChunk> {
      const { session, input, promptOptions } = await open(request);
      try {
        const toDelta = createDeltaNormalizer(); // older Chrome builds streamed the cumulative text
        const stream = await call(() => session.promptStreaming(input, promptOptions), request.signal);
        try {
          for await (const piece of readStream(stream, request.signal)) {
            const delta = toDelta(String(piece));
            if (delta) yield { type: 'text-delta', delta };
          }
        } catch (error) {
          throw mapError(error, request.signal);
        }
        yield { type: 'finish', finishReason: 'stop' };
      } finally {
        session.destroy();
      }
    },
  };
}

/** Runs a Prompt API step, mapping its DOMExceptions to planloop errors. */
async function call<T>(step: () => T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw mapError(error, signal);
  }
}

function mapError(error: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) return toAbortError(signal.reason);
  if (PlanloopError.isInstance(error)) return error;
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const hints: Record<string, string> = {
    NotAllowedError: ' The model may need downloading first, which Chrome only starts from a user gesture (a click).',
    QuotaExceededError: " The input is larger than the on-device model's context; shorten the prompt.",
    NotSupportedError: ' These options (languages, modalities, responseConstraint) are not supported here.',
  };
  const unavailableNames = ['NotAllowedError', 'NotSupportedError'];
  return new ProviderError(
    unavailableNames.includes(name) ? 'provider_unavailable' : 'provider_error',
    `Chrome's Prompt API failed with ${name}: ${message}.${hints[name] ?? ''}`,
    {
      provider: PROVIDER,
      retryable: false,
      cause: error,
    },
  );
}

function unavailable(message: string): ProviderError {
  return new ProviderError('provider_unavailable', message, { provider: PROVIDER, retryable: false });
}

/**
 * The prompt options that constrain the answer to `schema`. Chrome also adds the schema to the
 * model's input unless told not to: a schema the prompt already describes is not added twice.
 */
function constraintOptions(schema: Record<string, unknown>): ChromePromptOptions {
  return isDescribedInPrompt(schema) ? { responseConstraint: schema, omitResponseConstraintInput: true } : { responseConstraint: schema };
}
