import { nanoid } from 'nanoid';
import { isRecord } from '../guards.js';
import type { ItemClock, MarkdownDoc, SyncMeta, TodoItem, Tombstone } from '../plan-state.js';

/**
 * The snapshot key the cross-tab clock lives under: `snapshot.sync`.
 *
 * @example
 * ```ts
 * const meta = readSyncMeta(snapshot[SYNC_META_KEY]);
 * ```
 */
export const SYNC_META_KEY = 'sync';

export type { ItemClock, Stamp, SyncMeta, Tombstone } from '../plan-state.js';

/**
 * Reads stored sync meta; `undefined` when it is absent or malformed (the snapshot is then treated
 * as one written without clocks).
 *
 * @example
 * ```ts
 * readSyncMeta(snapshot.sync)?.seen;
 * ```
 */
export function readSyncMeta(raw: unknown): SyncMeta | undefined {
  if (!isRecord(raw) || raw.v !== 1 || !isRecord(raw.deleted)) return undefined;
  const { seen, generation, todos, docs, deleted, order } = raw;
  const valid =
    isRecordOf(seen, isCounter) &&
    isTuple(generation, 2) &&
    isRecordOf(todos, isClock) &&
    isRecordOf(docs, isClock) &&
    isRecordOf(deleted.todos, isTombstone) &&
    isRecordOf(deleted.docs, isTombstone) &&
    (order === undefined || (isRecord(order) && isTuple(order.at, 2) && Array.isArray(order.keys) && order.keys.every((key) => typeof key === 'string')));
  if (!valid) return undefined;
  return structuredClone({ v: 1, seen, generation, todos, docs, deleted: { todos: deleted.todos, docs: deleted.docs }, ...(order === undefined ? {} : { order }) }) as SyncMeta;
}

// Counters stay far below 2^53, so that `+ 1` is always a new number.
const isCounter = (value: unknown): boolean => Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 2 ** 50;
/** `[counter, string, counter, string, …]` of exactly `length` (extra strings allowed up to `maxLength`). */
const isTuple = (value: unknown, length: number, maxLength = length): boolean =>
  Array.isArray(value) &&
  value.length >= length &&
  value.length <= maxLength &&
  value.every((item, index) => (index % 2 === 0 && index < 4 ? isCounter(item) : typeof item === 'string'));
const isClock = (value: unknown): boolean => isTuple(value, 4, 5);
const isTombstone = (value: unknown): boolean => Array.isArray(value) && value.length === 3 && isCounter(value[0]) && typeof value[1] === 'string' && typeof value[2] === 'string';
const isRecordOf = (value: unknown, check: (item: unknown) => boolean): boolean => isRecord(value) && Object.values(value).every(check);

/**
 * The snapshot's sync meta, completed so that every todo and document has a clock: items without
 * one (or a snapshot without meta) get `[position + 1, '']`.
 *
 * @example
 * ```ts
 * const meta = syncMetaOf(loadedSnapshot);
 * ```
 */
export function syncMetaOf(snapshot: PlanItems & { readonly [SYNC_META_KEY]?: unknown }): SyncMeta {
  const stored = readSyncMeta(snapshot[SYNC_META_KEY]);
  const meta: SyncMeta = stored ? structuredClone(stored) : emptySyncMeta();
  const fill = (items: ReadonlyArray<{ id: string }>, clocks: Record<string, ItemClock>): Record<string, ItemClock> => {
    const complete: Record<string, ItemClock> = {};
    items.forEach((item, position) => {
      complete[item.id] = clocks[item.id] ?? [position + 1, '', position + 1, ''];
      if (complete[item.id]![1] === '') meta.seen[''] = Math.max(meta.seen[''] ?? 0, complete[item.id]![0]);
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
 * @example
 * ```ts
 * const meta = emptySyncMeta();
 * ```
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
 * state.sync = advanceSyncMeta(state.sync, previous, next, { replica });
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
        result[item.id] = sameFields(was, item) ? known : withAt(known, tick(), replica);
      } else {
        const born = tick();
        result[item.id] = [born, replica, born, replica];
      }
    }
    for (const [id] of old) {
      const known = clocks[id];
      if (known) deleted[bornKey(known)] = [tick(), replica, known[4] ?? id];
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
 * const next = lamportOf(meta) + 1;
 * ```
 */
export function lamportOf(meta: SyncMeta): number {
  return Math.max(0, ...Object.values(meta.seen));
}

/**
 * Orders two stamps (counter, then replica): negative, 0 or positive.
 *
 * @example
 * ```ts
 * compareStamps([2, 'a'], [1, 'z']); // > 0
 * ```
 */
export function compareStamps(a: readonly [number, string, ...unknown[]], b: readonly [number, string, ...unknown[]]): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}

/**
 * Whether a state with `seen` includes the write stamped `[lamport, replica]`.
 *
 * @example
 * ```ts
 * includes(remote.seen, clock); // remote has seen this edit
 * ```
 */
export function includes(seen: Record<string, number>, stamp: readonly [number, string, ...unknown[]]): boolean {
  return (seen[stamp[1]] ?? 0) >= stamp[0];
}

/**
 * The key of an item's born stamp, as tombstones are keyed: `'<lamport>:<replica>'`.
 *
 * @example
 * ```ts
 * meta.deleted.todos[bornKey(meta.todos.t1)];
 * ```
 */
export function bornKey(clock: ItemClock): string {
  return `${clock[2]}:${clock[3]}`;
}

/** Whether the todos both lists have come in another order (a move, not a create or delete). */
function reordered(before: readonly { id: string }[], after: readonly { id: string }[]): boolean {
  const kept = new Set(after.map((item) => item.id));
  const was = before.filter((item) => kept.has(item.id));
  const still = new Set(was.map((item) => item.id));
  const now = after.filter((item) => still.has(item.id));
  return was.some((item, index) => item.id !== now[index]?.id);
}

function withAt(clock: ItemClock, lamport: number, replica: string): ItemClock {
  const next = [...clock] as ItemClock;
  next[0] = lamport;
  next[1] = replica;
  return next;
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
