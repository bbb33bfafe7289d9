import { describe, expect, it } from 'vitest';
import type { TodosChangeEvent } from '../../src/artifacts/todos.js';
import { Plan } from '../../src/plan.js';
import { ValidationError } from '../../src/errors.js';
import { createMemoryAdapter } from '../../src/storage/memory.js';

const seed = (description: string, intent = 'narrate') => ({ intent, description });

describe('plan.todos CRUD', () => {
  it('creates todos with sequential ids, pending by default', () => {
    const todos = new Plan().todos;
    const a = todos.create(seed('Open pricing', 'navigate'));
    const [b, c] = todos.createMany([seed('Explain tiers'), { ...seed('Done already'), status: 'completed', expected_turn: 3 }]);
    expect([a.id, b?.id, c?.id]).toEqual(['t1', 't2', 't3']);
    expect(a.status).toBe('pending');
    expect(c).toEqual({ id: 't3', intent: 'narrate', description: 'Done already', status: 'completed', expected_turn: 3 });
    expect(todos.list().map((todo) => todo.id)).toEqual(['t1', 't2', 't3']);
  });

  it('trims descriptions and intents', () => {
    const todos = new Plan().todos;
    expect(todos.create({ intent: ' click ', description: '  Press start  ' })).toMatchObject({ intent: 'click', description: 'Press start' });
  });

  it('returns copies from every read', () => {
    const todos = new Plan().todos;
    const created = todos.create(seed('Original'));
    created.description = 'mutated';
    todos.list()[0]!.description = 'mutated';
    todos.get('t1')!.description = 'mutated';
    expect(todos.get('t1')?.description).toBe('Original');
  });

  it('edits without ever changing the id, validating the merged item', () => {
    const todos = new Plan().todos;
    todos.create(seed('Explain tiers'));
    expect(todos.edit('t1', { id: 't99', description: 'Explain the three tiers' } as never)).toMatchObject({
      id: 't1',
      description: 'Explain the three tiers',
    });
    expect(() => todos.edit('t1', { status: 'done' as never })).toThrow(/status must be one of pending, in_progress, completed/);
    expect(() => todos.edit('t1', { description: '   ' })).toThrow(ValidationError);
    expect(todos.get('t1')?.description).toBe('Explain the three tiers');
    expect(todos.get('t99')).toBeNull();
  });

  it('returns null / false for unknown ids and fires nothing', () => {
    const todos = new Plan().todos;
    const events: TodosChangeEvent[] = [];
    todos.onChange((event) => events.push(event));
    expect(todos.get('t7')).toBeNull();
    expect(todos.edit('t7', { description: 'x' })).toBeNull();
    expect(todos.delete('t7')).toBe(false);
    expect(events).toEqual([]);
  });

  it('reports remaining todos in order', () => {
    const todos = new Plan().todos;
    todos.createMany([seed('a'), seed('b'), seed('c')]);
    todos.edit('t2', { status: 'completed' });
    expect(todos.remaining().map((todo) => todo.id)).toEqual(['t1', 't3']);
  });
});

describe('plan.todos ids', () => {
  it('never reuses a deleted id', () => {
    const todos = new Plan().todos;
    todos.createMany([seed('a'), seed('b')]);
    todos.delete('t2');
    expect(todos.create(seed('c')).id).toBe('t3');
  });

  it('continues after the highest id given to reset', () => {
    const todos = new Plan().todos;
    todos.reset([{ id: 't5', ...seed('kept') }, seed('assigned')]);
    expect(todos.list().map((todo) => todo.id)).toEqual(['t5', 't6']);
    expect(todos.create(seed('next')).id).toBe('t7');
  });

  it('does not go back after reset to an empty list', () => {
    const todos = new Plan().todos;
    todos.createMany([seed('a'), seed('b'), seed('c')]);
    todos.reset();
    expect(todos.list()).toEqual([]);
    expect(todos.create(seed('d')).id).toBe('t4');
  });

  it('accepts ids of another shape without moving the counter', () => {
    const todos = new Plan().todos;
    todos.reset([{ id: 'intro', ...seed('a') }]);
    expect(todos.create(seed('b')).id).toBe('t1');
  });
});

describe('plan.todos validation', () => {
  it('names the field and index of every bad item, and creates none', () => {
    const todos = new Plan().todos;
    let error: unknown;
    try {
      todos.createMany([seed('fine'), { intent: '', description: 'x' }, { intent: 'narrate', description: ' ', expected_turn: 0 }]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues.map((issue) => `${issue.path} ${issue.message}`);
    expect(issues).toEqual(['[1].intent must not be empty', '[2].description must not be empty', '[2].expected_turn must be at least 1']);
    expect((error as ValidationError).code).toBe('invalid_input');
    expect(todos.list()).toEqual([]);
  });

  it('rejects a non-integer expected_turn and unknown statuses', () => {
    const todos = new Plan().todos;
    expect(() => todos.create({ ...seed('a'), expected_turn: 1.5 })).toThrow(/\[0\]\.expected_turn must be an integer, not the fraction 1.5/);
    expect(() => todos.create({ ...seed('a'), status: 'blocked' as never })).toThrow(/\[0\]\.status must be one of/);
  });

  it('reset is all-or-nothing and refuses duplicate ids', () => {
    const todos = new Plan().todos;
    todos.createMany([seed('keep me')]);
    expect(() =>
      todos.reset([
        { id: 't4', ...seed('a') },
        { id: 't4', ...seed('b') },
      ]),
    ).toThrow(/\[1\]\.id repeats id "t4"/);
    expect(() => todos.reset([seed('a'), { intent: 'narrate' } as never])).toThrow(/\[1\]\.description is required/);
    expect(todos.list().map((todo) => todo.description)).toEqual(['keep me']);
    expect(todos.create(seed('next')).id).toBe('t2');
  });

  it('editMany applies all edits or none', () => {
    const todos = new Plan().todos;
    todos.createMany([seed('a'), seed('b')]);
    expect(() =>
      todos.editMany([
        { id: 't1', patch: { status: 'completed' } },
        { id: 't2', patch: { intent: '' } },
      ]),
    ).toThrow(ValidationError);
    expect(todos.list().map((todo) => todo.status)).toEqual(['pending', 'pending']);
  });
});

describe('plan.todos.onChange', () => {
  it('fires once per mutation with a copy of the list and the change', () => {
    const todos = new Plan().todos;
    const events: TodosChangeEvent[] = [];
    todos.onChange((event) => events.push(event));
    todos.createMany([seed('a'), seed('b')]);
    todos.edit('t1', { status: 'in_progress' });
    todos.delete('t2');
    todos.reset([seed('c')]);
    expect(events.map((event) => event.change.type)).toEqual(['create', 'edit', 'delete', 'reset']);
    expect(events[0]?.todos.map((todo) => todo.id)).toEqual(['t1', 't2']);
    expect(events[1]?.change).toMatchObject({ type: 'edit', items: [{ id: 't1', status: 'in_progress' }], previous: [{ id: 't1', status: 'pending' }] });
    expect(events[2]?.change).toEqual({ type: 'delete', ids: ['t2'] });
    events[3]!.todos[0]!.description = 'mutated';
    expect(todos.list()[0]?.description).toBe('c');
  });

  it('keeps going when a listener throws, and stops after unsubscribe', () => {
    const todos = new Plan().todos;
    const seen: string[] = [];
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      todos.onChange(() => {
        throw new Error('listener bug');
      });
      const off = todos.onChange((event) => seen.push(event.change.type));
      todos.create(seed('a'));
      off();
      todos.create(seed('b'));
    } finally {
      console.error = original;
    }
    expect(todos.list()).toHaveLength(2);
    expect(seen).toEqual(['create']);
    expect(errors).toHaveLength(2);
  });

  it('does not fire for a batch that creates nothing', () => {
    const todos = new Plan().todos;
    const events: unknown[] = [];
    todos.onChange((event) => events.push(event));
    expect(todos.createMany([])).toEqual([]);
    expect(events).toEqual([]);
  });
});

describe('plan.todos review fixes', () => {
  it('delivers a change made inside a listener after the current one, so every listener ends on the newest list', () => {
    const todos = new Plan().todos;
    todos.onChange(({ change }) => {
      if (change.type === 'create') todos.edit(change.items[0]!.id, { status: 'in_progress' });
    });
    const seen: string[] = [];
    todos.onChange(({ todos: list, change }) => seen.push(`${change.type}:${list.map((todo) => todo.status).join()}`));
    todos.create(seed('Open pricing'));
    expect(seen).toEqual(['create:pending', 'edit:in_progress']);
  });

  it('throws a ValidationError, not a TypeError, for a patch that is not an object', () => {
    const todos = new Plan().todos;
    todos.create(seed('Open pricing'));
    expect(() => todos.edit('t1', null as never)).toThrow(ValidationError);
    expect(() => todos.editMany(null as never)).toThrow(ValidationError);
    expect(todos.get('t1')?.status).toBe('pending');
  });
});

describe('plan.todos no-op edits', () => {
  it('fires nothing for an edit that changes no value, and still returns the todo', () => {
    const todos = new Plan().todos;
    todos.create({ intent: 'narrate', description: 'Explain tiers' });
    const events: TodosChangeEvent[] = [];
    todos.onChange((event) => events.push(event));
    expect(todos.edit('t1', { description: 'Explain tiers', status: 'pending' })).toMatchObject({ id: 't1', description: 'Explain tiers' });
    expect(todos.editMany([{ id: 't1', patch: {} }])).toHaveLength(1);
    expect(events).toEqual([]);
    todos.edit('t1', { status: 'completed' });
    expect(events).toHaveLength(1);
  });
});

describe('plan.todos.move', () => {
  const ids = (plan: Plan) => plan.todos.list().map((todo) => todo.id);

  it('moves one todo to an index, keeping every id, status and field, in one change', () => {
    const plan = new Plan();
    plan.todos.createMany([seed('a'), { ...seed('b'), expected_turn: 2 }, seed('c'), seed('d')]);
    plan.todos.edit('t2', { status: 'in_progress' });
    const events: TodosChangeEvent[] = [];
    plan.todos.onChange((event) => events.push(event));
    let saves = 0;
    plan.on('state-change', () => saves++);

    expect(plan.todos.move('t2', 3)).toBe(true);
    expect(ids(plan)).toEqual(['t1', 't3', 't4', 't2']);
    expect(plan.todos.get('t2')).toEqual({ id: 't2', intent: 'narrate', description: 'b', status: 'in_progress', expected_turn: 2 });
    expect(plan.todos.move('t4', 0)).toBe(true);
    expect(ids(plan)).toEqual(['t4', 't1', 't3', 't2']);
    expect(events.map((event) => event.change)).toEqual([
      { type: 'move', id: 't2', from: 1, to: 3 },
      { type: 'move', id: 't4', from: 2, to: 0 },
    ]);
    expect(events[1]?.todos.map((todo) => todo.id)).toEqual(['t4', 't1', 't3', 't2']);
    expect(saves).toBe(2);
    expect(plan.todos.lastId).toBe(4);
  });

  it('clamps an index past either end, and changes nothing when the todo is already there', () => {
    const plan = new Plan();
    plan.todos.createMany([seed('a'), seed('b'), seed('c')]);
    const events: TodosChangeEvent[] = [];
    plan.todos.onChange((event) => events.push(event));
    expect(plan.todos.move('t1', 99)).toBe(true);
    expect(ids(plan)).toEqual(['t2', 't3', 't1']);
    expect(plan.todos.move('t1', -5)).toBe(true);
    expect(ids(plan)).toEqual(['t1', 't2', 't3']);
    const before = plan.state;
    expect(plan.todos.move('t2', 1)).toBe(true);
    expect(plan.state).toBe(before);
    expect(events).toHaveLength(2);
  });

  it('returns false for an unknown id and refuses an index that is not a whole number, changing nothing', () => {
    const plan = new Plan();
    plan.todos.createMany([seed('a'), seed('b')]);
    const before = plan.state;
    expect(plan.todos.move('t9', 0)).toBe(false);
    expect(plan.todos.move(42 as never, 0)).toBe(false);
    expect(() => plan.todos.move('t1', 0.5)).toThrow(ValidationError);
    expect(() => plan.todos.move('t1', Number.NaN)).toThrow(/whole number/);
    expect(() => plan.todos.move('t1', '1' as never)).toThrow(ValidationError);
    expect(plan.state).toBe(before);
  });

  it('is stored across a reload, and a host move during a turn outlives the turn rollback', async () => {
    const storage = createMemoryAdapter();
    const plan = new Plan({ storage });
    await plan.ready;
    plan.todos.createMany([seed('a'), seed('b'), seed('c')]);
    const turn = plan.transaction();
    plan.todos.move('t3', 0);
    turn.rollback();
    expect(ids(plan)).toEqual(['t3', 't1', 't2']);
    await plan.flush();
    const reloaded = new Plan({ storage });
    await reloaded.ready;
    expect(ids(reloaded)).toEqual(['t3', 't1', 't2']);
  });
});

describe('the rewritten mark', () => {
  it('is kept by status edits, cleared by an edit of the text or rewritten: false, and survives a reload', async () => {
    const storage = createMemoryAdapter();
    const plan = new Plan({ storage });
    await plan.ready;
    plan.todos.createMany([seed('Show the tiers'), seed('Open the trial form', 'click')]);
    plan.adjust(
      {
        replace: [
          { id: 't1', description: 'SYSTEM OVERRIDE' },
          { id: 't2', description: 'Delete the account' },
        ],
      },
      { markRewrites: true },
    );
    plan.todos.edit('t1', { status: 'in_progress' });
    expect(plan.todos.get('t1')?.rewritten).toBe(true);
    await plan.flush();
    const reloaded = new Plan({ storage });
    await reloaded.ready;
    expect(reloaded.todos.list().map((todo) => todo.rewritten)).toEqual([true, true]);
    plan.todos.edit('t1', { description: 'Show the three tiers' });
    plan.todos.edit('t2', { rewritten: false });
    expect(plan.todos.list().map((todo) => [todo.description, todo.rewritten])).toEqual([
      ['Show the three tiers', undefined],
      ['Delete the account', undefined],
    ]);
  });

  it('is only ever true: anything else read from storage means not rewritten', async () => {
    const storage = createMemoryAdapter({
      version: 1,
      todos: [{ id: 't1', intent: 'narrate', description: 'Hi', status: 'pending', rewritten: 'yes' } as never],
      markdownDocs: [],
    });
    const plan = new Plan({ storage });
    await plan.ready;
    expect(plan.todos.get('t1')).toEqual({ id: 't1', intent: 'narrate', description: 'Hi', status: 'pending' });
  });
});
