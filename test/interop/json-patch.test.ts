import fc from 'fast-check';
import fastJsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { diffJSON } from '../../src/interop/json-patch.js';

const { applyPatch, deepClone } = fastJsonPatch;

const todo = fc.record({ id: fc.constantFrom('t1', 't2', 't3', 't4', 't5', 't/6', 't~7'), status: fc.constantFrom('pending', 'in_progress', 'completed'), description: fc.string({ maxLength: 6 }) }, { requiredKeys: ['id', 'status'] });
const todos = fc.uniqueArray(todo, { selector: (item) => item.id, maxLength: 6 });
const state = fc.record({ summary: fc.string({ maxLength: 4 }), todos, extra: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: null }) }, { requiredKeys: ['summary', 'todos'] });

describe('diffJSON', () => {
  it('gives a patch that turns the one value into the other (fast-json-patch applies it, validating each operation)', () => {
    fc.assert(
      fc.property(state, state, (before, after) => {
        const patch = diffJSON(before, after);
        const rebuilt = applyPatch(deepClone(before), patch as never, true, false).newDocument;
        expect(rebuilt).toEqual(after);
      }),
      { numRuns: 400 },
    );
  });

  it('is empty for equal values and escapes keys as JSON Pointer segments', () => {
    expect(diffJSON({ a: [{ id: 'x', v: 1 }] }, { a: [{ id: 'x', v: 1 }] })).toEqual([]);
    expect(diffJSON({ 'a/b': 1, 'c~d': 1 }, { 'a/b': 2, 'c~d': 2 })).toEqual([
      { op: 'replace', path: '/a~1b', value: 2 },
      { op: 'replace', path: '/c~0d', value: 2 },
    ]);
  });

  it('removes from the end first and adds at the final places; a new order replaces the list', () => {
    const a = { id: 'a' };
    const b = { id: 'b' };
    const c = { id: 'c' };
    expect(diffJSON([a, b, c], [b, { id: 'n' }])).toEqual([
      { op: 'remove', path: '/2' },
      { op: 'remove', path: '/0' },
      { op: 'add', path: '/1', value: { id: 'n' } },
    ]);
    expect(diffJSON([a, b], [b, a])).toEqual([{ op: 'replace', path: '', value: [b, a] }]);
  });
});
