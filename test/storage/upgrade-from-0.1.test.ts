// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { Plan } from '../../src/plan.js';
import { TODO_LIMITS } from '../../src/artifacts/todos.js';
import { createLocalStorageAdapter } from '../../src/storage/local-storage.js';

// What planloop 0.1 (commit 2a319c9) really stored under a localStorage key: a plan with a todo
// description of 1,459 characters and an intent of 72, both over the caps added in 0.2, written
// with 0.1's own Plan and createLocalStorageAdapter. An upgrade must open it as it was.
const WRITTEN_BY_0_1 = readFileSync('test/fixtures/plan-written-by-0.1.json', 'utf8');
const stored = JSON.parse(WRITTEN_BY_0_1) as {
  todos: Array<{ id: string; intent: string; description: string; status: string }>;
  markdownDocs: Array<{ title: string; content: string }>;
};

describe('a plan written by 0.1 opens in 0.2', () => {
  beforeEach(() => localStorage.clear());

  it('opens whole: nothing set aside, the long todo kept as written and usable', async () => {
    expect(stored.todos[1]!.description.length).toBeGreaterThan(TODO_LIMITS.description);
    expect(stored.todos[2]!.intent.length).toBeGreaterThan(TODO_LIMITS.intent);
    localStorage.setItem('tour', WRITTEN_BY_0_1);
    const warnings: unknown[] = [];
    const plan = new Plan({ storage: createLocalStorageAdapter({ key: 'tour' }) });
    plan.on('storage-error', (event) => warnings.push(event));
    await plan.ready;

    expect(warnings).toEqual([]);
    expect(Object.keys(localStorage).filter((key) => key !== 'tour')).toEqual([]); // no corrupt copy set aside
    expect(plan.todos.list()).toEqual(stored.todos);
    expect(plan.markdown.list().map((doc) => doc.content)).toEqual(stored.markdownDocs.map((doc) => doc.content));

    // Usable: it completes, a turn can name it, and the next id follows 0.1's.
    expect(plan.adjust({ remove: ['t2'] }).completed).toEqual(['t2']);
    expect(plan.todos.get('t2')?.status).toBe('completed');
    expect(plan.todos.create({ intent: 'ask', description: 'Anything else?' }).id).toBe('t5');
    await plan.flush();
    const saved = JSON.parse(localStorage.getItem('tour')!) as { todos: Array<{ id: string; description: string }> };
    expect(saved.todos.find((todo) => todo.id === 't2')?.description).toBe(stored.todos[1]!.description);
  });

  it('the caps still apply to what is written now', async () => {
    localStorage.setItem('tour', WRITTEN_BY_0_1);
    const plan = new Plan({ storage: createLocalStorageAdapter({ key: 'tour' }) });
    await plan.ready;
    const before = plan.todos.list();
    expect(() => plan.todos.create({ intent: 'narrate', description: 'x'.repeat(TODO_LIMITS.description + 1) })).toThrow(/1000/);
    expect(() => plan.todos.edit('t1', { description: 'x'.repeat(TODO_LIMITS.description + 1) })).toThrow(/1000/);
    expect(plan.todos.list()).toEqual(before);
  });
});
