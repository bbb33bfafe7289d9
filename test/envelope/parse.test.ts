import { describe, expect, it } from 'vitest';
import { EnvelopeError } from '../../src/errors.js';
import { parseTurnEnvelope, safeParseTurnEnvelope } from '../../src/envelope/parse.js';
import { Plan } from '../../src/plan.js';

const envelope = {
  turn_planning: { todo_id: 't2', does: 'Show the three tiers', is_last_turn: false },
  todo_adjust: { remove: ['t1'], replace: [{ id: 't3', description: 'Open the trial form', intent: 'click' }] },
  actions: [
    { type: 'narrate', text: 'These are the plans.', target: '#pricing' },
    { type: 'tool', name: 'navigate', args: { path: '/commercial' } },
    { type: 'task_finish', summary: 'Toured the pricing page.' },
  ],
};

function errorOf(text: string, options = {}): EnvelopeError {
  const result = safeParseTurnEnvelope(text, options);
  if (result.success) throw new Error(`expected a failure, got ${JSON.stringify(result.data)}`);
  return result.error;
}

describe('parseTurnEnvelope', () => {
  it('reads a well-formed envelope', () => {
    expect(parseTurnEnvelope(JSON.stringify(envelope))).toEqual(envelope);
  });

  it('tolerates prose, fences, trailing commas, single quotes and null fields', () => {
    const text =
      "Sure! Here is my turn:\n```json\n{'turn_planning': {'todo_id': 't1', 'does': 'Greet', 'is_last_turn': null},\n" +
      '"todo_adjust": null, "actions": [{"type": "narrate", "text": "Hello", "target": null},],}\n```\nDone.';
    expect(parseTurnEnvelope(text)).toEqual({
      turn_planning: { todo_id: 't1', does: 'Greet', is_last_turn: false },
      actions: [{ type: 'narrate', text: 'Hello' }],
    });
  });

  it('reads an envelope after prose holding a brace that never closes', () => {
    // Before: the prose brace swallowed the envelope and the reply was refused as "cut off".
    expect(parseTurnEnvelope(`Press { to open the menu. Here is my turn:\n${JSON.stringify(envelope)}`)).toEqual(envelope);
    expect(parseTurnEnvelope(`Working on {the user's request}:\n${JSON.stringify(envelope)}`)).toEqual(envelope);
  });

  it.each([
    ['typographic double quotes', '{“todo”: “t1”, “actions”: []}', { todo_adjust: { remove: [], replace: [], complete_before: 't1' }, actions: [] }],
    ['typographic single quotes', '{‘todo’: ‘t1’, ‘actions’: []}', { todo_adjust: { remove: [], replace: [], complete_before: 't1' }, actions: [] }],
    [
      'typographic quotes with a brace and an apostrophe inside',
      'Sure! {“todo”: “t2”, “actions”: [{“type”: “narrate”, “text”: “Press } to close, it’s safe”}]}',
      { todo_adjust: { remove: [], replace: [], complete_before: 't2' }, actions: [{ type: 'narrate', text: 'Press } to close, it’s safe' }] },
    ],
    [
      'a stringified reply',
      JSON.stringify('{"todo": "t1", "actions": [{"type": "narrate", "text": "Hi"}]}'),
      { todo_adjust: { remove: [], replace: [], complete_before: 't1' }, actions: [{ type: 'narrate', text: 'Hi' }] },
    ],
  ])('reads a reply in %s as 0.1 did', (_name, text, expected) => {
    // Before: `{“todo”…` was skipped as prose and the `[]` inside taken for the reply (refused: not an envelope).
    const result = safeParseTurnEnvelope(text);
    expect(result.success && result.data).toMatchObject(expected);
  });

  it('fills the defaults a model may leave out', () => {
    expect(parseTurnEnvelope('{"todo_adjust": {"remove": ["t1"]}, "actions": [{"type": "tool", "name": "click"}]}')).toEqual({
      todo_adjust: { remove: ['t1'], replace: [] },
      actions: [{ type: 'tool', name: 'click', args: {} }],
    });
  });

  it('explains a reply without JSON', () => {
    const error = errorOf('I will now show the pricing page.');
    expect(error).toBeInstanceOf(EnvelopeError);
    expect(error.code).toBe('envelope_invalid');
    expect(error.message).toMatch(/no usable JSON/);
    expect(error.message).toContain('{"todo":"t2","actions":[…]}'); // the shape the turn prompt teaches
    expect(error.raw).toBe('I will now show the pricing page.');
  });

  it('refuses a cut-off envelope instead of guessing its end', () => {
    const text = JSON.stringify(envelope).slice(0, 120);
    const error = errorOf(text);
    expect(error.message).toMatch(/cut off/);
    expect(error.message).toMatch(/shorter envelope/);
  });

  it('names every bad field with its path and what to send', () => {
    const error = errorOf(
      JSON.stringify({
        turn_planning: { does: 3 },
        actions: [{ type: 'jump' }, { type: 'tool' }, { type: 'narrate', text: '  ' }],
      }),
    );
    expect(error.message).toBe(
      'Invalid envelope: turn_planning.does must be a string, not the number 3; actions[0].type must be one of narrate, tool, ask, task_finish; ' +
        'actions[1].name is required (a string); actions[2].text must not be empty. Fix them and send the whole envelope again.',
    );
    expect(error.issues.map((issue) => issue.path)).toEqual(['turn_planning.does', 'actions[0].type', 'actions[1].name', 'actions[2].text']);
  });

  it('says when the JSON is not an envelope at all', () => {
    expect(errorOf('{"task_summary": "x", "todos": []}').message).toMatch(/not a turn envelope/);
    expect(errorOf('[{"type": "narrate", "text": "hi"}]').message).toMatch(/not a turn envelope/);
  });

  it.each(['insert', 'add', 'create'])('refuses an "%s" key in todo_adjust, naming the ids to use instead', (key) => {
    const text = JSON.stringify({ ...envelope, todo_adjust: { [key]: [{ description: 'One more thing' }] } });
    const error = errorOf(text, { remainingIds: ['t3', 't4'] });
    expect(error.code).toBe('envelope_insert_forbidden');
    expect(error.message).toContain(`"${key}"`);
    expect(error.message).toContain('name or replace existing ids (t3, t4)');
    expect(error.raw).toBe(text);
    expect(() => parseTurnEnvelope(text)).toThrow(EnvelopeError);
  });

  it('never lets __proto__ or constructor.prototype reach a prototype', () => {
    const text =
      '{"actions": [{"type": "tool", "name": "fill", "__proto__": {"type": "ask"},' +
      ' "args": {"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "nested": {"__proto__": {"polluted": true}}}}]}';
    const { actions } = parseTurnEnvelope(text);
    const action = actions[0];
    if (action?.type !== 'tool') throw new Error('expected a tool action');
    expect(Object.getPrototypeOf(action.args)).toBe(Object.prototype);
    expect(Object.hasOwn(action.args, '__proto__')).toBe(false);
    expect((action.args as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(action.args.nested)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((Object.prototype as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('parseTurnEnvelope, array-wrapped replies', () => {
  it('reads an envelope a model wrapped in a one-item array, as the streaming parser does', async () => {
    const { createEnvelopeStreamParser } = await import('../../src/envelope/stream.js');
    const envelope = {
      turn_planning: { todo_id: 't1', does: 'Greet', is_last_turn: false },
      todo_adjust: { remove: [], replace: [] },
      actions: [{ type: 'narrate', text: 'Hi' }],
    };
    const text = JSON.stringify([envelope]);
    expect(parseTurnEnvelope(text)).toEqual(envelope);
    const streamed = createEnvelopeStreamParser();
    streamed.push(text);
    expect(streamed.end()).toEqual({ success: true, data: envelope });
    expect(() => parseTurnEnvelope(JSON.stringify([envelope, envelope]))).toThrow(/must be a JSON object/);
  });
});

// The compact form the turn prompt teaches and the full form of DESIGN.md, side by side: each
// pair must change the plan in the same way (statuses, texts, what adjust reports), and refuse
// the same way.
describe('the compact envelope means what its full form means', () => {
  type Status = 'pending' | 'in_progress' | 'completed';
  const todos = ['Open pricing', 'Show the tiers', 'Compare the plans', 'Open the trial form', 'Fill the form', 'Wrap up'];
  const planWith = (statuses: Status[] = []) => {
    const plan = new Plan();
    plan.todos.createMany(todos.map((description, index) => ({ intent: 'narrate', description, status: statuses[index] ?? 'pending' })));
    return plan;
  };
  /** What playTurn does with an envelope: parse it, then one adjust with the turn's todo in progress. */
  const play = (text: string, statuses?: Status[]) => {
    const plan = planWith(statuses);
    const remainingIds = plan.todos.remaining().map((todo) => todo.id);
    try {
      const envelope = parseTurnEnvelope(text, { remainingIds });
      const result = plan.adjust(envelope.todo_adjust ?? {}, { inProgress: envelope.turn_planning?.todo_id });
      const todoList = plan.todos.list().map((todo) => `${todo.id}:${todo.status}:${todo.intent}:${todo.description}`);
      return { todoList, result, todo: envelope.turn_planning?.todo_id, last: envelope.turn_planning?.is_last_turn ?? false, actions: envelope.actions };
    } catch (error) {
      return { error: (error as EnvelopeError).code, message: (error as EnvelopeError).message, todoList: plan.todos.list().map((todo) => todo.status) };
    }
  };
  const rewrite = { id: 't4', intent: 'click', description: 'Open the free-trial form' };
  const narrate = { type: 'narrate', target: '#tiers', text: 'Three plans.' };
  const corpus: Array<[string, Record<string, unknown>, Record<string, unknown>, Status[]?]> = [
    ['the first todo', { todo: 't1', actions: [narrate] }, { turn_planning: { todo_id: 't1' }, actions: [narrate] }],
    [
      'naming t3 completes the open todos above it',
      { todo: 't3', actions: [narrate] },
      { turn_planning: { todo_id: 't3' }, todo_adjust: { remove: ['t1', 't2'] }, actions: [narrate] },
    ],
    [
      'the next todo after one in progress',
      { todo: 't2', actions: [] },
      { turn_planning: { todo_id: 't2' }, todo_adjust: { remove: ['t1'] }, actions: [] },
      ['in_progress'],
    ],
    ['the same todo again, over several turns', { todo: 't2', actions: [] }, { turn_planning: { todo_id: 't2' }, actions: [] }, ['completed', 'in_progress']],
    [
      'open todos above, out of order',
      { todo: 't4', actions: [] },
      { turn_planning: { todo_id: 't4' }, todo_adjust: { remove: ['t1', 't3'] }, actions: [] },
      ['in_progress', 'completed'],
    ],
    ['back to a done todo', { todo: 't1', actions: [] }, { turn_planning: { todo_id: 't1' }, actions: [] }, ['completed', 'completed', 'in_progress']],
    [
      'the last turn',
      { todo: 't6', last: true, actions: [{ type: 'task_finish', summary: 'Done.' }] },
      { turn_planning: { todo_id: 't6', is_last_turn: true }, todo_adjust: { remove: ['t5'] }, actions: [{ type: 'task_finish', summary: 'Done.' }] },
      ['completed', 'completed', 'completed', 'completed', 'in_progress'],
    ],
    [
      'finishing without a todo',
      { last: true, actions: [{ type: 'task_finish' }] },
      { turn_planning: { is_last_turn: true }, actions: [{ type: 'task_finish' }] },
    ],
    [
      'a rewrite',
      { todo: 't2', replace: [rewrite], actions: [narrate] },
      { turn_planning: { todo_id: 't2' }, todo_adjust: { remove: ['t1'], replace: [rewrite] }, actions: [narrate] },
      ['in_progress'],
    ],
    ['a rewrite only', { replace: [rewrite], actions: [] }, { todo_adjust: { replace: [rewrite] }, actions: [] }],
    [
      'an explicit todo_adjust keeps t2 open',
      { todo: 't3', todo_adjust: { remove: ['t1'] }, actions: [] },
      { turn_planning: { todo_id: 't3' }, todo_adjust: { remove: ['t1'] }, actions: [] },
      ['in_progress'],
    ],
    ['an unknown todo is ignored and reported once', { todo: 't9', actions: [] }, { turn_planning: { todo_id: 't9' }, actions: [] }],
    [
      'an insert through replace is refused, nothing changes',
      { todo: 't3', replace: [{ id: 't99', description: 'More' }], actions: [] },
      { turn_planning: { todo_id: 't3' }, todo_adjust: { remove: ['t1', 't2'], replace: [{ id: 't99', description: 'More' }] }, actions: [] },
    ],
    [
      'an insert key is refused in both forms',
      { todo: 't2', add: [{ description: 'More' }], actions: [] },
      { turn_planning: { todo_id: 't2' }, todo_adjust: { add: [{ description: 'More' }] }, actions: [] },
    ],
    [
      'defaults written out mean the same',
      { todo: 't2', last: false, replace: [], actions: [] },
      { turn_planning: { todo_id: 't2', does: '', is_last_turn: false }, todo_adjust: { remove: ['t1'], replace: [] }, actions: [] },
    ],
  ];

  it.each(corpus)('%s', (_name, compact, full, statuses) => {
    const fromCompact = play(JSON.stringify(compact), statuses);
    const fromFull = play(JSON.stringify(full), statuses);
    expect(fromCompact).toEqual(fromFull);
  });

  it('reads the compact form into the full TurnEnvelope, complete_before included', () => {
    expect(
      parseTurnEnvelope(
        '{"todo":"t3","last":true,"replace":[{"id":"t4","description":"Open the form"}],"actions":[{"type":"narrate","target":"#a","text":"Hi"}]}',
      ),
    ).toEqual({
      turn_planning: { todo_id: 't3', does: '', is_last_turn: true },
      todo_adjust: { remove: [], replace: [{ id: 't4', description: 'Open the form' }], complete_before: 't3' },
      actions: [{ type: 'narrate', text: 'Hi', target: '#a' }],
    });
  });

  it('words the errors of the compact form for the model, naming its own keys', () => {
    expect(errorOf('{"todo": 3, "last": "yes", "actions": []}').message).toBe(
      'Invalid envelope: last must be true or false; todo must be a string, not the number 3. Fix them and send the whole envelope again.',
    );
    expect(errorOf('{"todo": "t2", "turn_planning": {"todo_id": "t2"}, "actions": []}').message).toContain('todo cannot be combined with turn_planning');
    expect(errorOf('{"todo": "t2", "replace": [{"id": "t3"}], "todo_adjust": {}, "actions": []}').message).toContain(
      'replace cannot be combined with todo_adjust',
    );
    expect(errorOf('{"todo": "t2", "replace": [{"description": "x"}], "actions": []}').message).toContain('replace[0].id is required');
    expect(errorOf('{"todo": "t2", "insert": [{"description": "x"}], "actions": []}', { remainingIds: ['t2', 't3'] }).message).toBe(
      'Todos cannot be added (got the "insert" key); name or replace existing ids (t2, t3). The plan is fixed when the run starts.',
    );
  });
});
