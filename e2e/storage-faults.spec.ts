import type { Page } from '@playwright/test';
import { test, expect } from './fixtures.js';

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
    await new Promise((resolve) => setTimeout(resolve, 50));

    const adapter = createIndexedDbAdapter({ key: 'plan', openTimeoutMs: 500 });
    const started = performance.now();
    const loadError = await adapter.load().then(() => null, (error: { reason?: string; message: string }) => ({ reason: error.reason, message: error.message }));
    const loadMs = performance.now() - started;

    // The plan keeps working in memory and keeps trying to save.
    let state = { version: 1, todos: [{ id: 't1', intent: 'narrate', description: 'made while blocked', status: 'pending' as const }], markdownDocs: [] };
    const failures: string[] = [];
    const queue = createSaveQueue(() => adapter.save(state), { onError: (error) => failures.push((error as { reason?: string }).reason ?? 'unknown'), retry: { initialMs: 100, maxMs: 400 } });
    queue.request();
    await new Promise((resolve) => setTimeout(resolve, 700));
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
  expect(result.loadMs).toBeLessThan(1500);
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
    const state = { version: 1, todos: [todo('first'), todo('second one')], markdownDocs: [{ id: 'm1', title: 'Big', content: 'b'.repeat(600_000), updatedAt: 1 }] };
    const reasons: string[] = [];
    const queue = createSaveQueue(() => adapter.save(state), { onError: (error) => reasons.push((error as { reason?: string }).reason ?? 'unknown'), retry: { initialMs: 50, maxMs: 100 } });
    queue.request();
    const flushError = await queue.flush().then(() => null, (error: { reason?: string }) => error.reason);
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
    return { fillers, flushError, reasons: [...new Set(reasons)], stored, leftoverParts, todos: reloaded?.todos.length, doc: reloaded?.markdownDocs[0]?.content.length };
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
        .then(() => null, (caught: { reason?: string; message: string }) => ({ reason: caught.reason, message: caught.message }));
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
