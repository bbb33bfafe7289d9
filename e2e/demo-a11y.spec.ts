import type { Page } from '@playwright/test';
import { axeViolations } from './a11y.js';
import { test, expect, openDemo as open } from './fixtures.js';

// Issue 24: axe-core (WCAG 2.0/2.1, A and AA) finds nothing in the demo and <plan-panel> in the six
// states a user meets: home, a plan announced, mid-tour, mid-tour on a phone, a note being edited,
// and the settings open.

const clean = async (page: Page): Promise<void> => {
  expect(await axeViolations(page)).toEqual([]);
};

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('home', async ({ page }) => {
    await open(page, '/?fast=1');
    await clean(page);
  });

  test('a plan announced', async ({ page }) => {
    await open(page, '/?fast=1');
    await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
    await expect(page.getByRole('button', { name: 'Start the tour' })).toBeFocused();
    await clean(page);
  });

  test('mid-tour', async ({ page }) => {
    await open(page, '/?fast=1&read=60000');
    await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
    await page.getByRole('button', { name: 'Start the tour' }).click();
    await expect(page.locator('#narration')).toBeVisible({ timeout: 10_000 });
    await expect(page.locator('.guide-highlight')).toHaveCount(1);
    await clean(page);
  });

  test('a note being edited', async ({ page }) => {
    await open(page, '/?fast=1');
    await page.getByRole('tab', { name: 'Notes' }).click();
    await page.getByRole('button', { name: 'New note' }).click();
    await expect(page.locator('#note-editor')).toBeVisible();
    await page.locator('#note-content').fill('# Ideas\n\nAsk about SSO.');
    await clean(page);
  });

  test('Settings open', async ({ page }) => {
    await open(page, '/?fast=1');
    await page.getByRole('button', { name: 'Settings' }).click();
    await expect(page.locator('#settings')).toBeVisible();
    await clean(page);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

  test('mid-tour', async ({ page }) => {
    await open(page, '/?fast=1&read=60000');
    await page.getByRole('button', { name: 'Ask the guide' }).tap();
    await page.getByRole('button', { name: 'Introduce the pricing page' }).tap();
    await page.getByRole('button', { name: 'Start the tour' }).tap();
    await expect(page.locator('#narration')).toBeVisible({ timeout: 10_000 });
    await clean(page);
  });
});

test.describe('what axe does not check', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('focus rings are at 3:1 or more against what is around them (demo and panel)', async ({ page }) => {
    await open(page, '/?fast=1&read=60000');
    // Asked with the keyboard, so that the focus shows as it does for a keyboard user (:focus-visible).
    await page.getByLabel('Ask the guide').focus();
    await page.keyboard.type('Introduce the pricing page');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Start the tour' })).toBeFocused();
    const rings: Array<{ what: string; ratio: number }> = [];
    const measure = async (what: string): Promise<void> => {
      rings.push({ what, ratio: await focusRingContrast(page) });
    };
    await measure('Start the tour');
    await page.keyboard.press('Shift+Tab');
    await measure('Remove step 1');
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Shift+Tab');
    await measure('a step');
    await page.keyboard.press('Escape');
    await page.getByLabel('Ask the guide').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await measure('the ask box');
    await page.keyboard.press('Tab');
    await measure('Ask');
    expect(
      rings.filter((ring) => ring.ratio < 3),
      JSON.stringify(rings),
    ).toEqual([]);
  });

  test('the panel’s own default theme (none of the demo’s colours) passes too: axe, focus rings', async ({ page }) => {
    await open(page, '/?fast=1&read=60000');
    // A custom property set to `initial` is invalid at computed time: every var() takes its fallback.
    await page.locator('plan-panel').evaluate((panel: HTMLElement) => {
      for (const name of ['accent', 'accent-fg', 'focus', 'current-bg', 'border', 'control-border', 'done', 'muted', 'fg', 'bg']) {
        panel.style.setProperty(`--plan-panel-${name}`, 'initial');
      }
    });
    await page.getByLabel('Ask the guide').focus();
    await page.keyboard.type('Introduce the pricing page');
    await page.keyboard.press('Enter');
    const start = page.getByRole('button', { name: 'Start the tour' });
    await expect(start).toBeFocused();
    expect(await page.locator('plan-panel').evaluate((panel) => getComputedStyle(panel.shadowRoot!.querySelector('.approve')!).backgroundColor)).toBe(
      'rgb(47, 91, 211)',
    );
    expect(await axeViolations(page)).toEqual([]);
    const rings = [await focusRingContrast(page)];
    await page.keyboard.press('Shift+Tab');
    rings.push(await focusRingContrast(page));
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Shift+Tab');
    rings.push(await focusRingContrast(page));
    expect(
      rings.every((ratio) => ratio >= 3),
      JSON.stringify(rings),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
    await page.getByRole('button', { name: 'Start the tour' }).click();
    await expect(page.locator('#narration')).toBeVisible({ timeout: 10_000 });
    await expect.poll(() => page.evaluate(() => window.__demo!.plan.todos.list().filter((todo) => todo.status === 'completed').length)).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  test('one announcement per event: the end of a tour is heard once, a narration without the Next label', async ({ page }) => {
    await open(page, '/?fast=1&read=100');
    await page.evaluate(() => {
      const heard: string[] = [];
      (window as unknown as { __heard: string[] }).__heard = heard;
      const regions = [
        ...document.querySelectorAll('[aria-live], [role="status"]'),
        ...(document.querySelector('plan-panel')?.shadowRoot?.querySelectorAll('[aria-live], [role="status"]') ?? []),
      ];
      for (const region of regions) {
        new MutationObserver(() => {
          const text = region.textContent?.trim();
          if (text && !(region as HTMLElement).closest('[hidden]')) heard.push(text);
        }).observe(region, { childList: true, characterData: true, subtree: true });
      }
    });
    await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
    await page.getByRole('button', { name: 'Start the tour' }).press('Enter');
    await expect(page.locator('#run-status')).toHaveText('Tour finished: Introduced the pricing page.', { timeout: 20_000 });
    const heard = [...new Set(await page.evaluate(() => (window as unknown as { __heard: string[] }).__heard))];
    expect(heard.filter((text) => /finished/i.test(text))).toEqual(['Tour finished: Introduced the pricing page.']);
    expect(heard.filter((text) => /approved|Touring/i.test(text))).toEqual(['Touring… Esc or Stop ends it.']);
    expect(heard.filter((text) => /Next/.test(text))).toEqual([]);
    expect(heard).toContain('Team is the most popular: $12 per member, with focus blocks and rotation swaps.');
  });
});

/**
 * The contrast of the focused element's ring (its outline, or for the panel's steps the box-shadow)
 * against the background behind it, through open shadow roots; a translucent ring is blended over
 * that background first.
 */
async function focusRingContrast(page: Page): Promise<number> {
  return page.evaluate(() => {
    let element = document.activeElement as HTMLElement;
    while (element.shadowRoot?.activeElement) element = element.shadowRoot.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    const colour =
      style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
        ? style.outlineColor
        : (/(rgba?|color)\([^)]*\)/.exec(style.boxShadow)?.[0] ?? 'rgba(0,0,0,0)');
    // rgb()/rgba() in 0-255, or color(srgb …) in 0-1 (what color-mix() computes to).
    const parse = (text: string): number[] => {
      const numbers = (text.match(/[\d.]+/g) ?? []).map(Number);
      return text.startsWith('color(srgb') ? numbers.map((value, index) => (index < 3 ? value * 255 : value)) : numbers;
    };
    // The background: the first opaque one up the tree (shadow hosts included).
    let background = [255, 255, 255];
    for (
      let node: Element | null = element.parentElement ?? (element.getRootNode() as ShadowRoot).host ?? null;
      node;
      node = node.parentElement ?? (node.getRootNode() as ShadowRoot).host ?? null
    ) {
      const [r, g, b, a = 1] = parse(getComputedStyle(node).backgroundColor);
      if (a > 0.99) {
        background = [r as number, g as number, b as number];
        break;
      }
    }
    const [r, g, b, a = 1] = parse(colour);
    const ring = [r as number, g as number, b as number].map((channel, index) => channel * a + (background[index] as number) * (1 - a));
    const luminance = (rgb: number[]): number => {
      const [lr, lg, lb] = rgb.map((channel) => {
        const c = channel / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
    };
    const [light, dark] = [luminance(ring), luminance(background)].sort((x, y) => y - x) as [number, number];
    return Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100;
  });
}
