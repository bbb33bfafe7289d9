import { describe, expect, it } from 'vitest';
import type { TodoItem } from '../../src/artifacts/todos.js';
import { AbortError, EnvelopeError, isPlanloopError, ValidationError } from '../../src/errors.js';
import { ProviderError } from '../../src/model-errors.js';
import type { PlanEvents } from '../../src/events.js';
import { createLLMRouter, type LLMProvider } from '../../src/llm/provider.js';
import { createScriptedProvider, type ScriptedProvider, type ScriptedResponses } from '../../src/llm/scripted.js';
import { runWebAgent, type RunWebAgentOptions } from '../../src/loop/run-web-agent.js';
import { TURN_INSTRUCTIONS } from '../../src/loop/turn-prompt.js';
import { Plan } from '../../src/plan.js';
import { createMemoryAdapter } from '../../src/storage/memory.js';
import type { PlanStorageAdapter } from '../../src/storage/snapshot.js';

// These scripts only claim their todos (the fakes move no page): the planner leaves them on the model's word
// (`check: { kind: 'none' as const }`). Evidence is tested in test/loop/evidence.test.ts.
const PLAN = {
  task_summary: 'A tour of the pricing page',
  todos: [
    { intent: 'navigate', description: 'Open the pricing page', check: { kind: 'none' as const }, expected_turn: 1 },
    { intent: 'narrate', description: 'Show the three tiers', check: { kind: 'none' as const }, expected_turn: 2 },
    { intent: 'click', description: 'Open the trial form', expected_turn: 3 },
    { intent: 'finish', description: 'Wrap up', expected_turn: 4 },
  ],
};

const turn = (todo: string, remove: string[], actions: unknown[], extra: Record<string, unknown> = {}) => ({
  turn_planning: { todo_id: todo, does: `Work on ${todo}`, is_last_turn: false },
  todo_adjust: { remove, replace: [], ...extra },
  actions,
});
const say = (text: string) => ({ type: 'narrate', text });

const TOUR = [
  turn(
    't1',
    [],
    [
      { type: 'tool', name: 'navigate', args: { path: '/pricing' } },
      { type: 'narrate', text: 'Here is pricing.', target: '#pricing' },
    ],
  ),
  turn('t2', ['t1'], [say('Three tiers.')]),
  turn('t3', ['t2'], [{ type: 'tool', name: 'click', args: { selector: '#trial' } }], {
    replace: [{ id: 't3', description: 'Open the free-trial form', intent: 'click' }],
  }),
  {
    ...turn('t4', ['t3'], [say('That was it.'), { type: 'task_finish', summary: 'Toured pricing.' }]),
    turn_planning: { todo_id: 't4', does: 'Wrap up', is_last_turn: true },
  },
];

type Logged = { [K in keyof PlanEvents]: [K, PlanEvents[K]] }[keyof PlanEvents];

function setup(
  turns: ScriptedResponses,
  options: {
    storage?: PlanStorageAdapter;
    turnModel?: (model: ScriptedProvider) => LLMProvider;
    chunkSize?: number;
    delayMs?: number;
    appendSystemPrompt?: string;
  } = {},
) {
  const planner = createScriptedProvider([PLAN]);
  const model = createScriptedProvider(turns, { chunkSize: options.chunkSize ?? 9, delayMs: options.delayMs ?? 0 });
  const turnModel = options.turnModel ? options.turnModel(model) : model;
  const plan = new Plan({
    llm: createLLMRouter({ default: turnModel, plan: planner }),
    ...(options.storage ? { storage: options.storage } : {}),
    ...(options.appendSystemPrompt ? { appendSystemPrompt: options.appendSystemPrompt } : {}),
  });
  const events: Logged[] = [];
  plan.onAny((name, payload) => events.push([name, payload] as Logged));
  const names = (...only: string[]) => events.map(([name]) => name).filter((name) => only.includes(name));
  const of = <K extends keyof PlanEvents>(name: K) => events.filter((event) => event[0] === name).map((event) => event[1] as PlanEvents[K]);
  const userMessage = (call: number) => model.calls[call]?.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  return { plan, planner, model, events, names, of, userMessage };
}

const tools = { navigate: () => ({ ok: true }), click: () => 'clicked' };
const statuses = (todos: TodoItem[]) => todos.map((todo) => `${todo.id}:${todo.status}`);

describe('runWebAgent, with the compact envelope the prompt teaches', () => {
  const COMPACT_TOUR = [
    {
      todo: 't1',
      actions: [
        { type: 'tool', name: 'navigate', args: { path: '/pricing' } },
        { type: 'narrate', target: '#pricing', text: 'Here is pricing.' },
      ],
    },
    { todo: 't2', actions: [say('Three tiers.')] },
    {
      todo: 't3',
      replace: [{ id: 't3', description: 'Open the free-trial form', intent: 'click' }],
      actions: [{ type: 'tool', name: 'click', args: { selector: '#trial' } }],
    },
    { todo: 't4', last: true, actions: [say('That was it.'), { type: 'task_finish', summary: 'Toured pricing.' }] },
  ];

  it('plays the same tour as the full envelope, and streams the words to onNarrateDelta before onNarrate', async () => {
    const full = setup(TOUR);
    const fullResult = await runWebAgent({ plan: full.plan, task: 'Show me the prices', tools });
    const compact = setup(COMPACT_TOUR, { chunkSize: 3 });
    const heard: string[] = [];
    const result = await runWebAgent({
      plan: compact.plan,
      task: 'Show me the prices',
      tools,
      onNarrateDelta: (delta, target, { index, turn: at }) => heard.push(`${at}.${index} ${target ?? '-'} ${delta}`),
      onNarrate: (text) => void heard.push(`said ${text}`),
    });
    expect(result.todos).toEqual(fullResult.todos);
    expect(result).toMatchObject({ reason: 'task_finish', turns: 4, summary: 'Toured pricing.' });
    expect(compact.of('turn-end').map((event) => event.adjust.completed)).toEqual(full.of('turn-end').map((event) => event.adjust.completed));
    const pieces = heard.filter((line) => line.startsWith('1.1 #pricing '));
    expect(pieces.length).toBeGreaterThan(2); // in pieces, as they were written
    expect(pieces.map((line) => line.slice('1.1 #pricing '.length)).join('')).toBe('Here is pricing.');
    expect(heard.indexOf('said Here is pricing.')).toBe(pieces.length);
    expect(heard.filter((line) => line.startsWith('said'))).toEqual(['said Here is pricing.', 'said Three tiers.', 'said That was it.']);
  });
});

describe('runWebAgent', () => {
  it('plans, plays four turns and finishes, with events, statuses and the final plan', async () => {
    const { plan, model, names, of, userMessage } = setup(TOUR);
    const narrated: Array<[string, string | undefined]> = [];
    const result = await runWebAgent({ plan, task: 'Show me the prices', tools, onNarrate: (text, target) => void narrated.push([text, target]) });

    expect(result).toMatchObject({ reason: 'task_finish', turns: 4, summary: 'Toured pricing.' });
    expect(names('run-start', 'plan-create', 'turn-start', 'action', 'turn-end', 'run-finish')).toEqual([
      'run-start',
      'plan-create',
      'turn-start',
      'action',
      'action',
      'turn-end',
      'turn-start',
      'action',
      'turn-end',
      'turn-start',
      'action',
      'turn-end',
      'turn-start',
      'action',
      'action',
      'turn-end',
      'run-finish',
    ]);
    expect(of('run-start')[0]).toMatchObject({ task: 'Show me the prices', resumed: false });
    expect(of('turn-start').map((event) => [event.turn, event.maxTurns, event.attempt])).toEqual([
      [1, 6, 1],
      [2, 6, 1],
      [3, 6, 1],
      [4, 6, 1],
    ]);
    expect(of('run-finish')[0]).toMatchObject({ reason: 'task_finish', turns: 4, summary: 'Toured pricing.' });
    expect(of('turn-end').map((event) => event.adjust.completed)).toEqual([[], ['t1'], ['t2'], ['t3']]);
    expect(narrated).toEqual([
      ['Here is pricing.', '#pricing'],
      ['Three tiers.', undefined],
      ['That was it.', undefined],
    ]);

    // Reasoning trail of turn 1: plan, then act/obs per action, then reflect.
    expect(
      of('reasoning-step')
        .filter((step) => step.turn === 1)
        .map((step) => step.phase),
    ).toEqual(['plan', 'act', 'obs', 'act', 'reflect']);
    expect(of('reasoning-step').find((step) => step.phase === 'obs')?.summary).toBe('navigate: {"ok":true}');

    expect(result.todos).toEqual([
      { id: 't1', intent: 'navigate', description: 'Open the pricing page', check: { kind: 'none' as const }, status: 'completed', expected_turn: 1 },
      { id: 't2', intent: 'narrate', description: 'Show the three tiers', check: { kind: 'none' as const }, status: 'completed', expected_turn: 2 },
      { id: 't3', intent: 'click', description: 'Open the free-trial form', status: 'completed', expected_turn: 3 },
      { id: 't4', intent: 'finish', description: 'Wrap up', status: 'completed', expected_turn: 4 },
    ]);
    expect(plan.todos.list()).toEqual(result.todos);

    // The prompts: fixed instructions as system; the task and the turn as user lines, the remaining
    // todos and the memory in the model's own <plan> block, what the tools said in <data>.
    expect(model.calls).toHaveLength(4);
    expect(model.calls[0]?.messages[0]?.content).toContain(TURN_INSTRUCTIONS);
    expect(model.calls[0]?.messages[0]?.content).toContain('Tools: navigate; click');
    expect(userMessage(0)).toContain('Task: Show me the prices\nTurn 1 of 6.\n<plan>\nt1 Open the pricing page (turn 1)\n');
    expect(userMessage(1)).toContain('<data>\nLast turn:\n- navigate: {"ok":true}\n</data>');
    expect(userMessage(1)).toContain('Earlier: t1 navigate, narrate (Work on t1)\n</plan>');
    // t4 is planned for the turn after t3: the order says it, the line does not repeat it.
    expect(userMessage(3)).toMatch(/^Turn 4 of 6\.\n<plan>\nt3 Open the free-trial form \(turn 3\)\nt4 Wrap up\n/m);
  });

  it('shows the turn todo in progress while the turn runs', async () => {
    const { plan } = setup(TOUR);
    const seen: string[][] = [];
    await runWebAgent({ plan, task: 'Tour', tools, onNarrate: () => void seen.push(statuses(plan.todos.list())) });
    expect(seen[0]).toEqual(['t1:in_progress', 't2:pending', 't3:pending', 't4:pending']);
    expect(seen[1]).toEqual(['t1:completed', 't2:in_progress', 't3:pending', 't4:pending']);
  });

  it('never repeats appendSystemPrompt in the turns', async () => {
    const { plan, planner, model } = setup(TOUR, { appendSystemPrompt: 'SITEMAP: /pricing /try /docs' });
    await runWebAgent({ plan, task: 'Tour', tools });
    expect(JSON.stringify(planner.calls[0]?.messages)).toContain('SITEMAP: /pricing');
    expect(JSON.stringify(model.calls)).not.toContain('SITEMAP');
  });

  it('rejects an insert attempt with a message naming the ids, and recovers on the retry', async () => {
    const insert = turn('t1', [], [say('Hi')], { insert: [{ description: 'One more stop' }] });
    const { plan, model, of, userMessage } = setup([insert, ...TOUR]);
    const result = await runWebAgent({ plan, task: 'Tour', tools });

    expect(result.reason).toBe('task_finish');
    expect(result.turns).toBe(4);
    expect(
      of('turn-start')
        .slice(0, 2)
        .map((event) => [event.turn, event.attempt]),
    ).toEqual([
      [1, 1],
      [1, 2],
    ]);
    const retry = model.calls[1]?.messages ?? [];
    // The reply is echoed as far as it was read: reading stopped once todo_adjust was refused.
    const echoed = retry.at(-2);
    expect(echoed?.role).toBe('assistant');
    expect(JSON.stringify(insert).startsWith(echoed?.content ?? '-')).toBe(true);
    expect(echoed?.content).toContain('"insert"');
    expect(userMessage(1)).toContain('Todos cannot be added (got the "insert" key); name or replace existing ids (t1, t2, t3, t4)');
    expect(plan.todos.list()).toHaveLength(4);
    expect(of('reasoning-step').some((step) => step.phase === 'obs' && step.summary.startsWith('Rejected reply: Todos cannot be added'))).toBe(true);
  });

  it('refuses a replace of a new id like an insert', async () => {
    const sneaky = turn('t1', [], [say('Hi')], { replace: [{ id: 't9', description: 'New stop', intent: 'narrate' }] });
    const { plan, userMessage } = setup([sneaky, ...TOUR]);
    await runWebAgent({ plan, task: 'Tour', tools });
    expect(userMessage(1)).toContain('Todos cannot be added (got a replace of the new id t9)');
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t1', 't2', 't3', 't4']);
  });

  it('ignores unknown ids, reports them in turn-end and tells the model next turn', async () => {
    const { plan, of, userMessage } = setup([turn('t1', ['t9', 'nope'], [say('Hi')]), turn('t1', ['t1'], []), ...TOUR.slice(1)]);
    await runWebAgent({ plan, task: 'Tour', tools });
    expect(of('turn-end')[0]?.adjust.ignored).toEqual([
      { id: 't9', reason: 'not a todo of this plan' },
      { id: 'nope', reason: 'not a todo of this plan' },
    ]);
    expect(userMessage(1)).toContain('- Ignored in todo_adjust: t9 (not a todo of this plan), nope (not a todo of this plan).');
  });

  it('ends with run-error after two bad envelopes in a row, the plan unchanged', async () => {
    // The adjust is valid and streams first, so it is applied live; the bad action after it must roll it back.
    const bad = turn('t1', ['t1'], [say('Hello'), { type: 'tool' }]);
    const { plan, of, userMessage } = setup([bad, bad]);
    const during: string[][] = [];
    const pending = runWebAgent({ plan, task: 'Tour', tools, onNarrate: () => void during.push(statuses(plan.todos.list())) });

    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EnvelopeError);
    expect((error as EnvelopeError).code).toBe('envelope_invalid');
    expect((error as EnvelopeError).message).toContain('actions[1].name is required');
    expect(of('run-error')).toEqual([expect.objectContaining({ turn: 1, error })]);
    expect(of('run-finish')).toEqual([]);
    expect(of('turn-end')).toEqual([]);
    expect(during[0]).toEqual(['t1:completed', 't2:pending', 't3:pending', 't4:pending']);
    expect(statuses(plan.todos.list())).toEqual(['t1:pending', 't2:pending', 't3:pending', 't4:pending']);
    expect(userMessage(1)).toContain('Already done this turn, do not repeat: narrate "Hello".');
  });

  it('dispatches the first action while the model is still streaming', async () => {
    const log: string[] = [];
    const { plan } = setup(TOUR, {
      chunkSize: 6,
      delayMs: 2,
      turnModel: (model) => ({
        generate: (request) => model.generate(request),
        async *stream(request) {
          yield* model.stream(request);
          log.push('stream-end');
        },
      }),
    });
    plan.on('action', ({ turn, index }) => log.push(`action ${turn}.${index}`));
    plan.on('todos-change', ({ change }) => {
      if (change.type === 'edit') log.push('adjust');
    });
    await runWebAgent({ plan, task: 'Tour', tools });
    const firstTurn = log.slice(0, log.indexOf('stream-end') + 1);
    expect(firstTurn).toEqual(['adjust', 'action 1.0', 'action 1.1', 'stream-end']);
  });

  it('does not hold actions back when the model leaves out todo_adjust, and applies one it writes last', async () => {
    const log: string[] = [];
    const bare = ({ todo_adjust: _skipped, ...rest }: Record<string, unknown>) => rest;
    const late = ({ todo_adjust, ...rest }: Record<string, unknown>) => ({ ...rest, todo_adjust });
    const turns = [bare(TOUR[0]!), late(TOUR[1]!), TOUR[2]!, TOUR[3]!];
    const { plan } = setup(turns, {
      chunkSize: 6,
      delayMs: 2,
      turnModel: (model) => ({
        generate: (request) => model.generate(request),
        async *stream(request) {
          yield* model.stream(request);
          log.push('stream-end');
        },
      }),
    });
    plan.on('action', ({ turn, index }) => log.push(`action ${turn}.${index}`));
    const result = await runWebAgent({ plan, task: 'Tour', tools });
    expect(log.slice(0, 3)).toEqual(['action 1.0', 'action 1.1', 'stream-end']);
    expect(result.reason).toBe('task_finish');
    expect(statuses(plan.todos.list())).toEqual(['t1:completed', 't2:completed', 't3:completed', 't4:completed']);
  });

  it('stops mid-stream on abort: run-error with an AbortError, the turn rolled back, no further action', async () => {
    const controller = new AbortController();
    const { plan, of } = setup(TOUR, { chunkSize: 5, delayMs: 1 });
    const narrated: string[] = [];
    const pending = runWebAgent({
      plan,
      task: 'Tour',
      tools: { navigate: () => controller.abort() },
      onNarrate: (text) => void narrated.push(text),
      signal: controller.signal,
    });
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).code).toBe('aborted');
    expect(of('run-error')).toEqual([expect.objectContaining({ turn: 1, error })]);
    expect(of('action')).toHaveLength(1);
    expect(narrated).toEqual([]);
    expect(statuses(plan.todos.list())).toEqual(['t1:pending', 't2:pending', 't3:pending', 't4:pending']);
  });

  it('stops between turns on abort, keeping the turns already played', async () => {
    const controller = new AbortController();
    const { plan, model } = setup(TOUR);
    plan.on('turn-end', ({ turn }) => {
      if (turn === 2) controller.abort();
    });
    await expect(runWebAgent({ plan, task: 'Tour', tools, signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
    expect(model.calls).toHaveLength(2);
    expect(statuses(plan.todos.list())).toEqual(['t1:completed', 't2:in_progress', 't3:pending', 't4:pending']);
  });

  it('ends at the turn bound fixed at the start, and nudges after turns without progress', async () => {
    const { plan, of, userMessage } = setup(() => turn('t1', [], [say('Still here.')]));
    const result = await runWebAgent({ plan, task: 'Tour', tools, maxTurnSlack: 1 });
    expect(result).toMatchObject({ reason: 'turn_limit', turns: 5 });
    expect(of('turn-start').map((event) => event.maxTurns)).toEqual([5, 5, 5, 5, 5]);
    expect(of('run-finish')[0]).toMatchObject({ reason: 'turn_limit', turns: 5 });
    expect(userMessage(1)).not.toContain('Nudge:');
    expect(userMessage(2)).toContain('Nudge: 2 turns without a todo done.');
    expect(userMessage(4)).toContain('Nudge: 4 turns without a todo done.');
    expect(userMessage(4)).toContain('Turn 5 of 5.');
    // Memory is bounded: four earlier turns at most.
    expect(
      userMessage(4)
        .match(/Earlier: (.*)/)?.[1]
        ?.split('; '),
    ).toHaveLength(4);
  });

  it('finishes when nothing remains, even without task_finish', async () => {
    const { plan } = setup([turn('t1', [], [say('All at once.')]), turn('t2', ['t1', 't2', 't3', 't4'], [])]);
    await expect(runWebAgent({ plan, task: 'Tour', tools })).resolves.toMatchObject({ reason: 'no_todos', turns: 2 });
  });

  it("ends on is_last_turn and completes that turn's todo", async () => {
    const last = { ...turn('t1', [], [say('Short tour.')]), turn_planning: { todo_id: 't1', does: 'All', is_last_turn: true } };
    const { plan } = setup([last]);
    const result = await runWebAgent({ plan, task: 'Tour', tools });
    expect(result.reason).toBe('last_turn');
    expect(statuses(result.todos)).toEqual(['t1:completed', 't2:pending', 't3:pending', 't4:pending']);
  });

  it('turns an unknown tool, or a throwing one, into an error observation in the next prompt', async () => {
    const first = turn(
      't1',
      [],
      [
        { type: 'tool', name: 'zoom', args: {} },
        { type: 'tool', name: 'constructor', args: {} },
        { type: 'tool', name: 'navigate', args: { path: '/nowhere' } },
      ],
    );
    const { plan, of, userMessage } = setup([first, ...TOUR.slice(1)]);
    const result = await runWebAgent({
      plan,
      task: 'Tour',
      tools: {
        ...tools,
        navigate: ({ path }) => {
          throw new Error(`404 for ${String(path)}`);
        },
      },
    });
    expect(result.reason).toBe('task_finish');
    expect(userMessage(1)).toContain(
      'Last turn:\n- zoom failed: no such tool (tools: navigate, click).\n- constructor failed: no such tool (tools: navigate, click).\n- navigate failed: 404 for /nowhere',
    );
    expect(of('turn-end')[0]?.observations.map((observation) => observation.kind)).toEqual(['tool-error', 'tool-error', 'tool-error']);
  });

  it('asks the host and passes the answer on', async () => {
    const first = turn('t1', [], [{ type: 'ask', question: 'Monthly or yearly?' }]);
    const { plan, userMessage } = setup([first, ...TOUR.slice(1)]);
    await runWebAgent({ plan, task: 'Tour', tools, onAsk: async (question) => (question.includes('yearly') ? 'Yearly' : '?') });
    // The answer is the user's own word: it stands outside the blocks, not among what the tools said.
    expect(userMessage(1)).toContain('Turn 2 of 6.\nUser answered: Yearly\n<plan>');
    expect(userMessage(1)).not.toContain('<data>');
  });

  it('waits for announcePlan, and a decline ends the run cleanly', async () => {
    const { plan, model, of } = setup(TOUR);
    const announced: Array<[string, number]> = [];
    const result = await runWebAgent({
      plan,
      task: 'Tour',
      tools,
      announcePlan: async (summary, todos) => {
        announced.push([summary, todos.length]);
        return false;
      },
    });
    expect(announced).toEqual([['A tour of the pricing page', 4]]);
    expect(result).toMatchObject({ reason: 'declined', turns: 0, todos: [] });
    expect(of('run-finish')).toEqual([expect.objectContaining({ reason: 'declined', turns: 0 })]);
    expect(model.calls).toHaveLength(0);
  });

  it('refuses a second run on the same plan while one is going, and allows one after', async () => {
    const { plan } = setup([...TOUR, ...TOUR]);
    let confirm!: (go: boolean) => void;
    const first = runWebAgent({ plan, task: 'Tour', tools, announcePlan: () => new Promise<boolean>((resolve) => (confirm = resolve)) });
    await expect(runWebAgent({ plan, task: 'Tour again', tools })).rejects.toMatchObject({ code: 'run_in_progress' });
    await Promise.resolve();
    while (!confirm) await new Promise((resolve) => setTimeout(resolve, 1));
    confirm(true);
    await expect(first).resolves.toMatchObject({ reason: 'task_finish' });
    // Released: the next run gets as far as planning (the scripted planner has no second answer).
    plan.todos.reset();
    await expect(runWebAgent({ plan, task: 'Tour again', tools, resume: false })).rejects.toMatchObject({ code: 'provider_error' });
  });

  it('one guard: a run started in the same tick as another, or while the host holds the run lease, is refused with run_in_progress', async () => {
    const { plan } = setup([...TOUR]);
    const errors: unknown[] = [];
    plan.on('run-error', ({ error }) => errors.push(error));
    // Both start before either has awaited anything: the plan's run lease refuses the second.
    const first = runWebAgent({ plan, task: 'Tour', tools });
    const second = runWebAgent({ plan, task: 'Tour', tools }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const refused = await second;
    expect(isPlanloopError(refused, 'run_in_progress')).toBe(true);
    await expect(first).resolves.toMatchObject({ reason: 'task_finish' });
    // The refused run never started: it is no error of the plan's.
    expect(errors).toEqual([]);
    // A host that holds the lease itself (its own loop) is guarded the same way.
    plan.todos.reset();
    const held = await plan.acquireRun();
    await expect(runWebAgent({ plan, task: 'Tour again', tools })).rejects.toSatisfy((error: unknown) => isPlanloopError(error, 'run_in_progress'));
    await held.release();
  });

  it('announces again a stored plan that never started (a reload at the announcement), without planning', async () => {
    const storage = createMemoryAdapter();
    const first = setup(TOUR, { storage });
    let reloaded!: () => void;
    const stopped = new AbortController();
    const pending = runWebAgent({
      plan: first.plan,
      task: 'Tour',
      tools,
      signal: stopped.signal,
      announcePlan: () => new Promise<boolean>(() => reloaded()), // the page goes away here
    });
    await new Promise<void>((resolve) => (reloaded = resolve));
    stopped.abort();
    await pending.catch(() => undefined);
    await first.plan.flush();

    const second = setup(TOUR, { storage });
    const announced: Array<[string, number]> = [];
    const result = await runWebAgent({
      plan: second.plan,
      task: 'Tour',
      tools,
      announcePlan: (summary, todos) => (announced.push([summary, todos.length]), true),
    });
    expect(announced).toEqual([['A tour of the pricing page', 4]]);
    expect(second.planner.calls).toHaveLength(0);
    expect(result.reason).toBe('task_finish');
  });

  it('does not announce again a resumed plan that had started', async () => {
    const storage = createMemoryAdapter();
    const { plan } = setup(TOUR, { storage });
    plan.setTaskPlan({ summary: 'Half done', todos: PLAN.todos });
    plan.adjust({ remove: ['t1'] });
    let announced = 0;
    await runWebAgent({ plan, task: 'Tour', tools, announcePlan: () => (announced++, true) });
    expect(announced).toBe(0);
  });

  it('plans afresh for a new task instead of resuming what an earlier run left undone', async () => {
    const storage = createMemoryAdapter();
    const first = setup(TOUR, { storage });
    first.plan.setTaskPlan({ task: 'Tour the pricing page', summary: 'A tour', todos: PLAN.todos });
    first.plan.adjust({ remove: ['t1'] });
    await first.plan.flush();

    const reloaded = setup(TOUR, { storage });
    await reloaded.plan.ready;
    expect(reloaded.plan.task).toBe('Tour the pricing page');
    await runWebAgent({ plan: reloaded.plan, task: 'What is the refund policy?', tools });
    expect(reloaded.planner.calls).toHaveLength(1); // a new plan for the new task
    expect(reloaded.plan.task).toBe('What is the refund policy?');

    const again = setup(TOUR, { storage });
    again.plan.setTaskPlan({ task: 'Tour the pricing page', summary: 'A tour', todos: PLAN.todos });
    await runWebAgent({ plan: again.plan, task: 'Something else', tools, resume: true });
    expect(again.planner.calls).toHaveLength(0); // resume: true resumes whatever the task
  });

  it('refuses a planInput without a task with a ValidationError, not a TypeError, when a plan for another task is stored', async () => {
    const { plan, planner } = setup(TOUR);
    plan.setTaskPlan({ task: 'Tour the pricing page', summary: 'A tour', todos: PLAN.todos });
    const planInput = { sitemap: 'pricing, docs' } as unknown as RunWebAgentOptions['planInput'];
    await expect(runWebAgent({ plan, task: 'Refunds?', planInput, tools })).rejects.toBeInstanceOf(ValidationError);
    expect(planner.calls).toHaveLength(0);
  });

  it('starts after the announcement is confirmed', async () => {
    const { plan, model } = setup(TOUR);
    let confirm!: (go: boolean) => void;
    const pending = runWebAgent({ plan, task: 'Tour', tools, announcePlan: () => new Promise<boolean>((resolve) => (confirm = resolve)) });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(model.calls).toHaveLength(0);
    confirm(true);
    await expect(pending).resolves.toMatchObject({ reason: 'task_finish' });
  });

  it('resumes a stored plan after a reload, without planning again', async () => {
    const storage = createMemoryAdapter();
    const first = setup([TOUR[0], TOUR[1], new ProviderError('provider_error', 'tab closed', { provider: 'test', retryable: false })], { storage });
    await expect(runWebAgent({ plan: first.plan, task: 'Tour', tools })).rejects.toBeInstanceOf(ProviderError);
    await first.plan.flush();
    expect(statuses(storage.snapshot?.todos ?? [])).toEqual(['t1:completed', 't2:in_progress', 't3:pending', 't4:pending']);

    const model = createScriptedProvider([turn('t2', [], [say('Where were we? The tiers.')]), ...TOUR.slice(2)]);
    const plan = new Plan({ llm: model, storage }); // the page reloaded: a new Plan on the same storage
    const starts: boolean[] = [];
    plan.on('run-start', ({ resumed }) => starts.push(resumed));
    const result = await runWebAgent({ plan, task: 'Tour', tools });

    expect(starts).toEqual([true]);
    expect(model.calls).toHaveLength(3); // turns only: no planning call
    const prompt = model.calls[0]?.messages.at(-1)?.content ?? '';
    expect(prompt).toContain('<plan>\nt2 Show the three tiers (turn 2)\nt3 Open');
    expect(prompt).not.toMatch(/^t1 /m);
    expect(prompt).toContain('Turn 1 of 5.');
    expect(result).toMatchObject({ reason: 'task_finish', turns: 3 });
    expect(statuses(result.todos)).toEqual(['t1:completed', 't2:completed', 't3:completed', 't4:completed']);
  });

  it('plans anew when resume is false, and reports a planning failure as run-error', async () => {
    const { plan, of } = setup(TOUR);
    plan.todos.reset([{ intent: 'narrate', description: 'Old plan' }]);
    await runWebAgent({ plan, task: 'Tour', tools, resume: false });
    expect(of('run-start')[0]).toMatchObject({ resumed: false });

    const broken = new Plan({ llm: createScriptedProvider(['no plan here', 'still none']) });
    const errors: string[] = [];
    broken.on('run-error', ({ error, turn }) => errors.push(`${turn} ${(error as { code?: string }).code}`));
    await expect(runWebAgent({ plan: broken, task: 'Tour' } satisfies RunWebAgentOptions)).rejects.toMatchObject({ code: 'planner_output_invalid' });
    expect(errors).toEqual(['0 planner_output_invalid']);
  });
  it('refuses a turn bound or memory size that is not a whole number, before calling any model', async () => {
    for (const bad of [{ maxTurnSlack: Number.NaN }, { maxTurnSlack: -1 }, { maxTurnSlack: Infinity }, { stallTurns: 1.5 }, { memorySize: Number.NaN }]) {
      // Without the check a NaN bound never ends: stop the model after 20 turns so the test fails instead.
      const { plan, planner, model } = setup((_request, call) =>
        call < 20 ? turn('t1', [], [say('Still here.')]) : new ProviderError('provider_error', 'runaway', { provider: 'test', retryable: false }),
      );
      const error = await runWebAgent({ plan, task: 'Tour', tools, ...bad }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toBe(Object.keys(bad)[0]);
      expect(planner.calls.length + model.calls.length).toBe(0);
      // The plan is free for a run with good options.
      await expect(runWebAgent({ plan, task: 'Tour', tools, maxTurnSlack: 0 })).resolves.toMatchObject({ reason: 'turn_limit', turns: 4 });
    }
  });

  it('rolls a bad turn back even when the host deleted a todo meanwhile', async () => {
    const bad = turn('t1', ['t1'], [{ type: 'tool', name: 'skip', args: {} }, { type: 'tool' }]);
    const { plan } = setup([bad, ...TOUR]);
    const retried: string[][] = [];
    plan.on('turn-start', ({ attempt }) => {
      if (attempt === 2) retried.push(statuses(plan.todos.list()));
    });
    const result = await runWebAgent({
      plan,
      task: 'Tour',
      tools: { ...tools, skip: () => void plan.todos.delete('t3') }, // e.g. the user skipped a step
    });
    expect(retried).toEqual([['t1:pending', 't2:pending', 't4:pending']]); // t1's completion rolled back
    expect(result.reason).toBe('task_finish');
    expect(plan.todos.get('t3')).toBeNull();
  });

  it('records nothing from a tool that settles after the run was aborted', async () => {
    const controller = new AbortController();
    const { plan, of, events } = setup(TOUR);
    let settle!: (value: string) => void;
    const pending = runWebAgent({
      plan,
      task: 'Tour',
      signal: controller.signal,
      tools: {
        ...tools,
        navigate: () =>
          new Promise<string>((resolve) => {
            settle = resolve;
            controller.abort();
          }),
      },
    });
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    const ended = events.length;
    settle('late');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events.slice(ended)).toEqual([]);
    expect(of('reasoning-step').some((step) => step.summary.includes('late'))).toBe(false);
  });
});
