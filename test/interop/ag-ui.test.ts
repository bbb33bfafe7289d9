/**
 * AG-UI both ways (issue 26): every event the plan sends passes @ag-ui/core's own schemas, and the
 * STATE_DELTA patches, applied in order with fast-json-patch, rebuild exactly the plan's state. A
 * frontend's edited state comes back through the rules of a user's edit.
 */
import { EventSchemas } from '@ag-ui/core/schemas';
import fastJsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { applyAGUIState, streamPlanToAGUI, toAGUIState, type AGUIPlanEvent, type AGUIPlanState } from '../../src/interop/ag-ui.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import { runWebAgent } from '../../src/loop/run-web-agent.js';
import { Plan } from '../../src/plan.js';

const { applyPatch, deepClone } = fastJsonPatch;

/** A frontend: validates each event with AG-UI's schemas and keeps the state the events build. */
function frontend(plan: Plan) {
  const events: AGUIPlanEvent[] = [];
  let state: AGUIPlanState | undefined;
  const stop = streamPlanToAGUI(plan, (event) => {
    const checked = EventSchemas.safeParse(event);
    if (!checked.success) throw new Error(`not a valid AG-UI event: ${JSON.stringify(event)}: ${checked.error.message}`);
    events.push(event);
    if (event.type === 'STATE_SNAPSHOT') state = deepClone(event.snapshot) as AGUIPlanState;
    if (event.type === 'STATE_DELTA') state = applyPatch(state, event.delta, true, false).newDocument;
  });
  return {
    events,
    stop,
    state: () => state,
    steps: () => events.filter((event) => event.type.startsWith('STEP_')).map((event) => `${event.type} ${(event as { stepName: string }).stepName}`),
  };
}

describe('streamPlanToAGUI', () => {
  it('sends a STATE_SNAPSHOT first, then deltas that rebuild the state after every change, and steps as todos start and finish', async () => {
    const llm = createScriptedProvider([
      {
        task_summary: 'A look at pricing',
        todos: [
          { intent: 'navigate', description: 'Open pricing', expected_turn: 1 },
          { intent: 'narrate', description: 'Explain the tiers', expected_turn: 2 },
        ],
      },
      { todo: 't1', actions: [{ type: 'tool', name: 'navigate', args: { path: '/pricing' } }] },
      {
        todo: 't2',
        last: true,
        actions: [
          { type: 'narrate', text: 'Three tiers.' },
          { type: 'task_finish', summary: 'Done.' },
        ],
      },
    ]);
    const plan = new Plan({ llm });
    const seen = frontend(plan);
    expect(seen.events[0]).toMatchObject({ type: 'STATE_SNAPSHOT', snapshot: { summary: '', task: '', todos: [] } });
    const check = () => expect(seen.state()).toEqual(toAGUIState(plan.state));
    plan.on('state-change', () => queueMicrotask(check));

    await runWebAgent({ plan, task: 'Show me the prices', tools: { navigate: () => 'ok' }, onNarrate: () => {} });
    check();
    expect(seen.state()?.todos.map((todo) => `${todo.id} ${todo.status}`)).toEqual(['t1 completed', 't2 completed']);
    expect(seen.steps()).toEqual([
      'STEP_STARTED t1: Open pricing',
      'STEP_FINISHED t1: Open pricing',
      'STEP_STARTED t2: Explain the tiers',
      'STEP_FINISHED t2: Explain the tiers',
    ]);

    // User edits, a rewrite, a reorder, a delete and a new list: still rebuilt.
    plan.todos.create({ intent: 'click', description: 'Start a trial' });
    plan.todos.move('t3', 0);
    plan.todos.edit('t3', { description: 'Start a free trial', status: 'in_progress' });
    plan.todos.delete('t1');
    plan.markdown.create({ title: 'Notes', content: 'not in the AG-UI state' });
    plan.todos.reset([{ intent: 'ask', description: 'Ask about seats' }]);
    check();
    expect(seen.steps().slice(4)).toEqual(['STEP_STARTED t3: Start a free trial', 'STEP_FINISHED t3: Start a free trial']);
    // The markdown change left the AG-UI state alone: no empty delta was sent.
    expect(seen.events.filter((event) => event.type === 'STATE_DELTA' && event.delta.length === 0)).toEqual([]);
    seen.stop();
  });

  it('writes small patches: a status change is one replace, a new todo one add', () => {
    const plan = new Plan();
    plan.todos.createMany([
      { intent: 'navigate', description: 'Open pricing' },
      { intent: 'narrate', description: 'Explain' },
    ]);
    const seen = frontend(plan);
    plan.todos.edit('t2', { status: 'completed' });
    plan.todos.create({ intent: 'narrate', description: 'Say bye' });
    const deltas = seen.events.filter((event) => event.type === 'STATE_DELTA').map((event) => (event as { delta: unknown }).delta);
    expect(deltas).toEqual([
      [{ op: 'replace', path: '/todos/1/status', value: 'completed' }],
      [{ op: 'add', path: '/todos/2', value: { id: 't3', description: 'Say bye', status: 'pending', intent: 'narrate' } }],
    ]);
    // A todo completed without being started shows as a step that started and finished.
    expect(seen.steps()).toEqual(['STEP_STARTED t2: Explain', 'STEP_FINISHED t2: Explain']);
  });

  it('keeps a step name from start to finish when the todo is rewritten meanwhile, and stamps whole-number timestamps', () => {
    const plan = new Plan();
    plan.todos.create({ intent: 'navigate', description: 'Open pricing' });
    const seen = frontend(plan);
    plan.adjust({}, { inProgress: 't1' });
    plan.adjust({ replace: [{ id: 't1', description: 'Open the pricing page' }] });
    plan.adjust({ remove: ['t1'] });
    expect(seen.steps()).toEqual(['STEP_STARTED t1: Open pricing', 'STEP_FINISHED t1: Open pricing']);
    // A late subscriber hears of the step in progress right after the snapshot.
    plan.todos.create({ intent: 'narrate', description: 'Explain' });
    plan.adjust({}, { inProgress: 't2' });
    const late = frontend(plan);
    expect(late.events.map((event) => event.type)).toEqual(['STATE_SNAPSHOT', 'STEP_STARTED']);
    expect(seen.events.every((event) => Number.isInteger(event.timestamp))).toBe(true);
  });

  it('starts and finishes each step once when a todo goes back: a rolled-back turn, a user edit', () => {
    const plan = new Plan();
    plan.todos.createMany([
      { intent: 'navigate', description: 'Open pricing' },
      { intent: 'narrate', description: 'Explain' },
      { intent: 'ask', description: 'Ask' },
    ]);
    plan.adjust({}, { inProgress: 't1' });
    const seen = frontend(plan);
    // A turn on t2 completes t1 and starts t2; it fails and is rolled back: t1 in progress, t2 pending.
    const turn = plan.transaction();
    turn.adjust({ complete_before: 't2' }, { inProgress: 't2' });
    turn.rollback();
    expect(plan.todos.list().map((todo) => todo.status)).toEqual(['in_progress', 'pending', 'pending']);
    expect(seen.steps()).toEqual(['STEP_STARTED t1: Open pricing', 'STEP_FINISHED t1: Open pricing', 'STEP_STARTED t2: Explain']);
    // The retry does it again, then finishes t2; the user pauses t3 and takes it up again.
    plan.adjust({ complete_before: 't2' }, { inProgress: 't2' });
    plan.adjust({ complete_before: 't3' }, { inProgress: 't3' });
    plan.todos.edit('t3', { status: 'pending' });
    plan.todos.edit('t3', { status: 'in_progress' });
    plan.adjust({ remove: ['t3'] });
    expect(seen.steps()).toEqual([
      'STEP_STARTED t1: Open pricing',
      'STEP_FINISHED t1: Open pricing',
      'STEP_STARTED t2: Explain',
      'STEP_FINISHED t2: Explain',
      'STEP_STARTED t3: Ask',
      'STEP_FINISHED t3: Ask',
    ]);
    expect(seen.state()).toEqual(toAGUIState(plan.state));
  });

  it('a turn the loop rolls back and retries (a bad action after the plan change streamed), and a look-only turn, send each step once', async () => {
    const llm = createScriptedProvider(
      [
        {
          task_summary: 'Tour',
          todos: [
            // No navigate tool here: the planner leaves the page step on the model's word.
            { intent: 'navigate', description: 'Open pricing', check: { kind: 'none' } },
            { intent: 'narrate', description: 'Explain the tiers' },
          ],
        },
        { todo: 't1', actions: [{ type: 'narrate', text: 'Opening.' }] },
        '{"todo": "t2", "actions": [{"type": "narrate", "text": "Three tiers."}, {"type": "dance"}]}',
        { todo: 't2', actions: [{ type: 'tool', name: 'read', args: { target: '#tiers' } }] },
        {
          todo: 't2',
          last: true,
          actions: [
            { type: 'narrate', text: 'Three tiers.' },
            { type: 'task_finish', summary: 'Done.' },
          ],
        },
      ],
      { chunkSize: 8 },
    );
    const plan = new Plan({ llm });
    const seen = frontend(plan);
    const statuses: string[] = [];
    plan.on('state-change', ({ state }) => statuses.push(state.todos.map((todo) => todo.status[0]).join('')));
    const read = { risk: 'read' as const, description: 'read an element {target}', run: () => 'Starter, Team, Business.' };
    const result = await runWebAgent({ plan, task: 'Show me the prices', tools: { read }, onNarrate: () => {} });
    expect(result.reason).toBe('task_finish');
    // The failed attempt started t2 and was rolled back (t1 in progress again, t2 pending), and so
    // was the look-only turn, before the last one.
    expect(statuses.join(' ')).toMatch(/ci ip ci ip ci/);
    expect(seen.steps()).toEqual([
      'STEP_STARTED t1: Open pricing',
      'STEP_FINISHED t1: Open pricing',
      'STEP_STARTED t2: Explain the tiers',
      'STEP_FINISHED t2: Explain the tiers',
    ]);
    expect(seen.state()).toEqual(toAGUIState(plan.state));
  });
});

describe('applyAGUIState: a frontend edits the plan', () => {
  const seeded = () => {
    const plan = new Plan();
    plan.setTaskPlan({
      summary: 'A look at pricing',
      task: 'Show me the prices',
      todos: [
        { intent: 'navigate', description: 'Open pricing' },
        { intent: 'narrate', description: 'Explain the tiers' },
      ],
    });
    return plan;
  };

  it('round trip: the frontend ticks a todo and renames another in its state; the plan takes both in one change, summary kept', () => {
    const plan = seeded();
    const seen = frontend(plan);
    const edited = deepClone(seen.state()) as AGUIPlanState;
    edited.todos[0]!.status = 'completed';
    edited.todos[1]!.description = 'Explain the three tiers';
    let changes = 0;
    plan.on('state-change', () => (changes += 1));
    applyAGUIState(plan, edited);
    expect(changes).toBe(1);
    expect(plan.summary).toBe('A look at pricing');
    expect(toAGUIState(plan.state)).toEqual(edited);
    expect(seen.state()).toEqual(edited);
  });

  it('a todo added and one removed in the frontend: kept ids stay, the new one gets a fresh id (never a retired one) and its intent', () => {
    const plan = seeded();
    plan.todos.create({ intent: 'click', description: 'Gone soon' });
    plan.todos.delete('t3');
    const seen = frontend(plan);
    applyAGUIState(plan, {
      todos: [
        { id: 't2', description: 'Explain the tiers', status: 'in_progress' },
        { description: 'Start a trial', status: 'pending', intent: 'click' },
        { id: 't3', description: 'Not t3', status: 'pending' },
      ],
    });
    expect(plan.todos.list().map((todo) => [todo.id, todo.intent, todo.description])).toEqual([
      ['t2', 'narrate', 'Explain the tiers'],
      ['t4', 'click', 'Start a trial'],
      ['t5', 'narrate', 'Not t3'],
    ]);
    expect(seen.state()).toEqual(toAGUIState(plan.state));
  });

  it.each([
    ['not an object', 'nope', /root/],
    ['no todos', { summary: 'x' }, /todos/],
    ['an unknown status', { todos: [{ id: 't1', description: 'Open pricing', status: 'done' }] }, /todos\[0\]\.status/],
    [
      'an empty description',
      {
        todos: [
          { description: 'ok', status: 'pending' },
          { description: '  ', status: 'pending' },
        ],
      },
      /todos\[1\]\.description/,
    ],
    [
      'a description past the limit',
      {
        todos: [
          { id: 't1', description: 'x'.repeat(1001), status: 'pending' },
          { id: 't2', description: 'Explain the tiers', status: 'pending' },
        ],
      },
      /todos\[0\]\.description/,
    ],
  ])('refuses %s with a ValidationError naming it, and leaves the plan exactly as it was', (_, state, path) => {
    const plan = seeded();
    const before = plan.state;
    const error = (() => {
      try {
        applyAGUIState(plan, state);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/^The AG-UI state was not applied/);
    expect((error as ValidationError).issues.map((issue) => issue.path).join(' ')).toMatch(path);
    expect(plan.state).toBe(before);
  });
});

describe('evidence in the AG-UI state', () => {
  it('streams what the run found, and never takes a mark back from the frontend', () => {
    const plan = new Plan({ sync: false });
    plan.setTaskPlan({ summary: 'Trial', todos: [{ intent: 'click', description: 'Start the trial' }] });
    plan.todos.edit('t1', { evidence: 'declined' });
    expect(toAGUIState(plan.state).todos[0]).toMatchObject({ id: 't1', evidence: 'declined' });
    // A frontend that sends the todo back as checked and done: the user's edit completes it, the mark is not the frontend's to set.
    applyAGUIState(plan, { todos: [{ id: 't1', description: 'Start the trial', status: 'completed', intent: 'click', evidence: 'checked' }] });
    expect(plan.todos.get('t1')).toMatchObject({ status: 'completed' });
    expect(plan.todos.get('t1')?.evidence).toBeUndefined();
  });
});
