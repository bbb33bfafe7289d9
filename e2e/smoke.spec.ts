import { test, expect } from './fixtures.js';

test('the demo page loads and shows planloop', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.ok(), `GET / answered ${response?.status()}`).toBe(true);
  await expect(page.locator('body')).toContainText(/planloop/i);
  await page.screenshot({ path: test.info().outputPath('demo.png'), fullPage: true });
});
