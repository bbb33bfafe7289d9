import { describe, expect, it } from 'vitest';
import { validateSnapshot, safeValidateSnapshot, snapshotToState, stateToSnapshot, SNAPSHOT_VERSION } from '../../src/storage/snapshot.js';
import { StorageError } from '../../src/errors.js';

describe('validateSnapshot', () => {
  it('migrates the bare { todos, markdownDocs } of the original module', () => {
    const snapshot = validateSnapshot({
      todos: [{ id: 't1', intent: 'narrate', description: 'Hello', expected_turn: 1 }],
      markdownDocs: [{ id: 'm1', title: 'T', content: '', updatedAt: 1 }],
    });
    expect(snapshot).toEqual({
      version: SNAPSHOT_VERSION,
      todos: [{ id: 't1', intent: 'narrate', description: 'Hello', status: 'pending', expected_turn: 1 }],
      markdownDocs: [{ id: 'm1', title: 'T', content: '', updatedAt: 1 }],
    });
  });

  it('keeps extra keys', () => {
    expect(validateSnapshot({ todos: [], markdownDocs: [], host: { theme: 'dark' } }).host).toEqual({ theme: 'dark' });
  });

  it('names every problem with its path', () => {
    const result = safeValidateSnapshot({ todos: [{ id: 't1', intent: 'x', description: '', status: 'later' }], markdownDocs: [{}] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toBeInstanceOf(StorageError);
    expect(result.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(['todos[0].description', 'todos[0].status', 'markdownDocs[0].id']));
  });

  it('refuses snapshots from a newer planloop', () => {
    expect(() => validateSnapshot({ version: SNAPSHOT_VERSION + 1, todos: [], markdownDocs: [] })).toThrow(/newer than this planloop reads/);
  });
});

describe('taskSummary and task', () => {
  it('are read when strings, and a stored plan whose keys of these names hold something else still loads', () => {
    const todos = [{ id: 't1', intent: 'narrate', description: 'Hello', status: 'pending' }];
    expect(validateSnapshot({ version: 1, todos, markdownDocs: [], taskSummary: 'A tour', task: 'Tour' })).toMatchObject({
      taskSummary: 'A tour',
      task: 'Tour',
    });
    // Written before planloop used these keys (say by a host's adapter): the todos must not be thrown away for them.
    const result = safeValidateSnapshot({ version: 1, todos, markdownDocs: [], task: { id: 7, title: 'Onboarding' }, taskSummary: null });
    expect(result.success).toBe(true);
    if (result.success) {
      expect(result.data.todos).toHaveLength(1);
      expect(result.data.task).toBeUndefined();
      expect(result.data.taskSummary).toBeUndefined();
    }
  });
});

describe('safeValidateSnapshot: sync clocks', () => {
  const meta = { v: 1, seen: { a: 2 }, generation: [1, 'a'], todos: { t1: [2, 'a', 2, 'a'] }, docs: {}, deleted: { todos: {}, docs: {} } };
  const base = { version: 1, todos: [{ id: 't1', intent: 'narrate', description: 'x', status: 'pending' }], markdownDocs: [] };

  it('keeps valid clocks under sync, not among the extras, and they round-trip through the state', () => {
    const result = safeValidateSnapshot({ ...base, sync: meta });
    expect(result.success && result.data.sync).toEqual(meta);
    expect(result.success && result.dropped).toEqual([]);
    const state = snapshotToState(validateSnapshot({ ...base, sync: meta }));
    expect(state.sync).toEqual(meta);
    expect(state.extras).toEqual({});
    expect(stateToSnapshot(state).sync).toEqual(meta);
  });

  it('drops malformed clocks into dropped and keeps the plan', () => {
    const result = safeValidateSnapshot({ ...base, sync: { ...meta, seen: { a: -1 } } });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.sync).toBeUndefined();
    expect(result.data.todos).toHaveLength(1);
    expect(result.dropped).toEqual([{ path: 'sync', message: expect.stringMatching(/not a valid sync clock/) }]);
  });
});

describe('stored todo checks and evidence', () => {
  it('opens a 0.2 plan without checks, and keeps checks and evidence marks written since', () => {
    const old = safeValidateSnapshot({
      version: 1,
      todos: [{ id: 't1', intent: 'navigate', description: 'Open pricing', status: 'pending' }],
      markdownDocs: [],
    });
    expect(old).toMatchObject({ success: true, dropped: [] });
    const now = safeValidateSnapshot({
      version: 1,
      todos: [
        { id: 't1', intent: 'navigate', description: 'Open pricing', status: 'completed', check: { kind: 'url', pattern: '/pricing' }, evidence: 'checked' },
      ],
      markdownDocs: [],
    });
    expect(now.success && now.data.todos[0]).toMatchObject({ check: { kind: 'url', pattern: '/pricing' }, evidence: 'checked' });
  });

  it('leaves out a check it cannot read (and says so), keeping the todo; an unknown evidence mark means none', () => {
    const result = safeValidateSnapshot({
      version: 1,
      todos: [{ id: 't1', intent: 'click', description: 'Start', status: 'pending', check: { kind: 'screenshot-diff' }, evidence: 'probably' }],
      markdownDocs: [],
    });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.todos[0]).toEqual({ id: 't1', intent: 'click', description: 'Start', status: 'pending' });
    expect(result.dropped).toEqual([expect.objectContaining({ path: 'todos[0].check' })]);
  });
});
