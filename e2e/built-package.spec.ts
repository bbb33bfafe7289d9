import { resolve } from 'node:path';
import { test, expect } from './fixtures.js';

// The published package, not the sources: this spec imports `dist/` (built by scripts/e2e.sh
// before the run) through the dev server's /@fs/ route, and runs a plan through a reload,
// including the planner chunk the built Plan loads on its first makeTodos.
const DIST = `/@fs${resolve('dist/index.js')}`;

test('the built package plans, saves and restores a plan across a reload', async ({ page }) => {
  await page.goto('/fixtures/storage.html?adapter=none');
  const made = await page.evaluate(async (dist) => {
    const { Plan, createLocalStorageAdapter, createFunctionProvider } = await import(dist);
    const llm = createFunctionProvider(async () =>
      JSON.stringify({
        task_summary: 'A short tour',
        todos: [
          { intent: 'navigate', description: 'Open pricing' },
          { intent: 'finish', description: 'Wrap up' },
        ],
      }),
    );
    const plan = new Plan({ llm, storage: createLocalStorageAdapter({ key: 'built-package' }) });
    await plan.ready;
    const taskPlan = await plan.makeTodos({ task: 'Show me pricing' });
    plan.adjust({ remove: ['t1'] }, { inProgress: 't2' });
    plan.markdown.create({ title: 'Notes', content: 'Seen pricing.' });
    await plan.flush();
    return { summary: taskPlan.summary, todos: plan.todos.list() };
  }, DIST);
  expect(made.summary).toBe('A short tour');
  expect(made.todos.map((todo: { id: string; status: string }) => `${todo.id}:${todo.status}`)).toEqual(['t1:completed', 't2:in_progress']);

  await page.reload();
  const restored = await page.evaluate(async (dist) => {
    const { Plan, createLocalStorageAdapter } = await import(dist);
    const plan = new Plan({ storage: createLocalStorageAdapter({ key: 'built-package' }) });
    await plan.ready;
    return {
      summary: plan.summary,
      task: plan.task,
      todos: plan.todos.list(),
      docs: plan.markdown.list().map((doc: { title: string }) => doc.title),
      next: plan.todos.create({ intent: 'ask', description: 'Anything else?' }).id,
    };
  }, DIST);
  expect(restored).toMatchObject({ summary: 'A short tour', task: 'Show me pricing', docs: ['Notes'], next: 't3' });
  expect(restored.todos.map((todo: { id: string; status: string }) => `${todo.id}:${todo.status}`)).toEqual(['t1:completed', 't2:in_progress']);
});
