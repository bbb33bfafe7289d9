import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/model-errors.js';
import { parseRetryAfter, postJSON } from '../../src/llm/http.js';

describe('parseRetryAfter', () => {
  it('reads seconds, HTTP dates and retry-after-ms', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter(new Headers({ 'retry-after': '120' }), now)).toBe(120_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }), now)).toBe(30_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 21 Oct 2015 07:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '1' }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
  });
});

describe('postJSON', () => {
  it('says how to fix a missing fetch', async () => {
    const noFetch = await postJSON({ provider: 'p', url: 'http://x', body: {}, fetch: 'not a function' as never }).catch((x: unknown) => x);
    expect(noFetch).toBeInstanceOf(ProviderError);
    expect((noFetch as ProviderError).code).toBe('provider_unavailable');
  });
});

describe('postJSON error messages', () => {
  const answering = (status: number, body: string) =>
    (async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })) as unknown as typeof fetch;

  it('names the status, the server message and a hint, with one full stop between them', async () => {
    const error = await postJSON({
      provider: 'openai-compatible',
      url: 'https://example.com/v1/chat/completions',
      body: {},
      headers: {},
      fetch: answering(401, JSON.stringify({ error: { message: 'Incorrect API key provided: sk-***.' } })),
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe(
      'openai-compatible answered HTTP 401 from https://example.com/v1/chat/completions: Incorrect API key provided: sk-***. Check the API key and its permissions.',
    );
    const plain = await postJSON({ provider: 'p', url: 'u', body: {}, headers: {}, fetch: answering(404, 'not here') }).catch((caught: unknown) => caught);
    expect((plain as Error).message).toBe('p answered HTTP 404 from u: not here. Check the base URL and the model name.');
  });
});
