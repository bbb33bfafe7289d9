import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from './fixtures.js';
import { openPlanTab, settle } from './plan-tabs.js';

// Two and three tabs (pages of one browser context) on one plan key, in real Chromium:
// BroadcastChannel, Web Locks, localStorage storage events and IndexedDB shared between them.

async function openTab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/fixtures/storage-lab.html');
  await expect(page.locator('#status')).toHaveText('ready');
  return page;
}

test('the plan channel carries a notice from one tab to the other, not back to itself', async ({ context }) => {
  const [a, b] = [await openTab(context), await openTab(context)];
  for (const [page, replica] of [
    [a, 'A'],
    [b, 'B'],
  ] as const) {
    await page.evaluate((id) => {
      const channel = window.lab.createPlanChannel({ key: 'tour', replica: id });
      const heard: Array<{ message: unknown; at: number }> = [];
      channel.onMessage((message) => heard.push({ message, at: performance.timeOrigin + performance.now() }));
      Object.assign(window, { channel, heard });
    }, replica);
  }
  const sentAt = await a.evaluate(() => {
    (window as unknown as { channel: { post(message: unknown): void } }).channel.post({ type: 'changed', from: 'A', revision: 4 });
    return performance.timeOrigin + performance.now();
  });
  await expect.poll(() => b.evaluate(() => (window as unknown as { heard: unknown[] }).heard.length)).toBe(1);
  const [heard] = await b.evaluate(() => (window as unknown as { heard: Array<{ message: unknown; at: number }> }).heard);
  expect(heard!.message).toEqual({ type: 'changed', from: 'A', revision: 4 });
  test.info().annotations.push({ type: 'channel delay', description: `${(heard!.at - sentAt).toFixed(1)} ms` }); // reported, not bounded: a loaded machine is slow
  expect(await a.evaluate(() => (window as unknown as { heard: unknown[] }).heard)).toEqual([]);
});

test('run lease with Web Locks: one holder; the other tab sees it, asks it to stop, takes over, and gets it when the holder dies', async ({ context }) => {
  const [a, b] = [await openTab(context), await openTab(context)];
  const setup = async (page: Page, replica: string) =>
    page.evaluate((id) => {
      const channel = window.lab.createPlanChannel({ key: 'tour', replica: id });
      const lease = window.lab.createRunLease({ key: 'tour', replica: id, channel });
      const log: string[] = [];
      lease.onStopRequest((request) => log.push(`stop from ${request.from}: ${request.reason ?? ''}`));
      lease.onHolderChange((holder) => log.push(`holder ${holder}`));
      Object.assign(window, { lease, log, handle: null });
      return lease.mechanism;
    }, replica);
  expect(await setup(a, 'A')).toBe('locks');
  await setup(b, 'B');
  type Win = { lease: import('../src/sync/run-lease.js').RunLease; log: string[]; handle: import('../src/sync/run-lease.js').LeaseHandle | null };
  const acquire = (page: Page, steal = false) =>
    page.evaluate(async (stealing) => {
      const win = window as unknown as Win;
      win.handle = await win.lease.acquire({ steal: stealing });
      win.handle?.signal.addEventListener('abort', () => win.log.push(`lost: ${(win.handle!.signal.reason as Error).message}`));
      return win.handle !== null;
    }, steal);
  const holder = (page: Page) => page.evaluate(async () => (await (window as unknown as Win).lease.holder())?.replica ?? null);
  const log = (page: Page) => page.evaluate(() => (window as unknown as Win).log);

  expect(await acquire(a)).toBe(true);
  expect(await acquire(b)).toBe(false);
  expect(await holder(b)).toBe('A');
  await b.evaluate(() => (window as unknown as Win).lease.requestStop('Stop pressed in the other tab'));
  await expect.poll(() => log(a)).toContain('stop from B: Stop pressed in the other tab');

  // A stops and releases; B takes the lease.
  await a.evaluate(() => (window as unknown as Win).handle!.release());
  await expect.poll(() => log(b)).toContain('holder null');
  expect(await acquire(b)).toBe(true);
  expect(await holder(a)).toBe('B');

  // A takes it over with steal: B's run is told it lost the lease.
  expect(await acquire(a, true)).toBe(true);
  await expect.poll(() => log(b)).toContainEqual(expect.stringMatching(/lost: .*taken over by another tab/));
  expect(await holder(b)).toBe('A');

  // A's tab dies without releasing: the browser frees the lock.
  await a.close({ runBeforeUnload: false });
  await expect.poll(() => holder(b)).toBe(null);
  expect(await acquire(b)).toBe(true);
});

test('run lease without Web Locks: a record in localStorage that lapses when its tab dies', async ({ context }) => {
  const [a, b] = [await openTab(context), await openTab(context)];
  const setup = (page: Page, replica: string) =>
    page.evaluate((id) => {
      const lease = window.lab.createRunLease({ key: 'tour', replica: id, locks: null, ttlMs: 1500, settleMs: 50 });
      Object.assign(window, { lease });
    }, replica);
  await setup(a, 'A');
  await setup(b, 'B');
  type Win = { lease: import('../src/sync/run-lease.js').RunLease };
  const acquire = (page: Page) => page.evaluate(async () => (await (window as unknown as Win).lease.acquire()) !== null);
  const holder = (page: Page) => page.evaluate(async () => (await (window as unknown as Win).lease.holder())?.replica ?? null);

  expect(await acquire(a)).toBe(true);
  expect(await acquire(b)).toBe(false);
  // A renews while it lives: B sees A's record renewed past the expiry it was first given, and
  // still A's once that first expiry has passed.
  const first = await b.evaluate(async () => (await (window as unknown as Win).lease.holder())?.expires ?? 0);
  const renewedPastFirstExpiry = () =>
    b.evaluate(async (expiry) => {
      const found = await (window as unknown as Win).lease.holder();
      return Date.now() > expiry && (found?.expires ?? 0) > expiry ? (found?.replica ?? null) : null;
    }, first);
  await expect.poll(renewedPastFirstExpiry, { timeout: 10_000 }).toBe('A');
  expect(await acquire(b)).toBe(false);
  await a.close({ runBeforeUnload: false });
  await expect.poll(() => holder(b), { timeout: 4000 }).toBe(null);
  expect(await acquire(b)).toBe(true);
  expect(await holder(b)).toBe('B');
});

for (const adapter of ['local', 'idb'] as const) {
  test(`two tabs editing one plan (${adapter === 'local' ? 'localStorage' : 'IndexedDB'}) converge, every flush lands, and a third tab sees every change they saved`, async ({
    context,
  }) => {
    const tabs = [await openPlanTab(context, { key: 'tour', adapter }), await openPlanTab(context, { key: 'tour', adapter })];
    // Both tabs create a todo at about the same moment (often neither has seen the other's: both
    // make t1), then keep editing in bursts and flush. A flush waits while the other tab's saves
    // keep landing first (each refused write is merged and tried again); it does not fail.
    await Promise.all(tabs.map((page, index) => page.evaluate((n) => window.tab.create(`made in tab ${n}`), index)));
    const flushed = await Promise.all(
      tabs.map((page, index) =>
        page.evaluate(async (n) => {
          for (let i = 0; i < 5; i++) {
            window.tab.create(`tab ${n} step ${i}`);
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
          }
          return window.tab.plan.flush().then(
            () => 'flushed',
            (error: Error) => `flush rejected: ${error.message}`,
          );
        }, index),
      ),
    );
    expect(flushed).toEqual(['flushed', 'flushed']);
    const final = await settle(tabs);
    expect(final).toHaveLength(12);
    const reports = await Promise.all(tabs.map((page) => page.evaluate(() => window.tab.report())));

    // A third tab, opened afterwards, reads the stored plan: every change either tab saved is there, once.
    const third = await openPlanTab(context, { key: 'tour', adapter });
    const stored = await third.evaluate(() => window.tab.todos().map((todo) => ({ id: todo.id, description: todo.description })));
    const descriptions = stored.map((todo) => todo.description);
    for (const description of new Set(reports.flatMap((report) => report.saved.flat()))) expect(descriptions).toContain(description);
    expect(descriptions.sort()).toEqual(final.map((todo) => todo.description).sort());
    expect(new Set(stored.map((todo) => todo.id)).size).toBe(12);
    // Each id the two tabs both made was kept by one and renamed (`t1~2`) for the other, and that was reported.
    const renamed = stored.filter((todo) => todo.id.includes('~')).length;
    const collisions = reports.flatMap((report) => report.conflicts as Array<{ reason: string }>).filter((conflict) => conflict.reason === 'id-collision');
    expect(collisions.length >= renamed && renamed > 0 === collisions.length > 0).toBe(true);
    expect(reports.flatMap((report) => report.errors)).toEqual([]);
  });
}

for (const adapter of ['local', 'idb'] as const) {
  test(`<plan-panel> in a second tab shows each change made in the first (Plan on ${adapter === 'local' ? 'localStorage' : 'IndexedDB'})`, async ({
    context,
  }) => {
    const a = await openPlanTab(context, { key: 'tour', adapter, panel: true });
    const b = await openPlanTab(context, { key: 'tour', adapter, panel: true });
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const text = `change ${i} from A`;
      // B watches its panel's shadow DOM for the text; A makes the change.
      const seen = b.evaluate((wanted) => {
        const root = document.getElementById('panel')!.shadowRoot!;
        return new Promise<number>((resolve) => {
          const observer = new MutationObserver(() => {
            if (!root.textContent?.includes(wanted)) return;
            observer.disconnect();
            resolve(performance.timeOrigin + performance.now());
          });
          observer.observe(root, { subtree: true, childList: true, characterData: true });
        });
      }, text);
      // Let B's observer start before A changes anything.
      await b.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      const made = await a.evaluate((description) => {
        const at = performance.timeOrigin + performance.now();
        if (description.endsWith('0 from A')) window.tab.create(description);
        else window.tab.plan.todos.edit('t1', { description });
        return at;
      }, text);
      delays.push((await seen) - made);
    }
    const sorted = [...delays].sort((x, y) => x - y);
    test.info().annotations.push({
      type: 'panel delay',
      description: `median ${sorted[3]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms over ${delays.length} changes`,
    });
    // Every change arrived (each `seen` resolved). How fast is reported above, not asserted: a
    // bound of 100 ms failed 2 runs in 16 on a loaded machine (103.6 ms, 120.1 ms) with nothing wrong.
    expect(delays).toHaveLength(6);
    expect(await b.locator('#panel').textContent()).toBe(await a.locator('#panel').textContent());
  });
}
