/*
 * Each plan's current run in this tab: the run that holds (or last held) the plan's run lease here.
 * The loop knows runs and the plan does not (the plan sits below the loop), so the link lives on
 * this side, weakly keyed by plan: a dropped plan goes with its entry, and two plans never share one.
 */
import { reportError } from '../errors.js';
import type { Unsubscribe } from '../emitter.js';
import type { Run } from './run-state.js';

interface Entry {
  run: Run | null;
  readonly listeners: Set<(run: Run) => void>;
}

const entries = new WeakMap<object, Entry>();

function entryOf(plan: object): Entry {
  let entry = entries.get(plan);
  if (!entry) entries.set(plan, (entry = { run: null, listeners: new Set() }));
  return entry;
}

/**
 * The plan's current run in this tab: the one going on, else the last one that ran here; `null`
 * before any. A run becomes current once it holds the plan's run lease, so a run refused with
 * `run_in_progress` never replaces the one that goes on.
 *
 * @example
 * ```ts
 * currentRun(plan)?.stop('The user closed the guide');
 * ```
 */
export function currentRun(plan: object): Run | null {
  return entries.get(plan)?.run ?? null;
}

/**
 * Calls `listener` with the plan's current run at once (when there is one), then with each run that
 * becomes current; returns the function that stops. What `<plan-panel>` follows.
 *
 * @example
 * ```ts
 * const stop = followRuns(plan, (run) => run.on('run-finish', ({ reason }) => console.log(reason)));
 * ```
 */
export function followRuns(plan: object, listener: (run: Run) => void): Unsubscribe {
  const entry = entryOf(plan);
  const own = (run: Run): void => listener(run);
  entry.listeners.add(own);
  if (entry.run) own(entry.run);
  return () => {
    entry.listeners.delete(own);
  };
}

/**
 * Makes `run` the plan's current run and tells those who follow the plan's runs (see
 * {@link followRuns}); a listener that throws is reported and skipped.
 *
 * @example
 * ```ts
 * declare const run: Run; // holds the plan's run lease now
 * attachRun(plan, run);
 * ```
 */
export function attachRun(plan: object, run: Run): void {
  const entry = entryOf(plan);
  entry.run = run;
  for (const listener of [...entry.listeners]) {
    try {
      listener(run);
    } catch (error) {
      reportError(error);
    }
  }
}
