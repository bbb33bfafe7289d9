import type { Page } from '@playwright/test';
import { test, expect, openDemo as open, shot } from './fixtures.js';

// The user's language end to end (issue 13, parts 4 and 5): the demo passes the ask's language (else
// the browser's) to makeTodos as `locale`, and the offline model plans and narrates in it. The whole
// demo follows the tour's language (issue 36): the site toured, Notes and Settings too. And an ask
// the site has nothing on gets an honest answer, not a tour of the Home page.

test.use({ viewport: { width: 1280, height: 800 } });

const summary = (page: Page) => page.locator('plan-panel').locator('.summary');

/** Records what the guide says and the locale of each planning call. */
async function record(page: Page): Promise<() => Promise<{ said: string[]; locales: Array<string | undefined> }>> {
  await page.evaluate(() => {
    const log = { said: [] as string[], locales: [] as Array<string | undefined> };
    (window as unknown as { __log: typeof log }).__log = log;
    const plan = window.__demo!.plan;
    plan.on('action', ({ action }) => {
      if (action.type === 'narrate') log.said.push(action.text);
    });
    const makeTodos = plan.makeTodos.bind(plan);
    plan.makeTodos = (input, options) => {
      log.locales.push(input.locale);
      return makeTodos(input, options);
    };
  });
  return () => page.evaluate(() => (window as unknown as { __log: { said: string[]; locales: Array<string | undefined> } }).__log);
}

/**
 * Asks; the Start button is named in the tour's language (issue 21: the panel's `strings`), and so
 * is the ask box after a tour (`box`: its label and button).
 */
async function ask(page: Page, task: string, start = 'Start the tour', box = { label: 'Ask the guide', button: 'Ask' }): Promise<void> {
  await page.getByLabel(box.label).fill(task);
  await page.getByRole('button', { name: box.button, exact: true }).click();
  await expect(page.getByRole('button', { name: start })).toBeFocused();
}

test('a German ask is planned, narrated and finished in German', async ({ page }, testInfo) => {
  await open(page, '/?fast=1&read=200');
  const log = await record(page);
  await ask(page, 'Zeig mir die Preise', 'Tour starten');
  // The panel and the guide's own lines speak German too, and say so to screen readers.
  await expect(page.locator('plan-panel')).toHaveAttribute('lang', 'de');
  await expect(page.locator('plan-panel').getByRole('heading', { name: 'Tourplan' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Abbrechen' })).toBeVisible();
  await expect(page.locator('plan-panel').locator('.meta')).toHaveText('0 von 5 erledigt');
  await expect(page.locator('#run-status')).toHaveText('Der Plan steht: Leertaste oder „Tour starten“ legt los, Esc bricht ab.');
  await expect(summary(page)).toHaveText('Ich bringe dich zur Preisseite und stelle dir die drei Tarife vor.');
  await expect(page.locator('plan-panel').locator('li .text')).toHaveText([
    'Die Seite „Preise“ öffnen (/commercial)',
    'Den kostenlosen Starter-Tarif vorstellen',
    'Den Team-Tarif zeigen, den beliebtesten',
    'Zeigen, was Business dazu bietet',
    'Abschluss',
  ]);
  await shot(page, testInfo, '1-german-plan');
  await page.keyboard.press('Space');
  await expect(page.locator('#run-status')).toHaveText('Tour beendet: Die Preisseite vorgestellt.', { timeout: 20_000 });
  await expect(page.locator('plan-panel').locator('li .status').first()).toHaveText('Erledigt, geprüft'); // the run saw the page open: a fact, not a claim
  // The ask box it leaves for the next question speaks German too.
  await expect(page.getByRole('button', { name: 'Fragen', exact: true })).toBeVisible();
  await expect(page.getByLabel('Frag den Guide')).toBeEnabled();
  await expect(page.locator('#panel-guide')).toHaveAttribute('lang', 'de');
  const { said, locales } = await log();
  expect(locales).toEqual(['de']);
  expect(said).toEqual([
    'Starter ist für bis zu fünf Personen dauerhaft kostenlos: ein gemeinsamer Kalender und einfache Rotationen.',
    'Team ist am beliebtesten: 12 $ pro Mitglied, mit Fokuszeiten und Schichttausch.',
    'Business bietet zusätzlich SSO, ein Audit-Log und bevorzugten Support, für 29 $ pro Mitglied.',
    'Das sind die drei Tarife. Die Tabelle darunter vergleicht sie Funktion für Funktion.',
  ]);
  expect(new URL(page.url()).pathname).toBe('/commercial');
});

test('a Japanese ask is planned and narrated in Japanese, and the trial form is still filled in', async ({ page }, testInfo) => {
  await open(page, '/?fast=1&read=200');
  const log = await record(page);
  await ask(page, 'プランを比較してトライアルを始めたい', 'ツアーを始める');
  await expect(page.getByRole('button', { name: 'キャンセル' })).toBeVisible();
  await expect(summary(page)).toHaveText('3つのプランを一緒に比べてから、トライアルのフォームでTeamプランのトライアルを始めます。');
  await shot(page, testInfo, '1-japanese-plan');
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: '許可', exact: true }).click({ timeout: 20_000 });
  await expect(page.locator('#run-status')).toHaveText('ツアー終了: プランを比較し、Teamのトライアルを始めました。', { timeout: 20_000 });
  await expect(page.locator('plan-panel').locator('.meta')).toContainText('完了');
  const { said, locales } = await log();
  expect(locales).toEqual(['ja']);
  expect(said).toContain('小さなチームの多くにはTeamがぴったりです。14日間のトライアルもこのプランで試せます。');
  expect(said.every((line) => /[\u3040-\u30ff]/.test(line))).toBe(true);
  // The site is Japanese too, and the offline model found its fields by their Japanese names.
  await expect(page.locator('#trial-result')).toHaveText(
    'ようこそ、Sam Riveraさん！Teamプランのトライアルを用意しました。詳細はsam@example.comにお送りしました。',
  );
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Orbitlyを試す');
});

test('the site, Notes and Settings follow the tour into German, and back into English', async ({ page }, testInfo) => {
  await open(page, '/commercial?fast=1&read=200');
  await ask(page, 'Zeig mir die Preise', 'Tour starten');
  // The page toured, and the frame around the guide.
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Preise');
  await expect(page.getByRole('navigation', { name: 'Website' }).getByRole('link')).toHaveText(['Start', 'Preise', 'Testen', 'Doku']);
  await expect(page.getByRole('region', { name: 'Tarife vergleichen' })).toBeVisible();
  await expect(page).toHaveTitle('Preise · Orbitly · planloop-Demo');
  await expect(page.locator('#model-badge')).toContainText('Offline-Modell');
  await page.keyboard.press('Space');
  await expect(page.locator('#run-status')).toHaveText('Tour beendet: Die Preisseite vorgestellt.', { timeout: 20_000 });
  await shot(page, testInfo, '2-german-site');
  // Notes: its tab, its panel and what it says.
  await page.getByRole('tab', { name: 'Notizen' }).click();
  await expect(page.getByRole('heading', { name: 'Notizen' })).toBeVisible();
  await page.getByRole('button', { name: 'Neue Notiz' }).click();
  await expect(page.getByLabel('Titel')).toHaveValue('Notiz 1');
  await page.getByRole('button', { name: 'Anwenden' }).click();
  await expect(page.locator('#note-status')).toHaveText('Schreib zuerst eine Anweisung, z. B. „Mach eine Aufzählung daraus“.');
  await shot(page, testInfo, '3-german-notes');
  // Settings: its dialog, and the line it leaves when saved.
  await page.getByRole('button', { name: 'Einstellungen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Einstellungen' });
  await expect(dialog.getByRole('group', { name: 'Modell' })).toBeVisible();
  await expect(dialog.getByRole('radio', { name: 'Offline-Modell (kein Schlüssel, kein Netz)' })).toBeChecked();
  await shot(page, testInfo, '4-german-settings');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.locator('#run-status')).toHaveText('Einstellungen gespeichert: Offline-Modell, localStorage.');
  // An English ask brings the whole demo back to English.
  await page.getByRole('tab', { name: 'Tour' }).click();
  await ask(page, 'Show me the docs', 'Start the tour', { label: 'Frag den Guide', button: 'Fragen' });
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('navigation', { name: 'Site' }).getByRole('link')).toHaveText(['Home', 'Pricing', 'Try it', 'Docs']);
  await expect(page.getByRole('tab', { name: 'Notes' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Settings' })).toBeVisible();
});

test.describe('with a German browser', () => {
  test.use({ locale: 'de-DE' });

  test('an ask that does not show its language is answered in the browser’s', async ({ page }) => {
    await open(page, '/?fast=1&read=200');
    const log = await record(page);
    await ask(page, 'SSO?', 'Tour starten');
    await expect(summary(page)).toHaveText('Ich zeige dir die Seite „Preise“.');
    expect((await log()).locales).toEqual(['de-DE']);
    await page.keyboard.press('Escape');
    // An English ask (in the ask box, German now) stays English, whatever the browser's language.
    await ask(page, 'Show me the docs', 'Start the tour', { label: 'Frag den Guide', button: 'Fragen' });
    await expect(summary(page)).toHaveText('I will show you the docs: the quick start, then the API.');
    expect((await log()).locales).toEqual(['de-DE', 'en']);
  });
});

test('an ask the site has nothing on: the guide says so and offers what it can, and goes nowhere', async ({ page }, testInfo) => {
  await open(page, '/docs?fast=1&read=200');
  const log = await record(page);
  await ask(page, 'How do I get a refund?');
  await expect(summary(page)).toHaveText(
    'This site says nothing about “refund”. I can show you what it does cover: the plans and prices, how to try Orbitly, and the docs.',
  );
  await shot(page, testInfo, '1-honest-plan');
  await page.keyboard.press('Space');
  await expect(page.locator('#run-status')).toHaveText(
    'Tour finished: Found nothing about “refund” on this site; offered the pricing, trial and docs tours instead.',
    { timeout: 20_000 },
  );
  expect((await log()).said).toEqual([
    'I looked through the site: nothing on it is about “refund”, so I cannot show you that.',
    'What I can show you: the plans and prices, how to start a free trial, and the docs. Ask for any of them.',
  ]);
  expect(new URL(page.url()).pathname).toBe('/docs');
  await expect(page.locator('#run-status')).not.toContainText('Home');
});
