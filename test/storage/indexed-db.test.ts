import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { Plan } from '../../src/plan.js';
import { StorageError } from '../../src/errors.js';
import { createIndexedDbAdapter, type IndexedDbAdapterOptions } from '../../src/storage/indexed-db.js';
import type { PlanSnapshot } from '../../src/storage/snapshot.js';
import { openRaw } from '../helpers/open-raw-idb.js';

const doc = (id: string, content: string, title = 'Notes') => ({ id, title, content, updatedAt: 1 });
const todo = (id: string, description: string) => ({ id, intent: 'narrate', description, status: 'pending' as const });
const snapshotOf = (todos: ReturnType<typeof todo>[], markdownDocs: ReturnType<typeof doc>[]): PlanSnapshot => ({ version: 1, todos, markdownDocs });

/** A fresh IndexedDB (fake-indexeddb) per test, and the adapter over it. */
function setup(options: IndexedDbAdapterOptions = {}) {
  const factory = new IDBFactory();
  const adapter = createIndexedDbAdapter({ key: 'plan', indexedDB: factory, openTimeoutMs: 200, ...options });
  return { factory, adapter };
}

/** Every key and value in the adapter's object store, read outside the adapter. */
async function rawEntries(factory: IDBFactory): Promise<Map<string, unknown>> {
  const db = await openRaw(factory, 'planloop').done;
  const tx = db.transaction('plans', 'readonly');
  const store = tx.objectStore('plans');
  const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
  db.close();
  return new Map(keys.map((key, index) => [String(key), values[index]]));
}

const request = <T>(req: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });

/** Settles with `promise`, or rejects once `ms` have passed (so a hang fails the test instead of timing it out). */
const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms))]);

describe('createIndexedDbAdapter', () => {
  it('round-trips a plan through a reload', async () => {
    const factory = new IDBFactory();
    const storage = () => createIndexedDbAdapter({ key: 'a', indexedDB: factory });
    const first = new Plan({ storage: storage() });
    await first.ready;
    first.todos.createMany([
      { intent: 'navigate', description: 'Open docs' },
      { intent: 'finish', description: 'Finish' },
    ]);
    first.todos.delete('t2');
    first.markdown.create({ title: 'Notes', content: '# Docs' });
    await first.flush();

    const second = new Plan({ storage: storage() });
    await second.ready;
    expect(second.todos.list()).toEqual(first.todos.list());
    expect(second.markdown.list()).toEqual(first.markdown.list());
    expect(second.todos.create({ intent: 'narrate', description: 'new' }).id).toBe('t3');
  });

  it('uses the global indexedDB and a planloop database by default, read when used', async () => {
    const adapter = createIndexedDbAdapter({ key: 'default-store' });
    await adapter.save({ version: 1, todos: [], markdownDocs: [] });
    expect(await adapter.load()).toEqual({ version: 1, todos: [], markdownDocs: [] });
    adapter.close();
  });

  it('keeps invalid stored data aside under a backup key, and lets the host list and discard it', async () => {
    const { factory, adapter } = setup();
    const db = await openRaw(factory, 'planloop', 1, (created) => created.createObjectStore('plans')).done;
    await request(db.transaction('plans', 'readwrite').objectStore('plans').put({ todos: 'nope' }, 'plan'));
    db.close();
    const plan = new Plan({ storage: adapter });
    const errors: StorageError[] = [];
    plan.on('storage-error', ({ error }) => errors.push(error));
    await plan.ready;
    expect(errors).toHaveLength(1);
    const copies = await adapter.exportCorrupt();
    expect(copies).toEqual([{ id: expect.stringMatching(/^plan\.corrupt\.\d+$/), savedAt: expect.any(Number), raw: { todos: 'nope' } }]);
    await adapter.backup('{second', 'not JSON');
    expect((await adapter.exportCorrupt()).map((copy) => copy.raw)).toEqual([{ todos: 'nope' }, '{second']);
    expect(await adapter.discardCorrupt(copies[0]!.id)).toBe(1);
    expect(await adapter.discardCorrupt()).toBe(1);
    expect(await adapter.exportCorrupt()).toEqual([]);
  });

  it('throws backup_failed, with the data, when the copy cannot be written', async () => {
    const { adapter } = setup();
    const raw = { todos: [], cannotClone: () => {} };
    await expect(adapter.backup(raw, 'failed validation')).rejects.toMatchObject({ reason: 'backup_failed', operation: 'save', raw });
  });

  it('reports a missing IndexedDB as unavailable, not a crash', async () => {
    const saved = globalThis.indexedDB;
    // @ts-expect-error simulating a browser without IndexedDB
    delete globalThis.indexedDB;
    try {
      const plan = new Plan({ storage: createIndexedDbAdapter({ key: 'x' }) });
      const errors: StorageError[] = [];
      plan.on('storage-error', ({ error }) => errors.push(error));
      await plan.ready;
      expect(errors[0]?.message).toMatch(/IndexedDB is not available/);
      expect(errors[0]?.reason).toBe('unavailable');
      expect(plan.todos.create({ intent: 'narrate', description: 'still works in memory' }).id).toBe('t1');
    } finally {
      globalThis.indexedDB = saved;
    }
  });

  it('adds its object store to a database another library created without it', async () => {
    const { factory, adapter } = setup();
    (await openRaw(factory, 'planloop', 3, (db) => db.createObjectStore('theirs')).done).close();
    await within(adapter.save(snapshotOf([todo('t1', 'a')], [])), 1000, 'save');
    expect(await adapter.load()).toEqual(snapshotOf([todo('t1', 'a')], []));
    adapter.close();
  });
});

describe('createIndexedDbAdapter: a blocked or vanishing database', () => {
  it('rejects with reason blocked within the timeout while an upgrade is held up, then saves once it opens', async () => {
    const { factory, adapter } = setup();
    // Tab 1 has the database open and ignores versionchange; tab 2 asks for an upgrade: blocked.
    const holder = await openRaw(factory, 'planloop', 1, (db) => db.createObjectStore('plans')).done;
    const upgrade = openRaw(factory, 'planloop', 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(upgrade.blocked).toBe(true);

    const error = await within(
      adapter.load().then(
        () => 'loaded',
        (caught: unknown) => caught,
      ),
      5000,
      'load',
    );
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'storage_error', reason: 'blocked', operation: 'load' });
    expect((error as Error).message).toMatch(/did not open within 200 ms/);
    await expect(adapter.save(snapshotOf([], []))).rejects.toMatchObject({ reason: 'blocked' });

    // Tab 1 goes away: the upgrade runs, and the adapter's open, waiting all along, completes.
    holder.close();
    (await upgrade.done).close();
    await within(adapter.opened(), 1000, 'opened');
    await adapter.save(snapshotOf([todo('t1', 'saved after the block')], []));
    expect(await adapter.load()).toEqual(snapshotOf([todo('t1', 'saved after the block')], []));
    adapter.close();
  });

  it('rejects with reason blocked when open never answers', async () => {
    const silent = { open: () => ({}) as IDBOpenDBRequest } as unknown as IDBFactory;
    const adapter = createIndexedDbAdapter({ indexedDB: silent, openTimeoutMs: 50 });
    await expect(within(adapter.load(), 1000, 'load')).rejects.toMatchObject({ reason: 'blocked' });
    adapter.close();
  });

  it('retries a failed open with backoff while opened() waits, then works', async () => {
    const real = new IDBFactory();
    let failuresLeft = 2;
    const flaky = {
      open: (name: string, version?: number) => {
        if (failuresLeft-- <= 0) return version === undefined ? real.open(name) : real.open(name, version);
        const failing = { error: new DOMException('The disk said no.', 'UnknownError') } as unknown as IDBOpenDBRequest;
        setTimeout(() => failing.onerror?.(new Event('error')), 0);
        return failing;
      },
    } as unknown as IDBFactory;
    const adapter = createIndexedDbAdapter({ indexedDB: flaky, retry: { initialMs: 10, maxMs: 20 } });
    await expect(adapter.load()).rejects.toMatchObject({ operation: 'load', message: expect.stringMatching(/The disk said no/) });
    await within(adapter.opened(), 1000, 'opened');
    await adapter.save(snapshotOf([todo('t1', 'a')], []));
    expect(await adapter.load()).toEqual(snapshotOf([todo('t1', 'a')], []));
    adapter.close();
  });

  it('closes its connection when another tab upgrades, so the upgrade is not blocked, and reopens after', async () => {
    const { factory, adapter } = setup();
    await adapter.save(snapshotOf([todo('t1', 'a')], []));
    const upgrade = openRaw(factory, 'planloop', 2, (db) => db.createObjectStore('other'));
    const upgraded = await within(upgrade.done, 1000, "the other tab's upgrade");
    expect(upgrade.blocked).toBe(false);
    upgraded.close();
    await adapter.save(snapshotOf([todo('t1', 'b')], []));
    expect(await adapter.load()).toEqual(snapshotOf([todo('t1', 'b')], []));
    adapter.close();
  });

  it('recreates the database, documents included, when it is deleted mid-run', async () => {
    const { factory, adapter } = setup();
    await adapter.save(snapshotOf([todo('t1', 'a')], [doc('m1', 'kept text')]));
    const deletion = factory.deleteDatabase('planloop');
    await within(request(deletion as unknown as IDBRequest<unknown>), 1000, 'deleteDatabase');
    expect(await adapter.load()).toBeNull();
    // The next save writes the whole plan again, the unchanged document too.
    await adapter.save(snapshotOf([todo('t1', 'a'), todo('t2', 'b')], [doc('m1', 'kept text')]));
    adapter.close();
    const reopened = createIndexedDbAdapter({ key: 'plan', indexedDB: factory });
    expect(await reopened.load()).toEqual(snapshotOf([todo('t1', 'a'), todo('t2', 'b')], [doc('m1', 'kept text')]));
    reopened.close();
  });
});

describe('createIndexedDbAdapter: saves that scale', () => {
  const big = 'x'.repeat(1_000_000);

  it('leaves a 1 MB document alone when a todo changes, and rewrites only documents that change', async () => {
    const { factory, adapter } = setup();
    await adapter.save(snapshotOf([todo('t1', 'a')], [doc('m1', big), doc('m2', 'small')]));
    const first = await rawEntries(factory);
    await adapter.save(snapshotOf([todo('t1', 'a'), todo('t2', 'b')], [doc('m1', big, 'Renamed'), doc('m2', 'small')]));
    const second = await rawEntries(factory);
    expect([...second.keys()].sort()).toEqual([...first.keys()].sort());
    await adapter.save(snapshotOf([todo('t1', 'a'), todo('t2', 'b')], [doc('m1', big, 'Renamed'), doc('m2', 'changed')]));
    const third = await rawEntries(factory);
    const parts = (entries: Map<string, unknown>) => [...entries.keys()].filter((name) => name.startsWith('plan:doc:')).sort();
    expect(parts(third)).toHaveLength(2);
    expect(parts(third).filter((name) => name.startsWith('plan:doc:m1:'))).toEqual(parts(first).filter((name) => name.startsWith('plan:doc:m1:')));
    expect(parts(third).find((name) => name.startsWith('plan:doc:m2:'))).not.toBe(parts(first).find((name) => name.startsWith('plan:doc:m2:')));
    adapter.close();
    const reopened = createIndexedDbAdapter({ key: 'plan', indexedDB: factory });
    expect(await reopened.load()).toEqual(snapshotOf([todo('t1', 'a'), todo('t2', 'b')], [doc('m1', big, 'Renamed'), doc('m2', 'changed')]));
    reopened.close();
  });

  it('writes all of a save or none of it: a failing save leaves the previous plan whole', async () => {
    const { adapter } = setup();
    const before = snapshotOf([todo('t1', 'old')], [doc('m1', 'old text')]);
    await adapter.save(before);
    const broken = { ...snapshotOf([todo('t1', 'new')], [doc('m1', 'new text')]), notCloneable: () => {} };
    await expect(adapter.save(broken)).rejects.toBeInstanceOf(StorageError);
    expect(await adapter.load()).toEqual(before);
    adapter.close();
  });

  it('still reads a whole snapshot written before documents were stored apart', async () => {
    const { factory, adapter } = setup();
    const old = snapshotOf([todo('t1', 'a')], [doc('m1', 'text')]);
    const db = await openRaw(factory, 'planloop', 1, (created) => created.createObjectStore('plans')).done;
    await request(db.transaction('plans', 'readwrite').objectStore('plans').put(old, 'plan'));
    db.close();
    expect(await adapter.load()).toEqual(old);
    adapter.close();
  });
});
