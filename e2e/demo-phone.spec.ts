import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { test, expect, openDemo as open, shot } from './fixtures.js';

// The demo on a phone (375×740, a touch screen) and on a laptop (1280×800), issue 13 part 6. The
// README links the screenshots in docs/; they are refreshed only on request
// (UPDATE_README_SHOT=1 npm run test:e2e), so test runs never change tracked files.

const DOCS = new URL('../docs/', import.meta.url);

async function readmeShot(page: Page, name: string): Promise<void> {
  if (!process.env.UPDATE_README_SHOT) return;
  mkdirSync(fileURLToPath(DOCS), { recursive: true });
  await page.screenshot({ path: fileURLToPath(new URL(name, DOCS)) });
}

/** Whether the whole of `locator` is inside the viewport (and so can be seen without scrolling). */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize();
  return !!box && !!size && box.y >= 0 && box.x >= 0 && box.y + box.height <= size.height + 0.5 && box.x + box.width <= size.width + 0.5;
}

const panel = (page: Page) => page.locator('plan-panel');

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

  test('the guide is a launcher on first load; the plan and Stop stay in view on tour; hints speak of taps', async ({ page }, testInfo) => {
    await open(page, '/?fast=1&read=5000');
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
    const launcher = page.getByRole('button', { name: 'Ask the guide' });
    await expect(launcher).toBeVisible();
    expect(await inViewport(page, launcher)).toBe(true);
    await expect(page.getByLabel('Ask the guide')).toBeHidden();
    await shot(page, testInfo, '1-launcher');

    await launcher.tap();
    await expect(page.getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true');
    const chip = page.getByRole('button', { name: 'Compare the plans and start a trial' });
    expect(await inViewport(page, page.getByLabel('Ask the guide'))).toBe(true);
    expect(await inViewport(page, chip)).toBe(true);
    await shot(page, testInfo, '2-open');

    await chip.tap();
    const start = page.getByRole('button', { name: 'Start the tour' });
    await expect(start).toBeVisible();
    expect(await inViewport(page, start)).toBe(true);
    await expect(page.locator('#run-status')).toHaveText('The plan is ready: tap Start the tour to begin.');
    // No key names on a touch screen: the panel's hint speaks of taps, and nothing says "Space".
    await expect(panel(page).locator('.hint .touch')).toBeVisible();
    await expect(panel(page).locator('.hint .keys')).toBeHidden();
    await expect(page.getByText(/Space|Esc\b/)).toHaveCount(0);
    // The step buttons are big enough for a finger.
    const remove = panel(page).getByRole('button', { name: 'Remove step 1' });
    const box = await remove.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(40);
    expect(box!.height).toBeGreaterThanOrEqual(40);
    await shot(page, testInfo, '3-announced');

    await start.tap();
    await expect.poll(() => page.evaluate(() => window.__demo!.plan.todos.get('t3')?.status), { timeout: 10_000 }).toBe('in_progress');
    await expect(page.locator('#tier-team')).toHaveClass(/guide-highlight/);
    await expect(page.locator('#narration')).toBeVisible();
    await expect(page.locator('#run-status')).toHaveText('Touring… Stop ends it.');
    const stop = page.getByRole('button', { name: 'Stop' });
    expect(await inViewport(page, stop)).toBe(true);
    expect(await inViewport(page, panel(page).locator('li[aria-current="step"]'))).toBe(true);
    // The narration sits above the sheet, never under it.
    const sheetTop = (await page.locator('#guide').boundingBox())!.y;
    const bubble = (await page.locator('#narration').boundingBox())!;
    expect(bubble.y + bubble.height).toBeLessThanOrEqual(sheetTop + 0.5);
    expect(bubble.y).toBeGreaterThanOrEqual(0);
    await shot(page, testInfo, '4-touring');
    await readmeShot(page, 'demo-phone-tour.png');

    // Later steps come into view in the plan as they start.
    await expect.poll(() => page.evaluate(() => window.__demo!.plan.todos.get('t7')?.status), { timeout: 20_000 }).toBe('in_progress');
    // t7 sends the trial form, which asks first: the question is in view, then the step is.
    const allow = page.getByRole('button', { name: 'Allow', exact: true });
    await expect(allow).toBeVisible();
    expect(await inViewport(page, allow)).toBe(true);
    await allow.tap();
    expect(await inViewport(page, panel(page).locator('li[aria-current="step"]'))).toBe(true);
    await stop.tap();
    await expect(page.locator('#run-status')).toHaveText('Tour stopped.');
  });

  test('the comparison table scrolls sideways in its box instead of being cut, and the page does not', async ({ page }, testInfo) => {
    await open(page, '/commercial?fast=1');
    const box = page.getByRole('region', { name: 'Compare the plans' });
    await box.scrollIntoViewIfNeeded();
    const sizes = await box.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    // Every column can be reached: scrolled to its end, the last column is in view.
    await box.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    const business = page.getByRole('columnheader', { name: 'Business' });
    expect(await inViewport(page, business)).toBe(true);
    // The feature names stay put while the columns scroll.
    expect(await inViewport(page, page.getByRole('rowheader', { name: 'Members' }))).toBe(true);
    await shot(page, testInfo, '1-table-scrolled');
  });
});

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the announcement shows the summary once and only the buttons that apply', async ({ page }, testInfo) => {
    await open(page, '/?fast=1');
    await page.getByRole('button', { name: 'Compare the plans and start a trial' }).click();
    const summary = 'I will compare the three plans with you, then start a Team trial on the trial form.';
    await expect(page.getByRole('button', { name: 'Start the tour' })).toBeFocused();
    await expect(page.getByText(summary)).toHaveCount(1);
    await expect(page.locator('#run-status')).toHaveText('The plan is ready: press Space or Start the tour to begin, Esc to cancel.');
    const buttons = await page
      .locator('#guide')
      .getByRole('button')
      .filter({ visible: true })
      .evaluateAll((elements) =>
        elements.map(
          (element) => `${element.getAttribute('aria-label') ?? element.textContent?.trim()}${(element as HTMLButtonElement).disabled ? ' (disabled)' : ''}`,
        ),
      );
    expect(buttons).toEqual([
      'Settings',
      // The selected step's own buttons (the first step cannot move up).
      'Edit step 1',
      'Move step 1 up (disabled)',
      'Move step 1 down',
      'Remove step 1',
      'Start the tour',
      'Cancel',
    ]);
    await shot(page, testInfo, '1-announced');
    await readmeShot(page, 'demo-announce.png');
    await page.keyboard.press('Escape');
    await expect(page.locator('#run-status')).toHaveText('Tour cancelled. Ask again whenever you like.');
  });
});
