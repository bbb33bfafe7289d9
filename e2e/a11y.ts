import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);
/** axe-core's browser build, injected into the page as it is (no Playwright wrapper). */
const AXE_SOURCE = require.resolve('axe-core/axe.min.js');

/** The WCAG rule sets the e2e suite holds the demo and the panel to: 2.0 and 2.1, levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

/** One axe violation, in words a failing assertion can show. */
export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
  summary: string;
}

/**
 * Runs axe-core on the page as it is now (open shadow roots included) at WCAG 2.0/2.1 A and AA,
 * and returns its violations.
 *
 * @example
 * ```ts
 * expect(await axeViolations(page)).toEqual([]);
 * ```
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SOURCE });
  return page.evaluate(
    async (tags) => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              context: unknown,
              options: unknown,
            ) => Promise<{
              violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }>;
            }>;
          };
        }
      ).axe;
      const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => JSON.stringify(node.target)),
        summary: violation.nodes.map((node) => node.failureSummary ?? '').join(' | '),
      }));
    },
    [...WCAG_TAGS],
  );
}

/**
 * Where the focus is, through open shadow roots: `'body'` when it fell to the page's body (or
 * nowhere), else a short description of the focused element.
 *
 * @example
 * ```ts
 * expect(await focusedElement(page)).not.toBe('body');
 * ```
 */
export async function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (!active || active === document.body || active === document.documentElement) return 'body';
    const name = active.getAttribute('aria-label') ?? active.textContent?.trim().slice(0, 40) ?? '';
    return `${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : ''} ${name}`.trim();
  });
}
