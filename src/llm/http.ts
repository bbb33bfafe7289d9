import { PlanloopError } from '../errors.js';
import { ProviderError } from '../model-errors.js';
import { throwIfAborted, toAbortError } from '../abort.js';
import { readStream } from './read-stream.js';

/** The `fetch` signature the HTTP adapters accept (the platform's, or any compatible one). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** What {@link postJSON} sends. */
export interface PostJSONOptions {
  /** Names the adapter in error messages, e.g. `anthropic`. */
  provider: string;
  url: string;
  body: unknown;
  headers?: Record<string, string>;
  /** Default: `globalThis.fetch`, read when called. */
  fetch?: FetchLike | undefined;
  signal?: AbortSignal | undefined;
}

const EXCERPT = 500;

/**
 * POSTs JSON and returns the response when it is 2xx. Anything else becomes a
 * {@link ProviderError}: non-2xx with the status, a body excerpt (≤ 500 chars), `retryAfterMs`
 * and `retryable` (408, 429, 5xx); network failures as retryable without a status. An abort
 * throws an `AbortError` (code `aborted`).
 *
 * @example
 * ```ts
 * const response = await postJSON({ provider: 'anthropic', url: 'https://api.anthropic.com/v1/messages', body: { model: 'claude-sonnet-4-5', max_tokens: 1024, messages }, headers: { 'anthropic-version': '2023-06-01' }, signal });
 * ```
 */
export async function postJSON(options: PostJSONOptions): Promise<Response> {
  const { provider, url, signal } = options;
  throwIfAborted(signal);
  // Called as a plain function: browsers throw "Illegal invocation" when fetch runs with another `this`.
  const fetchFn: FetchLike | undefined = options.fetch ?? (globalThis.fetch as FetchLike | undefined);
  if (typeof fetchFn !== 'function') {
    throw new ProviderError('provider_unavailable', `${provider}: no fetch() is available in this environment. Pass one with the \`fetch\` option.`, {
      provider,
      retryable: false,
    });
  }
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(options.body),
      signal: signal ?? null,
    });
  } catch (error) {
    if (signal?.aborted) throw toAbortError(signal.reason);
    throw new ProviderError(
      'provider_error',
      `${provider}: the request to ${url} failed before any answer (${describe(error)}). Check the base URL, your network and CORS; retrying may help.`,
      { provider, retryable: true, cause: error },
    );
  }
  if (!response.ok) throw await httpError(provider, url, response, signal);
  return response;
}

/** Builds the ProviderError for a non-2xx response. */
async function httpError(provider: string, url: string, response: Response, signal?: AbortSignal): Promise<ProviderError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    if (signal?.aborted) throw toAbortError(signal.reason);
  }
  const { status } = response;
  const body = text.slice(0, EXCERPT);
  const retryable = status === 408 || status === 429 || status >= 500;
  const retryAfterMs = parseRetryAfter(response.headers);
  const detail = (errorMessageOf(text) ?? (body || response.statusText || 'no details')).trim();
  // Servers often end their message with a full stop already; do not add a second one.
  const message = `${provider} answered HTTP ${status} from ${url}: ${detail}${/[.!?]$/.test(detail) ? '' : '.'} ${hintFor(status)}`;
  return new ProviderError('provider_error', message, { provider, status, body, retryable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
}

function hintFor(status: number): string {
  if (status === 401 || status === 403) return 'Check the API key and its permissions.';
  if (status === 404) return 'Check the base URL and the model name.';
  if (status === 408 || status === 429) return 'The server is busy or rate-limiting you; retry later.';
  if (status >= 500) return 'The server failed; retrying may help.';
  return 'The server rejected the request; check the options and the messages sent.';
}

/**
 * Milliseconds to wait according to `retry-after-ms` (sent by OpenAI) or `Retry-After`
 * (seconds or an HTTP date); `undefined` when neither is usable.
 *
 * @example
 * ```ts
 * parseRetryAfter(new Headers({ 'retry-after': '2' })); // 2000
 * ```
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The human message inside an error body (`{ error: { message } }`, `{ error: '...' }`, `{ message }`).
 *
 * `errorMessageOf('{"error":{"message":"Invalid API key"}}')` is `'Invalid API key'`.
 */
function errorMessageOf(text: string): string | undefined {
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown };
    const inner = json.error;
    if (typeof inner === 'string') return inner;
    if (inner && typeof (inner as { message?: unknown }).message === 'string') return (inner as { message: string }).message;
    if (typeof json.message === 'string') return json.message;
  } catch {
    // not JSON: the caller shows the raw excerpt
  }
  return undefined;
}

/**
 * Reads a response body as JSON, turning an unreadable or non-JSON body into a {@link ProviderError}.
 *
 * @example
 * ```ts
 * declare const response: Response;
 * const json = await readJSON<{ choices: unknown[] }>(response, 'openai-compatible', signal);
 * ```
 */
export async function readJSON<T>(response: Response, provider: string, signal?: AbortSignal): Promise<T> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw toAbortError(signal.reason);
    throw droppedConnection(provider, error);
  }
  return parseJSONData<T>(text, provider);
}

/**
 * Parses one JSON payload from a provider (a response body or an SSE `data` field).
 *
 * @example
 * ```ts
 * declare const event: { event: string; data: string }; // one server-sent event
 * const chunk = parseJSONData<{ choices?: unknown[] }>(event.data, 'openai-compatible');
 * ```
 */
export function parseJSONData<T>(text: string, provider: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new ProviderError(
      'provider_error',
      `${provider} sent data that is not valid JSON: ${JSON.stringify(text.slice(0, 120))}. Check that the base URL points at a server speaking this API.`,
      { provider, body: text.slice(0, EXCERPT), retryable: false, cause: error },
    );
  }
}

/**
 * The error an SSE `event: error` carries: the `error` member of its JSON data when it has one,
 * else the JSON data, else the data as text (proxies send plain text there).
 *
 * @example
 * ```ts
 * declare const event: { event: string; data: string }; // one server-sent event
 * if (event.event === 'error') throw new ProviderError('provider_error', 'The stream sent an error.', { provider: 'anthropic', retryable: false, cause: errorEventData(event.data) });
 * ```
 */
export function errorEventData(data: string): unknown {
  let value: unknown = data;
  try {
    value = JSON.parse(data);
  } catch {
    return data;
  }
  const inner = typeof value === 'object' && value !== null ? (value as { error?: unknown }).error : undefined;
  return inner ?? value;
}

/**
 * The bytes of a response body, honouring `signal`; a connection dropped mid-body becomes a
 * retryable {@link ProviderError}.
 *
 * @example
 * ```ts
 * declare const response: Response;
 * for await (const bytes of responseBytes(response, 'anthropic', signal)) console.log(bytes.length); // parseSSE reads these
 * ```
 */
export async function* responseBytes(response: Response, provider: string, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  if (!response.body) {
    // Some fetch stand-ins give no stream; read the whole body instead.
    yield new TextEncoder().encode(await response.text());
    return;
  }
  try {
    yield* readStream(response.body, signal);
  } catch (error) {
    if (signal?.aborted) throw toAbortError(signal.reason);
    if (PlanloopError.isInstance(error)) throw error;
    throw droppedConnection(provider, error);
  }
}

function droppedConnection(provider: string, error: unknown): ProviderError {
  return new ProviderError('provider_error', `${provider}: the connection dropped while reading the answer (${describe(error)}). Retrying may help.`, {
    provider,
    retryable: true,
    cause: error,
  });
}

/**
 * The {@link ProviderError} for a stream that ended before the model finished.
 *
 * @example
 * ```ts
 * let finished = false; // set on the stream's `message_stop`
 * if (!finished) throw truncatedStream('anthropic');
 * ```
 */
export function truncatedStream(provider: string): ProviderError {
  return new ProviderError(
    'provider_error',
    `${provider}: the stream ended before the model finished (no end marker or finish reason). The connection was probably cut; retrying may help.`,
    { provider, retryable: true },
  );
}

/**
 * A short description of any thrown value, for error messages.
 *
 * @example
 * ```ts
 * describe(new TypeError('fetch failed')); // 'fetch failed'
 * ```
 */
export function describe(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/**
 * Joins a base URL and a path with exactly one slash.
 *
 * @example
 * ```ts
 * joinURL('http://localhost:11434/v1/', '/chat/completions'); // 'http://localhost:11434/v1/chat/completions'
 * ```
 */
export function joinURL(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
