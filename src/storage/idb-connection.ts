import { StorageError } from '../errors.js';

/** Options of {@link createIdbConnection}. */
export interface IdbConnectionOptions {
  /** The IndexedDB factory, resolved when a connection is first needed. */
  factory: () => IDBFactory;
  database: string;
  objectStore: string;
  /** How long an operation waits for the database to open before failing with reason `blocked`. */
  openTimeoutMs: number;
  /** Backoff between attempts to open after an open failed: `initialMs` doubling to `maxMs`. */
  retry: { initialMs: number; maxMs: number };
  timers: { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void };
}

/** One lazily opened, self-healing connection to one object store. See {@link createIdbConnection}. */
export interface IdbConnection {
  /**
   * Runs `body` in a transaction on the object store. Fails with reason `blocked` when the database
   * does not open within the timeout (the open carries on, and a later call can succeed).
   */
  transaction<T>(operation: 'load' | 'save', mode: IDBTransactionMode, body: (store: IDBObjectStore, tx: IDBTransaction) => Promise<T>): Promise<T>;
  /** Resolves once the database is open, however long that takes (retrying failed opens with backoff). */
  opened(): Promise<void>;
  /** Closes the connection and stops retrying; a later transaction opens again. */
  close(): void;
}

/**
 * Opens an IndexedDB database the way a long-lived page needs it, which idb-keyval's `createStore`
 * does not: an open that does not answer (another tab holds an older version open while an upgrade
 * waits) fails the operation after `openTimeoutMs` with reason `blocked`, while the open itself
 * carries on and is used once it succeeds; a failed open is retried with backoff; on
 * `versionchange` (another tab upgrades or deletes the database) the connection closes at once so
 * it never blocks them, and the next operation reopens, recreating a deleted database; and a
 * database that exists without the object store gets it in an upgrade.
 *
 * @example
 * ```ts
 * const retry = { initialMs: 100, maxMs: 5000 };
 * const timers = { setTimeout: (run: () => void, ms: number) => setTimeout(run, ms), clearTimeout: (handle: unknown) => clearTimeout(handle as number) };
 * const connection = createIdbConnection({ factory: () => indexedDB, database: 'planloop', objectStore: 'plans', openTimeoutMs: 3000, retry, timers });
 * const value = await connection.transaction('load', 'readonly', (store) => new Promise((resolve, reject) => {
 *   const request = store.get('plan');
 *   request.onsuccess = () => resolve(request.result);
 *   request.onerror = () => reject(request.error);
 * }));
 * ```
 */
export function createIdbConnection(options: IdbConnectionOptions): IdbConnection {
  const { database, objectStore, timers } = options;
  let db: IDBDatabase | undefined;
  let opening: Promise<IDBDatabase> | undefined;
  let failures = 0;
  let retryTimer: unknown;
  let closed = false;
  const waiting = new Set<() => void>();

  const drop = (connection: IDBDatabase): void => {
    if (db === connection) db = undefined;
  };
  const adopt = (connection: IDBDatabase): IDBDatabase => {
    // Another tab wants to upgrade or delete the database: step aside rather than block it.
    connection.onversionchange = () => {
      connection.close();
      drop(connection);
    };
    // The browser closed the connection (site data cleared, disk error).
    connection.onclose = () => drop(connection);
    if (closed) {
      connection.close();
      return connection;
    }
    db = connection;
    failures = 0;
    for (const resolve of [...waiting]) resolve();
    waiting.clear();
    return connection;
  };

  const openOnce = (): Promise<IDBDatabase> =>
    new Promise((resolve, reject) => {
      const factory = options.factory();
      const request = factory.open(database);
      request.onupgradeneeded = () => request.result.createObjectStore(objectStore);
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const connection = request.result;
        if (connection.objectStoreNames.contains(objectStore)) return resolve(connection);
        // The database exists without our object store (made by other code): add it in an upgrade.
        const version = connection.version + 1;
        connection.close();
        const upgrade = factory.open(database, version);
        upgrade.onupgradeneeded = () => {
          if (!upgrade.result.objectStoreNames.contains(objectStore)) upgrade.result.createObjectStore(objectStore);
        };
        upgrade.onerror = () => reject(upgrade.error);
        upgrade.onsuccess = () => resolve(upgrade.result);
      };
    });

  const open = (): Promise<IDBDatabase> => {
    if (db) return Promise.resolve(db);
    if (!opening) {
      let attempt: Promise<IDBDatabase>;
      try {
        attempt = openOnce();
      } catch (error) {
        // Some browsers throw from indexedDB.open itself (Firefox private mode, a sandboxed frame).
        attempt = Promise.reject(error);
      }
      opening = attempt.then(
        (connection) => {
          opening = undefined;
          return adopt(connection);
        },
        (error: unknown) => {
          opening = undefined;
          failures += 1;
          scheduleRetry();
          throw error;
        },
      );
      opening.catch(() => {});
    }
    return opening;
  };

  const scheduleRetry = (): void => {
    if (closed || retryTimer !== undefined || waiting.size === 0) return;
    const delay = Math.min(options.retry.maxMs, options.retry.initialMs * 2 ** (failures - 1));
    retryTimer = timers.setTimeout(() => {
      retryTimer = undefined;
      if (!closed && !db) open().catch(() => {});
    }, delay);
  };

  const connect = (operation: 'load' | 'save'): Promise<IDBDatabase> => {
    closed = false;
    if (db) return Promise.resolve(db);
    const pending = open();
    return new Promise((resolve, reject) => {
      const timer = timers.setTimeout(() => {
        reject(
          new StorageError(
            'storage_error',
            `IndexedDB database "${database}" did not open within ${options.openTimeoutMs} ms (blocked: another tab has an older version open while an upgrade waits, or the browser does not answer). The plan keeps working in memory; the open carries on and a later save can succeed.`,
            { operation, reason: 'blocked' },
          ),
        );
      }, options.openTimeoutMs);
      pending.then(
        (connection) => {
          timers.clearTimeout(timer);
          resolve(connection);
        },
        (error: unknown) => {
          timers.clearTimeout(timer);
          reject(error);
        },
      );
    });
  };

  return {
    async transaction(operation, mode, body) {
      for (let attempt = 0; ; attempt++) {
        const connection = await connect(operation);
        let tx: IDBTransaction;
        try {
          tx = connection.transaction(objectStore, mode);
        } catch (error) {
          // InvalidStateError: the connection closed under us (versionchange, data cleared);
          // NotFoundError: the database was recreated without our store. Reopen once.
          drop(connection);
          if (attempt === 0) continue;
          throw error;
        }
        return body(tx.objectStore(objectStore), tx);
      }
    },
    opened() {
      closed = false;
      if (db) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiting.add(resolve);
        open().catch(() => {});
      });
    },
    close() {
      closed = true;
      if (retryTimer !== undefined) timers.clearTimeout(retryTimer);
      retryTimer = undefined;
      db?.close();
      db = undefined;
    },
  };
}
