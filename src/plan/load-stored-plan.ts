/*
 * Loading the stored plan (loaded on a plan's first `hydrate()`, when it has storage): read it,
 * set aside what cannot be read, merge it with the work done meanwhile, start syncing, and save
 * from then on through one save queue. `plan-persistence.ts` holds the state this works on.
 */
import { asStorageError, StorageError } from '../errors.js';
import { EMPTY_PLAN_STATE, type PlanState } from '../plan-state.js';
import { createSaveQueue } from '../storage/save-queue.js';
import { stateToSnapshot, type PlanStorageAdapter } from '../storage/snapshot-format.js';
import { safeValidateSnapshot, snapshotToState } from '../storage/snapshot.js';
import type { PlanSyncOptions } from '../sync/plan-sync.js';
import { hydrated } from './hydrated.js';
import type { PersistenceHost, StoredRead, SyncModule } from './persistence-host.js';
import { startSyncing } from './start-syncing.js';

type WantedSync = NonNullable<ReturnType<PersistenceHost['wantedSync']>>;

/**
 * Loads the stored snapshot (see `plan.hydrate()`): a plan that cannot read it, or set it aside,
 * holds; otherwise it commits what was stored, merged with the work done meanwhile, and saves.
 *
 * @example
 * ```ts
 * import type { PersistenceHost, StoredRead } from './persistence-host.js';
 * declare const persistence: PersistenceHost;
 * declare const read: Promise<StoredRead>; // started by hydrate()
 * await loadStoredPlan(persistence, adapter, read, persistence.wantedSync());
 * ```
 */
export async function loadStoredPlan(p: PersistenceHost, storage: PlanStorageAdapter, read: Promise<StoredRead>, sync: WantedSync | undefined): Promise<void> {
  createSaves(p, storage);
  // The read started in `hydrate()`; its outcome is reported from here, after the call returned,
  // so a listener subscribed right after attachTo() hears it (a synchronous adapter throws inside it).
  const outcome = await read;
  let raw: unknown = 'raw' in outcome ? outcome.raw : undefined;
  if (outcome.error !== undefined || !('raw' in outcome)) {
    const error = asStorageError('load', outcome.error);
    p.storageError('load', error);
    if (error.raw === undefined) {
      p.hold(error);
      // A blocked IndexedDB opens once the tab holding it goes: hydrate then (and save what was done meanwhile).
      if (error.reason === 'blocked') {
        void storage.opened?.().then(() => {
          if (p.hydration === 'held') void p.hydrate();
        });
      }
      return;
    }
    if (!(await setAside(p, storage, error.raw, error.message))) return;
    raw = null;
  }
  let stored: PlanState | undefined;
  if (raw !== null && raw !== undefined) {
    const parsed = safeValidateSnapshot(raw);
    if (parsed.success) {
      for (const issue of parsed.dropped) {
        p.storageError(
          'load',
          new StorageError('storage_error', `The stored plan's ${issue.path} ${issue.message}; it was left out and the rest of the plan was kept.`, {
            operation: 'load',
          }),
        );
      }
      stored = snapshotToState(parsed.data);
    } else {
      p.storageError('load', parsed.error);
      if (!(await setAside(p, storage, raw, parsed.error.message))) return;
    }
  }
  await finishHydration(p, stored, sync && (await sync.module), sync?.options);
}

/**
 * `plan.discardStoredPlan()` once saving is held: hydrates as if storage were empty, and saves.
 *
 * @example
 * ```ts
 * import type { PersistenceHost } from './persistence-host.js';
 * declare const persistence: PersistenceHost;
 * await discardStoredPlan(persistence);
 * ```
 */
export async function discardStoredPlan(p: PersistenceHost): Promise<void> {
  p.hydration = 'loading';
  const sync = p.wantedSync();
  await finishHydration(p, undefined, sync && (await sync.module), sync?.options);
  p.saves?.request();
}

/** How many times one save is tried when other tabs' saves keep landing first (a refused write is merged and tried again). */
const MAX_CONFLICT_ATTEMPTS = 12;

/** The save queue, once: saves coalesce, never overlap, retry with backoff; an unmerged write is merged and saved again. */
function createSaves(p: PersistenceHost, storage: PlanStorageAdapter): void {
  if (p.saves) return;
  const { core } = p;
  // Errors become StorageErrors before the queue sees them: `flush()` rejects with one.
  const save = async (): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      const state = core.state;
      try {
        await storage.save(stateToSnapshot(state));
        core.sync?.announce(state);
        return;
      } catch (error) {
        // Another tab saved changes this one has not merged (the adapter refused to write over
        // them): merge them in and save the merge. Each refusal means the other tab's write
        // landed, so the tabs as a whole progress; a tab saving a burst can still win several
        // rounds in a row, so later attempts wait a random, growing pause (on the sync's timers)
        // to step out of its rhythm. Past MAX_CONFLICT_ATTEMPTS the queue's backoff takes over.
        if (!core.sync || !p.pull || attempt >= MAX_CONFLICT_ATTEMPTS || !(StorageError.isInstance(error) && error.reason === 'conflict'))
          throw asStorageError('save', error);
        if (attempt > 1) await core.sync.sleep(Math.random() * Math.min(250, 2 ** attempt));
        await p.pull().catch((failure: unknown) => {
          throw asStorageError('load', failure);
        });
      }
    }
  };
  p.saves = createSaveQueue(save, { onError: (error) => p.storageError('save', error) });
  p.saves.onStatus(() => p.statusChanged());
  if (p.closed) p.saves.close();
}

/** Commits what was stored (merged with the work done meanwhile), starts syncing, and lets saves go. */
async function finishHydration(
  p: PersistenceHost,
  stored: PlanState | undefined,
  module: SyncModule | undefined,
  wanted: (PlanSyncOptions & { key: string }) | undefined,
): Promise<void> {
  const { core } = p;
  if (module && wanted && !core.sync && !p.closed) startSyncing(p, module, wanted);
  const sync = core.sync;
  const replaced = p.replacedBeforeHydration;
  core.store.update((local) => {
    const step = stored ? hydrated(local, stored, replaced) : null;
    if (!sync || (!stored && local.todos.length + local.docs.length === 0)) return step;
    // This tab's work from before hydration is its own new writes on top of what was stored.
    const next = step?.state ?? local;
    const base = stored ?? { ...EMPTY_PLAN_STATE, sync: undefined };
    return { state: { ...next, sync: sync.stamp(base, next, replaced) }, meta: step?.meta ?? { origin: 'hydrate' } };
  });
  p.hydration = 'done';
  p.held = undefined;
  const state = core.state;
  core.events.emit('plan-hydrate', {
    todos: state.todos.map((todo) => ({ ...todo })),
    docCount: state.docs.length,
    restored: stored !== undefined,
  });
  if (p.changedBeforeHydration) p.saves?.request();
  p.statusChanged();
}

/** Sets unreadable data aside with the adapter's `backup`; when it cannot, holds saving (see `hydrate`) and says so. */
async function setAside(p: PersistenceHost, storage: PlanStorageAdapter, raw: unknown, reason: string): Promise<boolean> {
  let why = 'cannot be set aside (this storage has no backup())';
  let cause: unknown;
  if (storage.backup) {
    try {
      await storage.backup(raw, reason);
      return true;
    } catch (error) {
      why = `could not be set aside (${error instanceof Error ? error.message : String(error)})`;
      cause = error;
    }
  }
  const failure = new StorageError(
    'storage_error',
    `The unreadable stored plan ${why}; it is still stored. The plan keeps working in memory and writes nothing over it until you decide: export it (this error's raw, or the adapter's exportCorrupt()), then call plan.discardStoredPlan() to write over it; or free space (the adapter's discardCorrupt()) and call plan.hydrate() to set it aside again.`,
    { operation: 'save', raw, reason: 'backup_failed', ...(cause === undefined ? {} : { cause }) },
  );
  p.storageError('save', failure);
  p.hold(failure);
  return false;
}
