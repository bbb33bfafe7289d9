import { describe, expect, it } from 'vitest';
import { toAISDKTool, toAnthropicTool, toLangChainTool, toOpenAIChatTool, toOpenAIResponsesTool } from '../../src/interop/tool-definitions.js';
import { createWriteTodos, PLANNER_OVERUSE } from '../../src/interop/write-todos.js';
import { Plan } from '../../src/plan.js';

const WRITE = { todos: [{ content: 'Open pricing', status: 'in_progress' }] };

describe('tool definitions', () => {
  const writeTodos = createWriteTodos(new Plan());

  it('has a JSON Schema for { todos: [{ id?, content, status }] }', () => {
    expect(writeTodos.parameters).toEqual({
      type: 'object',
      properties: {
        todos: {
          type: 'array',
          maxItems: 20,
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              content: { type: 'string', minLength: 1, maxLength: 200 },
              status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
            },
            required: ['content', 'status'],
            additionalProperties: false,
          },
        },
      },
      required: ['todos'],
      additionalProperties: false,
    });
  });

  it('speaks OpenAI Chat Completions, OpenAI Responses and Anthropic', () => {
    const { name, description, parameters } = writeTodos;
    expect(toOpenAIChatTool(writeTodos)).toEqual({ type: 'function', function: { name, description, parameters } });
    expect(toOpenAIResponsesTool(writeTodos)).toEqual({ type: 'function', name, description, parameters, strict: false });
    expect(toAnthropicTool(writeTodos)).toEqual({ name, description, input_schema: parameters });
    expect(JSON.parse(JSON.stringify(toOpenAIChatTool(writeTodos)))).toEqual(toOpenAIChatTool(writeTodos));
  });

  it('speaks the Vercel AI SDK: a marked JSON schema and an execute that runs the call', async () => {
    const plan = new Plan();
    const tool = toAISDKTool(createWriteTodos(plan));
    expect(tool.description).toBe(writeTodos.description);
    expect(tool.inputSchema.jsonSchema).toEqual(writeTodos.parameters);
    expect((tool.inputSchema as unknown as Record<symbol, unknown>)[Symbol.for('vercel.ai.schema')]).toBe(true);
    const updates: Array<string | undefined> = [];
    plan.on('plan-update', (event) => updates.push(event.tool_call_id));
    await expect(tool.execute(WRITE, { toolCallId: 'call_a', messages: [] })).resolves.toEqual({ ok: true, revision: 1, todoCount: 1, inProgress: 't1' });
    expect(updates).toEqual(['call_a']);
  });

  it('applies the first of parallel calls of one AI SDK step (they share the messages array) and refuses the rest', async () => {
    const plan = new Plan();
    const tool = toAISDKTool(createWriteTodos(plan));
    const messages = [{ role: 'user', content: 'Tour pricing' }];
    const results = await Promise.all([tool.execute(WRITE, { toolCallId: 'a', messages }), tool.execute({ todos: [] }, { toolCallId: 'b', messages })]);
    expect(results).toEqual([{ ok: true, revision: 1, todoCount: 1, inProgress: 't1' }, expect.objectContaining({ ok: false, error: 'multiple_calls' })]);
    expect(plan.todos.list()).toHaveLength(1);
    // The next step has a new messages array.
    await expect(tool.execute(WRITE, { toolCallId: 'c', messages: [...messages] })).resolves.toMatchObject({ ok: true });
  });

  it('reads planner-only steps from the AI SDK messages', async () => {
    const tool = toAISDKTool(createWriteTodos(new Plan()));
    const planStep = [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'p', toolName: 'write_todos', input: WRITE }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'p', toolName: 'write_todos', output: { type: 'json', value: { ok: true } } }] },
    ];
    const user = { role: 'user', content: 'Tour pricing' };
    await expect(tool.execute(WRITE, { messages: [user, ...planStep] })).resolves.toMatchObject({ ok: true });
    await expect(tool.execute(WRITE, { messages: [user, ...planStep, ...planStep] })).resolves.toMatchObject({ ok: false, error: PLANNER_OVERUSE });
  });
});

describe('toLangChainTool', () => {
  const ai = (id: string | undefined, names: string[]) => ({
    type: 'ai',
    id,
    content: '',
    tool_calls: names.map((name, i) => ({ id: `${id}_${i}`, name, args: {} })),
  });
  const toolMessage = (id: string, name: string) => ({ type: 'tool', tool_call_id: id, name, content: '{}' });

  it("gives tool() the fields and a function answering the call's JSON result", () => {
    const plan = new Plan();
    const writeTodos = createWriteTodos(plan);
    const [run, fields] = toLangChainTool(writeTodos);
    expect(fields).toEqual({ name: 'write_todos', description: writeTodos.description, schema: writeTodos.parameters });
    const events: Array<string | undefined> = [];
    plan.on('plan-update', (event) => events.push(event.tool_call_id));
    expect(JSON.parse(run(WRITE, { toolCallId: 'call_1', state: { messages: [ai('m1', ['write_todos'])] } }))).toEqual({
      ok: true,
      revision: 1,
      todoCount: 1,
      inProgress: 't1',
    });
    expect(events).toEqual(['call_1']);
    // Without a runtime (called outside an agent) each call is a reply of its own.
    expect(JSON.parse(run(WRITE))).toMatchObject({ ok: true, revision: 2 });
  });

  it('counts only the first call of a reply, by message id or, without one, by the message itself', () => {
    const [run] = toLangChainTool(createWriteTodos(new Plan()));
    const byId = { messages: [ai('m1', ['write_todos', 'write_todos'])] };
    expect([run(WRITE, { state: byId }), run(WRITE, { state: { messages: [...byId.messages] } })].map((text) => JSON.parse(text).ok)).toEqual([true, false]);
    const reply = ai(undefined, ['write_todos', 'write_todos']);
    expect([run(WRITE, { state: { messages: [reply] } }), run(WRITE, { state: { messages: [reply] } })].map((text) => JSON.parse(text).ok)).toEqual([
      true,
      false,
    ]);
    expect(JSON.parse(run(WRITE, { state: { messages: [ai('m2', ['write_todos'])] } })).ok).toBe(true);
  });

  it('refuses a third reply in a row that only plans, reading the agent state', () => {
    const [run] = toLangChainTool(createWriteTodos(new Plan()));
    const planned = (id: string) => [ai(id, ['write_todos']), toolMessage(`${id}_0`, 'write_todos')];
    const messages = [{ type: 'human', content: 'go' }, ...planned('a'), ...planned('b'), ai('c', ['write_todos'])];
    expect(JSON.parse(run(WRITE, { state: { messages } }))).toMatchObject({ ok: false, error: PLANNER_OVERUSE });
  });
});
