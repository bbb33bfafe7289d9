import { describe, expect, it } from 'vitest';
import { decideFinish, HELD_FINISH_NOTE, type RunPosition, type TurnFacts } from '../../src/loop/finish-rules.js';

// The finish rules without a model stream: where the run stands and what the turn did, in; play on or end, out.
const at = (position: Partial<RunPosition> = {}): RunPosition => ({ turn: 1, maxTurns: 6, looks: 0, lookTurns: 3, remaining: 3, capped: false, ...position });
const did = (facts: Partial<TurnFacts> = {}): TurnFacts => ({ finishSummary: undefined, lastTurn: false, lookOnly: false, refusals: 0, ...facts });

describe('decideFinish', () => {
  it('before the first turn: ends at once with nothing to do or no turn allowed, else plays', () => {
    expect(decideFinish(at({ turn: 0, remaining: 0 }))).toMatchObject({ next: 'end', reason: 'no_todos', completeCurrent: false });
    expect(decideFinish(at({ turn: 0, maxTurns: 0 }))).toMatchObject({ next: 'end', reason: 'turn_limit' });
    expect(decideFinish(at({ turn: 0 }))).toEqual({ next: 'continue', maxTurns: 6, looks: 0 });
  });

  it("a finish ends the run and completes the turn's todo: task_finish with its summary, else the last turn", () => {
    expect(decideFinish(at(), did({ finishSummary: 'Shown.' }))).toEqual({ next: 'end', reason: 'task_finish', summary: 'Shown.', completeCurrent: true });
    expect(decideFinish(at(), did({ lastTurn: true }))).toEqual({ next: 'end', reason: 'last_turn', completeCurrent: true });
    // Even with todos left and turns to spare.
    expect(decideFinish(at({ remaining: 5, maxTurns: 20 }), did({ lastTurn: true }))).toMatchObject({ reason: 'last_turn' });
  });

  it('a finish in a turn with a refusal the model has not heard of is held back, with a line for the model', () => {
    expect(decideFinish(at(), did({ finishSummary: 'Done.', refusals: 1 }))).toEqual({ next: 'continue', maxTurns: 6, looks: 0, note: HELD_FINISH_NOTE });
    // Held back on the last allowed turn: the bound ends the run, and the model's line still goes with the turn.
    expect(decideFinish(at({ turn: 6 }), did({ lastTurn: true, refusals: 2 }))).toEqual({
      next: 'end',
      reason: 'turn_limit',
      completeCurrent: false,
      note: HELD_FINISH_NOTE,
    });
  });

  it('a look-only turn finishes nothing and does not use up the bound, up to lookTurns of them', () => {
    expect(decideFinish(at(), did({ lookOnly: true, finishSummary: 'x' }))).toEqual({ next: 'continue', maxTurns: 7, looks: 1 });
    expect(decideFinish(at({ turn: 6, looks: 3 }), did({ lookOnly: true }))).toMatchObject({ next: 'end', reason: 'turn_limit' });
    expect(decideFinish(at({ turn: 6, looks: 2 }), did({ lookOnly: true }))).toEqual({ next: 'continue', maxTurns: 7, looks: 3 });
  });

  it('the action cap ends the run before anything else, a finish included', () => {
    expect(decideFinish(at({ capped: true }), did({ finishSummary: 'Done.' }))).toEqual({ next: 'end', reason: 'action_limit', completeCurrent: false });
  });

  it('after an ordinary turn: nothing left ends it, the bound ends it, else it plays on', () => {
    expect(decideFinish(at({ remaining: 0 }), did())).toMatchObject({ next: 'end', reason: 'no_todos', completeCurrent: false });
    expect(decideFinish(at({ turn: 6 }), did())).toMatchObject({ next: 'end', reason: 'turn_limit' });
    expect(decideFinish(at({ turn: 5 }), did())).toEqual({ next: 'continue', maxTurns: 6, looks: 0 });
  });
});

describe('decideFinish: the evidence', () => {
  const missing = [{ id: 't2', missing: 'the page is not at /pricing' }];

  it('refuses the first finish while a checked todo lacks its evidence: the model is told what is missing and gets a turn', () => {
    expect(decideFinish(at({ unverified: missing, finishRefusals: 0 }), did({ finishSummary: 'All done.' }))).toEqual({
      next: 'continue',
      maxTurns: 7,
      looks: 0,
      note: 'The run did not finish: t2 not done: the page is not at /pricing. Do what is missing, or tell the user what is not done and finish.',
    });
  });

  it('ends the run unverified on the second refusal, naming each todo without evidence', () => {
    expect(decideFinish(at({ unverified: missing, finishRefusals: 1 }), did({ lastTurn: true }))).toEqual({
      next: 'end',
      reason: 'unverified',
      completeCurrent: false,
      unverified: missing,
    });
  });

  it('finishes as before when every checked todo has its evidence', () => {
    expect(decideFinish(at({ unverified: [], finishRefusals: 1 }), did({ finishSummary: 'Done.' }))).toMatchObject({ next: 'end', reason: 'task_finish' });
  });
});
