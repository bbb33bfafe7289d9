import type { MarkdownDoc } from '../artifacts/markdown.js';
import type { TodoItem } from '../artifacts/todos.js';
import type { PlanSnapshot } from '../storage/snapshot.js';
import {
  atOf,
  bornKey,
  bornOf,
  compareStamps,
  includes,
  newClock,
  SYNC_META_KEY,
  tombstoneOf,
  wantedIdOf,
  type ItemClock,
  type Stamp,
  type SyncMeta,
  type Tombstone,
} from './clock.js';
import { syncMetaOf } from './sync-meta.js';

/** Which input of {@link mergePlanSnapshots} a dropped or renamed version came from. */
export type MergeSide = 'local' | 'remote';

/** A todo list with what goes with it, as a `concurrent-plan` conflict reports it. */
export interface PlanVersion {
  todos: TodoItem[];
  taskSummary?: string;
  task?: string;
}

/**
 * What a merge could not keep, or changed, reported so that no change is dropped silently:
 * - `concurrent-edit`: both sides changed the item without seeing each other's change; `kept` is
 *   the newer by clock, `dropped` the other;
 * - `edit-vs-delete`: one side deleted what the other changed (`kept` or `dropped` is `null`:
 *   the delete);
 * - `superseded`: a todo changed on an older plan that a replan (`makeTodos`, `reset`) in the
 *   other side replaced without seeing that change;
 * - `id-collision`: both sides created an item with the same id; both are kept, and the later one
 *   now has the id `id` (it was `previousId`);
 * - `concurrent-plan`: both sides replanned; the newer plan is kept whole, the other dropped.
 */
export type MergeConflict =
  | {
      kind: 'todo' | 'doc';
      reason: 'concurrent-edit' | 'edit-vs-delete' | 'superseded';
      id: string;
      kept: TodoItem | MarkdownDoc | null;
      dropped: TodoItem | MarkdownDoc | null;
      from: MergeSide;
    }
  | { kind: 'todo' | 'doc'; reason: 'id-collision'; id: string; previousId: string; item: TodoItem | MarkdownDoc; from: MergeSide }
  | { kind: 'plan'; reason: 'concurrent-plan'; kept: PlanVersion; dropped: PlanVersion; from: MergeSide };

/** What {@link mergePlanSnapshots} returns. */
export interface MergeResult {
  /** The merged plan, with merged sync meta under `sync`. */
  merged: PlanSnapshot;
  /** Everything the merge dropped or renamed; empty when the sides did not conflict. */
  conflicts: MergeConflict[];
  /** Whether `merged` differs from `local` (apply it) and from `remote` (save it). */
  changed: { local: boolean; remote: boolean };
}

interface Side {
  name: MergeSide;
  snapshot: PlanSnapshot;
  meta: SyncMeta;
}

/**
 * Merges two versions of one plan (this tab's and the stored one, or another tab's) item by item
 * by their clocks (`snapshot.sync`, see {@link SyncMeta}): the newer write of each todo and
 * document wins, deletes included, and a newer todo generation (a replan) replaces an older one
 * whole. Everything dropped that the winning side had not seen is reported in `conflicts`.
 * Pure and deterministic: the result does not depend on which side is `local`, merging a result
 * again changes nothing, and replicas that merge the same writes in any order converge.
 *
 * A common ancestor is not needed: each side's `seen` clock says which writes it had.
 *
 * @example
 * ```ts
 * const { merged, conflicts } = mergePlanSnapshots(plan.snapshot(), validateSnapshot(await adapter.load()));
 * for (const conflict of conflicts) console.log(conflict.kind, conflict.reason, conflict.from);
 * ```
 */
export function mergePlanSnapshots(local: PlanSnapshot, remote: PlanSnapshot): MergeResult {
  const sides: [Side, Side] = [
    { name: 'local', snapshot: local, meta: syncMetaOf(local) },
    { name: 'remote', snapshot: remote, meta: syncMetaOf(remote) },
  ];
  const [l, r] = sides;
  const conflicts: MergeConflict[] = [];
  const seen: Record<string, number> = { ...l.meta.seen };
  for (const [replica, n] of Object.entries(r.meta.seen)) seen[replica] = Math.max(seen[replica] ?? 0, n);

  // Todos: within one generation item by item; across generations the newer one whole.
  const generationOrder = compareStamps(l.meta.generation, r.meta.generation);
  let todos: Merged<TodoItem>;
  let planSide: Side;
  // The todos' order: the newer reorder (a move) of this generation; creation order without one.
  let order: SyncMeta['order'];
  if (generationOrder === 0) {
    const [a, b] = [l.meta.order, r.meta.order];
    order = a && b ? (compareStamps(a.at, b.at) >= 0 ? a : b) : (a ?? b);
    todos = mergeItems(
      'todo',
      sides,
      (side) => side.snapshot.todos,
      (meta) => meta.todos,
      (meta) => meta.deleted.todos,
      conflicts,
      order?.keys,
    );
    planSide = pickSide(sides, (side) => [side.snapshot.taskSummary ?? '', side.snapshot.task ?? '']);
  } else {
    const [winner, loser] = generationOrder > 0 ? [l, r] : [r, l];
    planSide = winner;
    order = winner.meta.order;
    todos = { items: winner.snapshot.todos.map(copy), clocks: { ...winner.meta.todos }, deleted: { ...winner.meta.deleted.todos } };
    if (!includes(winner.meta.seen, loser.meta.generation)) {
      conflicts.push({ kind: 'plan', reason: 'concurrent-plan', kept: planVersion(winner.snapshot), dropped: planVersion(loser.snapshot), from: loser.name });
    } else {
      for (const item of loser.snapshot.todos) {
        const clock = loser.meta.todos[item.id] as ItemClock;
        if (!includes(winner.meta.seen, atOf(clock)))
          conflicts.push({ kind: 'todo', reason: 'superseded', id: item.id, kept: null, dropped: copy(item), from: loser.name });
      }
    }
  }
  const docs = mergeItems(
    'doc',
    sides,
    (side) => side.snapshot.markdownDocs,
    (meta) => meta.docs,
    (meta) => meta.deleted.docs,
    conflicts,
  );

  const meta: SyncMeta = {
    v: 1,
    seen,
    generation: [...planSide.meta.generation] as Stamp,
    todos: todos.clocks,
    docs: docs.clocks,
    deleted: { todos: todos.deleted, docs: docs.deleted },
  };
  if (order) {
    // Only the live todos it names: the same in every replica that merged the same writes.
    const live = new Set(Object.values(todos.clocks).map(bornKey));
    meta.order = { at: [...order.at] as Stamp, keys: order.keys.filter((key) => live.has(key)) };
  }
  const version = Math.max(local.version ?? 0, remote.version ?? 0);
  const merged: PlanSnapshot = { ...mergeExtras(local, remote), ...(version ? { version } : {}), todos: todos.items, markdownDocs: docs.items };
  const lastIds = mergeLastIds(local.lastIds, remote.lastIds);
  if (lastIds) merged.lastIds = lastIds;
  if (planSide.snapshot.taskSummary) merged.taskSummary = planSide.snapshot.taskSummary;
  if (planSide.snapshot.task) merged.task = planSide.snapshot.task;
  merged[SYNC_META_KEY] = meta;
  return { merged, conflicts, changed: { local: !samePlan(merged, local), remote: !samePlan(merged, remote) } };
}

const KNOWN_KEYS = new Set(['version', 'todos', 'markdownDocs', 'lastIds', 'taskSummary', 'task', SYNC_META_KEY]);

interface Merged<T> {
  items: T[];
  clocks: Record<string, ItemClock>;
  deleted: Record<string, Tombstone>;
}

interface Version<T> {
  side: Side;
  item: T;
  clock: ItemClock;
}

function mergeItems<T extends TodoItem | MarkdownDoc>(
  kind: 'todo' | 'doc',
  sides: [Side, Side],
  itemsOf: (side: Side) => readonly T[],
  clocksOf: (meta: SyncMeta) => Record<string, ItemClock>,
  deletedOf: (meta: SyncMeta) => Record<string, Tombstone>,
  conflicts: MergeConflict[],
  order?: readonly string[],
): Merged<T> {
  // An item is who created it (its born stamp), whatever id each side shows it under.
  const versions = new Map<string, Version<T>[]>();
  for (const side of sides) {
    for (const item of itemsOf(side)) {
      const clock = clocksOf(side.meta)[item.id] as ItemClock;
      const key = bornKey(clock);
      versions.set(key, [...(versions.get(key) ?? []), { side, item, clock }]);
    }
  }
  const deleted: Record<string, Tombstone> = {};
  const deletedBy = new Map<string, Side[]>();
  for (const side of sides) {
    for (const [key, tombstone] of Object.entries(deletedOf(side.meta))) {
      const order = deleted[key] ? compareStamps(tombstoneOf(tombstone).at, tombstoneOf(deleted[key]).at) : 1;
      if (order > 0) deletedBy.set(key, [side]);
      else if (order === 0) deletedBy.set(key, [...(deletedBy.get(key) ?? []), side]);
      if (order >= 0) deleted[key] = [...tombstone] as Tombstone;
    }
  }

  const live: Array<{ newest: Version<T>; found: Version<T>[] }> = [];
  for (const [key, found] of versions) {
    const newest = found.reduce((best, version) => (compareVersions(version, best) > 0 ? version : best));
    const tombstone = deleted[key];
    if (tombstone && compareStamps(tombstoneOf(tombstone).at, atOf(newest.clock)) > 0) {
      // Deleted: a change the deleting side had not seen is reported.
      const deleters = deletedBy.get(key) ?? [];
      for (const version of found) {
        if (!deleters.some((side) => includes(side.meta.seen, atOf(version.clock)))) {
          conflicts.push({ kind, reason: 'edit-vs-delete', id: version.item.id, kept: null, dropped: copy(version.item), from: version.side.name });
        }
      }
      continue;
    }
    if (tombstone) {
      // A change newer than a delete it had not seen: the item stays, the delete is reported.
      for (const side of deletedBy.get(key) ?? []) {
        if (!includes(newest.side.meta.seen, tombstoneOf(tombstone).at)) {
          conflicts.push({ kind, reason: 'edit-vs-delete', id: newest.item.id, kept: copy(newest.item), dropped: null, from: side.name });
        }
      }
      delete deleted[key];
    }
    for (const version of found) {
      if (version === newest || sameData(version.item, newest.item)) continue;
      // Equal clocks with different data come from snapshots without clocks: no one can tell which is newer.
      if (compareStamps(atOf(version.clock), atOf(newest.clock)) !== 0 && includes(newest.side.meta.seen, atOf(version.clock))) continue;
      conflicts.push({ kind, reason: 'concurrent-edit', id: version.item.id, kept: copy(newest.item), dropped: copy(version.item), from: version.side.name });
    }
    live.push({ newest, found });
  }

  // Ids: items wanting the same id (created concurrently) take it in born order, deleted items
  // included (an id is never reused), and the later ones get `<id>~2`, `<id>~3`, …
  const wanted = (clock: ItemClock, id: string): string => wantedIdOf(clock) ?? id;
  const claims = new Map<string, Array<{ born: Stamp; entry?: (typeof live)[number] }>>();
  const claim = (id: string, born: Stamp, entry?: (typeof live)[number]) => claims.set(id, [...(claims.get(id) ?? []), { born, ...(entry ? { entry } : {}) }]);
  for (const entry of live) claim(wanted(entry.newest.clock, entry.newest.item.id), bornOf(entry.newest.clock), entry);
  for (const [key, tombstone] of Object.entries(deleted)) claim(tombstoneOf(tombstone).wantedId, stampOfKey(key));
  const taken = new Set<string>();
  const labels = new Map<(typeof live)[number], string>();
  for (const [id, group] of [...claims].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    group.sort((a, b) => compareStamps(a.born, b.born));
    group.forEach((claimed, rank) => {
      let label = rank === 0 ? id : `${id}~${rank + 1}`;
      for (let extra = rank + 2; taken.has(label); extra++) label = `${id}~${extra}`;
      taken.add(label);
      if (claimed.entry) labels.set(claimed.entry, label);
    });
  }

  // In `order` (born keys) first, in that order; the rest after it, in creation order.
  const rank = new Map(order?.map((key, index) => [key, index]));
  const rankOf = (entry: (typeof live)[number]): number => rank.get(bornKey(entry.newest.clock)) ?? rank.size;
  live.sort((a, b) => rankOf(a) - rankOf(b) || compareStamps(bornOf(a.newest.clock), bornOf(b.newest.clock)));
  const items: T[] = [];
  const clocks: Record<string, ItemClock> = {};
  for (const entry of live) {
    const { clock, item: newest } = entry.newest;
    const label = labels.get(entry) as string;
    const id = wanted(clock, newest.id);
    const item = { ...newest, id: label };
    items.push(item);
    clocks[label] = newClock(atOf(clock), bornOf(clock), label === id ? undefined : id);
    for (const version of entry.found) {
      if (version.item.id !== label)
        conflicts.push({ kind, reason: 'id-collision', id: label, previousId: version.item.id, item: copy(item), from: version.side.name });
    }
  }
  return { items, clocks, deleted };
}

/** Orders two versions of one item: the newer clock, then (equal clocks, different data) the larger JSON. */
function compareVersions<T>(a: Version<T>, b: Version<T>): number {
  const order = compareStamps(atOf(a.clock), atOf(b.clock));
  if (order !== 0) return order;
  const [x, y] = [JSON.stringify(a.item), JSON.stringify(b.item)];
  return x < y ? -1 : x > y ? 1 : 0;
}

function stampOfKey(key: string): Stamp {
  const split = key.indexOf(':');
  return [Number(key.slice(0, split)), key.slice(split + 1)];
}

/** Of two sides with equal standing, the one whose `value` is larger (so the choice does not depend on the order). */
function pickSide(sides: [Side, Side], value: (side: Side) => unknown): Side {
  const [a, b] = sides.map((side) => JSON.stringify(value(side))) as [string, string];
  return a >= b ? sides[0] : sides[1];
}

function planVersion(snapshot: PlanSnapshot): PlanVersion {
  return {
    todos: snapshot.todos.map(copy),
    ...(snapshot.taskSummary ? { taskSummary: snapshot.taskSummary } : {}),
    ...(snapshot.task ? { task: snapshot.task } : {}),
  };
}

function mergeLastIds(a: PlanSnapshot['lastIds'], b: PlanSnapshot['lastIds']): PlanSnapshot['lastIds'] {
  if (!a || !b) return a ?? b;
  return { todos: Math.max(a.todos, b.todos), markdown: Math.max(a.markdown, b.markdown) };
}

/** Keys of the snapshot planloop does not know: on a difference, the larger JSON wins (a choice that does not depend on the order). */
function mergeExtras(a: PlanSnapshot, b: PlanSnapshot): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  for (const source of [a, b]) {
    for (const [key, value] of Object.entries(source)) {
      if (KNOWN_KEYS.has(key) || value === undefined) continue;
      if (!(key in extras) || JSON.stringify(value) > JSON.stringify(extras[key])) extras[key] = value;
    }
  }
  return extras;
}

/** Whether two versions of an item hold the same data (their ids aside: a merge may have renamed one). */
function sameData(a: { id: string }, b: { id: string }): boolean {
  return samePlan({ ...a, id: '' }, { ...b, id: '' });
}

function copy<T>(item: T): T {
  return { ...item };
}

/** Deep equality of two snapshots' data (strings shared by both compare by reference first). */
function samePlan(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  if (keys.length !== Object.keys(right).filter((key) => right[key] !== undefined).length) return false;
  return keys.every((key) => samePlan(left[key], right[key]));
}
