/*
 * What the rooms loaded on first use (`load-stored-plan.ts`, `start-syncing.ts`, `run-control.ts`)
 * need of the persistence room (`plan-persistence.ts`, which implements it), so that they do not
 * import the file that loads them. Types only: no code of its own in any chunk.
 */
import type { StorageError } from '../errors.js';
import type { PlanStorageAdapter } from '../storage/snapshot-format.js';
import type { SaveQueue } from '../storage/save-queue.js';
import type { PlanSyncOptions } from '../sync/plan-sync.js';
import type { PlanCore } from './plan-core.js';

/** `held`: the stored plan could not be read, or could not be set aside: nothing is written until `hydrate()` succeeds or `discardStoredPlan()`. */
export type Hydration = 'idle' | 'loading' | 'done' | 'held';

/**
 * A plan's persistence state and the operations the loaded rooms call (see `PlanPersistence`).
 *
 * @example
 * ```ts
 * declare const host: PersistenceHost;
 * if (host.hydration === 'held') await host.hydrate();
 * ```
 */
export interface PersistenceHost {
  readonly core: PlanCore;
  readonly storage: PlanStorageAdapter | undefined;
  hydration: Hydration;
  held: StorageError | undefined;
  changedBeforeHydration: boolean;
  replacedBeforeHydration: boolean;
  saves: SaveQueue | undefined;
  pull: (() => Promise<void>) | undefined;
  readonly closed: boolean;
  hydrate(): Promise<void>;
  flush(): Promise<void>;
  statusChanged(): void;
  storageError(operation: 'load' | 'save', error: unknown): void;
  hold(error: StorageError): void;
  wantedSync(): { options: PlanSyncOptions & { key: string }; module: Promise<SyncModule | undefined> } | undefined;
}

/** What `storage.load()` gave: the stored value, or what it threw. */
export type StoredRead = { raw: unknown; error?: undefined } | { error: unknown };

/** The sync code's module (`src/sync/plan-sync.ts`), loaded on first use. */
export type SyncModule = typeof import('../sync/plan-sync.js');
