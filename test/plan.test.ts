import { describe, expect, it } from 'vitest';
import { Plan } from '../src/plan.js';
import { StorageError } from '../src/errors.js';
import { createMemoryAdapter } from '../src/storage/memory.js';
import type { PlanSnapshot, PlanStorageAdapter } from '../src/storage/snapshot.js';

const stored: PlanSnapshot = {
  version: 1,
  todos: [
    { id: 't1', intent: 'navigate', description: 'Open pricing', status: 'completed', expected_turn: 1 },
    { id: 't2', intent: 'narrate', description: 'Explain tiers', status: 'in_progress' },
  ],
  markdownDocs: [{ id: 'm1', title: 'Notes', content: 'hello', updatedAt: 5 }],
  lastIds: { todos: 3, markdown: 1 },
};

/** An adapter whose load and save resolve only when the test says so. */
function controlledAdapter(initial: PlanSnapshot | null = null) {
  const saves: PlanSnapshot[] = [];
  const pendingSaves: Array<() => void> = [];
  let releaseLoad!: (value: PlanSnapshot | null) => void;
  const adapter: PlanStorageAdapter = {
    load: () => new Promise((resolve) => (releaseLoad = resolve)),
    save: (snapshot) =>
      new Promise<void>((resolve) => {
        pendingSaves.push(() => {
          saves.push(structuredClone(snapshot));
          resolve();
        });
      }),
  };
  return { adapter, saves, pendingSaves, releaseLoad: () => releaseLoad(structuredClone(initial)) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Plan.attachTo and ready', () => {
  it('sets host.plan and returns the host', () => {
    const plan = new Plan();
    const host = { name: 'agent' };
    const attached = plan.attachTo(host);
    expect(attached).toBe(host);
    expect(attached.plan).toBe(plan);
  });

  it('resolves ready at once without storage', async () => {
    const plan = new Plan();
    await expect(plan.ready).resolves.toBeUndefined();
  });

  it('hydrates once however often it is attached', async () => {
    let loads = 0;
    const plan = new Plan({ storage: { load: () => (loads++, structuredClone(stored)), save: () => {} } });
    plan.attachTo({});
    plan.attachTo({});
    await plan.ready;
    plan.attachTo({});
    await plan.ready;
    expect(loads).toBe(1);
    expect(plan.todos.list()).toHaveLength(2);
  });
});

describe('Plan hydration', () => {
  it('restores ids, statuses and documents exactly, and writes nothing back', async () => {
    const storage = createMemoryAdapter(stored);
    const plan = new Plan({ storage });
    const hydrated: unknown[] = [];
    plan.on('plan-hydrate', (event) => hydrated.push(event.restored));
    plan.attachTo({});
    await plan.ready;
    await plan.flush();
    expect(plan.todos.list()).toEqual(stored.todos);
    expect(plan.markdown.list()).toEqual(stored.markdownDocs);
    expect(storage.saveCount).toBe(0);
    expect(hydrated).toEqual([true]);
  });

  it('keeps retired ids retired: the stored counter wins over the list', async () => {
    const plan = new Plan({ storage: createMemoryAdapter(stored) });
    await plan.ready;
    expect(plan.todos.create({ intent: 'finish', description: 'Wrap up' }).id).toBe('t4');
    expect(plan.markdown.create({ title: 'More', content: '' }).id).toBe('m2');
  });

  it('continues after the highest stored id when the counter is missing (seed format)', async () => {
    const bare = { todos: [{ id: 't5', intent: 'narrate', description: 'Old' }], markdownDocs: [] };
    const plan = new Plan({ storage: { load: () => bare as unknown as PlanSnapshot, save: () => {} } });
    await plan.ready;
    expect(plan.todos.get('t5')?.status).toBe('pending');
    expect(plan.todos.create({ intent: 'narrate', description: 'New' }).id).toBe('t6');
  });

  it('merges work done before hydration after the stored items, renumbering collisions', async () => {
    const { adapter, saves, pendingSaves, releaseLoad } = controlledAdapter(stored);
    const plan = new Plan({ storage: adapter });
    plan.attachTo({});
    const early = plan.todos.create({ intent: 'ask', description: 'Asked before load' });
    const note = plan.markdown.create({ title: 'Early note', content: '' });
    expect(early.id).toBe('t1');
    releaseLoad();
    await plan.ready;
    expect(plan.todos.list().map((todo) => `${todo.id}:${todo.description}`)).toEqual(['t1:Open pricing', 't2:Explain tiers', 't4:Asked before load']);
    expect(plan.markdown.list().map((doc) => doc.title)).toEqual(['Notes', 'Early note']);
    expect(note.id).toBe('m1');
    await tick();
    pendingSaves.shift()?.();
    await plan.flush();
    expect(saves.at(-1)?.todos).toHaveLength(3);
    expect(saves.at(-1)?.markdownDocs).toHaveLength(2);
  });

  it('lets a reset before hydration replace the stored todos, without reusing their ids', async () => {
    const { adapter, releaseLoad } = controlledAdapter(stored);
    const plan = new Plan({ storage: adapter });
    plan.attachTo({});
    plan.todos.reset([{ intent: 'narrate', description: 'Fresh plan' }]);
    releaseLoad();
    await plan.ready;
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['Fresh plan']);
    expect(plan.todos.create({ intent: 'finish', description: 'Next' }).id).toBe('t4');
  });

  it('never saves before the stored snapshot was read', async () => {
    const { adapter, saves, pendingSaves, releaseLoad } = controlledAdapter(stored);
    const plan = new Plan({ storage: adapter });
    plan.attachTo({});
    plan.todos.create({ intent: 'ask', description: 'Early' });
    await tick();
    expect(pendingSaves).toHaveLength(0);
    releaseLoad();
    await plan.ready;
    await tick();
    expect(pendingSaves).toHaveLength(1);
    pendingSaves[0]!();
    await plan.flush();
    expect(saves[0]?.todos.map((todo) => todo.id)).toEqual(['t1', 't2', 't4']);
  });
});

describe('Plan saving', () => {
  it('saves after every mutation, coalescing a burst into one write of the last state', async () => {
    const storage = createMemoryAdapter();
    const plan = new Plan({ storage });
    await plan.ready;
    for (let i = 0; i < 20; i++) plan.todos.create({ intent: 'narrate', description: `step ${i}` });
    await plan.flush();
    expect(storage.saveCount).toBe(1);
    expect(storage.snapshot?.todos).toHaveLength(20);
    plan.markdown.create({ title: 'Notes', content: '' });
    await plan.flush();
    expect(storage.saveCount).toBe(2);
    expect(storage.snapshot?.markdownDocs).toHaveLength(1);
  });

  it('never overlaps saves, and a slow save followed by a fast one leaves the newest state', async () => {
    let active = 0;
    let maxActive = 0;
    let last: PlanSnapshot | null = null;
    const delays = [30, 1, 1, 1];
    const storage: PlanStorageAdapter = {
      load: () => null,
      save: async (snapshot) => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((resolve) => setTimeout(resolve, delays.shift() ?? 1));
        last = structuredClone(snapshot);
        active--;
      },
    };
    const plan = new Plan({ storage });
    await plan.ready;
    plan.todos.create({ intent: 'narrate', description: 'first' });
    await tick();
    plan.todos.create({ intent: 'narrate', description: 'second' });
    await tick();
    plan.todos.create({ intent: 'narrate', description: 'third' });
    await plan.flush();
    expect(maxActive).toBe(1);
    expect(last!.todos.map((todo) => todo.description)).toEqual(['first', 'second', 'third']);
  });
});

describe('Plan storage faults', () => {
  it('reports a failing save, keeps the plan, and retries on the next mutation', async () => {
    let fail = true;
    const saved: PlanSnapshot[] = [];
    const plan = new Plan({
      storage: {
        load: () => null,
        save: (snapshot) => {
          if (fail) throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
          saved.push(snapshot);
        },
      },
    });
    const errors: StorageError[] = [];
    plan.on('storage-error', ({ error }) => errors.push(error));
    await plan.ready;
    plan.todos.create({ intent: 'narrate', description: 'kept in memory' });
    // flush() tries once more at once, and rejects when that fails too (issue 12: it used to resolve).
    await expect(plan.flush()).rejects.toBeInstanceOf(StorageError);
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors[0]).toBeInstanceOf(StorageError);
    expect(errors[0]).toMatchObject({ code: 'storage_error', operation: 'save' });
    expect(plan.todos.list()).toHaveLength(1);
    fail = false;
    plan.todos.create({ intent: 'narrate', description: 'second' });
    await plan.flush();
    expect(saved.at(-1)?.todos).toHaveLength(2);
  });

  it('reports a rejected (async) save the same way', async () => {
    const plan = new Plan({ storage: { load: () => null, save: () => Promise.reject(new Error('blocked')) } });
    const errors: StorageError[] = [];
    plan.on('storage-error', ({ error }) => errors.push(error));
    await plan.ready;
    plan.todos.create({ intent: 'narrate', description: 'x' });
    await expect(plan.flush()).rejects.toThrow(/Saving the plan failed: blocked/);
    expect(errors[0]?.message).toMatch(/Saving the plan failed: blocked/);
  });

  it.each([
    ['a string', 'not a plan'],
    ['an array', [1, 2]],
    ['todos of the wrong shape', { todos: [{ id: 't1', description: 42 }], markdownDocs: [] }],
    [
      'duplicate ids',
      {
        todos: [
          { id: 't1', intent: 'a', description: 'b' },
          { id: 't1', intent: 'a', description: 'c' },
        ],
        markdownDocs: [],
      },
    ],
    ['a newer format', { version: 99, todos: [], markdownDocs: [] }],
  ])('starts empty on stored %s, reports it, and hands the data to backup first', async (_label, garbage) => {
    const storage = createMemoryAdapter();
    const adapter: PlanStorageAdapter = { load: () => garbage as never, save: storage.save, backup: storage.backup! };
    const plan = new Plan({ storage: adapter });
    const errors: StorageError[] = [];
    plan.on('storage-error', ({ error }) => errors.push(error));
    await plan.ready;
    expect(plan.todos.list()).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.operation).toBe('load');
    expect(errors[0]?.raw).toEqual(garbage);
    expect(storage.backups).toEqual([{ raw: garbage, reason: errors[0]!.message }]);
    expect(storage.saveCount).toBe(0);
  });

  it('does not write over stored data it could not read, until hydrate() succeeds', async () => {
    let reachable = false;
    const saves: PlanSnapshot[] = [];
    const plan = new Plan({
      storage: {
        load: () => {
          if (!reachable) throw new Error('IndexedDB blocked');
          return structuredClone(stored);
        },
        save: (snapshot) => void saves.push(snapshot),
      },
    });
    const errors: StorageError[] = [];
    plan.on('storage-error', ({ error }) => errors.push(error));
    await plan.ready;
    plan.todos.create({ intent: 'narrate', description: 'made while storage was down' });
    // Nothing can be saved yet: flush() says so with the load's error instead of resolving.
    await expect(plan.flush()).rejects.toBe(errors[0]);
    expect(plan.saveStatus).toMatchObject({ state: 'held', error: errors[0] });
    expect(errors.map((error) => error.operation)).toEqual(['load']);
    expect(saves).toEqual([]);
    reachable = true;
    await plan.hydrate();
    await plan.flush();
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['Open pricing', 'Explain tiers', 'made while storage was down']);
    expect(saves.at(-1)?.todos).toHaveLength(3);
  });
});

describe('Plan events', () => {
  it('re-emits artifact changes as todos-change and markdown-change', async () => {
    const plan = new Plan();
    const names: string[] = [];
    plan.on('todos-change', ({ change }) => names.push(`todos:${change.type}`));
    const off = plan.on('markdown-change', ({ change }) => names.push(`markdown:${change.type}`));
    plan.todos.create({ intent: 'narrate', description: 'a' });
    plan.markdown.create({ title: 'n', content: '' });
    off();
    plan.markdown.create({ title: 'n2', content: '' });
    expect(names).toEqual(['todos:create', 'markdown:create']);
  });

  it('throws no_llm when a model role is needed and there is no llm', () => {
    expect(() => new Plan().provider('plan')).toThrow(expect.objectContaining({ code: 'no_llm' }));
  });
});

describe('Plan review fixes', () => {
  it('flush() saves work done on a plan that was never attached (the memory adapter example)', async () => {
    const storage = createMemoryAdapter();
    const plan = new Plan({ storage });
    plan.todos.create({ intent: 'narrate', description: 'Say hello' });
    await plan.flush();
    expect(storage.snapshot?.todos.length).toBe(1);
  });

  it('never hands a local id that the stored plan retired (deleted) to work done before hydration', async () => {
    const { adapter, releaseLoad } = controlledAdapter(stored); // t1, t2 stored; t3 deleted (lastIds.todos 3)
    const plan = new Plan({ storage: adapter });
    plan.attachTo({});
    plan.todos.createMany([
      { intent: 'ask', description: 'early 1' },
      { intent: 'ask', description: 'early 2' },
      { intent: 'ask', description: 'early 3' },
    ]);
    plan.markdown.create({ title: 'early a', content: '' });
    plan.markdown.create({ title: 'early b', content: '' });
    releaseLoad();
    await plan.ready;
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t1', 't2', 't4', 't5', 't6']);
    expect(plan.markdown.list().map((doc) => doc.id)).toEqual(['m1', 'm3', 'm2']); // local m2 is above the stored counter (1): kept
  });

  it('renumbers a local doc whose id the stored counter retired', async () => {
    const retired: PlanSnapshot = { ...structuredClone(stored), markdownDocs: [], lastIds: { todos: 3, markdown: 2 } };
    const { adapter, releaseLoad } = controlledAdapter(retired);
    const plan = new Plan({ storage: adapter });
    plan.attachTo({});
    plan.markdown.create({ title: 'early', content: '' });
    releaseLoad();
    await plan.ready;
    expect(plan.markdown.list().map((doc) => doc.id)).toEqual(['m3']);
  });

  it('reports a synchronous load failure to a listener subscribed right after attachTo()', async () => {
    const plan = new Plan({
      storage: {
        load: () => {
          throw new StorageError('storage_error', 'not JSON', { operation: 'load', raw: '{oops' });
        },
        save: () => {},
      },
    });
    plan.attachTo({});
    const errors: StorageError[] = [];
    plan.on('storage-error', ({ error }) => errors.push(error));
    await plan.ready;
    // The load error, then (this adapter has no backup) that the data is kept where it is.
    expect(errors.map((error) => error.reason ?? error.message)).toEqual(['not JSON', 'backup_failed']);
  });

  it('saves a change a listener makes in response to hydration', async () => {
    const storage = createMemoryAdapter(stored);
    const plan = new Plan({ storage });
    plan.on('todos-change', ({ change }) => {
      if (change.type === 'hydrate') plan.todos.edit('t2', { status: 'completed' });
    });
    await plan.ready;
    await plan.flush();
    expect(plan.todos.get('t2')?.status).toBe('completed');
    expect(storage.snapshot?.todos[1]?.status).toBe('completed');
  });

  it('fires no change event when hydration leaves a list as it was', async () => {
    const { adapter, releaseLoad } = controlledAdapter({ version: 1, todos: [], markdownDocs: [] });
    const plan = new Plan({ storage: adapter });
    plan.attachTo({});
    plan.todos.create({ intent: 'ask', description: 'early' });
    plan.markdown.create({ title: 'early', content: '' });
    const events: string[] = [];
    plan.on('todos-change', ({ change }) => events.push(`todos:${change.type}`));
    plan.on('markdown-change', ({ change }) => events.push(`markdown:${change.type}`));
    releaseLoad();
    await plan.ready;
    expect(events).toEqual([]);
  });

  it('fires no todos change when a reset before hydration keeps its own list', async () => {
    const { adapter, releaseLoad } = controlledAdapter(stored);
    const plan = new Plan({ storage: adapter });
    plan.attachTo({});
    plan.todos.reset([{ intent: 'narrate', description: 'Fresh plan' }]);
    const events: string[] = [];
    plan.on('todos-change', ({ change }) => events.push(change.type));
    releaseLoad();
    await plan.ready;
    expect(events).toEqual([]);
  });

  it('keeps extra keys of the stored snapshot when it saves', async () => {
    const storage = createMemoryAdapter({ ...structuredClone(stored), hostData: { tour: 'pricing' } });
    const plan = new Plan({ storage });
    await plan.ready;
    plan.todos.create({ intent: 'finish', description: 'Wrap up' });
    await plan.flush();
    expect(storage.snapshot?.hostData).toEqual({ tour: 'pricing' });
    const snapshot = plan.snapshot();
    (snapshot.hostData as { tour: string }).tour = 'changed';
    expect(plan.snapshot().hostData).toEqual({ tour: 'pricing' });
  });
});

describe('Plan.summary and setTaskPlan', () => {
  it('sets the todos and the summary in one change, stores both and restores them after a reload', async () => {
    const storage = createMemoryAdapter();
    const plan = new Plan({ storage });
    const created: string[] = [];
    plan.on('plan-create', ({ plan: taskPlan }) => created.push(taskPlan.summary));
    await plan.ready;
    const taskPlan = plan.setTaskPlan({ summary: 'A look at pricing', todos: [{ intent: 'navigate', description: 'Open pricing' }] });
    expect(taskPlan).toEqual({
      summary: 'A look at pricing',
      task_summary: 'A look at pricing',
      todos: [{ id: 't1', intent: 'navigate', description: 'Open pricing', status: 'pending' }],
    });
    expect(plan.summary).toBe('A look at pricing');
    expect(created).toEqual(['A look at pricing']);
    await plan.flush();
    expect(storage.saveCount).toBe(1);
    expect(storage.snapshot?.taskSummary).toBe('A look at pricing');

    const reloaded = new Plan({ storage });
    await reloaded.ready;
    expect(reloaded.summary).toBe('A look at pricing');
  });

  it('drops the summary when the host resets the todos, since it no longer describes them', async () => {
    const plan = new Plan();
    plan.setTaskPlan({ summary: 'Old plan', todos: [{ intent: 'narrate', description: 'Old step' }] });
    plan.todos.reset([{ intent: 'narrate', description: 'From a checklist' }]);
    expect(plan.summary).toBe('');
    expect(plan.snapshot().taskSummary).toBeUndefined();
  });

  it('changes nothing, summary included, when the todos are invalid', () => {
    const plan = new Plan();
    plan.setTaskPlan({ summary: 'Kept', todos: [{ intent: 'narrate', description: 'Kept step' }] });
    expect(() => plan.setTaskPlan({ summary: 'New', todos: [{ intent: 'narrate', description: ' ' }] })).toThrow(/\[0\]\.description must not be empty/);
    expect(plan.summary).toBe('Kept');
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['Kept step']);
  });

  it('keeps the summary of a setTaskPlan made from a todos-change listener', () => {
    const plan = new Plan();
    plan.on('todos-change', ({ change }) => {
      if (change.type === 'reset' && change.items.length === 0) {
        plan.setTaskPlan({ task: 'Fallback', summary: 'A fallback tour', todos: [{ intent: 'narrate', description: 'Say hello' }] });
      }
    });
    plan.todos.reset([]);
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['Say hello']);
    expect(plan.summary).toBe('A fallback tour');
    expect(plan.task).toBe('Fallback');
  });

  it('drops the summary when a todos-change listener resets the todos that setTaskPlan set', () => {
    const plan = new Plan();
    plan.on('todos-change', ({ change }) => {
      if (change.type === 'reset' && change.items.length > 1) plan.todos.reset([change.items[0]!]);
    });
    plan.setTaskPlan({
      task: 'Tour',
      summary: 'Two steps',
      todos: [
        { intent: 'narrate', description: 'One' },
        { intent: 'narrate', description: 'Two' },
      ],
    });
    expect(plan.todos.list()).toHaveLength(1);
    expect(plan.summary).toBe('');
    expect(plan.task).toBe('');
  });
});

describe('Plan.task', () => {
  it('is stored with the todos makeTodos made, restored on reload, and dropped by a host reset', async () => {
    const storage = createMemoryAdapter();
    const plan = new Plan({ storage });
    await plan.ready;
    plan.setTaskPlan({ task: ' Show the prices ', summary: 'Prices', todos: [{ intent: 'navigate', description: 'Open pricing' }] });
    expect(plan.task).toBe('Show the prices');
    await plan.flush();
    const reloaded = new Plan({ storage });
    await reloaded.ready;
    expect(reloaded.task).toBe('Show the prices');
    reloaded.todos.reset([]);
    expect(reloaded.task).toBe('');
  });
});
