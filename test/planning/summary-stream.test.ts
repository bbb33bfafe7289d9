import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SummaryStream } from '../../src/planning/summary-stream.js';

/** Feeds `text` cut at `cuts` (code-unit offsets, so pairs and escapes can be split) and returns the deltas. */
function feed(text: string, cuts: readonly number[] = []): string[] {
  const stream = new SummaryStream();
  const points = [...new Set(cuts.map((cut) => Math.min(cut, text.length)))].sort((a, b) => a - b);
  const deltas: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    deltas.push(stream.push(text.slice(from, point)));
    from = point;
  }
  expect(deltas.join('')).toBe(stream.text);
  return deltas;
}

/** Serialises a string as JSON, escaping each code unit as `\uXXXX` where `escapeAll[i]` says so. */
function encodeString(text: string, escapeAll: (index: number) => boolean): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const unit = text[i] as string;
    const plain = JSON.stringify(unit).slice(1, -1);
    out += escapeAll(i) ? `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}` : plain;
  }
  return `${out}"`;
}

describe('SummaryStream', () => {
  test('returns the summary as it arrives, with escapes decoded', () => {
    const stream = new SummaryStream();
    expect(stream.push('{"task_sum')).toBe('');
    expect(stream.push('mary": "Tour \\u00e9')).toBe('Tour é');
    expect(stream.push('t\\u00e9 \\"now\\"\\n')).toBe('té "now"\n');
    expect(stream.push('", "todos": [{"description": "not this"}]}')).toBe('');
    expect(stream.text).toBe('Tour été "now"\n');
    expect(stream.done).toBe(true);
  });

  test('keeps a surrogate pair whole when its escapes are split across deltas', () => {
    const deltas = feed('{"task_summary": "a\\ud83d\\ude00b"}', [22, 27, 30]);
    expect(deltas.join('')).toBe('a😀b');
    expect(deltas.some((delta) => delta === '\ud83d')).toBe(false);
  });

  test('keeps a raw surrogate pair whole when the delta boundary falls inside it', () => {
    const text = '{"task_summary": "x😀y"}';
    const inside = text.indexOf('😀') + 1;
    const deltas = feed(text, [inside]);
    expect(deltas.join('')).toBe('x😀y');
    expect(deltas).toContain('😀y');
  });

  test('never returns text of other keys, nested task_summary keys or values named task_summary', () => {
    const text = JSON.stringify({
      intro: 'task_summary',
      todos: [{ task_summary: 'nested', description: 'no' }],
      meta: { task_summary: 'deeper' },
      task_summary: 'Top level',
      after: 'no',
    });
    expect(feed(text).join('')).toBe('Top level');
  });

  test('reads past prose and code fences before the object, and prose braces', () => {
    expect(feed('Sure, here you go (use {braces} freely):\n```json\n{"task_summary": "Hi"}\n```').join('')).toBe('Hi');
  });

  test('reads single-quoted JSON too', () => {
    expect(feed("{'task_summary': 'It\\'s \"fine\"', 'todos': []}").join('')).toBe('It\'s "fine"');
  });

  test('returns nothing when there is no summary or the answer is an array', () => {
    expect(feed('{"todos": [{"description": "x"}]}').join('')).toBe('');
    expect(feed('[{"task_summary": "inside an array"}]').join('')).toBe('');
    expect(feed('{"task_summary": 42, "x": "y"}').join('')).toBe('');
    expect(feed('').join('')).toBe('');
  });

  test('a cut-off answer yields the summary so far', () => {
    const stream = new SummaryStream();
    stream.push('{"task_summary": "Half a sen');
    expect(stream.text).toBe('Half a sen');
    expect(stream.done).toBe(false);
  });

  test('property: the deltas concatenate to the parsed task_summary however the stream is chunked', () => {
    const other = fc.dictionary(
      fc.string({ maxLength: 8 }).filter((key) => key !== 'task_summary' && key !== '__proto__'),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 3 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.func(fc.boolean()),
        other,
        other,
        fc.array(fc.nat(400), { maxLength: 30 }),
        fc.constantFrom('', ' ', '\n  '),
        (summary, escape, before, after, cuts, space) => {
          const parts = [
            ...Object.entries(before).map(([key, value]) => `${JSON.stringify(key)}:${space}${JSON.stringify(value)}`),
            `"task_summary":${space}${encodeString(summary, (index) => escape(index))}`,
            ...Object.entries(after).map(([key, value]) => `${JSON.stringify(key)}:${space}${JSON.stringify(value)}`),
          ];
          const text = `{${space}${parts.join(`,${space}`)}${space}}`;
          const expected = (JSON.parse(text) as { task_summary: string }).task_summary;
          const deltas = feed(text, cuts);
          expect(deltas.join('')).toBe(expected);
          // A pair is never split between two deltas.
          for (let i = 0; i + 1 < deltas.length; i++) {
            const end = (deltas[i] as string).charCodeAt((deltas[i] as string).length - 1);
            const next = (deltas.slice(i + 1).find((delta) => delta !== '') ?? '').charCodeAt(0);
            expect(end >= 0xd800 && end <= 0xdbff && next >= 0xdc00 && next <= 0xdfff).toBe(false);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
