import { describe, expect, it } from 'vitest';
import { parseModelJson } from '../../src/llm/model-json.js';
import { repairJson } from '../../src/llm/repair-json.js';

// The repair's cost against the length of its input, measured as a ratio of two sizes in one
// run. Apart from repair-json.test.ts so that \`npm run test:stress\`, which runs every test file
// that uses fast-check many times with fresh seeds on a loaded machine, does not run timings.

/** One run of `repair(text)`, in ms (a throw ends the run too: refusing is an answer). */
function timed(repair: (text: string) => unknown, text: string): number {
  const started = performance.now();
  try {
    repair(text);
  } catch {
    // refused
  }
  return performance.now() - started;
}

/**
 * How much longer `repair` takes on an input 16× as long: 16 when linear, 256 when quadratic.
 * The fastest of seven runs of each, interleaved, so a pause of the machine or the collector
 * lands on one run and not on one size. (On a machine shared by six jobs a linear repair measured
 * 10× to 50×: the cost per character varies with cache and collector, not with the algorithm.)
 */
function growth(repair: (text: string) => unknown, make: (length: number) => string, length: number): number {
  const small = make(length);
  const large = make(length * 16);
  timed(repair, small); // warm up
  let fastSmall = Infinity;
  let fastLarge = Infinity;
  for (let run = 0; run < 7; run++) {
    fastLarge = Math.min(fastLarge, timed(repair, large));
    fastSmall = Math.min(fastSmall, timed(repair, small));
  }
  return fastLarge / Math.max(fastSmall, 0.01);
}

// Inputs that make a naive repair super-linear: jsonrepair's stray quotes, deep nesting, closers
// that skip levels or have no opener, a look-ahead at every quote, escapes, comments, commas.
const PATHOLOGICAL: Record<string, (length: number) => string> = {
  'an unterminated string full of quotes': (length) => `{"${'a"'.repeat(length / 2)}`,
  'deep nesting, cut off': (length) => '['.repeat(length),
  'deep objects, cut off': (length) => '{"a":'.repeat(length / 5),
  'closers with no opener': (length) => `${'['.repeat(length / 2)}${'}'.repeat(length / 2)}`,
  'closers that skip levels': (length) => `${'{"a":['.repeat(length / 7)}${'}'.repeat(length / 7)}`,
  'a quote before every space': (length) => `{"a": "${'x" '.repeat(length / 3)}`,
  'quotes doubled and commas missing': (length) => `["${'x""'.repeat(length / 3)}`,
  'quotes before long gaps': (length) => `{"a": "${`x"${' '.repeat(30)}`.repeat(length / 32)}`,
  'bad unicode escapes': (length) => `{"a": "${'\\u12'.repeat(length / 4)}"}`,
  'an unterminated block comment': (length) => `{"a": 1, /*${'*'.repeat(length)}`,
  'many line comments': (length) => `{"a": 1, ${'// x\n'.repeat(length / 5)}}`,
  'doubled commas': (length) => `[${','.repeat(length)}1]`,
  'missing commas': (length) => `[${'1 '.repeat(length / 2)}]`,
  'a long unquoted value': (length) => `{"a": ${'x '.repeat(length / 2)}`,
  'unquoted keys, commas missing': (length) => `{${'a:1 '.repeat(length / 4)}`,
  'typographic quotes before every space': (length) => `{“a”: “${'x” '.repeat(length / 3)}`,
  'quotes of every kind, unclosed': (length) => `{“a”: “${'x"‘’`´＂\''.repeat(length / 8)}`,
  'strings joined with plus, cut off': (length) => `{"a": ${'"x" + '.repeat(length / 6)}`,
  'a plus after every quote and no string': (length) => `{"a": "${'x" + y '.repeat(length / 8)}`,
  'quotes before line breaks': (length) => `["${'x"\n'.repeat(length / 3)}`,
  'nested function calls': (length) => `{"a": ${'f('.repeat(length / 2)}1`,
};

describe('repairJson stays linear (a ratio of two sizes in one run, not a speed test)', () => {
  it.each(Object.entries(PATHOLOGICAL))('%s', (_name, make) => {
    // 4 KB against 64 KB (the most parseModelJson repairs): 16× when linear, 256× when quadratic.
    // jsonrepair measured 244× to 517× on the first input (1 KB against 16 KB, alone on the machine).
    expect(growth(repairJson, make, 4_000)).toBeLessThan(160);
  });

  it('parseModelJson repairs a 60 KB reply full of unescaped quotes', () => {
    const text = `{"a": "${'say "hi" '.repeat(7_000)}"}`;
    expect(parseModelJson(text)).toMatchObject({ ok: true, repaired: true, value: { a: 'say "hi" '.repeat(7_000) } });
  });
});
