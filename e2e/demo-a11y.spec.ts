import type { Page } from '@playwright/test';
import { axeViolations } from './a11y.js';
import { test, expect, openDemo as open } from './fixtures.js';

// Issue 24: axe-core (WCAG 2.0/2.1, A and AA) finds nothing in the demo and <plan-panel> in the six
// states a user meets: home, a plan announced, mid-tour, mid-tour on a phone, a note being edited,
// and the settings open.

const clean = async (page: Page): Promise<void> => {
  expect(await axeViolations(page)).toEqual([]);
};

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('home', async ({ page }) => {
    await open(page, '/?fast=1');
    await clean(page);
  });

  test('a plan announced', async ({ page }) => {
    await open(page, '/?fast=1');
    await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
    await expect(page.getByRole('button', { name: 'Start the tour' })).toBeFocused();
    await clean(page);
  });

  test('mid-tour', async ({ page }) => {
    await open(page, '/?fast=1&read=60000');
    await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
    await page.getByRole('button', { name: 'Start the tour' }).click();
    await expect(page.locator('#narration')).toBeVisible({ timeout: 10_000 });
    await expect(page.locator('.guide-highlight')).toHaveCount(1);
    await clean(page);
  });

  test('a note being edited', async ({ page }) => {
    await open(page, '/?fast=1');
    await page.getByRole('tab', { name: 'Notes' }).click();
    await page.getByRole('button', { name: 'New note' }).click();
    await expect(page.locator('#note-editor')).toBeVisible();
    await page.locator('#note-content').fill('# Ideas\n\nAsk about SSO.');
    await clean(page);
  });

  test('Settings open', async ({ page }) => {
    await open(page, '/?fast=1');
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.locator('#settings')).toBeVisible();
    await clean(page);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

  test('mid-tour', async ({ page }) => {
    await open(page, '/?fast=1&read=60000');
    await page.getByRole('button', { name: 'Ask the guide' }).tap();
    await page.getByRole('button', { name: 'Introduce the pricing page' }).tap();
    await page.getByRole('button', { name: 'Start the tour' }).tap();
    await expect(page.locator('#narration')).toBeVisible({ timeout: 10_000 });
    await clean(page);
  });
});
