/*
 * The plan's side of cross-tab sync (the protocol is in `src/sync/README.md`): starting it when
 * the plan hydrates, and pulling, loading the stored plan and merging it in, whenever another tab
 * says it saved (or a save was refused as unmerged). Loaded with the persistence room.
 */
import type { PlanSnapshot } from '../storage/snapshot-format.js';
import { safeValidateSnapshot } from '../storage/snapshot.js';
import type { PlanSync, PlanSyncOptions } from '../sync/plan-sync.js';
import type { PersistenceHost, SyncModule } from './persistence-host.js';

/**
 * Links the plan to the other tabs under `options.key`: its commits are stamped from now on
 * (`core.sync`), and another tab's save is pulled in (once per burst of notices).
 *
 * @example
 * ```ts
 * import type { PersistenceHost } from './persistence-host.js';
 * declare const persistence: PersistenceHost;
 * startSyncing(persistence, await import('../sync/plan-sync.js'), { key: 'tour' });
 * ```
 */
export function startSyncing(p: PersistenceHost, module: SyncModule, options: PlanSyncOptions & { key: string }): void {
  const { core } = p;
  let pulling: Promise<void> | undefined;
  let again = false;
  const pull = (): Promise<void> => pullStored(p, sync);
  // Pulls once per notice burst: notices that arrive while a pull runs make one more.
  const schedulePull = (): void => {
    if (p.closed) return;
    if (pulling) {
      again = true;
      return;
    }
    pulling = (async () => {
      do {
        again = false;
        try {
          await pull();
        } catch (error) {
          p.storageError('load', error);
        }
      } while (again);
      pulling = undefined;
    })();
  };
  const sync = module.startPlanSync({
    ...options,
    onChange: schedulePull,
    onHolder: (holder) => core.events.emit('run-holder-change', { holder, self: false }),
  });
  core.sync = sync;
  p.pull = pull;
}

/** Loads the stored plan and merges it in (another tab saved): conflicts become `sync-conflict`; a merge storage lacks is saved. */
async function pullStored(p: PersistenceHost, sync: PlanSync): Promise<void> {
  const { core, storage } = p;
  if (!storage) return;
  const raw = await storage.load();
  let remote: PlanSnapshot | null = null;
  if (raw !== null && raw !== undefined) {
    const parsed = safeValidateSnapshot(raw);
    if (!parsed.success) throw parsed.error;
    remote = parsed.data;
  }
  let merge: ReturnType<PlanSync['merge']> = { step: null, conflicts: [], behind: false };
  const before = core.state.todos;
  // Merged at commit time, so that a change made while the load ran is merged too.
  core.store.update((state) => (merge = sync.merge(state, remote)).step);
  for (const conflict of merge.conflicts) core.events.emit('sync-conflict', { conflict });
  if (core.state.todos !== before) core.planUpdate('sync');
  if (merge.behind) p.saves?.request();
}
