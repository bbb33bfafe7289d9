import { ProviderError } from '../model-errors.js';
import { throwIfAborted } from '../abort.js';
import { createDeltaNormalizer } from './delta-normalizer.js';
import { errorEventData, joinURL, parseJSONData, postJSON, readJSON, responseBytes, truncatedStream, type FetchLike } from './http.js';
import { jsonInstruction } from './json-instruction.js';
import type { FinishReason, LLMChunk, LLMMessage, LLMProvider, LLMRequest, LLMResult, LLMUsage } from './provider.js';
import { applyRetry, type RetryOptions } from './retry.js';
import { parseSSE } from './sse.js';

const PROVIDER = 'openai-compatible';

/** Options of {@link createOpenAICompatibleProvider}. */
export interface OpenAICompatibleOptions {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1` (Ollama). */
  baseURL: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when given. */
  apiKey?: string;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /** Default: `globalThis.fetch`, read when called. */
  fetch?: FetchLike;
  /** Used when a request sets none. Default: the server's. */
  temperature?: number;
  /** Retry 429/5xx/dropped connections: `true` for the defaults of {@link withRetry}. Default: off. */
  retry?: boolean | RetryOptions;
}

/** What this provider learned about a server that rejected a request field; remembered across calls. */
interface Quirks {
  jsonObject: boolean;
  maxCompletionTokens: boolean;
  noStreamOptions: boolean;
}

/** `usage` of a Chat Completions answer or chunk. */
export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}
/** One `choices[]` entry of a Chat Completions answer or chunk. */
export interface ChatChoice {
  /**
   * `content` is text, or (Mistral) an array of parts: see {@link contentText}. `refusal`:
   * structured-output models that decline answer here instead of in `content`.
   */
  message?: { content?: unknown; refusal?: string | null };
  delta?: { content?: unknown; refusal?: string | null };
  finish_reason?: string | null;
}
/** A Chat Completions answer or stream chunk, as far as planloop reads it. */
export interface ChatPayload {
  choices?: ChatChoice[] | null;
  usage?: ChatUsage | null;
  error?: unknown;
  object?: string;
  message?: string;
}

/**
 * A provider for any server speaking OpenAI's Chat Completions API: OpenAI, Ollama, vLLM,
 * LM Studio, llama.cpp's server. (For WebLLM's in-page engine use `createWebLLMProvider`.)
 *
 * A request's `jsonSchema` is sent as `response_format: { type: 'json_schema' }` (non-strict, so any
 * schema is accepted). Servers that refuse it (HTTP 400/422 naming `response_format`/`json_schema`)
 * are asked again once with `{ type: 'json_object' }` plus the schema in a system message, and this
 * provider keeps using that for later calls. Likewise for servers that want
 * `max_completion_tokens` instead of `max_tokens`, or reject `stream_options`.
 * Streams handle deltas and also hosts that resend the whole text so far in each chunk. A `refusal`
 * answer or a `content_filter` finish finishes with `refusal` (words: the `refusal` text).
 * Defaults: no API key, the server's temperature, no retries.
 *
 * @example
 * ```ts
 * declare const apiKey: string; // from your server, never shipped in the page
 * const llm = createOpenAICompatibleProvider({ baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey });
 * const { text } = await llm.generate({ messages: [{ role: 'user', content: 'Say hi' }] });
 * ```
 */
export function createOpenAICompatibleProvider(options: OpenAICompatibleOptions): LLMProvider {
  const url = joinURL(options.baseURL, 'chat/completions');
  const quirks: Quirks = { jsonObject: false, maxCompletionTokens: false, noStreamOptions: false };

  function buildBody(request: LLMRequest, stream: boolean): Record<string, unknown> {
    const body: Record<string, unknown> = { model: options.model, messages: request.messages };
    const temperature = request.temperature ?? options.temperature;
    if (temperature !== undefined) body.temperature = temperature;
    if (request.maxTokens !== undefined) body[quirks.maxCompletionTokens ? 'max_completion_tokens' : 'max_tokens'] = request.maxTokens;
    if (request.jsonSchema) {
      if (quirks.jsonObject) {
        // json_object only guarantees JSON; the schema travels as an instruction instead.
        const hint: LLMMessage = { role: 'system', content: jsonInstruction(request.jsonSchema) };
        body.messages = [...request.messages, hint];
        body.response_format = { type: 'json_object' };
      } else {
        body.response_format = { type: 'json_schema', json_schema: { name: 'response', schema: request.jsonSchema, strict: false } };
      }
    }
    if (stream) {
      body.stream = true;
      if (!quirks.noStreamOptions) body.stream_options = { include_usage: true };
    }
    return body;
  }

  /**
   * Notes a field this server refused; true when asking again can help. Judged by the body that
   * was sent, not by what is known now: a call made at the same time may have learnt it already.
   */
  function learn(error: unknown, body: Record<string, unknown>): boolean {
    if (!ProviderError.isInstance(error) || (error.status !== 400 && error.status !== 422)) return false;
    const text = error.body ?? '';
    const format = (body.response_format as { type?: unknown } | undefined)?.type;
    if (format === 'json_schema' && /response_format|json_schema/i.test(text)) return (quirks.jsonObject = true);
    if ('max_tokens' in body && /max_completion_tokens/.test(text)) return (quirks.maxCompletionTokens = true);
    if (body.stream_options && /stream_options/.test(text)) return (quirks.noStreamOptions = true);
    return false;
  }

  async function send(request: LLMRequest, stream: boolean): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    if (stream) headers.accept = 'text/event-stream';
    for (let attempt = 0; ; attempt++) {
      const body = buildBody(request, stream);
      try {
        return await postJSON({ provider: PROVIDER, url, body, headers, fetch: options.fetch, signal: request.signal });
      } catch (error) {
        if (attempt < 3 && learn(error, body)) continue;
        throw error;
      }
    }
  }

  const provider: LLMProvider = {
    async generate(request) {
      throwIfAborted(request.signal);
      const response = await send(request, false);
      const json = payload(await readJSON<unknown>(response, PROVIDER, request.signal));
      throwIfPayloadError(json);
      const choice = json.choices?.[0];
      if (!choice) throw new ProviderError('provider_error', `${PROVIDER} answered without any choice from ${url}.`, { provider: PROVIDER, retryable: false });
      const result: LLMResult = { text: contentText(choice.message?.content) };
      const refusal = choice.message?.refusal;
      const finishReason = typeof refusal === 'string' && refusal.trim() !== '' ? 'refusal' : mapFinishReason(choice.finish_reason);
      if (finishReason) result.finishReason = finishReason;
      if (finishReason === 'refusal' && typeof refusal === 'string' && refusal.trim() !== '') result.refusal = refusal;
      const usage = mapUsage(json.usage);
      if (usage) result.usage = usage;
      return result;
    },

    async *stream(request): AsyncIterable<LLMChunk> {
      throwIfAborted(request.signal);
      const response = await send(request, true);
      const toDelta = createDeltaNormalizer();
      let finishReason: FinishReason | undefined;
      let usage: LLMUsage | undefined;
      let done = false;
      let refusal = '';
      for await (const event of parseSSE(responseBytes(response, PROVIDER, request.signal))) {
        // A named error event (openai-node reads it so): its data is the error itself, JSON or text.
        if (event.event === 'error') throw reportedError(errorEventData(event.data));
        if (event.data.trim() === '[DONE]') {
          done = true;
          break;
        }
        const chunk = payload(parseJSONData<unknown>(event.data, PROVIDER));
        throwIfPayloadError(chunk);
        const choice = chunk.choices?.[0];
        const content = contentText(choice?.delta?.content);
        if (content) {
          const delta = toDelta(content);
          if (delta) yield { type: 'text-delta', delta };
        }
        if (typeof choice?.delta?.refusal === 'string') refusal += choice.delta.refusal;
        finishReason = mapFinishReason(choice?.finish_reason) ?? finishReason;
        usage = mapUsage(chunk.usage) ?? usage;
      }
      if (!done && !finishReason) throw truncatedStream(PROVIDER);
      // A `refusal` answer (structured outputs) is the model declining, whatever finish_reason says.
      if (refusal.trim() !== '') yield { type: 'finish', finishReason: 'refusal', refusal, ...(usage ? { usage } : {}) };
      else yield { type: 'finish', finishReason: finishReason ?? 'stop', ...(usage ? { usage } : {}) };
    },
  };
  return applyRetry(provider, options.retry);
}

/**
 * The text of a message's or a delta's `content`: a string as is; an array of parts (Mistral's
 * magistral models stream `[{ type: 'thinking', … }, { type: 'text', text }]`) gives its text
 * parts joined, leaving out the thinking; anything else gives `''`.
 *
 * @example
 * ```ts
 * contentText([{ type: 'thinking', thinking: [] }, { type: 'text', text: '4' }]); // '4'
 * ```
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { type?: unknown; text?: unknown } | null) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
}

/** A parsed body or chunk as a {@link ChatPayload}: anything but an object is a server speaking another API. */
function payload(value: unknown): ChatPayload {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as ChatPayload;
  throw new ProviderError(
    'provider_error',
    `${PROVIDER} sent ${JSON.stringify(value)?.slice(0, 120)} where a Chat Completions object belongs. Check that the base URL points at a server speaking this API.`,
    { provider: PROVIDER, body: String(JSON.stringify(value)).slice(0, 500), retryable: false },
  );
}

/** Error objects some servers put in a 200 body or in a stream event. */
function throwIfPayloadError(payload: ChatPayload): void {
  const error = payload.error ?? (payload.object === 'error' ? payload : undefined);
  if (error !== undefined && error !== null) throw reportedError(error);
}

/** The {@link ProviderError} for an error a server reported (an object with a message, or text): server-side kinds are worth retrying. */
function reportedError(error: unknown): ProviderError {
  const info = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as { message?: unknown; type?: unknown; code?: unknown };
  const message = typeof info.message === 'string' ? info.message : JSON.stringify(error);
  const kind = `${String(info.type ?? '')} ${String(info.code ?? '')}`;
  const retryable = /overload|rate.?limit|server_error|timeout|unavailable|\b(429|5\d\d)\b/i.test(kind);
  return new ProviderError('provider_error', `${PROVIDER} reported an error: ${message}`, {
    provider: PROVIDER,
    body: JSON.stringify(error).slice(0, 500),
    retryable,
  });
}

/** Chat Completions' `finish_reason` as a {@link FinishReason}. */
export function mapFinishReason(reason: string | null | undefined): FinishReason | undefined {
  if (!reason) return undefined;
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  if (reason === 'content_filter') return 'refusal'; // the provider's filter withheld the answer
  return 'other'; // tool_calls, function_call, and anything a host invents
}

/** Chat Completions' `usage` as {@link LLMUsage}. */
export function mapUsage(usage: ChatUsage | null | undefined): LLMUsage | undefined {
  if (!usage) return undefined;
  const out: LLMUsage = {};
  if (typeof usage.prompt_tokens === 'number') out.inputTokens = usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number') out.outputTokens = usage.completion_tokens;
  return out;
}
