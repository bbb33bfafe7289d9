import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarkdownDoc } from '../../src/artifacts/markdown.js';
import type { TodoItem } from '../../src/artifacts/todos.js';
import { mergePlanSnapshots, type MergeConflict } from '../../src/sync/merge-plan-snapshots.js';
import type { PlanSnapshot } from '../../src/storage/snapshot.js';
import { advanceSyncMeta, bornKey, readSyncMeta, type SyncMeta } from '../../src/sync/sync-meta.js';

// N replicas (tabs) edit one plan at random and pull each other's state in random orders. The
// test keeps its own vector clocks, apart from the merge's, to judge which writes each one saw.

type Op =
  | { type: 'create-todo' | 'create-doc' | 'replan' | 'noop'; replica: number }
  | { type: 'edit-todo' | 'delete-todo' | 'edit-doc' | 'delete-doc'; replica: number; pick: number }
  | { type: 'pull'; replica: number; from: number }
  | { type: 'move-todo'; replica: number; pick: number; to: number };

/** One write, as the test saw it happen. */
interface Write {
  replica: number;
  /** This replica's write number (1, 2, …) and what the replica had seen of the others then. */
  seq: number;
  vc: number[];
  kind: 'todo' | 'doc' | 'replan';
  /** The item's identity (its born stamp as the meta records it); for a replan, its generation. */
  born: string;
  /** The value written (todo description, doc content, a replan's summary; unique per write); `null` for a delete. */
  value: string | null;
}

interface Replica {
  state: PlanSnapshot;
  vc: number[];
  name: string;
}

const REPLICAS = 3;
const opArb = (replicas: number): fc.Arbitrary<Op> => {
  const replica = fc.integer({ min: 0, max: replicas - 1 });
  return fc.oneof(
    fc.record({ type: fc.constantFrom('create-todo' as const, 'create-doc' as const, 'replan' as const), replica }),
    fc.record({ type: fc.constantFrom('edit-todo' as const, 'delete-todo' as const, 'edit-doc' as const, 'delete-doc' as const), replica, pick: fc.nat(20) }),
    fc.record({ type: fc.constant('pull' as const), replica, from: replica }),
    fc.record({ type: fc.constant('pull' as const), replica, from: replica }),
    fc.record({ type: fc.constant('move-todo' as const), replica, pick: fc.nat(20), to: fc.nat(20) }),
  );
};

function simulate(ops: Op[], replicas = REPLICAS, finalSync = true) {
  const tabs: Replica[] = Array.from({ length: replicas }, (_, index) => ({
    state: { version: 1, todos: [], markdownDocs: [], lastIds: { todos: 0, markdown: 0 } },
    vc: Array<number>(replicas).fill(0),
    name: `r${index}`,
  }));
  const writes: Write[] = [];
  const conflicts: MergeConflict[] = [];
  let unique = 0;
  const meta = (state: PlanSnapshot) => readSyncMeta(state.sync) as SyncMeta;

  const commit = (
    tab: Replica,
    index: number,
    next: PlanSnapshot,
    record: (meta: SyncMeta, before: SyncMeta | undefined) => Array<Omit<Write, 'replica' | 'seq' | 'vc'>>,
    newGeneration = false,
  ) => {
    const before = readSyncMeta(tab.state.sync);
    const sync = advanceSyncMeta(before, tab.state, next, { replica: tab.name, newGeneration });
    tab.state = { ...next, sync };
    tab.vc[index]! += 1;
    for (const write of record(sync, before)) writes.push({ ...write, replica: index, seq: tab.vc[index]!, vc: [...tab.vc] });
  };
  const pull = (into: Replica, from: Replica) => {
    const result = mergePlanSnapshots(into.state, from.state);
    into.state = result.merged;
    into.vc = into.vc.map((n, i) => Math.max(n, from.vc[i]!));
    conflicts.push(...result.conflicts);
  };

  for (const op of ops) {
    const tab = tabs[op.replica]!;
    const { todos, markdownDocs } = tab.state;
    const lastIds = tab.state.lastIds ?? { todos: 0, markdown: 0 };
    switch (op.type) {
      case 'create-todo': {
        const id = `t${lastIds.todos + 1}`;
        const description = `todo ${++unique}`;
        commit(
          tab,
          op.replica,
          { ...tab.state, todos: [...todos, { id, intent: 'narrate', description, status: 'pending' }], lastIds: { ...lastIds, todos: lastIds.todos + 1 } },
          (m) => [{ kind: 'todo', born: bornKey(m.todos[id]!), value: description }],
        );
        break;
      }
      case 'edit-todo':
      case 'delete-todo': {
        const target = todos[op.pick % Math.max(1, todos.length)];
        if (!target) break;
        const born = bornKey(meta(tab.state).todos[target.id]!);
        if (op.type === 'delete-todo') {
          commit(tab, op.replica, { ...tab.state, todos: todos.filter((item) => item !== target) }, () => [{ kind: 'todo', born, value: null }]);
        } else {
          const description = `todo ${++unique}`;
          const status: TodoItem['status'] = unique % 2 ? 'completed' : 'in_progress';
          commit(tab, op.replica, { ...tab.state, todos: todos.map((item) => (item === target ? { ...item, description, status } : item)) }, () => [
            { kind: 'todo', born, value: description },
          ]);
        }
        break;
      }
      case 'replan': {
        const next: TodoItem[] = [1, 2].map((n) => ({ id: `t${lastIds.todos + n}`, intent: 'navigate', description: `todo ${++unique}`, status: 'pending' }));
        commit(
          tab,
          op.replica,
          { ...tab.state, todos: next, lastIds: { ...lastIds, todos: lastIds.todos + 2 }, taskSummary: `plan ${unique}` },
          (m) => [
            { kind: 'replan', born: m.generation.join(':'), value: `plan ${unique}` },
            ...next.map((item) => ({ kind: 'todo' as const, born: bornKey(m.todos[item.id]!), value: item.description })),
          ],
          true,
        );
        break;
      }
      case 'create-doc': {
        const id = `m${lastIds.markdown + 1}`;
        const content = `doc ${++unique}`;
        const created: MarkdownDoc = { id, title: 'Notes', content, updatedAt: unique };
        commit(tab, op.replica, { ...tab.state, markdownDocs: [...markdownDocs, created], lastIds: { ...lastIds, markdown: lastIds.markdown + 1 } }, (m) => [
          { kind: 'doc', born: bornKey(m.docs[id]!), value: content },
        ]);
        break;
      }
      case 'edit-doc':
      case 'delete-doc': {
        const target = markdownDocs[op.pick % Math.max(1, markdownDocs.length)];
        if (!target) break;
        const born = bornKey(meta(tab.state).docs[target.id]!);
        if (op.type === 'delete-doc') {
          commit(tab, op.replica, { ...tab.state, markdownDocs: markdownDocs.filter((item) => item !== target) }, () => [{ kind: 'doc', born, value: null }]);
        } else {
          const content = `doc ${++unique}`;
          commit(
            tab,
            op.replica,
            { ...tab.state, markdownDocs: markdownDocs.map((item) => (item === target ? { ...item, content, updatedAt: unique } : item)) },
            () => [{ kind: 'doc', born, value: content }],
          );
        }
        break;
      }
      case 'pull':
        if (op.from !== op.replica) pull(tab, tabs[op.from]!);
        break;
      case 'move-todo': {
        // A reorder (todos.move) writes no item: the replicas must still agree on the order.
        const target = todos[op.pick % Math.max(1, todos.length)];
        if (!target || todos.length < 2) break;
        const rest = todos.filter((item) => item !== target);
        rest.splice(op.to % todos.length, 0, target);
        if (rest.every((item, index) => item === todos[index])) break;
        commit(tab, op.replica, { ...tab.state, todos: rest }, () => []);
        break;
      }
    }
  }
  // Everyone hears from everyone, twice round, so every write reaches every replica.
  if (finalSync) for (let round = 0; round < 2; round++) for (const into of tabs) for (const from of tabs) if (into !== from) pull(into, from);
  return { tabs, writes, conflicts };
}

/** What the merge reported as dropped, by value, and the identities of items whose deletes were reported as undone. */
function reported(conflicts: MergeConflict[], bornOfValue: Map<string, string>) {
  const values = new Set<string>();
  const undoneDeletes = new Set<string>();
  for (const conflict of conflicts) {
    if (conflict.kind === 'plan') {
      for (const item of conflict.dropped.todos) values.add(item.description);
      continue;
    }
    if (conflict.reason === 'id-collision') continue;
    const valueOf = (item: TodoItem | MarkdownDoc) => ('description' in item ? item.description : item.content);
    if (conflict.dropped) values.add(valueOf(conflict.dropped));
    else if (conflict.kept) undoneDeletes.add(bornOfValue.get(valueOf(conflict.kept)) ?? '?');
  }
  return { values, undoneDeletes };
}

const covers = (later: Write, earlier: Write) => later.vc[earlier.replica]! >= earlier.seq && later !== earlier;

describe('mergePlanSnapshots (properties)', () => {
  it('replicas applying random edits and merging in random orders converge, and lose no change silently', () => {
    fc.assert(
      fc.property(fc.array(opArb(REPLICAS), { minLength: 1, maxLength: 60 }), (ops) => {
        const { tabs, writes, conflicts } = simulate(ops);
        const [first, ...rest] = tabs.map((tab) => tab.state);
        for (const state of rest) expect(state).toEqual(first);
        const final = first!;
        const finalMeta = readSyncMeta(final.sync) as SyncMeta;

        // Every id is unique, and every item in the final plan is one somebody wrote.
        expect(new Set(final.todos.map((item) => item.id)).size).toBe(final.todos.length);
        expect(new Set(final.markdownDocs.map((item) => item.id)).size).toBe(final.markdownDocs.length);

        const live = new Map<string, string>();
        for (const item of final.todos) live.set(`todo ${bornKey(finalMeta.todos[item.id]!)}`, item.description);
        for (const item of final.markdownDocs) live.set(`doc ${bornKey(finalMeta.docs[item.id]!)}`, item.content);
        const bornOfValue = new Map(writes.filter((write) => write.value).map((write) => [write.value!, write.born]));
        const { values, undoneDeletes } = reported(conflicts, bornOfValue);
        const finalGeneration = finalMeta.generation.join(':');

        for (const write of writes) {
          if (write.kind === 'replan') {
            // The final plan is this replan, or one made after seeing it, or this one was reported dropped.
            const kept = write.born === finalGeneration || writes.some((other) => other.kind === 'replan' && covers(other, write));
            // Each replan has its own summary, which a dropped plan carries.
            const droppedWhole = conflicts.some((conflict) => conflict.kind === 'plan' && conflict.dropped.taskSummary === write.value);
            expect(kept || droppedWhole, `replan ${write.born}`).toBe(true);
            continue;
          }
          const key = `${write.kind} ${write.born}`;
          const reflected = write.value === null ? !live.has(key) : live.get(key) === write.value;
          if (reflected) continue;
          // Overwritten on purpose: a later write to the same item, or a replan, made after seeing it.
          const superseded = writes.some(
            (other) => covers(other, write) && ((other.kind === write.kind && other.born === write.born) || (write.kind === 'todo' && other.kind === 'replan')),
          );
          if (superseded) continue;
          const wasReported = write.value === null ? undoneDeletes.has(write.born) : values.has(write.value);
          expect(wasReported, `write ${JSON.stringify(write)} is neither in the final plan, nor overwritten knowingly, nor reported`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is commutative, idempotent and absorbs its own result, for any two states the replicas reach', () => {
    fc.assert(
      fc.property(fc.array(opArb(REPLICAS), { minLength: 1, maxLength: 40 }), (ops) => {
        // Without the final sync: the replicas still disagree.
        const { tabs } = simulate(ops, REPLICAS, false);
        const states = tabs.map((tab) => tab.state);
        for (const a of states) {
          for (const b of states) {
            const ab = mergePlanSnapshots(a, b);
            const ba = mergePlanSnapshots(b, a);
            expect(ba.merged).toEqual(ab.merged);
            const m = ab.merged;
            const again = mergePlanSnapshots(m, m);
            expect(again.merged).toEqual(m);
            expect(again.conflicts).toEqual([]);
            expect(again.changed).toEqual({ local: false, remote: false });
            expect(mergePlanSnapshots(m, a).merged).toEqual(m);
            expect(mergePlanSnapshots(b, m).merged).toEqual(m);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
