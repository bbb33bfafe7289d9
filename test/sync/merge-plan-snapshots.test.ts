import { describe, expect, it } from 'vitest';
import type { MarkdownDoc } from '../../src/artifacts/markdown.js';
import type { TodoItem } from '../../src/artifacts/todos.js';
import { StorageError } from '../../src/errors.js';
import { mergePlanSnapshots, type MergeConflict } from '../../src/sync/merge-plan-snapshots.js';
import type { PlanSnapshot } from '../../src/storage/snapshot.js';
import { refuseUnmerged } from '../../src/sync/sync-guard.js';
import { advanceSyncMeta, readSyncMeta, syncMetaOf, type SyncMeta } from '../../src/sync/sync-meta.js';

const todo = (id: string, description: string, status: TodoItem['status'] = 'pending'): TodoItem => ({ id, intent: 'narrate', description, status });
const doc = (id: string, content: string): MarkdownDoc => ({ id, title: 'Notes', content, updatedAt: 1 });

/** One tab's plan: every change goes through advanceSyncMeta, as the plan's store will do it. */
function tab(replica: string, start: PlanSnapshot = { version: 1, todos: [], markdownDocs: [] }) {
  let state: PlanSnapshot = structuredClone(start);
  const commit = (next: Pick<PlanSnapshot, 'todos' | 'markdownDocs'> & Partial<PlanSnapshot>, newGeneration = false) => {
    const sync = advanceSyncMeta(readSyncMeta(state.sync), state, next, { replica, newGeneration });
    state = { ...state, ...next, sync };
  };
  return {
    get state() {
      return state;
    },
    set state(next: PlanSnapshot) {
      state = next;
    },
    create(item: TodoItem) {
      commit({ todos: [...state.todos, item], markdownDocs: state.markdownDocs });
    },
    edit(id: string, patch: Partial<TodoItem>) {
      commit({ todos: state.todos.map((item) => (item.id === id ? { ...item, ...patch } : item)), markdownDocs: state.markdownDocs });
    },
    remove(id: string) {
      commit({ todos: state.todos.filter((item) => item.id !== id), markdownDocs: state.markdownDocs });
    },
    replan(todos: TodoItem[], taskSummary: string) {
      commit({ todos, markdownDocs: state.markdownDocs, taskSummary }, true);
    },
    writeDoc(next: MarkdownDoc) {
      const exists = state.markdownDocs.some((item) => item.id === next.id);
      commit({
        todos: state.todos,
        markdownDocs: exists ? state.markdownDocs.map((item) => (item.id === next.id ? next : item)) : [...state.markdownDocs, next],
      });
    },
    removeDoc(id: string) {
      commit({ todos: state.todos, markdownDocs: state.markdownDocs.filter((item) => item.id !== id) });
    },
    pull(other: PlanSnapshot) {
      const result = mergePlanSnapshots(state, other);
      state = result.merged;
      return result;
    },
  };
}

const flip = (conflict: MergeConflict): MergeConflict => ({ ...conflict, from: conflict.from === 'local' ? 'remote' : 'local' });
const sorted = (conflicts: MergeConflict[]) => conflicts.map((conflict) => JSON.stringify(conflict)).sort();

/** Merges both ways and checks that the order of the inputs does not matter. */
function mergeBothWays(a: PlanSnapshot, b: PlanSnapshot) {
  const ab = mergePlanSnapshots(a, b);
  const ba = mergePlanSnapshots(b, a);
  expect(ba.merged).toEqual(ab.merged);
  expect(sorted(ba.conflicts.map(flip))).toEqual(sorted(ab.conflicts));
  return ab;
}

describe('mergePlanSnapshots', () => {
  it("keeps both tabs' new todos (the lost-todo bug of two tabs on one key)", () => {
    const base = tab('base');
    base.create(todo('t1', 'Open pricing'));
    const a = tab('A', base.state);
    const b = tab('B', base.state);
    a.create(todo('t2', 'from A'));
    b.create(todo('t2', 'from B'));
    const { merged, conflicts } = mergeBothWays(a.state, b.state);
    expect(merged.todos.map((item) => item.description)).toEqual(['Open pricing', 'from A', 'from B']);
    expect(merged.todos.map((item) => item.id)).toEqual(['t1', 't2', 't2~2']);
    // Both kept, but one changed its id: reported, never silent.
    expect(conflicts).toEqual([{ kind: 'todo', reason: 'id-collision', id: 't2~2', previousId: 't2', item: todo('t2~2', 'from B'), from: 'remote' }]);
  });

  it('takes the newer of two concurrent edits of one todo, the same in both tabs, and reports the other', () => {
    const base = tab('base');
    base.create(todo('t1', 'Open pricing'));
    const a = tab('A', base.state);
    const b = tab('B', base.state);
    a.edit('t1', { status: 'completed' });
    b.edit('t1', { description: 'Open the pricing page' });
    const { merged, conflicts } = mergeBothWays(a.state, b.state);
    // Equal counters: the replica id breaks the tie ('B' > 'A').
    expect(merged.todos).toEqual([todo('t1', 'Open the pricing page')]);
    expect(conflicts).toEqual([
      {
        kind: 'todo',
        reason: 'concurrent-edit',
        id: 't1',
        kept: todo('t1', 'Open the pricing page'),
        dropped: todo('t1', 'Open pricing', 'completed'),
        from: 'local',
      },
    ]);
  });

  it("reports nothing when one side had seen the other's change", () => {
    const a = tab('A');
    a.create(todo('t1', 'first'));
    const b = tab('B', a.state);
    b.edit('t1', { status: 'completed' });
    b.create(todo('t2', 'second'));
    const { merged, conflicts, changed } = mergeBothWays(a.state, b.state);
    expect(conflicts).toEqual([]);
    expect(merged.todos).toEqual([todo('t1', 'first', 'completed'), todo('t2', 'second')]);
    expect(changed).toEqual({ local: true, remote: false });
  });

  it('deletes win over older changes and lose to newer ones, reported either way when unseen', () => {
    const base = tab('base');
    base.create(todo('t1', 'one'));
    base.create(todo('t2', 'two'));
    const a = tab('A', base.state);
    const b = tab('B', base.state);
    // Counters: base wrote 1 and 2. A: 3 (a document), 4 (deletes t1), 5 (deletes t2).
    // B: 3 (edits t1), 4 (a document), 5 (edits t2). At 4, A's delete is newer than B's edit at 3;
    // at 5 against 5, replica 'B' > 'A' breaks the tie for the edit.
    a.writeDoc(doc('m1', 'A'));
    a.remove('t1');
    a.remove('t2');
    b.edit('t1', { status: 'completed' });
    b.writeDoc(doc('m2', 'B'));
    b.edit('t2', { status: 'completed' });
    const { merged, conflicts } = mergeBothWays(a.state, b.state);
    expect(merged.todos).toEqual([todo('t2', 'two', 'completed')]);
    expect(conflicts).toContainEqual({ kind: 'todo', reason: 'edit-vs-delete', id: 't1', kept: null, dropped: todo('t1', 'one', 'completed'), from: 'remote' });
    expect(conflicts).toContainEqual({ kind: 'todo', reason: 'edit-vs-delete', id: 't2', kept: todo('t2', 'two', 'completed'), dropped: null, from: 'local' });
    expect(conflicts).toHaveLength(2);
  });

  it("does not bring back the old plan's todos after a replan in another tab; edits to them are reported", () => {
    const base = tab('base');
    base.create(todo('t1', 'old one'));
    base.create(todo('t2', 'old two'));
    const a = tab('A', base.state);
    const b = tab('B', base.state);
    a.replan([todo('t3', 'new plan')], 'A new plan');
    b.edit('t2', { status: 'completed' });
    b.create(todo('t3', 'added to the old plan'));
    const { merged, conflicts } = mergeBothWays(a.state, b.state);
    expect(merged.todos).toEqual([todo('t3', 'new plan')]);
    expect(merged.taskSummary).toBe('A new plan');
    expect(conflicts.map((conflict) => conflict.reason)).toEqual(['superseded', 'superseded']);
    expect(conflicts.map((conflict) => (conflict as { dropped: TodoItem }).dropped.description).sort()).toEqual(['added to the old plan', 'old two']);
  });

  it('keeps the newer of two concurrent replans whole and reports the other plan', () => {
    const a = tab('A');
    const b = tab('B');
    a.replan([todo('t1', 'plan A')], 'A');
    b.replan([todo('t1', 'plan B 1'), todo('t2', 'plan B 2')], 'B');
    const { merged, conflicts } = mergeBothWays(a.state, b.state);
    expect(merged.todos.map((item) => item.description)).toEqual(['plan B 1', 'plan B 2']);
    expect(conflicts).toEqual([
      {
        kind: 'plan',
        reason: 'concurrent-plan',
        kept: { todos: b.state.todos, taskSummary: 'B' },
        dropped: { todos: a.state.todos, taskSummary: 'A' },
        from: 'local',
      },
    ]);
  });

  it("merges documents by item too, and never gives a deleted document's id to another", () => {
    const base = tab('base');
    base.writeDoc(doc('m1', 'shared'));
    const a = tab('A', base.state);
    const b = tab('B', base.state);
    a.writeDoc(doc('m1', 'edited in A'));
    a.writeDoc(doc('m2', 'made and deleted in A'));
    a.removeDoc('m2');
    b.writeDoc(doc('m2', 'new in B'));
    b.writeDoc(doc('m3', 'also new in B'));
    const { merged, conflicts } = mergeBothWays(a.state, b.state);
    // B's m2 was born at counter 2, A's (deleted) at 3: B's keeps the id, nothing was lost.
    expect(merged.markdownDocs.map((item) => [item.id, item.content])).toEqual([
      ['m1', 'edited in A'],
      ['m2', 'new in B'],
      ['m3', 'also new in B'],
    ]);
    expect(conflicts).toEqual([]);
    // The other way round: A's deleted m2 was born before B's, so B's m2 may not take its id.
    const c = tab('C', base.state);
    const d = tab('D', base.state);
    c.writeDoc(doc('m2', 'made and deleted in C'));
    c.removeDoc('m2');
    d.writeDoc(doc('m1', 'edited in D'));
    d.writeDoc(doc('m2', 'new in D'));
    const later = mergeBothWays(c.state, d.state);
    expect(later.merged.markdownDocs.map((item) => [item.id, item.content])).toEqual([
      ['m1', 'edited in D'],
      ['m2~2', 'new in D'],
    ]);
    expect(later.conflicts).toEqual([
      { kind: 'doc', reason: 'id-collision', id: 'm2~2', previousId: 'm2', item: { ...doc('m2~2', 'new in D') }, from: 'remote' },
    ]);
  });

  it('merges snapshots written without clocks: equal ones into themselves, different ones reported', () => {
    const stored: PlanSnapshot = {
      version: 1,
      todos: [todo('t1', 'one'), todo('t2', 'two')],
      markdownDocs: [doc('m1', 'x')],
      lastIds: { todos: 2, markdown: 1 },
    };
    const same = mergeBothWays(stored, structuredClone(stored));
    expect(same.conflicts).toEqual([]);
    expect(same.merged.todos).toEqual(stored.todos);
    const other = { ...structuredClone(stored), todos: [todo('t1', 'one'), todo('t2', 'two, changed by an older planloop')] };
    const different = mergeBothWays(stored, other);
    expect(different.conflicts).toHaveLength(1);
    expect(different.conflicts[0]).toMatchObject({ reason: 'concurrent-edit', id: 't2' });
  });

  it('keeps id counters at the highest, and extra keys whatever the order', () => {
    const a: PlanSnapshot = { todos: [], markdownDocs: [], lastIds: { todos: 5, markdown: 1 }, hostKey: { theme: 'dark' } };
    const b: PlanSnapshot = { todos: [], markdownDocs: [], lastIds: { todos: 3, markdown: 4 }, hostKey: { theme: 'light' }, other: 1 };
    const { merged } = mergeBothWays(a, b);
    expect(merged.lastIds).toEqual({ todos: 5, markdown: 4 });
    expect(merged.hostKey).toEqual({ theme: 'light' });
    expect(merged.other).toBe(1);
  });
});

describe('sync meta', () => {
  it('stamps creates, edits, deletes and replans with one counter per write', () => {
    const before = { todos: [todo('t1', 'a'), todo('t2', 'b')], markdownDocs: [] };
    let meta: SyncMeta = syncMetaOf(before);
    expect(meta.todos).toEqual({ t1: [1, '', 1, ''], t2: [2, '', 2, ''] });
    const after = { todos: [todo('t1', 'a', 'completed'), todo('t3', 'c')], markdownDocs: [] };
    meta = advanceSyncMeta(meta, before, after, { replica: 'R' });
    expect(meta.todos).toEqual({ t1: [3, 'R', 1, ''], t3: [4, 'R', 4, 'R'] });
    expect(meta.deleted.todos).toEqual({ '2:': [5, 'R', 't2'] });
    expect(meta.seen).toEqual({ '': 2, R: 5 });
    const replanned = advanceSyncMeta(meta, after, { todos: [todo('t4', 'd')], markdownDocs: [] }, { replica: 'R', newGeneration: true });
    expect(replanned.generation).toEqual([6, 'R']);
    expect(replanned.todos).toEqual({ t4: [7, 'R', 7, 'R'] });
    expect(replanned.deleted.todos).toEqual({});
    // Unchanged items keep their clocks, and a commit that changes nothing stamps nothing.
    expect(
      advanceSyncMeta(replanned, { todos: [todo('t4', 'd')], markdownDocs: [] }, { todos: [todo('t4', 'd')], markdownDocs: [] }, { replica: 'S' }),
    ).toEqual(replanned);
  });

  it('treats malformed or oversized clocks as absent', () => {
    expect(readSyncMeta({ v: 1 })).toBeUndefined();
    expect(readSyncMeta({ ...syncMetaOf({ todos: [], markdownDocs: [] }), seen: { R: 2 ** 53 } })).toBeUndefined();
    const valid = syncMetaOf({ todos: [todo('t1', 'a')], markdownDocs: [] });
    expect(readSyncMeta(valid)).toEqual(valid);
    expect(readSyncMeta({ ...valid, todos: { t1: [1, '', '1', ''] } })).toBeUndefined();
    expect(readSyncMeta({ ...valid, todos: { t1: [1, '', 1] } })).toBeUndefined();
    expect(readSyncMeta({ ...valid, generation: [1.5, 'R'] })).toBeUndefined();
    expect(readSyncMeta({ ...valid, deleted: { todos: { '1:': [2, 'R'] }, docs: {} } })).toBeUndefined();
  });

  it('refuses to save over a stored plan with changes the snapshot has not merged', () => {
    const a = tab('A');
    a.create(todo('t1', 'a'));
    const b = tab('B', a.state);
    b.create(todo('t2', 'b'));
    a.create(todo('t2', 'c'));
    expect(() => refuseUnmerged(b.state, a.state, 'tour')).toThrow(StorageError);
    expect(() => refuseUnmerged(b.state, a.state, 'tour')).toThrow(expect.objectContaining({ reason: 'conflict' }));
    const merged = mergePlanSnapshots(a.state, b.state).merged;
    expect(() => refuseUnmerged(b.state, merged, 'tour')).not.toThrow();
    // Without clocks on either side there is nothing to compare.
    expect(() => refuseUnmerged({ todos: [] }, a.state, 'tour')).not.toThrow();
  });
});
