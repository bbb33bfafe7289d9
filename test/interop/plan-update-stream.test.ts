import { describe, expect, it } from 'vitest';
import type { PlanEvents } from '../../src/events.js';
import { createPlanUpdateStream, type PlanUpdate } from '../../src/interop/plan-update-stream.js';
import { Plan } from '../../src/plan.js';

const TODOS = [
  { content: 'Analyze current codebase structure', status: 'in_progress' },
  { content: 'Identify refactoring opportunities', status: 'pending' },
];

const setup = () => {
  const plan = new Plan();
  const updates: PlanUpdate[] = [];
  const warnings: Array<PlanEvents['plan-warning']> = [];
  plan.on('plan-update', (event) => updates.push(event));
  plan.on('plan-warning', (event) => warnings.push(event));
  return { plan, updates, warnings, stream: createPlanUpdateStream(plan) };
};

const pairs = (plan: Plan) => plan.todos.list().map(({ description, status }) => [description, status]);

describe('createPlanUpdateStream', () => {
  it('reads a direct { todos } output (the route-planning seed result) into the plan and a plan-update', () => {
    const { plan, updates, stream } = setup();
    const update = stream.push({ result: { todos: TODOS }, state: { todos: TODOS } });
    expect(pairs(plan)).toEqual([
      ['Analyze current codebase structure', 'in_progress'],
      ['Identify refactoring opportunities', 'pending'],
    ]);
    expect(update).toEqual({ todos: plan.todos.list(), source: 'tool-result' });
    expect(updates).toEqual([update]);
  });

  it('reads a Command-shaped { update: { todos, messages } } and takes the tool_call_id of its ToolMessage', () => {
    const { plan, updates, stream } = setup();
    stream.push({
      update: {
        todos: TODOS,
        messages: [{ content: "Updated todo list to [{'content': 'Analyze...'}]", tool_call_id: 'call_123' }],
      },
    });
    expect(updates).toEqual([{ todos: plan.todos.list(), source: 'tool-result', tool_call_id: 'call_123' }]);
    // LangChain's serialized message form carries the id under kwargs.
    stream.push({ lg_name: 'Command', update: { todos: [TODOS[0]], messages: [{ lc: 1, kwargs: { tool_call_id: 'call_456' } }] } });
    expect(updates[1]?.tool_call_id).toBe('call_456');
  });

  it('reads tool results wrapped in AI SDK parts and ToolMessages, JSON text included', () => {
    const { plan, updates, stream } = setup();
    stream.push({ type: 'tool-result', toolCallId: 'ai_1', toolName: 'write_todos', input: { todos: [] }, output: { todos: TODOS } });
    stream.push({
      role: 'tool',
      name: 'writeTodos',
      tool_call_id: 'oa_1',
      content: JSON.stringify({ todos: [{ content: 'Check account context', status: 'in_progress' }] }),
    });
    expect(updates.map((update) => update.tool_call_id)).toEqual(['ai_1', 'oa_1']);
    expect(pairs(plan)).toEqual([['Check account context', 'in_progress']]);
  });

  it('keeps the ids of todos a later result keeps', () => {
    const { plan, stream } = setup();
    stream.push({ todos: TODOS });
    stream.push({
      todos: [
        { ...TODOS[0], status: 'completed' },
        { ...TODOS[1], status: 'in_progress' },
        { content: 'Write tests', status: 'pending' },
      ],
    });
    expect(plan.todos.list().map(({ id, status }) => [id, status])).toEqual([
      ['t1', 'completed'],
      ['t2', 'in_progress'],
      ['t3', 'pending'],
    ]);
  });

  it('never clears or changes the plan on a malformed result, and warns', () => {
    const { plan, updates, warnings, stream } = setup();
    stream.push({ todos: TODOS });
    const malformed = [
      { todos: 'none' },
      { todos: null },
      { todos: [{ content: 'a', status: 'done' }] },
      { todos: [{ status: 'pending' }] },
      { update: { todos: [{ content: '   ', status: 'pending' }] }, tool_call_id: 'bad_1' },
      { output: '{"todos": {"content": "x"}}' },
    ];
    for (const result of malformed) expect(stream.push(result)).toBeNull();
    expect(pairs(plan)).toEqual([
      ['Analyze current codebase structure', 'in_progress'],
      ['Identify refactoring opportunities', 'pending'],
    ]);
    expect(updates).toHaveLength(1);
    expect(warnings).toHaveLength(malformed.length);
    expect(warnings[4]).toEqual({ code: 'plan_update_malformed', message: expect.stringContaining('bad_1') });
  });

  it('skips results that are not todo lists, and results of other tools', () => {
    const { plan, updates, warnings, stream } = setup();
    for (const result of [
      null,
      'plain text',
      '{not json',
      42,
      { ok: true, revision: 1 },
      { update: { messages: [] } },
      { type: 'tool-result', toolName: 'search', output: { todos: TODOS } },
    ]) {
      expect(stream.push(result)).toBeNull();
    }
    expect(plan.todos.list()).toEqual([]);
    expect(updates).toEqual([]);
    expect(warnings).toEqual([]);
    expect(createPlanUpdateStream(plan, { toolNames: ['search'] }).push({ toolName: 'search', output: { todos: TODOS } })).not.toBeNull();
  });

  it('sends identical consecutive updates once', () => {
    const { updates, stream } = setup();
    expect(stream.push({ todos: TODOS, tool_call_id: 'a' })).not.toBeNull();
    expect(stream.push({ update: { todos: TODOS }, tool_call_id: 'b' })).toBeNull();
    stream.push({ todos: [TODOS[0]] });
    stream.push({ todos: TODOS });
    expect(updates.map((update) => update.todos.length)).toEqual([2, 1, 2]);
  });

  it('works as a TransformStream', async () => {
    const { stream } = setup();
    const chunks = [{ todos: TODOS }, { type: 'text-delta', text: 'hi' }, { todos: TODOS }, { update: { todos: [] } }];
    const source = new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const out: PlanUpdate[] = [];
    const reader = source.pipeThrough(stream.transformStream()).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) out.push(read.value);
    expect(out.map((update) => update.todos.length)).toEqual([2, 0]);
  });
});

describe('createPlanUpdateStream: LangGraph stream modes', () => {
  const toolMessage = (id: string, name = 'write_todos') => ({ type: 'tool', name, content: 'Updated todo list', tool_call_id: id });

  it("takes the tool_call_id from the ToolMessage of a streamMode 'updates' chunk, wrapped in its node or not", () => {
    const { updates, stream } = setup();
    stream.push({ tools: { todos: TODOS, messages: [toolMessage('call_upd_1')] } });
    stream.push({ todos: [TODOS[0]], messages: [toolMessage('call_upd_2')] });
    expect(updates.map((update) => update.tool_call_id)).toEqual(['call_upd_1', 'call_upd_2']);
  });

  it("takes the id of the latest write_todos ToolMessage from a streamMode 'values' chunk (the whole state)", () => {
    const { updates, stream } = setup();
    const history = [
      { type: 'human', content: 'go' },
      toolMessage('call_old'),
      toolMessage('call_search', 'search'),
      toolMessage('call_new'),
      toolMessage('call_other', 'navigate'),
    ];
    stream.push({ messages: history, todos: TODOS });
    expect(updates.map((update) => update.tool_call_id)).toEqual(['call_new']);
  });

  it("a 'values' chunk's todos count only beside a todo tool's ToolMessage, once per call: a seeded plan survives the initial todos: [] (issue 26)", () => {
    const { plan, updates, stream } = setup();
    plan.todos.create({ intent: 'navigate', description: 'Open pricing' });
    const seeded = plan.state.todos;
    const human = { type: 'human', content: 'go' };
    expect(stream.push({ messages: [human], todos: [] })).toBeNull();
    expect(stream.push({ messages: [human, toolMessage('call_nav', 'navigate')], todos: [] })).toBeNull();
    expect(plan.state.todos).toBe(seeded);
    stream.push({ messages: [human, toolMessage('call_w1')], todos: TODOS });
    // The user edits the plan; the next chunks still carry call_w1's list: not applied again.
    plan.todos.edit('t2', { description: 'Edited by the user' });
    const edited = plan.state.todos;
    expect(stream.push({ messages: [human, toolMessage('call_w1'), toolMessage('call_nav', 'navigate')], todos: TODOS })).toBeNull();
    expect(plan.state.todos).toBe(edited);
    expect(updates.map((update) => update.tool_call_id)).toEqual(['call_w1']);
  });

  it('leaves chunks of other nodes alone', () => {
    const { plan, updates, stream } = setup();
    expect(
      stream.push({ model_request: { messages: [{ type: 'ai', content: 'hi', tool_calls: [{ name: 'write_todos', args: { todos: TODOS } }] }] } }),
    ).toBeNull();
    expect(updates).toEqual([]);
    expect(plan.todos.list()).toEqual([]);
  });
});
