import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createJsonScanner, type JsonScanHandler, type JsonScanner } from '../../src/envelope/json-scanner.js';

type Event = [string, ...unknown[]];

/** A scanner fed `chunks`, with every event it reported; consecutive string pieces are joined (how a body is cut depends on the chunks). */
function scan(chunks: readonly string[]): { events: Event[]; scanner: JsonScanner } {
  const events: Event[] = [];
  const handler: Required<JsonScanHandler> = {
    open: (...args) => events.push(['open', ...args]),
    close: (...args) => events.push(['close', ...args]),
    key: (...args) => events.push(['key', ...args]),
    valueStart: (...args) => events.push(['valueStart', ...args]),
    valueEnd: (...args) => events.push(['valueEnd', ...args]),
    stringStart: (...args) => events.push(['stringStart', ...args]),
    stringDelta: (raw, depth) => {
      const last = events.at(-1);
      if (last?.[0] === 'string' && last[2] === depth) last[1] += raw;
      else events.push(['string', raw, depth]);
    },
    stringEnd: (...args) => events.push(['stringEnd', ...args]),
  };
  const scanner = createJsonScanner(handler);
  for (const chunk of chunks) scanner.push(chunk);
  return { events, scanner };
}

/** Every value span reported at `depth`, as [key, text]. */
function spans(text: string, depth = 1): Array<[string | undefined, string]> {
  return scan([text])
    .events.filter((event) => event[0] === 'valueEnd' && event[3] === depth)
    .map((event) => [event[4] as string | undefined, text.slice(event[1] as number, event[2] as number)]);
}

describe('createJsonScanner', () => {
  it('reports brackets, keys, value spans and string bodies with their depth', () => {
    const text = 'Sure: {"a": [1, {"b": "x}"}], c: \'y\'}';
    const { events, scanner } = scan([text]);
    const at = (fragment: string) => text.indexOf(fragment);
    expect(events).toEqual([
      ['open', '{', at('{"a"'), 0, undefined],
      ['stringStart', '"', at('"a"'), 1],
      ['string', 'a', 1],
      ['stringEnd', at('"a"') + 2, 1],
      ['key', 'a', 1],
      ['valueStart', '[', at('[1'), 1, 'a'],
      ['open', '[', at('[1'), 1, 'a'],
      ['valueStart', '1', at('1,'), 2, undefined],
      ['valueEnd', at('1,'), at(', {'), 2, undefined],
      ['valueStart', '{', at('{"b"'), 2, undefined],
      ['open', '{', at('{"b"'), 2, undefined],
      ['stringStart', '"', at('"b"'), 3],
      ['string', 'b', 3],
      ['stringEnd', at('"b"') + 2, 3],
      ['key', 'b', 3],
      ['valueStart', '"', at('"x}"'), 3, 'b'],
      ['stringStart', '"', at('"x}"'), 3],
      ['string', 'x}', 3],
      ['stringEnd', at('"x}"') + 3, 3],
      ['valueEnd', at('"x}"'), at('}]'), 3, 'b'],
      ['close', '}', at('}]'), 2],
      ['valueEnd', at('{"b"'), at(']'), 2, undefined],
      ['close', ']', at(']'), 1],
      ['valueEnd', at('[1'), at(']') + 1, 1, 'a'],
      ['key', 'c', 1],
      ['valueStart', "'", at("'y'"), 1, 'c'],
      ['stringStart', "'", at("'y'"), 1],
      ['string', 'y', 1],
      ['stringEnd', at("'y'") + 2, 1],
      ['valueEnd', at("'y'"), text.length - 1, 1, 'c'],
      ['close', '}', text.length - 1, 0],
    ]);
    expect(scanner.done).toBe(true);
  });

  it('gives each member its exact text, which parses to its value (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 }), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const members = spans(text).map(([key, piece]) => [key, JSON.parse(piece)]);
        expect(members).toEqual(Object.entries(JSON.parse(text)));
      }),
      { numRuns: 300 },
    );
  });

  it('reads the tolerant forms: unquoted keys, single quotes, bare words, a colon in an array', () => {
    expect(spans("{todo: 't1', 'last' : tr ue, \"a\\u0062\": [x: 1]}")).toEqual([
      ['todo', "'t1'"],
      ['last', 'tr ue'],
      ['ab', '[x: 1]'],
    ]);
    expect(spans("{'it\\'s': 1}")).toEqual([["it\\'s", '1']]); // a single-quoted key is what lies between its quotes
  });

  it('skips text before the object and stops at its end, or at a bracket that does not match', () => {
    const after = scan(['```json\n[{"a": 1}] {"b": 2}']);
    expect(after.events.filter((event) => event[0] === 'key')).toEqual([['key', 'a', 1]]);
    expect(after.scanner.done).toBe(true);
    const mismatched = scan(['{"a": [1}, "b": 2}']);
    expect(mismatched.events.filter((event) => event[0] === 'key')).toEqual([['key', 'a', 1]]);
    expect(mismatched.events.at(-1)).toEqual(['valueEnd', 7, 8, 2, undefined]); // the item before the bad bracket, then nothing
    expect(mismatched.scanner.done).toBe(true);
    const open = scan(['no object here', '[1, 2]']);
    expect(open.events).toEqual([]);
    expect(open.scanner.done).toBe(false);
  });

  it('tells an escaped quote from a closing one, in both quote styles', () => {
    const text = String.raw`{"a": "x\"y\\", 'b': 'it\'s "q"', "c": "\\\""}`;
    const bodies = scan([text])
      .events.filter((event) => event[0] === 'string')
      .map((event) => event[1]);
    expect(bodies).toEqual(['a', String.raw`x\"y\\`, 'b', String.raw`it\'s "q"`, 'c', String.raw`\\\"`]);
    expect(spans(text).map(([key]) => key)).toEqual(['a', 'b', 'c']);
  });

  it('hands a string body over raw, so escapes and surrogate pairs cut at any point join up', () => {
    const text = '{"t": "Caf\\u00e9 \\ud83c\\udf89 \\"ok\\""}';
    for (let cut = 1; cut < text.length; cut++) {
      for (let second = cut + 1; second <= text.length; second++) {
        const body = scan([text.slice(0, cut), text.slice(cut, second), text.slice(second)]).events.filter((event) => event[0] === 'string')[1]?.[1];
        expect(JSON.parse(`"${body as string}"`)).toBe('Café 🎉 "ok"');
      }
    }
  });

  it('has no depth limit: 20,000 nested arrays close one by one', () => {
    const depth = 20_000;
    const { events, scanner } = scan([`{"deep": ${'['.repeat(depth)}${']'.repeat(depth)}, "next": 1}`]);
    expect(events.filter((event) => event[0] === 'close')).toHaveLength(depth + 1);
    expect(events.filter((event) => event[0] === 'key').map((event) => event[1])).toEqual(['deep', 'next']);
    expect(scanner.done).toBe(true);
  });

  it('resumes after a throwing handler with the next event: none lost, none twice', () => {
    const seen: string[] = [];
    let failures = 0;
    const scanner = createJsonScanner({
      key: (key) => {
        seen.push(`key ${key}`);
        if (failures++ < 2) throw new Error('host failed');
      },
      close: (bracket, _at, depth) => seen.push(`close ${bracket} ${depth}`),
      valueEnd: (_from, _to, depth, key) => seen.push(`end ${depth} ${key}`),
    });
    expect(() => scanner.push('{"a": {"b": 1}, "c": 2}')).toThrow('host failed');
    expect(() => scanner.push('')).toThrow('host failed');
    scanner.push('');
    expect(seen).toEqual(['key a', 'key b', 'end 2 b', 'close } 1', 'end 1 a', 'key c', 'end 1 c', 'close } 0']);
  });

  it('emits nothing after stop()', () => {
    const keys: string[] = [];
    const scanner = createJsonScanner({
      key: (key) => {
        keys.push(key);
        scanner.stop();
      },
    });
    scanner.push('{"a": 1, "b": 2}');
    expect(keys).toEqual(['a']);
    expect(scanner.done).toBe(true);
  });
});

// The property the streaming parser rests on: however the text is cut, the events are the same
// (string bodies joined), and slices read across chunks are the text's.
const modelText = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify({ value })),
  fc
    .dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 })
    .map((value) => `Sure:\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``),
  fc
    .array(fc.constantFrom('{', '}', '[', ']', '"', "'", ':', ',', ' ', '\n', '\\', '\\"', '\\u', 'd83c', 'todo', 'actions', 'x', '1', 'é', '🎉'), {
      maxLength: 40,
    })
    .map((parts) => `{${parts.join('')}`),
);

describe('createJsonScanner (chunking property)', () => {
  it('reports the same events whether the text comes whole or cut at any one or two points', () => {
    fc.assert(
      fc.property(modelText, (text) => {
        const whole = scan([text]).events;
        for (let cut = 0; cut <= text.length; cut++) expect(scan([text.slice(0, cut), text.slice(cut)]).events).toEqual(whole);
        const third = Math.floor(text.length / 3);
        for (let cut = third; cut < text.length; cut++) expect(scan([text.slice(0, third), text.slice(third, cut), text.slice(cut)]).events).toEqual(whole);
      }),
      { numRuns: 100 },
    );
  });

  it('reports the same events, and slices the same text, fed one character at a time or in random pieces', () => {
    fc.assert(
      fc.property(modelText, fc.array(fc.nat(), { maxLength: 12 }), (text, rawCuts) => {
        const whole = scan([text]);
        const cuts = [...new Set(rawCuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const bounds = [0, ...cuts, text.length];
        const pieces = bounds.slice(1).map((end, i) => text.slice(bounds[i], end));
        const cutUp = scan(pieces);
        expect(cutUp.events).toEqual(whole.events);
        expect(scan([...text]).events).toEqual(whole.events);
        for (const event of cutUp.events.filter((item) => item[0] === 'valueEnd')) {
          expect(cutUp.scanner.slice(event[1] as number, event[2] as number)).toBe(text.slice(event[1] as number, event[2] as number));
        }
      }),
      { numRuns: 300 },
    );
  });
});
