// `import * as z`, not `import { z }`: esbuild bundles all of zod (its locales too) for the named import.
import * as z from 'zod/mini';
import { TODO_STATUSES, type TodoIntent, type TodoItem } from '../artifacts/todos.js';
import type { Unsubscribe } from '../emitter.js';
import { ValidationError } from '../errors.js';
import type { Plan } from '../plan.js';
import type { PlanState } from '../plan-state.js';
import { toIssues } from '../validation.js';
import { diffJSON, type JsonPatchOperation } from './json-patch.js';
import { replaceTodos } from './replace-todos.js';

/** One todo as an AG-UI frontend sees it in the agent state. */
export interface AGUITodo {
  id: string;
  description: string;
  status: TodoItem['status'];
  intent: string;
  expected_turn?: number;
  /** What the run found (`checked`, `held`, `declined`: see `TodoItem.evidence`); absent on a claim or an untouched todo. Never read back from the frontend. */
  evidence?: TodoItem['evidence'];
}

/** The plan as AG-UI agent state: what `STATE_SNAPSHOT` carries and `STATE_DELTA` patches. */
export interface AGUIPlanState {
  /** The plan's one-sentence summary (`''` when none). */
  summary: string;
  /** The task it was planned for (`''` when unknown). */
  task: string;
  todos: AGUITodo[];
}

/** Fields every AG-UI event may carry. */
interface AGUIEventBase {
  /** Milliseconds since the epoch, a whole number. */
  timestamp?: number;
}
/** AG-UI `STATE_SNAPSHOT`: the whole state. */
export interface AGUIStateSnapshotEvent extends AGUIEventBase {
  type: 'STATE_SNAPSHOT';
  snapshot: AGUIPlanState;
}
/** AG-UI `STATE_DELTA`: an RFC 6902 JSON Patch against the state before it. */
export interface AGUIStateDeltaEvent extends AGUIEventBase {
  type: 'STATE_DELTA';
  delta: JsonPatchOperation[];
}
/** AG-UI `STEP_STARTED`: a todo went in progress. */
export interface AGUIStepStartedEvent extends AGUIEventBase {
  type: 'STEP_STARTED';
  stepName: string;
}
/** AG-UI `STEP_FINISHED`: a started todo was completed (or left the plan); the same `stepName`. */
export interface AGUIStepFinishedEvent extends AGUIEventBase {
  type: 'STEP_FINISHED';
  stepName: string;
}
/** The AG-UI events {@link streamPlanToAGUI} sends. */
export type AGUIPlanEvent = AGUIStateSnapshotEvent | AGUIStateDeltaEvent | AGUIStepStartedEvent | AGUIStepFinishedEvent;

/** Options of {@link streamPlanToAGUI}. */
export interface AGUIStreamOptions {
  /** A step's name for a todo (kept from start to finish, even if the todo is rewritten). Default `` `${todo.id}: ${todo.description}` ``. */
  stepName?: (todo: TodoItem) => string;
  /** Stamps each event; `null` leaves `timestamp` out. Default `Date.now`. */
  timestamp?: (() => number) | null;
}

/**
 * The plan's state as AG-UI agent state (JSON only: the summary, the task and the todos).
 *
 * @example
 * ```ts
 * toAGUIState(plan.state).todos[0]; // { id: 't1', description: 'Open pricing', status: 'pending', intent: 'navigate' }
 * ```
 */
export function toAGUIState(state: PlanState): AGUIPlanState {
  return {
    summary: state.summary,
    task: state.task,
    todos: state.todos.map((todo) => {
      const item: AGUITodo = { id: todo.id, description: todo.description, status: todo.status, intent: todo.intent };
      if (todo.expected_turn !== undefined) item.expected_turn = todo.expected_turn;
      if (todo.evidence !== undefined) item.evidence = todo.evidence;
      return item;
    }),
  };
}

/**
 * Streams a plan to an AG-UI frontend (CopilotKit and others): sends a `STATE_SNAPSHOT` at once
 * (and a `STEP_STARTED` for each todo already in progress), then for each change a `STATE_DELTA` (an RFC 6902 JSON Patch from the state before, so a
 * frontend applying the deltas in order holds `toAGUIState(plan.state)`), followed by a
 * `STEP_FINISHED` for each started todo that was completed or left the plan and a `STEP_STARTED`
 * for each todo that went in progress (a todo completed without being started gets both). Each
 * todo's step starts once and finishes once: a todo back to pending (a rolled-back or look-only
 * turn, a user's edit) keeps its step open, and one back in progress after its step finished is
 * not started again (the deltas carry every status). A change that leaves the AG-UI state as it
 * was sends nothing. Returns the function that stops.
 * Defaults: step names `` `${id}: ${description}` ``, `timestamp` `Date.now()`.
 *
 * @example
 * ```ts
 * declare const subscriber: { next(event: AGUIPlanEvent): void }; // an AG-UI agent's event stream
 * const stop = streamPlanToAGUI(plan, (event) => subscriber.next(event));
 * ```
 */
export function streamPlanToAGUI(plan: Plan, send: (event: AGUIPlanEvent) => void, options: AGUIStreamOptions = {}): Unsubscribe {
  const name = options.stepName ?? ((todo: TodoItem) => `${todo.id}: ${todo.description}`);
  const clock = options.timestamp === undefined ? Date.now : options.timestamp;
  const stamp = <E extends AGUIPlanEvent>(event: E): E => (clock ? { ...event, timestamp: Math.trunc(clock()) } : event);
  /** Steps started and not finished: todo id to step name. */
  const open = new Map<string, string>();
  /** Todos whose step finished: it is not started again. */
  const done = new Set<string>();
  let sent = toAGUIState(plan.state);
  send(stamp({ type: 'STATE_SNAPSHOT', snapshot: sent }));
  // A todo already in progress is a step already started: said so, so that its finish has a start.
  for (const todo of plan.state.todos) {
    if (todo.status !== 'in_progress') continue;
    open.set(todo.id, name(todo));
    send(stamp({ type: 'STEP_STARTED', stepName: name(todo) }));
  }
  return plan.on('state-change', ({ state }) => {
    const next = toAGUIState(state);
    const delta = diffJSON(sent, next);
    if (delta.length === 0) return;
    const was = new Map(sent.todos.map((todo) => [todo.id, todo.status]));
    sent = next;
    send(stamp({ type: 'STATE_DELTA', delta }));
    const byId = new Map(state.todos.map((todo) => [todo.id, todo]));
    for (const [id, step] of [...open]) {
      // Back to pending (a rolled-back or look-only turn, a user's edit) is not finished: the step
      // stays open until the todo is completed or leaves the plan.
      const status = byId.get(id)?.status;
      if (status === 'in_progress' || status === 'pending') continue;
      open.delete(id);
      done.add(id);
      send(stamp({ type: 'STEP_FINISHED', stepName: step }));
    }
    for (const todo of state.todos) {
      // A step starts once: a todo back in progress after its step finished (a rolled-back turn
      // restores the todo before it) is not started again; the state delta says its status.
      if (open.has(todo.id) || done.has(todo.id) || todo.status === 'pending') continue;
      if (todo.status === 'completed' && was.get(todo.id) === 'completed') continue;
      const step = name(todo);
      send(stamp({ type: 'STEP_STARTED', stepName: step }));
      if (todo.status === 'in_progress') open.set(todo.id, step);
      else {
        done.add(todo.id);
        send(stamp({ type: 'STEP_FINISHED', stepName: step }));
      }
    }
  });
}

const IncomingTodo = z.object({
  id: z.optional(z.nullable(z.string())),
  description: z.string(),
  status: z.enum(TODO_STATUSES),
  intent: z.optional(z.nullable(z.string())),
});
const IncomingState = z.object({ todos: z.array(IncomingTodo) });

/**
 * Applies a todo list edited in an AG-UI frontend (its agent state, as {@link toAGUIState} gives
 * it, or any object with `todos`) to the plan, with the rules of a user's edit: validated whole,
 * then committed in one change or not at all. A bad state (not an object, a todo without a
 * description, an unknown status, a text past `TODO_LIMITS`) throws a `ValidationError` naming
 * each problem (`todos[2].status`) and leaves the plan exactly as it was. When the frontend only
 * changed texts and statuses of the same todos, those are edited (the summary stays); added,
 * removed or reordered todos replace the list as `write_todos` does (kept todos keep their ids,
 * intents and expected turns; new ones get fresh ids, never a reused one, and the intent sent or
 * `'narrate'`). `summary` and `task` are the planner's and are not read. Returns the todos.
 *
 * @example
 * ```ts
 * declare const agent: { subscribe(subscriber: { onStateChanged(params: { state: unknown }): void }): void }; // an AG-UI client's agent
 * agent.subscribe({ onStateChanged: ({ state }) => applyAGUIState(plan, state) });
 * ```
 */
export function applyAGUIState(plan: Plan, state: unknown): TodoItem[] {
  const parsed = IncomingState.safeParse(state);
  if (!parsed.success) {
    const issues = toIssues(parsed.error.issues, [], state);
    throw new ValidationError(
      'invalid_input',
      `The AG-UI state was not applied: ${issues.map((issue) => `${issue.path || 'state'} ${issue.message}`).join('; ')}.`,
      { issues },
    );
  }
  const items = parsed.data.todos;
  const current = plan.state.todos;
  const sameTodos = items.length === current.length && items.every((item, index) => item.id === current[index]?.id);
  try {
    if (sameTodos) {
      const edits = items
        .filter((item, index) => changed(item, current[index] as TodoItem))
        .map((item) => ({
          id: item.id as string,
          patch: { description: item.description, status: item.status, ...(item.intent ? { intent: item.intent } : {}) },
        }));
      if (edits.length > 0) plan.todos.editMany(edits);
      return plan.todos.list();
    }
    return replaceTodos(
      plan,
      items.map((item) => ({
        id: item.id ?? undefined,
        description: item.description,
        status: item.status,
        ...(item.intent ? { intent: item.intent as TodoIntent } : {}),
      })),
    );
  } catch (error) {
    if (!ValidationError.isInstance(error)) throw error;
    const issues = error.issues.map((issue) => ({ ...issue, path: `todos${issue.path.startsWith('[') ? '' : '.'}${issue.path}` }));
    throw new ValidationError('invalid_input', `The AG-UI state was not applied: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}.`, {
      issues,
      cause: error,
    });
  }
}

function changed(item: z.infer<typeof IncomingTodo>, todo: TodoItem): boolean {
  return item.description !== todo.description || item.status !== todo.status || (!!item.intent && item.intent !== todo.intent);
}
