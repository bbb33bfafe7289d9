import { describe, expect, it } from 'vitest';
import { AbortError } from '../src/errors.js';
import type { PlanEvents } from '../src/events.js';
import { createLLMRouter } from '../src/llm/provider.js';
import { createScriptedProvider } from '../src/llm/scripted.js';
import { runWebAgent } from '../src/loop/run-web-agent.js';
import { Plan, type PlanConfig } from '../src/plan.js';
import { createLocalStorageAdapter } from '../src/storage/local-storage.js';
import { createMemoryAdapter } from '../src/storage/memory.js';
import type { PlanSyncOptions } from '../src/sync/plan-sync.js';
import type { PlanSnapshot, PlanStorageAdapter } from '../src/storage/snapshot.js';
import { fakeBroadcastChannels, fakeLocks, sharedLocalStorage } from './helpers/fake-tabs.js';
import { fakeTimers, settle } from './helpers/fake-timers.js';
import { tick, until } from './helpers/wait.js';

// Issue 12 finding 5, wired into Plan: tabs on one stored plan (one origin's localStorage,
// BroadcastChannel and Web Locks, faked as in test/helpers/fake-tabs.ts) converge and lose no one's
// change, report what a merge drops, and run the turn loop one at a time.

/** One origin: tabs share its localStorage (with storage events), its BroadcastChannel and its locks. */
function origin() {
  const storage = sharedLocalStorage();
  const BroadcastChannel = fakeBroadcastChannels();
  const locks = fakeLocks();
  const plans: Plan[] = [];
  return {
    storage,
    /** A tab with a plan on `key`; `connected: false` hears nothing from the others (as if notices were lost). */
    async tab(
      options: {
        key?: string;
        connected?: boolean;
        llm?: PlanConfig['llm'];
        sync?: PlanSyncOptions;
        adapter?: (adapter: PlanStorageAdapter) => PlanStorageAdapter;
      } = {},
    ) {
      const tab = storage.tab();
      const connected = options.connected ?? true;
      const sync: PlanSyncOptions = connected
        ? { BroadcastChannel, storage: tab.storage, events: tab.events, locks, ...options.sync }
        : { BroadcastChannel: null, storage: null, events: null, locks: null, ...options.sync };
      const adapter = createLocalStorageAdapter({ key: options.key ?? 'tour', storage: tab.storage });
      const plan = new Plan({ storage: options.adapter ? options.adapter(adapter) : adapter, sync, llm: options.llm });
      plans.push(plan);
      const conflicts: Array<PlanEvents['sync-conflict']['conflict']> = [];
      plan.on('sync-conflict', ({ conflict }) => conflicts.push(conflict));
      await plan.ready;
      return { plan, conflicts, storage: tab.storage };
    },
    stored(key = 'tour'): PlanSnapshot | null {
      return createLocalStorageAdapter({ key, storage: storage.shared }).load();
    },
    async close() {
      await Promise.all(plans.map((plan) => plan.close()));
    },
  };
}

const descriptions = (plan: Plan) => plan.todos.list().map((todo) => todo.description);
const sameTodos = (a: Plan, b: Plan) => JSON.stringify(a.todos.list()) === JSON.stringify(b.todos.list());

describe('two tabs on one plan', () => {
  it('a change in one tab reaches the other as a sync commit with the usual change events', async () => {
    const site = origin();
    const a = await site.tab();
    const b = await site.tab();
    const events: string[] = [];
    b.plan.on('todos-change', ({ change }) => events.push(`todos-change ${change.type}`));
    b.plan.on('state-change', ({ origin: from }) => events.push(`state-change ${from}`));
    b.plan.on('plan-update', ({ source }) => events.push(`plan-update ${source}`));
    a.plan.todos.create({ intent: 'narrate', description: 'from A' });
    await until(() => descriptions(b.plan).length === 1, 'B to see A’s todo');
    expect(descriptions(b.plan)).toEqual(['from A']);
    expect(events).toEqual(['state-change sync', 'todos-change sync', 'plan-update sync']);
    // B merged and has nothing new: it does not write back.
    const writes = site.storage.shared.writes.filter((write) => write.key === 'tour').length;
    await tick(20);
    expect(site.storage.shared.writes.filter((write) => write.key === 'tour').length).toBe(writes);
    await site.close();
  });

  it('both tabs create and edit at once: they converge, nobody’s change is lost, the id clash is reported, and a third tab reads it all', async () => {
    const site = origin();
    const a = await site.tab();
    const b = await site.tab();
    // At the same moment, neither having seen the other's: both make t1.
    a.plan.todos.create({ intent: 'narrate', description: 'A1' });
    b.plan.todos.create({ intent: 'narrate', description: 'B1' });
    for (let i = 2; i <= 4; i++) {
      a.plan.todos.create({ intent: 'narrate', description: `A${i}` });
      await tick(Math.random() * 3);
      b.plan.todos.create({ intent: 'narrate', description: `B${i}` });
      b.plan.markdown.create({ title: `B note ${i}`, content: 'x' });
    }
    await Promise.all([a.plan.flush(), b.plan.flush()]);
    await until(
      () => sameTodos(a.plan, b.plan) && a.plan.todos.list().length === 8 && a.plan.saveStatus.state === 'saved' && b.plan.saveStatus.state === 'saved',
      'convergence',
    );
    expect([...descriptions(a.plan)].sort()).toEqual(['A1', 'A2', 'A3', 'A4', 'B1', 'B2', 'B3', 'B4']);
    expect(new Set(a.plan.todos.list().map((todo) => todo.id)).size).toBe(8);
    expect(a.plan.markdown.list()).toEqual(b.plan.markdown.list());
    expect([...a.conflicts, ...b.conflicts].filter((conflict) => conflict.reason === 'id-collision').length).toBeGreaterThan(0);

    const c = await site.tab();
    expect(c.plan.todos.list()).toEqual(a.plan.todos.list());
    expect(
      c.plan.markdown
        .list()
        .map((doc) => doc.title)
        .sort(),
    ).toEqual(['B note 2', 'B note 3', 'B note 4']);
    await site.close();
  });

  it('the same todo edited in both tabs: one deterministic winner everywhere, and the other edit reported', async () => {
    const site = origin();
    const a = await site.tab();
    a.plan.todos.create({ intent: 'narrate', description: 'original' });
    await a.plan.flush();
    const b = await site.tab();
    a.plan.todos.edit('t1', { description: 'edited in A' });
    b.plan.todos.edit('t1', { description: 'edited in B' });
    await until(() => sameTodos(a.plan, b.plan) && a.plan.saveStatus.state === 'saved' && b.plan.saveStatus.state === 'saved', 'convergence');
    const winner = a.plan.todos.get('t1')!.description;
    const loser = winner === 'edited in A' ? 'edited in B' : 'edited in A';
    const reported = [...a.conflicts, ...b.conflicts].filter((conflict) => conflict.reason === 'concurrent-edit');
    expect(reported.length).toBeGreaterThan(0);
    for (const conflict of reported) {
      expect(conflict).toMatchObject({ kept: { description: winner }, dropped: { description: loser } });
    }
    expect(site.stored()?.todos.map((todo) => todo.description)).toEqual([winner]);
    await site.close();
  });

  it('a tab that missed the notices is refused by the adapter, merges the stored plan and saves both tabs’ work', async () => {
    const site = origin();
    const a = await site.tab({ connected: false });
    const b = await site.tab({ connected: false });
    a.plan.todos.create({ intent: 'narrate', description: 'A' });
    await a.plan.flush();
    const errors: unknown[] = [];
    b.plan.on('storage-error', ({ error }) => errors.push(error));
    b.plan.todos.create({ intent: 'narrate', description: 'B' });
    await b.plan.flush();
    expect(
      site
        .stored()
        ?.todos.map((todo) => todo.description)
        .sort(),
    ).toEqual(['A', 'B']);
    expect(descriptions(b.plan).sort()).toEqual(['A', 'B']);
    expect(errors).toEqual([]);
    await site.close();
  });

  it('a tab whose saves keep losing to another tab’s saves merges and tries again until one lands: flush() resolves, nothing is lost', async () => {
    const site = origin();
    const b = await site.tab({ connected: false });
    // Just before each of A's first eight writes, B saves a change of its own: A's write is refused
    // as unmerged every time, as when another tab is busy saving a burst of edits.
    let racing = 8;
    const a = await site.tab({
      connected: false,
      adapter: (adapter) => ({
        ...adapter,
        save: async (snapshot) => {
          if (racing > 0 && snapshot.todos.length > 0) {
            racing -= 1;
            b.plan.todos.create({ intent: 'narrate', description: `B${8 - racing}` });
            await b.plan.flush();
          }
          return adapter.save(snapshot);
        },
      }),
    });
    const errors: unknown[] = [];
    a.plan.on('storage-error', ({ error }) => errors.push(error));
    a.plan.todos.create({ intent: 'narrate', description: 'A' });
    await a.plan.flush();
    expect(racing).toBe(0);
    expect(
      site
        .stored()
        ?.todos.map((todo) => todo.description)
        .sort(),
    ).toEqual(['A', 'B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7', 'B8']);
    expect(errors).toEqual([]);
    await site.close();
  });

  it('a rolled-back turn is stamped as a change: the other tab takes the restored todo, not the undone one', async () => {
    const site = origin();
    const a = await site.tab();
    a.plan.todos.createMany([
      { intent: 'narrate', description: 'first' },
      { intent: 'narrate', description: 'second' },
    ]);
    await a.plan.flush();
    const b = await site.tab();
    const turn = a.plan.transaction();
    turn.adjust({ remove: ['t1'] }, { inProgress: 't2' });
    await a.plan.flush();
    await until(() => b.plan.todos.get('t1')?.status === 'completed', 'B to see the turn');
    turn.rollback();
    await a.plan.flush();
    await until(() => b.plan.todos.get('t1')?.status === 'pending', 'B to see the rollback', 1000);
    // Both settle on the checkpoint's values, in memory and in storage.
    await tick(20);
    expect(a.plan.todos.list().map((todo) => todo.status)).toEqual(['pending', 'pending']);
    expect(b.plan.todos.list().map((todo) => todo.status)).toEqual(['pending', 'pending']);
    expect(site.stored()?.todos.map((todo) => todo.status)).toEqual(['pending', 'pending']);
    await site.close();
  });

  it('a rollback with the other tab’s changes merged during the turn keeps every item once, with its identity', async () => {
    // Found by the fault suite: the rollback replays the turn's foreign updates onto the
    // checkpoint, a merge among them; the todos this tab made during the turn had no clocks in
    // that replay, so the merge took them for other items (renamed, duplicated, edits lost).
    const site = origin();
    const a = await site.tab();
    a.plan.todos.createMany([
      { intent: 'narrate', description: 'run 1' },
      { intent: 'narrate', description: 'run 2' },
    ]);
    await a.plan.flush();
    const b = await site.tab();
    const turn = a.plan.transaction();
    turn.adjust({ remove: ['t1'] }, { inProgress: 't2' });
    // Both tabs make t3 (B saves first; A, not having merged it yet, makes its own, and its save
    // is refused and merged); A goes on editing its own.
    b.plan.todos.create({ intent: 'narrate', description: 'B made' });
    await b.plan.flush();
    const own = a.plan.todos.create({ intent: 'narrate', description: 'A made' });
    await until(() => descriptions(a.plan).includes('B made'), 'A to merge B’s todo');
    const mine = a.plan.todos.list().find((todo) => todo.description === 'A made')!;
    // B's t3 was made with a lower clock (A's turn had ticked A's): A's own was renamed.
    expect(mine.id).toBe('t3~2');
    a.plan.todos.edit(mine.id, { description: 'A made, edited' });
    a.plan.todos.create({ intent: 'narrate', description: 'A made later' });
    turn.rollback();
    await until(() => sameTodos(a.plan, b.plan) && a.plan.saveStatus.state === 'saved' && b.plan.saveStatus.state === 'saved', 'convergence');
    await tick(20);
    const expected = ['A made later', 'A made, edited', 'B made', 'run 1', 'run 2'];
    expect([...descriptions(a.plan)].sort()).toEqual(expected);
    expect([...descriptions(b.plan)].sort()).toEqual(expected);
    expect(
      site
        .stored()
        ?.todos.map((todo) => todo.description)
        .sort(),
    ).toEqual(expected);
    expect(
      a.plan.todos
        .list()
        .slice(0, 2)
        .map((todo) => todo.status),
    ).toEqual(['pending', 'pending']);
    expect(own.id).toBe('t3');
    await site.close();
  });

  it('a todo moved in one tab stays where it was put, in both tabs, while the other tab adds todos', async () => {
    // main's todos.move met sync in this branch: merges ordered todos by creation, so a move was
    // neither passed on nor kept once another tab saved.
    const site = origin();
    const a = await site.tab();
    a.plan.todos.createMany(['one', 'two', 'three'].map((description) => ({ intent: 'narrate', description })));
    await a.plan.flush();
    const b = await site.tab();
    expect(a.plan.todos.move('t3', 0)).toBe(true);
    b.plan.todos.create({ intent: 'narrate', description: 'four, from B' });
    await until(
      () => sameTodos(a.plan, b.plan) && descriptions(a.plan).length === 4 && a.plan.saveStatus.state === 'saved' && b.plan.saveStatus.state === 'saved',
      'convergence',
    );
    expect(descriptions(a.plan)).toEqual(['three', 'one', 'two', 'four, from B']);
    expect(descriptions(b.plan)).toEqual(['three', 'one', 'two', 'four, from B']);
    // A move in B after seeing A's wins, and a tab opened later reads the same order.
    b.plan.todos.move('t1', 3);
    await until(() => sameTodos(a.plan, b.plan) && descriptions(a.plan)[3] === 'one', 'the second move');
    const c = await site.tab();
    expect(descriptions(c.plan)).toEqual(['three', 'two', 'four, from B', 'one']);
    await site.close();
  });

  it('a replan in one tab replaces the other tab’s list whole, as a reset with the new summary', async () => {
    const site = origin();
    const a = await site.tab();
    a.plan.todos.create({ intent: 'narrate', description: 'old plan' });
    await a.plan.flush();
    const b = await site.tab();
    const changes: string[] = [];
    b.plan.on('todos-change', ({ change }) => changes.push(change.type));
    a.plan.setTaskPlan({ summary: 'A new tour', task: 'Tour', todos: [{ intent: 'navigate', description: 'new plan' }] });
    await until(() => b.plan.summary === 'A new tour', 'B to see the replan');
    expect(descriptions(b.plan)).toEqual(['new plan']);
    expect(b.plan.task).toBe('Tour');
    expect(changes).toEqual(['reset']);
    await site.close();
  });

  it('a tab reloaded after the other saved starts from the merged plan', async () => {
    const site = origin();
    const a = await site.tab();
    a.plan.todos.create({ intent: 'narrate', description: 'A' });
    await a.plan.flush();
    const b = await site.tab();
    b.plan.todos.create({ intent: 'narrate', description: 'B' });
    await b.plan.flush();
    await b.plan.close();
    const reloaded = await site.tab();
    expect(descriptions(reloaded.plan)).toEqual(['A', 'B']);
    await until(() => descriptions(a.plan).length === 2, 'A to see B');
    await site.close();
  });
});

describe('sync switches', () => {
  it('is off for the memory adapter and with sync: false; snapshots then carry no clocks', async () => {
    const memory = new Plan({ storage: createMemoryAdapter() });
    await memory.ready;
    memory.todos.create({ intent: 'narrate', description: 'x' });
    expect(memory.snapshot().sync).toBeUndefined();
    const site = origin();
    const tab = site.storage.tab();
    const off = new Plan({ storage: createLocalStorageAdapter({ key: 'tour', storage: tab.storage }), sync: false });
    await off.ready;
    off.todos.create({ intent: 'narrate', description: 'x' });
    await off.flush();
    expect(off.snapshot().sync).toBeUndefined();
    expect(site.stored()?.sync).toBeUndefined();
    expect(await off.runHolder()).toBeNull();
  });

  it('is on by default for a shared adapter where the platform has BroadcastChannel (Node has it), with clocks in the snapshot', async () => {
    const site = origin();
    const plan = new Plan({ storage: createLocalStorageAdapter({ key: 'tour', storage: site.storage.tab().storage }) });
    await plan.ready;
    plan.todos.create({ intent: 'narrate', description: 'x' });
    await plan.flush();
    expect(site.stored()?.sync).toMatchObject({ v: 1, todos: { t1: expect.any(Array) } });
    await plan.close();
  });
});

const PLAN = {
  task_summary: 'A tour',
  todos: [
    { intent: 'narrate', description: 'one' },
    { intent: 'narrate', description: 'two' },
    { intent: 'finish', description: 'three' },
  ],
};
const turn = (todo: string, remove: string[]) => ({
  turn_planning: { todo_id: todo, does: `Do ${todo}`, is_last_turn: false },
  todo_adjust: { remove },
  actions: [{ type: 'narrate', text: `Narrating ${todo}` }],
});
const TURNS = [turn('t1', []), turn('t2', ['t1']), { ...turn('t3', ['t2']), actions: [{ type: 'task_finish', summary: 'Done.' }] }];
const slowModel = () => createLLMRouter({ default: createScriptedProvider(TURNS, { chunkSize: 4, delayMs: 3 }), plan: createScriptedProvider([PLAN]) });

describe('the run lease: one tab runs the turn loop of a plan', () => {
  it('a second tab is refused with run_in_progress naming the holder; it sees the run live, and can stop it', async () => {
    const site = origin();
    const a = await site.tab({ llm: slowModel() });
    const b = await site.tab({ llm: slowModel() });
    const holders: Array<PlanEvents['run-holder-change']> = [];
    b.plan.on('run-holder-change', (event) => holders.push(event));
    let narrated = 0;
    const running = runWebAgent({ plan: a.plan, task: 'Tour', onNarrate: () => void (narrated += 1) });
    const runErrors: unknown[] = [];
    b.plan.on('run-error', ({ error }) => runErrors.push(error));
    await until(() => narrated > 0, 'the first narration');
    const holder = await b.plan.runHolder();
    expect(holder).toMatchObject({ self: false, replica: expect.any(String) });
    expect(holders).toContainEqual({ holder: holder!.replica, self: false });
    await expect(runWebAgent({ plan: b.plan, task: 'Tour' })).rejects.toMatchObject({
      code: 'run_in_progress',
      message: expect.stringContaining(holder!.replica),
    });
    expect(runErrors).toEqual([]); // refused before it started: not a run error here
    // B sees the run's progress live.
    await until(() => b.plan.todos.list().some((todo) => todo.status === 'in_progress'), 'B to see the run');

    await b.plan.requestStop('Stop pressed in B');
    const error = await running.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).message).toMatch(/Another tab \(.+\) asked this run to stop: Stop pressed in B/);
    await until(() => holders.at(-1)?.holder === null, 'the release to be announced');
    expect(await b.plan.runHolder()).toBeNull();
    await site.close();
  });

  it('takeOver takes the run from the other tab, whose run stops', async () => {
    const site = origin();
    const a = await site.tab({ llm: slowModel() });
    const b = await site.tab({ llm: slowModel() });
    let narrated = 0;
    const running = runWebAgent({ plan: a.plan, task: 'Tour', onNarrate: () => void (narrated += 1) });
    await until(() => narrated > 0, 'the first narration');
    await until(() => sameTodos(a.plan, b.plan), 'B to have the plan');
    const taken = runWebAgent({ plan: b.plan, task: 'Tour', takeOver: true, resume: true });
    const error = await running.catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/taken over by another tab/);
    await expect(taken).resolves.toMatchObject({ reason: 'task_finish' });
    expect(await b.plan.runHolder()).toBeNull();
    // A's cut-short turn was kept, not undone: nothing raced B's turns, and both tabs end done.
    await until(() => sameTodos(a.plan, b.plan) && b.plan.saveStatus.state === 'saved', 'convergence');
    expect(b.plan.todos.list().map((todo) => todo.status)).toEqual(['completed', 'completed', 'completed']);
    expect([...a.conflicts, ...b.conflicts]).toEqual([]);
    await site.close();
  });

  it('a turn cut short by a forced takeover is kept, not undone: the taking tab goes on from it, and the plan ends done', async () => {
    // The tabs share locks and storage but hear no notices (A never hears B ask it to stop, as a
    // frozen tab would not): only saves and loads carry the plan, so an undo in A would land after
    // B read the plan, and win over B's view of it.
    const site = origin();
    const quiet = { BroadcastChannel: null, events: null, takeOverWaitMs: 0 };
    const a = await site.tab({ llm: slowModel(), sync: quiet });
    const b = await site.tab({ llm: slowModel(), sync: quiet });
    const running = runWebAgent({ plan: a.plan, task: 'Tour' });
    // A's second turn has completed t1 and started t2, and saved it.
    await until(() => a.plan.todos.get('t1')?.status === 'completed' && site.stored()?.todos[0]?.status === 'completed', 'A’s second turn');
    const taken = runWebAgent({ plan: b.plan, task: 'Tour', takeOver: true, resume: true });
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
    await expect(taken).resolves.toMatchObject({ reason: 'task_finish' });
    await a.plan.flush();
    await b.plan.flush();
    expect(site.stored()?.todos.map((todo) => todo.status)).toEqual(['completed', 'completed', 'completed']);
    await site.close();
  });

  it('a takeover waits takeOverWaitMs on the injected clock for a tab that does not answer, then takes the lease by force', async () => {
    // Issue 21: the takeover polled with a hard-coded setTimeout against Date.now(). Now its
    // clock and timers are the sync's (PlanSyncOptions.now / .timers), which this test drives.
    const site = origin();
    const clock = fakeTimers();
    const quiet = { BroadcastChannel: null, events: null, now: clock.now, timers: clock.timers, takeOverWaitMs: 1000 };
    const a = await site.tab({ sync: quiet });
    const b = await site.tab({ sync: quiet });
    const run = await a.plan.acquireRun();
    let taken: Awaited<ReturnType<Plan['acquireRun']>> | undefined;
    void b.plan.acquireRun({ takeOver: true }).then((handle) => (taken = handle));
    await until(() => clock.pendingCount > 0, 'the takeover to start waiting');
    await clock.advance(980);
    expect(taken).toBeUndefined();
    expect(run.signal.aborted).toBe(false);
    await clock.advance(40);
    await until(() => taken !== undefined, 'the forced takeover');
    expect(run.signal.aborted).toBe(true);
    expect(clock.delays.every((delay) => delay === 20)).toBe(true);
    expect(await b.plan.runHolder()).toMatchObject({ self: true });
    await settle();
    await taken?.release();
    await run.release();
    await site.close();
  });

  it('requestStop() in the tab that runs stops its own run', async () => {
    const plan = new Plan({ llm: slowModel() });
    let narrated = 0;
    const running = runWebAgent({ plan, task: 'Tour', onNarrate: () => void (narrated += 1) });
    await until(() => narrated > 0, 'the first narration');
    expect(await plan.runHolder()).toMatchObject({ self: true });
    await plan.requestStop();
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
    expect(await plan.runHolder()).toBeNull();
  });
});
