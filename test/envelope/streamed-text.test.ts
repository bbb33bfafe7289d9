import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStreamedText } from '../../src/envelope/streamed-text.js';

/** The body of `value` as JSON writes it (between the quotes), fed in `cuts`, with what came out after each feed. */
function feed(body: string, cuts: number[], max?: number): { pieces: string[]; text: string } {
  const stream = createStreamedText(max);
  const pieces: string[] = [];
  let last = 0;
  for (const cut of [...cuts, body.length]) {
    for (const char of body.slice(last, cut)) stream.push(char);
    last = cut;
    pieces.push(stream.take());
  }
  return { pieces, text: pieces.join('') };
}

describe('createStreamedText', () => {
  it('decodes escapes split across pushes, and never hands out half a character', () => {
    const body = JSON.stringify('Café "quoted" \\ 🎉 done').slice(1, -1).replace('é', '\\u00e9').replace('🎉', '\\ud83c\\udf89');
    const cutInEscape = body.indexOf('\\u00e9') + 3;
    const cutInPair = body.indexOf('\\udf89') + 1;
    const { pieces, text } = feed(body, [cutInEscape, cutInPair]);
    expect(text).toBe('Café "quoted" \\ 🎉 done');
    for (const piece of pieces) expect(piece.length === 0 || !/[\ud800-\udbff]$/.test(piece)).toBe(true);
  });

  it('hands out the trimmed text: leading blanks dropped, trailing ones held until more comes', () => {
    const { pieces } = feed('  Hello \\n world  ', [2, 8, 16]);
    expect(pieces).toEqual(['', 'Hello', ' \\n world'.replace('\\n', '\n'), '']);
  });

  it('stops at max characters', () => {
    expect(feed('abcdefgh', [3], 5).text).toBe('abcde');
  });

  it('gives what JSON.parse gives, trimmed, whatever the cuts (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 40 }),
          fc.string({ unit: 'binary-ascii', maxLength: 40 }),
          fc.constantFrom(' \t\n a \u2028', 'x\\"\'/'),
        ),
        fc.array(fc.nat(), { maxLength: 8 }),
        (value, rawCuts) => {
          const body = JSON.stringify(value).slice(1, -1);
          const cuts = [...new Set(rawCuts.map((cut) => cut % (body.length + 1)))].sort((a, b) => a - b);
          expect(feed(body, cuts).text).toBe(value.trim());
        },
      ),
      { numRuns: 500 },
    );
  });
});
