import { TODO_STATUSES, type TodoIntent, type TodoStatus } from '../artifacts/todos.js';
import type { PlanEventMap } from '../events.js';
import type { Plan } from '../plan.js';
import { emitPlanEvent } from '../plan/emit-plan-event.js';
import { replaceTodos, type ReplacementTodo } from './replace-todos.js';

/** The payload of a `plan-update` event. */
export type PlanUpdate = PlanEventMap['plan-update'];

/** Options of {@link createPlanUpdateStream}. */
export interface PlanUpdateStreamOptions {
  /** Tool names whose results carry todo lists (a result without a name is read by its shape). Default `['write_todos', 'writeTodos']`. */
  toolNames?: readonly string[];
  /** The intent of todos the result adds. Default `'narrate'`. */
  intent?: TodoIntent;
}

/** Turns tool results into `plan-update` events. Made by {@link createPlanUpdateStream}. */
export interface PlanUpdateStream {
  /** Reads one tool result; returns the `plan-update` it emitted, or `null` (not a todo list, malformed, or unchanged). */
  push(result: unknown): PlanUpdate | null;
  /** A `TransformStream` from tool results (or stream parts) to `plan-update` payloads. */
  transformStream(): TransformStream<unknown, PlanUpdate>;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const string = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

interface Found {
  todos: unknown;
  toolCallId: string | undefined;
  toolName: string | undefined;
  /** The list sits in a graph state or update beside its `messages`: it is a todo tool's only when a ToolMessage of one is there. */
  state?: boolean;
}

/**
 * The call id of the ToolMessage beside a todo list: the latest one of a todo tool (a Command's
 * `update.messages` holds one; a `values` chunk the whole history). Reads LangChain's message
 * objects and their serialized form (`kwargs`).
 */
function idInMessages(messages: unknown, toolNames: readonly string[]): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const m = record(messages[index]);
    const fields = record(m?.kwargs) ?? m;
    const id = string(fields?.tool_call_id);
    const name = string(fields?.name);
    if (id && (name === undefined || toolNames.includes(name))) return id;
  }
  return undefined;
}

/**
 * Finds a todo list in a tool result: `{ todos }` (also a LangGraph state or node update beside
 * its `messages`), a Command `{ update: { todos, messages } }`, either wrapped in an envelope
 * (`output`, `result`, `content`, `value`; JSON text is parsed), or a `streamMode: 'updates'`
 * chunk `{ [node]: update }`.
 */
function find(value: unknown, toolNames: readonly string[], depth = 0): Found | undefined {
  if (depth > 4) return undefined;
  if (typeof value === 'string') {
    if (!/^\s*[{[]/.test(value)) return undefined;
    try {
      return find(JSON.parse(value), toolNames, depth + 1);
    } catch {
      return undefined;
    }
  }
  const v = record(value);
  if (!v) return undefined;
  const toolCallId = string(v.tool_call_id) ?? string(v.toolCallId) ?? string(v.call_id);
  const toolName = string(v.toolName) ?? string(v.name);
  const update = record(v.update);
  if (update && 'todos' in update)
    return { todos: update.todos, toolCallId: toolCallId ?? idInMessages(update.messages, toolNames), toolName, state: Array.isArray(update.messages) };
  if ('todos' in v) return { todos: v.todos, toolCallId: toolCallId ?? idInMessages(v.messages, toolNames), toolName, state: Array.isArray(v.messages) };
  for (const key of ['output', 'result', 'content', 'value']) {
    const inner = key in v ? find(v[key], toolNames, depth + 1) : undefined;
    if (inner) return { ...inner, toolCallId: inner.toolCallId ?? toolCallId, toolName: inner.toolName ?? toolName };
  }
  // A `streamMode: 'updates'` chunk names the node that made the update: { tools: { todos, messages } }.
  const keys = Object.keys(v);
  const only = keys.length === 1 ? record(v[keys[0] as string]) : undefined;
  return only ? find(only, toolNames, depth + 1) : undefined;
}

/** Reads `[{ content | description, status, id? }]`; `undefined` when any item is unusable. */
function readTodos(todos: unknown): ReplacementTodo[] | undefined {
  if (!Array.isArray(todos)) return undefined;
  const items: ReplacementTodo[] = [];
  for (const entry of todos) {
    const item = record(entry);
    const description = (string(item?.content) ?? string(item?.description))?.trim();
    const status = item?.status as TodoStatus;
    if (!description || !TODO_STATUSES.includes(status)) return undefined;
    items.push({ id: string(item?.id), description, status });
  }
  return items;
}

/**
 * Keeps a plan in step with todo lists that arrive as tool results (a LangChain `write_todos`
 * Command, the chunks of a LangGraph stream in `updates` or `values` mode, a `{ todos }` output,
 * AI SDK `tool-result` parts) and emits each as `plan-update`
 * (source `'tool-result'`, with `tool_call_id` when the result has one). Ids of kept todos stay
 * (see `replaceTodos`).
 *
 * A result that names a todo list but is malformed never touches the plan: it emits
 * `plan-warning` (`plan_update_malformed`) instead. A list identical (texts and statuses) to the
 * previous one is applied and sent once. Results of other tools and other values are skipped. A
 * list in a graph state (beside `messages`) counts only when a todo tool's ToolMessage is there,
 * once per call id: a state's initial `todos: []` is no write (a seeded plan stays).
 *
 * @example
 * ```ts
 * const updates = createPlanUpdateStream(plan);
 * import { streamText, type LanguageModel, type ToolSet } from 'ai';
 * declare const model: LanguageModel;
 * declare const hostTools: ToolSet; // one of them returns { todos }
 * const result = streamText({ model, prompt: task, tools: hostTools });
 * for await (const part of result.fullStream) if (part.type === 'tool-result') updates.push(part);
 * // or: toolResults.pipeThrough(updates.transformStream())
 * ```
 */
export function createPlanUpdateStream(plan: Plan, options: PlanUpdateStreamOptions = {}): PlanUpdateStream {
  const { toolNames = ['write_todos', 'writeTodos'], intent = 'narrate' } = options;
  let last: string | undefined;
  /** Tool calls whose list was applied: a graph state carries a call's list on in every later `values` chunk. */
  const applied = new Set<string>();

  const push = (result: unknown): PlanUpdate | null => {
    const found = find(result, toolNames);
    if (!found || (found.toolName !== undefined && !toolNames.includes(found.toolName))) return null;
    // A graph state (a `values` chunk) carries its todos whether or not a todo tool wrote them: the
    // initial `todos: []` of LangChain's todoListMiddleware is not "the model cleared the plan".
    if (found.state && (found.toolCallId === undefined || applied.has(found.toolCallId))) return null;
    const items = readTodos(found.todos);
    if (!items) {
      emitPlanEvent(plan, 'plan-warning', {
        code: 'plan_update_malformed',
        message: `A tool result${found.toolCallId ? ` (${found.toolCallId})` : ''} carried a todo list that is not a list of { content, status } items, so the plan was left as it was.`,
      });
      return null;
    }
    const key = JSON.stringify(items.map((item) => [item.description, item.status]));
    if (key === last) return null;
    last = key;
    if (found.toolCallId !== undefined) applied.add(found.toolCallId);
    const todos = replaceTodos(plan, items, { intent });
    const update: PlanUpdate = { todos, source: 'tool-result', ...(found.toolCallId ? { tool_call_id: found.toolCallId } : {}) };
    emitPlanEvent(plan, 'plan-update', update);
    return update;
  };

  return {
    push,
    transformStream: () =>
      new TransformStream<unknown, PlanUpdate>({
        transform(chunk, controller) {
          const update = push(chunk);
          if (update) controller.enqueue(update);
        },
      }),
  };
}
