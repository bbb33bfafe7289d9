import fc from 'fast-check';
import { jsonrepair } from 'jsonrepair';
import { describe, expect, it } from 'vitest';
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
    ours: {
      todo: 't2',
      actions: [
        { type: 'narrate', text: 'Hi' },
        { type: 'task_finish', summary: 'Done' },
      ],
    },
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
    why: 'U+2028 between tokens is whitespace to JavaScript (`s`); jsonrepair refuses it',
  },
  'strings joined with a plus': {
    ours: { text: 'Pro costs " + "12 EUR" +\n  " a month', todo: 't2' },
    why: 'ours keeps the `+` and its quotes as text rather than join the strings; JavaScript string arithmetic is rare in model JSON, and every form read costs bytes at start (the core has a 15 KB budget)',
  },
  'a function call around a value': {
    ours: 'refused',
    why: "MongoDB's `NumberLong(…)` and JSONP wrappers inside an object are not what models write; refused (the model is asked again), for the bytes as above",
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
    const piece = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      '"',
      "'",
      ':',
      ',',
      ' ',
      '\n',
      '\\',
      '/',
      '*',
      '//',
      '/*',
      '*/',
      '...',
      '```',
      'a',
      'True',
      'None',
      '-',
      '1',
      'e',
      '.',
      '\\u00',
      '\u00a0',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(piece, { maxLength: 40 }).map((parts) => parts.join('')),
        ),
        (text) => {
          let repaired: string;
          try {
            repaired = repairJson(text);
          } catch (error) {
            expect(error).toBeInstanceOf(SyntaxError);
            return;
          }
          expect(() => JSON.parse(repaired)).not.toThrow();
        },
      ),
      { numRuns: 5_000 },
    );
  });
});
