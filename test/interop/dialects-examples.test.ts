/**
 * The README's dialect examples ("Other planning dialects"), run against small fakes of the host
 * frameworks: a LangChain-style middleware loop and a Vercel AI SDK-style tool loop.
 */
import { describe, expect, it } from 'vitest';
import { PLANNER_OVERUSE, createWriteTodos } from '../../src/interop/write-todos.js';
import { countPlannerOnlyTurns } from '../../src/interop/tool-calls.js';
import { toAISDKTool, type AISDKTool } from '../../src/interop/tool-definitions.js';
import { Plan } from '../../src/plan.js';

type ToolCall = { id: string; name: string; args: Record<string, unknown> };
type Message = { id?: string; type: 'human' | 'ai' | 'tool'; content: string; tool_calls?: ToolCall[]; tool_call_id?: string };

describe('LangChain-style middleware', () => {
  const middlewareFor = (plan: Plan, stateShape: Record<string, unknown> = { messages: [] }) => {
    const writeTodos = createWriteTodos(plan, { hostStateFields: Object.keys(stateShape) });
    return {
      name: 'PlanloopTodos',
      tools: [
        {
          name: writeTodos.name,
          description: writeTodos.description,
          schema: writeTodos.parameters,
          invoke: (args: unknown, { toolCall, state }: { toolCall: ToolCall; state: { messages: Message[] } }) => {
            const reply = state.messages.at(-1);
            return JSON.stringify(
              writeTodos.execute(args, {
                toolCallId: toolCall.id,
                turn: reply?.id,
                plannerOnlyTurns: countPlannerOnlyTurns(state.messages.slice(0, -1), writeTodos.name),
              }),
            );
          },
        },
      ],
      wrapModelCall: (request: { systemPrompt?: string }, handler: (request: { systemPrompt?: string }) => Message) =>
        handler({ ...request, systemPrompt: `${request.systemPrompt ?? ''}\n\n${writeTodos.systemPrompt()}` }),
    };
  };

  /** A tiny agent loop in the shape of LangChain's: model call through wrapModelCall, then tool calls. */
  const run = (plan: Plan, replies: Array<Omit<Message, 'type' | 'content'>>) => {
    const middleware = middlewareFor(plan);
    const state: { messages: Message[] } = { messages: [{ type: 'human', content: 'Refactor the billing module' }] };
    const prompts: string[] = [];
    const toolResults: unknown[] = [];
    for (const [index, reply] of replies.entries()) {
      const message = middleware.wrapModelCall({ systemPrompt: 'You are a coding agent.' }, (request) => {
        prompts.push(request.systemPrompt ?? '');
        return { id: `ai_${index}`, type: 'ai', content: '', ...reply };
      });
      state.messages.push(message);
      // Like a tool node, run every call of the reply against the same state, then append the results.
      const results = (message.tool_calls ?? []).map((toolCall): Message => {
        const tool = middleware.tools.find((candidate) => candidate.name === toolCall.name);
        const content = tool ? tool.invoke(toolCall.args, { toolCall, state }) : '"host tool ran"';
        toolResults.push(JSON.parse(content));
        return { type: 'tool', content, tool_call_id: toolCall.id };
      });
      state.messages.push(...results);
    }
    return { prompts, toolResults };
  };

  const write = (id: string, todos: Array<{ content: string; status: string }>): ToolCall => ({ id, name: 'write_todos', args: { todos } });

  it('shows the current plan on every model call and keeps it as the todo state', () => {
    const plan = new Plan();
    const { prompts, toolResults } = run(plan, [
      { tool_calls: [write('call_1', [{ content: 'Analyze codebase', status: 'in_progress' }, { content: 'Identify issues', status: 'pending' }])] },
      { tool_calls: [{ id: 'call_2', name: 'read_file', args: { path: 'billing.ts' } }] },
      { tool_calls: [write('call_3', [{ content: 'Analyze codebase', status: 'completed' }, { content: 'Identify issues', status: 'in_progress' }])] },
      {},
    ]);
    expect(prompts[0]).toContain('You are a coding agent.\n\n## Todo list');
    expect(prompts[0]).toContain('(none yet)');
    expect(prompts[1]).toContain('- [in_progress] Analyze codebase\n- [pending] Identify issues');
    expect(prompts[3]).toContain('- [completed] Analyze codebase\n- [in_progress] Identify issues');
    expect(toolResults).toEqual([
      { ok: true, revision: 1, todoCount: 2, inProgress: 't1' },
      'host tool ran',
      { ok: true, revision: 2, todoCount: 2, inProgress: 't2' },
    ]);
  });

  it('refuses parallel write_todos calls of one reply and a third planning-only reply', () => {
    const plan = new Plan();
    const item = [{ content: 'Analyze codebase', status: 'in_progress' }];
    const { toolResults } = run(plan, [
      { tool_calls: [write('a', item), write('b', item)] },
      { tool_calls: [write('c', item)] },
      { tool_calls: [write('d', item)] },
    ]);
    expect(toolResults.map((result) => (result as { error?: string }).error ?? 'ok')).toEqual(['ok', 'multiple_calls', 'ok', PLANNER_OVERUSE]);
    expect(plan.todos.list()).toHaveLength(1);
  });

  it('refuses a host state that declares todos', () => {
    expect(() => middlewareFor(new Plan(), { messages: [], todos: [] })).toThrow(/"todos"/);
  });
});

describe('Vercel AI SDK-style tool loop', () => {
  /** A tiny multi-step loop in the shape of generateText: prepareStep, model, then every tool call of the step in parallel. */
  const generateText = async (options: {
    steps: Array<Array<{ toolName: string; input: unknown }>>;
    tools: Record<string, AISDKTool | { execute: () => Promise<unknown> }>;
    prepareStep: () => { system: string };
  }) => {
    const messages: unknown[] = [{ role: 'user', content: 'Tour the pricing page' }];
    const systems: string[] = [];
    const outputs: unknown[] = [];
    for (const [stepIndex, calls] of options.steps.entries()) {
      systems.push(options.prepareStep().system);
      const stepMessages = [...messages];
      const parts = calls.map((call, i) => ({ type: 'tool-call', toolCallId: `s${stepIndex}_${i}`, toolName: call.toolName, input: call.input }));
      const results = await Promise.all(
        parts.map((part) => (options.tools[part.toolName] as AISDKTool).execute(part.input, { toolCallId: part.toolCallId, messages: stepMessages })),
      );
      outputs.push(...results);
      messages.push({ role: 'assistant', content: parts }, { role: 'tool', content: parts.map((part, i) => ({ type: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, output: { type: 'json', value: results[i] } })) });
    }
    return { systems, outputs };
  };

  it('runs write_todos as an AI SDK tool with the plan in every step', async () => {
    const plan = new Plan();
    const writeTodos = createWriteTodos(plan, { hostTools: { navigate: {} } });
    const todos = (status: string) => ({ todos: [{ content: 'Open pricing', status }, { content: 'Explain the tiers', status: 'pending' }] });
    const { systems, outputs } = await generateText({
      steps: [
        [{ toolName: 'write_todos', input: todos('in_progress') }],
        [{ toolName: 'navigate', input: { path: '/pricing' } }, { toolName: 'write_todos', input: todos('completed') }],
        [{ toolName: 'write_todos', input: todos('in_progress') }, { toolName: 'write_todos', input: todos('pending') }],
      ],
      tools: { navigate: { execute: async () => ({ ok: true }) }, write_todos: toAISDKTool(writeTodos) },
      prepareStep: () => ({ system: `You guide visitors.\n\n${writeTodos.systemPrompt()}` }),
    });
    expect(systems[1]).toContain('- [in_progress] Open pricing');
    expect(systems[2]).toContain('- [completed] Open pricing');
    expect(outputs).toEqual([
      { ok: true, revision: 1, todoCount: 2, inProgress: 't1' },
      { ok: true },
      { ok: true, revision: 2, todoCount: 2, inProgress: null },
      { ok: true, revision: 3, todoCount: 2, inProgress: 't1' },
      expect.objectContaining({ ok: false, error: 'multiple_calls' }),
    ]);
    expect(plan.todos.list().map((todo) => todo.status)).toEqual(['completed', 'pending']); // the parallel step was undone
  });
});
