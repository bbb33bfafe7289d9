// `import * as z`, not `import { z }`: esbuild bundles all of zod (its locales too) for the named import.
import * as z from 'zod/mini';
import { TODO_STATUSES, type TodoIntent, type TodoItem } from '../artifacts/todos.js';
import { PlanloopError, ValidationError } from '../errors.js';
import type { Plan } from '../plan.js';
import { emitPlanEvent } from '../plan/emit-plan-event.js';
import { formatIssues, toIssues } from '../validation.js';
import { replaceTodos } from './replace-todos.js';
import { normalizeToolCall, type ToolCallLike } from './tool-calls.js';

/**
 * The error result a `write_todos` call gets when the model only plans, turn after turn.
 *
 * @example
 * ```ts
 * declare const call: { id: string; function: { arguments: string } }; // a write_todos call
 * const result = createWriteTodos(plan).execute(call.function.arguments);
 * if (!result.ok && result.error === PLANNER_OVERUSE) messages.push({ role: 'user', content: 'Act on the plan now.' });
 * ```
 */
export const PLANNER_OVERUSE = 'planner_overuse_execute_next_step';

/** A host's tools, to check for a name clash: names, definitions (`{ name }`, `{ function: { name } }`) or a tool record. */
export type HostTools = ReadonlyArray<string | { readonly name?: string; readonly function?: { readonly name?: string } }> | Readonly<Record<string, unknown>>;

/** Options of {@link createWriteTodos}. */
export interface WriteTodosOptions {
  /** The tool's name. Default `'write_todos'`. */
  toolName?: string;
  /** The most items one call may send. Default `20`. */
  maxItems?: number;
  /** The longest `content` of an item, in characters. Default `200`. */
  maxContentLength?: number;
  /** How many model turns in a row may only call the tool before it answers {@link PLANNER_OVERUSE}. Default `2`. */
  maxPlannerOnlyTurns?: number;
  /** The intent of todos the model adds (a todo it keeps keeps its intent). Default `'narrate'`. */
  intent?: TodoIntent;
  /** Replaces planloop's tool description. */
  description?: string;
  /** Replaces the instructions of {@link WriteTodosTool.systemPrompt} (the current todos still follow them). */
  systemPrompt?: string;
  /** The host's own tools: a tool with the same name throws `config_conflict`. */
  hostTools?: HostTools;
  /** The host's state fields (names or a state shape): a field named `todos` throws `config_conflict`. */
  hostStateFields?: readonly string[] | Readonly<Record<string, unknown>>;
}

/** The acknowledgement of an accepted call: short, so it costs the model few tokens. */
export interface WriteTodosAck {
  ok: true;
  /** Counts the tool's changes to the plan: 1, 2, … */
  revision: number;
  todoCount: number;
  /** The id of the first todo in progress, or `null`. */
  inProgress: string | null;
}

/** Why a call was refused; `message` is written for the model. */
export interface WriteTodosRejection {
  ok: false;
  error: 'invalid_input' | 'multiple_calls' | typeof PLANNER_OVERUSE;
  message: string;
}

/** What a `write_todos` call answers: send it back to the model as the tool result. */
export type WriteTodosResult = WriteTodosAck | WriteTodosRejection;

/** What {@link WriteTodosTool.execute} knows about the call. */
export interface WriteTodosCallContext {
  /** Copied to the `plan-update` event. */
  toolCallId?: string | undefined;
  /**
   * Any value naming the model reply that made the call (compared with `===`): only the first
   * call of a reply counts, later ones are refused. Without it each call is a reply of its own.
   */
  turn?: unknown;
  /**
   * How many calls of this tool the reply holds, when known: once that many have run, the next
   * call belongs to a new reply even if `turn` is equal (a reply id that repeats across runs).
   */
  replyCalls?: number | undefined;
  /** How many turns right before this one only called this tool (see `countPlannerOnlyTurns`). Default 0. */
  plannerOnlyTurns?: number | undefined;
}

/** The answer to one `write_todos` call of a batch. */
export interface WriteTodosCallResult {
  toolCallId: string | undefined;
  toolName: string;
  result: WriteTodosResult;
}

/** A `write_todos` tool bound to a plan. Made by {@link createWriteTodos}. */
export interface WriteTodosTool {
  readonly name: string;
  readonly description: string;
  /** The input's JSON Schema. */
  readonly parameters: Record<string, unknown>;
  /** The tool's changes to the plan so far (see {@link WriteTodosAck.revision}). */
  readonly revision: number;
  /** The system-prompt fragment with the current plan: call it before every model call. */
  systemPrompt(): string;
  /** Runs one call (for frameworks that run tools one at a time, like the Vercel AI SDK and LangChain). */
  execute(input: unknown, context?: WriteTodosCallContext): WriteTodosResult;
  /**
   * Runs every `write_todos` call of one model reply, given all the reply's tool calls (the host
   * runs its own tools): the first is applied, later ones are refused (`multiple_calls`). A reply
   * that only plans after the replies before it did too: refused with {@link PLANNER_OVERUSE}.
   * Entries that are not objects name no tool and are skipped; a `calls` that is not a list throws
   * a `ValidationError`.
   */
  handleToolCalls(calls: readonly ToolCallLike[]): WriteTodosCallResult[];
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The JSON Schema of the `write_todos` input: `{ todos: [{ id?, content, status }] }`.
 *
 * @example
 * ```ts
 * writeTodosJsonSchema({ maxItems: 8 }).properties.todos.maxItems; // 8
 * ```
 */
export function writeTodosJsonSchema(limits: { maxItems?: number; maxContentLength?: number } = {}) {
  const { maxItems = 20, maxContentLength = 200 } = limits;
  return {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        maxItems,
        items: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            content: { type: 'string', minLength: 1, maxLength: maxContentLength },
            status: { type: 'string', enum: [...TODO_STATUSES] },
          },
          required: ['content', 'status'],
          additionalProperties: false,
        },
      },
    },
    required: ['todos'],
    additionalProperties: false,
  };
}

function namesOf(tools: HostTools | readonly string[] | Readonly<Record<string, unknown>> | undefined): string[] {
  if (!tools) return [];
  if (!Array.isArray(tools)) return Object.keys(tools);
  return (tools as ReadonlyArray<unknown>).map((tool) => {
    if (typeof tool === 'string') return tool;
    const named = tool as { name?: unknown; function?: { name?: unknown } } | null;
    return String(named?.name ?? named?.function?.name ?? '');
  });
}

/**
 * A `write_todos` tool for hosts that use function calling: the model sends its whole todo list,
 * which replaces the plan's (`content` becomes `description`; ids of kept todos stay, see
 * `replaceTodos`), and gets back `{ ok, revision, todoCount, inProgress }`. Each accepted write
 * emits `plan-update` (source `'write-todos'`, `tool_call_id`, `revision`). A refused call changes
 * nothing. Only the first call of a model reply counts: later calls of the same reply are refused
 * (`multiple_calls`) and say that the first one stands, so a model is never told "ok" for a call
 * and then that nothing was applied. Throws `config_conflict` when the tool's name or its `todos`
 * state clashes with the host's.
 *
 * Defaults: `toolName` `'write_todos'`, `maxItems` 20, `maxContentLength` 200,
 * `maxPlannerOnlyTurns` 2, `intent` `'narrate'`, planloop's description and prompt instructions.
 *
 * @example
 * ```ts
 * const writeTodos = createWriteTodos(plan, { hostTools: ['navigate', 'click'] });
 * declare const message: { tool_calls?: Array<Record<string, unknown>> }; // the model's reply (OpenAI Chat)
 * const messages: object[] = []; // the OpenAI Chat conversation
 * const system = `You guide visitors through this site.\n\n${writeTodos.systemPrompt()}`;
 * for (const { toolCallId, result } of writeTodos.handleToolCalls(message.tool_calls ?? [])) {
 *   messages.push({ role: 'tool', tool_call_id: toolCallId, content: JSON.stringify(result) });
 * }
 * ```
 */
export function createWriteTodos(plan: Plan, options: WriteTodosOptions = {}): WriteTodosTool {
  const { toolName: name = 'write_todos', maxItems = 20, maxContentLength = 200, maxPlannerOnlyTurns = 2, intent = 'narrate' } = options;
  if (!TOOL_NAME.test(name)) {
    throw new ValidationError('invalid_input', `The tool name "${name}" is not usable by function-calling APIs: use 1 to 64 letters, digits, "_" or "-".`, {
      issues: [{ path: 'name', message: 'must be 1 to 64 letters, digits, "_" or "-"' }],
    });
  }
  if (namesOf(options.hostTools).includes(name)) {
    throw new PlanloopError(
      'config_conflict',
      `The host already has a tool named "${name}", which is also the name of planloop's todo tool. Rename the host's tool, or pass another toolName to createWriteTodos().`,
    );
  }
  if (namesOf(options.hostStateFields).includes('todos')) {
    throw new PlanloopError(
      'config_conflict',
      `The host's state has a "todos" field, and planloop's ${name} tool keeps the todo list as "todos" too. Remove the host's field and read plan.todos instead, or leave out createWriteTodos().`,
    );
  }

  const InputSchema = z.object({
    todos: z
      .array(
        z.object({
          // Models often send `null` for an optional field. Extra keys models add are dropped, not refused.
          id: z.optional(z.nullable(z.string())),
          content: z.string().check(z.trim(), z.minLength(1), z.maxLength(maxContentLength)),
          status: z.enum(TODO_STATUSES),
        }),
      )
      .check(z.maxLength(maxItems)),
  });

  let revision = 0;
  let plannerOnlyStreak = 0;
  let turn: { key: unknown; calls: number; ids: Set<string> } | undefined;

  const reject = (error: WriteTodosRejection['error'], message: string): WriteTodosRejection => ({ ok: false, error, message });
  const laterCall = () =>
    reject(
      'multiple_calls',
      `${name} was already called in this reply and only the first call of a reply counts, so this one was not applied: the plan stands as the first call left it. Next time send the complete list in one call.`,
    );
  const overuse = () =>
    reject(
      PLANNER_OVERUSE,
      `${PLANNER_OVERUSE}: the plan was rewritten in ${maxPlannerOnlyTurns} replies in a row without other work, so this call was not applied. Do the in_progress item now with your other tools.`,
    );

  const publish = (todos: TodoItem[], toolCallId: string | undefined) => {
    revision += 1;
    emitPlanEvent(plan, 'plan-update', { todos, source: 'write-todos', revision, ...(toolCallId === undefined ? {} : { tool_call_id: toolCallId }) });
    // The reasoning trail's [Plan] line: what the update left the agent working on.
    const current = todos.find((todo) => todo.status === 'in_progress');
    const done = todos.filter((todo) => todo.status === 'completed').length;
    emitPlanEvent(plan, 'reasoning-step', {
      phase: 'plan',
      summary: `${done}/${todos.length} done${current ? `, now: ${current.description}` : ''}`.slice(0, 200),
      revision,
      timestamp: Date.now(),
    });
  };

  const apply = (input: unknown, toolCallId: string | undefined): WriteTodosResult => {
    let value = input;
    if (typeof input === 'string') {
      try {
        value = JSON.parse(input);
      } catch {
        return reject('invalid_input', `${name} was not applied: its arguments are not valid JSON. Send { "todos": [...] }.`);
      }
    }
    const parsed = InputSchema.safeParse(value);
    if (!parsed.success) {
      return reject('invalid_input', `${name} was not applied: ${formatIssues(toIssues(parsed.error.issues, [], value))}. Send the whole list again.`);
    }
    const todos = replaceTodos(
      plan,
      parsed.data.todos.map((item) => ({ id: item.id ?? undefined, description: item.content, status: item.status })),
      { intent },
    );
    publish(todos, toolCallId);
    return { ok: true, revision, todoCount: todos.length, inProgress: todos.find((todo) => todo.status === 'in_progress')?.id ?? null };
  };

  return {
    name,
    description:
      options.description ??
      'Replace your todo list. Send every item each time, each with content and status (pending, in_progress or completed). Call it once per reply, then work on the in_progress item.',
    parameters: writeTodosJsonSchema({ maxItems, maxContentLength }),
    get revision() {
      return revision;
    },

    systemPrompt() {
      const lines = plan.todos.list().map((todo) => `- [${todo.status}] ${todo.description}`);
      const instructions =
        options.systemPrompt ??
        `## Todo list\nFor a task with several steps, track it with \`${name}\`: send the full list each time (it replaces the old one), once per reply. Set an item in_progress when you start it and completed as soon as it is done, then go on with the work itself.`;
      return [instructions, '', 'Current todos:', lines.length > 0 ? lines.join('\n') : '(none yet)'].join('\n');
    },

    execute(input, given) {
      const context = given ?? {};
      // A new reply: another `turn`, or an equal one that cannot be the same reply (a call id it ran
      // already, or more calls than it holds): replies need not carry unique ids (issue 26).
      const fresh =
        context.turn === undefined ||
        turn?.key !== context.turn ||
        (context.toolCallId !== undefined && turn.ids.has(context.toolCallId)) ||
        (context.replyCalls !== undefined && turn.calls >= context.replyCalls);
      if (fresh || !turn) turn = { key: context.turn ?? Symbol('turn'), calls: 0, ids: new Set() };
      turn.calls += 1;
      if (context.toolCallId !== undefined) turn.ids.add(context.toolCallId);
      // The first call of this reply has been answered already (tools run one at a time): it stands.
      if (turn.calls > 1) return laterCall();
      if ((context.plannerOnlyTurns ?? 0) >= maxPlannerOnlyTurns) return overuse();
      return apply(input, context.toolCallId);
    },

    handleToolCalls(calls) {
      if (!Array.isArray(calls)) {
        const shown = String(JSON.stringify(calls) ?? calls).slice(0, 40);
        throw new ValidationError('invalid_input', `handleToolCalls takes a list of tool calls (the reply's tool_calls, [] when it has none), not ${shown}.`, {
          issues: [{ path: '', message: 'must be an array' }],
        });
      }
      const all = calls.map(normalizeToolCall);
      const writes = all.filter((call) => call.name === name);
      const plannerOnly = writes.length > 0 && writes.length === all.length;
      const overused = plannerOnly && plannerOnlyStreak >= maxPlannerOnlyTurns;
      plannerOnlyStreak = plannerOnly ? plannerOnlyStreak + 1 : 0;
      return writes.map((call, index) => ({
        toolCallId: call.id,
        toolName: name,
        result: index > 0 ? laterCall() : overused ? overuse() : apply(call.input, call.id),
      }));
    },
  };
}
