import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { StorageError } from '../src/errors.js';
import type { PlanEvents } from '../src/events.js';
import { Plan } from '../src/plan.js';
import { createIndexedDbAdapter } from '../src/storage/indexed-db.js';
import { createMemoryAdapter } from '../src/storage/memory.js';
import type { PlanSaveStatus } from '../src/storage/save-queue.js';
import type { PlanSnapshot, PlanStorageAdapter } from '../src/storage/snapshot.js';
import { openRaw } from './helpers/open-raw-idb.js';
import { tick, until } from './helpers/wait.js';

// Issue 12, wired into Plan: failed backups (finding 1), save status and retries (finding 2), a
// blocked IndexedDB (finding 4). Each of these failed on main before the wiring.

const todo = (id: string, description: string) => ({ id, intent: 'narrate', description, status: 'pending' as const });

function record(plan: Plan) {
  const errors: StorageError[] = [];
  const statuses: PlanSaveStatus[] = [];
  plan.on('storage-error', ({ error }) => errors.push(error));
  plan.on('save-status-change', ({ status }) => statuses.push(status));
  return { errors, statuses };
}

/** A memory adapter whose backup fails (a full quota) until `backupFails` is set to false. */
function failingBackup(stored: unknown) {
  const memory = createMemoryAdapter();
  let current: unknown = structuredClone(stored);
  const adapter = {
    backupFails: true,
    load: () => structuredClone(current) as PlanSnapshot,
    save(snapshot: PlanSnapshot) {
      current = structuredClone(snapshot);
    },
    backup(raw: unknown, reason: string) {
      if (adapter.backupFails)
        throw new StorageError('storage_error', 'could not be set aside (the quota is full)', { operation: 'save', raw, reason: 'backup_failed' });
      memory.backup!(raw, reason);
    },
    get stored() {
      return current;
    },
    exportCorrupt: () => memory.exportCorrupt(),
  };
  return adapter;
}

describe('a stored plan that cannot be set aside is never written over until the host decides (finding 1)', () => {
  const future = { version: 2, todos: [todo('t1', 'from a newer planloop')], markdownDocs: [] };

  it('backup throws: storage-error backup_failed with the data, saving held, the stored value untouched', async () => {
    const storage = failingBackup(future);
    const plan = new Plan({ storage });
    const { errors } = record(plan);
    await plan.ready;
    expect(errors.map((error) => error.reason ?? error.operation)).toEqual(['load', 'backup_failed']);
    expect(errors[1]?.raw).toEqual(future);
    expect(errors[1]?.message).toMatch(/writes nothing over it until you decide.*discardStoredPlan\(\).*hydrate\(\)/);
    expect(plan.saveStatus).toMatchObject({ state: 'held', error: errors[1] });

    plan.todos.create({ intent: 'narrate', description: 'made meanwhile' });
    await expect(plan.flush()).rejects.toBe(errors[1]);
    expect(storage.stored).toEqual(future);
  });

  it('the host frees space and hydrates again: the data is set aside, the work done meanwhile kept and saved', async () => {
    const storage = failingBackup(future);
    const plan = new Plan({ storage });
    await plan.ready;
    plan.todos.create({ intent: 'narrate', description: 'made meanwhile' });
    storage.backupFails = false;
    await plan.hydrate();
    await plan.flush();
    expect(storage.exportCorrupt().map((copy) => copy.raw)).toEqual([future]);
    expect((storage.stored as PlanSnapshot).todos.map((item) => item.description)).toEqual(['made meanwhile']);
    expect(plan.saveStatus.state).toBe('saved');
  });

  it('the host exports it and discards it: discardStoredPlan() writes this plan over it', async () => {
    const storage = failingBackup(future);
    const plan = new Plan({ storage });
    const { errors } = record(plan);
    await plan.ready;
    plan.todos.create({ intent: 'narrate', description: 'made meanwhile' });
    const exported = structuredClone(errors[1]?.raw);
    await plan.discardStoredPlan();
    expect(exported).toEqual(future);
    expect(storage.stored).toMatchObject({ version: 1, todos: [expect.objectContaining({ description: 'made meanwhile' })] });
    expect(plan.saveStatus.state).toBe('saved');
    // Ids go on from the plan's own counter.
    expect(plan.todos.create({ intent: 'narrate', description: 'next' }).id).toBe('t2');
  });

  it('an adapter without backup never has its unreadable data written over either', async () => {
    let stored: unknown = '{"todos": [oops';
    const adapter: PlanStorageAdapter = {
      load: () => {
        throw new StorageError('storage_error', 'not JSON', { operation: 'load', raw: stored, reason: 'corrupt' });
      },
      save: (snapshot) => void (stored = snapshot),
    };
    const plan = new Plan({ storage: adapter });
    const { errors } = record(plan);
    await plan.ready;
    plan.todos.create({ intent: 'narrate', description: 'x' });
    await expect(plan.flush()).rejects.toMatchObject({ reason: 'backup_failed', raw: '{"todos": [oops' });
    expect(errors[1]?.message).toMatch(/cannot be set aside \(this storage has no backup\(\)\)/);
    expect(stored).toBe('{"todos": [oops');
    await plan.discardStoredPlan();
    expect(stored).toMatchObject({ todos: [expect.objectContaining({ description: 'x' })] });
  });
});

describe('save status (finding 2)', () => {
  it('plan.saveStatus and save-status-change follow a save that fails, is retried with backoff without a change, and lands', async () => {
    let fail = true;
    const saved: PlanSnapshot[] = [];
    const plan = new Plan({
      storage: {
        load: () => null,
        save: (snapshot) => {
          if (fail) throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
          saved.push(snapshot);
        },
      },
    });
    const { statuses } = record(plan);
    await plan.ready;
    expect(plan.saveStatus).toEqual({ state: 'saved', failures: 0, lastSaved: undefined, error: undefined });
    plan.todos.create({ intent: 'narrate', description: 'kept' });
    await until(() => plan.saveStatus.state === 'failing', 'the first failure');
    expect(plan.saveStatus.error).toBeInstanceOf(StorageError);
    fail = false;
    // No change, no flush: the queue's own retry (250 ms, jittered) saves it.
    await until(() => plan.saveStatus.state === 'saved', 'the retry', 2000);
    expect(saved.at(-1)?.todos.map((item) => item.description)).toEqual(['kept']);
    expect(statuses.map((status) => status.state)).toEqual(['pending', 'failing', 'saved']);
    expect(statuses.at(-1)?.lastSaved).toEqual(expect.any(Number));
  });

  it('reports pending for work done before hydration, and held while the stored plan cannot be read', async () => {
    let reachable = false;
    const plan = new Plan({
      storage: {
        load: () => {
          if (!reachable) throw new Error('unreachable');
          return null;
        },
        save: () => {},
      },
    });
    const { statuses } = record(plan);
    plan.todos.create({ intent: 'narrate', description: 'early' });
    expect(plan.saveStatus.state).toBe('pending');
    await plan.ready;
    expect(plan.saveStatus.state).toBe('held');
    reachable = true;
    await plan.hydrate();
    await plan.flush();
    expect(statuses.map((status) => status.state)).toEqual(['pending', 'held', 'pending', 'saved']);
  });

  it('close() stops the retries and the page-lifecycle listeners; saves still happen on request', async () => {
    const target = new EventTarget();
    const previous = (globalThis as { addEventListener?: unknown }).addEventListener;
    // The save queue listens where the page's lifecycle events arrive: globalThis in a browser.
    Object.assign(globalThis, { addEventListener: target.addEventListener.bind(target), removeEventListener: target.removeEventListener.bind(target) });
    try {
      let fail = true;
      const saved: string[][] = [];
      const plan = new Plan({
        storage: {
          load: () => null,
          save: (snapshot) => {
            if (fail) throw new Error('down');
            saved.push(snapshot.todos.map((item) => item.description));
          },
        },
      });
      await plan.ready;
      plan.todos.create({ intent: 'narrate', description: 'a' });
      await until(() => plan.saveStatus.state === 'failing', 'a failure');
      fail = false;
      // The page goes away: the last attempt happens inside the event.
      target.dispatchEvent(new Event('pagehide'));
      expect(saved).toEqual([['a']]);

      await plan.close();
      fail = true;
      plan.todos.create({ intent: 'narrate', description: 'b' });
      await until(() => plan.saveStatus.state === 'failing', 'a failure after close');
      fail = false;
      target.dispatchEvent(new Event('pagehide'));
      await tick(700);
      expect(saved).toEqual([['a']]); // no listener, no retry timer
      plan.todos.create({ intent: 'narrate', description: 'c' });
      await plan.flush();
      expect(saved).toEqual([['a'], ['a', 'b', 'c']]);
    } finally {
      Object.assign(globalThis, { addEventListener: previous, removeEventListener: undefined });
      if (previous === undefined) {
        delete (globalThis as { addEventListener?: unknown }).addEventListener;
        delete (globalThis as { removeEventListener?: unknown }).removeEventListener;
      }
    }
  });
});

describe('a blocked IndexedDB (finding 4)', () => {
  it('ready settles in bounded time with storage-error blocked; the plan works in memory, then hydrates, merges and saves once the database opens', async () => {
    const factory = new IDBFactory();
    const adapter = (openTimeoutMs = 3000) => createIndexedDbAdapter({ key: 'tour', indexedDB: factory, openTimeoutMs, retry: { initialMs: 20, maxMs: 50 } });
    const writer = adapter();
    await writer.save({ version: 1, todos: [todo('t1', 'stored before')], markdownDocs: [], lastIds: { todos: 1, markdown: 0 } });
    writer.close();

    // Another tab holds version 1 open and ignores versionchange; a third asks for an upgrade.
    const holder = await openRaw(factory, 'planloop').done;
    holder.onversionchange = null;
    const upgrade = openRaw(factory, 'planloop', 2);
    await tick(20);
    expect(upgrade.blocked).toBe(true);

    const plan = new Plan({ storage: adapter(200), sync: false });
    const { errors } = record(plan);
    const hydrations: Array<PlanEvents['plan-hydrate']> = [];
    plan.on('plan-hydrate', (event) => hydrations.push(event));
    const started = Date.now();
    await plan.ready;
    expect(Date.now() - started).toBeLessThan(1500);
    expect(errors.map((error) => error.reason)).toEqual(['blocked']);
    expect(plan.saveStatus.state).toBe('held');
    expect(plan.todos.create({ intent: 'narrate', description: 'made while blocked' }).id).toBe('t1');

    holder.close();
    (await upgrade.done).close();
    await until(() => hydrations.length === 1, 'hydration once the database opened');
    expect(plan.todos.list().map((item) => `${item.id} ${item.description}`)).toEqual(['t1 stored before', 't2 made while blocked']);
    await plan.flush();
    const reader = adapter();
    expect((await reader.load())?.todos.map((item) => item.description)).toEqual(['stored before', 'made while blocked']);
    reader.close();
  });
});
