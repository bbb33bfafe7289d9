import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { PlannerOutputError } from '../../src/model-errors.js';
import { createLLMRouter } from '../../src/llm/provider.js';
import { createScriptedProvider, type ScriptedResponses } from '../../src/llm/scripted.js';
import type { ApproveHook } from '../../src/loop/action-policy.js';
import type { PageChecker } from '../../src/loop/evidence-ledger.js';
import type { LoopTool } from '../../src/loop/run-web-agent.js';
import { startRun } from '../../src/loop/start-run.js';
import { Plan } from '../../src/plan.js';
import { lastUserText } from '../helpers/obedient-model.js';

// A todo ticks when the run shows it done, and a run ends done only when it is: scripted models
// that claim, and tools that move a fake page (`page` is where it is).
const PLAN = {
  task_summary: 'Show the pricing page and start a trial',
  todos: [
    { intent: 'navigate', description: 'Open the pricing page' },
    { intent: 'narrate', description: 'Explain the tiers' },
    { intent: 'click', description: 'Start the trial', check: 'see status "Trial started"' },
    { intent: 'finish', description: 'Wrap up' },
  ],
};

const turn = (todo: string, actions: unknown[], extra: { remove?: string[]; last?: boolean } = {}) => ({
  turn_planning: { todo_id: todo, does: `Work on ${todo}`, is_last_turn: extra.last === true },
  todo_adjust: { remove: extra.remove ?? [], replace: [] },
  actions,
});
const tool = (name: string, args: Record<string, unknown> = {}) => ({ type: 'tool', name, args });
const say = (text: string) => ({ type: 'narrate', text });
const finish = (summary = 'All done.') => ({ type: 'task_finish', summary });

/** A fake site: `navigate` moves it, `start_trial` shows the status (unless broken). */
function site(options: { trialWorks?: boolean } = {}) {
  const state = { page: '/', status: '' };
  const tools: Record<string, LoopTool> = {
    navigate: { description: 'open {path}', run: ({ path }) => void (state.page = String(path)) },
    start_trial: {
      description: 'start the trial',
      run: () => {
        if (options.trialWorks !== false) state.status = 'Trial started';
      },
    },
  };
  const check: PageChecker = (todoCheck) =>
    todoCheck.kind === 'visible' && state.status.toLowerCase().includes(todoCheck.name.toLowerCase())
      ? { ok: true }
      : { ok: false, missing: `no status "${todoCheck.kind === 'visible' ? todoCheck.name : ''}" is visible` };
  return { state, tools, check };
}

function setup(turns: ScriptedResponses, plan: unknown = PLAN) {
  const model = createScriptedProvider(turns);
  return { plan: new Plan({ llm: createLLMRouter({ default: model, plan: createScriptedProvider([plan]) }) }), model };
}

const statuses = (plan: Plan) => plan.todos.list().map((todo) => `${todo.id}:${todo.status}${todo.evidence ? `:${todo.evidence}` : ''}`);

describe('the loop checks before it ticks', () => {
  it('refuses a false finish once with what is missing, and ends the run unverified on the second', async () => {
    const { state, tools, check } = site();
    const { plan, model } = setup([turn('t1', [finish()], { last: true }), turn('t1', [finish('Really done.')], { last: true })]);
    const result = await startRun(plan, { task: 'Start a trial', tools, page: { url: () => state.page, check } }).result;
    expect(result.reason).toBe('unverified');
    expect(result.unverified).toEqual([
      { id: 't1', missing: 'no page was opened for it' },
      { id: 't2', missing: 'nothing was said for it' },
      { id: 't3', missing: 'no status "Trial started" is visible' },
    ]);
    expect(result.summary).toBeUndefined();
    // Nothing completed on the model's word: the turn's todo stayed open, marked held.
    expect(statuses(plan)).toEqual(['t1:in_progress:held', 't2:pending', 't3:pending', 't4:pending']);
    expect(lastUserText(model.calls[1] as never)).toContain(
      'The run did not finish: t1 not done: no page was opened for it; t2 not done: nothing was said for it; t3 not done: no status "Trial started" is visible.',
    );
  });

  it('completes todos on evidence as the run shows it, and finishes', async () => {
    const { state, tools, check } = site();
    const { plan } = setup([
      turn('t1', [tool('navigate', { path: '/pricing' })]),
      turn('t2', [say('Three tiers: Free, Team, Business.')], { remove: ['t1'] }),
      turn('t3', [tool('start_trial')], { remove: ['t2'] }),
      turn('t4', [say('Your trial has started.'), finish()], { remove: ['t3'], last: true }),
    ]);
    const result = await startRun(plan, { task: 'Start a trial', tools, page: { url: () => state.page, check } }).result;
    expect(result.reason).toBe('task_finish');
    // Checked where a check applied; the finish todo has none (the model's word, as before).
    expect(statuses(plan)).toEqual(['t1:completed:checked', 't2:completed:checked', 't3:completed:checked', 't4:completed']);
  });

  it('holds a todo whose check fails when a later todo is named, and tells the model in one line', async () => {
    const { state, tools, check } = site({ trialWorks: false });
    const { plan, model } = setup([
      turn('t1', [tool('navigate', { path: '/pricing' })]),
      turn('t2', [say('Three tiers.')], { remove: ['t1'] }),
      turn('t3', [tool('start_trial')], { remove: ['t2'] }),
      // Completing t3 takes the page showing the trial started: it does not.
      turn('t4', [say('Done.')], { remove: ['t3'] }),
      turn('t4', [finish()], { remove: ['t3'], last: true }),
      turn('t4', [finish()], { last: true }),
    ]);
    const result = await startRun(plan, { task: 'Start a trial', tools, page: { url: () => state.page, check }, bounds: { turnSlack: 4 } }).result;
    expect(lastUserText(model.calls[4] as never)).toContain('t3 not done: no status "Trial started" is visible.');
    expect(result.reason).toBe('unverified');
    expect(result.unverified).toEqual([{ id: 't3', missing: 'no status "Trial started" is visible' }]);
    expect(statuses(plan).slice(0, 3)).toEqual(['t1:completed:checked', 't2:completed:checked', 't3:pending:held']);
  });

  it('a todo whose action the user declined is never completed, by a finish or by naming a later todo', async () => {
    const { state, tools, check } = site();
    const plan4 = { ...PLAN, todos: PLAN.todos.map((todo) => ({ ...todo, check: 'none' })) };
    const no: ApproveHook = () => false;
    const { plan } = setup(
      [
        turn('t1', [tool('navigate', { path: '/pricing' })]),
        turn('t2', [say('Three tiers.')], { remove: ['t1'] }),
        turn('t3', [tool('start_trial')], { remove: ['t2'] }),
        // The same todo named again, then a finish: the declined step stays undone.
        turn('t4', [say('Your trial has started.'), finish()], { remove: ['t3'], last: true }),
      ],
      plan4,
    );
    const result = await startRun(plan, {
      task: 'Start a trial',
      tools: { ...tools, start_trial: { ...(tools.start_trial as object), risk: 'irreversible' } as LoopTool },
      page: { url: () => state.page, check },
      approval: { ask: no, level: 'irreversible' },
    }).result;
    expect(result.reason).toBe('task_finish');
    expect(state.status).toBe('');
    expect(plan.todos.get('t3')).toMatchObject({ status: 'pending', evidence: 'declined' });
    expect(result.todos.find((todo) => todo.id === 't3')?.status).not.toBe('completed');
  });

  it('a look after a declined action does not clear the refusal: the todo stays declined', async () => {
    const { state, tools, check } = site();
    const look: LoopTool = { risk: 'read', description: 'read the page', run: () => 'Plans: Free, Team' };
    const plain = {
      task_summary: 'Trial',
      todos: [
        { intent: 'click', description: 'Start the trial', check: 'none' },
        { intent: 'finish', description: 'Wrap up' },
      ],
    };
    const { plan } = setup([turn('t1', [tool('start_trial'), tool('look')]), turn('t2', [say('Done.'), finish()], { remove: ['t1'], last: true })], plain);
    const result = await startRun(plan, {
      task: 'Start a trial',
      tools: { ...tools, look, start_trial: { ...(tools.start_trial as object), risk: 'irreversible' } as LoopTool },
      page: { url: () => state.page, check },
      approval: { ask: () => false, level: 'irreversible' },
    }).result;
    expect(result.reason).toBe('task_finish');
    expect(plan.todos.get('t1')).toMatchObject({ status: 'pending', evidence: 'declined' });
  });

  it("a finish's summary is the claim, not the evidence: a narrate todo needs a narration", async () => {
    const said = { task_summary: 'Explain', todos: [{ intent: 'narrate', description: 'Explain the tiers' }] };
    const { plan } = setup([turn('t1', [finish('All done.')], { last: true }), turn('t1', [say('Free, Team and Business.'), finish()], { last: true })], said);
    const result = await startRun(plan, { task: 'Explain the tiers', tools: {}, page: { url: false } }).result;
    expect(result.reason).toBe('task_finish');
    expect(result.turns).toBe(2);
    expect(statuses(plan)).toEqual(['t1:completed:checked']);
  });

  it('a todo without a check behaves as before: the model moves past it', async () => {
    const plain = {
      task_summary: 'Two steps',
      todos: [
        { intent: 'click', description: 'Open the menu' },
        { intent: 'click', description: 'Pick a plan' },
      ],
    };
    const { plan } = setup([turn('t2', [finish()], { remove: ['t1'], last: true })], plain);
    const result = await startRun(plan, { task: 'Pick a plan', tools: {}, page: { url: false } }).result;
    expect(result.reason).toBe('task_finish');
    expect(statuses(plan)).toEqual(['t1:completed', 't2:completed']);
  });

  it('a page checker that throws proves nothing: the evidence is missing', async () => {
    const { state, tools } = site();
    const broken: PageChecker = () => {
      throw new Error('detached frame');
    };
    const { plan } = setup([turn('t3', [tool('start_trial'), finish()], { remove: ['t1', 't2'], last: true }), turn('t3', [finish()], { last: true })]);
    const result = await startRun(plan, { task: 'Start a trial', tools, page: { url: () => state.page, check: broken } }).result;
    expect(result.reason).toBe('unverified');
    expect(result.unverified?.find((todo) => todo.id === 't3')?.missing).toBe('no status "Trial started" is visible (the page could not be checked)');
  });
});

describe('checks from the planner and the host', () => {
  it("stores the planner's compact check on its todo", async () => {
    const { plan } = setup([]);
    await plan.makeTodos({ task: 'Start a trial' });
    expect(plan.todos.get('t3')?.check).toEqual({ kind: 'visible', role: 'status', name: 'Trial started' });
  });

  it("refuses a planner's malformed check as an invalid answer (retried with the reason), never a silent pass", async () => {
    const bad = { ...PLAN, todos: [{ intent: 'click', description: 'Start the trial', check: 'looks done' }] };
    const planner = createScriptedProvider([bad, bad]);
    const plan = new Plan({ llm: createLLMRouter({ default: createScriptedProvider([]), plan: planner }) });
    const error = await plan.makeTodos({ task: 'Start a trial' }).catch((caught: unknown) => caught);
    expect(PlannerOutputError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('todos[0].check');
    expect(JSON.stringify(planner.calls[1]?.messages)).toContain('is no check');
    expect(plan.todos.list()).toEqual([]);
  });

  it('start.checks sets or overrides the checks before the first turn; a malformed one is a ValidationError and the plan is left as it was', async () => {
    const { state, tools, check } = site();
    const { plan, model } = setup([]);
    await plan.makeTodos({ task: 'Start a trial' });
    const before = plan.todos.list();
    const failed = await startRun(plan, {
      task: 'Start a trial',
      tools,
      page: { url: () => state.page, check },
      start: {
        resume: true,
        checks: (todo) => (todo.id === 't2' ? 'see nothing at all' : todo.id === 't3' ? 'field "Card number" = 4242 4242 4242 4242' : undefined),
      },
    }).result.catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(failed)).toBe(true);
    expect((failed as Error).message).toMatch(/start\.checks\(t3\).*never holds a secret/);
    expect(plan.todos.list()).toEqual(before);
    expect(model.calls).toHaveLength(0);
  });

  it('start.checks can put a todo back on the model\'s word with "none"', async () => {
    const { state, tools, check } = site();
    const { plan } = setup([turn('t4', [finish()], { remove: ['t1', 't2', 't3'], last: true })]);
    const result = await startRun(plan, { task: 'Start a trial', tools, page: { url: () => state.page, check }, start: { checks: () => 'none' } }).result;
    expect(result.reason).toBe('task_finish');
    expect(plan.todos.list().every((todo) => todo.status === 'completed' && todo.evidence === undefined)).toBe(true);
  });
});

describe('the edges of a finish', () => {
  it('a run that ends unverified leaves the turn’s own todo open, even one without a check', async () => {
    const { state, tools, check } = site();
    const { plan } = setup([turn('t4', [finish()], { last: true }), turn('t4', [finish()], { last: true })]);
    const result = await startRun(plan, { task: 'Start a trial', tools, page: { url: () => state.page, check } }).result;
    expect(result.reason).toBe('unverified');
    expect(plan.todos.get('t4')?.status).not.toBe('completed');
  });

  it('todos.edit with null removes a check and a finding', () => {
    const plan = new Plan({ sync: false });
    plan.setTaskPlan({ summary: 'x', todos: [{ intent: 'click', description: 'Go', check: { kind: 'tool', name: 'go' } }] });
    plan.todos.edit('t1', { evidence: 'held' });
    plan.todos.edit('t1', { check: null, evidence: null });
    expect(plan.todos.get('t1')).toEqual({ id: 't1', intent: 'click', description: 'Go', status: 'pending' });
  });
});

describe("a fill's derived check", () => {
  it('never compares a value typed as a secret placeholder, however it is spaced: only whether the field is filled', async () => {
    const { createEvidenceLedger } = await import('../../src/loop/evidence-ledger.js');
    const ledger = createEvidenceLedger({ checkPage: () => ({ ok: true }) });
    const todo = { id: 't1', description: 'Type the password', status: 'in_progress', intent: 'fill' } as const;
    for (const value of ['{{secret:password}}', '{{ secret : password }}', '{{secret :password}}']) {
      ledger.start('t1', '/signup');
      ledger.record('t1', { type: 'tool', name: 'fill', args: { target: 'Password', value } }, 'ok');
      expect(ledger.checkOf(todo)).toEqual({ kind: 'field', field: 'Password' });
    }
    ledger.record('t1', { type: 'tool', name: 'fill', args: { target: 'Email', value: 'sam@example.com' } }, 'ok');
    expect(ledger.checkOf(todo)).toEqual({ kind: 'field', field: 'Email', value: 'sam@example.com' });
  });
});
