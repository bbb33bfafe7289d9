import { jsonrepair } from 'jsonrepair';
import { describe, expect, test } from 'vitest';
import { matchingClose, parseModelJson } from '../../src/llm/model-json.js';

const ENVELOPE = { todo: 't2', actions: [{ type: 'narrate', text: 'Use the } key, it’s “safe”' }] };

/**
 * Whole replies of the families the repair corpus (test/fixtures/broken-json.ts) lacked, as they
 * reach parseModelJson: prose, fences and outer quotes around them. Each must read as `value`,
 * and the same with jsonrepair (0.1's repair) in place of ours.
 */
const REPLIES: Array<[name: string, text: string, value: unknown]> = [
  ['typographic quotes', '{“todo”: “t2”, “actions”: []}', { todo: 't2', actions: [] }],
  ['typographic single quotes', '{‘todo’: ‘t2’, ‘actions’: []}', { todo: 't2', actions: [] }],
  [
    'typographic quotes after prose, a brace inside a string',
    'Sure! {“todo”: “t2”, “actions”: [{“type”: “narrate”, “text”: “Use the } key”}]}',
    { todo: 't2', actions: [{ type: 'narrate', text: 'Use the } key' }] },
  ],
  ['typographic quotes in a fence', '```json\n{“todo”: “t2”, “last”: true}\n```', { todo: 't2', last: true }],
  ['a BOM and NBSPs', '\uFEFF{"todo":\u00a0"t2",\u00a0"actions": []}', { todo: 't2', actions: [] }],
  ['a zero-width space', 'Here: {"todo":\u200b"t2", "actions": []}', { todo: 't2', actions: [] }],
  ['a stringified reply', JSON.stringify(JSON.stringify(ENVELOPE)), ENVELOPE],
  ['a stringified reply in a fence', `\`\`\`json\n${JSON.stringify(JSON.stringify(ENVELOPE))}\n\`\`\``, ENVELOPE],
  ['a stringified reply without its outer quotes', JSON.stringify(JSON.stringify(ENVELOPE)).slice(1, -1), ENVELOPE],
];

describe('parseModelJson: replies of the families 0.1 read, whole', () => {
  test.each(REPLIES)('%s', (_name, text, value) => {
    const ours = parseModelJson(text);
    expect(ours.ok && ours.value).toEqual(value);
    const theirs = parseModelJson(text, jsonrepair);
    expect(theirs.ok && theirs.value).toEqual(value);
  });

  test('full-width punctuation between tokens is refused, as jsonrepair refused it', () => {
    // Reading it would cost bytes at start (the core's 15 KB budget) for a form no model we saw writes.
    expect(parseModelJson('{"todo"："t2"，"actions"：[]}').ok).toBe(false);
    expect(parseModelJson('{"todo"："t2"，"actions"：[]}', jsonrepair).ok).toBe(false);
  });
});

describe('parseModelJson', () => {
  test.each([
    ['plain JSON', '{"a": 1}', { a: 1 }, false],
    ['a code fence', '```json\n{"a": 1}\n```', { a: 1 }, false],
    ['prose around it', 'Sure! Here it is:\n{"a": 1}\nHope that helps.', { a: 1 }, false],
    ['a BOM', '\uFEFF{"a": 1}', { a: 1 }, false],
    ['a trailing comma', '{"a": [1, 2,],}', { a: [1, 2] }, true],
    ['single quotes', "{'a': 'b'}", { a: 'b' }, true],
    ['comments', '{\n  // the answer\n  "a": 1 /* one */\n}', { a: 1 }, true],
    ["a comment with an apostrophe (it's no string)", '{\n  // it\'s here\n  "a": 1\n}', { a: 1 }, true],
    ['a fence inside a string', '```json\n{"a": "run ```npm i``` first"}\n```', { a: 'run ```npm i``` first' }, false],
    ['a fence in prose before the JSON fence', 'Use ```code``` like this:\n```json\n{"a": 1}\n```', { a: 1 }, false],
    ['brackets in strings', '{"a": "}]{["}', { a: '}]{[' }, false],
    ['prose braces before the object', 'I use {braces} in prose. {"a": 1}', { a: 1 }, false],
    ['an unclosed prose brace before the object', 'Press { to open the menu.\n{"a": 1}', { a: 1 }, false],
    ['a prose brace with an apostrophe before the object', 'Plan for {the user\'s request}:\n{"a": 1}', { a: 1 }, false],
    ['a prose [Note] before the object', '[Note] {"a": 1}', { a: 1 }, false],
    ['a footnote [1] before the object', '[1] see below {"a": 1}', { a: 1 }, false],
    ['a leading array of objects', '[{"a": 1}, {"a": 2}]', [{ a: 1 }, { a: 2 }], false],
    ['a fenced array', '```json\n[{"a": 1}]\n```', [{ a: 1 }], false],
    ['a closer that skips a level', '{"a": [{"b": 1}}', { a: [{ b: 1 }] }, true],
    ['unquoted keys', '{a: 1}', { a: 1 }, true],
    ['Python literals', "{'a': True, 'b': None}", { a: true, b: null }, true],
  ])('reads %s', (_name, text, value, repaired) => {
    const result = parseModelJson(text);
    expect(result).toEqual({ ok: true, value, repaired, truncated: false });
  });

  test('reports a cut-off end and repairs what it can', () => {
    const result = parseModelJson('{"todos": [{"intent": "navigate", "description": "Open pri');
    expect(result.truncated).toBe(true);
    expect(result.ok && result.value).toEqual({ todos: [{ intent: 'navigate', description: 'Open pri' }] });
  });

  test('never takes an inner object of a cut-off outer one for the answer', () => {
    const result = parseModelJson('{"todos": [{"description": "one"}, {"description": "tw');
    expect(result.ok && result.value).toHaveProperty('todos');
    expect(result.truncated).toBe(true);
  });

  test('a cut-off comment is a cut-off answer', () => {
    expect(parseModelJson('{"a": 1, /* still writ').truncated).toBe(true);
  });

  test('says so when there is no JSON', () => {
    expect(parseModelJson('I cannot help with that.')).toEqual({ ok: false, error: expect.stringMatching(/no JSON object/), truncated: false });
    expect(parseModelJson('')).toMatchObject({ ok: false, truncated: false });
    expect(parseModelJson('42')).toMatchObject({ ok: false });
  });

  test('drops __proto__ keys, so parsed data never reaches a prototype', () => {
    const result = parseModelJson('{"__proto__": {"polluted": true}, "a": {"__proto__": {"x": 1}}}');
    expect(result.ok).toBe(true);
    const value = (result as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(value)).toEqual(['a']);
    expect((value.a as Record<string, unknown>).x).toBeUndefined();
  });

  test('handles a very large reply quickly', () => {
    const todos = Array.from({ length: 2000 }, (_, index) => ({ description: `step ${index} ${'x'.repeat(200)}` }));
    const text = `Here you go:\n${JSON.stringify({ todos })}\n${'trailing prose '.repeat(1000)}`;
    const started = performance.now();
    const result = parseModelJson(text);
    expect(result.ok && (result.value as { todos: unknown[] }).todos).toHaveLength(2000);
    // A guard against super-linear reading, not a speed test (a few ms here; npm run bench measures).
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe('matchingClose', () => {
  test('finds the closing bracket, skipping strings', () => {
    expect(matchingClose('{"a": "}"} tail', 0)).toBe(9);
    expect(matchingClose('{"a": [1, 2', 0)).toBe(-1);
  });

  test('stays linear on many unmatched closers (no quadratic stack search)', () => {
    const text = '['.repeat(50_000) + '}'.repeat(50_000);
    const started = performance.now();
    expect(matchingClose(text, 0)).toBe(-1);
    // A guard against quadratic work, not a speed test: ~8 s before for this 100 KB text, a few ms now.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(matchingClose('[{[}x]', 0)).toBe(5); // `}` closes `{` and the `[` inside it; `]` closes the rest
    expect(matchingClose('[}]', 0)).toBe(2); // a stray closer with no opener is ignored
  });

  test('bounds the time spent repairing a long malformed reply (jsonrepair is super-linear)', () => {
    const text = `{"${'a"'.repeat(100_000)}`; // 200 KB, an unterminated string full of quotes
    const started = performance.now();
    const result = parseModelJson(text);
    // A guard, not a speed test: ~17 s before (the whole span went through jsonrepair).
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(result).toMatchObject({ ok: false, truncated: true });
    expect(result.ok || result.error).toMatch(/too long to repair/);
    // Valid JSON of any length is still read, and short malformed JSON is still repaired.
    const big = { items: Array.from({ length: 20_000 }, (_, i) => `item ${i}`) };
    expect(parseModelJson(`Here: ${JSON.stringify(big)} done`)).toMatchObject({ ok: true, value: big, repaired: false });
    expect(parseModelJson("{'a': [1, 2,],}")).toMatchObject({ ok: true, value: { a: [1, 2] }, repaired: true });
  });
});
