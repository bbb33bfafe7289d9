import type { Page } from '@playwright/test';
import { test, expect, openDemo as open, shot } from './fixtures.js';

// The user shapes the plan before it runs (issue 13, part 7): at the announcement the plan panel
// lets them edit a step's text, remove a step (with undo), move steps and approve, from the
// keyboard alone; the tour then runs the plan as they left it.

test.use({ viewport: { width: 1280, height: 800 } });

const panel = (page: Page) => page.locator('plan-panel');
const steps = (page: Page) => page.evaluate(() => window.__demo!.plan.todos.list().map((todo) => `${todo.id} ${todo.description}`));

/** Records what the guide says, in order. */
async function recordNarration(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const said: string[] = [];
    (window as unknown as { __said: string[] }).__said = said;
    window.__demo!.plan.on('action', ({ action }) => {
      if (action.type === 'narrate') said.push(action.text);
    });
  });
  return () => page.evaluate(() => (window as unknown as { __said: string[] }).__said);
}

test('keyboard only: remove, edit and move steps, approve, and the tour runs the edited plan', async ({ page }, testInfo) => {
  await open(page, '/?fast=1&read=200');
  const said = await recordNarration(page);
  await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
  const start = page.getByRole('button', { name: 'Start the tour' });
  await expect(start).toBeFocused();
  await expect(panel(page).locator('.hint .keys')).toBeVisible();

  // Back from Start into the list: the selected step's buttons (issue 24: in the Tab order), then the
  // step itself (one tab stop for the list); then down to the Starter step and remove it.
  await page.keyboard.press('Shift+Tab');
  await expect(panel(page).getByRole('button', { name: 'Remove step 1' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(panel(page).getByRole('button', { name: 'Move step 1 down' })).toBeFocused();
  await page.keyboard.press('Shift+Tab'); // "Move step 1 up" is disabled: skipped
  await expect(panel(page).getByRole('button', { name: 'Edit step 1' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(panel(page).locator('li').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(panel(page).locator('li:focus')).toContainText('Introduce the free Starter plan');
  await page.keyboard.press('Delete');
  await expect(panel(page).locator('[aria-live="polite"]')).toHaveText('Removed “Introduce the free Starter plan”. Undo brings it back (Ctrl+Z).');
  await expect(panel(page).locator('li:focus')).toContainText('Show the Team plan, the most popular');

  // Edit the Team step's text: Enter opens the editor, Enter saves.
  await page.keyboard.press('Enter');
  const editor = panel(page).getByRole('textbox', { name: 'Text of step 2' });
  await expect(editor).toBeFocused();
  await editor.fill('Point at the Team plan');
  await page.keyboard.press('Enter');
  await expect(panel(page).locator('li:focus')).toContainText('Point at the Team plan');

  // Move it below the Business step.
  await page.keyboard.press('Alt+ArrowDown');
  await expect(panel(page).locator('[aria-live="polite"]')).toHaveText('Moved “Point at the Team plan” to step 3 of 4.');
  await expect(panel(page).locator('li:focus')).toContainText('Point at the Team plan');
  expect(await steps(page)).toEqual(['t1 Open the Pricing page (/commercial)', 't4 Show what Business adds', 't3 Point at the Team plan', 't5 Wrap up']);
  await shot(page, testInfo, '1-edited');

  // Tab goes through the step's four buttons, then Undo (a step was removed), then Start; Enter approves.
  for (const name of ['Edit step 3', 'Move step 3 up', 'Move step 3 down', 'Remove step 3']) {
    await page.keyboard.press('Tab');
    await expect(panel(page).getByRole('button', { name })).toBeFocused();
  }
  await page.keyboard.press('Tab');
  await expect(panel(page).getByRole('button', { name: 'Undo' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(start).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#run-status')).toHaveText('Tour finished: Introduced the pricing page.', { timeout: 20_000 });
  expect(await said()).toEqual([
    'Business adds SSO, an audit log and priority support, for $29 per member.',
    'Point at the Team plan.',
    'Those are the three plans. The table below compares them feature by feature.',
  ]);
  expect(await page.evaluate(() => window.__demo!.plan.todos.list().map((todo) => `${todo.id}:${todo.status}:${todo.expected_turn}`))).toEqual([
    't1:completed:1',
    't4:completed:2',
    't3:completed:3',
    't5:completed:4',
  ]);
  await shot(page, testInfo, '2-finished');
});

test('a removed step comes back with Ctrl+Z in its place, and Escape in the editor keeps the old text', async ({ page }) => {
  await open(page, '/?fast=1');
  await page.getByRole('button', { name: 'Show me how to try it' }).click();
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeFocused();
  await panel(page).locator('li').nth(2).click();
  await page.keyboard.press('Backspace');
  await expect(panel(page).locator('li')).toHaveCount(4);
  await expect(panel(page).locator('.undo')).toHaveText('Removed “Point out the plan choice”. Undo');
  await page.keyboard.press('Control+z');
  await expect(panel(page).locator('li')).toHaveCount(5);
  await expect(panel(page).locator('li').nth(2)).toContainText('Point out the plan choice');
  await expect(panel(page).locator('li').nth(2)).toBeFocused();

  await page.keyboard.press('F2');
  await panel(page).getByRole('textbox').fill('Something else');
  await page.keyboard.press('Escape');
  await expect(panel(page).locator('li').nth(2)).toContainText('Point out the plan choice');
  expect(await page.evaluate(() => document.body.dataset.tour)).toBe('announcing');
  // Escape on a step (not in the editor) declines, as at any announcement.
  await page.keyboard.press('Escape');
  await expect(page.locator('#run-status')).toHaveText('Tour cancelled. Ask again whenever you like.');
  expect(await steps(page)).toEqual([]);
});
