import { describe, expect, it } from 'vitest';
import { PlanloopError } from '../../src/errors.js';
import { forwardSubagentEvents } from '../../src/interop/subagent.js';
import { createWriteTodos } from '../../src/interop/write-todos.js';
import { Plan } from '../../src/plan.js';
import { emitPlanEvent } from '../../src/plan/emit-plan-event.js';

describe('forwardSubagentEvents', () => {
  it("re-emits a subagent's plan-update as subagent.plan-update with its name", () => {
    const parent = new Plan();
    const child = new Plan();
    const seen: unknown[] = [];
    parent.on('subagent.plan-update', (event) => seen.push(event));
    forwardSubagentEvents(child, parent, 'research');
    createWriteTodos(child).execute({ todos: [{ content: 'Check account context', status: 'in_progress' }] }, { toolCallId: 'call_7' });
    expect(seen).toEqual([
      {
        todos: [{ id: 't1', intent: 'narrate', description: 'Check account context', status: 'in_progress' }],
        source: 'write-todos',
        tool_call_id: 'call_7',
        revision: 1,
        subagent: 'research',
      },
    ]);
    expect(parent.todos.list()).toEqual([]); // the parent's own plan is untouched
  });

  it('forwards every event, not only plan updates', () => {
    const parent = new Plan();
    const child = new Plan();
    const names: string[] = [];
    parent.onAny((name) => names.push(name));
    forwardSubagentEvents(child, parent, 'sub');
    child.todos.create({ intent: 'narrate', description: 'x' });
    emitPlanEvent(child, 'plan-warning', { code: 'checklist_too_large', message: 'big' });
    expect(names).toEqual(['subagent.state-change', 'subagent.todos-change', 'subagent.plan-warning']);
  });

  it('flattens nesting into one prefix and a subagent path', () => {
    const root = new Plan();
    const middle = new Plan();
    const leaf = new Plan();
    const seen: Array<[string, unknown]> = [];
    root.onAny((name, payload) => seen.push([name, (payload as { subagent?: string }).subagent]));
    forwardSubagentEvents(middle, root, 'research');
    forwardSubagentEvents(leaf, middle, 'search');
    emitPlanEvent(leaf, 'plan-warning', { code: 'c', message: 'm' });
    expect(seen).toEqual([['subagent.plan-warning', 'research/search']]);
  });

  it('does not echo forever between plans that forward to each other', () => {
    const a = new Plan();
    const b = new Plan();
    const seen: Array<[string, string, unknown]> = [];
    a.onAny((name, payload) => seen.push(['a', name, (payload as { subagent?: string }).subagent]));
    b.onAny((name, payload) => seen.push(['b', name, (payload as { subagent?: string }).subagent]));
    forwardSubagentEvents(a, b, 'a');
    forwardSubagentEvents(b, a, 'b');
    emitPlanEvent(a, 'plan-warning', { code: 'c', message: 'm' });
    expect(seen).toEqual([
      ['a', 'plan-warning', undefined],
      ['b', 'subagent.plan-warning', 'a'],
      ['a', 'subagent.plan-warning', 'b/a'],
    ]);
  });

  it('stops when unsubscribed', () => {
    const parent = new Plan();
    const child = new Plan();
    const seen: unknown[] = [];
    parent.on('subagent.plan-warning', (event) => seen.push(event));
    const stop = forwardSubagentEvents(child, parent, 'sub');
    stop();
    emitPlanEvent(child, 'plan-warning', { code: 'c', message: 'm' });
    expect(seen).toEqual([]);
  });

  it('refuses to forward a plan to itself or without a name', () => {
    const plan = new Plan();
    expect(() => forwardSubagentEvents(plan, plan, 'self')).toThrow(PlanloopError);
    expect(() => forwardSubagentEvents(new Plan(), plan, ' ')).toThrow(/name/);
  });
});
