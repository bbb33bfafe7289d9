import { StorageError } from '../errors.js';
import { corruptKey, corruptPrefix, corruptTime, type CorruptCopy, type CorruptCopyAccess } from './corrupt-copies.js';
import { partKeyMaker, partKeysByDoc, partPrefix, planPartsWrite, readPartsSnapshot, type PartsWrite } from './snapshot-parts.js';
import type { PlanSnapshot, PlanStorageAdapter } from './snapshot.js';
import { refuseUnmerged } from '../sync/sync-guard.js';

/** Options of {@link createLocalStorageAdapter}. */
export interface LocalStorageAdapterOptions {
  /** The key the plan is stored under. Default `'planloop'`. */
  key?: string | undefined;
  /** The Storage to use. Default: `globalThis.localStorage`, read when the adapter is used. */
  storage?: Storage | undefined;
}

/** What {@link createLocalStorageAdapter} returns: a storage adapter with access to the copies `backup` set aside. */
export interface LocalStorageAdapter extends PlanStorageAdapter, CorruptCopyAccess {
  load(): PlanSnapshot | null;
  save(snapshot: PlanSnapshot): void;
  backup(raw: unknown, reason: string): void;
  exportCorrupt(): CorruptCopy[];
  discardCorrupt(id?: string): number;
  /** `key`: tabs that share this Storage sync the plan under it. */
  readonly syncKey: string;
}

/**
 * Persists the plan in localStorage (or any `Storage`, such as sessionStorage). Each document's
 * content is stored apart, under `<key>:doc:<id>:<tag>`, and `<key>` holds the rest with the
 * document index; a change rewrites the small index and only the documents that changed, and a
 * load always sees one whole snapshot (see {@link planPartsWrite}). Unreadable data is copied to
 * `<key>.corrupt.<time>` by `backup`; `exportCorrupt` and `discardCorrupt` let the host decide
 * about those copies. Everything is synchronous: a save started in `pagehide` has landed when it
 * returns. Tabs of the origin see one another's saves, so a plan on it syncs with them by default
 * (see `PlanConfig.sync`).
 *
 * @example
 * ```ts
 * const plan = new Plan({ llm, storage: createLocalStorageAdapter({ key: 'tour-plan' }) });
 * ```
 */
export function createLocalStorageAdapter(options: LocalStorageAdapterOptions = {}): LocalStorageAdapter {
  const key = options.key ?? 'planloop';
  const newPartKey = partKeyMaker(key);
  /** Part key to content, for the parts of the manifest last loaded or saved (parts never change). */
  let cache = new Map<string, string>();
  const storage = (operation: 'load' | 'save'): Storage => {
    const found = options.storage ?? (globalThis as { localStorage?: Storage }).localStorage;
    if (!found) {
      throw new StorageError('storage_error', 'localStorage is not available here; pass `storage` (e.g. sessionStorage) or use createMemoryAdapter().', {
        operation,
        reason: 'unavailable',
      });
    }
    return found;
  };
  const keysStartingWith = (store: Storage, prefix: string): string[] => {
    const found: string[] = [];
    for (let index = 0; index < store.length; index++) {
      const name = store.key(index);
      if (name?.startsWith(prefix)) found.push(name);
    }
    return found;
  };
  /** Writes the parts, then the manifest; on failure removes the parts it wrote and rethrows. */
  const write = (store: Storage, plan: PartsWrite): void => {
    const written: string[] = [];
    try {
      for (const [partKey, content] of plan.parts) {
        store.setItem(partKey, content);
        written.push(partKey);
      }
      store.setItem(key, JSON.stringify(plan.manifest));
    } catch (error) {
      for (const partKey of written) store.removeItem(partKey);
      throw error;
    }
  };

  return {
    syncKey: key,
    load() {
      const store = storage('load');
      const raw = store.getItem(key);
      if (raw === null) {
        cache = new Map();
        return null;
      }
      let manifest: unknown;
      try {
        manifest = JSON.parse(raw);
      } catch (error) {
        throw new StorageError('storage_error', `The plan stored under "${key}" is not valid JSON.`, {
          operation: 'load',
          raw,
          reason: 'corrupt',
          cause: error,
        });
      }
      const { snapshot, missing, refs } = readPartsSnapshot(manifest, (part) => cache.get(part) ?? store.getItem(part));
      if (missing.length > 0) {
        throw new StorageError(
          'storage_error',
          `The plan under "${key}" lists documents whose content is gone (${missing.join(', ')}); everything found is in this error's raw.`,
          { operation: 'load', raw: snapshot, reason: 'corrupt' },
        );
      }
      cache = refs;
      return snapshot as PlanSnapshot;
    },
    save(snapshot) {
      const store = storage('save');
      let stored: unknown = null;
      try {
        stored = JSON.parse(store.getItem(key) ?? 'null');
      } catch {
        // Unreadable data under the key: the plan decides about it (backup) before saving.
      }
      refuseUnmerged(stored, snapshot, key);
      let plan = planPartsWrite(snapshot, stored, cache, newPartKey);
      try {
        try {
          write(store, plan);
        } catch (error) {
          if (!isQuotaError(error)) throw error;
          // Parts of saves that never reached their manifest (a crash, another tab) are garbage:
          // free them and try once more, rewriting every document.
          const used = new Set(partKeysByDoc(stored).values());
          const orphans = keysStartingWith(store, partPrefix(key)).filter((name) => !used.has(name));
          if (orphans.length === 0) throw error;
          for (const orphan of orphans) store.removeItem(orphan);
          plan = planPartsWrite(snapshot, stored, cache, newPartKey);
          write(store, plan);
        }
      } catch (error) {
        throw new StorageError(
          'storage_error',
          isQuotaError(error)
            ? `localStorage is full; the plan under "${key}" was not saved (the stored one is unchanged). Free space or switch to createIndexedDbAdapter().`
            : `Saving the plan under "${key}" failed: ${(error as Error)?.message ?? String(error)}`,
          { operation: 'save', ...(isQuotaError(error) ? { reason: 'quota' } : {}), cause: error },
        );
      }
      for (const stale of plan.stale) store.removeItem(stale);
      cache = plan.refs;
    },
    backup(raw) {
      const store = storage('save');
      const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
      const time = Date.now();
      let name = corruptKey(key, time);
      for (let n = 1; store.getItem(name) !== null; n++) name = `${corruptKey(key, time)}-${n}`;
      try {
        store.setItem(name, text);
      } catch (error) {
        const why = isQuotaError(error) ? 'localStorage is full' : ((error as Error)?.message ?? String(error));
        throw new StorageError(
          'storage_error',
          `The unreadable plan under "${key}" could not be set aside (${why}); it is still under "${key}" and in this error's raw. Export it, free space (discardCorrupt() deletes older copies) and retry, or let the plan write over it.`,
          { operation: 'save', raw, reason: 'backup_failed', cause: error },
        );
      }
    },
    exportCorrupt() {
      const store = storage('load');
      return keysStartingWith(store, corruptPrefix(key))
        .map((id) => ({ id, savedAt: corruptTime(key, id), raw: parseOrText(store.getItem(id) ?? '') }))
        .sort((a, b) => a.savedAt - b.savedAt || a.id.localeCompare(b.id));
    },
    discardCorrupt(id) {
      const store = storage('save');
      const names = keysStartingWith(store, corruptPrefix(key)).filter((name) => id === undefined || name === id);
      for (const name of names) store.removeItem(name);
      return names.length;
    },
  };
}

/** Browsers throw a DOMException named QuotaExceededError (Firefox once: NS_ERROR_DOM_QUOTA_REACHED) when the origin's quota is full. */
export function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED';
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
