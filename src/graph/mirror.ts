import type { TodoItem, TodoStatus } from '../artifacts/todos.js';
import type { TypedEmitter } from '../emitter.js';
import type { Plan } from '../plan.js';
import { emitPlanEvent } from '../plan/emit-plan-event.js';
import { formatReference } from './reference.js';
import type { ToolGraphEvents } from './tool-graph-events.js';
import type { AnalyzedCall } from './validate.js';

/** The `Plan` graph runs mirror their calls into: its todos, and its events (through the plan's own emitter). */
export type TodoMirrorTarget = Plan;

/** Mirrors the calls of one or more graph runs as todos (intent `tool`), through the public todos API. */
export interface TodoMirror {
  /** Shows `calls` as pending todos; `keep` keeps the todos of earlier runs (later replanning turns). */
  begin(calls: readonly AnalyzedCall[], keep: boolean): void;
  /** Moves a call's todo on; `note` is appended to its description (`skipped`, `failed → state.error`). */
  update(index: number, status: TodoStatus, note?: string): void;
}

/**
 * A {@link TodoMirror} over `target`'s todos. Every change is also emitted as a `plan-update`
 * (source `graph`), and the run's call events are re-emitted on the plan.
 */
export function createTodoMirror(target: TodoMirrorTarget, emitter: TypedEmitter<ToolGraphEvents>): TodoMirror {
  emitter.on('call-start', (event) => emitPlanEvent(target, 'call-start', event));
  // The same payloads as the run's own events: one shape per event name.
  emitter.on('call-end', (event) => emitPlanEvent(target, 'call-end', event));
  emitter.on('call-error', (event) => emitPlanEvent(target, 'call-error', event));
  const changed = () => emitPlanEvent(target, 'plan-update', { todos: target.todos.list(), source: 'graph' });
  let kept: TodoItem[] = [];
  let current: { id: string; description: string }[] = [];
  return {
    begin(calls, keep) {
      const previous = keep ? kept : [];
      const added = calls.map((call) => ({ intent: 'tool', description: describeCall(call), status: 'pending' as const }));
      target.todos.reset([...previous, ...added]);
      // reset keeps given ids and assigns new ones in order, so the new todos are the last ones.
      const listed = target.todos.list();
      current = listed.slice(listed.length - added.length).map(({ id, description }) => ({ id, description }));
      kept = [...listed];
      changed();
    },
    update(index, status, note) {
      const todo = current[index];
      if (!todo) return;
      const patch = note === undefined ? { status } : { status, description: `${todo.description} (${note})` };
      target.todos.edit(todo.id, patch);
      kept = kept.map((item) => (item.id === todo.id ? { ...item, ...patch } : item));
      changed();
    },
  };
}

/** A call in one line: `processPayment → state.receipt | state.error`. */
function describeCall(call: Pick<AnalyzedCall, 'call' | 'output'>): string {
  if (!call.output) return call.call._tool;
  const joiner = call.output.op === 'and' ? ' & ' : ' | ';
  return `${call.call._tool} → ${call.output.refs.map(formatReference).join(joiner)}`;
}
