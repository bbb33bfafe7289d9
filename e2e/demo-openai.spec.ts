import type { Page } from '@playwright/test';
import { test, expect, openDemo as open, shot } from './fixtures.js';

// The demo pointed at an OpenAI-compatible endpoint through its settings dialog: the local fake
// server (e2e/fake-openai-server.mjs, started by playwright.config.ts) speaks real SSE. Also: a
// model reply full of HTML and script shows as text and runs nothing.

const FAKE = `http://127.0.0.1:${process.env.E2E_FAKE_PORT ?? 5199}`;
const KEY = 'sk-test-do-not-store-4242';

interface Received {
  model: string;
  authorization?: string;
  kind: string;
  stream: boolean;
  task: string;
}

test.use({ viewport: { width: 1280, height: 860 } });

/** What the fake server received for `model` (tests running in parallel use their own model names). */
async function received(page: Page, model: string): Promise<Received[]> {
  const response = await page.request.get(`${FAKE}/__requests`);
  return ((await response.json()) as Received[]).filter((entry) => entry.model === model);
}

async function connect(page: Page, model: string): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('An OpenAI-compatible endpoint').check();
  await page.getByLabel('Base URL').fill(`${FAKE}/v1`);
  await page.locator('#openai-model').fill(model);
  await page.getByLabel('API key (optional)').fill(KEY);
  await page.locator('#settings-save').click();
  await expect(page.locator('#model-badge')).toHaveText(`Model: ${model} at ${FAKE}/v1 (OpenAI-compatible).`);
}

test('the guide runs on an OpenAI-compatible endpoint set in the settings, over SSE', async ({ page }, testInfo) => {
  const model = `fake-tour-${test.info().workerIndex}-${Date.now()}`;
  await open(page, '/?fast=1&read=3000'); // narrations stay up long enough to be asserted
  await connect(page, model);
  await shot(page, testInfo, '1-connected');

  await page.getByLabel('Ask the guide').fill('Show me the Team plan');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.locator('plan-panel').locator('.summary')).toHaveText('Remote model: a short look at the Team plan.');
  await page.getByRole('button', { name: 'Start the tour' }).click();
  await expect(page.locator('#narration-text')).toHaveText('The remote model says: Team is the one to try.');
  await expect(page.locator('#tier-team')).toHaveClass(/guide-highlight/);
  await shot(page, testInfo, '2-remote-narration');
  await expect(page.locator('#run-status')).toHaveText('Tour finished: Showed the Team plan.', { timeout: 15_000 });
  await expect(page.locator('plan-panel').locator('li').filter({ hasText: 'Done' })).toHaveCount(3);

  const requests = await received(page, model);
  expect(requests.map((request) => request.kind)).toEqual(['plan', 'turn', 'turn', 'turn']);
  expect(requests.every((request) => request.stream)).toBe(true);
  expect(requests.every((request) => request.authorization === `Bearer ${KEY}`)).toBe(true);

  // The key lives in memory only: not in localStorage (settings or plan), not in sessionStorage.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toContain(KEY);
  expect(stored).toContain(model);

  // After a reload the endpoint is remembered, the key is not.
  await open(page, '/commercial?fast=1');
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Base URL')).toHaveValue(`${FAKE}/v1`);
  await expect(page.getByLabel('API key (optional)')).toHaveValue('');
  await page.keyboard.press('Escape');
});

test('the key can be kept for the tab in sessionStorage, never in localStorage', async ({ page }) => {
  const model = `fake-session-${test.info().workerIndex}-${Date.now()}`;
  await open(page);
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('An OpenAI-compatible endpoint').check();
  await page.getByLabel('Base URL').fill(`${FAKE}/v1`);
  await page.locator('#openai-model').fill(model);
  await page.getByLabel('API key (optional)').fill(KEY);
  await page.getByLabel('Keep the key for this tab (sessionStorage)').check();
  await page.locator('#settings-save').click();
  // What the user waits for before leaving: the settings applied (they are saved when the dialog
  // closes, a moment after the click; reopening at once raced that save, 1 run in 48).
  await expect(page.locator('#model-badge')).toHaveText(`Model: ${model} at ${FAKE}/v1 (OpenAI-compatible).`);
  await open(page);
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(KEY);
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).toContain(KEY);
  await page.getByRole('tab', { name: 'Notes' }).click();
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Content (markdown)').fill('remote edit');
  await page.getByLabel('Edit with an instruction').fill('Shout it');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByLabel('Content (markdown)')).toHaveValue('REMOTE EDIT\n\n(rewritten by the remote model)');
  const requests = await received(page, model);
  expect(requests.map((request) => [request.kind, request.authorization])).toEqual([['edit', `Bearer ${KEY}`]]);
});

test('a model reply carrying <img onerror> and <script> shows as text and runs nothing', async ({ page }, testInfo) => {
  const model = `fake-hostile-${test.info().workerIndex}-${Date.now()}`;
  const hostile = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';
  // Narrations stay up for 3 s, so a busy machine cannot miss the bubble before it moves on.
  await open(page, '/?fast=1&read=3000');
  await connect(page, model);

  await page.getByLabel('Ask the guide').fill('A hostile test');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.locator('plan-panel').locator('.summary')).toHaveText(`Showing you ${hostile}`);
  await expect(page.locator('plan-panel').locator('li').first()).toContainText(`Say ${hostile}`);
  await page.keyboard.press('Space');
  await expect(page.locator('#narration-text')).toHaveText(`Look: ${hostile}`);
  await shot(page, testInfo, '1-hostile-narration-as-text');
  await expect(page.locator('#run-status')).toHaveText(`Tour finished: Finished ${hostile}`, { timeout: 15_000 });
  await shot(page, testInfo, '2-hostile-finish-as-text');

  const injected = await page.evaluate(() => ({
    flag: (window as unknown as { __xss?: number }).__xss,
    images: document.querySelectorAll('#guide img, #narration img, #view img').length,
    scripts: document.querySelectorAll('#guide script, #narration script, #view script').length,
    panel: document.querySelector('plan-panel')?.shadowRoot?.querySelectorAll('img, script').length,
  }));
  expect(injected).toEqual({ flag: undefined, images: 0, scripts: 0, panel: 0 });
});

test('a broken endpoint: the guide and the notes say what went wrong, a stuck one can be stopped, and nothing stays busy', async ({
  page,
  pageErrors,
}, testInfo) => {
  // Served by page.route, not by a server: a 401, then a request that never gets an answer.
  const BROKEN = 'http://127.0.0.1:5197/v1';
  let mode: 'unauthorized' | 'stuck' = 'unauthorized';
  await page.route(`${BROKEN}/chat/completions`, async (route) => {
    if (mode === 'stuck') return; // never answered
    await route.fulfill({
      status: 401,
      headers: { 'access-control-allow-origin': '*', 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: 'Incorrect API key provided.' } }),
    });
  });
  await open(page);
  // A base URL without its scheme cannot be fetched: the dialog refuses it.
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('An OpenAI-compatible endpoint').check();
  await page.getByLabel('Base URL').fill('127.0.0.1:5197/v1');
  await page.locator('#openai-model').fill('broken');
  await page.locator('#settings-save').click();
  await expect(page.locator('#settings')).toBeVisible();
  expect(await page.getByLabel('Base URL').evaluate((input: HTMLInputElement) => input.validationMessage)).toContain('http://');
  await page.getByLabel('Base URL').fill(BROKEN);
  await page.locator('#settings-save').click();
  await expect(page.locator('#model-badge')).toHaveText(`Model: broken at ${BROKEN} (OpenAI-compatible).`);

  await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
  // The planning call failed: nothing toured, and the status says so.
  await expect(page.locator('#run-status')).toContainText('Could not plan a tour: openai-compatible answered HTTP 401');
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Ask', exact: true })).toBeEnabled();
  await shot(page, testInfo, '1-unauthorized');

  await page.getByRole('tab', { name: 'Notes' }).click();
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Content (markdown)').fill('Hello.');
  await page.getByLabel('Edit with an instruction').fill('Shout it');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('#note-status')).toContainText('The rewrite failed: openai-compatible answered HTTP 401');
  await expect(page.getByRole('button', { name: 'Apply' })).toBeEnabled();

  mode = 'stuck';
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('#note-status')).toHaveText('Rewriting with the model…');
  await page.locator('#note-stop').click();
  await expect(page.locator('#note-status')).toHaveText('Rewrite cancelled; the note is unchanged.');
  await expect(page.getByLabel('Content (markdown)')).toHaveValue('Hello.');
  await page.getByRole('tab', { name: 'Tour' }).click();
  await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
  await expect(page.locator('#run-status')).toHaveText('Planning the tour…');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('#run-status')).toHaveText('Tour stopped.');
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Ask', exact: true })).toBeEnabled();
  await shot(page, testInfo, '2-stuck-stopped');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  // Chromium logs each 401 response as a console error: expected here, and nothing else.
  pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((error) => !/status of 401/.test(error)));
});

test('a new ask that fails leaves the finished tour labelled finished, not "Stopped by an error"', async ({ page, pageErrors }) => {
  const model = `fake-relabel-${test.info().workerIndex}-${Date.now()}`;
  let failing = false;
  await page.route(`${FAKE}/v1/chat/completions`, async (route) => {
    if (!failing) return route.continue();
    await route.fulfill({
      status: 401,
      headers: { 'access-control-allow-origin': '*', 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: 'Incorrect API key provided.' } }),
    });
  });
  await open(page, '/?fast=1&read=300');
  await connect(page, model);
  await page.getByLabel('Ask the guide').fill('Show me the Team plan');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeVisible();
  await page.keyboard.press('Space');
  await expect(page.locator('#run-status')).toHaveText('Tour finished: Showed the Team plan.', { timeout: 15_000 });
  const panel = page.locator('plan-panel');
  await expect(panel.locator('.meta')).toHaveText('3 of 3 done · Finished');

  failing = true;
  await page.getByLabel('Ask the guide').fill('How do I get a refund?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.locator('#run-status')).toContainText('HTTP 401');
  await expect(panel.locator('.meta')).toHaveText('3 of 3 done · Finished');
  await expect(panel.locator('.summary')).toHaveText('Remote model: a short look at the Team plan.');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((error) => !/status of 401/.test(error)));
});
