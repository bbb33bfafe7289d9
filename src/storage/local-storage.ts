import { StorageError } from '../errors.js';
import type { PlanSnapshot, PlanStorageAdapter } from './snapshot.js';

/** Options of {@link createLocalStorageAdapter}. */
export interface LocalStorageAdapterOptions {
  /** The key the snapshot is stored under. Default `'planloop'`. */
  key?: string;
  /** The Storage to use. Default: `globalThis.localStorage`, read when the adapter is used. */
  storage?: Storage;
}

/**
 * Persists the plan as JSON in localStorage (or any `Storage`, such as sessionStorage).
 * Unreadable data is copied to `<key>.corrupt.<time>` before the plan writes over the key.
 *
 * @example
 * ```ts
 * const plan = new Plan({ llm, storage: createLocalStorageAdapter({ key: 'tour-plan' }) });
 * ```
 */
export function createLocalStorageAdapter(options: LocalStorageAdapterOptions = {}): PlanStorageAdapter {
  const key = options.key ?? 'planloop';
  const storage = (operation: 'load' | 'save'): Storage => {
    const found = options.storage ?? (globalThis as { localStorage?: Storage }).localStorage;
    if (!found) {
      throw new StorageError(operation, 'localStorage is not available here; pass `storage` (e.g. sessionStorage) or use createMemoryAdapter().');
    }
    return found;
  };
  return {
    load(): PlanSnapshot | null {
      const raw = storage('load').getItem(key);
      if (raw === null) return null;
      try {
        return JSON.parse(raw) as PlanSnapshot;
      } catch (error) {
        throw new StorageError('load', `The plan stored under "${key}" is not valid JSON.`, { raw }, { cause: error });
      }
    },
    save(snapshot: PlanSnapshot): void {
      try {
        storage('save').setItem(key, JSON.stringify(snapshot));
      } catch (error) {
        if (error instanceof StorageError) throw error;
        // Browsers throw a DOMException named QuotaExceededError when the origin's quota is full.
        const quota = (error as { name?: string }).name === 'QuotaExceededError';
        throw new StorageError(
          'save',
          quota
            ? `localStorage is full; the plan under "${key}" was not saved. Free space or switch to createIndexedDbAdapter().`
            : `Saving the plan under "${key}" failed.`,
          {},
          { cause: error },
        );
      }
    },
    backup(raw: unknown): void {
      const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
      storage('save').setItem(`${key}.corrupt.${Date.now()}`, text);
    },
  };
}
