import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayCommand, replaySeed } from './fast-check-seed.js';

/** fc.assert's error for a property that fails at once, and its seed. */
function failure(seed?: number): Error {
  try {
    fc.assert(
      fc.property(fc.integer({ min: 10 }), (n) => n < 10),
      seed === undefined ? {} : { seed },
    );
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the property to fail');
}

describe('property seeds (test/helpers/fast-check-seed.ts, loaded before every test file)', () => {
  it('a failing property says its seed and the command that replays it', () => {
    const error = failure();
    const seed = /seed: (-?\d+)/.exec(error.message)?.[1];
    expect(seed).toBeDefined();
    expect(error.message).toContain(
      `Replay it: FC_SEED=${seed} npx vitest run test/helpers/fast-check-seed.test.ts -t "a failing property says its seed and the command that replays it"`,
    );
  });

  it('the seed it prints gives the same counterexample again', () => {
    const first = failure();
    const seed = Number(/seed: (-?\d+)/.exec(first.message)?.[1]);
    const counterexample = (message: string) => /Counterexample: (.*)/.exec(message)?.[1];
    expect(counterexample(failure(seed).message)).toBe(counterexample(first.message));
  });

  it('reads FC_SEED, and refuses what is not a seed', () => {
    expect(replaySeed({})).toBeUndefined();
    expect(replaySeed({ FC_SEED: ' ' })).toBeUndefined();
    expect(replaySeed({ FC_SEED: '-1817' })).toBe(-1817);
    expect(() => replaySeed({ FC_SEED: 'abc' })).toThrow('FC_SEED must be the integer seed');
  });

  it('escapes the test name as a -t pattern', () => {
    expect(replayCommand(42, 'test/store.test.ts', 'store > keeps order (property)')).toBe(
      'FC_SEED=42 npx vitest run test/store.test.ts -t "keeps order \\\\(property\\\\)"',
    );
  });
});
