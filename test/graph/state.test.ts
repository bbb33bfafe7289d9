import { describe, expect, it } from 'vitest';
import { StateWriteOnceError } from '../../src/graph/errors.js';
import { GraphState } from '../../src/graph/state.js';
import { PlanloopError } from '../../src/errors.js';

describe('GraphState', () => {
  it('writes a path once and refuses a second write with state_write_once', () => {
    const state = new GraphState();
    state.set('language', 'fr');
    expect(state.get('language')).toBe('fr');
    const error = (() => {
      try {
        state.set('language', 'en');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(StateWriteOnceError);
    expect(error).toMatchObject({ code: 'state_write_once', path: 'state.language' });
    expect(state.get('language')).toBe('fr');
  });

  it('refuses writes inside or around a written value, but not beside it', () => {
    const state = new GraphState();
    state.set('user.name', 'Ada');
    expect(() => state.set('user', {})).toThrow(/values inside state.user were already written/);
    expect(() => state.set('user.name.first', 'A')).toThrow(StateWriteOnceError);
    state.set('user.email', 'ada@example.com');
    expect(state.snapshot()).toEqual({ user: { name: 'Ada', email: 'ada@example.com' } });
    expect(state.canWrite('user.phone')).toBe(true);
    expect(state.canWrite('user')).toBe(false);
  });

  it('counts initial values as written and reads inside them', () => {
    const state = new GraphState({ error: { code: 'card_declined' } });
    expect(state.has('error.code')).toBe(true);
    expect(state.get('error.code')).toBe('card_declined');
    expect(state.has('error.message')).toBe(false);
    expect(state.canWrite('error.message')).toBe(false);
  });

  it('stores undefined as null so the path exists', () => {
    const state = new GraphState();
    state.set(['done'], undefined);
    expect(state.has('done')).toBe(true);
    expect(state.get('done')).toBeNull();
  });

  it('refuses unsafe and empty paths', () => {
    const state = new GraphState();
    for (const path of ['__proto__.polluted', 'a.constructor', 'prototype', '', 'a..b']) {
      expect(() => state.set(path, 1)).toThrow(PlanloopError);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('returns snapshots that do not change the state and keep __proto__ keys as data', () => {
    const state = new GraphState();
    const value = JSON.parse('{"__proto__": {"polluted": true}, "list": [1]}') as Record<string, unknown>;
    state.set('payload', value);
    const snapshot = state.snapshot();
    (snapshot.payload as { list: number[] }).list.push(2);
    expect(state.get('payload.list')).toEqual([1]);
    expect(Object.hasOwn(snapshot.payload as object, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('snapshots cyclic and shared values (a tool output with a back-reference) without overflowing the stack', () => {
    const state = new GraphState();
    const node: Record<string, unknown> = { name: 'root', children: [] };
    (node.children as unknown[]).push({ name: 'child', parent: node });
    node.self = node;
    const shared = { id: 1 };
    state.set('tree', node);
    state.set('pair', { a: shared, b: shared });
    const snapshot = state.snapshot() as { tree: Record<string, unknown>; pair: { a: object; b: object } };
    expect(snapshot.tree).not.toBe(node);
    expect(snapshot.tree.self).toBe(snapshot.tree);
    expect(((snapshot.tree.children as Array<{ parent: unknown }>)[0] as { parent: unknown }).parent).toBe(snapshot.tree);
    expect(snapshot.pair.a).toBe(snapshot.pair.b);
    expect(snapshot.pair.a).not.toBe(shared);
    expect(Object.getPrototypeOf(snapshot.tree)).toBe(Object.prototype);
  });
});
