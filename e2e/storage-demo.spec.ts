import { test, expect, openDemo, shot } from './fixtures.js';

// The demo, opened twice in one browser context (two tabs of one site): both tabs' plans sync
// through localStorage, so a tour started in one is followed live in the other's <plan-panel>,
// which can also stop it. No demo code knows about the second tab: it is the plan's doing.

test.use({ viewport: { width: 1280, height: 860 } });

test('two tabs of the demo on one plan: a tour started in one is followed live in the other, which can stop it', async ({ context }, testInfo) => {
  const a = await context.newPage();
  await openDemo(a, '/?fast=1&read=400&resume=0');
  const b = await context.newPage();
  await openDemo(b, '/?fast=1&resume=0');
  const items = (page: typeof a) => page.locator('plan-panel').locator('li');

  // Every status B's panel shows, in order, to see the tour pass by.
  await b.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    window.__demo!.plan.on('todos-change', ({ todos }) => seen.push(todos.map((todo) => todo.status[0]).join('')));
  });

  await a.getByRole('button', { name: 'Introduce the pricing page' }).click();
  await expect(a.getByRole('button', { name: 'Start the tour' })).toBeVisible();
  // The plan made in A is in B's panel, with its summary, before the tour starts.
  await expect(items(b)).toHaveCount(5);
  await expect(b.locator('plan-panel')).toContainText('I will take you to the pricing page and introduce its three plans.');
  await shot(b, testInfo, 'b-sees-the-plan');

  await a.getByRole('button', { name: 'Start the tour' }).click();
  await expect(items(b).filter({ hasText: 'In progress' })).toHaveCount(1);
  expect(await b.evaluate(() => window.__demo!.plan.runHolder())).toMatchObject({ self: false });
  await shot(b, testInfo, 'b-follows-the-tour');
  await expect(a.locator('#run-status')).toHaveText('Tour finished: Introduced the pricing page.', { timeout: 20_000 });
  await expect(items(b).filter({ hasText: 'Done' })).toHaveCount(5);
  expect(await items(b).allTextContents()).toEqual(await items(a).allTextContents());
  // B saw the statuses move one todo at a time, as A's panel did.
  const seen = await b.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
  // (A notice may bring two of A's changes at once, so not necessarily every step.)
  expect(seen[0]).toBe('ppppp');
  expect(seen.at(-1)).toBe('ccccc');
  expect(new Set(seen).size).toBeGreaterThanOrEqual(4);
  const done = seen.map((statuses) => statuses.split('c').length - 1);
  expect(done).toEqual([...done].sort((x, y) => x - y));

  // A second tour in A, stopped from B.
  await a.getByLabel('Ask the guide').fill('Show me how to try it');
  await a.getByRole('button', { name: 'Ask', exact: true }).click();
  await a.getByRole('button', { name: 'Start the tour' }).click();
  await expect(items(b).filter({ hasText: 'In progress' })).toHaveCount(1);
  await b.evaluate(() => window.__demo!.plan.requestStop('Stopped from the other tab'));
  await expect(a.locator('#run-status')).toHaveText('Tour stopped.');
  await expect.poll(() => b.evaluate(() => window.__demo!.plan.runHolder())).toBeNull();
});
