import { describe, expect, it } from 'vitest';
import { Plan } from '../../src/plan.js';

// plan.transaction(): only the transaction's own adjust (turn.adjust) is undone by rollback();
// plan.adjust() during it is someone else's change and stays. A rollback with nothing to undo is
// no change: no event, no save, no new revision.

const planWith = () => {
  const plan = new Plan();
  plan.todos.createMany([
    { intent: 'navigate', description: 'Open pricing' },
    { intent: 'narrate', description: 'Explain the tiers' },
    { intent: 'click', description: 'Start a trial' },
  ]);
  return plan;
};

const statuses = (plan: Plan) => plan.todos.list().map((todo) => `${todo.id} ${todo.status}`);

describe('plan.transaction()', () => {
  it('rollback undoes turn.adjust, not plan.adjust made meanwhile', () => {
    const plan = planWith();
    const turn = plan.transaction();
    turn.adjust({ remove: ['t1'] }, { inProgress: 't2' });
    plan.adjust({ remove: ['t3'] }); // not the transaction's: kept
    turn.rollback();
    expect(statuses(plan)).toEqual(['t1 pending', 't2 pending', 't3 completed']);
  });

  it('a rollback that undoes nothing emits nothing and leaves the state as it is', () => {
    const plan = planWith();
    const events: string[] = [];
    plan.onAny((name) => void events.push(name));
    const turn = plan.transaction();
    plan.adjust({ remove: ['t1'] }); // someone else's change, during the transaction
    const state = plan.state;
    events.length = 0;
    turn.rollback();
    expect(events).toEqual([]);
    expect(plan.state).toBe(state);
    expect(statuses(plan)).toEqual(['t1 completed', 't2 pending', 't3 pending']);
  });

  it('a rollback of a transaction that changed nothing at all emits nothing', () => {
    const plan = planWith();
    const revision = plan.state.revision;
    const events: string[] = [];
    plan.onAny((name) => void events.push(name));
    const turn = plan.transaction();
    turn.adjust({ remove: ['t9'] }); // an unknown id: ignored, nothing changes
    turn.rollback();
    expect(events).toEqual([]);
    expect(plan.state.revision).toBe(revision);
  });
});
