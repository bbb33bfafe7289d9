import { StorageError } from '../errors.js';
import { corruptKey, corruptPrefix, corruptTime, type CorruptCopy, type CorruptCopyAccess } from './corrupt-copies.js';
import { createIdbConnection } from './idb-connection.js';
import { isQuotaError } from './local-storage.js';
import { partKeyMaker, partKeysByDoc, planPartsWrite, readPartsSnapshot, type PartsWrite } from './snapshot-parts.js';
import type { PlanSnapshot, PlanStorageAdapter } from './snapshot.js';
import { refuseUnmerged } from '../sync/sync-guard.js';

/** Options of {@link createIndexedDbAdapter}. */
export interface IndexedDbAdapterOptions {
  /** The key the plan is stored under. Default `'planloop'`. */
  key?: string | undefined;
  /** The database name. Default `'planloop'`. */
  database?: string | undefined;
  /** The object store in it. Default `'plans'`. */
  objectStore?: string | undefined;
  /** The IndexedDB factory. Default: `globalThis.indexedDB`, read when the adapter first opens. */
  indexedDB?: IDBFactory | undefined;
  /** How long a load or save waits for the database to open before failing with reason `blocked`. Default 3000 ms. */
  openTimeoutMs?: number | undefined;
  /** Backoff between attempts to open after an open failed, while `opened()` waits. Default 250 ms doubling to 30 s. */
  retry?: { initialMs?: number; maxMs?: number } | undefined;
  /** Timer functions. Default: the global `setTimeout` / `clearTimeout`. */
  timers?: { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void } | undefined;
}

/** What {@link createIndexedDbAdapter} returns: an asynchronous storage adapter with access to set-aside copies, and its connection. */
export interface IndexedDbAdapter extends PlanStorageAdapter, CorruptCopyAccess {
  load(): Promise<PlanSnapshot | null>;
  save(snapshot: PlanSnapshot): Promise<void>;
  backup(raw: unknown, reason: string): Promise<void>;
  exportCorrupt(): Promise<CorruptCopy[]>;
  discardCorrupt(id?: string): Promise<number>;
  /**
   * Resolves once the database is open, however long that takes: after a load failed with reason
   * `blocked`, hydrate again when this resolves. Retries failed opens with backoff meanwhile.
   */
  opened(): Promise<void>;
  /** Closes the connection (the next operation opens it again). */
  close(): void;
  /** `idb:<database>/<objectStore>/<key>`: tabs of the origin sync the plan under it. */
  readonly syncKey: string;
}

/**
 * Persists the plan in IndexedDB: no size limit worth the name, writes that do not block the page,
 * and every save in one transaction. Documents are stored apart from the rest (see
 * {@link planPartsWrite}): a change writes the small index and only the documents that changed.
 *
 * Nothing is opened until the plan first loads or saves. An open that does not answer within
 * `openTimeoutMs` (another tab holds an older version open while an upgrade waits) fails the load
 * or save with a `StorageError` whose reason is `blocked`; the open carries on, and once it
 * succeeds saves work again (`opened()` says when). The connection closes itself when another tab
 * upgrades or deletes the database, and reopens (recreating it) on the next save.
 *
 * @example
 * ```ts
 * const storage = createIndexedDbAdapter({ key: 'tour-plan' });
 * const plan = new Plan({ llm, storage });
 * ```
 */
export function createIndexedDbAdapter(options: IndexedDbAdapterOptions = {}): IndexedDbAdapter {
  const key = options.key ?? 'planloop';
  const database = options.database ?? 'planloop';
  const newPartKey = partKeyMaker(key);
  /** Part key to content, for the parts of the manifest last loaded or saved (parts never change). */
  let cache = new Map<string, string>();
  const connection = createIdbConnection({
    factory: () => {
      const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
      if (!factory) {
        throw new StorageError('storage_error', 'IndexedDB is not available here (private mode or an old browser?); use createLocalStorageAdapter() instead.', {
          operation: 'load',
          reason: 'unavailable',
        });
      }
      return factory;
    },
    database,
    objectStore: options.objectStore ?? 'plans',
    openTimeoutMs: options.openTimeoutMs ?? 3000,
    retry: { initialMs: options.retry?.initialMs ?? 250, maxMs: options.retry?.maxMs ?? 30_000 },
    timers: options.timers ?? { setTimeout: (run, ms) => globalThis.setTimeout(run, ms), clearTimeout: (handle) => globalThis.clearTimeout(handle as number) },
  });

  const wrap = (operation: 'load' | 'save', error: unknown): StorageError => {
    if (StorageError.isInstance(error))
      return error.operation === operation
        ? error
        : new StorageError('storage_error', error.message, {
            operation,
            raw: error.raw,
            ...(error.reason ? { reason: error.reason } : {}),
            cause: error.cause,
          });
    const quota = isQuotaError(error);
    return new StorageError(
      'storage_error',
      quota
        ? `IndexedDB is full; the plan under "${key}" was not saved (the stored one is unchanged). Free space in this site's storage.`
        : `IndexedDB ${operation} of the plan under "${key}" failed: ${(error as Error)?.message ?? String(error)}`,
      { operation, ...(quota ? { reason: 'quota' } : {}), cause: error },
    );
  };
  const run = async <T>(operation: 'load' | 'save', mode: IDBTransactionMode, body: (store: IDBObjectStore, tx: IDBTransaction) => Promise<T>): Promise<T> => {
    try {
      return await connection.transaction(operation, mode, body);
    } catch (error) {
      throw wrap(operation, error);
    }
  };

  return {
    syncKey: `idb:${database}/${options.objectStore ?? 'plans'}/${key}`,
    load: () =>
      run('load', 'readonly', (store, tx) => {
        let manifest: unknown;
        const found = new Map<string, string>();
        const read = store.get(key);
        read.onsuccess = () => {
          manifest = read.result;
          // Every part in this one transaction: the documents are the ones this manifest names.
          for (const part of partKeysByDoc(manifest).values()) {
            if (cache.has(part)) continue;
            const partRead = store.get(part);
            partRead.onsuccess = () => {
              if (typeof partRead.result === 'string') found.set(part, partRead.result);
            };
          }
        };
        return settled(tx).then(() => {
          if (manifest === undefined) {
            cache = new Map();
            return null;
          }
          const { snapshot, missing, refs } = readPartsSnapshot(manifest, (part) => cache.get(part) ?? found.get(part));
          if (missing.length > 0) {
            throw new StorageError(
              'storage_error',
              `The plan under "${key}" lists documents whose content is gone (${missing.join(', ')}); everything found is in this error's raw.`,
              { operation: 'load', raw: snapshot, reason: 'corrupt' },
            );
          }
          cache = refs;
          return snapshot as PlanSnapshot;
        });
      }),

    save: (snapshot) =>
      run('save', 'readwrite', (store, tx) => {
        let plan: PartsWrite | undefined;
        let refused: unknown;
        const read = store.get(key);
        read.onsuccess = () => {
          try {
            refuseUnmerged(read.result, snapshot, key);
            // The stored manifest's parts exist (every save is one transaction): reuse them.
            plan = planPartsWrite(snapshot, read.result, cache, newPartKey);
            for (const [part, content] of plan.parts) store.put(content, part);
            store.put(plan.manifest, key);
            for (const stale of plan.stale) store.delete(stale);
          } catch (error) {
            refused = error;
            tx.abort();
          }
        };
        return settled(tx).then(
          () => {
            if (plan) cache = plan.refs;
          },
          (error: unknown) => {
            throw refused ?? error;
          },
        );
      }),

    async backup(raw) {
      try {
        await run('save', 'readwrite', (store, tx) => {
          const name = corruptKey(key, Date.now());
          const count = store.count(IDBKeyRange.bound(name, `${name}\uffff`));
          count.onsuccess = () => {
            try {
              store.put(raw, count.result === 0 ? name : `${name}-${count.result}`);
            } catch (error) {
              tx.abort();
              failure = error;
            }
          };
          let failure: unknown;
          return settled(tx).catch((error: unknown) => {
            throw failure ?? error;
          });
        });
      } catch (error) {
        const cause = StorageError.isInstance(error) && error.cause !== undefined ? error.cause : error;
        const why = isQuotaError(cause) ? 'IndexedDB is full' : ((cause as Error)?.message ?? String(cause));
        throw new StorageError(
          'storage_error',
          `The unreadable plan under "${key}" could not be set aside (${why}); it is still under "${key}" and in this error's raw. Export it, free space (discardCorrupt() deletes older copies) and retry, or let the plan write over it.`,
          { operation: 'save', raw, reason: 'backup_failed', cause },
        );
      }
    },

    exportCorrupt: () =>
      run('load', 'readonly', (store, tx) => {
        const copies: CorruptCopy[] = [];
        const cursor = store.openCursor(IDBKeyRange.bound(corruptPrefix(key), `${corruptPrefix(key)}\uffff`));
        cursor.onsuccess = () => {
          const at = cursor.result;
          if (!at) return;
          copies.push({ id: String(at.key), savedAt: corruptTime(key, String(at.key)), raw: at.value });
          at.continue();
        };
        return settled(tx).then(() => copies.sort((a, b) => a.savedAt - b.savedAt || a.id.localeCompare(b.id)));
      }),

    discardCorrupt: (id) =>
      run('save', 'readwrite', (store, tx) => {
        const prefix = corruptPrefix(key);
        const range = id === undefined ? IDBKeyRange.bound(prefix, `${prefix}\uffff`) : id.startsWith(prefix) ? IDBKeyRange.only(id) : undefined;
        if (!range) return Promise.resolve(0);
        const count = store.count(range);
        count.onsuccess = () => store.delete(range);
        return settled(tx).then(() => count.result);
      }),

    opened: () => connection.opened(),
    close: () => connection.close(),
  };
}

/** Resolves when the transaction commits; rejects with its error when it aborts. */
function settled(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new DOMException('The transaction was aborted.', 'AbortError'));
  });
}
