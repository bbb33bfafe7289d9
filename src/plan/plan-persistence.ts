/*
 * The plan's persistence room, the part every plan carries: whether the stored plan has been
 * read (`hydration`), what was changed before it was, the save status, and the entry points
 * (`hydrate`, `flush`, `discardStoredPlan`, `close`). The work itself (reading, setting aside,
 * merging what was stored, the save queue) is in `load-stored-plan.ts`, loaded on the first
 * `hydrate()` of a plan that has storage: a plan without storage never loads it.
 */
import { asStorageError, StorageError } from '../errors.js';
import type { Hydration, PersistenceHost, StoredRead, SyncModule } from './persistence-host.js';
import type { PlanChangeMeta } from '../plan-state.js';
import type { PlanStorageAdapter } from '../storage/snapshot-format.js';
import type { PlanSaveStatus, SaveQueue } from '../storage/save-queue.js';
import type { PlanSyncOptions } from '../sync/plan-sync.js';
import type { PlanCore } from './plan-core.js';

const SAVED: PlanSaveStatus = Object.freeze({ state: 'saved', failures: 0, lastSaved: undefined, error: undefined });

/**
 * A plan's persistence state and entry points (see the file's header). The loaded room reads and
 * writes its fields; nothing outside `src/plan/` does.
 *
 * @example
 * ```ts
 * import { PlanCore } from './plan-core.js';
 * const core = new PlanCore();
 * const persistence = new PlanPersistence(core, adapter, undefined);
 * await persistence.hydrate();
 * ```
 */
export class PlanPersistence implements PersistenceHost {
  hydration: Hydration = 'idle';
  /** Why saving is held (hydration `held`). */
  held: StorageError | undefined;
  changedBeforeHydration = false;
  replacedBeforeHydration = false;
  /** The save queue, from the first hydration on (a plan with storage only). */
  saves: SaveQueue | undefined;
  /** Loads the stored plan again and merges it (set while the plan syncs). */
  pull: (() => Promise<void>) | undefined;
  closed = false;
  ready: Promise<void> | undefined;
  #reportedStatus = 'saved 0 undefined';

  constructor(
    readonly core: PlanCore,
    readonly storage: PlanStorageAdapter | undefined,
    readonly syncOption: boolean | PlanSyncOptions | undefined,
  ) {}

  /** Every commit, before its change events: what changed before hydration is kept and saved after it; later changes are saved. */
  committed(meta: PlanChangeMeta): void {
    if (this.hydration !== 'done' && meta.origin !== 'hydrate') {
      this.changedBeforeHydration = true;
      if (meta.todos?.type === 'reset') this.replacedBeforeHydration = true;
      this.statusChanged();
    } else if (meta.origin !== 'hydrate' && meta.origin !== 'sync') this.saves?.request();
  }

  /** `plan.saveStatus`. */
  get saveStatus(): PlanSaveStatus {
    if (!this.storage) return SAVED;
    const status = this.saves?.status ?? SAVED;
    if (this.hydration === 'held') return { ...status, state: 'held', error: this.held };
    if (this.hydration !== 'done') return { ...status, state: this.changedBeforeHydration ? 'pending' : 'saved' };
    return status;
  }

  /** `plan.hydrate()`: loads once; again only while held. */
  hydrate(): Promise<void> {
    if (this.ready && this.hydration !== 'held') return this.ready;
    this.ready = this.#load();
    return this.ready;
  }

  /** `plan.discardStoredPlan()`. */
  async discardStoredPlan(): Promise<void> {
    await this.ready;
    if (this.hydration !== 'held') return;
    const room = await this.#room();
    if (!room) return;
    await room.discardStoredPlan(this);
    await this.flush();
  }

  /** `plan.flush()`. */
  async flush(): Promise<void> {
    await (this.ready ?? this.hydrate());
    if (this.hydration === 'held' && this.changedBeforeHydration) throw this.held;
    await this.saves?.flush();
  }

  /** Stops retries and page-lifecycle listeners (see `plan.close()`). */
  close(): void {
    this.closed = true;
    this.saves?.close();
  }

  /** Emits `save-status-change` when `saveStatus` differs from the last one emitted. */
  statusChanged(): void {
    const status = this.saveStatus;
    const key = `${status.state} ${status.failures} ${status.lastSaved}`;
    if (key === this.#reportedStatus) return;
    this.#reportedStatus = key;
    this.core.events.emit('save-status-change', { status });
  }

  /** Emits `storage-error` for `error`. */
  storageError(operation: 'load' | 'save', error: unknown): void {
    this.core.events.emit('storage-error', { error: asStorageError(operation, error) });
  }

  /** Holds saving (see `hydrate`) because of `error`. */
  hold(error: StorageError): void {
    this.hydration = 'held';
    this.held = error;
    this.statusChanged();
  }

  async #load(): Promise<void> {
    const storage = this.storage;
    if (!storage) {
      this.hydration = 'done';
      return;
    }
    this.hydration = 'loading';
    this.statusChanged();
    // The read starts now, as the code that handles it (and the sync code, when the plan syncs)
    // loads: the three overlap.
    let read: Promise<StoredRead>;
    try {
      read = Promise.resolve(storage.load()).then(
        (raw) => ({ raw }),
        (error: unknown) => ({ error }),
      );
    } catch (error) {
      read = Promise.resolve({ error });
    }
    const wanted = wantedSync(this.syncOption, storage);
    const sync = wanted && this.#loadSync();
    const room = await this.#room();
    if (room) await room.loadStoredPlan(this, storage, read, wanted && { options: wanted, module: sync as Promise<SyncModule | undefined> });
    else await read;
  }

  /** The sync code (`src/sync/`), loaded on first use; `undefined`, with a warning, when it cannot load. */
  #loadSync(): Promise<SyncModule | undefined> {
    return import('../sync/plan-sync.js').catch((error: unknown) => {
      this.core.events.emit('plan-warning', {
        code: 'sync_unavailable',
        message: `Cross-tab sync could not load (${error instanceof Error ? error.message : String(error)}); this plan does not sync with other tabs.`,
      });
      return undefined;
    });
  }

  /** The sync to start when the plan hydrates (see `load-stored-plan.ts`): its options and its code, or `undefined`. */
  wantedSync(): { options: PlanSyncOptions & { key: string }; module: Promise<SyncModule | undefined> } | undefined {
    const options = this.storage && wantedSync(this.syncOption, this.storage);
    return options && { options, module: this.#loadSync() };
  }

  /** The loading room, on first use; when it cannot load (offline, a failed chunk), the plan holds, as for unreachable storage. */
  #room(): Promise<typeof import('./deferred-rooms.js') | undefined> {
    return import('./deferred-rooms.js').catch((error: unknown) => {
      const failure = new StorageError(
        'storage_error',
        `The plan's storage code could not load (${error instanceof Error ? error.message : String(error)}); the plan works in memory and writes nothing. Call plan.hydrate() to try again.`,
        { operation: 'load', reason: 'unavailable', cause: error },
      );
      this.storageError('load', failure);
      this.hold(failure);
      return undefined;
    });
  }
}

/** Sync options when the plan should sync (see `PlanConfig.sync`), else `undefined`. */
function wantedSync(option: boolean | PlanSyncOptions | undefined, storage: PlanStorageAdapter): (PlanSyncOptions & { key: string }) | undefined {
  const key = (typeof option === 'object' && option.key) || storage.syncKey;
  if (option === false || !key) return undefined;
  const global = globalThis as { BroadcastChannel?: unknown; addEventListener?: unknown };
  if (option === undefined && typeof global.BroadcastChannel !== 'function' && typeof global.addEventListener !== 'function') return undefined;
  return { ...(typeof option === 'object' ? option : {}), key };
}
