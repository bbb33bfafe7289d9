import type { Unsubscribe } from './emitter.js';
import type { PlanState } from './plan-state.js';

/** Receives the plan's state: at once when subscribing, then after every change. */
export type PlanStoreListener = (state: PlanState) => void;

/**
 * The store contract every UI framework reads, as the plan offers it (`plan.subscribe`,
 * `plan.getSnapshot`, both bound, so they can be passed on as they are):
 * - React: `useSyncExternalStore(plan.subscribe, plan.getSnapshot)`;
 * - Svelte: the plan is a store (`$plan`), since `subscribe` calls the listener at once with the
 *   current state and returns the unsubscribe function;
 * - Vue: `shallowRef(plan.getSnapshot())`, set from `plan.subscribe`.
 *
 * The snapshot is `plan.state`: immutable, and the same object until the plan changes (unchanged
 * parts, such as `todos`, keep their identity across changes too).
 *
 * @example
 * ```ts
 * import { useSyncExternalStore } from 'react';
 * const state = useSyncExternalStore(plan.subscribe, plan.getSnapshot);
 * state.todos.map((todo) => todo.description);
 * ```
 */
export interface PlanStore {
  /** Calls `listener` with the current state at once, then after each change; returns the unsubscribe function. */
  subscribe(listener: PlanStoreListener): Unsubscribe;
  /** The current state; the same object until the plan changes. */
  getSnapshot(): PlanState;
}

/** What {@link subscribePlanState} needs of a plan. */
interface StateSource {
  readonly state: PlanState;
  on(name: 'state-change', listener: (payload: { readonly state: PlanState }) => void): Unsubscribe;
}

/**
 * Calls `listener` with the plan's state now (the Svelte store contract; React ignores the call,
 * its snapshot being unchanged) and after every committed change.
 *
 * @example
 * ```ts
 * const stop = subscribePlanState(plan, (state) => console.log(state.todos.length, 'todos'));
 * ```
 */
export function subscribePlanState(source: StateSource, listener: PlanStoreListener): Unsubscribe {
  const stop = source.on('state-change', ({ state }) => listener(state));
  listener(source.state);
  return stop;
}
