import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSSE, type SSEEvent } from '../../src/llm/sse.js';

async function parse(pieces: Array<string | Uint8Array>): Promise<SSEEvent[]> {
  async function* source(): AsyncGenerator<Uint8Array> {
    for (const piece of pieces) yield typeof piece === 'string' ? new TextEncoder().encode(piece) : piece;
  }
  const events: SSEEvent[] = [];
  for await (const event of parseSSE(source())) events.push(event);
  return events;
}

describe('parseSSE', () => {
  it('reads named events, default names, ids, comments and multi-line data', async () => {
    const body = ': hello\n\nevent: ping\ndata: {}\n\ndata: line 1\ndata:line 2\nid: 7\n\ndata\n\nretry: 10\nunknown: x\n\n';
    expect(await parse([body])).toEqual([
      { event: 'ping', data: '{}' },
      { event: 'message', data: 'line 1\nline 2', id: '7' },
      { event: 'message', data: '', id: '7' },
    ]);
  });

  it('accepts CRLF, CR and LF line endings, also mixed', async () => {
    expect(await parse(['data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\n\n'])).toEqual(['a', 'b', 'c', 'd'].map((data) => ({ event: 'message', data })));
  });

  it('dispatches a final event missing its blank line, but drops an unterminated line', async () => {
    expect(await parse(['data: one\n\ndata: two\n'])).toEqual([
      { event: 'message', data: 'one' },
      { event: 'message', data: 'two' },
    ]);
    expect(await parse(['data: one\n\ndata: {"cut'])).toEqual([{ event: 'message', data: 'one' }]);
  });

  it('strips a leading byte order mark', async () => {
    expect(await parse([new Uint8Array([0xef, 0xbb, 0xbf]), 'data: x\n\n'])).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('gives the same events however the bytes are split (property)', async () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'é', '🚀', ' ', ':', '{', '"', '中'), maxLength: 12 });
    const event = fc.record({
      name: fc.option(fc.constantFrom('ping', 'message_start', 'content_block_delta'), { nil: undefined }),
      lines: fc.array(text, { minLength: 1, maxLength: 3 }),
      comment: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (events, eol, rawCuts) => {
          const body = events
            .map(
              ({ name, lines, comment }) =>
                [...(comment ? [': keep-alive'] : []), ...(name ? [`event: ${name}`] : []), ...lines.map((l) => `data: ${l}`), ''].join(eol) + eol,
            )
            .join('');
          const bytes = new TextEncoder().encode(body);
          const cuts = [...new Set(rawCuts.map((n) => n % bytes.length))].filter((n) => n > 0).sort((a, b) => a - b);
          const pieces = [...cuts, bytes.length].map((cut, i) => bytes.slice(cuts[i - 1] ?? 0, cut));
          const expected = events.map(({ name, lines }) => ({ event: name ?? 'message', data: lines.join('\n') }));
          expect(await parse(pieces)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
