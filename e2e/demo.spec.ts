import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { test, expect, openDemo as open, shot } from './fixtures.js';

// The demo with its offline model: a whole tour, the Space/Escape/Cancel announcement (the plan
// panel's review), Stop, a reload in the middle of a tour, IndexedDB storage and a note edited by
// instruction. The summary shows once, in the plan panel (issue 13, part 6).
// `?fast=1` shortens every pause of the tour; `?read=<ms>` fixes how long each narration stays.

test.use({ viewport: { width: 1280, height: 860 } });

// The README's screenshot is refreshed only on request (UPDATE_README_SHOT=1 npm run test:e2e), so
// test runs never change tracked files.
const README_SHOT = fileURLToPath(new URL('../docs/demo-mid-tour.png', import.meta.url));

const todoStatuses = (page: Page) => page.evaluate(() => window.__demo?.plan.todos.list().map((todo) => `${todo.id}:${todo.status}`) ?? []);
const calls = (page: Page) => page.evaluate(() => ({ ...window.__demo!.calls }));
const statusOf = (page: Page, id: string) => page.evaluate((todoId) => window.__demo?.plan.todos.get(todoId)?.status, id);
const panelItems = (page: Page) => page.locator('plan-panel').locator('li');
const panelSummary = (page: Page) => page.locator('plan-panel').locator('.summary');

test('a full tour: ask, plan, Space, narrate, navigate, every todo done in order', async ({ page }, testInfo) => {
  await open(page, '/?fast=1&read=1000'); // narrations stay up long enough to be asserted
  await shot(page, testInfo, '1-home');
  // Record the order in which todos complete.
  await page.evaluate(() => {
    const order: string[] = [];
    (window as unknown as { __order: string[] }).__order = order;
    window.__demo!.plan.on('todos-change', ({ todos }) => {
      for (const todo of todos) if (todo.status === 'completed' && !order.includes(todo.id)) order.push(todo.id);
    });
  });

  await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
  await expect(panelSummary(page)).toHaveText('I will take you to the pricing page and introduce its three plans.');
  await expect(page.locator('#run-status')).toHaveText('The plan is ready: press Space or Start the tour to begin, Esc to cancel.');
  await expect(panelItems(page)).toHaveCount(5);
  await expect(panelItems(page).first()).toContainText('Pending');
  await shot(page, testInfo, '2-announced');
  expect(await calls(page)).toEqual({ plan: 1, turn: 0, edit: 0 });

  await page.keyboard.press('Space');
  await expect(page.locator('#narration')).toBeVisible();
  await shot(page, testInfo, '3-touring');
  await expect(page.locator('#run-status')).toHaveText('Tour finished: Introduced the pricing page.', { timeout: 20_000 });
  await shot(page, testInfo, '4-finished');

  expect(await page.evaluate(() => (window as unknown as { __order: string[] }).__order)).toEqual(['t1', 't2', 't3', 't4', 't5']);
  expect(new URL(page.url()).pathname).toBe('/commercial');
  await expect(page.locator('.site-nav a[aria-current="page"]')).toHaveText('Pricing');
  await expect(panelItems(page).filter({ hasText: 'Done' })).toHaveCount(5);
  await expect(page.locator('plan-panel').locator('.meta')).toHaveText('5 of 5 done · Finished');
  await expect(page.locator('#narration')).toBeHidden();
  expect((await calls(page)).plan).toBe(1);
});

test('Space starts the tour; Escape and Cancel decline it; Stop aborts it', async ({ page }, testInfo) => {
  // Narrations long enough that Stop lands mid-tour.
  await open(page, '/?fast=1&read=1500');
  const ask = async (task: string) => {
    await page.getByLabel('Ask the guide').fill(task);
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Start the tour' })).toBeVisible();
  };

  await ask('Show me how to try it');
  await page.keyboard.press('Escape');
  await expect(page.locator('#run-status')).toHaveText('Tour cancelled. Ask again whenever you like.');
  expect(await todoStatuses(page)).toEqual([]);
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeHidden();
  await shot(page, testInfo, '1-declined-with-escape');

  await ask('Show me how to try it');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('#run-status')).toHaveText('Tour cancelled. Ask again whenever you like.');
  expect(await todoStatuses(page)).toEqual([]);
  expect(await calls(page)).toEqual({ plan: 2, turn: 0, edit: 0 });

  await ask('Show me how to try it');
  await page.keyboard.press('Space');
  // Ids are never reused within a plan: this third plan's todos are t11 to t15.
  expect((await todoStatuses(page))[0]).toMatch(/^t11:/);
  await expect.poll(() => statusOf(page, 't12')).toBe('completed');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('#run-status')).toHaveText('Tour stopped.');
  await expect(page.getByRole('button', { name: 'Continue the tour' })).toBeVisible();
  const stoppedAt = await todoStatuses(page);
  expect(stoppedAt.filter((entry) => entry.endsWith(':completed')).length).toBeLessThan(5);
  await shot(page, testInfo, '2-stopped');
  // Nothing moves after Stop: the run has given its lease back (a run without it writes nothing
  // more), and no turn was asked for or applied since.
  const turns = (await calls(page)).turn;
  await expect.poll(() => page.evaluate(async () => (await window.__demo!.plan.runHolder()) === null)).toBe(true);
  expect((await calls(page)).turn).toBe(turns);
  expect(await todoStatuses(page)).toEqual(stoppedAt);
});

test('a reload in the middle of a tour resumes from the stored plan without planning again', async ({ page }, testInfo) => {
  // Long narrations so the page can be caught mid-tour.
  await open(page, '/?fast=1&read=4000');
  await page.getByRole('button', { name: 'Compare the plans and start a trial' }).click();
  await page.getByRole('button', { name: 'Start the tour' }).click();
  await expect.poll(() => statusOf(page, 't3'), { timeout: 10_000 }).toBe('in_progress');
  await expect(page.locator('#narration')).toBeVisible();
  await expect(page.locator('#tier-team')).toHaveClass(/guide-highlight/);
  await shot(page, testInfo, '1-mid-tour');
  if (process.env.UPDATE_README_SHOT) {
    mkdirSync(fileURLToPath(new URL('../docs/', import.meta.url)), { recursive: true });
    await page.screenshot({ path: README_SHOT });
  }
  const before = await todoStatuses(page);
  expect(before.slice(0, 3)).toEqual(['t1:completed', 't2:completed', 't3:in_progress']);

  // A new page load (at the normal fast pace), as after a reload or a link from elsewhere.
  await open(page, '/commercial?fast=1');
  // Sending the trial form waits for the user: nothing is sent until Allow.
  await expect(page.getByText(/^Click the button "Start my trial"\. It sends the form .* to \/try/)).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#trial-result')).toHaveText('');
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(page.locator('#run-status')).toHaveText('Tour finished: Compared the plans and started a Team trial.', { timeout: 20_000 });
  await shot(page, testInfo, '2-resumed-and-finished');
  const after = await calls(page);
  expect(after.plan).toBe(0);
  expect(after.turn).toBeGreaterThanOrEqual(6);
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeHidden();
  expect(await todoStatuses(page)).toEqual(['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'].map((id) => `${id}:completed`));
  await expect(page.locator('#trial-result')).toContainText('Welcome aboard, Sam Rivera!');
  await expect(page.locator('plan-panel').locator('.summary')).toHaveText(
    'I will compare the three plans with you, then start a Team trial on the trial form.',
  );
});

test("the trial form is sent only with the user's Allow: Deny leaves it unsent, the guide is told and the tour goes on", async ({ page }) => {
  await open(page, '/?fast=1');
  await page.evaluate(() => {
    const log: string[] = [];
    (window as unknown as { __refused: string[] }).__refused = log;
    window.__demo!.plan.on('action', ({ action, decision, risk, reason }) => {
      if (decision === 'refused') log.push(`${action.type === 'tool' ? action.name : action.type} ${risk ?? ''}: ${reason ?? ''}`);
    });
  });
  await page.getByRole('button', { name: 'Compare the plans and start a trial' }).click();
  await page.getByRole('button', { name: 'Start the tour' }).click();
  await expect(page.getByText(/^Click the button "Start my trial"\. It sends the form .* to \/try/)).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(page.locator('#run-status')).toHaveText(/^Tour finished/, { timeout: 20_000 });
  await expect(page.locator('#trial-result')).toHaveText('');
  // The declined step says so in the panel, and is not counted done (issue 32).
  const declined = page.locator('plan-panel li[data-evidence="declined"]');
  await expect(declined.locator('.status')).toHaveText(['Declined']);
  await expect(page.locator('plan-panel .meta')).not.toHaveText(/^(\d+) of \1 done/);
  expect(await page.evaluate(() => (window as unknown as { __refused: string[] }).__refused)).toEqual([
    expect.stringMatching(/^click irreversible: the user declined/),
  ]);
});

test('IndexedDB storage: switch in the settings, the plan and notes survive a reload', async ({ page }, testInfo) => {
  await open(page);
  await page.getByRole('tab', { name: 'Notes' }).click();
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Title').fill('Kept in localStorage first');
  await page.locator('#note-save').click();

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('IndexedDB').check();
  await page.locator('#settings-save').click();
  await expect(page.locator('#run-status')).toContainText('IndexedDB');
  await shot(page, testInfo, '1-switched');

  // The note came along; a second one and a plan are written to IndexedDB only.
  await page.getByRole('tab', { name: 'Notes' }).click();
  await expect(page.locator('#notes-list button')).toHaveText(['Kept in localStorage first']);
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Title').fill('Written to IndexedDB');
  await page.getByLabel('Content (markdown)').fill('Only IndexedDB has this.');
  await page.locator('#note-save').click();
  await page.getByRole('tab', { name: 'Tour' }).click();
  await page.getByRole('button', { name: 'Show me how to try it' }).click();
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.locator('#run-status')).toHaveText('Tour finished: Showed how to start a trial.', { timeout: 20_000 });
  await page.evaluate(() => window.__demo!.plan.flush());

  const stored = await page.evaluate(
    () =>
      new Promise<{ todos: number; notes: string[] }>((resolve, reject) => {
        const request = indexedDB.open('planloop');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const get = request.result.transaction('plans').objectStore('plans').get('planloop-demo');
          get.onsuccess = () => {
            const snapshot = get.result as { todos: unknown[]; markdownDocs: Array<{ title: string }> };
            resolve({ todos: snapshot.todos.length, notes: snapshot.markdownDocs.map((doc) => doc.title) });
          };
          get.onerror = () => reject(get.error);
        };
      }),
  );
  expect(stored).toEqual({ todos: 5, notes: ['Kept in localStorage first', 'Written to IndexedDB'] });
  expect(await page.evaluate(() => localStorage.getItem('planloop-demo') ?? '')).not.toContain('Written to IndexedDB');

  await open(page, '/try?fast=1');
  expect(await page.evaluate(() => window.__demo!.settings.storage)).toBe('idb');
  expect(await todoStatuses(page)).toEqual(['t1', 't2', 't3', 't4', 't5'].map((id) => `${id}:completed`));
  await page.getByRole('tab', { name: 'Notes' }).click();
  await expect(page.locator('#notes-list button')).toHaveText(['Kept in localStorage first', 'Written to IndexedDB']);
  await page.locator('#notes-list button', { hasText: 'Written to IndexedDB' }).click();
  await expect(page.getByLabel('Content (markdown)')).toHaveValue('Only IndexedDB has this.');
  await shot(page, testInfo, '2-after-reload');
});

test('a note edited with an instruction through the model, and kept across a reload', async ({ page }, testInfo) => {
  await open(page);
  await page.getByRole('tab', { name: 'Notes' }).click();
  await expect(page.locator('#notes-list')).toContainText('No notes yet.');
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Title').fill('Pricing notes');
  await page.getByLabel('Content (markdown)').fill('Starter is free. Team costs $12 per member. Business adds SSO.');
  await page.locator('#note-save').click();
  await expect(page.locator('#note-status')).toHaveText('Saved.');

  await page.getByLabel('Edit with an instruction').fill('Make it a bulleted list');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('#note-status')).toHaveText('Rewritten by the model.');
  await expect(page.getByLabel('Content (markdown)')).toHaveValue('- Starter is free\n- Team costs $12 per member\n- Business adds SSO');
  expect(await calls(page)).toEqual({ plan: 0, turn: 0, edit: 1 });
  await shot(page, testInfo, '1-rewritten');

  await open(page);
  await page.getByRole('tab', { name: 'Notes' }).click();
  await page.locator('#notes-list button', { hasText: 'Pricing notes' }).click();
  await expect(page.getByLabel('Content (markdown)')).toHaveValue('- Starter is free\n- Team costs $12 per member\n- Business adds SSO');
});

test('the plan panel is keyboard navigable and announces progress politely', async ({ page }) => {
  await open(page, '/?fast=1&read=3000');
  await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
  await page.getByRole('button', { name: 'Start the tour' }).click();
  await expect.poll(() => statusOf(page, 't2')).toBe('in_progress');
  const panel = page.locator('plan-panel');
  await expect(panel.locator('li[aria-current="step"]')).toContainText('Introduce the free Starter plan');
  await expect(panel.locator('[aria-live="polite"]')).toContainText('Now: Introduce the free Starter plan.');
  await panel.locator('li[tabindex="0"]').focus();
  await page.keyboard.press('ArrowDown');
  await expect(panel.locator('li:focus')).toContainText('Show the Team plan');
  await page.keyboard.press('End');
  await expect(panel.locator('li:focus')).toContainText('Wrap up');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('#run-status')).toHaveText('Tour stopped.');
});

test('a new ask plans afresh even when an earlier plan left todos undone', async ({ page }) => {
  await open(page);
  // What a real model sometimes leaves behind: a finished tour with a todo never marked done.
  await page.evaluate(() => window.__demo!.plan.todos.reset([{ intent: 'narrate', description: 'A step from an old tour' }]));
  await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
  await expect(panelSummary(page)).toHaveText('I will take you to the pricing page and introduce its three plans.');
  // The summary streams before the planning call returns: wait for the new todos themselves.
  await expect(panelItems(page)).toHaveCount(5);
  expect((await calls(page)).plan).toBe(1);
  const descriptions = await page.evaluate(() => window.__demo!.plan.todos.list().map((todo) => todo.description));
  expect(descriptions).not.toContain('A step from an old tour');
});

test('at the announcement, Space on a focused button does what the button says, and Escape in the settings only closes them', async ({ page }) => {
  await open(page);
  const ask = async () => {
    await page.getByRole('button', { name: 'Show me how to try it' }).click();
    await expect(page.getByRole('button', { name: 'Start the tour' })).toBeFocused();
  };

  // A keyboard user tabs to Cancel and presses Space: that cancels, it does not start.
  await ask();
  await page.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('Space');
  await expect(page.locator('#run-status')).toHaveText('Tour cancelled. Ask again whenever you like.');
  expect(await todoStatuses(page)).toEqual([]);
  expect((await calls(page)).turn).toBe(0);

  // Only the buttons that apply: at the announcement Cancel declines, so there is no Stop beside it.
  await ask();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Ask', exact: true })).toBeHidden();
  // Space on a step of the plan does not start the tour: the user is working on the plan.
  await page.locator('plan-panel').locator('li').first().focus();
  await page.keyboard.press('Space');
  expect(await page.evaluate(() => document.body.dataset.tour)).toBe('announcing');

  // Escape in the settings dialog closes the dialog and leaves the announcement waiting.
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.locator('#settings')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('#settings')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeVisible();
  expect(await page.evaluate(() => document.body.dataset.tour)).toBe('announcing');
  await page.keyboard.press('Escape');
  await expect(page.locator('#run-status')).toHaveText('Tour cancelled. Ask again whenever you like.');
});

test('keyboard only: Escape stops a running tour and the focus comes back to the ask box', async ({ page }) => {
  await open(page, '/?fast=1&read=3000');
  await page.getByRole('button', { name: 'Introduce the pricing page' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.locator('#narration')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('#run-status')).toHaveText('Tour stopped.');
  await expect(page.getByLabel('Ask the guide')).toBeFocused();
});

test('Stop while a new ask is being planned leaves the earlier tour as it was, ready to continue', async ({ page }) => {
  // Normal pace (no ?fast=1): planning streams for about a second, long enough to stop it.
  await open(page, '/?read=3000');
  // An earlier tour, stopped after its first step.
  // (The plan holds its summary and task, as makeTodos leaves them; this tab's sessionStorage the tour's status.)
  await page.evaluate(() => {
    const plan = window.__demo!.plan;
    plan.setTaskPlan({
      task: 'Show me the docs',
      summary: 'I will show you the docs.',
      todos: [
        { intent: 'navigate', description: 'Open the Docs page (/docs)' },
        { intent: 'narrate', description: 'Go through the quick start' },
        { intent: 'finish', description: 'Wrap up' },
      ],
    });
    plan.todos.edit('t1', { status: 'completed' });
    sessionStorage.setItem('planloop-demo:tour', 'stopped');
  });
  await page.evaluate(() => window.__demo!.plan.flush());
  await open(page, '/?read=3000&resume=0');
  const panel = page.locator('plan-panel');
  await expect(panel.locator('.summary')).toHaveText('I will show you the docs.');

  await page.getByRole('button', { name: 'Compare the plans and start a trial' }).click();
  await expect(panel.locator('.summary')).not.toHaveText('I will show you the docs.');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('#run-status')).toHaveText('Tour stopped.');
  expect((await calls(page)).plan).toBe(1);
  // Nothing of the stopped planning is left: the earlier summary over the earlier todos, not
  // relabelled as stopped, and Continue goes on with the earlier task.
  await expect(panel.locator('.summary')).toHaveText('I will show you the docs.');
  await expect(panel.locator('.meta')).toHaveText('1 of 3 done');
  expect(await todoStatuses(page)).toEqual(['t1:completed', 't2:pending', 't3:pending']);
  expect(await page.evaluate(() => window.__demo!.plan.task)).toBe('Show me the docs');
  await page.getByRole('button', { name: 'Continue the tour' }).click();
  await expect(page.locator('#narration-text')).toHaveText('Four steps get a team going: a workspace, invites, calendars and a first rotation.');
  await page.getByRole('button', { name: 'Stop' }).click();
});

test('saving the settings mid-tour: the speed alone leaves the tour running; a storage switch carries it on', async ({ page }) => {
  await open(page, '/?fast=1&read=1500');
  await page.getByRole('button', { name: 'Compare the plans and start a trial' }).click();
  await page.getByRole('button', { name: 'Start the tour' }).click();
  await expect.poll(() => statusOf(page, 't2')).toBe('in_progress');

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('Fast').check();
  await page.locator('#settings-save').click();
  await expect(page.locator('#run-status')).toHaveText('Settings saved: offline model, localStorage.');
  expect(await page.evaluate(() => document.body.dataset.tour)).toBe('running');

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('IndexedDB').check();
  await page.locator('#settings-save').click();
  await page.getByRole('button', { name: 'Allow', exact: true }).click({ timeout: 20_000 });
  await expect(page.locator('#run-status')).toHaveText('Tour finished: Compared the plans and started a Team trial.', { timeout: 20_000 });
  expect(await page.evaluate(() => window.__demo!.settings.storage)).toBe('idb');
  expect(await todoStatuses(page)).toEqual(['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'].map((id) => `${id}:completed`));
  expect((await calls(page)).plan).toBe(1);
});

test('notes: Apply with an empty title says why instead of failing silently; switching notes keeps what was typed', async ({ page }) => {
  await open(page);
  await page.getByRole('tab', { name: 'Notes' }).click();
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Title').fill('');
  await page.getByLabel('Content (markdown)').fill('One. Two.');
  await page.getByLabel('Edit with an instruction').fill('Make it a bulleted list');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('#note-status')).toHaveText(/^Cannot edit yet: .*title/);
  expect((await calls(page)).edit).toBe(0);

  await page.getByLabel('Title').fill('First');
  await page.getByRole('button', { name: 'New note' }).click();
  await page.locator('#notes-list button', { hasText: 'First' }).click();
  await expect(page.getByLabel('Content (markdown)')).toHaveValue('One. Two.');
});

test('long unbroken text (a todo, a summary, a note title) keeps the layout in its box', async ({ page }, testInfo) => {
  await open(page);
  await page.evaluate(() => {
    window.__demo!.plan.todos.reset([
      { intent: 'narrate', description: 'Look'.repeat(80) },
      { intent: 'finish', description: 'Wrap up' },
    ]);
    // 200 characters: the longest title a document may have (MARKDOWN_TITLE_MAX).
    window.__demo!.plan.markdown.create({ title: 'Title'.repeat(40), content: '' });
    document.querySelector('plan-panel')!.summary = 'Summary'.repeat(60);
  });
  const overflow = () =>
    page.evaluate(() => {
      const guide = document.getElementById('guide')!;
      return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, guide: guide.scrollWidth - guide.clientWidth };
    });
  expect(await overflow()).toEqual({ page: 0, guide: 0 });
  await page.getByRole('tab', { name: 'Notes' }).click();
  expect(await overflow()).toEqual({ page: 0, guide: 0 });
  await shot(page, testInfo, '1-long-words');
});

// One test per page: four cold loads of the demo in one test's 30 s timed out under load.
for (const path of ['/', '/commercial', '/try', '/docs']) {
  test(`a 375 px screen keeps ${path} in its box`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await open(page, path);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBe(375);
    await shot(page, testInfo, `narrow${path.replaceAll('/', '-')}`);
  });
}
