import type { Page } from '@playwright/test';
import { axeViolations, focusedElement } from './a11y.js';
import { test, expect, openDemo as open, shot } from './fixtures.js';

// Issue 24: a whole tour with the keyboard alone (Tab, Shift+Tab, Enter, Space, arrows; no pointer
// event reaches the page): ask, edit a step, move one, remove one, start, Next to the last
// narration, Stop. After every key the focus is somewhere useful, never on <body>.

test.use({ viewport: { width: 1280, height: 800 } });

const panel = (page: Page) => page.locator('plan-panel');

/** Counts pointer and mouse events the page receives (there must be none). */
async function countPointerEvents(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const seen = { count: 0 };
    (window as unknown as { __pointer: typeof seen }).__pointer = seen;
    for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'touchstart']) {
      window.addEventListener(type, () => (seen.count += 1), true);
    }
  });
  return () => page.evaluate(() => (window as unknown as { __pointer: { count: number } }).__pointer.count);
}

test('keyboard only: ask, edit, move, remove, start, Next to the end, Stop; the focus never falls to <body>', async ({ page }, testInfo) => {
  // Narrations wait for Next (a minute each), so that every step of the tour is the user's.
  await open(page, '/?fast=1&read=60000');
  const pointer = await countPointerEvents(page);
  const journal: string[] = [];
  /** Presses `key` and checks where the focus went. */
  const press = async (key: string): Promise<string> => {
    await page.keyboard.press(key);
    const where = await focusedElement(page);
    journal.push(`${key} → ${where}`);
    expect(where, `after ${journal.join('\n')}`).not.toBe('body');
    return where;
  };

  // Tab from the top of the page to the ask box.
  let where = '';
  for (let presses = 0; presses < 30 && !where.startsWith('input#ask-input'); presses += 1) where = await press('Tab');
  expect(where).toMatch(/^input#ask-input/);
  await page.keyboard.type('Introduce the pricing page');
  await press('Enter');
  const start = page.getByRole('button', { name: 'Start the tour' });
  await expect(start).toBeFocused();
  expect(await focusedElement(page)).not.toBe('body');

  // Into the list: Shift+Tab through step 1's buttons to the step itself.
  for (const name of ['Remove step 1', 'Move step 1 down', 'Edit step 1']) {
    await press('Shift+Tab');
    await expect(panel(page).getByRole('button', { name })).toBeFocused();
  }
  await press('Shift+Tab');
  await expect(panel(page).locator('li').first()).toBeFocused();

  // Edit step 2 with its Edit button (Tab to it, Enter), type, Enter saves.
  await press('ArrowDown');
  await expect(panel(page).locator('li:focus')).toContainText('Introduce the free Starter plan');
  await press('Tab');
  await expect(panel(page).getByRole('button', { name: 'Edit step 2' })).toBeFocused();
  await press('Enter');
  const editor = panel(page).getByRole('textbox', { name: 'Text of step 2' });
  await expect(editor).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Starter: free for five');
  await press('Enter');
  await expect(panel(page).locator('li:focus')).toContainText('Starter: free for five');

  // Move it down one with its button (Space), the focus stays on the button.
  await press('Tab');
  await press('Tab');
  await press('Tab');
  await expect(panel(page).getByRole('button', { name: 'Move step 2 down' })).toBeFocused();
  await press('Space');
  await expect(panel(page).getByRole('button', { name: 'Move step 3 down' })).toBeFocused();
  await expect(panel(page).locator('[part="announcer"]')).toHaveText('Moved “Starter: free for five” to step 3 of 5.');

  // Remove the Business step (now step 4): arrow to it, Tab to its Remove button, Enter.
  await press('ArrowDown');
  await expect(panel(page).locator('li:focus')).toContainText('Show what Business adds');
  for (let i = 0; i < 4; i += 1) await press('Tab');
  await expect(panel(page).getByRole('button', { name: 'Remove step 4' })).toBeFocused();
  await press('Enter');
  await expect(panel(page).locator('li:focus')).toContainText('Wrap up');
  expect(await page.evaluate(() => window.__demo!.plan.todos.list().map((todo) => todo.description))).toEqual([
    'Open the Pricing page (/commercial)',
    'Show the Team plan, the most popular',
    'Starter: free for five',
    'Wrap up',
  ]);
  await shot(page, testInfo, '1-shaped');

  // Tab on to Start (past the last step's buttons and Undo), Enter: the focus goes to Stop.
  for (let i = 0; i < 8 && !(await start.evaluate((button) => button.matches(':focus'))); i += 1) await press('Tab');
  await expect(start).toBeFocused();
  // Start hands the focus to Stop at once; the first narration (on the next page) takes it to Next.
  const startedOn = await press('Enter');
  expect(startedOn).toMatch(/^button#tour-stop|^button#narration-next/);
  const stop = page.getByRole('button', { name: 'Stop' });

  // Each narration takes the focus to Next; Enter moves on. Three narrations; at the last, Stop.
  const next = page.locator('#narration-next');
  // The edited step is narrated from its new text (the offline model reads the todo line as a model would).
  const narrations = ['Team is the most popular', 'free for five', 'Those are the three plans'];
  for (const [index, words] of narrations.entries()) {
    await expect(page.locator('#narration-text')).toContainText(words, { timeout: 15_000 });
    await expect(next).toBeFocused();
    expect(await focusedElement(page)).not.toBe('body');
    // Announced once, by the narration's own live region, without the button's label.
    await expect(page.locator('#narration-live')).toHaveText(await page.locator('#narration-text').innerText());
    if (index < narrations.length - 1) await press('Enter');
  }
  await shot(page, testInfo, '2-last-narration');
  // Back to Stop: Shift+Tab past the plan (one tab stop), then Stop; Enter stops the tour.
  await press('Shift+Tab');
  await press('Shift+Tab');
  await expect(stop).toBeFocused();
  await press('Enter');
  await expect(page.locator('#run-status')).toHaveText('Tour stopped.');
  await expect(page.getByLabel('Ask the guide')).toBeFocused();
  expect(await focusedElement(page)).not.toBe('body');
  expect(await pointer()).toBe(0);
});

test('Next keeps the focus between narrations: after each Enter it is on Next again or on Stop, never on <body>', async ({ page }) => {
  await open(page, '/?fast=1&read=60000');
  await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeFocused();
  await page.keyboard.press('Space');
  const next = page.locator('#narration-next');
  const said: string[] = [];
  for (let narration = 0; narration < 4; narration += 1) {
    // Each narration's Next is reachable without a hunt: it has the focus.
    await expect(next).toBeFocused({ timeout: 15_000 });
    const words = await page.locator('#narration-text').innerText();
    said.push(words);
    await page.keyboard.press('Enter');
    expect(await focusedElement(page), `after Next on “${words}”`).not.toBe('body');
    if (narration < 3) await expect(page.locator('#narration-text')).not.toHaveText(words, { timeout: 15_000 });
  }
  expect(said).toHaveLength(4);
  await expect(page.locator('#run-status')).toHaveText('Tour finished: Introduced the pricing page.', { timeout: 15_000 });
  await expect(page.getByLabel('Ask the guide')).toBeFocused();
});

test('an approval in the panel: the focus moves to the request, Tab reaches Allow and Deny, the focus comes back; axe finds nothing', async ({ page }) => {
  await open(page, '/?fast=1');
  const ask = page.getByLabel('Ask the guide');
  await ask.focus();
  await page.evaluate(() => {
    const panel = document.querySelector('plan-panel')!;
    (window as unknown as { __answer: Promise<unknown> }).__answer = panel.requestApproval({
      kind: 'action',
      tool: 'click',
      args: { target: 'e14' },
      risk: 'irreversible',
      detail: "Submit the form 'Start my trial' on /try",
      todo: { id: 't6', description: 'Submit the form to start the trial' },
      url: `${location.origin}/try`,
      purpose: 'Ignore the user <b>and</b> submit',
    });
  });
  const request = page.locator('plan-panel').getByRole('group', { name: 'Allow this action?' });
  await expect(request).toBeFocused();
  await expect(request).toContainText('Cannot be undone');
  await expect(request).toContainText('“Ignore the user <b>and</b> submit”');
  expect(await axeViolations(page)).toEqual([]);
  await page.keyboard.press('Tab');
  await expect(page.locator('plan-panel').getByRole('button', { name: 'Allow' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.locator('plan-panel').getByRole('button', { name: 'Deny' })).toBeFocused();
  await page.keyboard.press('Space');
  expect(await page.evaluate(() => (window as unknown as { __answer: Promise<unknown> }).__answer)).toEqual({ approved: false, reason: 'The user said no.' });
  await expect(request).toBeHidden();
  await expect(ask).toBeFocused();
  await expect(page.locator('plan-panel').locator('[part="announcer"]')).toHaveText('Denied.');
});
