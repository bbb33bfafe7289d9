/**
 * The one way planloop's own integrations (the turn loop, dialect adapters, tool-call graphs,
 * subagent forwarding) emit events on a plan, now that `plan.emit` is private: a plan registers
 * its emitter here when it is made, and no entry point exports this file, so a host cannot forge
 * a plan event. The state events come only from a committed change and cannot be emitted here.
 */
import type { TypedEmitter } from '../emitter.js';
import type { PlanEvents } from '../events.js';

/** The events a plan's own change path emits: nothing else may emit them. */
const STATE_EVENTS: ReadonlySet<string> = new Set(['state-change', 'todos-change', 'markdown-change']);

/** The events planloop's integrations emit on a plan: every event but the state events. */
export type IntegrationEventName = Exclude<keyof PlanEvents & string, 'state-change' | 'todos-change' | 'markdown-change'>;

/** Each plan's emitter, by plan (weakly: a dropped plan goes with its entry). */
const emitters = new WeakMap<object, TypedEmitter<PlanEvents>>();

/**
 * Registers `plan`'s emitter: the `Plan` constructor calls it once.
 *
 * @example
 * ```ts
 * import type { TypedEmitter } from '../emitter.js';
 * import type { PlanEvents } from '../events.js';
 * declare const events: TypedEmitter<PlanEvents>; // the plan's own emitter
 * const owner = {};
 * registerPlanEmitter(owner, events); // in Plan's constructor: registerPlanEmitter(this, core.events)
 * ```
 */
export function registerPlanEmitter(plan: object, events: TypedEmitter<PlanEvents>): void {
  emitters.set(plan, events);
}

/**
 * Emits `name` on `plan` (a `Plan`) so that one `plan.on()` sees everything a run does. Throws a
 * `TypeError` for a state event, or for an object that is no plan.
 *
 * @example
 * ```ts
 * emitPlanEvent(plan, 'plan-update', { todos: plan.todos.list(), source: 'graph' });
 * ```
 */
export function emitPlanEvent<K extends IntegrationEventName>(plan: object, name: K, payload: PlanEvents[K]): void {
  if (STATE_EVENTS.has(name)) throw new TypeError(`A plan emits ${name} itself, when a change is committed.`);
  const events = emitters.get(plan);
  if (!events) throw new TypeError('emitPlanEvent needs a Plan.');
  events.emit(name, payload);
}
