import 'fake-indexeddb/auto';
import { createStore, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { Plan } from '../../src/plan.js';
import { StorageError } from '../../src/errors.js';
import { createIndexedDbAdapter } from '../../src/storage/indexed-db.js';

describe('createIndexedDbAdapter', () => {
  it('round-trips a plan through a reload', async () => {
    const store = createStore('planloop-test', 'plans');
    const first = new Plan({ storage: createIndexedDbAdapter({ key: 'a', store }) });
    await first.ready;
    first.todos.createMany([{ intent: 'navigate', description: 'Open docs' }, { intent: 'finish', description: 'Finish' }]);
    first.todos.delete('t2');
    first.markdown.create({ title: 'Notes', content: '# Docs' });
    await first.flush();

    const second = new Plan({ storage: createIndexedDbAdapter({ key: 'a', store }) });
    await second.ready;
    expect(second.todos.list()).toEqual(first.todos.list());
    expect(second.markdown.list()).toEqual(first.markdown.list());
    expect(second.todos.create({ intent: 'narrate', description: 'new' }).id).toBe('t3');
  });

  it('uses a default planloop database when no store is given', async () => {
    const adapter = createIndexedDbAdapter({ key: 'default-store' });
    await adapter.save({ version: 1, todos: [], markdownDocs: [] });
    expect(await adapter.load()).toEqual({ version: 1, todos: [], markdownDocs: [] });
  });

  it('keeps invalid stored data aside under a backup key', async () => {
    const store = createStore('planloop-test-bad', 'plans');
    await set('bad', { todos: 'nope' }, store);
    const plan = new Plan({ storage: createIndexedDbAdapter({ key: 'bad', store }) });
    const errors: StorageError[] = [];
    plan.on('storage-error', ({ error }) => errors.push(error));
    await plan.ready;
    expect(errors).toHaveLength(1);
    const { keys, get } = await import('idb-keyval');
    const backupKey = (await keys(store)).find((key) => String(key).startsWith('bad.corrupt.'));
    expect(backupKey).toBeDefined();
    expect(await get(backupKey!, store)).toEqual({ todos: 'nope' });
  });

  it('reports a missing IndexedDB as a StorageError, not a crash', async () => {
    const saved = globalThis.indexedDB;
    // @ts-expect-error simulating a browser without IndexedDB
    delete globalThis.indexedDB;
    try {
      const plan = new Plan({ storage: createIndexedDbAdapter({ key: 'x' }) });
      const errors: StorageError[] = [];
      plan.on('storage-error', ({ error }) => errors.push(error));
      await plan.ready;
      expect(errors[0]?.message).toMatch(/IndexedDB is not available/);
      expect(plan.todos.create({ intent: 'narrate', description: 'still works in memory' }).id).toBe('t1');
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});
