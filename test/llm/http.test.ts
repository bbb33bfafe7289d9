import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.js';
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
