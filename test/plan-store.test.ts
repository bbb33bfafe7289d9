import { describe, expect, it } from 'vitest';
import { Plan } from '../src/plan.js';
import type { PlanState } from '../src/plan-state.js';

describe('the store contract: plan.subscribe and plan.getSnapshot (issue 26)', () => {
  it('getSnapshot keeps its identity until the plan changes, and is bound', () => {
    const plan = new Plan();
    const { getSnapshot } = plan; // passed on as it is, like useSyncExternalStore does
    const first = getSnapshot();
    expect(getSnapshot()).toBe(first);
    expect(first).toBe(plan.state);
    const [todo] = plan.todos.createMany([{ intent: 'navigate', description: 'Open pricing' }]);
    const second = getSnapshot();
    expect(second).not.toBe(first);
    expect(second.todos.map((item) => item.description)).toEqual(['Open pricing']);
    // A refused change and an edit that changes no value commit nothing: the same snapshot.
    expect(() => plan.todos.create({ intent: 'navigate', description: '' })).toThrow();
    plan.todos.edit(todo!.id, { description: 'Open pricing' });
    expect(getSnapshot()).toBe(second);
  });

  it('subscribe calls the listener at once with the current state (the Svelte contract), then once per change, until unsubscribed', () => {
    const plan = new Plan();
    const { subscribe } = plan;
    const seen: PlanState[] = [];
    const stop = subscribe((state) => seen.push(state));
    expect(seen).toEqual([plan.state]);
    plan.todos.create({ intent: 'navigate', description: 'Open pricing' });
    plan.markdown.create({ title: 'Notes', content: 'Three tiers.' });
    expect(seen).toHaveLength(3);
    expect(seen[2]).toBe(plan.getSnapshot());
    stop();
    plan.todos.reset();
    expect(seen).toHaveLength(3);
  });

  it('two subscribers are independent, and a throwing one breaks neither the other nor the change', () => {
    const plan = new Plan();
    const errors: unknown[] = [];
    const report = globalThis.reportError;
    globalThis.reportError = (error: unknown) => errors.push(error);
    try {
      let calls = 0;
      let armed = false;
      plan.subscribe(() => {
        if (armed) throw new Error('listener bug');
      });
      plan.subscribe(() => (calls += 1));
      armed = true;
      plan.todos.create({ intent: 'navigate', description: 'Open pricing' });
      expect(calls).toBe(2);
      expect(plan.todos.list()).toHaveLength(1);
      expect(errors).toHaveLength(1);
    } finally {
      globalThis.reportError = report;
    }
  });
});
