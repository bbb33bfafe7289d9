import { describe, expect, it } from 'vitest';
import { AbortError, isPlanloopError, ValidationError } from '../../src/errors.js';
import type { RunEventMap } from '../../src/events.js';
import { createLLMRouter } from '../../src/llm/provider.js';
import { createScriptedProvider, type ScriptedResponses } from '../../src/llm/scripted.js';
import type { ApprovalRequest } from '../../src/loop/action-policy.js';
import { currentRun } from '../../src/loop/plan-runs.js';
import type { RunState } from '../../src/loop/run-state.js';
import { startRun } from '../../src/loop/start-run.js';
import { Plan } from '../../src/plan.js';

// These scripts only claim their todos (the fakes move no page): the planner leaves them on the model's word
// (`check: { kind: 'none' as const }`). Evidence is tested in test/loop/evidence.test.ts.
const PLAN = {
  task_summary: 'A tour',
  todos: [
    { intent: 'navigate', description: 'Open pricing', check: { kind: 'none' as const } },
    { intent: 'narrate', description: 'Explain the tiers', check: { kind: 'none' as const } },
  ],
};
const TOUR = [
  { todo: 't1', actions: [{ type: 'tool', name: 'navigate', args: { path: '/pricing' } }] },
  {
    todo: 't2',
    last: true,
    actions: [
      { type: 'narrate', text: 'Three tiers.' },
      { type: 'task_finish', summary: 'Toured.' },
    ],
  },
];

function setup(turns: ScriptedResponses = TOUR) {
  const model = createScriptedProvider(turns);
  const plan = new Plan({ llm: createLLMRouter({ default: model, plan: createScriptedProvider([PLAN, PLAN]) }) });
  return { plan, model };
}
const tools = { navigate: () => 'ok', submit: { risk: 'irreversible' as const, run: () => 'sent' } };
const later = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('startRun: a run is an object', () => {
  it('holds one state value through its phases, with the turn, the bound and the try, and how it ended', async () => {
    const { plan } = setup();
    const run = startRun(plan, { task: 'Tour', tools, start: { announce: () => true } });
    const seen: RunState[] = [];
    run.subscribe((state) => seen.push(state));
    const result = await run.result;
    expect(result).toMatchObject({ runId: run.runId, reason: 'task_finish', turns: 2, summary: 'Toured.' });
    const phases = seen.map((state) => state.phase).filter((phase, index, all) => phase !== all[index - 1]);
    expect(phases).toEqual(['starting', 'planning', 'announcing', 'running', 'finished']);
    const tries = seen.filter((state) => state.phase === 'running' && state.attempt > 0).map((state) => `${state.turn}/${state.maxTurns} try ${state.attempt}`);
    expect([...new Set(tries)]).toEqual(['1/4 try 1', '2/4 try 1']);
    expect(run.state).toMatchObject({
      runId: run.runId,
      task: 'Tour',
      phase: 'finished',
      turn: 2,
      maxTurns: 4,
      approval: null,
      end: { reason: 'task_finish', summary: 'Toured.' },
    });
  });

  it('keeps the store contract: subscribe calls at once and per change, getSnapshot is the same object until the run changes, both bound', async () => {
    const { plan } = setup();
    const run = startRun(plan, { task: 'Tour', tools });
    const { subscribe, getSnapshot } = run;
    const first = getSnapshot();
    expect(getSnapshot()).toBe(first);
    let calls = 0;
    const stop = subscribe((state) => {
      calls += 1;
      expect(state).toBe(getSnapshot());
    });
    expect(calls).toBe(1);
    await run.result;
    expect(calls).toBeGreaterThan(4);
    stop();
    expect(getSnapshot()).not.toBe(first);
    expect(Object.isFrozen(first) || first.phase === 'starting').toBe(true);
  });

  it('emits its events on its own emitter, and (deprecated, until 0.4.0) on the plan too', async () => {
    const { plan } = setup([...TOUR, ...TOUR]);
    const onRun: string[] = [];
    const onPlan: string[] = [];
    const names: Array<keyof RunEventMap> = ['run-start', 'turn-start', 'action', 'turn-end', 'run-finish'];
    const first = startRun(plan, { task: 'Tour', tools });
    for (const name of names) first.on(name, () => onRun.push(name));
    for (const name of names) plan.on(name, () => onPlan.push(name));
    await first.result;
    expect(onRun).toEqual(onPlan);
    expect(onRun).toEqual(['run-start', 'turn-start', 'action', 'turn-end', 'turn-start', 'action', 'action', 'turn-end', 'run-finish']);
    // Another run on the same plan: the first run's listeners hear nothing of it.
    plan.todos.reset();
    const second = startRun(plan, { task: 'Again', tools });
    await second.result;
    expect(onRun).toHaveLength(9);
    expect(onPlan.length).toBeGreaterThan(9);
  });

  it('stops on stop(): the result rejects with an AbortError, the state says where it failed, the turn is rolled back', async () => {
    let hold!: () => void;
    const { plan } = setup(async (_request, call) => {
      if (call === 0) await new Promise<void>((resolve) => (hold = resolve));
      return TOUR[call] ?? TOUR[0]!;
    });
    const run = startRun(plan, { task: 'Tour', tools });
    while (!hold) await later();
    run.stop('the user left');
    const error = await run.result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect(isPlanloopError(error, 'aborted')).toBe(true);
    expect(run.state.phase).toBe('failed');
    expect(run.state.end).toMatchObject({ reason: 'error', during: 'running', error });
    expect(plan.todos.list().map((todo) => todo.status)).toEqual(['pending', 'pending']);
  });

  it("refuses bad options at once, before any model call, and never becomes the plan's run", () => {
    const { plan, model } = setup();
    expect(() => startRun(plan, { task: 'Tour', bounds: { turnSlack: -1 } })).toThrow(ValidationError);
    expect(model.calls).toHaveLength(0);
    expect(currentRun(plan)).toBeNull();
  });

  it("becomes the plan's current run once it holds the lease; a run refused with run_in_progress does not replace it", async () => {
    const { plan } = setup();
    let go!: (yes: boolean) => void;
    const first = startRun(plan, { task: 'Tour', tools, start: { announce: () => new Promise<boolean>((resolve) => (go = resolve)) } });
    while (!go) await later();
    expect(currentRun(plan)).toBe(first);
    const second = startRun(plan, { task: 'Tour', tools });
    await expect(second.result).rejects.toSatisfy((error: unknown) => isPlanloopError(error, 'run_in_progress'));
    expect(second.state).toMatchObject({ phase: 'failed', end: { reason: 'error', during: 'starting' } });
    expect(currentRun(plan)).toBe(first);
    go(true);
    await first.result;
    expect(currentRun(plan)).toBe(first); // the last run stays current, ended
  });
});

describe('a run waits for approvals in its state', () => {
  const submitting = [
    { todo: 't1', actions: [{ type: 'tool', name: 'submit', args: { form: 'trial' } }] },
    { todo: 't2', last: true, actions: [{ type: 'task_finish', summary: 'Done.' }] },
  ];

  it("shows the pending request while the hook waits; run.answer() answers it and withdraws the hook's question", async () => {
    const { plan } = setup(submitting);
    const ran: string[] = [];
    let hookSignal: AbortSignal | undefined;
    const run = startRun(plan, {
      task: 'Sign up',
      tools: { submit: { risk: 'irreversible', run: () => void ran.push('submit') } },
      approval: {
        ask: (_request, { signal }) => {
          hookSignal = signal;
          return new Promise(() => {}); // a panel nobody answers
        },
      },
    });
    while (!run.state.approval) await later();
    const pending = run.state.approval;
    expect(pending.id).toBe(`${run.runId}.a1`);
    expect(pending.request).toMatchObject({ kind: 'action', tool: 'submit', risk: 'irreversible', args: { form: 'trial' } });
    expect(pending.expiresAt).toBeGreaterThan(Date.now());
    expect(run.answer('nope', true)).toBe(false);
    expect(run.answer(pending.id, { approved: true })).toBe(true);
    expect(run.answer(pending.id, false)).toBe(false); // answered once
    await run.result;
    expect(ran).toEqual(['submit']);
    expect(hookSignal?.aborted).toBe(true);
    expect(run.state.approval).toBeNull();
  });

  it("with ask: 'state' the request waits for run.answer() alone; a no is heard by the model, a silence past timeoutMs is a no", async () => {
    const { plan, model } = setup([...submitting.slice(0, 1), ...submitting]);
    const asked: ApprovalRequest[] = [];
    const run = startRun(plan, { task: 'Sign up', tools, approval: { ask: 'state', timeoutMs: 60 } });
    run.subscribe(({ approval }) => {
      if (approval && !asked.includes(approval.request)) {
        asked.push(approval.request);
        // The first is declined through the run; the second is left unanswered.
        if (asked.length === 1) queueMicrotask(() => run.answer(approval.id, { approved: false, reason: 'not today' }));
      }
    });
    await run.result;
    expect(asked).toHaveLength(2);
    const prompt = (call: number) => model.calls[call]?.messages.at(-1)?.content ?? '';
    expect(prompt(1)).toContain('submit was not run: the user declined: not today.');
    expect(prompt(2)).toContain('submit was not run: no answer within 60 ms.');
    expect(run.state.approval).toBeNull();
  });
});
