import type { RunFinishReason } from '../events.js';

/** What the finish rules read of a turn that played (its envelope arrived whole). */
export interface TurnFacts {
  /** `task_finish`'s summary, when the turn sent one. */
  readonly finishSummary: string | undefined;
  /** The turn said it is the last (`"last": true`, `is_last_turn`). */
  readonly lastTurn: boolean;
  /** Every action was a `risk: 'read'` tool: the turn's plan change was undone. */
  readonly lookOnly: boolean;
  /** Tool actions (or steps of them) refused this turn, which the model has not heard of yet. */
  readonly refusals: number;
}

/**
 * Where the run stands when the rules are asked: before the first turn (`turn: 0`) or after a turn.
 * New facts about the run (todos held open for missing evidence, todos the user declined) belong
 * here, beside `remaining`.
 */
export interface RunPosition {
  /** Turns played. */
  readonly turn: number;
  /** The turn bound (remaining todos + `bounds.turnSlack` when the turns started, plus free look turns). */
  readonly maxTurns: number;
  /** Look-only turns that were not counted against the bound so far. */
  readonly looks: number;
  /** Look-only turns that may go uncounted (`bounds.lookTurns`). */
  readonly lookTurns: number;
  /** Todos not completed. */
  readonly remaining: number;
  /** A tool action was refused because the run's `bounds.runActions` were used up. */
  readonly capped: boolean;
}

/**
 * What the rules decided: play another turn (with the bound it has now), or end, and why; and a
 * line for the model when the turn's finish was held back (it goes with the turn's observations).
 */
export type FinishVerdict = (
  | { readonly next: 'continue'; readonly maxTurns: number; readonly looks: number }
  | {
      readonly next: 'end';
      readonly reason: RunFinishReason;
      /** `task_finish`'s summary. */
      readonly summary?: string;
      /** The turn's todo is completed as the run ends (a finish the model asked for). */
      readonly completeCurrent: boolean;
    }
) & { readonly note?: string };

/**
 * What the model is told when its finish was held back by a refusal it has not heard of yet
 * (`decideFinish` returns it as the verdict's `note`).
 *
 * @example
 * ```ts
 * const held = (observations: Array<{ summary: string }>) => observations.some((seen) => seen.summary === HELD_FINISH_NOTE);
 * ```
 */
export const HELD_FINISH_NOTE = 'The run did not finish: an action was refused this turn. Tell the user what was not done, then finish.';

/**
 * The finish rules of a run, as a pure function: where the run stands and (after a turn) what
 * the turn did, in; play on or end with a reason, out. In order: a run whose action cap was
 * reached ends (`action_limit`); a finish (`task_finish` or the last turn) ends the run, with the
 * turn's todo completed, unless the turn only looked or had a refusal the model has not heard of
 * (then the model is told, and the run goes on); a look-only turn does not use up the bound, up to
 * `lookTurns` of them; a plan with nothing left ends (`no_todos`); the bound ends it
 * (`turn_limit`). `runWebAgent` asks it before the first turn and after each; so can a
 * hand-written loop.
 *
 * @example
 * ```ts
 * const verdict = decideFinish(
 *   { turn: 2, maxTurns: 6, looks: 0, lookTurns: 3, remaining: 3, capped: false },
 *   { finishSummary: 'Shown.', lastTurn: false, lookOnly: false, refusals: 0 },
 * );
 * verdict.next === 'end' && verdict.reason; // 'task_finish'
 * ```
 */
export function decideFinish(run: RunPosition, turn?: TurnFacts): FinishVerdict {
  if (run.capped) return { next: 'end', reason: 'action_limit', completeCurrent: false };
  let { maxTurns, looks } = run;
  let note: string | undefined;
  if (turn) {
    const asked = turn.finishSummary !== undefined || turn.lastTurn;
    // A refusal the model has not heard of keeps the run going: it may try another way or tell the user.
    if (asked && turn.refusals > 0) note = HELD_FINISH_NOTE;
    // A turn that only looked finishes nothing: its plan change was undone.
    else if (asked && !turn.lookOnly) {
      return turn.finishSummary !== undefined
        ? { next: 'end', reason: 'task_finish', summary: turn.finishSummary, completeCurrent: true }
        : { next: 'end', reason: 'last_turn', completeCurrent: true };
    }
    if (turn.lookOnly && looks < run.lookTurns) {
      looks += 1;
      maxTurns += 1;
    }
  }
  const held = note === undefined ? {} : { note };
  if (run.remaining === 0) return { next: 'end', reason: 'no_todos', completeCurrent: false, ...held };
  if (run.turn >= maxTurns) return { next: 'end', reason: 'turn_limit', completeCurrent: false, ...held };
  return { next: 'continue', maxTurns, looks, ...held };
}
