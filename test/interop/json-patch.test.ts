import fc from 'fast-check';
import fastJsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { diffJSON } from '../../src/interop/json-patch.js';

const { applyPatch, deepClone } = fastJsonPatch;

const todo = fc.record(
  {
    id: fc.constantFrom('t1', 't2', 't3', 't4', 't5', 't/6', 't~7'),
    status: fc.constantFrom('pending', 'in_progress', 'completed'),
    description: fc.string({ maxLength: 6 }),
  },
  { requiredKeys: ['id', 'status'] },
);
const todos = fc.uniqueArray(todo, { selector: (item) => item.id, maxLength: 6 });
const state = fc.record(
  { summary: fc.string({ maxLength: 4 }), todos, extra: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: null }) },
  { requiredKeys: ['summary', 'todos'] },
);

/** A key fast-json-patch refuses in a path (its prototype guard, on by default). */
const refused = (segments: string[]) => segments.some((key, index) => key === '__proto__' || (key === 'prototype' && segments[index - 1] === 'constructor'));

describe('diffJSON', () => {
  // fast-check's jsonValue writes `__proto__`, `constructor` and `prototype` keys on purpose (its
  // dangerous strings): about one run in 30 of this property met one (issue 36), alone or in the
  // whole suite alike (a seed fails or passes the same way in both: FC_SEED=7 fails either way).
  it('gives a patch that turns the one value into the other (fast-json-patch applies it, validating each operation)', () => {
    fc.assert(
      fc.property(state, state, (before, after) => {
        const patch = diffJSON(before, after);
        expect(patch.filter((operation) => refused(operation.path.split('/')))).toEqual([]);
        const rebuilt = applyPatch(deepClone(before), patch as never, true, false).newDocument;
        expect(rebuilt).toEqual(after);
      }),
      { numRuns: 400 },
    );
  });

  it('replaces an object whose __proto__ (or constructor.prototype) key changed, so the patch applies with the prototype guard on', () => {
    const withProto = (value: unknown) => JSON.parse(`{"id": "t1", "__proto__": ${JSON.stringify(value)}}`) as Record<string, unknown>;
    const cases: Array<[unknown, unknown, unknown[]]> = [
      [{ extra: withProto(1) }, { extra: withProto(2) }, [{ op: 'replace', path: '/extra', value: withProto(2) }]],
      [{ extra: withProto({ a: 1 }) }, { extra: withProto({ a: 2 }) }, [{ op: 'replace', path: '/extra', value: withProto({ a: 2 }) }]],
      [{ extra: { id: 't1' } }, { extra: withProto(null) }, [{ op: 'replace', path: '/extra', value: withProto(null) }]],
      [withProto(1), { id: 't1' }, [{ op: 'replace', path: '', value: { id: 't1' } }]],
      [{ constructor: { prototype: 1 } }, { constructor: { prototype: 2 } }, [{ op: 'replace', path: '/constructor', value: { prototype: 2 } }]],
      [{ extra: withProto(1), n: 1 }, { extra: withProto(1), n: 2 }, [{ op: 'replace', path: '/n', value: 2 }]], // unchanged: no path through it
    ];
    for (const [before, after, expected] of cases) {
      const patch = diffJSON(before, after);
      expect(patch).toEqual(expected);
      expect(applyPatch(deepClone(before), patch as never, true, false).newDocument).toEqual(after);
    }
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
