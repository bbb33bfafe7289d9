import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDeltaNormalizer } from '../../src/llm/delta-normalizer.js';

const run = (pieces: string[]) => {
  const toDelta = createDeltaNormalizer();
  return pieces.map(toDelta);
};

describe('createDeltaNormalizer', () => {
  it('passes deltas through and turns cumulative text into deltas', () => {
    expect(run(['He', 'llo', '!'])).toEqual(['He', 'llo', '!']);
    expect(run(['', 'He', 'Hello', 'Hello', 'Hello!'])).toEqual(['', 'He', 'llo', '', '!']);
  });

  it('keeps repeated delta text once the stream proved to be deltas', () => {
    expect(run(['{', '"a"', '{', '{"a"'])).toEqual(['{', '"a"', '{', '{"a"']);
  });

  it('rebuilds the text from either style (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 10 }), (pieces) => {
        fc.pre(!(pieces.length > 1 && pieces[1]!.startsWith(pieces[0]!))); // the one ambiguous case
        const full = pieces.join('');
        expect(run(pieces).join('')).toBe(full);
        const cumulative = pieces.map((_, i) => pieces.slice(0, i + 1).join(''));
        expect(run(cumulative).join('')).toBe(full);
      }),
    );
  });
});
