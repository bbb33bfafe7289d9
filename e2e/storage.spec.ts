import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.js';

// The key demo/fixtures/storage.ts stores its plan under.
const KEY = 'planloop-e2e';

async function openPlan(page: Page, adapter: 'local' | 'idb') {
  await page.goto(`/fixtures/storage.html?adapter=${adapter}`);
  await page.waitForFunction(() => window.__plan !== undefined);
  await expect(page.locator('#status')).toHaveText(`ready (${adapter})`);
}

function readPlan(page: Page) {
  return page.evaluate(() => {
    const plan = window.__plan!;
    return { todos: plan.todos.list(), docs: plan.markdown.list() };
  });
}

for (const adapter of ['local', 'idb'] as const) {
  test(`a plan saved with the ${adapter === 'local' ? 'localStorage' : 'IndexedDB'} adapter survives a reload`, async ({ page }) => {
    await openPlan(page, adapter);
    expect(await readPlan(page), 'a fresh browser context starts empty').toEqual({ todos: [], docs: [] });

    const saved = await page.evaluate(async () => {
      const plan = window.__plan!;
      plan.todos.createMany([
        { intent: 'navigate', description: 'Open the pricing page', expected_turn: 1 },
        { intent: 'narrate', description: 'Walk through the three tiers', expected_turn: 2 },
        { intent: 'ask', description: 'Ask which tier fits', expected_turn: 3 },
      ]);
      plan.todos.edit('t1', { status: 'completed' });
      plan.todos.edit('t2', { status: 'in_progress' });
      plan.todos.delete('t3');
      plan.todos.create({ intent: 'finish', description: 'Wrap up the tour' });
      plan.markdown.create({ title: 'plan.md', content: '- [x] pricing\n- [ ] tiers' });
      const notes = plan.markdown.create({ title: 'Notes', content: 'draft' });
      plan.markdown.edit(notes.id, { content: 'The visitor runs a team of five.' });
      await plan.flush();
      return { todos: plan.todos.list(), docs: plan.markdown.list() };
    });
    expect(saved.todos.map((todo) => [todo.id, todo.status])).toEqual([
      ['t1', 'completed'],
      ['t2', 'in_progress'],
      ['t4', 'pending'],
    ]);
    expect(saved.docs.map((doc) => doc.title)).toEqual(['plan.md', 'Notes']);

    // The snapshot sits in the browser store the adapter names, not somewhere else.
    const where = await page.evaluate(
      async (key) => ({
        local: localStorage.getItem(key) !== null,
        idbDatabases: (await indexedDB.databases()).length,
      }),
      KEY,
    );
    expect(where.local).toBe(adapter === 'local');
    if (adapter === 'idb') expect(where.idbDatabases).toBeGreaterThan(0);

    await page.reload();
    await openPlan(page, adapter);
    expect(await readPlan(page), 'ids, statuses and docs come back exactly').toEqual(saved);
    await page.screenshot({ path: test.info().outputPath(`restored-${adapter}.png`), fullPage: true });

    // Ids continue after the highest one restored.
    const next = await page.evaluate(() => window.__plan!.todos.create({ intent: 'narrate', description: 'One more' }).id);
    expect(next).toBe('t5');
  });
}
