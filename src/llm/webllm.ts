import { ProviderError } from '../model-errors.js';
import { throwIfAborted, toAbortError } from '../abort.js';
import { contentText, mapFinishReason, mapUsage, type ChatPayload } from './openai-compatible.js';
import type { FinishReason, LLMChunk, LLMProvider, LLMRequest, LLMResult, LLMUsage } from './provider.js';

const PROVIDER = 'webllm';

/**
 * The part of WebLLM's `MLCEngine` (or `WebWorkerMLCEngine`) this provider uses. Declared here so
 * planloop does not depend on `@mlc-ai/web-llm`.
 */
export interface WebLLMEngine {
  chat: {
    completions: {
      create(request: Record<string, unknown>): Promise<ChatPayload | AsyncIterable<ChatPayload>>;
    };
  };
  /** Stops the generation in progress. */
  interruptGenerate(): void;
}

/** Options of {@link createWebLLMProvider}. */
export interface WebLLMProviderOptions {
  /** A loaded engine: `await CreateMLCEngine(modelId)` or a web-worker engine. */
  engine: WebLLMEngine;
  /** Used when a request sets none. Default: the model's. */
  temperature?: number;
}

/**
 * A provider for a model running in the page with WebLLM (WebGPU), through its in-process,
 * OpenAI-shaped `engine.chat.completions.create`. A request's `jsonSchema` goes into WebLLM's
 * JSON mode (`response_format: { type: 'json_object', schema }`, the schema as a string, which
 * WebLLM turns into a grammar). An abort calls `engine.interruptGenerate()`.
 *
 * @example
 * ```ts
 * // import { CreateMLCEngine } from '@mlc-ai/web-llm';
 * declare function CreateMLCEngine(model: string): Promise<WebLLMEngine>; // the package's, typed as planloop reads it
 * const engine = await CreateMLCEngine('Qwen2.5-1.5B-Instruct-q4f16_1-MLC');
 * const plan = new Plan({ llm: createWebLLMProvider({ engine }) });
 * ```
 */
export function createWebLLMProvider(options: WebLLMProviderOptions): LLMProvider {
  const { engine } = options;

  const body = (request: LLMRequest, stream: boolean): Record<string, unknown> => {
    const out: Record<string, unknown> = { messages: request.messages, stream };
    const temperature = request.temperature ?? options.temperature;
    if (temperature !== undefined) out.temperature = temperature;
    if (request.maxTokens !== undefined) out.max_tokens = request.maxTokens;
    if (request.jsonSchema) out.response_format = { type: 'json_object', schema: JSON.stringify(request.jsonSchema) };
    if (stream) out.stream_options = { include_usage: true };
    return out;
  };

  /** Runs `work` and maps its failure: an abort stays an abort, anything else is a ProviderError. */
  const call = async <T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> => {
    throwIfAborted(signal);
    try {
      const result = await work();
      throwIfAborted(signal);
      return result;
    } catch (error) {
      if (signal?.aborted) throw toAbortError(signal.reason);
      throw asProviderError(error);
    }
  };

  /** Interrupts the engine when `signal` aborts, for as long as `body` runs. */
  const interruptible = async <T>(signal: AbortSignal | undefined, body: () => Promise<T>): Promise<T> => {
    const interrupt = () => engine.interruptGenerate();
    signal?.addEventListener('abort', interrupt, { once: true });
    try {
      return await body();
    } finally {
      signal?.removeEventListener('abort', interrupt);
    }
  };

  return {
    generate(request) {
      return interruptible(request.signal, () =>
        call(request.signal, async () => {
          const answer = await engine.chat.completions.create(body(request, false));
          if (Symbol.asyncIterator in answer)
            throw new ProviderError('provider_error', 'WebLLM streamed an answer that was asked for whole.', { provider: PROVIDER, retryable: false });
          const choice = answer.choices?.[0];
          const result: LLMResult = { text: contentText(choice?.message?.content) };
          const finishReason = mapFinishReason(choice?.finish_reason);
          if (finishReason) result.finishReason = finishReason;
          const usage = mapUsage(answer.usage);
          if (usage) result.usage = usage;
          return result;
        }),
      );
    },

    async *stream(request): AsyncIterable<LLMChunk> {
      const { signal } = request;
      throwIfAborted(signal);
      // The listener spans the whole stream, also while the consumer holds a chunk between reads.
      const interrupt = () => engine.interruptGenerate();
      signal?.addEventListener('abort', interrupt, { once: true });
      let finished = false;
      let chunks: AsyncIterator<ChatPayload> | undefined;
      let started = false;
      try {
        chunks = await call(signal, async () => {
          const answer = await engine.chat.completions.create(body(request, true));
          if (!(Symbol.asyncIterator in answer))
            throw new ProviderError('provider_error', 'WebLLM answered whole when asked to stream.', { provider: PROVIDER, retryable: false });
          return answer[Symbol.asyncIterator]();
        });
        let finishReason: FinishReason | undefined;
        let usage: LLMUsage | undefined;
        for (;;) {
          const next = await call(signal, () => {
            started = true;
            return chunks!.next();
          });
          if (next.done) break;
          const choice = next.value.choices?.[0];
          const delta = contentText(choice?.delta?.content);
          if (delta) yield { type: 'text-delta', delta };
          finishReason = mapFinishReason(choice?.finish_reason) ?? finishReason;
          usage = mapUsage(next.value.usage) ?? usage;
        }
        finished = true;
        yield { type: 'finish', finishReason: finishReason ?? 'stop', ...(usage ? { usage } : {}) };
      } finally {
        signal?.removeEventListener('abort', interrupt);
        // A consumer that stops reading early (break, an error) should not leave the GPU busy.
        if (!finished && !signal?.aborted) engine.interruptGenerate();
        // WebLLM holds the model's lock until its chunk generator runs to its end (a web-worker
        // engine only advances it when asked for the next chunk), so an abandoned stream would
        // make every later request wait forever. Once interrupted it ends within a chunk or two.
        // One never started holds nothing, and starting it would run a whole generation.
        if (!finished && chunks) void (started ? drain(chunks) : Promise.resolve(chunks.return?.()).catch(() => {}));
      }
    },
  };
}

/** Reads an interrupted generation to its end, ignoring what it yields or throws. */
async function drain(chunks: AsyncIterator<unknown>): Promise<void> {
  try {
    for (let step = 0; step < 10_000; step++) if ((await chunks.next()).done) return;
  } catch {
    // the generation failed while stopping: nothing is waiting for it
  }
}

function asProviderError(error: unknown): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError('provider_error', `WebLLM failed: ${message}`, { provider: PROVIDER, retryable: false, cause: error });
}
