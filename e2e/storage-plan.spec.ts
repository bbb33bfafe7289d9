import { test, expect } from './fixtures.js';
import { blockUpgrade, openBlank, startPlanTab } from './plan-tabs.js';

// Issue 12's findings on a real Plan in real Chromium (localStorage, IndexedDB, page lifecycle).

test('a 1.8 MB corrupt plan on a full localStorage: never written over; the host frees space and hydrates again, or discards it', async ({ page }) => {
  await openBlank(page);
  const corrupt = await page.evaluate(() => {
    localStorage.clear();
    const text = `{"todos": [${'"x",'.repeat(450_000)}`; // 1.8 MB, not JSON
    localStorage.setItem('plan', text);
    const chunk = 'f'.repeat(100_000);
    let n = 0;
    try {
      for (;;) localStorage.setItem(`filler-${n++}`, chunk);
    } catch {
      // full
    }
    return text.length;
  });
  expect(corrupt).toBeGreaterThan(1_700_000);
  await startPlanTab(page, { key: 'plan', adapter: 'local' });
  const held = await page.evaluate(async () => {
    const { plan, log } = window.tab;
    const backup = plan.saveStatus.error as { reason?: string; raw?: unknown; message: string };
    plan.todos.create({ intent: 'narrate', description: 'made while held' });
    const flush = await plan.flush().then(
      () => 'resolved',
      (error: { reason?: string }) => error.reason,
    );
    return {
      reasons: log.errors.map((error) => error.reason),
      state: plan.saveStatus.state,
      rawLength: typeof backup.raw === 'string' ? backup.raw.length : 0,
      message: backup.message,
      flush,
      untouched: localStorage.getItem('plan')?.length,
    };
  });
  expect(held.reasons).toEqual(['corrupt', 'backup_failed']);
  expect(held.state).toBe('held');
  expect(held.rawLength).toBe(corrupt);
  expect(held.message).toMatch(/localStorage is full.*discardStoredPlan\(\).*hydrate\(\)/);
  expect(held.flush).toBe('backup_failed');
  expect(held.untouched).toBe(corrupt);

  // The host frees space and hydrates again: the data goes aside, the plan saves.
  const after = await page.evaluate(async () => {
    const { plan } = window.tab;
    for (const name of Object.keys(localStorage)) if (name.startsWith('filler-')) localStorage.removeItem(name);
    await plan.hydrate();
    await plan.flush();
    const copies = Object.keys(localStorage).filter((name) => name.startsWith('plan.corrupt.'));
    return {
      state: plan.saveStatus.state,
      copies: copies.map((name) => localStorage.getItem(name)?.length),
      stored: JSON.parse(localStorage.getItem('plan')!).todos.map((todo: { description: string }) => todo.description),
    };
  });
  expect(after).toEqual({ state: 'saved', copies: [corrupt], stored: ['made while held'] });
});

test('discardStoredPlan() writes over a corrupt plan that a full localStorage cannot set aside', async ({ page }) => {
  await openBlank(page);
  await page.evaluate(() => {
    localStorage.clear();
    localStorage.setItem('plan', `{"todos": [${'"x",'.repeat(450_000)}`);
    try {
      for (let n = 0; ; n++) localStorage.setItem(`filler-${n}`, 'f'.repeat(100_000));
    } catch {
      // full
    }
  });
  await startPlanTab(page, { key: 'plan', adapter: 'local' });
  const result = await page.evaluate(async () => {
    const { plan } = window.tab;
    const exported = (plan.saveStatus.error as { raw?: string }).raw?.length;
    plan.todos.create({ intent: 'narrate', description: 'kept' });
    await plan.discardStoredPlan();
    return {
      exported,
      state: plan.saveStatus.state,
      stored: JSON.parse(localStorage.getItem('plan')!).todos.map((todo: { description: string }) => todo.description),
    };
  });
  expect(result.exported).toBeGreaterThan(1_700_000);
  expect(result).toMatchObject({ state: 'saved', stored: ['kept'] });
});

test('a save that failed gets a last attempt on pagehide: change, leave the page, come back, the change is there (localStorage)', async ({ page }) => {
  await openBlank(page);
  await page.evaluate(() => localStorage.clear());
  await startPlanTab(page, { key: 'plan', adapter: 'local' });
  await page.evaluate(async () => {
    const { plan } = window.tab;
    // Fill the quota to the last few bytes, so that even a small save fails.
    const fillers: string[] = [];
    for (const size of [100_000, 10_000, 1_000, 100, 10, 1]) {
      try {
        for (;;) {
          const name = `filler-${fillers.length}`;
          localStorage.setItem(name, 'f'.repeat(size));
          fillers.push(name);
        }
      } catch {
        // full at this size: go on with a smaller one
      }
    }
    plan.todos.create({ intent: 'narrate', description: 'made before leaving' });
    // Four failed attempts: the next automatic retry is at least a second away.
    for (let i = 0; i < 4; i++) await plan.flush().catch(() => {});
    for (const name of fillers) localStorage.removeItem(name);
    // Registered after the plan's own listener: it sees whether the last attempt wrote.
    addEventListener('pagehide', () => sessionStorage.setItem('written-in-pagehide', String(localStorage.getItem('plan')?.includes('made before leaving'))));
    sessionStorage.setItem('state-before-leaving', plan.saveStatus.state);
    location.href = '/fixtures/storage-lab.html?next';
  });
  await page.waitForURL('**/storage-lab.html?next');
  await expect(page.locator('#status')).toHaveText('ready');
  await startPlanTab(page, { key: 'plan', adapter: 'local' });
  const back = await page.evaluate(() => ({
    before: sessionStorage.getItem('state-before-leaving'),
    inPagehide: sessionStorage.getItem('written-in-pagehide'),
    todos: window.tab.todos().map((todo) => todo.description),
  }));
  expect(back).toEqual({ before: 'failing', inPagehide: 'true', todos: ['made before leaving'] });
});

test('a blocked IndexedDB: ready settles in bounded time with storage-error blocked, the plan works in memory, then hydrates, merges and saves once it opens', async ({
  page,
}) => {
  await openBlank(page);
  // A stored plan, then another tab (an older page) holding the database open and ignoring
  // versionchange while a third asks for an upgrade.
  await startPlanTab(page, { key: 'plan', adapter: 'idb' });
  await page.evaluate(async () => {
    window.tab.create('stored before');
    await window.tab.plan.flush();
    await window.tab.plan.close();
    (window.tab.plan.storage as unknown as { close(): void }).close();
  });
  const block = await blockUpgrade(page);
  await startPlanTab(page, { key: 'plan', adapter: 'idb', openTimeoutMs: 500 });
  const blocked = await page.evaluate(() => {
    const { plan, log } = window.tab;
    const id = window.tab.create('made while blocked');
    return { reasons: log.errors.map((error) => error.reason), state: plan.saveStatus.state, id, hydrations: log.hydrations };
  });
  expect(blocked).toEqual({ reasons: ['blocked'], state: 'held', id: 't1', hydrations: 0 });

  await block.release();
  const opened = await page.evaluate(async () => {
    const { plan, log } = window.tab;
    while (log.hydrations === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await plan.flush();
    return { todos: window.tab.todos().map((todo) => `${todo.id} ${todo.description}`), state: plan.saveStatus.state };
  });
  expect(opened).toEqual({ todos: ['t1 stored before', 't2 made while blocked'], state: 'saved' });

  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready');
  await startPlanTab(page, { key: 'plan', adapter: 'idb' });
  expect(await page.evaluate(() => window.tab.todos().map((todo) => todo.description))).toEqual(['stored before', 'made while blocked']);
});
