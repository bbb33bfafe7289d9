import fc from 'fast-check';
import { jsonrepair } from 'jsonrepair';
import { describe, expect, it } from 'vitest';
import { parseModelJson } from '../../src/llm/model-json.js';
import { repairJson } from '../../src/llm/repair-json.js';
import { BROKEN_REPLIES, CUT_REPLIES } from '../fixtures/broken-json.js';

// repairJson replaced jsonrepair (issue 25: 2.8 KB gzipped that a page loaded at start, and a
// repair worse than quadratic in the length). jsonrepair stays a devDependency to compare with:
// on every reply of the corpus both give the same value or both refuse, except the differences
// listed below, each for a reason. The corpus holds the families of jsonrepair's own tests that
// models write (typographic quotes, Unicode spaces, full-width punctuation, escaped replies,
// comments after strings, unquoted URLs and times, …).

/** The parsed repair, or 'refused' when the repair throws or its output is no JSON. */
function outcome(repair: (text: string) => string, text: string): unknown {
  try {
    return JSON.parse(repair(text)) as unknown;
  } catch {
    return 'refused';
  }
}

/** Where ours and jsonrepair part, what ours gives, and why that is the better (or a fair) answer. */
const DIFFERENCES: Record<string, { ours: unknown; why: string }> = {
  'an apostrophe in a single-quoted string': {
    ours: { todo: 't1', actions: [{ type: 'narrate', text: "Here is the user's plan" }] },
    why: 'jsonrepair turns the apostrophe into a double quote ("the user\\"s plan")',
  },
  'doubled commas': {
    ours: { todo: 't2', actions: [{ type: 'narrate', text: 'Hi' }, { type: 'task_finish', summary: 'Done' }] },
    why: 'jsonrepair refuses `,,` in an object',
  },
  'a code fence after the object': {
    ours: { todo: 't2', actions: [] },
    why: 'jsonrepair reads the fence of a cut-off reply as a key (`"\\"": null`)',
  },
  'a string missing its closing quote mid-object': {
    ours: 'refused',
    why: 'jsonrepair backtracks to the last comma of the string (the search that makes it super-linear); refused, the model is asked again',
  },
  'a missing colon': {
    ours: 'refused',
    why: 'guessing a colon turned prose after an unescaped quote into keys; models leave out commas, not colons',
  },
  'typographic quotes inside typographic quotes': {
    ours: { text: 'The “Pro” plan', todo: 't2' },
    why: 'a quote that does not end the string is kept as written; jsonrepair writes it as `"` (as it does with the apostrophe above)',
  },
  'a line separator between tokens': {
    ours: { todo: 't2', actions: [] },
    why: 'U+2028 between tokens is whitespace to JavaScript (`\s`); jsonrepair refuses it',
  },
  'strings joined with a plus': {
    ours: { text: 'Pro costs " + "12 EUR" +\n  " a month', todo: 't2' },
    why: 'ours keeps the `+` and its quotes as text rather than join the strings; JavaScript string arithmetic is rare in model JSON, and every form read costs bytes at start (the core has a 15 KB budget)',
  },
  'a function call around a value': {
    ours: 'refused',
    why: 'MongoDB\'s `NumberLong(…)` and JSONP wrappers inside an object are not what models write; refused (the model is asked again), for the bytes as above',
  },
  'a number with no digit before the point': {
    ours: { score: '.5', delta: '-.25' },
    why: 'ours reads `.5` as a word (a string), as it reads `12px`; for the bytes as above',
  },
  'escaped quotes throughout': {
    ours: 'refused',
    why: 'parseModelJson unescapes a span that opens with `\\"` before it repairs it (test/llm/model-json.test.ts); the repair itself does not guess at escapes',
  },
  'a missing opening quote': {
    ours: 'refused',
    why: 'jsonrepair reads the word before a lone quote as a string; ours refuses rather than guess where a string began (the model is asked again)',
  },
  'a quote before a digit inside a string': {
    ours: { text: 'Press "1" to confirm', todo: 't2' },
    why: 'jsonrepair ends the string at a quote before a digit and makes the rest a key (`"1": "to confirm"`); ours keeps the quote, as it does before a letter',
  },
  'an object missing its closer before the next': {
    ours: 'refused',
    why: 'jsonrepair closes the object when a key should come and `{` does; ours refuses (the model is asked again)',
  },
  'a cut-off string ending in a bracket': {
    ours: { todo: 't2', actions: [{ type: 'narrate', text: 'See [1]' }] },
    why: 'jsonrepair backtracks a cut-off string to its first bracket and reads the rest as JSON (`"See", [1]`); ours does not backtrack (see the missing closing quote above)',
  },
};

describe('repairJson against jsonrepair', () => {
  it.each(BROKEN_REPLIES.filter(([name]) => !(name in DIFFERENCES)))('%s: the same value (or both refuse)', (_name, text) => {
    expect(outcome(repairJson, text)).toEqual(outcome(jsonrepair, text));
  });

  it.each(Object.entries(DIFFERENCES))('%s: ours differs, for a reason', (name, { ours }) => {
    const text = BROKEN_REPLIES.find(([entry]) => entry === name)?.[1] as string;
    expect(outcome(repairJson, text)).toEqual(ours);
    expect(outcome(jsonrepair, text)).not.toEqual(ours);
  });

  it('every cut of a reply (a model stopped by its token limit): the same value', () => {
    let cuts = 0;
    for (const reply of CUT_REPLIES) {
      for (let end = 1; end <= reply.length; end++) {
        const text = reply.slice(0, end);
        expect(outcome(repairJson, text), text).toEqual(outcome(jsonrepair, text));
        cuts++;
      }
    }
    expect(cuts).toBeGreaterThan(500);
  });
});

describe('repairJson', () => {
  it('repairs what models write', () => {
    expect(repairJson("{'a': True, b: [1, 2,], // note\n")).toBe('{"a":true,"b":[1,2]}');
    expect(repairJson('{"todos": [{"description": "Open pri')).toBe('{"todos":[{"description":"Open pri"}]}');
    expect(repairJson('{"text": "Click "Save" now", "n": -')).toBe('{"text":"Click \\"Save\\" now","n":-0}');
    expect(repairJson('[{"a": 1}}')).toBe('[{"a":1}]');
    expect(repairJson('{"a": "line\nbreak\ttab"}')).toBe('{"a":"line\\nbreak\\ttab"}');
  });

  it('says where it cannot go on', () => {
    expect(() => repairJson('{"a": 1} and more')).toThrow('unexpected "a" at position 9');
    expect(() => repairJson('{"a" "b"}')).toThrow('unexpected "\\"" at position 5');
    expect(() => repairJson('   ')).toThrow('unexpected "end" at position 3');
  });

  it('reads valid JSON as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(JSON.parse(repairJson(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes JSON or throws a SyntaxError, whatever the text', () => {
    const piece = fc.constantFrom('{', '}', '[', ']', '"', "'", ':', ',', ' ', '\n', '\\', '/', '*', '//', '/*', '*/', '...', '```', 'a', 'True', 'None', '-', '1', 'e', '.', '\\u00', '\u00a0');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''))), (text) => {
        let repaired: string;
        try {
          repaired = repairJson(text);
        } catch (error) {
          expect(error).toBeInstanceOf(SyntaxError);
          return;
        }
        expect(() => JSON.parse(repaired)).not.toThrow();
      }),
      { numRuns: 5_000 },
    );
  });
});

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
