/**
 * The dialects wired into the turn loop: a plan seeded from a plan.md checklist runs without a
 * planning call, write_todos updates show on the reasoning trail, and a subagent's loop events
 * reach its parent.
 */
import { describe, expect, it } from 'vitest';
import { seedFromChecklist } from '../../src/interop/checklist.js';
import { forwardSubagentEvents } from '../../src/interop/subagent.js';
import { createWriteTodos } from '../../src/interop/write-todos.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import { runWebAgent } from '../../src/loop/run-web-agent.js';
import { Plan } from '../../src/plan.js';

const turn = (todoId: string, remove: string[], last = false) => ({
  turn_planning: { todo_id: todoId, does: `work on ${todoId}`, is_last_turn: last },
  todo_adjust: { remove },
  actions: last
    ? [
        { type: 'narrate', text: `Doing ${todoId}` },
        { type: 'task_finish', summary: 'All done.' },
      ]
    : [{ type: 'narrate', text: `Doing ${todoId}` }],
});

describe('dialects in the turn loop', () => {
  it('runs a plan seeded from plan.md without a planning call, only its unchecked items', async () => {
    const llm = createScriptedProvider([turn('t2', []), turn('t3', ['t2'], true)]);
    const plan = new Plan({ llm });
    seedFromChecklist(plan, '- [x] Understand the customer request\n- [ ] Check account context\n- [ ] Write the final response\n');
    const result = await runWebAgent({ plan, task: 'Answer the customer' });
    expect(result.reason).toBe('task_finish');
    expect(llm.calls).toHaveLength(2); // two turns, no planning call
    expect(llm.calls[0]?.messages.at(-1)?.content).toContain('<plan>\nt2 Check account context\n');
    expect(llm.calls[0]?.messages.at(-1)?.content).not.toContain('Understand the customer request');
    expect(plan.todos.list().map((todo) => todo.status)).toEqual(['completed', 'completed', 'completed']);
  });

  it('puts write_todos updates on the reasoning trail as plan steps', () => {
    const plan = new Plan();
    const steps: string[] = [];
    plan.on('reasoning-step', ({ phase, summary, revision }) => steps.push(`${phase} r${revision}: ${summary}`));
    const writeTodos = createWriteTodos(plan);
    writeTodos.execute({
      todos: [
        { content: 'Read the note', status: 'in_progress' },
        { content: 'Summarize it', status: 'pending' },
      ],
    });
    expect(steps).toEqual(['plan r1: 0/2 done, now: Read the note']);
  });

  it('forwards a subagent run to its parent with the subagent. prefix', async () => {
    const parent = new Plan();
    const child = new Plan({
      llm: createScriptedProvider([{ task_summary: 'Look it up', todos: [{ intent: 'click', description: 'Search' }] }, turn('t1', [], true)]),
    });
    const seen: string[] = [];
    parent.onAny((name, payload) => {
      if (name.startsWith('subagent.')) seen.push(`${name}:${(payload as { subagent: string }).subagent}`);
    });
    const stop = forwardSubagentEvents(child, parent, 'research');
    await runWebAgent({ plan: child, task: 'Find the refund policy' });
    stop();
    expect(seen).toEqual(expect.arrayContaining(['subagent.plan-create:research', 'subagent.turn-start:research', 'subagent.run-finish:research']));
    expect(parent.todos.list()).toEqual([]);
  });
});
