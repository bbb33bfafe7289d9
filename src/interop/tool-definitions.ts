import { countPlannerOnlyTurns } from './tool-calls.js';
import type { WriteTodosResult, WriteTodosTool } from './write-todos.js';

/** A tool as every function-calling API needs it: name, description, JSON Schema of the input. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/** An OpenAI Chat Completions tool (`tools[]` of `/v1/chat/completions`). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** An OpenAI Responses tool (`tools[]` of `/v1/responses`). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** An Anthropic Messages tool (`tools[]` of `/v1/messages`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The options the Vercel AI SDK passes to a tool's `execute`, as far as planloop reads them. */
export interface AISDKToolCallOptions {
  toolCallId?: string;
  messages?: readonly unknown[];
}

/** A Vercel AI SDK tool (a `ToolSet` value), with its input schema marked as `jsonSchema()` marks it. */
export interface AISDKTool {
  description: string;
  inputSchema: { readonly jsonSchema: Record<string, unknown>; readonly _type?: unknown };
  execute(input: unknown, options?: AISDKToolCallOptions): Promise<WriteTodosResult>;
}

/**
 * The tool as OpenAI Chat Completions takes it.
 *
 * @example
 * ```ts
 * const writeTodos = createWriteTodos(plan);
 * const body = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: task }], tools: [toOpenAIChatTool(writeTodos)] };
 * await fetch('https://api.openai.com/v1/chat/completions', { method: 'POST', body: JSON.stringify(body) });
 * ```
 */
export function toOpenAIChatTool(spec: ToolSpec): OpenAIChatTool {
  return { type: 'function', function: { name: spec.name, description: spec.description, parameters: spec.parameters } };
}

/**
 * The tool as the OpenAI Responses API takes it. `strict` is `false`: the Responses API makes
 * function tools strict unless told otherwise, and strict mode refuses optional fields like `id`.
 *
 * @example
 * ```ts
 * const writeTodos = createWriteTodos(plan);
 * const body = { model: 'gpt-4o-mini', input: task, tools: [toOpenAIResponsesTool(writeTodos)] };
 * await fetch('https://api.openai.com/v1/responses', { method: 'POST', body: JSON.stringify(body) });
 * ```
 */
export function toOpenAIResponsesTool(spec: ToolSpec): OpenAIResponsesTool {
  return { type: 'function', name: spec.name, description: spec.description, parameters: spec.parameters, strict: false };
}

/**
 * The tool as Anthropic's Messages API takes it.
 *
 * @example
 * ```ts
 * const writeTodos = createWriteTodos(plan);
 * const body = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: task }], tools: [toAnthropicTool(writeTodos)] };
 * await fetch('https://api.anthropic.com/v1/messages', { method: 'POST', body: JSON.stringify(body) });
 * ```
 */
export function toAnthropicTool(spec: ToolSpec): AnthropicTool {
  return { name: spec.name, description: spec.description, input_schema: spec.parameters };
}

/**
 * The tool as the Vercel AI SDK (v5+) takes it, without depending on the `ai` package: the input
 * schema carries the marker `jsonSchema()` sets, and `execute` runs the call on the plan.
 * Validation happens in `execute`, so the model gets indexed messages it can act on.
 *
 * The guardrails read the step from the SDK's options: every call of one step receives the same
 * `messages` array (so a second `write_todos` in a step is refused), and those messages show
 * whether the previous steps only planned.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs, type LanguageModel, type ToolSet } from 'ai';
 * declare const model: LanguageModel;
 * declare const hostTools: ToolSet;
 * const writeTodos = createWriteTodos(plan);
 * const base = 'You guide visitors through this site.';
 * await generateText({ model, prompt: task, tools: { ...hostTools, write_todos: toAISDKTool(writeTodos) }, stopWhen: stepCountIs(20),
 *   prepareStep: () => ({ system: `${base}\n\n${writeTodos.systemPrompt()}` }) });
 * ```
 */
export function toAISDKTool(tool: WriteTodosTool): AISDKTool {
  return {
    description: tool.description,
    inputSchema: { [Symbol.for('vercel.ai.schema')]: true, _type: undefined, jsonSchema: tool.parameters, validate: undefined } as AISDKTool['inputSchema'],
    execute: async (input, options = {}) =>
      tool.execute(input, {
        toolCallId: options.toolCallId,
        turn: options.messages,
        plannerOnlyTurns: countPlannerOnlyTurns(options.messages, tool.name),
      }),
  };
}

/**
 * What names a LangChain reply: its id with its tool calls' ids (a fresh fake model, or any model
 * numbering its replies per run, repeats ids across runs), else the message itself.
 */
function replyKey(reply: { id?: unknown } | null | undefined, calls: ReadonlyArray<{ id?: unknown } | null> | undefined): unknown {
  if (typeof reply?.id !== 'string' || reply.id === '') return reply ?? undefined;
  return JSON.stringify([reply.id, ...(calls ?? []).map((call) => (typeof call?.id === 'string' ? call.id : null))]);
}

/** The runtime LangChain passes to a tool's function (its `ToolRuntime`), as far as planloop reads it. */
export interface LangChainToolRuntime {
  toolCallId?: string;
  toolCall?: { id?: string | undefined } | undefined;
  /** The agent's state; planloop reads its `messages`. */
  state?: unknown;
}

/** The two arguments LangChain's `tool(func, fields)` takes, for the `write_todos` tool. */
export type LangChainToolArgs = readonly [
  func: (input: unknown, runtime?: LangChainToolRuntime) => string,
  fields: { readonly name: string; readonly description: string; readonly schema: Record<string, unknown> },
];

/**
 * The tool as LangChain's `tool()` takes it, without depending on LangChain (which runs only tools
 * its own `tool()` made): spread it into `tool(...)`. The function runs the call on the plan and
 * answers the JSON result. It reads the reply making the call (the last of the agent's `messages`)
 * so that only the first `write_todos` of a reply counts, and the messages before it for the
 * planner-overuse guard.
 *
 * @example
 * ```ts
 * import { createMiddleware, tool } from 'langchain';
 * const writeTodos = createWriteTodos(plan);
 * const planloopTodos = createMiddleware({ name: 'PlanloopTodos', tools: [tool(...toLangChainTool(writeTodos))] });
 * ```
 */
export function toLangChainTool(tool: WriteTodosTool): LangChainToolArgs {
  const run = (input: unknown, runtime?: LangChainToolRuntime): string => {
    const messages = (runtime?.state as { messages?: unknown } | null | undefined)?.messages;
    const history: readonly unknown[] = Array.isArray(messages) ? messages : [];
    const reply = history.at(-1) as { id?: unknown; tool_calls?: unknown } | null | undefined; // the AI message whose tool calls are running
    const calls = Array.isArray(reply?.tool_calls) ? (reply.tool_calls as ReadonlyArray<{ id?: unknown; name?: unknown } | null>) : undefined;
    const result = tool.execute(input, {
      toolCallId: runtime?.toolCallId ?? runtime?.toolCall?.id,
      turn: replyKey(reply, calls),
      replyCalls: calls?.filter((call) => call?.name === tool.name).length,
      plannerOnlyTurns: countPlannerOnlyTurns(history.slice(0, -1), tool.name),
    });
    return JSON.stringify(result);
  };
  return [run, { name: tool.name, description: tool.description, schema: tool.parameters }];
}
