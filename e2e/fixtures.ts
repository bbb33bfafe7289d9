import { test as base, expect, type Page, type TestInfo } from '@playwright/test';

/**
 * Playwright's `test` with one automatic check: a page that throws an uncaught error or logs a
 * `console.error` fails the test. A test that expects such errors can empty `pageErrors`.
 * @example
 * import { test, expect } from './fixtures.js';
 * test('renders', async ({ page }) => { await page.goto('/'); });
 */
// biome-ignore lint/suspicious/noConfusingVoidType: an automatic fixture that gives no value is typed void, as Playwright documents
export const test = base.extend<{ pageErrors: string[]; demoHooks: boolean; demoEntry: void }>({
  /** Whether the demo runs with its test hooks (default); `test.use({ demoHooks: false })` loads it as a visitor does. */
  demoHooks: [true, { option: true }],
  /**
   * The demo's test hooks: every page of the context that loads the demo's entry (`/main.ts`) gets
   * demo/fixtures/demo-hooks.ts instead, which starts the same app and adds `window.__demo` and
   * `?hold=1` from outside (the app itself has no test code).
   */
  demoEntry: [
    async ({ context, baseURL, demoHooks }, use) => {
      if (!demoHooks) return use();
      const entry = new URL('/main.ts', baseURL);
      await context.route(
        (url) => url.origin === entry.origin && url.pathname === entry.pathname,
        (route) => route.fulfill({ contentType: 'text/javascript', body: "import '/fixtures/demo-hooks.ts';\n" }),
      );
      await use();
    },
    { auto: true },
  ],
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      page.on('console', (message) => {
        // Chromium asks for /favicon.ico on its own; the demo has none and the 404 is not ours.
        if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) {
          errors.push(`console.error: ${message.text()} (${message.location().url})`);
        }
      });
      await use(errors);
      expect(errors, 'errors the page reported').toEqual([]);
    },
    { auto: true },
  ],
});

/** Opens a demo page (fast pace by default) and waits until the demo has started up. */
export async function openDemo(page: Page, path = '/?fast=1'): Promise<void> {
  await page.goto(path);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

/** Saves a screenshot of the page as a named artifact of the test. */
export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

export { expect };
