import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { PlanloopError } from '../../src/errors.js';
import type { PlanEvents } from '../../src/events.js';
import { createWriteTodos, PLANNER_OVERUSE, writeTodosJsonSchema, type WriteTodosResult } from '../../src/interop/write-todos.js';
import { Plan } from '../../src/plan.js';

const updates = (plan: Plan) => {
  const events: Array<PlanEvents['plan-update']> = [];
  plan.on('plan-update', (payload) => events.push(payload));
  return events;
};

/** An OpenAI Chat Completions tool call. */
const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

// The writeTodos example of the route-planning seed.
const SEED_WRITE = {
  todos: [
    { content: 'Understand the customer request', status: 'completed' },
    { content: 'Check account context', status: 'in_progress' },
    { content: 'Write the final response', status: 'pending' },
  ],
};

describe('write_todos: the write itself', () => {
  it('replaces the plan with the seed example, acknowledges compactly and emits plan-update', () => {
    const plan = new Plan();
    const events = updates(plan);
    const writeTodos = createWriteTodos(plan);
    const result = writeTodos.execute(SEED_WRITE, { toolCallId: 'call_1' });
    expect(result).toEqual({ ok: true, revision: 1, todoCount: 3, inProgress: 't2' });
    expect(plan.todos.list()).toEqual([
      { id: 't1', intent: 'narrate', description: 'Understand the customer request', status: 'completed' },
      { id: 't2', intent: 'narrate', description: 'Check account context', status: 'in_progress' },
      { id: 't3', intent: 'narrate', description: 'Write the final response', status: 'pending' },
    ]);
    expect(events).toEqual([{ todos: plan.todos.list(), source: 'write-todos', tool_call_id: 'call_1', revision: 1 }]);
    expect(writeTodos.revision).toBe(1);
  });

  it('answers inProgress null when nothing is in progress, and omits tool_call_id when there is none', () => {
    const plan = new Plan();
    const events = updates(plan);
    const result = createWriteTodos(plan).execute({ todos: [{ content: 'a', status: 'pending' }] });
    expect(result).toEqual({ ok: true, revision: 1, todoCount: 1, inProgress: null });
    expect(events[0]).not.toHaveProperty('tool_call_id');
  });

  it('counts revisions of accepted writes only', () => {
    const plan = new Plan();
    const writeTodos = createWriteTodos(plan);
    writeTodos.execute(SEED_WRITE);
    writeTodos.execute({ todos: [{ content: 'x', status: 'bogus' }] });
    expect(writeTodos.execute(SEED_WRITE)).toMatchObject({ ok: true, revision: 2 });
    expect(writeTodos.revision).toBe(2);
  });

  it('reads JSON-string arguments, and refuses arguments that are not JSON', () => {
    const plan = new Plan();
    const writeTodos = createWriteTodos(plan);
    expect(writeTodos.execute(JSON.stringify(SEED_WRITE))).toMatchObject({ ok: true, todoCount: 3 });
    expect(writeTodos.execute('{"todos": [')).toEqual({ ok: false, error: 'invalid_input', message: expect.stringContaining('not valid JSON') });
  });

  it('accepts an empty list: the plan becomes empty', () => {
    const plan = new Plan();
    const writeTodos = createWriteTodos(plan);
    writeTodos.execute(SEED_WRITE);
    expect(writeTodos.execute({ todos: [] })).toEqual({ ok: true, revision: 2, todoCount: 0, inProgress: null });
    expect(plan.todos.list()).toEqual([]);
  });
});

describe('write_todos: validation', () => {
  const rejects = (input: unknown, text: string, options = {}) => {
    const plan = new Plan();
    plan.todos.create({ intent: 'navigate', description: 'Keep me' });
    const events = updates(plan);
    const writeTodos = createWriteTodos(plan, options);
    const result = writeTodos.execute(input);
    expect(result).toEqual({ ok: false, error: 'invalid_input', message: expect.stringContaining(text) });
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['Keep me']);
    expect(events).toEqual([]);
    expect(writeTodos.revision).toBe(0);
  };

  it('names the index of a bad status', () => {
    rejects(
      { todos: [...SEED_WRITE.todos.slice(0, 2), { content: 'Write the final response', status: 'done' }] },
      'todos[2].status must be one of pending, in_progress, completed',
    );
  });

  it('names every bad field', () => {
    const plan = new Plan();
    const result = createWriteTodos(plan).execute({ todos: [{ status: 'pending' }, { content: '   ', status: 'pending' }, { content: 'ok' }] });
    expect(result.ok).toBe(false);
    const { message } = result as Extract<WriteTodosResult, { ok: false }>;
    expect(message).toContain('todos[0].content is required');
    expect(message).toContain('todos[1].content must not be empty');
    expect(message).toContain('todos[2].status must be one of pending, in_progress, completed');
  });

  it('needs a todos array', () => {
    rejects({}, 'todos is required (an array)');
    rejects({ todos: 'all of them' }, 'todos must be an array, not a string');
  });

  it('limits the item count and content length (defaults 20 and 200)', () => {
    const items = (n: number, content = 'step') => ({ todos: Array.from({ length: n }, (_, i) => ({ content: `${content} ${i}`, status: 'pending' })) });
    expect(createWriteTodos(new Plan()).execute(items(20))).toMatchObject({ ok: true });
    rejects(items(21), 'todos must have at most 20 items');
    expect(createWriteTodos(new Plan()).execute({ todos: [{ content: 'x'.repeat(200), status: 'pending' }] })).toMatchObject({ ok: true });
    rejects({ todos: [{ content: 'x'.repeat(201), status: 'pending' }] }, 'todos[0].content must have at most 200 characters');
  });

  it('takes configurable limits', () => {
    rejects({ todos: [1, 2, 3].map((i) => ({ content: `s${i}`, status: 'pending' })) }, 'at most 2 items', { maxItems: 2 });
    rejects({ todos: [{ content: 'eleven char', status: 'pending' }] }, 'todos[0].content must have at most 10 characters', { maxContentLength: 10 });
    expect(writeTodosJsonSchema({ maxItems: 2, maxContentLength: 10 }).properties.todos).toMatchObject({
      maxItems: 2,
      items: { properties: { content: { maxLength: 10 } } },
    });
  });

  it('accepts id: null, which models send for optional fields', () => {
    expect(createWriteTodos(new Plan()).execute({ todos: [{ id: null, content: 'a', status: 'pending' }] })).toMatchObject({ ok: true });
  });
});

describe('write_todos: ids across full replaces', () => {
  const planned = () => {
    const plan = new Plan();
    plan.todos.createMany([
      { intent: 'navigate', description: 'Open pricing', expected_turn: 1 },
      { intent: 'narrate', description: 'Explain the tiers', expected_turn: 2 },
      { intent: 'click', description: 'Open the trial form', expected_turn: 3 },
    ]);
    return plan;
  };

  it('keeps the id, intent and expected turn of an item with the same text', () => {
    const plan = planned();
    createWriteTodos(plan).execute({
      todos: [
        { content: 'Open pricing', status: 'completed' },
        { content: 'Explain the tiers', status: 'in_progress' },
        { content: 'Open the trial form', status: 'pending' },
      ],
    });
    expect(plan.todos.list()).toEqual([
      { id: 't1', intent: 'navigate', description: 'Open pricing', status: 'completed', expected_turn: 1 },
      { id: 't2', intent: 'narrate', description: 'Explain the tiers', status: 'in_progress', expected_turn: 2 },
      { id: 't3', intent: 'click', description: 'Open the trial form', status: 'pending', expected_turn: 3 },
    ]);
  });

  it('keeps the id of an item that names it, also when its text changed', () => {
    const plan = planned();
    createWriteTodos(plan).execute({
      todos: [
        { id: 't3', content: 'Open the free-trial form', status: 'pending' },
        { content: 'Open pricing', status: 'completed' },
      ],
    });
    expect(plan.todos.list().map(({ id, description, intent }) => [id, description, intent])).toEqual([
      ['t3', 'Open the free-trial form', 'click'],
      ['t1', 'Open pricing', 'navigate'],
    ]);
  });

  it('an id named later wins over an earlier item with the same text', () => {
    const plan = planned();
    createWriteTodos(plan).execute({
      todos: [
        { content: 'Open pricing', status: 'pending' },
        { id: 't1', content: 'Open pricing', status: 'completed' },
      ],
    });
    expect(plan.todos.list().map(({ id, status }) => [id, status])).toEqual([
      ['t4', 'pending'],
      ['t1', 'completed'],
    ]);
  });

  it('never reuses an id: dropped ids stay retired, unknown or repeated ids get fresh ones', () => {
    const plan = planned();
    const writeTodos = createWriteTodos(plan, { intent: 'ask' });
    writeTodos.execute({ todos: [{ content: 'Open pricing', status: 'completed' }] });
    writeTodos.execute({
      todos: [
        { id: 't1', content: 'Open pricing', status: 'completed' },
        { id: 't2', content: 'Explain the tiers again', status: 'pending' },
        { id: 't99', content: 'Made-up id', status: 'pending' },
        { id: 't1', content: 'Same id twice', status: 'pending' },
      ],
    });
    expect(plan.todos.list().map(({ id, description, intent }) => [id, description, intent])).toEqual([
      ['t1', 'Open pricing', 'navigate'],
      ['t4', 'Explain the tiers again', 'ask'],
      ['t5', 'Made-up id', 'ask'],
      ['t6', 'Same id twice', 'ask'],
    ]);
    writeTodos.execute({ todos: [{ content: 'Explain the tiers', status: 'pending' }] });
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t7']);
  });
});

describe('write_todos: the system-prompt fragment', () => {
  it('is re-rendered with the current plan on every call', () => {
    const plan = new Plan();
    const writeTodos = createWriteTodos(plan);
    expect(writeTodos.systemPrompt()).toContain('Current todos:\n(none yet)');
    writeTodos.execute(SEED_WRITE);
    expect(writeTodos.systemPrompt()).toContain(
      'Current todos:\n- [completed] Understand the customer request\n- [in_progress] Check account context\n- [pending] Write the final response',
    );
    plan.adjust({ remove: ['t2'] });
    expect(writeTodos.systemPrompt()).toContain('- [completed] Check account context');
    expect(createWriteTodos(plan, { toolName: 'update_plan' }).systemPrompt()).toContain('`update_plan`');
  });

  it('takes its instructions from the systemPrompt option, still followed by the current todos', () => {
    const plan = new Plan();
    const writeTodos = createWriteTodos(plan, { systemPrompt: 'Plan with write_todos before you act; keep one item in_progress.' });
    writeTodos.execute(SEED_WRITE);
    expect(writeTodos.systemPrompt()).toBe(
      'Plan with write_todos before you act; keep one item in_progress.\n\nCurrent todos:\n- [completed] Understand the customer request\n- [in_progress] Check account context\n- [pending] Write the final response',
    );
  });

  it('stays far below the public LangChain JS sizes (tool description 11,389 chars, system prompt 1,075 chars)', () => {
    const writeTodos = createWriteTodos(new Plan());
    expect(writeTodos.description.length).toBeLessThan(11_389 / 20);
    expect(encode(writeTodos.description).length).toBeLessThanOrEqual(60);
    expect(writeTodos.systemPrompt().length).toBeLessThan(1_075 / 2);
    expect(encode(writeTodos.systemPrompt()).length).toBeLessThanOrEqual(100);
    expect(encode(JSON.stringify(writeTodos.parameters)).length).toBeLessThanOrEqual(120);
    expect(createWriteTodos(new Plan(), { description: 'Mine.' }).description).toBe('Mine.');
  });
});

describe('write_todos: one model turn at a time (handleToolCalls)', () => {
  it('runs the seed write_todos flow: parses the arguments, answers by call id, emits the id', () => {
    const plan = new Plan();
    const events = updates(plan);
    const writeTodos = createWriteTodos(plan);
    const results = writeTodos.handleToolCalls([
      {
        id: 'call_123',
        type: 'function',
        function: {
          name: 'write_todos',
          arguments: '{"todos": [{"content": "Analyze codebase", "status": "in_progress"}, {"content": "Identify issues", "status": "pending"}]}',
        },
      },
    ]);
    expect(results).toEqual([{ toolCallId: 'call_123', toolName: 'write_todos', result: { ok: true, revision: 1, todoCount: 2, inProgress: 't1' } }]);
    expect(plan.todos.list().map(({ description, status }) => [description, status])).toEqual([
      ['Analyze codebase', 'in_progress'],
      ['Identify issues', 'pending'],
    ]);
    expect(events[0]?.tool_call_id).toBe('call_123');
  });

  it('answers only write_todos calls; the host runs its own', () => {
    const writeTodos = createWriteTodos(new Plan());
    const results = writeTodos.handleToolCalls([call('c1', 'navigate', { path: '/pricing' }), call('c2', 'write_todos', SEED_WRITE)]);
    expect(results.map((r) => r.toolCallId)).toEqual(['c2']);
    expect(writeTodos.handleToolCalls([])).toEqual([]);
  });

  it('applies the first write_todos call of a reply and refuses the later ones, saying the first stands', () => {
    const plan = new Plan();
    plan.todos.create({ intent: 'navigate', description: 'Before' });
    const events = updates(plan);
    const writeTodos = createWriteTodos(plan);
    const other = { todos: [{ content: 'Something else', status: 'pending' }] };
    const results = writeTodos.handleToolCalls([call('a', 'write_todos', SEED_WRITE), call('b', 'write_todos', other), call('c', 'navigate', {})]);
    expect(results).toEqual([
      { toolCallId: 'a', toolName: 'write_todos', result: { ok: true, revision: 1, todoCount: 3, inProgress: 't3' } },
      {
        toolCallId: 'b',
        toolName: 'write_todos',
        result: {
          ok: false,
          error: 'multiple_calls',
          message: expect.stringMatching(/only the first call of a reply counts.*the plan stands as the first call left it/),
        },
      },
    ]);
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(SEED_WRITE.todos.map((todo) => todo.content));
    expect(events.map((event) => event.tool_call_id)).toEqual(['a']);
  });

  it('refuses a third turn in a row that only plans with planner_overuse_execute_next_step (seed guardrail)', () => {
    const plan = new Plan();
    const writeTodos = createWriteTodos(plan);
    const planOnly = (n: number) =>
      writeTodos.handleToolCalls([call(`p${n}`, 'write_todos', { todos: [{ content: `plan ${n}`, status: 'in_progress' }] })])[0]?.result;
    expect(planOnly(1)).toMatchObject({ ok: true, revision: 1 });
    expect(planOnly(2)).toMatchObject({ ok: true, revision: 2 });
    expect(planOnly(3)).toEqual({ ok: false, error: PLANNER_OVERUSE, message: expect.stringContaining('planner_overuse_execute_next_step') });
    expect(planOnly(4)).toMatchObject({ ok: false, error: PLANNER_OVERUSE });
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['plan 2']);
    // Acting resets the count.
    writeTodos.handleToolCalls([call('x', 'navigate', { path: '/' })]);
    expect(planOnly(5)).toMatchObject({ ok: true, revision: 3 });
  });

  it('does not count turns that also act, or answer without tools, as planning only', () => {
    const writeTodos = createWriteTodos(new Plan(), { maxPlannerOnlyTurns: 1 });
    const both = () => writeTodos.handleToolCalls([call('w', 'write_todos', SEED_WRITE), call('n', 'navigate', {})])[0]?.result;
    expect([both(), both(), both()].every((result) => result?.ok)).toBe(true);
    writeTodos.handleToolCalls([call('w', 'write_todos', SEED_WRITE)]);
    writeTodos.handleToolCalls([]); // a reply without tool calls
    expect(writeTodos.handleToolCalls([call('w', 'write_todos', SEED_WRITE)])[0]?.result.ok).toBe(true);
    expect(writeTodos.handleToolCalls([call('w', 'write_todos', SEED_WRITE)])[0]?.result).toMatchObject({ error: PLANNER_OVERUSE });
  });

  it('reads Anthropic, Responses, LangChain and AI SDK tool calls too', () => {
    const writeTodos = createWriteTodos(new Plan());
    const shapes = [
      { type: 'tool_use', id: 'toolu_1', name: 'write_todos', input: SEED_WRITE },
      { type: 'function_call', call_id: 'fc_1', name: 'write_todos', arguments: JSON.stringify(SEED_WRITE) },
      { id: 'lc_1', name: 'write_todos', args: SEED_WRITE, type: 'tool_call' },
      { type: 'tool-call', toolCallId: 'ai_1', toolName: 'write_todos', input: SEED_WRITE },
    ];
    const ids = shapes.map((shape) => {
      writeTodos.handleToolCalls([shape, call('n', 'navigate', {})]);
      return writeTodos.handleToolCalls([shape])[0];
    });
    expect(ids.map((r) => [r?.toolCallId, r?.result.ok])).toEqual([
      ['toolu_1', true],
      ['fc_1', true],
      ['lc_1', true],
      ['ai_1', true],
    ]);
  });
});

describe('write_todos: one call at a time (execute)', () => {
  it('applies the first call of a reply and refuses the later ones; the next reply writes again', () => {
    const plan = new Plan();
    const events = updates(plan);
    const writeTodos = createWriteTodos(plan);
    const turn = {};
    expect(writeTodos.execute(SEED_WRITE, { toolCallId: 'a', turn })).toMatchObject({ ok: true, revision: 1 });
    const later = { ok: false, error: 'multiple_calls', message: expect.stringContaining('only the first call of a reply counts') };
    expect(writeTodos.execute({ todos: [] }, { toolCallId: 'b', turn })).toEqual(later);
    expect(writeTodos.execute(SEED_WRITE, { toolCallId: 'c', turn })).toEqual(later);
    expect(plan.todos.list()).toHaveLength(3);
    expect(events.map((event) => [event.revision, event.tool_call_id])).toEqual([[1, 'a']]);
    expect(writeTodos.execute({ todos: [] }, { turn: {} })).toMatchObject({ ok: true, revision: 2 });
  });

  it('refuses the later calls of a reply also when its first call was invalid', () => {
    const writeTodos = createWriteTodos(new Plan());
    const turn = 'reply-1';
    expect(writeTodos.execute({ todos: [{ content: '', status: 'pending' }] }, { turn })).toMatchObject({ ok: false, error: 'invalid_input' });
    expect(writeTodos.execute(SEED_WRITE, { turn })).toMatchObject({ ok: false, error: 'multiple_calls' });
  });

  it('treats calls without a turn as separate turns', () => {
    const writeTodos = createWriteTodos(new Plan());
    expect([writeTodos.execute(SEED_WRITE), writeTodos.execute(SEED_WRITE)].map((r) => r.ok)).toEqual([true, true]);
  });

  it('a reply with the same turn value is a new reply when its call id already ran, or its calls are used up (issue 26)', () => {
    const writeTodos = createWriteTodos(new Plan());
    // Replies numbered afresh per run: the same turn value, the same call id.
    expect(writeTodos.execute(SEED_WRITE, { toolCallId: 'call_0', turn: '0' })).toMatchObject({ ok: true, revision: 1 });
    expect(writeTodos.execute(SEED_WRITE, { toolCallId: 'call_0', turn: '0' })).toMatchObject({ ok: true, revision: 2 });
    // No call ids at all: a reply holding one write_todos call has had it.
    expect(writeTodos.execute(SEED_WRITE, { turn: '0', replyCalls: 1 })).toMatchObject({ ok: true, revision: 3 });
    expect(writeTodos.execute(SEED_WRITE, { turn: '0', replyCalls: 1 })).toMatchObject({ ok: true, revision: 4 });
    // A reply holding two calls: the second is still refused.
    expect(writeTodos.execute(SEED_WRITE, { turn: '1', replyCalls: 2 })).toMatchObject({ ok: true, revision: 5 });
    expect(writeTodos.execute(SEED_WRITE, { turn: '1', replyCalls: 2 })).toMatchObject({ ok: false, error: 'multiple_calls' });
  });

  it('answers planner_overuse_execute_next_step when the turns before only planned', () => {
    const plan = new Plan();
    const writeTodos = createWriteTodos(plan);
    expect(writeTodos.execute(SEED_WRITE, { plannerOnlyTurns: 1 }).ok).toBe(true);
    expect(writeTodos.execute({ todos: [] }, { plannerOnlyTurns: 2 })).toMatchObject({ ok: false, error: PLANNER_OVERUSE });
    expect(plan.todos.list()).toHaveLength(3);
  });
});

describe('write_todos: set-up conflicts', () => {
  const conflict = (run: () => unknown, ...parts: string[]) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(PlanloopError);
      expect((error as PlanloopError).code).toBe('config_conflict');
      for (const part of parts) expect((error as Error).message).toContain(part);
      return;
    }
    throw new Error('expected a config_conflict');
  };

  it('refuses a host tool with the same name, in any tool list shape', () => {
    const plan = new Plan();
    conflict(() => createWriteTodos(plan, { hostTools: ['navigate', 'write_todos'] }), 'host already has a tool named "write_todos"', "planloop's todo tool");
    conflict(() => createWriteTodos(plan, { hostTools: { write_todos: {} } }), '"write_todos"');
    conflict(() => createWriteTodos(plan, { hostTools: [{ type: 'function', function: { name: 'write_todos' } }] as never }), '"write_todos"');
    conflict(() => createWriteTodos(plan, { hostTools: [{ name: 'writeTodos' }], toolName: 'writeTodos' }), '"writeTodos"');
    expect(createWriteTodos(plan, { hostTools: ['write_todos'], toolName: 'update_plan' }).name).toBe('update_plan');
  });

  it('refuses a host state field named todos', () => {
    conflict(() => createWriteTodos(new Plan(), { hostStateFields: ['messages', 'todos'] }), 'host\'s state has a "todos" field', 'write_todos tool');
    conflict(() => createWriteTodos(new Plan(), { hostStateFields: { messages: [], todos: [] } }), '"todos"');
    expect(() => createWriteTodos(new Plan(), { hostStateFields: ['messages'] })).not.toThrow();
  });

  it('refuses a tool name function-calling APIs reject', () => {
    expect(() => createWriteTodos(new Plan(), { toolName: 'write todos' })).toThrow(/letters, digits/);
  });
});

describe('write_todos: calls that are not calls', () => {
  it('skips tool calls that are not objects and applies the real one', () => {
    const plan = new Plan();
    const writeTodos = createWriteTodos(plan);
    expect(writeTodos.handleToolCalls([null] as never)).toEqual([]);
    expect(writeTodos.handleToolCalls([null, 7, 'write_todos', call('c1', 'write_todos', SEED_WRITE)] as never)).toEqual([
      { toolCallId: 'c1', toolName: 'write_todos', result: { ok: true, revision: 1, todoCount: 3, inProgress: 't2' } },
    ]);
  });

  it.each([null, undefined, 'write_todos', { id: 'c1' }])('refuses %j instead of a list of calls, with a coded error and no change', (calls) => {
    const plan = new Plan();
    plan.todos.create({ intent: 'narrate', description: 'Keep me' });
    expect(() => createWriteTodos(plan).handleToolCalls(calls as never)).toThrow(
      expect.objectContaining({ code: 'invalid_input', message: expect.stringMatching(/a list of tool calls/) }),
    );
    expect(plan.todos.list()).toHaveLength(1);
  });

  it('runs execute() with a null context like one without', () => {
    const plan = new Plan();
    expect(createWriteTodos(plan).execute(SEED_WRITE, null as never)).toMatchObject({ ok: true, revision: 1 });
  });
});
