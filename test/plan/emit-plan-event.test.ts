import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';
import { Plan } from '../../src/plan.js';
import { emitPlanEvent } from '../../src/plan/emit-plan-event.js';

describe('plan events cannot be forged', () => {
  it('a plan has no public emit, and no entry point exports emitPlanEvent', () => {
    const plan = new Plan();
    expect('emit' in plan).toBe(false);
    expect((plan as unknown as Record<string, unknown>).emit).toBeUndefined();
    expect(Object.keys(root)).not.toContain('emitPlanEvent');
  });

  it("planloop's integrations emit run events through emitPlanEvent; the state events only come from a commit", () => {
    const plan = new Plan();
    const seen: string[] = [];
    plan.onAny((name) => seen.push(name));
    emitPlanEvent(plan, 'plan-warning', { code: 'c', message: 'm' });
    expect(seen).toEqual(['plan-warning']);
    const state = plan.state;
    for (const name of ['state-change', 'todos-change', 'markdown-change'] as const) {
      // @ts-expect-error the state events are not integration events
      expect(() => emitPlanEvent(plan, name, { state, previous: state, meta: {} })).toThrow(TypeError);
    }
    expect(seen).toEqual(['plan-warning']);
    expect(() => emitPlanEvent({ todos: plan.todos }, 'plan-warning', { code: 'c', message: 'm' })).toThrow(/needs a Plan/);
  });
});
