import type { MarkdownDoc, PlanChangeMeta, PlanState, TodoItem } from '../plan-state.js';
import { mergePlanSnapshots, type MergeConflict } from './merge-plan-snapshots.js';
import { createPlanChannel, type BroadcastChannelLike } from './plan-channel.js';
import { createRunLease, type LockManagerLike, type RunLease } from './run-lease.js';
import { snapshotToState, stateToSnapshot, type PlanSnapshot } from '../storage/snapshot.js';
import { bornKey, compareStamps, type SyncMeta } from './clock.js';
import { advanceSyncMeta, createReplicaId } from './sync-meta.js';

/**
 * How a plan syncs with the other tabs of its origin (`new Plan({ sync })`). Every part is read
 * when the plan hydrates, never at import time, and each can be injected (tests, iframes).
 *
 * @example
 * ```ts
 * const plan = new Plan({ storage: createLocalStorageAdapter({ key: 'tour' }), sync: { leaseTtlMs: 20_000 } });
 * ```
 */
export interface PlanSyncOptions {
  /** The name tabs share the plan under. Default: the adapter's `syncKey`. */
  key?: string | undefined;
  /** The BroadcastChannel constructor; `null` uses storage events only. Default `globalThis.BroadcastChannel`. */
  BroadcastChannel?: BroadcastChannelLike | null | undefined;
  /** Where the storage-event fallback and the fallback run lease write. Default `globalThis.localStorage`. */
  storage?: Storage | null | undefined;
  /** Where `storage` events arrive. Default `globalThis` when it is an event target (a window). */
  events?: EventTarget | null | undefined;
  /** Web Locks for the run lease; `null` uses the localStorage lease. Default `navigator.locks`. */
  locks?: LockManagerLike | null | undefined;
  /** Fallback run lease: how long a tab that stopped renewing (crashed) keeps it. Default 10 s. */
  leaseTtlMs?: number | undefined;
  /** How long `takeOver` waits for the running tab to stop before taking its lease by force. Default 2000 ms. */
  takeOverWaitMs?: number | undefined;
  /** The clock of the run lease and the takeover (ms since the epoch). Default `Date.now`. */
  now?: (() => number) | undefined;
  /** The timers of the run lease (renewal, settling) and the takeover (polling). Default the global `setTimeout` / `clearTimeout`. */
  timers?: { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void } | undefined;
}

/**
 * A todo a transaction wrote: `maker` (its born stamp, `'<lamport>:<replica>'`, or its id when it
 * has none), and the todo before and after.
 *
 * @example
 * ```ts
 * const before = plan.todos.get('t2')!;
 * const write: TodoWrite = { maker: '4:k3f9a01x', id: 't2', before, after: { ...before, status: 'completed' } };
 * ```
 */
export interface TodoWrite {
  maker: string;
  id: string;
  before: TodoItem;
  after: TodoItem;
}

/**
 * What a merge of the stored plan into this tab's state gives the plan.
 *
 * @example
 * ```ts
 * const sync = startPlanSync({ key: 'tour', onChange: () => {}, onHolder: () => {} });
 * const stored = validateSnapshot(await adapter.load());
 * const { step, conflicts, behind } = sync.merge(plan.state, stored);
 * ```
 */
export interface SyncMerge {
  /** The commit to make, `null` when the stored plan adds nothing here. */
  step: { state: PlanState; meta: PlanChangeMeta } | null;
  /** Everything the merge dropped or renamed, for `sync-conflict` events. */
  conflicts: MergeConflict[];
  /** Storage lacks something this tab has: save. */
  behind: boolean;
}

/**
 * One plan's link to the other tabs: its replica id, its clocks, its channel and run lease. See {@link startPlanSync}.
 *
 * @example
 * ```ts
 * declare const sync: PlanSync;
 * declare const previous: PlanState, state: PlanState; // a local commit
 * const next = { ...state, sync: sync.stamp(previous, state, false) };
 * ```
 */
export interface PlanSync {
  readonly replica: string;
  readonly lease: RunLease;
  readonly takeOverWaitMs: number;
  /** The injected clock (see `PlanSyncOptions.now`). */
  now(): number;
  /** Resolves after `ms` on the injected timers (see `PlanSyncOptions.timers`). */
  sleep(ms: number): Promise<void>;
  /** The clocks after the local commit `previous` → `next` (`newGeneration` for a replan or reset). */
  stamp(previous: PlanState, next: PlanState, newGeneration: boolean): SyncMeta;
  /** Merges the stored plan (parsed; `null` when storage holds none) into `local`. */
  merge(local: PlanState, remote: PlanSnapshot | null): SyncMerge;
  /**
   * Undoes a transaction's own writes (`writes`: each todo as it was before the transaction wrote
   * it, and as the transaction left it) in `state`: a field keeps a newer value written since
   * (here or in another tab), and goes back where it still holds the transaction's. Todos are
   * found by who made them, whatever id a merge gave them since. `null` when nothing is left to undo.
   */
  revert(state: PlanState, writes: Iterable<TodoWrite>): PlanState | null;
  /** Who made the todo `id` in `state` (the key of its born stamp; the id for a todo without a clock): a {@link TodoWrite}'s `maker`. */
  makerOf(state: PlanState, id: string): string;
  /** Tells the other tabs that `state` was saved. */
  announce(state: PlanState): void;
  /**
   * Whether `replica` said it gave up the run lease and `state` has everything it announced
   * saving: after a takeover, the new holder waits for this before its first turn.
   */
  caughtUp(replica: string, state: PlanState): boolean;
  /** Stops listening to the other tabs and gives up a held run lease; stamping and merging still work. */
  close(): Promise<void>;
}

/**
 * Links a plan to the other tabs on `key`: a new replica id for this page's life, the plan channel
 * (`onChange` when another tab saved), and the run lease (`onHolder` when another tab takes or
 * gives it up). Loaded by `Plan` when it hydrates with sync on, so a page that does not sync never
 * loads the merge.
 *
 * @example
 * ```ts
 * const sync = startPlanSync({
 *   key: 'tour',
 *   onChange: (from, revision) => console.log(`tab ${from} saved revision ${revision}`),
 *   onHolder: (holder) => console.log(holder ? `${holder} runs the agent` : 'no tab runs the agent'),
 * });
 * declare const previous: PlanState, next: PlanState; // a local commit
 * const state = { ...next, sync: sync.stamp(previous, next, false) };
 * ```
 */
export function startPlanSync(
  options: PlanSyncOptions & { key: string; onChange: (from: string, revision: number) => void; onHolder: (holder: string | null) => void },
): PlanSync {
  const { key } = options;
  const replica = createReplicaId();
  const channel = createPlanChannel({ key, replica, BroadcastChannel: options.BroadcastChannel, storage: options.storage, events: options.events });
  const now = options.now ?? Date.now;
  const timers = options.timers ?? {
    setTimeout: (run: () => void, ms: number): unknown => globalThis.setTimeout(run, ms),
    clearTimeout: (handle: unknown) => globalThis.clearTimeout(handle as number),
  };
  const lease = createRunLease({ key, replica, channel, locks: options.locks, storage: options.storage, ttlMs: options.leaseTtlMs, now, timers });
  /** The last write counter each replica announced saving, and the replicas that last said they let the lease go. */
  const announced = new Map<string, number>();
  const letGo = new Set<string>();
  const offChannel = channel.onMessage((message) => {
    if (message.type !== 'changed') return;
    if (message.from) announced.set(message.from, Math.max(announced.get(message.from) ?? 0, message.revision));
    options.onChange(message.from, message.revision);
  });
  const offHolder = lease.onHolderChange((holder, from) => {
    if (holder === null) letGo.add(from);
    else letGo.delete(holder);
    options.onHolder(holder);
  });
  const items = (state: PlanState) => ({ todos: state.todos, markdownDocs: state.docs });

  return {
    replica,
    lease,
    takeOverWaitMs: options.takeOverWaitMs ?? 2000,
    now,
    sleep: (ms) => new Promise((resolve) => void timers.setTimeout(resolve, ms)),
    stamp: (previous, next, newGeneration) => advanceSyncMeta(previous.sync, items(previous), items(next), { replica, newGeneration }),
    merge(local, remote) {
      if (!remote) return { step: null, conflicts: [], behind: local.todos.length + local.docs.length > 0 };
      const { merged, conflicts, changed } = mergePlanSnapshots(stateToSnapshot(local), remote);
      if (!changed.local) return { step: null, conflicts, behind: changed.remote };
      const next = snapshotToState(merged);
      // Items the merge left as they were keep their objects: a UI (and the next stamp) tells
      // what changed by identity.
      const todos = reuse(local.todos, next.todos);
      const docs = reuse(local.docs, next.docs);
      const replanned = compareStamps(local.sync?.generation ?? [0, ''], (merged.sync as SyncMeta).generation) !== 0;
      const state: PlanState = {
        ...local,
        todos,
        docs,
        summary: next.summary,
        task: next.task,
        lastIds: { todos: Math.max(local.lastIds.todos, next.lastIds.todos), markdown: Math.max(local.lastIds.markdown, next.lastIds.markdown) },
        extras: next.extras,
        sync: next.sync,
      };
      const meta: PlanChangeMeta = {
        origin: 'sync',
        ...(todos !== local.todos ? { todos: { type: replanned ? ('reset' as const) : ('sync' as const), items: todos.map(copy) } } : {}),
        ...(docs !== local.docs ? { markdown: { type: 'sync' as const, docs: docs.map(copy) } } : {}),
      };
      return { step: { state, meta }, conflicts, behind: changed.remote };
    },
    makerOf(state, id) {
      const clock = state.sync?.todos[id];
      return clock ? bornKey(clock) : id;
    },
    revert(state, writes) {
      const byMaker = new Map(Object.entries(state.sync?.todos ?? {}).map(([id, clock]) => [bornKey(clock), id]));
      let todos = state.todos;
      for (const { maker, id, before, after } of writes) {
        const index = todos.findIndex((todo) => todo.id === (byMaker.get(maker) ?? id));
        const current = todos[index];
        if (!current) continue;
        const [was, wrote, now] = [before, after, current] as unknown as Array<Record<string, unknown>>;
        const restored: Record<string, unknown> = { ...now };
        for (const field of new Set([...Object.keys(was!), ...Object.keys(wrote!)])) {
          if (field === 'id' || !Object.is(now![field], wrote![field]) || Object.is(wrote![field], was![field])) continue;
          if (was![field] === undefined) delete restored[field];
          else restored[field] = was![field];
        }
        if (sameValues(restored, current)) continue;
        if (todos === state.todos) todos = [...todos];
        (todos as TodoItem[])[index] = Object.freeze(restored as unknown as TodoItem);
      }
      return todos === state.todos ? null : { ...state, todos };
    },
    announce(state) {
      channel.post({ type: 'changed', from: replica, revision: state.sync?.seen[replica] ?? 0 });
    },
    caughtUp: (other, state) => letGo.has(other) && (state.sync?.seen[other] ?? 0) >= (announced.get(other) ?? 0),
    async close() {
      offChannel();
      offHolder();
      channel.close();
      await lease.close();
    },
  };
}

/** `next` with the objects of `previous` where an item is unchanged; `previous` itself when nothing changed. */
function reuse<T extends TodoItem | MarkdownDoc>(previous: readonly T[], next: readonly T[]): readonly T[] {
  const byId = new Map(previous.map((item) => [item.id, item]));
  const result = next.map((item) => {
    const old = byId.get(item.id);
    return old && sameValues(old, item) ? old : item;
  });
  return result.length === previous.length && result.every((item, index) => item === previous[index]) ? previous : result;
}

function sameValues(a: object, b: object): boolean {
  const [left, right] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => Object.is(left[key], right[key]));
}

const copy = <T extends object>(item: T): T => ({ ...item });
