import { IDBFactory } from 'fake-indexeddb';
import type { MarkdownDoc } from '../src/artifacts/markdown.js';
import type { TodoItem } from '../src/artifacts/todos.js';
import { createIndexedDbAdapter } from '../src/storage/indexed-db.js';
import { createLocalStorageAdapter } from '../src/storage/local-storage.js';
import type { PlanSnapshot } from '../src/storage/snapshot.js';
import { median, ratio, round, timeMs } from './measure.js';

/** Options of {@link benchStorage}. */
export interface StorageBenchOptions {
  /** Characters in the large document. Default 1,000,000. */
  docChars?: number;
  /** Timed saves per row (after a warm-up of a tenth as many). Default 60. */
  iterations?: number;
}

/** Median milliseconds of one save after one kind of change, whole snapshot against the adapter. */
export interface StorageBenchRow {
  adapter: 'localStorage' | 'IndexedDB';
  change: 'a todo' | 'the large document' | 'load after another tab changed a todo';
  /** The whole snapshot written (or read) as one value: what the adapters did before documents were stored apart. */
  whole: number;
  /** The adapter as it is now: the documents stored apart. */
  parts: number;
  /** whole / parts. */
  speedup: number | null;
}

/** What {@link benchStorage} measured. */
export interface StorageBenchResult {
  docChars: number;
  todos: number;
  iterations: number;
  rows: StorageBenchRow[];
}

const TODOS = 20;

/**
 * Times what one change costs to save with a large document in the plan: the whole snapshot
 * written as one value (the adapters before documents were stored apart) against the adapters
 * now, for localStorage (a Map-backed `Storage`: JSON and string copies, not a browser's disk) and
 * IndexedDB (fake-indexeddb: structured clone in this process, not a browser's backing store).
 *
 * @example
 * ```ts
 * const { rows } = await benchStorage({ docChars: 10_000, iterations: 5 });
 * ```
 */
export async function benchStorage(options: StorageBenchOptions = {}): Promise<StorageBenchResult> {
  const { docChars = 1_000_000, iterations = 60 } = options;
  const big = 'x'.repeat(docChars);
  const todos: TodoItem[] = Array.from({ length: TODOS }, (_, index) => ({
    id: `t${index + 1}`,
    intent: 'narrate',
    description: `Step ${index + 1} of the tour`,
    status: 'pending',
  }));
  const docs: MarkdownDoc[] = [
    { id: 'm1', title: 'Research', content: big, updatedAt: 1 },
    { id: 'm2', title: 'plan.md', content: '- [ ] one\n- [ ] two', updatedAt: 1 },
  ];
  let turn = 0;
  /** The plan after one more change: a todo's status, or the large document's last character. */
  const changed = (what: 'todo' | 'doc'): PlanSnapshot => {
    turn += 1;
    const index = turn % TODOS;
    const nextTodos =
      what === 'todo' ? todos.map((todo, i) => (i === index ? ({ ...todo, status: turn % 2 ? 'completed' : 'pending' } as TodoItem) : todo)) : todos;
    const nextDocs = what === 'doc' ? [{ ...docs[0]!, content: big.slice(0, -1) + String(turn % 10), updatedAt: turn }, docs[1]!] : docs;
    return { version: 1, todos: nextTodos, markdownDocs: nextDocs, lastIds: { todos: TODOS, markdown: 2 } };
  };
  const time = async (what: 'todo' | 'doc', save: (snapshot: PlanSnapshot) => unknown): Promise<number> => {
    const samples: number[] = [];
    const warmUp = Math.max(1, Math.floor(iterations / 10));
    for (let i = 0; i < warmUp + iterations; i++) {
      const snapshot = changed(what);
      const ms = await timeMs(() => save(snapshot));
      if (i >= warmUp) samples.push(ms);
    }
    return round(median(samples));
  };
  const row = (adapter: StorageBenchRow['adapter'], change: StorageBenchRow['change'], whole: number, now: number): StorageBenchRow => ({
    adapter,
    change,
    whole,
    parts: now,
    speedup: ratio(whole, now),
  });

  const rows: StorageBenchRow[] = [];
  for (const what of ['todo', 'doc'] as const) {
    const change = what === 'todo' ? 'a todo' : 'the large document';
    const wholeStorage = mapStorage();
    const whole = await time(what, (snapshot) => wholeStorage.setItem('plan', JSON.stringify(snapshot)));
    const adapter = createLocalStorageAdapter({ key: 'plan', storage: mapStorage() });
    rows.push(row('localStorage', change, whole, await time(what, (snapshot) => adapter.save(snapshot))));
  }
  {
    // A load after another tab changed a todo: the whole snapshot parsed again, against the manifest and parts already read.
    const storage = mapStorage();
    const writer = createLocalStorageAdapter({ key: 'plan', storage });
    const reader = createLocalStorageAdapter({ key: 'plan', storage });
    const wholeStorage = mapStorage();
    const wholeLoad = await timeLoad(
      iterations,
      () => changed('todo'),
      (snapshot) => wholeStorage.setItem('plan', JSON.stringify(snapshot)),
      () => JSON.parse(wholeStorage.getItem('plan')!),
    );
    const adapterLoad = await timeLoad(
      iterations,
      () => changed('todo'),
      (snapshot) => writer.save(snapshot),
      () => reader.load(),
    );
    rows.push(row('localStorage', 'load after another tab changed a todo', wholeLoad, adapterLoad));
  }
  for (const what of ['todo', 'doc'] as const) {
    const change = what === 'todo' ? 'a todo' : 'the large document';
    const wholeDb = await openWholeStore(new IDBFactory());
    const whole = await time(what, (snapshot) => wholeDb.put(snapshot));
    const adapter = createIndexedDbAdapter({ key: 'plan', indexedDB: new IDBFactory() });
    rows.push(row('IndexedDB', change, whole, await time(what, (snapshot) => adapter.save(snapshot))));
    adapter.close();
  }
  return { docChars, todos: TODOS, iterations, rows };
}

/** Median of `read` after each `write` of a new change (only the read is timed). */
async function timeLoad(iterations: number, next: () => PlanSnapshot, write: (snapshot: PlanSnapshot) => unknown, read: () => unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    await write(next());
    samples.push(await timeMs(read));
  }
  return round(median(samples));
}

/** A `Storage` over a Map: what JSON and string copies cost, without a browser's disk. */
function mapStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (index: number) => [...items.keys()][index] ?? null,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
  };
}

/** The whole snapshot put under one key in one transaction, as the idb-keyval adapter did. */
async function openWholeStore(factory: IDBFactory): Promise<{ put(snapshot: PlanSnapshot): Promise<void> }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open('whole', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('plans');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return {
    put: (snapshot) =>
      new Promise((resolve, reject) => {
        const tx = db.transaction('plans', 'readwrite');
        tx.objectStore('plans').put(snapshot, 'plan');
        tx.oncomplete = () => resolve();
        tx.onabort = () => reject(tx.error);
      }),
  };
}
