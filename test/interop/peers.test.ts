/**
 * The README's dialect examples run as written through the real peers: LangChain's `createAgent`
 * (with `@langchain/core`'s fake chat model) and the Vercel AI SDK's `generateText`/`streamText`
 * (with its `MockLanguageModelV3`). The README leaves a few names to the reader (`plan`, `model`,
 * `hostTools`, `messages`, `basePrompt`); the tests supply them.
 */
import { type generateText, jsonSchema, type streamText, tool as aiTool, type ModelMessage } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { AIMessage, createAgent, HumanMessage, ToolMessage, tool, type BaseMessage } from 'langchain';
import { fakeModel } from '@langchain/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PlanEvents } from '../../src/events.js';
import { PLANNER_OVERUSE, type WriteTodosResult } from '../../src/interop/write-todos.js';
import { Plan } from '../../src/plan.js';
import { runReadmeBlock } from '../helpers/readme-code.js';

type Todo = { content: string; status: 'pending' | 'in_progress' | 'completed' };
const todos = (...items: Array<[string, Todo['status']]>): { todos: Todo[] } => ({ todos: items.map(([content, status]) => ({ content, status })) });
const listOf = (plan: Plan) => plan.todos.list().map((todo) => [todo.description, todo.status]);

/** What the model was told, per tool call id: the tool results (JSON parsed). */
const answersIn = (messages: readonly BaseMessage[]) =>
  Object.fromEntries(
    messages
      .filter((message) => ToolMessage.isInstance(message))
      .map((message) => {
        const text = String(message.content);
        return [(message as ToolMessage).tool_call_id, text.startsWith('{') ? (JSON.parse(text) as unknown) : text];
      }),
  );

/** The invariant of issue 16: a reply's write_todos results never say "ok" for a call the plan does not hold. */
function expectConsistent(plan: Plan, results: readonly WriteTodosResult[], applied: { todos: Todo[] }) {
  const ok = results.filter((result) => result.ok);
  expect(ok).toHaveLength(1);
  expect(listOf(plan)).toEqual(applied.todos.map((todo) => [todo.content, todo.status]));
  for (const result of results) if (!result.ok) expect(result.message).not.toMatch(/none of those calls was applied/);
}

describe('LangChain: the README middleware in createAgent', () => {
  const navigate = tool(async ({ path }) => `opened ${path}`, { name: 'navigate', description: 'Open a page', schema: z.object({ path: z.string() }) });

  const run = async (model: ReturnType<typeof fakeModel>) => {
    const plan = new Plan();
    const example = await runReadmeBlock<{ result: { messages: BaseMessage[] } }>('### As the todo state of a LangChain agent', {
      scope: { plan, model, hostTools: [navigate], messages: [new HumanMessage('Show me the prices')] },
      exports: ['result'],
    });
    return { plan, messages: example.result.messages };
  };

  it('runs write_todos as a LangChain tool, answers every call, and shows every model call the plan', async () => {
    const model = fakeModel()
      .respondWithTools([{ name: 'write_todos', args: todos(['Open pricing', 'in_progress'], ['Explain the tiers', 'pending']), id: 'w1' }])
      .respondWithTools([{ name: 'navigate', args: { path: '/pricing' }, id: 'n1' }])
      .respondWithTools([{ name: 'write_todos', args: todos(['Open pricing', 'completed'], ['Explain the tiers', 'in_progress']), id: 'w2' }])
      .respond(new AIMessage('Here are the three tiers.'));
    const { plan, messages } = await run(model);

    expect(messages.at(-1)?.content).toBe('Here are the three tiers.');
    expect(answersIn(messages)).toEqual({
      w1: { ok: true, revision: 1, todoCount: 2, inProgress: 't1' },
      n1: 'opened /pricing',
      w2: { ok: true, revision: 2, todoCount: 2, inProgress: 't2' },
    });
    expect(listOf(plan)).toEqual([
      ['Open pricing', 'completed'],
      ['Explain the tiers', 'in_progress'],
    ]);
    const systems = model.calls.map((call) => call.messages.find((message) => message.type === 'system')?.text ?? '');
    expect(systems[0]).toContain('## Todo list');
    expect(systems[0]).toContain('(none yet)');
    expect(systems[1]).toContain('- [in_progress] Open pricing\n- [pending] Explain the tiers');
    expect(systems[3]).toContain('- [completed] Open pricing\n- [in_progress] Explain the tiers');
  });

  it('applies the first of two parallel write_todos calls and refuses the second, saying so', async () => {
    const first = todos(['Open pricing', 'in_progress']);
    const model = fakeModel()
      .respondWithTools([
        { name: 'write_todos', args: first, id: 'p1' },
        { name: 'write_todos', args: todos(['Something else', 'pending']), id: 'p2' },
      ])
      .respond(new AIMessage('Done.'));
    const { plan, messages } = await run(model);
    const answers = answersIn(messages) as Record<string, WriteTodosResult>;
    expect(answers.p1).toEqual({ ok: true, revision: 1, todoCount: 1, inProgress: 't1' });
    expect(answers.p2).toMatchObject({ ok: false, error: 'multiple_calls' });
    expectConsistent(plan, [answers.p1!, answers.p2!], first);
  });

  it('refuses a third reply in a row that only plans', async () => {
    const item = todos(['Open pricing', 'in_progress']);
    const model = fakeModel()
      .respondWithTools([{ name: 'write_todos', args: item, id: 'a' }])
      .respondWithTools([{ name: 'write_todos', args: item, id: 'b' }])
      .respondWithTools([{ name: 'write_todos', args: item, id: 'c' }])
      .respond(new AIMessage('Done.'));
    const { messages } = await run(model);
    const answers = answersIn(messages) as Record<string, WriteTodosResult>;
    expect([answers.a, answers.b, answers.c].map((answer) => (answer?.ok ? 'ok' : answer?.error))).toEqual(['ok', 'ok', PLANNER_OVERUSE]);
  });
});

describe("LangChain's own todoListMiddleware, fed to the plan", () => {
  it("turns each write_todos of a streamMode 'updates' run into a plan-update with its tool_call_id", async () => {
    const plan = new Plan();
    const events: Array<PlanEvents['plan-update']> = [];
    plan.on('plan-update', (event) => events.push(event));
    const model = fakeModel()
      .respondWithTools([{ name: 'write_todos', args: todos(['Open pricing', 'in_progress'], ['Explain the tiers', 'pending']), id: 'lc_1' }])
      .respondWithTools([{ name: 'write_todos', args: todos(['Open pricing', 'completed'], ['Explain the tiers', 'in_progress']), id: 'lc_2' }])
      .respond(new AIMessage('Done.'));
    await runReadmeBlock('### Plan updates from tool results', {
      scope: { plan, model, tools: [], messages: [new HumanMessage('Show me the prices')] },
      exports: ['updates'],
    });
    expect(events.map((event) => [event.source, event.tool_call_id, event.todos.map((todo) => `${todo.id} ${todo.status}`)])).toEqual([
      ['tool-result', 'lc_1', ['t1 in_progress', 't2 pending']],
      ['tool-result', 'lc_2', ['t1 completed', 't2 in_progress']],
    ]);
  });
});

type StreamResult = Awaited<ReturnType<MockLanguageModelV3['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
type Content = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>['content'][number];

/** A scripted AI SDK model: each step is a list of tool calls, or the final text. */
function aiSdkModel(steps: Array<Array<{ toolName: string; input: unknown }> | string>) {
  const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
  let step = 0;
  /** The next step as stream parts (without the stream's start and finish). */
  const next = (): { parts: StreamPart[]; finishReason: { unified: 'stop' | 'tool-calls'; raw: string } } => {
    const script = steps[step] ?? 'Done.';
    const index = step++;
    if (typeof script === 'string') {
      return {
        parts: [
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: script },
          { type: 'text-end', id: 't' },
        ],
        finishReason: { unified: 'stop', raw: 'stop' },
      };
    }
    return {
      parts: script.map((call, i) => ({ type: 'tool-call', toolCallId: `s${index}_${i}`, toolName: call.toolName, input: JSON.stringify(call.input) })),
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    };
  };
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const { parts, finishReason } = next();
      const content = parts.flatMap((part): Content[] =>
        part.type === 'tool-call' ? [part] : part.type === 'text-delta' ? [{ type: 'text', text: part.delta }] : [],
      );
      return { content, finishReason, usage, warnings: [] };
    },
    doStream: async () => {
      const { parts, finishReason } = next();
      return {
        stream: simulateReadableStream<StreamPart>({ chunks: [{ type: 'stream-start', warnings: [] }, ...parts, { type: 'finish', finishReason, usage }] }),
      };
    },
  });
}

describe('Vercel AI SDK: the README tool loop', () => {
  const navigate = aiTool({
    description: 'Open a page',
    inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } } }),
    execute: async ({ path }) => ({ opened: path }),
  });

  const run = async (steps: Parameters<typeof aiSdkModel>[0], loop: 'generateText' | 'streamText' = 'generateText') => {
    const plan = new Plan();
    const model = aiSdkModel(steps);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Show me the prices' }];
    const example = await runReadmeBlock<{ result: Awaited<ReturnType<typeof generateText>> | ReturnType<typeof streamText> }>(
      '### In a Vercel AI SDK tool loop',
      {
        scope: { plan, model, messages, hostTools: { navigate }, basePrompt: 'You guide visitors.' },
        exports: ['result'],
        // The README says streamText works the same: the same block, with streamText.
        edit: (code) => (loop === 'streamText' ? code.replace(/\bgenerateText\b/g, 'streamText') : code),
      },
    );
    const steps_ = await example.result.steps;
    const results = steps_.flatMap((step) =>
      step.toolResults.filter((result) => result.toolName === 'write_todos').map((result) => result.output as WriteTodosResult),
    );
    const systems = model.doGenerateCalls.concat(model.doStreamCalls).map((call) => call.prompt.find((message) => message.role === 'system')?.content ?? '');
    return { plan, results, systems, text: await example.result.text };
  };

  it('runs write_todos as an AI SDK tool, with the plan in every step', async () => {
    const { plan, results, systems, text } = await run([
      [{ toolName: 'write_todos', input: todos(['Open pricing', 'in_progress'], ['Explain the tiers', 'pending']) }],
      [
        { toolName: 'navigate', input: { path: '/pricing' } },
        { toolName: 'write_todos', input: todos(['Open pricing', 'completed'], ['Explain the tiers', 'in_progress']) },
      ],
      'Three tiers.',
    ]);
    expect(text).toBe('Three tiers.');
    expect(results).toEqual([
      { ok: true, revision: 1, todoCount: 2, inProgress: 't1' },
      { ok: true, revision: 2, todoCount: 2, inProgress: 't2' },
    ]);
    expect(systems[0]).toMatch(/^You guide visitors\.\n\n## Todo list[\s\S]*\(none yet\)$/);
    expect(systems[1]).toContain('- [in_progress] Open pricing');
    expect(systems[2]).toContain('- [completed] Open pricing\n- [in_progress] Explain the tiers');
    expect(listOf(plan)).toEqual([
      ['Open pricing', 'completed'],
      ['Explain the tiers', 'in_progress'],
    ]);
  });

  it.each(['generateText', 'streamText'] as const)(
    '%s: applies the first of two parallel write_todos calls and refuses the second, saying so',
    async (loop) => {
      const first = todos(['Open pricing', 'in_progress']);
      const { plan, results } = await run(
        [
          [
            { toolName: 'write_todos', input: first },
            { toolName: 'write_todos', input: todos(['Something else', 'pending']) },
          ],
          'Done.',
        ],
        loop,
      );
      expect(results).toEqual([{ ok: true, revision: 1, todoCount: 1, inProgress: 't1' }, expect.objectContaining({ ok: false, error: 'multiple_calls' })]);
      expectConsistent(plan, results, first);
    },
  );

  it('refuses a third step in a row that only plans', async () => {
    const item = todos(['Open pricing', 'in_progress']);
    const { results } = await run([
      [{ toolName: 'write_todos', input: item }],
      [{ toolName: 'write_todos', input: item }],
      [{ toolName: 'write_todos', input: item }],
      'Done.',
    ]);
    expect(results.map((result) => (result.ok ? 'ok' : result.error))).toEqual(['ok', 'ok', PLANNER_OVERUSE]);
  });
});

describe('issue 26: runs in a row, and seeded plans through LangChain streams', () => {
  const navigate = tool(async ({ path }) => `opened ${path}`, { name: 'navigate', description: 'Open a page', schema: z.object({ path: z.string() }) });

  it("a second createAgent run starts afresh: its first write_todos is applied though its reply has the id of the last run's (a fresh fake model numbers from 0)", async () => {
    const plan = new Plan();
    const first = todos(['Open pricing', 'completed']);
    const second = todos(['Open the trial form', 'in_progress'], ['Fill it in', 'pending']);
    const model = fakeModel()
      .respondWithTools([{ name: 'write_todos', args: first, id: 'r1' }])
      .respond(new AIMessage('Done.'));
    const example = await runReadmeBlock<{
      result: { messages: BaseMessage[] };
      planloopTodos: Parameters<typeof createAgent>[0]['middleware'] extends readonly (infer M)[] | undefined ? M : never;
    }>('### As the todo state of a LangChain agent', {
      scope: { plan, model, hostTools: [navigate], messages: [new HumanMessage('Show me the prices')] },
      exports: ['result', 'planloopTodos'],
    });
    expect(answersIn(example.result.messages)).toEqual({ r1: { ok: true, revision: 1, todoCount: 1, inProgress: null } });
    // The host's next run: a new agent (and model) with the same planloop middleware.
    const nextModel = fakeModel()
      .respondWithTools([{ name: 'write_todos', args: second, id: 'r2' }])
      .respond(new AIMessage('Done again.'));
    const agent = createAgent({ model: nextModel, tools: [navigate], middleware: [example.planloopTodos] });
    const again = await agent.invoke({ messages: [new HumanMessage('Now start a trial')] });
    expect(answersIn(again.messages)).toEqual({ r2: { ok: true, revision: 2, todoCount: 2, inProgress: 't2' } });
    expect(listOf(plan)).toEqual([
      ['Open the trial form', 'in_progress'],
      ['Fill it in', 'pending'],
    ]);
  });

  it("a seeded plan survives a streamMode 'values' run of todoListMiddleware, and takes the model's list when it writes one", async () => {
    const plan = new Plan();
    plan.todos.createMany([
      { intent: 'navigate', description: 'Open pricing' },
      { intent: 'narrate', description: 'Explain the tiers' },
    ]);
    const events: Array<PlanEvents['plan-update']> = [];
    plan.on('plan-update', (event) => events.push(event));
    const model = fakeModel()
      .respondWithTools([{ name: 'navigate', args: { path: '/pricing' }, id: 'n1' }])
      .respondWithTools([{ name: 'write_todos', args: todos(['Open pricing', 'completed'], ['Explain the tiers', 'in_progress']), id: 'v1' }])
      .respond(new AIMessage('Done.'));
    await runReadmeBlock('### Plan updates from tool results', {
      scope: { plan, model, tools: [navigate], messages: [new HumanMessage('Show me the prices')] },
      exports: ['updates'],
      edit: (code) => code.replace("streamMode: 'updates'", "streamMode: 'values'"),
    });
    expect(events.map((event) => [event.tool_call_id, event.todos.map((todo) => `${todo.id} ${todo.status}`)])).toEqual([
      ['v1', ['t1 completed', 't2 in_progress']],
    ]);
  });

  it("a seeded plan that the model never rewrites stays as it was through a 'values' run", async () => {
    const plan = new Plan();
    plan.todos.createMany([{ intent: 'navigate', description: 'Open pricing' }]);
    const before = plan.state.todos;
    const model = fakeModel()
      .respondWithTools([{ name: 'navigate', args: { path: '/pricing' }, id: 'n1' }])
      .respond(new AIMessage('Done.'));
    await runReadmeBlock('### Plan updates from tool results', {
      scope: { plan, model, tools: [navigate], messages: [new HumanMessage('Show me the prices')] },
      exports: ['updates'],
      edit: (code) => code.replace("streamMode: 'updates'", "streamMode: 'values'"),
    });
    expect(plan.state.todos).toBe(before);
  });
});
