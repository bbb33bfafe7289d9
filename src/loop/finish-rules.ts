import type { RunFinishReason } from '../events.js';
import { notDoneLine, type UnverifiedTodo } from './evidence-ledger.js';

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
  /**
   * After a turn that asked to finish: the open todos whose check does not hold (what is missing
   * for each). A finish is refused once while there are any; the second refusal ends the run
   * (`unverified`). Todos without a check, and todos the user declined, never hold a finish back.
   * Default none.
   */
  readonly unverified?: readonly UnverifiedTodo[];
  /** Finishes refused so far for missing evidence. Default 0. */
  readonly finishRefusals?: number;
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
      /** The turn's todo is completed as the run ends (a finish the model asked for), on its evidence when it has a check. */
      readonly completeCurrent: boolean;
      /** Reason `unverified`: each todo with a check left open, and what is missing. */
      readonly unverified?: readonly UnverifiedTodo[];
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
 * (then the model is told, and the run goes on), or todos with a check are open without their
 * evidence (`run.unverified`: the first time the model is told what is missing and gets one more
 * turn; the second time the run ends, `unverified`); a look-only turn does not use up the bound, up to
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
    else if (asked && !turn.lookOnly && run.unverified && run.unverified.length > 0) {
      if ((run.finishRefusals ?? 0) > 0) return { next: 'end', reason: 'unverified', completeCurrent: false, unverified: run.unverified };
      note = `The run did not finish: ${run.unverified.map((todo) => notDoneLine(todo.id, todo.missing)).join('; ')}. Do what is missing, or tell the user what is not done and finish.`;
      maxTurns += 1;
    } else if (asked && !turn.lookOnly) {
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
