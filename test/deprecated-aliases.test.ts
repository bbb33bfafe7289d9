/**
 * The names 0.2.0 renamed keep working until 0.3.0 (CHANGELOG "Renamed"): one test per alias that
 * the old name still does what the new one does. Everywhere else the tests use the new names.
 */
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as interop from '../src/interop/index.js';
import * as loop from '../src/loop/index.js';
import * as planning from '../src/planning/index.js';
import * as storage from '../src/storage/index.js';
import { createScriptedProvider } from '../src/llm/scripted.js';
import { Plan } from '../src/plan.js';
import { createMemoryAdapter } from '../src/storage/memory.js';

describe('validators: parseX(value) became validateX(value)', () => {
  it('parseTodoAdjust / safeParseTodoAdjust (root) are validateTodoAdjust / safeValidateTodoAdjust (planloop/loop)', () => {
    expect(root.parseTodoAdjust).toBe(loop.validateTodoAdjust);
    expect(root.safeParseTodoAdjust).toBe(loop.safeValidateTodoAdjust);
    expect(root.parseTodoAdjust({ remove: ['t1'], replace: null })).toEqual({ remove: ['t1'], replace: [] });
    expect(() => root.parseTodoAdjust({ insert: [] }, ['t2'])).toThrow(expect.objectContaining({ code: 'envelope_insert_forbidden' }));
    expect(root.safeParseTodoAdjust({ add: [] })).toMatchObject({ success: false, error: { code: 'envelope_insert_forbidden' } });
  });

  it('parseSnapshot / safeParseSnapshot are validateSnapshot / safeValidateSnapshot (planloop/storage)', () => {
    expect(storage.parseSnapshot).toBe(storage.validateSnapshot);
    expect(storage.safeParseSnapshot).toBe(storage.safeValidateSnapshot);
    expect(storage.parseSnapshot({ todos: [{ id: 't1', intent: 'narrate', description: 'x' }], markdownDocs: [] }).todos[0]).toMatchObject({
      id: 't1',
      status: 'pending',
    });
    const result: storage.SnapshotParseResult = storage.safeParseSnapshot('not a plan');
    expect(result).toMatchObject({ success: false, error: { code: 'storage_error', operation: 'load' } });
  });

  it('parsePlanInput / safeParsePlanInput (planloop/planning) are validatePlanInput / safeValidatePlanInput', () => {
    expect(planning.parsePlanInput).toBe(planning.validatePlanInput);
    expect(planning.safeParsePlanInput).toBe(planning.safeValidatePlanInput);
    expect(planning.parsePlanInput({ task: 'Show me the prices' })).toMatchObject({ task: 'Show me the prices' });
    expect(planning.safeParsePlanInput({ task: 42 })).toMatchObject({ success: false, error: { code: 'invalid_input' } });
  });

  it('parseContextCapsule / safeParseContextCapsule (planloop/interop) are validateContextCapsule / safeValidateContextCapsule', () => {
    expect(interop.parseContextCapsule).toBe(interop.validateContextCapsule);
    expect(interop.safeParseContextCapsule).toBe(interop.safeValidateContextCapsule);
    const capsule = { goal: 'Find SSO', keyFindings: ['Team has SSO'], artifacts: [] };
    expect(interop.parseContextCapsule(capsule)).toMatchObject(capsule);
    expect(interop.safeParseContextCapsule({ goal: 1 })).toMatchObject({ success: false });
  });
});

describe('the task summary is `summary`', () => {
  it('setTaskPlan still takes task_summary; summary wins when both are given; the result carries both names', () => {
    const plan = new Plan();
    const old = plan.setTaskPlan({ task_summary: 'A look at pricing', todos: [{ intent: 'narrate', description: 'Tiers' }] });
    expect(plan.summary).toBe('A look at pricing');
    expect(old).toMatchObject({ summary: 'A look at pricing', task_summary: 'A look at pricing' });
    plan.setTaskPlan({ summary: 'New', task_summary: 'Old', todos: [] });
    expect(plan.summary).toBe('New');
  });

  it("makeTodos' result and plan-create carry task_summary beside summary (the model still writes task_summary)", async () => {
    const llm = createScriptedProvider([{ task_summary: 'A short tour', todos: [{ intent: 'navigate', description: 'Open pricing' }] }]);
    const plan = new Plan({ llm });
    const created: unknown[] = [];
    plan.on('plan-create', ({ plan: made }) => created.push(made));
    const result = await plan.makeTodos({ task: 'Tour' });
    expect(result.summary).toBe('A short tour');
    expect(result.task_summary).toBe('A short tour');
    expect(created).toEqual([expect.objectContaining({ summary: 'A short tour', task_summary: 'A short tour' })]);
  });
});

describe('documents are `docs`', () => {
  it("plan-hydrate's markdownCount is docCount", async () => {
    const adapter = createMemoryAdapter({ version: 1, todos: [], markdownDocs: [{ id: 'm1', title: 'Notes', content: 'x', updatedAt: 1 }] });
    const plan = new Plan({ storage: adapter, sync: false });
    const hydrated = new Promise<{ docCount: number; markdownCount: number }>((resolve) => plan.on('plan-hydrate', resolve));
    plan.attachTo({});
    expect(await hydrated).toMatchObject({ docCount: 1, markdownCount: 1 });
  });
});
