import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Plan } from '../src/plan.js';
import { createMemoryAdapter } from '../src/storage/memory.js';
import type { TodoItem } from '../src/artifacts/todos.js';

type Op =
  | { op: 'create'; description: string }
  | { op: 'edit'; pick: number; status: TodoItem['status'] }
  | { op: 'delete'; pick: number }
  | { op: 'reset'; keep: number }
  | { op: 'reload' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), description: fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== '') }),
  fc.record({ op: fc.constant('edit' as const), pick: fc.nat(), status: fc.constantFrom('pending' as const, 'in_progress' as const, 'completed' as const) }),
  fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('reset' as const), keep: fc.nat({ max: 3 }) }),
  fc.constant({ op: 'reload' as const }),
);

describe('Plan invariants under random operations', () => {
  it('ids stay unique and are never reused, and the list matches a simple model, across reloads', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
        const storage = createMemoryAdapter();
        let plan = new Plan({ storage });
        await plan.ready;
        let model: TodoItem[] = [];
        const everIssued = new Set<string>();
        for (const step of ops) {
          if (step.op === 'create') {
            const item = plan.todos.create({ intent: 'narrate', description: step.description });
            expect(everIssued.has(item.id)).toBe(false);
            everIssued.add(item.id);
            model.push(item);
          } else if (step.op === 'edit' && model.length > 0) {
            const target = model[step.pick % model.length]!;
            plan.todos.edit(target.id, { status: step.status });
            target.status = step.status;
          } else if (step.op === 'delete' && model.length > 0) {
            const target = model[step.pick % model.length]!;
            expect(plan.todos.delete(target.id)).toBe(true);
            model = model.filter((item) => item.id !== target.id);
          } else if (step.op === 'reset') {
            model = model.slice(0, step.keep);
            plan.todos.reset(model);
          } else if (step.op === 'reload') {
            await plan.flush();
            plan = new Plan({ storage });
            await plan.ready;
          }
          const ids = plan.todos.list().map((item) => item.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect(plan.todos.list()).toEqual(model);
        }
      }),
      { numRuns: 150 },
    );
  });
});
