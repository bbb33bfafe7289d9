import { createStore, get, set, type UseStore } from 'idb-keyval';
import { StorageError } from '../errors.js';
import type { PlanSnapshot, PlanStorageAdapter } from './snapshot.js';

/** Options of {@link createIndexedDbAdapter}. */
export interface IndexedDbAdapterOptions {
  /** The key the snapshot is stored under. Default `'planloop'`. */
  key?: string;
  /**
   * An idb-keyval store, e.g. `createStore('my-app', 'plans')`. Default: a `planloop` database
   * with a `plans` object store, opened on first use.
   */
  store?: UseStore;
}

/**
 * Persists the plan in IndexedDB through idb-keyval: no size limit worth the name, and writes
 * that do not block the page. Nothing is opened until the plan first loads or saves.
 *
 * @example
 * ```ts
 * const plan = new Plan({ llm, storage: createIndexedDbAdapter({ key: 'tour-plan' }) });
 * ```
 */
export function createIndexedDbAdapter(options: IndexedDbAdapterOptions = {}): PlanStorageAdapter {
  const key = options.key ?? 'planloop';
  let store = options.store;
  const useStore = (operation: 'load' | 'save'): UseStore => {
    if (store) return store;
    if (typeof (globalThis as { indexedDB?: unknown }).indexedDB === 'undefined') {
      throw new StorageError(operation, 'IndexedDB is not available here (private mode or an old browser?); use createLocalStorageAdapter() instead.');
    }
    store = createStore('planloop', 'plans');
    return store;
  };
  const wrap = (operation: 'load' | 'save', error: unknown): StorageError =>
    error instanceof StorageError
      ? error
      : new StorageError(operation, `IndexedDB ${operation} of the plan under "${key}" failed: ${(error as Error)?.message ?? String(error)}`, {}, { cause: error });
  return {
    async load(): Promise<PlanSnapshot | null> {
      try {
        return (await get<PlanSnapshot>(key, useStore('load'))) ?? null;
      } catch (error) {
        throw wrap('load', error);
      }
    },
    async save(snapshot: PlanSnapshot): Promise<void> {
      try {
        await set(key, snapshot, useStore('save'));
      } catch (error) {
        throw wrap('save', error);
      }
    },
    async backup(raw: unknown): Promise<void> {
      await set(`${key}.corrupt.${Date.now()}`, raw, useStore('save'));
    },
  };
}
