import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from './fixtures.js';
import { blockUpgrade, checkSavedChanges, openBlank, openPlanTab, settle, startPlanTab } from './plan-tabs.js';

// Storage faults in real Chromium, on planloop's adapters and save queue (demo/fixtures/storage-lab.ts).

async function openLab(page: Page) {
  await page.goto('/fixtures/storage-lab.html');
  await expect(page.locator('#status')).toHaveText('ready');
}

test('a blocked IndexedDB upgrade: load fails with reason blocked in bounded time, and the save lands once it opens', async ({ page }) => {
  await openLab(page);
  const result = await page.evaluate(async () => {
    const { createIndexedDbAdapter, createSaveQueue } = window.lab;
    // Tab 1 (an older page) holds the database open and ignores versionchange; tab 2 asks for an upgrade.
    const holder = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open('planloop', 1);
      request.onupgradeneeded = () => request.result.createObjectStore('plans');
      request.onsuccess = () => resolve(request.result);
    });
    let upgradeBlocked = false;
    const upgrade = indexedDB.open('planloop', 2);
    upgrade.onblocked = () => (upgradeBlocked = true);
    const upgraded = new Promise<IDBDatabase>((resolve) => (upgrade.onsuccess = () => resolve(upgrade.result)));
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    await until(() => upgradeBlocked);

    const adapter = createIndexedDbAdapter({ key: 'plan', openTimeoutMs: 500 });
    const started = performance.now();
    const loadError = await adapter.load().then(
      () => null,
      (error: { reason?: string; message: string }) => ({ reason: error.reason, message: error.message }),
    );
    const loadMs = performance.now() - started;

    // The plan keeps working in memory and keeps trying to save.
    let state = { version: 1, todos: [{ id: 't1', intent: 'narrate', description: 'made while blocked', status: 'pending' as const }], markdownDocs: [] };
    const failures: string[] = [];
    const queue = createSaveQueue(() => adapter.save(state), {
      onError: (error) => failures.push((error as { reason?: string }).reason ?? 'unknown'),
      retry: { initialMs: 100, maxMs: 400 },
    });
    queue.request();
    // The queue keeps trying while the database stays blocked: wait for a retry to fail too.
    await until(() => failures.length >= 2);
    const whileBlocked = queue.status.state;

    holder.close();
    (await upgraded).close();
    await adapter.opened();
    state = { ...state, todos: [...state.todos, { id: 't2', intent: 'narrate', description: 'made after', status: 'pending' as const }] };
    queue.request();
    await queue.flush().catch(() => {});
    await new Promise((resolve) => {
      const wait = () => (queue.status.state === 'saved' ? resolve(undefined) : setTimeout(wait, 50));
      wait();
    });
    adapter.close();
    return { upgradeBlocked, loadError, loadMs, whileBlocked, failures: [...new Set(failures)], finalState: queue.status.state };
  });
  expect(result.upgradeBlocked).toBe(true);
  expect(result.loadError).toMatchObject({ reason: 'blocked' });
  expect(result.loadError?.message).toMatch(/did not open within 500 ms/);
  expect(result.loadMs).toBeGreaterThanOrEqual(400); // it waited for the open timeout, then gave up (no upper bound: a loaded machine is slow)
  expect(result.whileBlocked).toBe('failing');
  expect(result.failures).toEqual(['blocked']);
  expect(result.finalState).toBe('saved');

  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready');
  const restored = await page.evaluate(async () => {
    const adapter = window.lab.createIndexedDbAdapter({ key: 'plan' });
    const snapshot = await adapter.load();
    adapter.close();
    return snapshot?.todos.map((todo) => todo.description);
  });
  expect(restored).toEqual(['made while blocked', 'made after']);
});

test('IndexedDB deleted mid-run: the delete is not blocked, and the next save recreates the plan, documents included', async ({ page }) => {
  await openLab(page);
  const result = await page.evaluate(async () => {
    const adapter = window.lab.createIndexedDbAdapter({ key: 'plan' });
    const doc = { id: 'm1', title: 'Notes', content: 'n'.repeat(200_000), updatedAt: 1 };
    await adapter.save({ version: 1, todos: [], markdownDocs: [doc] });
    let deleteBlocked = false;
    const deletion = indexedDB.deleteDatabase('planloop');
    deletion.onblocked = () => (deleteBlocked = true);
    await new Promise((resolve, reject) => {
      deletion.onsuccess = resolve;
      deletion.onerror = reject;
      setTimeout(() => reject(new Error('deleteDatabase still waiting after 3 s')), 3000);
    });
    const afterDelete = await adapter.load();
    await adapter.save({ version: 1, todos: [{ id: 't1', intent: 'narrate', description: 'after the delete', status: 'pending' }], markdownDocs: [doc] });
    adapter.close();
    const reader = window.lab.createIndexedDbAdapter({ key: 'plan' });
    const reloaded = await reader.load();
    reader.close();
    return { deleteBlocked, afterDelete, todos: reloaded?.todos.map((todo) => todo.description), docLength: reloaded?.markdownDocs[0]?.content.length };
  });
  expect(result.deleteBlocked).toBe(false);
  expect(result.afterDelete).toBeNull();
  expect(result.todos).toEqual(['after the delete']);
  expect(result.docLength).toBe(200_000);
});

test('localStorage full during a save: reason quota, the stored plan unchanged, saved by a retry once space is freed', async ({ page }) => {
  await openLab(page);
  const result = await page.evaluate(async () => {
    const { createLocalStorageAdapter, createSaveQueue } = window.lab;
    localStorage.clear();
    const adapter = createLocalStorageAdapter({ key: 'plan' });
    const todo = (description: string) => ({ id: `t${description.length}`, intent: 'narrate', description, status: 'pending' as const });
    const first = { version: 1, todos: [todo('first')], markdownDocs: [] };
    adapter.save(first);
    // Fill the origin's quota with someone else's data.
    const chunk = 'f'.repeat(250_000);
    let fillers = 0;
    try {
      for (;;) localStorage.setItem(`filler-${fillers++}`, chunk);
    } catch {
      fillers -= 1;
    }
    const state = {
      version: 1,
      todos: [todo('first'), todo('second one')],
      markdownDocs: [{ id: 'm1', title: 'Big', content: 'b'.repeat(600_000), updatedAt: 1 }],
    };
    const reasons: string[] = [];
    const queue = createSaveQueue(() => adapter.save(state), {
      onError: (error) => reasons.push((error as { reason?: string }).reason ?? 'unknown'),
      retry: { initialMs: 50, maxMs: 100 },
    });
    queue.request();
    const flushError = await queue.flush().then(
      () => null,
      (error: { reason?: string }) => error.reason,
    );
    const stored = JSON.parse(localStorage.getItem('plan')!).todos.length;
    const leftoverParts = Object.keys(localStorage).filter((name) => name.startsWith('plan:doc:')).length;
    // The host frees space; the queue's own retry saves without another change.
    for (let i = 0; i < fillers; i++) localStorage.removeItem(`filler-${i}`);
    await new Promise((resolve) => {
      const wait = () => (queue.status.state === 'saved' ? resolve(undefined) : setTimeout(wait, 20));
      wait();
    });
    const reloaded = createLocalStorageAdapter({ key: 'plan' }).load();
    localStorage.clear();
    return {
      fillers,
      flushError,
      reasons: [...new Set(reasons)],
      stored,
      leftoverParts,
      todos: reloaded?.todos.length,
      doc: reloaded?.markdownDocs[0]?.content.length,
    };
  });
  expect(result.fillers).toBeGreaterThan(0);
  expect(result.flushError).toBe('quota');
  expect(result.reasons).toEqual(['quota']);
  expect(result.stored).toBe(1);
  expect(result.leftoverParts).toBe(0);
  expect(result.todos).toBe(2);
  expect(result.doc).toBe(600_000);
});

test('IndexedDB over its quota during a save: reason quota, the stored plan unchanged', async ({ page }) => {
  await openLab(page);
  // DevTools' quota override, set before the origin first writes to IndexedDB.
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(page.url()).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1_000_000 });
  await page.evaluate(async () => {
    const adapter = window.lab.createIndexedDbAdapter({ key: 'plan' });
    await adapter.save({ version: 1, todos: [{ id: 't1', intent: 'narrate', description: 'kept', status: 'pending' }], markdownDocs: [] });
    adapter.close();
  });
  try {
    const result = await page.evaluate(async () => {
      const adapter = window.lab.createIndexedDbAdapter({ key: 'plan' });
      await adapter.load();
      // Random text: Chromium compresses what it stores, so a repeated character would fit.
      const bytes = new Uint8Array(3_000_000);
      for (let at = 0; at < bytes.length; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
      const content = Array.from(bytes, (byte) => String.fromCharCode(33 + (byte % 90))).join('');
      const big = { id: 'm1', title: 'Big', content, updatedAt: 1 };
      const error = await adapter
        .save({ version: 1, todos: [{ id: 't1', intent: 'narrate', description: 'changed', status: 'pending' }], markdownDocs: [big] })
        .then(
          () => null,
          (caught: { reason?: string; message: string }) => ({ reason: caught.reason, message: caught.message }),
        );
      const stored = await adapter.load();
      adapter.close();
      return { error, stored: stored?.todos.map((todo) => todo.description), docs: stored?.markdownDocs.length };
    });
    expect(result.error).toMatchObject({ reason: 'quota' });
    expect(result.error?.message).toMatch(/IndexedDB is full/);
    expect(result.stored).toEqual(['kept']);
    expect(result.docs).toBe(0);
  } finally {
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  }
});

test('a corrupt plan that cannot be set aside on a full localStorage: backup_failed with the data, nothing overwritten', async ({ page }) => {
  await openLab(page);
  const result = await page.evaluate(() => {
    const { createLocalStorageAdapter } = window.lab;
    localStorage.clear();
    const corrupt = `{"todos": [${'"x",'.repeat(450_000)}`; // 1.8 MB, not JSON
    localStorage.setItem('plan', corrupt);
    const chunk = 'f'.repeat(100_000);
    let n = 0;
    try {
      for (;;) localStorage.setItem(`filler-${n++}`, chunk);
    } catch {
      // full
    }
    const adapter = createLocalStorageAdapter({ key: 'plan' });
    const loadError = (() => {
      try {
        adapter.load();
        return null;
      } catch (error) {
        return (error as { reason?: string }).reason;
      }
    })();
    let backup: { reason: string | undefined; rawLength: number | undefined; message: string } | null = null;
    try {
      adapter.backup('{"small', 'not JSON');
      adapter.backup(corrupt, 'not JSON');
    } catch (error) {
      const caught = error as { reason?: string; raw?: string; message: string };
      backup = { reason: caught.reason, rawLength: caught.raw?.length, message: caught.message };
    }
    const stillThere = localStorage.getItem('plan') === corrupt;
    const copies = adapter.exportCorrupt().length;
    const discarded = adapter.discardCorrupt();
    localStorage.clear();
    return { loadError, backup, stillThere, copies, discarded };
  });
  expect(result.loadError).toBe('corrupt');
  expect(result.backup?.reason).toBe('backup_failed');
  expect(result.backup?.rawLength).toBeGreaterThan(1_700_000);
  expect(result.backup?.message).toMatch(/could not be set aside \(localStorage is full\)/);
  expect(result.stillThere).toBe(true);
  // The small copy fitted; discardCorrupt() frees it for the host.
  expect(result.copies).toBe(1);
  expect(result.discarded).toBe(1);
});

// The fault-injection suite: real Plans in two or three tabs (pages of one context) editing and
// running at once with random timing while storage fails under them. The invariant, checked by
// checkSavedChanges: after everything settles, every change a tab reported saved is in the final
// plan (read by a tab opened afterwards), or a sync conflict said why. Run it 20 times in a row
// under load with --repeat-each=20 --retries=0.

const pause = (page: Page, ms: number) => page.waitForTimeout(ms);
const random = (min: number, max: number) => min + Math.random() * (max - min);

/** The first tab: makes the tour the runs work through ('run 1' … 'run 5') and saves it. */
async function firstTab(context: BrowserContext, adapter: 'local' | 'idb', extra: { openTimeoutMs?: number } = {}): Promise<Page> {
  const page = await openPlanTab(context, { key: 'tour', adapter, modelDelayMs: 4, ...extra });
  await page.evaluate(async () => {
    window.tab.plan.setTaskPlan({
      task: 'Tour',
      summary: 'A tour under faults',
      todos: [1, 2, 3, 4, 5].map((n) => ({ intent: 'narrate', description: `run ${n}` })),
    });
    await window.tab.plan.flush();
  });
  return page;
}

/** Reads the final plan the way a new tab does (from storage), then checks the invariant over every tab's log. */
async function finalCheck(context: BrowserContext, pages: Page[], adapter: 'local' | 'idb') {
  const settled = await settle(pages);
  const reader = await openPlanTab(context, { key: 'tour', adapter });
  const final = await reader.evaluate(() => window.tab.todos());
  expect(final).toEqual(settled);
  const reports = await Promise.all(pages.map((page) => page.evaluate(() => window.tab.report())));
  // Everything a failure needs explaining: each tab's log and plan with its clocks.
  const snapshots = await Promise.all(pages.map((page) => page.evaluate(() => window.tab.plan.snapshot())));
  const trails = await Promise.all(pages.map((page) => page.evaluate(() => (window as unknown as { trail: string[] }).trail)));
  await test.info().attach('tabs.json', { body: JSON.stringify({ final, reports, snapshots, trails }, null, 1), contentType: 'application/json' });
  const counts = checkSavedChanges(reports, final);
  expect(new Set(final.map((todo) => todo.id)).size).toBe(final.length);
  test.info().annotations.push({ type: 'checked', description: JSON.stringify({ ...counts, runs: reports.map((report) => report.runs) }) });
  return { final, reports };
}

for (const [tabs, adapter] of [
  [2, 'local'],
  [3, 'idb'],
  [3, 'local'],
] as const) {
  test(`faults: ${tabs} tabs on ${adapter === 'local' ? 'localStorage' : 'IndexedDB'} editing and running at once, with random timing and a takeover`, async ({
    context,
  }) => {
    test.setTimeout(90_000);
    const pages = [await firstTab(context, adapter)];
    while (pages.length < tabs) pages.push(await openPlanTab(context, { key: 'tour', adapter, modelDelayMs: 4 }));
    const runs = [pages[0]!.evaluate(() => window.tab.run())];
    const work = pages.map((page, index) => page.evaluate(([name, count]) => window.tab.work(name, count), [`T${index}`, 8] as const));
    // A second tab asks to run while the first runs (refused), and the last one takes the run over.
    await pause(pages[1]!, random(0, 60));
    runs.push(pages[1]!.evaluate(() => window.tab.run()));
    if (tabs === 3) {
      await pause(pages[2]!, random(20, 120));
      runs.push(pages[2]!.evaluate(() => window.tab.run({ takeOver: true })));
    }
    await Promise.all(work);
    const outcomes = await Promise.all(runs);
    expect(outcomes.some((outcome) => outcome === 'finished task_finish')).toBe(true);
    for (const outcome of outcomes) expect(['finished task_finish', 'finished no_todos', 'run_in_progress', 'aborted']).toContain(outcome);
    const { final } = await finalCheck(context, pages, adapter);
    expect(final.filter((todo) => todo.description.startsWith('run ')).every((todo) => todo.status === 'completed')).toBe(true);
  });
}

test('faults: localStorage full in the middle of a run: saves fail with reason quota, then land once space is freed', async ({ context }) => {
  test.setTimeout(90_000);
  const pages = [await firstTab(context, 'local'), await openPlanTab(context, { key: 'tour', adapter: 'local', modelDelayMs: 4 })];
  const run = pages[0]!.evaluate(() => window.tab.run());
  const work = pages.map((page, index) => page.evaluate(([name, count]) => window.tab.work(name, count, 40), [`T${index}`, 8] as const));
  await pause(pages[1]!, random(10, 80));
  // Someone else's data fills the origin's quota for a while.
  await pages[1]!.evaluate(
    async (ms) => {
      const fillers: string[] = [];
      for (const size of [250_000, 10_000, 500, 20]) {
        try {
          for (;;) {
            localStorage.setItem(`filler-${fillers.length}`, 'f'.repeat(size));
            fillers.push(`filler-${fillers.length}`);
          }
        } catch {
          // full at this size
        }
      }
      window.tab.create('made while full');
      await new Promise((resolve) => setTimeout(resolve, ms));
      for (const name of fillers) localStorage.removeItem(name);
    },
    random(150, 500),
  );
  await Promise.all([run, ...work]);
  const { reports } = await finalCheck(context, pages, 'local');
  expect(reports.flatMap((report) => report.errors.map((error) => error.reason))).toContain('quota');
  expect(reports[1]!.saved.flat()).toContain('made while full');
});

test('faults: IndexedDB deleted in the middle of a run: the next saves recreate it, nothing reported saved is lost', async ({ context }) => {
  test.setTimeout(90_000);
  const pages = [await firstTab(context, 'idb'), await openPlanTab(context, { key: 'tour', adapter: 'idb', modelDelayMs: 4 })];
  const run = pages[0]!.evaluate(() => window.tab.run());
  const work = pages.map((page, index) => page.evaluate(([name, count]) => window.tab.work(name, count, 40), [`T${index}`, 10] as const));
  const outsider = await context.newPage();
  await openBlank(outsider);
  await pause(outsider, random(20, 150));
  const deleted = await outsider.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const request = indexedDB.deleteDatabase('planloop');
        request.onsuccess = () => resolve('deleted');
        request.onblocked = () => resolve('blocked');
        request.onerror = () => resolve('error');
      }),
  );
  expect(deleted).toBe('deleted');
  await Promise.all([run, ...work]);
  // One more change in each tab after the delete, as a live page makes.
  for (const [index, page] of pages.entries()) await page.evaluate((name) => window.tab.create(name), `after the delete ${index}`);
  await finalCheck(context, pages, 'idb');
});

test('faults: a blocked IndexedDB upgrade: saves fail with reason blocked, a tab opened meanwhile works in memory, and everything lands once it opens', async ({
  context,
}) => {
  test.setTimeout(90_000);
  const pages = [
    await firstTab(context, 'idb', { openTimeoutMs: 400 }),
    await openPlanTab(context, { key: 'tour', adapter: 'idb', openTimeoutMs: 400, modelDelayMs: 4 }),
  ];
  const outsider = await context.newPage();
  await openBlank(outsider);
  const block = await blockUpgrade(outsider);
  const run = pages[0]!.evaluate(() => window.tab.run());
  const work = pages.map((page, index) => page.evaluate(([name, count]) => window.tab.work(name, count, 40), [`T${index}`, 6] as const));
  const late = await openPlanTab(context, { key: 'tour', adapter: 'idb', openTimeoutMs: 400 });
  expect(await late.evaluate(() => window.tab.plan.saveStatus.state)).toBe('held');
  await late.evaluate(() => window.tab.work('late', 3));
  await pause(outsider, random(100, 600));
  await block.release();
  await Promise.all([run, ...work]);
  pages.push(late);
  const { final, reports } = await finalCheck(context, pages, 'idb');
  expect(reports.flatMap((report) => report.errors.map((error) => error.reason))).toContain('blocked');
  expect(final.map((todo) => todo.description.replace(/ edited$/, ''))).toEqual(expect.arrayContaining(['late-0', 'late-1', 'late-2']));
});

test('faults: reloads in the middle of saves and of the run: what was reported saved survives, and another tab finishes the run', async ({ context }) => {
  test.setTimeout(90_000);
  const pages = [await firstTab(context, 'idb'), await openPlanTab(context, { key: 'tour', adapter: 'idb', modelDelayMs: 4 })];
  const run = pages[0]!.evaluate(() => window.tab.run());
  const work = pages[1]!.evaluate(() => window.tab.work('T1', 10, 40));
  await pause(pages[0]!, random(30, 150));
  // The running tab reloads in the middle of a save of a large document (and of its run).
  await pages[0]!.evaluate(() => {
    window.tab.plan.markdown.create({ title: 'Large', content: 'x'.repeat(2_000_000) });
    window.tab.create('T0-before reload');
    setTimeout(() => location.reload(), Math.random() * 5);
  });
  await run.catch(() => 'the page went away');
  await pages[0]!.waitForLoadState('load');
  await expect(pages[0]!.locator('#status')).toHaveText('ready');
  await startPlanTab(pages[0]!, { key: 'tour', adapter: 'idb', modelDelayMs: 4 });
  await work;
  // The other tab takes the run up where it stopped.
  expect(await pages[1]!.evaluate(() => window.tab.run())).toBe('finished task_finish');
  const { final } = await finalCheck(context, pages, 'idb');
  expect(final.filter((todo) => todo.description.startsWith('run ')).every((todo) => todo.status === 'completed')).toBe(true);
  const docs = await pages[0]!.evaluate(() => window.tab.plan.markdown.list().map((doc) => doc.content.length));
  expect(docs.every((length) => length === 2_000_000)).toBe(true);
});
