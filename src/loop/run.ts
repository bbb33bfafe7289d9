import { nanoid } from 'nanoid';
import { toAbortError } from '../abort.js';
import { TypedEmitter } from '../emitter.js';
import { AbortError } from '../errors.js';
import type { PlanEvents, RunEventMap } from '../events.js';
import type { Plan } from '../plan.js';
import { emitPlanEvent } from '../plan/emit-plan-event.js';
import { Store } from '../store.js';
import type { ApprovalAnswer, ApproveHook } from './action-policy.js';
import { attachRun } from './plan-runs.js';
import type { PendingApproval, Run, RunPhase, RunResult, RunState } from './run-state.js';

/** What a run's driver may do to its run (see {@link openRun}); the host gets the read side, {@link Run}. */
export interface RunControl {
  readonly runId: string;
  /** Aborts when the run is stopped (`run.stop()`) or the host's signal aborts. */
  readonly signal: AbortSignal;
  /** The run's state now. */
  readonly state: RunState;
  /** Changes the run's state (one commit; the store tells subscribers once). */
  set(patch: Partial<Omit<RunState, 'runId' | 'task'>>): void;
  /** Emits one of the run's events, on the run and (until 0.4.0) on its plan. */
  emit<K extends keyof RunEventMap & string>(name: K, payload: RunEventMap[K]): void;
  /**
   * Ends the run as failed with what was thrown during `phase` (an `AbortError` when `signal`, the
   * driver's signal of the moment, has aborted), emits `run-error` unless `report` is false (a run
   * refused its lease never started), and returns the error for the driver to throw.
   */
  fail(caught: unknown, during: { phase: RunPhase; signal: AbortSignal; report?: boolean }): Error;
  /** Makes this run the plan's current run (`currentRun(plan)`, what `<plan-panel>` follows): once it holds the plan's run lease. */
  attach(): void;
  /**
   * The approval hook the run's gate asks: the host's (or none, for `'state'`), with each request
   * shown in `state.approval` while it waits and answerable by `run.answer()`. `undefined` for no
   * way to ask (then the gate refuses what needs approval).
   */
  asker(ask: ApproveHook | 'state' | undefined, timeoutMs: number): ApproveHook | undefined;
}

/**
 * A new run on `plan` for `task`, driven by `drive` (started at once; its result is `run.result`).
 * Its state lives in a `Store` (src/store.ts); its events on its own emitter.
 *
 * @example
 * ```ts
 * const run = openRun(plan, task, undefined, async (control) => {
 *   control.set({ phase: 'running' });
 *   return { runId: control.runId, reason: 'no_todos', turns: 0, todos: plan.todos.list() };
 * });
 * ```
 */
export function openRun(plan: Plan, task: string, signal: AbortSignal | undefined, drive: (control: RunControl) => Promise<RunResult>): Run {
  const runId = nanoid(10);
  const store = new Store<RunState, string>({ runId, task, phase: 'starting', turn: 0, maxTurns: 0, attempt: 0, approval: null, end: null });
  const events = new TypedEmitter<RunEventMap>();
  const stopper = new AbortController();
  if (signal) {
    if (signal.aborted) stopper.abort(signal.reason);
    else signal.addEventListener('abort', () => stopper.abort(signal.reason), { once: true });
  }
  const answers = new Map<string, (answer: ApprovalAnswer) => void>();
  let asked = 0;

  const set = (patch: Partial<RunState>): void => {
    store.update((state) => {
      const changed = (Object.keys(patch) as Array<keyof RunState>).some((key) => patch[key] !== state[key]);
      return changed ? { state: { ...state, ...patch }, meta: Object.keys(patch).join(',') } : null;
    });
  };

  const run: Run = {
    runId,
    get state() {
      return store.state;
    },
    subscribe: (listener) => {
      const stop = store.subscribe(({ state }) => listener(state));
      listener(store.state);
      return stop;
    },
    getSnapshot: () => store.state,
    on: (name, listener) => events.on(name, listener),
    result: undefined as unknown as Promise<RunResult>,
    answer(id, answer) {
      const settle = answers.get(id);
      if (!settle) return false;
      settle(answer);
      return true;
    },
    stop(reason) {
      stopper.abort(new AbortError('aborted', `The run was stopped${reason ? `: ${reason}` : ' (run.stop()).'}`));
    },
  };

  const control: RunControl = {
    runId,
    signal: stopper.signal,
    get state() {
      return store.state;
    },
    set,
    emit<K extends keyof RunEventMap & string>(name: K, payload: RunEventMap[K]) {
      events.emit(name, payload);
      emitPlanEvent(plan, name, payload as PlanEvents[K]);
    },
    fail(caught, { phase, signal, report = true }) {
      const error = signal.aborted ? toAbortError(signal.reason) : caught instanceof Error ? caught : new Error(String(caught));
      set({ phase: 'failed', end: { reason: 'error', error, during: phase } });
      if (report) control.emit('run-error', { runId, turn: store.state.turn, error });
      return error;
    },
    attach: () => attachRun(plan, run),
    asker(ask, timeoutMs) {
      if (ask === undefined) return undefined;
      return (request, context) => {
        asked += 1;
        const id = `${runId}.a${asked}`;
        // The hook's own signal: withdrawn when the run's answer comes first, as when the gate gives up.
        const withdraw = new AbortController();
        const pending: PendingApproval = { id, request, ...(timeoutMs > 0 ? { expiresAt: Date.now() + timeoutMs } : {}) };
        return new Promise<ApprovalAnswer>((resolve, reject) => {
          let onAbort = (): void => {};
          const done = (): void => {
            answers.delete(id);
            context.signal.removeEventListener('abort', onAbort);
            if (store.state.approval?.id === id) set({ approval: null });
          };
          // The gate gave up (a timeout, the run stopped): it has its answer, the question goes.
          onAbort = () => {
            withdraw.abort(context.signal.reason);
            done();
            resolve(false);
          };
          answers.set(id, (answer) => {
            done();
            // A copy: what the host passed cannot change after it answered.
            resolve(typeof answer === 'object' && answer !== null ? { ...answer } : answer);
            withdraw.abort(new AbortError('aborted', 'The approval was answered through the run.'));
          });
          context.signal.addEventListener('abort', onAbort, { once: true });
          set({ approval: pending });
          if (ask === 'state') return;
          Promise.resolve()
            // Answered through the run in the meantime: the host's hook is not asked at all.
            .then(() => (withdraw.signal.aborted ? new Promise<ApprovalAnswer>(() => {}) : ask(request, { signal: withdraw.signal })))
            .then(
              (answer) => {
                done();
                resolve(answer);
              },
              (error: unknown) => {
                done();
                reject(error);
              },
            );
        });
      };
    },
  };

  const result = drive(control);
  // A failure is in the run's state and its `run-error` event: not an unhandled rejection when nobody awaits `result`.
  result.catch(() => {});
  (run as { result: Promise<RunResult> }).result = result;
  return run;
}
