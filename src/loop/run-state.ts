/*
 * What a run is, as its readers see it: one immutable state value (`RunState`), the store contract
 * every UI framework reads (`subscribe`, `getSnapshot`), its own events, its result, and the two
 * things a host may do to it (answer a pending approval, stop it). Types only: `run.ts` builds a
 * run, `start-run.ts` drives it, the plan panel and the AG-UI bridge read it.
 */
import type { Listener, Unsubscribe } from '../emitter.js';
import type { PlanloopError } from '../errors.js';
import type { RunEventMap, RunFinishReason } from '../events.js';
import type { TodoItem } from '../plan-state.js';
import type { ApprovalAnswer, ApprovalRequest } from './action-policy.js';
import type { UnverifiedTodo } from './evidence-ledger.js';
import type { Tour } from './tour.js';

/**
 * Where a run is: taking the plan's run lease (`starting`), making the plan (`planning`), waiting
 * for the user's go (`announcing`), playing turns (`running`), or done (`finished`, `failed`).
 */
export type RunPhase = 'starting' | 'planning' | 'announcing' | 'running' | 'finished' | 'failed';

/** An approval the run is waiting for: its id (answer it with `run.answer(id, answer)`) and what is asked. */
export interface PendingApproval {
  /** Unique within the run (`<runId>.a<n>`). */
  readonly id: string;
  readonly request: ApprovalRequest;
  /** When silence becomes a no (ms since the epoch; absent with `approval.timeoutMs: 0`). */
  readonly expiresAt?: number;
}

/**
 * How a run ended: a finish reason (with `task_finish`'s summary), or `'error'` with the error and
 * the phase the run was in when it failed (a failure while `planning` left the plan as it was).
 */
export type RunEnd =
  | { readonly reason: RunFinishReason; readonly summary?: string; readonly unverified?: readonly UnverifiedTodo[] }
  | { readonly reason: 'error'; readonly error: PlanloopError | Error; readonly during: RunPhase };

/**
 * A run's state: one immutable value, replaced whole on every change (unchanged parts keep their
 * identity), so `run.getSnapshot()` is the same object until the run changes.
 *
 * @example
 * ```ts
 * declare const run: Run;
 * const { phase, turn, maxTurns, approval } = run.state;
 * if (approval) console.log(`waiting for the user: ${approval.request.detail}`);
 * ```
 */
export interface RunState {
  readonly runId: string;
  /** The user's request. */
  readonly task: string;
  readonly phase: RunPhase;
  /** The turn under way or last played (0 before the first). */
  readonly turn: number;
  /** The turn bound (0 until the turns start). */
  readonly maxTurns: number;
  /** The try of the current turn: 1, 2 when a bad reply is retried (0 until its first try). */
  readonly attempt: number;
  /** The approval the run waits for, or `null`. */
  readonly approval: PendingApproval | null;
  /** How the run ended (`null` while it runs). */
  readonly end: RunEnd | null;
}

/** How a run ended (a run that fails rejects instead). */
export interface RunResult {
  runId: string;
  reason: RunFinishReason;
  /** Turns played (retries of a bad envelope are not extra turns). */
  turns: number;
  /** `task_finish`'s summary, when the model sent one. */
  summary?: string;
  /** The todos at the end (each completed on evidence has `evidence: 'checked'`). */
  todos: TodoItem[];
  /** Reason `unverified`: each todo with a check the run left open, and what is missing. */
  unverified?: UnverifiedTodo[];
  /**
   * What the run did, as a tour `replayTour` plays again without a model (see `Tour`); absent when
   * the plan ended empty (a declined plan). A resumed run's tour holds what this run did.
   */
  tour?: Tour;
}

/**
 * A run of the turn loop on a plan (`startRun(plan, options)`): its state as a store, its events,
 * its result, and the ways to answer it and stop it.
 *
 * The store contract is the plan's (`PlanStore`), so every framework reads a run without glue:
 * React `useSyncExternalStore(run.subscribe, run.getSnapshot)`; Svelte `$run` (the run is a
 * store); Vue a `shallowRef(run.getSnapshot())` set from `run.subscribe`.
 *
 * @example
 * ```ts
 * const run = startRun(plan, { task: 'Show me the prices', tools });
 * run.subscribe((state) => console.log(state.phase, `${state.turn}/${state.maxTurns}`));
 * run.on('action', ({ action, decision }) => console.log(action.type, decision));
 * const { reason } = await run.result;
 * ```
 */
export interface Run {
  readonly runId: string;
  /** The run's state now (see {@link RunState}). */
  readonly state: RunState;
  /** Calls `listener` with the state at once, then after each change; returns the unsubscribe function. Bound. */
  readonly subscribe: (listener: (state: RunState) => void) => Unsubscribe;
  /** The state now; the same object until the run changes. Bound. */
  readonly getSnapshot: () => RunState;
  /** Subscribes to one of the run's events (see `RunEventMap`); returns the unsubscribe function. */
  on<K extends keyof RunEventMap & string>(name: K, listener: Listener<RunEventMap[K]>): Unsubscribe;
  /** Resolves with how the run ended; rejects with the error it failed with (also in `state.end`, so an unawaited failure is not reported as unhandled). */
  readonly result: Promise<RunResult>;
  /**
   * Answers the pending approval `id` (`state.approval.id`) as the approval hook would: only
   * `true` or `{ approved: true }` is a yes. The hook's question is withdrawn (its signal aborts).
   * Returns whether `id` was pending.
   */
  answer(id: string, answer: ApprovalAnswer): boolean;
  /** Stops the run: it rejects with an `AbortError` (code `aborted`) and its turn is rolled back. */
  stop(reason?: string): void;
}
