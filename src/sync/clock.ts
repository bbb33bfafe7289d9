/*
 * The clocks of cross-tab sync (the protocol is in README.md here): their types, the named parts
 * of a clock, how stamps compare, and the reader of stored clocks. Small and free of the merge, so
 * that the snapshot reader and the storage adapters (which refuse unmerged writes) can use it
 * without loading the rest of sync.
 *
 * Clocks are stored as arrays (a snapshot carries one per item; arrays keep it small and are the
 * format 0.1 wrote), but code reads and builds them only through the functions here
 * (`atOf`, `bornOf`, `bornKey`, `wantedIdOf`, `newClock`, `atClock`): no other file indexes one.
 */
import { isRecord } from '../guards.js';

/** A Lamport stamp: `[counter, replica]`. Stamps order by counter, then replica (plain string order). */
export type Stamp = [lamport: number, replica: string];

/**
 * The clock of one live todo or document:
 * `[atLamport, atReplica, bornLamport, bornReplica]`, plus the id it was created with when a merge
 * gave it another one (`[..., wantedId]`). `at` is the write that made the item what it is (its
 * create or last edit); `born` is its create, which identifies the item even when two tabs create
 * the same id.
 */
export type ItemClock = [number, string, number, string] | [number, string, number, string, string];

/** A delete: `[lamport, replica, wantedId]`, keyed by the born stamp of what it deleted (`'<lamport>:<replica>'`). */
export type Tombstone = [number, string, string];

/**
 * Per-item clocks that let two tabs' plans merge without losing changes (stored under
 * `snapshot.sync`, version `v: 1`):
 *
 * - `seen`: for each replica (a tab's session), the highest counter of its writes this state
 *   includes. A write `[n, r]` is included iff `seen[r] >= n`: merges take whole states, so a
 *   state with a replica's write `n` has all of that replica's earlier writes.
 * - `generation`: the stamp of the reset that started the current todo list (`makeTodos`,
 *   `todos.reset`); `[0, '']` for a list never reset. A newer generation replaces the todos of an
 *   older one whole, so a replan in one tab never brings back the old plan's todos from another.
 * - `todos` / `docs`: an {@link ItemClock} per live item id.
 * - `deleted.todos` / `deleted.docs`: a {@link Tombstone} per deleted item (todo tombstones are
 *   dropped with their generation).
 * - `order` (optional): the last reorder of the todo list in this generation (`todos.move`):
 *   when, and the todos in that order by born stamp (`'<lamport>:<replica>'`). The newer reorder
 *   wins; todos it does not name follow in creation order. Without it the list is in creation order.
 *
 * The replica `''` stands for items that came without clocks (a snapshot written before this
 * format): their stamps are `[position + 1, '']`, the same in every tab that reads that snapshot.
 *
 * @example
 * ```ts
 * const meta: SyncMeta = {
 *   v: 1, seen: { k3f9a01x: 4 }, generation: [1, 'k3f9a01x'],
 *   todos: { t1: [4, 'k3f9a01x', 2, 'k3f9a01x'] }, docs: {}, deleted: { todos: {}, docs: {} },
 * };
 * ```
 */
export interface SyncMeta {
  v: 1;
  seen: Record<string, number>;
  generation: Stamp;
  todos: Record<string, ItemClock>;
  docs: Record<string, ItemClock>;
  deleted: { todos: Record<string, Tombstone>; docs: Record<string, Tombstone> };
  order?: { at: Stamp; keys: string[] };
}

/**
 * The snapshot key the cross-tab clock lives under: `snapshot.sync`.
 *
 * @example
 * ```ts
 * const snapshot = plan.snapshot();
 * const meta = readSyncMeta(snapshot[SYNC_META_KEY]);
 * ```
 */
export const SYNC_META_KEY = 'sync';

/**
 * Reads stored sync meta; `undefined` when it is absent or malformed (the snapshot is then treated
 * as one written without clocks).
 *
 * @example
 * ```ts
 * readSyncMeta(plan.snapshot().sync)?.seen;
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
  return structuredClone({
    v: 1,
    seen,
    generation,
    todos,
    docs,
    deleted: { todos: deleted.todos, docs: deleted.docs },
    ...(order === undefined ? {} : { order }),
  }) as SyncMeta;
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
const isTombstone = (value: unknown): boolean =>
  Array.isArray(value) && value.length === 3 && isCounter(value[0]) && typeof value[1] === 'string' && typeof value[2] === 'string';
const isRecordOf = (value: unknown, check: (item: unknown) => boolean): boolean => isRecord(value) && Object.values(value).every(check);

/**
 * When an item was last written (its create or last edit).
 *
 * @example
 * ```ts
 * declare const local: SyncMeta, remote: SyncMeta;
 * const clock = local.todos.t1!;
 * includes(remote.seen, atOf(clock)); // remote has this edit
 * ```
 */
export function atOf(clock: ItemClock): Stamp {
  return [clock[0], clock[1]];
}

/**
 * When, and by which replica, an item was created: who it is, whatever id it has now.
 *
 * @example
 * ```ts
 * declare const meta: SyncMeta;
 * const [a, b] = [meta.todos.t1!, meta.todos.t2!];
 * compareStamps(bornOf(a), bornOf(b)); // the older item first
 * ```
 */
export function bornOf(clock: ItemClock): Stamp {
  return [clock[2], clock[3]];
}

/**
 * The id an item was created with, when a merge gave it another one; else `undefined`.
 *
 * @example
 * ```ts
 * declare const meta: SyncMeta;
 * const id = 't1';
 * const wanted = wantedIdOf(meta.todos[id]!) ?? id;
 * ```
 */
export function wantedIdOf(clock: ItemClock): string | undefined {
  return clock[4];
}

/**
 * A clock written at `at` for an item born at `born` (and created as `wantedId`, when it now has another id).
 *
 * @example
 * ```ts
 * const replica = 'k3f9a01x';
 * const clock = newClock([5, replica], [5, replica]); // a create
 * ```
 */
export function newClock(at: Stamp, born: Stamp, wantedId?: string): ItemClock {
  return wantedId === undefined ? [at[0], at[1], born[0], born[1]] : [at[0], at[1], born[0], born[1], wantedId];
}

/**
 * `clock` written again at `at` (an edit): same item, same wanted id.
 *
 * @example
 * ```ts
 * declare const meta: SyncMeta;
 * const [id, replica, lamport] = ['t1', 'k3f9a01x', 6];
 * meta.todos[id] = atClock(meta.todos[id]!, [lamport, replica]);
 * ```
 */
export function atClock(clock: ItemClock, at: Stamp): ItemClock {
  return newClock(at, bornOf(clock), wantedIdOf(clock));
}

/**
 * When a todo or document was deleted, and the id it was created with.
 *
 * @example
 * ```ts
 * declare const meta: SyncMeta;
 * const key = '2:k3f9a01x'; // the deleted todo's born stamp
 * const { at, wantedId } = tombstoneOf(meta.deleted.todos[key]!);
 * ```
 */
export function tombstoneOf(tombstone: Tombstone): { at: Stamp; wantedId: string } {
  return { at: [tombstone[0], tombstone[1]], wantedId: tombstone[2] };
}

/**
 * Orders two stamps (counter, then replica): negative, 0 or positive.
 *
 * @example
 * ```ts
 * compareStamps([2, 'a'], [1, 'z']); // > 0
 * ```
 */
export function compareStamps(a: Readonly<Stamp>, b: Readonly<Stamp>): number {
  return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}

/**
 * Whether a state with `seen` includes the write stamped `[lamport, replica]`.
 *
 * @example
 * ```ts
 * declare const remote: SyncMeta;
 * const stamp: Stamp = [4, 'k3f9a01x'];
 * includes(remote.seen, stamp); // remote has seen this edit
 * ```
 */
export function includes(seen: Record<string, number>, stamp: Readonly<Stamp>): boolean {
  return (seen[stamp[1]] ?? 0) >= stamp[0];
}

/**
 * The key of an item's born stamp, as tombstones are keyed: `'<lamport>:<replica>'`.
 *
 * @example
 * ```ts
 * declare const meta: SyncMeta;
 * meta.deleted.todos[bornKey(meta.todos.t1!)];
 * ```
 */
export function bornKey(clock: ItemClock): string {
  const [lamport, replica] = bornOf(clock);
  return `${lamport}:${replica}`;
}
