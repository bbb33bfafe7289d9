import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { judgeFirstView, listedOfFirstView } from '../bench/first-view-judge.js';
import { countTokens } from '../bench/tokens.js';
import { loadWithDom } from './support/dom-bundle.js';

// Issue 35 on the outline corpus (e2e/outline-corpus: sign-up, checkout and settings pages), in
// Chromium at 1280×800 and the default budget, against what a person sees first as judged without
// planloop code (bench/first-view-judge.ts). bench/first-view.ts measures the same per page, with the
// real-page corpus and the time; this holds the figures it reports (README "The page outline").

type Dom = typeof import('../src/dom/index.js');
const PAGES = readdirSync(fileURLToPath(new URL('outline-corpus', import.meta.url)))
  .filter((file) => file.endsWith('.html'))
  .map((file) => file.slice(0, -5))
  .sort();

test('outline corpus: first-viewport controls, every field of a visible form, the first paragraph, within the budget', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const rows: Array<{
    page: string;
    controls: number;
    listed: number;
    fields: number;
    fieldsListed: number;
    paragraph: boolean | null;
    tokens: number;
    missing: string[];
  }> = [];
  for (const name of PAGES) {
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await loadWithDom(page, `outline-corpus/${name}.html`);
    const judged = await page.evaluate(judgeFirstView);
    await page.addScriptTag({ content: `globalThis.__listedOfFirstView = ${listedOfFirstView.toString()};` });
    const { text, listed } = await page.evaluate(() => {
      const dom = (window as unknown as { planloopDom: Dom }).planloopDom;
      const outline = dom.outlinePage({ registry: dom.createRefRegistry() });
      const score = (globalThis as unknown as { __listedOfFirstView: typeof listedOfFirstView }).__listedOfFirstView;
      return {
        text: dom.renderOutline(outline),
        listed: score(
          outline.nodes.map((node) => node.element),
          outline.nodes.map((node) => (node.kind === 'live' ? 'text' : node.kind)),
        ),
      };
    });
    rows.push({
      page: name,
      controls: judged.controls.length,
      listed: listed.controls,
      fields: judged.fields.length,
      fieldsListed: listed.fields,
      paragraph: listed.paragraph,
      tokens: countTokens(text),
      missing: listed.missing,
    });
  }
  const report = JSON.stringify(rows, null, 1);
  expect(rows.length).toBeGreaterThanOrEqual(9);
  // The budget is held on every page (o200k).
  for (const row of rows) expect(row.tokens, row.page).toBeLessThanOrEqual(400);
  // As measured (bench/results.md): >= 90% of the first viewport's controls on 7 of the 9 pages
  // (checkout-shop and settings-account fall short: their visible forms take the budget first).
  expect(rows.filter((row) => row.listed >= 0.9 * row.controls).length, report).toBeGreaterThanOrEqual(7);
  // Every field of a visible form, on every page (checkout-shop's 20 too: its last checkbox is below the fold).
  expect(
    rows.filter((row) => row.fields > 0 && row.fieldsListed < row.fields).map((row) => row.page),
    report,
  ).toEqual([]);
  expect(rows.find((row) => row.page === 'checkout-shop')?.fields, report).toBeGreaterThanOrEqual(20);
  // The first paragraph wherever the page has one.
  expect(
    rows.filter((row) => row.paragraph === false).map((row) => row.page),
    report,
  ).toEqual([]);
});
