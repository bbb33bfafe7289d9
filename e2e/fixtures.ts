import { test as base, expect } from '@playwright/test';

/**
 * Playwright's `test` with one automatic check: a page that throws an uncaught error or logs a
 * `console.error` fails the test. A test that expects such errors can empty `pageErrors`.
 * @example
 * import { test, expect } from './fixtures.js';
 * test('renders', async ({ page }) => { await page.goto('/'); });
 */
export const test = base.extend<{ pageErrors: string[] }>({
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

export { expect };
