/*
 * The stored format (`PlanSnapshot`), what an adapter must do with it (`PlanStorageAdapter`), and
 * how a plan's state becomes one (`stateToSnapshot`, for every save). Reading a stored snapshot
 * back (validation, migration) is in `snapshot.ts`, loaded with hydration.
 */
import type { MarkdownDoc, PlanState, TodoItem } from '../plan-state.js';
import type { SyncMeta } from '../sync/clock.js';

/**
 * The snapshot format this version writes. Older formats are migrated on load.
 *
 * @example
 * ```ts
 * const snapshot = plan.snapshot();
 * const stale = (snapshot.version ?? 0) < SNAPSHOT_VERSION;
 * ```
 */
export const SNAPSHOT_VERSION = 1;

/**
 * Everything a plan persists. Extra keys are kept as they are.
 *
 * @example
 * ```ts
 * const snapshot: PlanSnapshot = { version: 1, todos: [], markdownDocs: [] };
 * ```
 */
export interface PlanSnapshot {
  version?: number;
  todos: TodoItem[];
  markdownDocs: MarkdownDoc[];
  /** The highest ids ever handed out, so deleted ids stay retired across reloads. */
  lastIds?: { todos: number; markdown: number };
  /** The one-sentence summary of the plan the todos came from (`makeTodos`), when there is one. */
  taskSummary?: string;
  /** The user's task the todos were planned for, when known. */
  task?: string;
  /** The clocks tabs merge by (see `SyncMeta`), when the plan that saved it synced with other tabs. */
  sync?: SyncMeta;
  [extra: string]: unknown;
}

/**
 * Where a plan persists. `load` may return the stored value unvalidated: the plan validates it.
 * `backup` (optional) keeps unusable stored data aside before the plan writes over it; without it
 * (or when it throws) the plan never writes over that data until the host decides (see
 * `plan.discardStoredPlan()`). `opened` (optional) resolves once storage that failed to open
 * with reason `blocked` opens: the plan then hydrates again. `syncKey` (optional) names the
 * storage for other tabs of the origin that share it: the plan syncs with them under that key
 * (the localStorage and IndexedDB adapters set it), and `save` must then refuse unmerged writes.
 *
 * @example
 * ```ts
 * const storage: PlanStorageAdapter = {
 *   load: () => JSON.parse(sessionStorage.getItem('plan') ?? 'null'),
 *   save: (snapshot) => sessionStorage.setItem('plan', JSON.stringify(snapshot)),
 * };
 * ```
 */
export interface PlanStorageAdapter {
  load(): Promise<PlanSnapshot | null> | PlanSnapshot | null;
  /**
   * Writes `snapshot`. An adapter with a `syncKey` must refuse (throw a `StorageError` with
   * reason `conflict`, writing nothing) a snapshot that has not seen the stored one: one whose
   * `sync.seen` has a lower counter than the stored `sync.seen` for some replica (use
   * `refuseUnmerged` from `src/sync/sync-guard.ts`, reading the stored value in the same
   * transaction as the write). The plan then loads, merges and saves again. See `src/sync/README.md`.
   */
  save(snapshot: PlanSnapshot): Promise<void> | void;
  backup?(raw: unknown, reason: string): Promise<void> | void;
  opened?(): Promise<void>;
  readonly syncKey?: string | undefined;
}

/**
 * The snapshot that stores `state`: what `plan.snapshot()` returns and adapters save.
 *
 * @example
 * ```ts
 * await adapter.save(stateToSnapshot(plan.state));
 * ```
 */
export function stateToSnapshot(state: PlanState): PlanSnapshot {
  return {
    ...cloneExtras(state.extras),
    version: SNAPSHOT_VERSION,
    todos: state.todos.map((todo) => ({ ...todo })),
    markdownDocs: state.docs.map((doc) => ({ ...doc })),
    lastIds: { todos: state.lastIds.todos, markdown: state.lastIds.markdown },
    ...(state.summary ? { taskSummary: state.summary } : {}),
    ...(state.task ? { task: state.task } : {}),
    ...(state.sync ? { sync: structuredClone(state.sync) } : {}),
  };
}

/** A deep copy of the stored snapshot's extra keys where they can be cloned, else a shallow one. */
function cloneExtras(extras: Readonly<Record<string, unknown>>): Record<string, unknown> {
  try {
    return structuredClone(extras) as Record<string, unknown>;
  } catch {
    return { ...extras };
  }
}
