import { test, expect } from './fixtures.js';

test('the demo page loads and shows planloop', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.ok(), `GET / answered ${response?.status()}`).toBe(true);
  await expect(page.locator('body')).toContainText(/planloop/i);
  await page.screenshot({ path: test.info().outputPath('demo.png'), fullPage: true });
});

test.describe('as a visitor gets it', () => {
  // demo/main.ts itself, not the test hooks e2e/fixtures.ts puts in its place.
  test.use({ demoHooks: false });

  test('the demo starts from its own entry, with no test hooks, and plans a tour', async ({ page }) => {
    await page.goto('/?fast=1');
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
    expect(await page.evaluate(() => '__demo' in window)).toBe(false);
    await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
    await expect(page.getByRole('button', { name: 'Start the tour' })).toBeVisible();
    await expect(page.locator('plan-panel').locator('li')).toHaveCount(5);
  });
});
