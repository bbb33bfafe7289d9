/**
 * One tool call as the common APIs spell it: OpenAI Chat Completions (`{ id, function: { name,
 * arguments } }`), OpenAI Responses (`{ call_id, name, arguments }`), Anthropic (`{ id, name,
 * input }`), LangChain (`{ id, name, args }`) and the Vercel AI SDK (`{ toolCallId, toolName, input }`).
 */
export type ToolCallLike = Readonly<Record<string, unknown>>;

/** A tool call reduced to what planloop needs. `input` may still be a JSON string. */
export interface NormalizedToolCall {
  id: string | undefined;
  name: string;
  input: unknown;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const string = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Reads the name, id and input of a tool call in any of the shapes of {@link ToolCallLike}.
 *
 * @example
 * ```ts
 * normalizeToolCall({ id: 'call_1', type: 'function', function: { name: 'write_todos', arguments: '{"todos":[]}' } });
 * // { id: 'call_1', name: 'write_todos', input: '{"todos":[]}' }
 * ```
 */
export function normalizeToolCall(call: ToolCallLike): NormalizedToolCall {
  // A value that is not an object (null in a host's list, say) names no tool: planloop skips it.
  if (!record(call)) return { id: undefined, name: '', input: undefined };
  const fn = record(call.function);
  return {
    id: string(call.call_id) ?? string(call.toolCallId) ?? string(call.id),
    name: string(fn?.name) ?? string(call.name) ?? string(call.toolName) ?? '',
    input: fn ? fn.arguments : (call.input ?? call.args ?? call.arguments),
  };
}

/** The tool calls an assistant message makes, in any of the common message shapes. */
function toolCallNames(message: Record<string, unknown>): string[] | undefined {
  const listed = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const parts = Array.isArray(message.content) ? message.content : [];
  const fromParts = parts
    .map(record)
    .filter((part) => part?.type === 'tool-call' || part?.type === 'tool_use')
    .map((part) => string(part?.toolName) ?? string(part?.name) ?? '');
  const names = [...listed.map((call) => normalizeToolCall(record(call) ?? {}).name), ...fromParts];
  return names.length > 0 ? names : undefined;
}

/** A message that only carries tool results back (`role: 'tool'`, or an Anthropic user turn of `tool_result` parts). */
function isToolResults(message: Record<string, unknown>): boolean {
  if (message.role === 'tool' || message.type === 'tool') return true;
  const parts = Array.isArray(message.content) ? message.content : [];
  return message.role === 'user' && parts.length > 0 && parts.every((part) => record(part)?.type === 'tool_result');
}

/**
 * Counts the model turns at the end of `messages` that called `toolName` and nothing else: what
 * the planner-overuse guard needs when tools run one at a time. Reads OpenAI Chat, Anthropic,
 * LangChain and Vercel AI SDK messages; stops at the first turn that did anything else.
 *
 * @example
 * ```ts
 * declare const messages: object[]; // the conversation so far, in the model's wire format
 * declare const call: { id: string; function: { arguments: string } }; // this write_todos call
 * const writeTodos = createWriteTodos(plan);
 * writeTodos.execute(call.function.arguments, { toolCallId: call.id, plannerOnlyTurns: countPlannerOnlyTurns(messages, 'write_todos') });
 * ```
 */
export function countPlannerOnlyTurns(messages: readonly unknown[] | undefined, toolName: string): number {
  let count = 0;
  for (let index = (messages?.length ?? 0) - 1; index >= 0; index -= 1) {
    const message = record(messages?.[index]);
    if (!message) break;
    if (isToolResults(message)) continue;
    const names = message.role === 'assistant' || message.type === 'ai' ? toolCallNames(message) : undefined;
    if (!names || names.some((name) => name !== toolName)) break;
    count += 1;
  }
  return count;
}
