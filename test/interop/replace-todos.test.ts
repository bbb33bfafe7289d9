import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { replaceTodos } from '../../src/interop/replace-todos.js';
import { Plan } from '../../src/plan.js';

describe('replaceTodos', () => {
  it('matches by id, then by identical text, and gives new items fresh ids', () => {
    const plan = new Plan();
    plan.todos.createMany([
      { intent: 'navigate', description: 'Open pricing' },
      { intent: 'narrate', description: 'Explain the tiers' },
    ]);
    const todos = replaceTodos(
      plan,
      [
        { description: 'Explain the tiers', status: 'in_progress' },
        { id: 't1', description: 'Open the pricing page', status: 'completed' },
        { description: 'Ask about the team size', status: 'pending' },
      ],
      { intent: 'ask' },
    );
    expect(todos).toEqual([
      { id: 't2', intent: 'narrate', description: 'Explain the tiers', status: 'in_progress' },
      { id: 't1', intent: 'navigate', description: 'Open the pricing page', status: 'completed' },
      { id: 't3', intent: 'ask', description: 'Ask about the team size', status: 'pending' },
    ]);
    expect(plan.todos.list()).toEqual(todos);
  });

  it('matches each todo once when texts repeat', () => {
    const plan = new Plan();
    plan.todos.createMany([
      { intent: 'click', description: 'Next' },
      { intent: 'click', description: 'Next' },
    ]);
    const ids = replaceTodos(
      plan,
      ['Next', 'Next', 'Next'].map((description) => ({ description, status: 'pending' as const })),
    ).map((todo) => todo.id);
    expect(ids).toEqual(['t1', 't2', 't3']);
  });

  it('changes nothing when an item is invalid', () => {
    const plan = new Plan();
    plan.todos.create({ intent: 'click', description: 'Keep' });
    expect(() =>
      replaceTodos(plan, [
        { description: 'ok', status: 'pending' },
        { description: '', status: 'pending' },
      ]),
    ).toThrow(ValidationError);
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['Keep']);
  });
});
