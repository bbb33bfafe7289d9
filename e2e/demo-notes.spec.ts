import type { Page } from '@playwright/test';
import { TOUR_HANDBOOK } from '../demo/tour-handbook.js';
import { test, expect, openDemo as open, shot } from './fixtures.js';

// The demo's notes with its offline model (issue 15, part 5): a long note edited in place (only
// the paragraph changes), the edit shown as it streams, typing while the model works merged with
// its edit, a refusal shown as such, Stop discarding the edit, and an overlapping edit kept as the
// user typed it. `?chunk=<ms>` slows the offline model's stream; `?hold=1` holds each answer's last
// chunk until the test calls `window.__demo.release()`, so a test acts while the model writes.

test.use({ viewport: { width: 1280, height: 860 } });

const REFUNDS = 'In the refunds paragraph, replace "14 days" with "30 days"';
const refundsParagraph = TOUR_HANDBOOK.slice(
  TOUR_HANDBOOK.indexOf('Orbitly refunds'),
  TOUR_HANDBOOK.indexOf('five working days.') + 'five working days.'.length,
);
const EDITED = TOUR_HANDBOOK.replace(refundsParagraph, refundsParagraph.replace('14 days', '30 days'));

const content = (page: Page) => page.getByLabel('Content (markdown)');
const status = (page: Page) => page.locator('#note-status');
const stored = (page: Page) => page.evaluate(() => window.__demo!.plan.markdown.list().find((doc) => doc.title === 'Tour handbook')?.content);
const calls = (page: Page) => page.evaluate(() => ({ ...window.__demo!.calls }));

async function openHandbook(page: Page, path: string): Promise<void> {
  await open(page, path);
  await page.getByRole('tab', { name: 'Notes' }).click();
  await page.getByRole('button', { name: 'Add the Tour handbook' }).click();
  await expect(content(page)).toHaveValue(TOUR_HANDBOOK);
  await expect(page.locator('#notes-list button')).toHaveText(['Tour handbook']);
}

/** Puts the caret right after `after` in the note and types `text` there, as a user would. */
async function typeAfter(page: Page, after: string, text: string): Promise<void> {
  await content(page).evaluate((area: HTMLTextAreaElement, anchor) => {
    const at = area.value.indexOf(anchor) + anchor.length;
    area.focus();
    area.setSelectionRange(at, at);
  }, after);
  await page.keyboard.type(text);
}

test('a long note is edited in place: the draft shows as it streams, only the paragraph changes', async ({ page }, testInfo) => {
  await openHandbook(page, '/?fast=1&chunk=80');
  await expect(page.getByLabel('Edit with an instruction')).toHaveValue(REFUNDS);
  // Record what the answer pane showed, and whether the note was stored yet at that moment.
  await page.evaluate(() => {
    const seen: Array<{ answer: string; stored: boolean }> = [];
    (window as unknown as { __answers: typeof seen }).__answers = seen;
    new MutationObserver(() => {
      const note = window.__demo!.plan.markdown.list().find((doc) => doc.title === 'Tour handbook');
      seen.push({ answer: document.getElementById('note-answer')!.textContent ?? '', stored: note?.content.includes('within 30 days') ?? false });
    }).observe(document.getElementById('note-answer')!, { childList: true, subtree: true, characterData: true });
  });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(status(page)).toHaveText('The model is editing the note in place…');
  await expect(page.locator('#note-draft')).toBeVisible();
  await shot(page, testInfo, '1-draft-streaming');

  await expect(status(page)).toHaveText(
    /^Edited in place by the model: 1 passage changed, the rest untouched \(its answer was \d{3} characters for a note of 3,\d{3}\)\.$/,
  );
  // Byte for byte: the refunds paragraph changed, nothing else (the trials paragraph's "14 days" stays).
  await expect(content(page)).toHaveValue(EDITED);
  expect(await stored(page)).toBe(EDITED);
  expect(EDITED).toContain('Every paid plan can be tried for 14 days without a card.');
  // The edit block streamed into view before anything was stored: the SEARCH quotes the long
  // paragraph by its first and last words, the REPLACE is the new paragraph. It is gone now.
  const answers = await page.evaluate(() => (window as unknown as { __answers: Array<{ answer: string; stored: boolean }> }).__answers);
  const streamed = answers.filter((seen) => !seen.stored).map((seen) => seen.answer);
  expect(streamed.length).toBeGreaterThan(3);
  expect(streamed.at(-1)).toMatch(
    /^<<<<<<< SEARCH\nOrbitly refunds a paid month in full when \.\.\. handles them within five working days\.\n=======\nOrbitly refunds a paid month in full when the customer asks within 30 days/,
  );
  // What changed stays marked below the editor, the answer pane gone.
  await expect(page.locator('#note-draft-label')).toHaveText('The model’s change, marked (now in the note):');
  await expect(page.locator('#note-draft-text mark')).toHaveText('30');
  await expect(page.locator('#note-answer')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Apply' })).toBeVisible();
  expect(await calls(page)).toEqual({ plan: 0, turn: 0, edit: 1 });
  await shot(page, testInfo, '2-edited-in-place');

  // A rename is a Title line: the text stays as it was, and the status says so.
  await page.getByLabel('Edit with an instruction').fill('Rename it to "Guide handbook"');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(status(page)).toHaveText('Renamed by the model; it left the text as it was.');
  await expect(page.getByLabel('Title')).toHaveValue('Guide handbook');
  await expect(page.locator('#notes-list button')).toHaveText(['Guide handbook']);
  await expect(content(page)).toHaveValue(EDITED);
});

test('typing in another paragraph while the model edits: the two edits are merged, both survive', async ({ page }, testInfo) => {
  // The model holds its answer's last chunk until the test has typed (`hold=1`): a slow machine
  // once typed for longer than the whole answer took, and the edit ended before the typing.
  await openHandbook(page, '/?fast=1&chunk=50&hold=1');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(status(page)).toHaveText('The model is editing the note in place…');
  const typed = ' Ask for their time zone too.';
  await typeAfter(page, 'it decides which plan you end the tour on.', typed);
  // Saved as typed, while the model still works.
  await expect.poll(() => stored(page)).toContain(typed);
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await shot(page, testInfo, '1-typing-while-editing');
  await page.evaluate(() => window.__demo!.release());

  await expect(status(page)).toContainText('Merged with your changes');
  await expect(status(page)).toHaveText(
    /^Edited in place by the model: 1 passage changed, the rest untouched \(.*\)\. Merged with your changes: you edited the note while the model worked, and both edits are kept\.$/,
  );
  const both = EDITED.replace('it decides which plan you end the tour on.', `it decides which plan you end the tour on.${typed}`);
  await expect(content(page)).toHaveValue(both);
  expect(await stored(page)).toBe(both);
  await shot(page, testInfo, '2-merged');
  // The caret stayed where the user was typing.
  expect(await content(page).evaluate((area: HTMLTextAreaElement, text) => area.value.slice(0, area.selectionStart).endsWith(text), typed)).toBe(true);
});

test('an instruction the model cannot follow is declined as such; the note is unchanged', async ({ page }, testInfo) => {
  await open(page);
  await page.getByRole('tab', { name: 'Notes' }).click();
  await page.getByRole('button', { name: 'New note' }).click();
  await page.getByLabel('Title').fill('Pricing notes');
  await content(page).fill('Starter is free. Team costs $12 per member.');
  await page.getByLabel('Edit with an instruction').fill('Make it sound more exciting');
  await page.getByLabel('Edit with an instruction').press('Enter');
  await expect(status(page)).toHaveText(
    /^The model declined: I can't follow “Make it sound more exciting”: the offline stand-in only knows how to .* The note is unchanged\.$/,
  );
  await shot(page, testInfo, '1-declined');
  await expect(content(page)).toHaveValue('Starter is free. Team costs $12 per member.');
  expect(await page.evaluate(() => window.__demo!.plan.markdown.list().map((doc) => doc.content))).toEqual(['Starter is free. Team costs $12 per member.']);
  // planloop told the model its answer was a refusal and asked once more; it declined again.
  expect((await calls(page)).edit).toBe(2);
  await expect(page.locator('#note-draft')).toBeHidden();

  // On the long note too: no block, no disclaimer in the text.
  await page.getByRole('button', { name: 'Add the Tour handbook' }).click();
  await page.getByLabel('Edit with an instruction').fill('Shorten the paragraph about unicorns');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(status(page)).toHaveText(
    "The model declined: Sorry, I can't find a paragraph about “unicorns” in this note, so I changed nothing. The note is unchanged.",
  );
  await expect(content(page)).toHaveValue(TOUR_HANDBOOK);
  expect(await stored(page)).toBe(TOUR_HANDBOOK);
});

test('Stop in the middle of an edit: nothing is stored, then or later', async ({ page }, testInfo) => {
  await openHandbook(page, '/?fast=1&chunk=20&hold=1');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(status(page)).toHaveText('The model is editing the note in place…');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toHaveText('Edit cancelled; the note is unchanged.');
  await shot(page, testInfo, '1-cancelled');
  await expect(page.locator('#note-draft')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Apply' })).toBeVisible();
  // Let the held answer go: the stopped edit must not land when the model would have finished.
  await page.evaluate(() => window.__demo!.release());
  await expect(content(page)).toHaveValue(TOUR_HANDBOOK);
  expect(await stored(page)).toBe(TOUR_HANDBOOK);
  await expect(status(page)).toHaveText('Edit cancelled; the note is unchanged.');
});

test('typing in the paragraph the model edits: a conflict, the user’s text kept and the model’s version shown', async ({ page }, testInfo) => {
  await openHandbook(page, '/?fast=1&chunk=50&hold=1');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(status(page)).toHaveText('The model is editing the note in place…');
  await typeAfter(page, 'no questions asked.', ' Ask why, though.');
  const mine = TOUR_HANDBOOK.replace('no questions asked.', 'no questions asked. Ask why, though.');
  await expect.poll(() => stored(page)).toBe(mine);
  await page.evaluate(() => window.__demo!.release());

  await expect(status(page)).toHaveText(
    /^Conflict: you changed the same place as the model \(line \d+\), so your text was kept and the model’s edit was not applied\. Its version is below\.$/,
  );
  await expect(content(page)).toHaveValue(mine);
  expect(await stored(page)).toBe(mine);
  await expect(page.locator('#note-draft')).toBeVisible();
  await expect(page.locator('#note-draft-label')).toContainText('not applied');
  await expect(page.locator('#note-draft-text mark')).toHaveText('30');
  await expect(page.locator('#note-draft-text')).toContainText('within 30 days of the charge, no questions asked.');
  await expect(page.locator('#note-answer')).toBeHidden();
  await shot(page, testInfo, '1-conflict');
});
