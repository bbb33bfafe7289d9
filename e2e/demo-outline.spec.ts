import { test, expect, openDemo as open, shot } from './fixtures.js';

// Issue 13: each turn's prompt carries the page outline, and the offline model takes its targets
// from it (the outline's refs), not from ids in its script: so a page whose ids change between turns
// (a framework re-render, a redesign) is still toured right.

test.use({ viewport: { width: 1280, height: 860 } });

const statusOf = (page: import('@playwright/test').Page, id: string) => page.evaluate((todoId) => window.__demo?.plan.todos.get(todoId)?.status, id);

test('targets come from the page outline: rename an id between turns and the tour still highlights the right element', async ({ page }, testInfo) => {
  await open(page, '/?fast=1&read=2500');
  await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
  await page.getByRole('button', { name: 'Start the tour' }).click();
  // t2 (the Starter plan) is being narrated on /commercial; the Team plan comes next.
  await expect.poll(() => statusOf(page, 't2'), { timeout: 10_000 }).toBe('in_progress');
  await expect(page.locator('#tier-starter')).toHaveClass(/guide-highlight/);
  await page.evaluate(() => {
    const team = document.querySelector('#tier-team')!;
    team.id = 'plan-card-2';
    team.className = 'tier featured redesigned';
  });
  await expect.poll(() => statusOf(page, 't3'), { timeout: 10_000 }).toBe('in_progress');
  await expect(page.locator('#plan-card-2')).toHaveClass(/guide-highlight/);
  // The model named it by the outline's ref, not by a selector.
  await expect(page.locator('#narration')).toHaveAttribute('data-target', /^e\d+$/);
  await shot(page, testInfo, 'renamed-still-highlighted');
});
