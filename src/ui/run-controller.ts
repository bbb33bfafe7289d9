/*
 * The runs of a plan, for an element that shows them: a reactive controller in the manner of lit's
 * (`hostConnected`, `hostDisconnected`, and `requestUpdate()` on its host at every change), over
 * the plan's current run (`followRuns`) and that run's store (`run.subscribe`). `<plan-panel>` uses
 * it; a lit element can too (`new RunController(this, plan)`). Loaded with the UI: it imports only
 * the loop's small map of runs (plan-runs.ts), not the loop.
 */
import type { Unsubscribe } from '../emitter.js';
import { followRuns } from '../loop/plan-runs.js';
import type { Run, RunState } from '../loop/run-state.js';

/** What a {@link RunController} needs of its host: lit's `ReactiveControllerHost` has both. */
export interface RunControllerHost {
  addController(controller: RunController): void;
  /** Called at every change of the run shown (a new run, a new state). */
  requestUpdate(): void;
}

/**
 * Follows a plan's runs for an element: `state` is the plan's current run's state, `previous` the
 * state before its last change (to tell what changed), `planned` the state of the run the plan's
 * todos came from. Subscribes while its host is connected, and lets go when it is not.
 *
 * @example
 * ```ts
 * const host = { addController: () => {}, requestUpdate: () => render() };
 * const runs = new RunController(host, plan);
 * runs.hostConnected();
 * function render() { console.log(runs.state?.phase, runs.planned?.end?.reason); }
 * ```
 */
export class RunController {
  readonly #host: RunControllerHost;
  #plan: object | null;
  #run: Run | null = null;
  #planned: Run | null = null;
  #previous: RunState | null = null;
  #connected = false;
  #unfollow: Unsubscribe | null = null;
  #unsubscribe: Unsubscribe | null = null;

  constructor(host: RunControllerHost, plan: object | null = null) {
    this.#host = host;
    this.#plan = plan;
    host.addController(this);
  }

  /** The plan whose runs are followed. Setting another follows its runs instead. */
  get plan(): object | null {
    return this.#plan;
  }

  set plan(plan: object | null) {
    if (plan === this.#plan) return;
    this.#plan = plan;
    this.#stop();
    this.#run = null;
    this.#planned = null;
    this.#previous = null;
    if (this.#connected) this.#start();
  }

  /** The plan's current run (see `currentRun`), or `null`. */
  get run(): Run | null {
    return this.#run;
  }

  /** The current run's state, or `null`. */
  get state(): RunState | null {
    return this.#run?.state ?? null;
  }

  /** The current run's state before its last change (`null` for a run just followed). */
  get previous(): RunState | null {
    return this.#previous;
  }

  /**
   * The state of the run the plan's todos came from: the current run once it has its plan (made,
   * resumed or announced); while a new run is planning, or after it failed before its plan was
   * made, the run before it (whose end still describes the todos shown).
   */
  get planned(): RunState | null {
    return this.#planned?.state ?? null;
  }

  hostConnected(): void {
    if (this.#connected) return;
    this.#connected = true;
    this.#start();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#stop();
  }

  #start(): void {
    const plan = this.#plan;
    if (!plan) return;
    this.#unfollow = followRuns(plan, (run) => {
      this.#unsubscribe?.();
      this.#run = run;
      this.#previous = null;
      let last: RunState | null = null;
      this.#unsubscribe = run.subscribe((state) => {
        this.#previous = last;
        last = state;
        if (hasPlan(state)) this.#planned = run;
        this.#host.requestUpdate();
      });
    });
  }

  #stop(): void {
    this.#unfollow?.();
    this.#unsubscribe?.();
    this.#unfollow = this.#unsubscribe = null;
  }
}

/** Whether the run got as far as having its plan (made, resumed or announced). */
function hasPlan(state: RunState): boolean {
  if (state.phase === 'announcing' || state.phase === 'running' || state.phase === 'finished') return true;
  return state.phase === 'failed' && state.end?.reason === 'error' && (state.end.during === 'announcing' || state.end.during === 'running');
}
