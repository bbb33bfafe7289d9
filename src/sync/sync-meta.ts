/*
 * Advancing the clocks (see README.md here): a new replica id, the stamps of a local commit, the
 * clocks of a snapshot written without them. Loaded with the rest of sync, on first use; what the
 * snapshot reader and the adapters need of the clocks is in `clock.ts`.
 */
import { nanoid } from 'nanoid';
import type { MarkdownDoc, TodoItem } from '../plan-state.js';
import {
  atClock,
  atOf,
  bornKey,
  newClock,
  readSyncMeta,
  SYNC_META_KEY,
  wantedIdOf,
  type ItemClock,
  type Stamp,
  type SyncMeta,
  type Tombstone,
} from './clock.js';

export { bornKey, compareStamps, includes, readSyncMeta, SYNC_META_KEY } from './clock.js';
export type { ItemClock, Stamp, SyncMeta, Tombstone } from './clock.js';

/**
 * The snapshot's sync meta, completed so that every todo and document has a clock: items without
 * one (or a snapshot without meta) get `[position + 1, '']`.
 *
 * @example
 * ```ts
 * const loadedSnapshot = validateSnapshot(await adapter.load());
 * const meta = syncMetaOf(loadedSnapshot);
 * ```
 */
export function syncMetaOf(snapshot: PlanItems & { readonly [SYNC_META_KEY]?: unknown }): SyncMeta {
  const stored = readSyncMeta(snapshot[SYNC_META_KEY]);
  const meta: SyncMeta = stored ? structuredClone(stored) : emptySyncMeta();
  const fill = (items: ReadonlyArray<{ id: string }>, clocks: Record<string, ItemClock>): Record<string, ItemClock> => {
    const complete: Record<string, ItemClock> = {};
    items.forEach((item, position) => {
      const clock = clocks[item.id] ?? newClock([position + 1, ''], [position + 1, '']);
      complete[item.id] = clock;
      const [lamport, replica] = atOf(clock);
      if (replica === '') meta.seen[''] = Math.max(meta.seen[''] ?? 0, lamport);
    });
    return complete;
  };
  meta.todos = fill(snapshot.todos, meta.todos);
  meta.docs = fill(snapshot.markdownDocs, meta.docs);
  return meta;
}

/**
 * Meta for an empty plan.
 *
 * `emptySyncMeta()` is what a plan with no clocks yet starts from.
 */
function emptySyncMeta(): SyncMeta {
  return { v: 1, seen: {}, generation: [0, ''], todos: {}, docs: {}, deleted: { todos: {}, docs: {} } };
}

/**
 * A new replica id for this tab's session (10 URL-safe characters). A replica must never write
 * with another replica's id; a tab may keep its id across reloads (sessionStorage) or take a new
 * one per page load.
 *
 * @example
 * ```ts
 * const replica = sessionStorage.getItem('planloop-replica') ?? createReplicaId();
 * ```
 */
export function createReplicaId(): string {
  return nanoid(10);
}

/** The todos and documents a change is made of (a snapshot has them). */
export interface PlanItems {
  readonly todos: readonly TodoItem[];
  readonly markdownDocs: readonly MarkdownDoc[];
}

/**
 * Stamps one local commit: the meta after `before` became `after` in this replica. New items are
 * born, changed items (compared field by field; unchanged objects are skipped by reference)
 * get a new `at`, removed items get a tombstone, and todos put in another order (a move) a new
 * `order`. `newGeneration` (a reset: `makeTodos`,
 * `todos.reset`, a `write_todos` replace) starts a new todo generation instead: every todo in
 * `after` is born anew, and the old todos and their tombstones are dropped.
 *
 * @example
 * ```ts
 * declare const before: PlanSnapshot, after: PlanSnapshot; // a local commit
 * const replica = createReplicaId();
 * const meta = advanceSyncMeta(syncMetaOf(before), before, after, { replica });
 * ```
 */
export function advanceSyncMeta(
  meta: SyncMeta | undefined,
  before: PlanItems,
  after: PlanItems,
  options: { replica: string; newGeneration?: boolean | undefined },
): SyncMeta {
  const { replica } = options;
  if (!replica) throw new TypeError('advanceSyncMeta: `replica` must be a non-empty replica id (createReplicaId()).');
  const next = syncMetaOf({ todos: before.todos, markdownDocs: before.markdownDocs, [SYNC_META_KEY]: meta });
  const start = lamportOf(next);
  let clock = start;
  const tick = (): number => (clock += 1);
  const stamp = (
    previous: readonly { id: string }[],
    current: readonly { id: string }[],
    clocks: Record<string, ItemClock>,
    deleted: Record<string, Tombstone>,
  ): Record<string, ItemClock> => {
    const old = new Map(previous.map((item) => [item.id, item]));
    const result: Record<string, ItemClock> = {};
    for (const item of current) {
      const was = old.get(item.id);
      const known = clocks[item.id];
      if (was && known) {
        old.delete(item.id);
        result[item.id] = sameFields(was, item) ? known : atClock(known, [tick(), replica]);
      } else {
        const born: Stamp = [tick(), replica];
        result[item.id] = newClock(born, born);
      }
    }
    for (const [id] of old) {
      const known = clocks[id];
      if (known) deleted[bornKey(known)] = [tick(), replica, wantedIdOf(known) ?? id];
    }
    return result;
  };
  if (options.newGeneration) {
    next.generation = [tick(), replica];
    next.deleted.todos = {};
    delete next.order;
    next.todos = stamp([], after.todos, {}, next.deleted.todos);
  } else {
    next.todos = stamp(before.todos, after.todos, next.todos, next.deleted.todos);
  }
  next.docs = stamp(before.markdownDocs, after.markdownDocs, next.docs, next.deleted.docs);
  if (!options.newGeneration && reordered(before.todos, after.todos)) {
    next.order = { at: [tick(), replica], keys: after.todos.map((todo) => bornKey(next.todos[todo.id] as ItemClock)) };
  }
  if (clock > start) next.seen[replica] = clock;
  return next;
}

/**
 * The highest counter a state has seen: a replica's next write is this plus one.
 *
 * @example
 * ```ts
 * declare const meta: SyncMeta;
 * const next = lamportOf(meta) + 1;
 * ```
 */
export function lamportOf(meta: SyncMeta): number {
  return Math.max(0, ...Object.values(meta.seen));
}

/** Whether the todos both lists have come in another order (a move, not a create or delete). */
function reordered(before: readonly { id: string }[], after: readonly { id: string }[]): boolean {
  const kept = new Set(after.map((item) => item.id));
  const was = before.filter((item) => kept.has(item.id));
  const still = new Set(was.map((item) => item.id));
  const now = after.filter((item) => still.has(item.id));
  return was.some((item, index) => item.id !== now[index]?.id);
}

function sameFields(a: object, b: object): boolean {
  if (a === b) return true;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) {
    const [x, y] = [left[key], right[key]];
    if (Object.is(x, y)) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}
