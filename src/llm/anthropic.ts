import { ProviderError } from '../model-errors.js';
import { throwIfAborted } from '../abort.js';
import { errorEventData, joinURL, parseJSONData, postJSON, readJSON, responseBytes, truncatedStream, type FetchLike } from './http.js';
import { jsonInstruction } from './json-instruction.js';
import type { FinishReason, LLMChunk, LLMProvider, LLMRequest, LLMResult, LLMUsage } from './provider.js';
import { applyRetry, type RetryOptions } from './retry.js';
import { parseSSE } from './sse.js';

const PROVIDER = 'anthropic';

/** Options of {@link createAnthropicProvider}. */
export interface AnthropicOptions {
  apiKey: string;
  /** e.g. `claude-sonnet-4-5`. */
  model: string;
  /** `max_tokens`, which the Messages API requires; a request's `maxTokens` overrides it. */
  maxTokens: number;
  /** Default `https://api.anthropic.com` (the adapter appends `/v1/messages`). */
  baseURL?: string;
  /** Default: `globalThis.fetch`, read when called. */
  fetch?: FetchLike;
  /** Extra headers for every request (e.g. `anthropic-beta`). */
  headers?: Record<string, string>;
  /** Used when a request sets none. Default: the API's. */
  temperature?: number;
  /** Retry 429/5xx/overloaded/dropped connections: `true` for the defaults of {@link withRetry}. Default: off. */
  retry?: boolean | RetryOptions;
}

interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
}
interface AnthropicEvent {
  type?: string;
  message?: { id?: unknown; usage?: AnthropicUsage };
  delta?: { type?: string; text?: string; stop_reason?: string | null; stop_details?: { explanation?: unknown } | null };
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}
interface AnthropicMessage {
  type?: string;
  content?: unknown;
  stop_reason?: string | null;
  stop_details?: { explanation?: unknown } | null;
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}

/**
 * A provider for Anthropic's Messages API, callable from the browser (it sends the
 * `anthropic-dangerous-direct-browser-access` header; only use a key you may expose, or a proxy).
 *
 * System messages go to the top-level `system` field and consecutive messages of one role are
 * merged, as the API wants. The basic API has no JSON mode, so a request's `jsonSchema` becomes an
 * instruction appended to the system prompt (no assistant prefill is used). A `stop_reason:
 * "refusal"` finishes with `refusal` (words: `stop_details.explanation`). A `message_start` repeated
 * with the open message's id is ignored (as the Vercel AI SDK does); one with another id inside an
 * open message is a broken stream (a retryable `ProviderError`).
 * Defaults: `baseURL` `https://api.anthropic.com`, the API's temperature, no retries.
 *
 * @example
 * ```ts
 * declare const apiKey: string; // from your server, never shipped in the page
 * const llm = createAnthropicProvider({ apiKey, model: 'claude-sonnet-4-5', maxTokens: 2048 });
 * for await (const chunk of llm.stream!({ messages })) if (chunk.type === 'text-delta') console.log(chunk.delta);
 * ```
 */
export function createAnthropicProvider(options: AnthropicOptions): LLMProvider {
  const url = joinURL(options.baseURL ?? 'https://api.anthropic.com', 'v1/messages');

  function send(request: LLMRequest, stream: boolean): Promise<Response> {
    const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
    if (request.jsonSchema) system.push(jsonInstruction(request.jsonSchema));
    const messages: Array<{ role: 'user' | 'assistant'; content: string }> = [];
    for (const { role, content } of request.messages) {
      if (role === 'system') continue;
      const last = messages.at(-1);
      if (last?.role === role) last.content += `\n\n${content}`;
      else messages.push({ role, content });
    }
    const body: Record<string, unknown> = {
      model: options.model,
      max_tokens: request.maxTokens ?? options.maxTokens,
      messages,
    };
    if (system.length > 0) body.system = system.join('\n\n');
    const temperature = request.temperature ?? options.temperature;
    if (temperature !== undefined) body.temperature = temperature;
    if (stream) body.stream = true;
    const headers: Record<string, string> = {
      'x-api-key': options.apiKey,
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
      ...options.headers,
    };
    if (stream) headers.accept = 'text/event-stream';
    return postJSON({ provider: PROVIDER, url, body, headers, fetch: options.fetch, signal: request.signal });
  }

  const provider: LLMProvider = {
    async generate(request) {
      throwIfAborted(request.signal);
      const response = await send(request, false);
      const json = payload<AnthropicMessage>(await readJSON<unknown>(response, PROVIDER, request.signal));
      if (json.type === 'error' || json.error) throw eventError(json.error);
      const blocks: unknown[] = Array.isArray(json.content) ? json.content : [];
      const text = blocks.map((block) => textOf(block as { type?: unknown; text?: unknown } | null)).join('');
      const result: LLMResult = { text };
      const finishReason = mapStopReason(json.stop_reason);
      if (finishReason) result.finishReason = finishReason;
      const why = explanation(json.stop_details);
      if (finishReason === 'refusal' && why !== undefined) result.refusal = why;
      const usage = mergeUsage(undefined, json.usage);
      if (usage) result.usage = usage;
      return result;
    },

    async *stream(request): AsyncIterable<LLMChunk> {
      throwIfAborted(request.signal);
      const response = await send(request, true);
      let finishReason: FinishReason | undefined;
      let usage: LLMUsage | undefined;
      let stopped = false;
      let messageId: unknown; // the open message's id, once message_start came
      let started = false;
      let refusal: string | undefined;
      for await (const sse of parseSSE(responseBytes(response, PROVIDER, request.signal))) {
        if (sse.event === 'error') throw eventError(errorEventData(sse.data));
        const event = payload<AnthropicEvent>(parseJSONData<unknown>(sse.data, PROVIDER));
        switch (event.type ?? sse.event) {
          case 'message_start':
            // One stream carries one message: another message's start inside it is a broken stream
            // (a proxy spliced two), and joining both messages' text would make one wrong answer. The
            // same message's start sent twice (a proxy's replay) changes nothing and is ignored, as the
            // Vercel AI SDK ignores it (its fixture duplicate-message-start).
            if (started) {
              if (typeof messageId === 'string' && event.message?.id === messageId) break;
              throw splicedStream();
            }
            started = true;
            messageId = event.message?.id;
            usage = mergeUsage(usage, event.message?.usage);
            break;
          case 'content_block_delta': {
            const text = event.delta?.type === 'text_delta' ? textOf({ type: 'text', text: event.delta.text }) : '';
            if (text) yield { type: 'text-delta', delta: text };
            break;
          }
          case 'message_delta':
            finishReason = mapStopReason(event.delta?.stop_reason) ?? finishReason;
            if (event.delta?.stop_reason === 'refusal') refusal = explanation(event.delta.stop_details);
            usage = mergeUsage(usage, event.usage);
            break;
          case 'error':
            throw eventError(event.error);
          case 'message_stop':
            stopped = true;
            break;
          default: // ping, content_block_start/stop, and event types added later
        }
        if (stopped) break;
      }
      if (!stopped && !finishReason) throw truncatedStream(PROVIDER);
      yield { type: 'finish', finishReason: finishReason ?? 'stop', ...(refusal !== undefined ? { refusal } : {}), ...(usage ? { usage } : {}) };
    },
  };
  return applyRetry(provider, options.retry);
}

/** The text of a content block: a text block's `text`, and `''` for any other block. */
function textOf(block: { type?: unknown; text?: unknown } | null): string {
  return block?.type === 'text' && typeof block.text === 'string' ? block.text : '';
}

/** A parsed body or event as an object: anything else is a server speaking another API. */
function payload<T>(value: unknown): T {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as T;
  throw new ProviderError(
    'provider_error',
    `${PROVIDER} sent ${String(JSON.stringify(value)).slice(0, 120)} where a Messages API object belongs. Check the base URL.`,
    { provider: PROVIDER, body: String(JSON.stringify(value)).slice(0, 500), retryable: false },
  );
}

/** The API's words for a refusal (`stop_details.explanation`), when it gave them. */
function explanation(details: { explanation?: unknown } | null | undefined): string | undefined {
  return typeof details?.explanation === 'string' && details.explanation.trim() !== '' ? details.explanation : undefined;
}

/** Another message's `message_start` inside an open one: the stream is broken (a proxy spliced two), asking again can help. */
function splicedStream(): ProviderError {
  return new ProviderError(
    'provider_error',
    `${PROVIDER} sent a second message_start, for another message, before the first message stopped: the stream is broken and its text was dropped. Retrying may help.`,
    { provider: PROVIDER, retryable: true },
  );
}

/** An `error` event (or error body, or the text of one): overloaded and server errors are worth retrying. */
function eventError(error: unknown): ProviderError {
  const info = (typeof error === 'object' && error !== null ? error : { message: error }) as { type?: unknown; message?: unknown };
  const type = typeof info.type === 'string' ? info.type : 'unknown_error';
  const message = typeof info.message === 'string' && info.message ? info.message : 'no message';
  const retryable = ['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error'].includes(type);
  return new ProviderError('provider_error', `${PROVIDER} reported ${type}: ${message}${retryable ? '. Retrying may help.' : ''}`, {
    provider: PROVIDER,
    body: String(JSON.stringify(error ?? null)).slice(0, 500),
    retryable,
  });
}

function mapStopReason(reason: string | null | undefined): FinishReason | undefined {
  if (!reason) return undefined;
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop';
  if (reason === 'max_tokens') return 'length';
  if (reason === 'refusal') return 'refusal';
  return 'other'; // tool_use, pause_turn
}

/** message_start carries the input count; message_delta the running output count. */
function mergeUsage(usage: LLMUsage | undefined, next: AnthropicUsage | undefined): LLMUsage | undefined {
  if (!next) return usage;
  const out: LLMUsage = { ...usage };
  if (typeof next.input_tokens === 'number') out.inputTokens = next.input_tokens;
  if (typeof next.output_tokens === 'number') out.outputTokens = next.output_tokens;
  return out;
}
