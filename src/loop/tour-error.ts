import { brandOf, PlanloopError, type PlanloopErrorOptions, type ValidationIssue } from '../errors.js';

/** Why a replayed step could not be done: its target is gone or ambiguous, its todo's check failed, or the user refused it. */
export type TourStepFailure = 'not-found' | 'ambiguous' | 'check-failed' | 'refused';

/** What a {@link TourError} is built from. */
export interface TourErrorOptions extends PlanloopErrorOptions {
  /** `tour_invalid`: every problem found, with its path (`todos[2].steps[0].target.role`). Default `[]`. */
  issues?: readonly ValidationIssue[] | undefined;
  /** `tour_step_failed`: the step, by its todo's id in the tour and its index among the todo's steps, and why. */
  step?: { readonly todoId: string; readonly index: number; readonly reason: TourStepFailure } | undefined;
}

/**
 * A recorded tour that cannot be used: `tour_invalid` before anything ran (a malformed or
 * oversized tour, a URL the tools must never open; `issues[0].path` is the first problem), or
 * `tour_step_failed` when a replay without a model reached a step it cannot do (`step` says which
 * and why; the todos played before it stay done).
 *
 * @example
 * ```ts
 * declare const stored: string;
 * declare const locators: TourLocators;
 * try { await replayTour(parseTour(stored), { plan, tools, page: { locators } }); }
 * catch (error) { if (TourError.isInstance(error)) console.log(error.code, error.issues[0]?.path ?? error.step); }
 * ```
 */
export class TourError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('TourError');

  declare readonly code: 'tour_invalid' | 'tour_step_failed';
  readonly issues: readonly ValidationIssue[];
  readonly step: TourErrorOptions['step'];

  constructor(code: 'tour_invalid' | 'tour_step_failed', message: string, options: TourErrorOptions = {}) {
    super(code, message, options);
    this.issues = options.issues ?? [];
    this.step = options.step;
  }
}
