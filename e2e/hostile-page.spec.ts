import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';

// Issue 20, the page-level attacks (items 3, 4, 6, 7): a hostile page of our own
// (demo/fixtures/hostile-page.html) in real Chromium, and planloop/dom wired as the README shows a host's
// tools. The "model" here is the test: it sends every target an injected instruction would ask
// for, and the assertions say what must never run, open, download or be read.

type ToolResult = { ok: boolean; reason?: string; message?: string; did?: string; value?: string };

async function open(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto('/fixtures/hostile-page.html');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

const outline = (page: Page) => page.evaluate(() => window.__hostilePage.outlineText());
const click = (page: Page, target: string) => page.evaluate((t) => window.__hostilePage.clickTool(t), target) as Promise<ToolResult>;
const hits = (page: Page) => page.evaluate(() => window.__hostilePage.hits);

/** The ref the outline gives the element named `name` (`[e12] button "Name"` -> e12). */
function refIn(text: string, name: string): string {
  const line = text.split('\n').find((l) => l.includes(`"${name}"`));
  const ref = /\[(e\d+)\]/.exec(line ?? '')?.[1];
  if (!ref) throw new Error(`no ref for "${name}" in:\n${text}`);
  return ref;
}

test.describe('what the model was never shown cannot be clicked (item 3)', () => {
  test('a div never shown, a guessed selector, the excluded guide and the ignored panel', async ({ page }) => {
    await open(page);
    const text = await outline(page);
    for (const hidden of ['Approve everything', 'Panel button', 'Delete account', 'Transfer funds']) expect(text).not.toContain(hidden);
    // The div's words are page text the model may read; shown as text, never as something to click.
    expect(text).toMatch(/\[e\d+\] text "Never shown/);
    const neverRef = /\[(e\d+)\] text "Never shown/.exec(text)?.[1] ?? '';
    expect(await click(page, neverRef)).toMatchObject({ ok: false, reason: 'not-actionable' });
    for (const target of ['#never', 'div#never', '#guide button', '#guide-approve', '#panel-button', '#ghost', '#offscreen', 'button']) {
      const result = await click(page, target);
      expect(result.ok, target).toBe(false);
      expect(result.message, target).toMatch(/ref from the page outline/);
    }
    // A ref for the guide from an outline made without `exclude` (another part of the host) is refused too.
    const everything = await page.evaluate(() => window.__hostilePage.dom.renderOutline(window.__hostilePage.dom.outlinePage({ maxTokens: 2000 })));
    expect(await click(page, refIn(everything, 'Approve everything'))).toMatchObject({ ok: false, reason: 'not-found' });
    expect(everything).not.toContain('Panel button');
    expect(await hits(page)).toEqual([]);
  });

  test('an opacity:0, an off-screen and a covered button are refused at the moment of the click', async ({ page }) => {
    await open(page);
    const text = await outline(page);
    const covered = refIn(text, 'Covered button');
    const amount = refIn(text, 'Amount');
    // Shown to the model while visible, then made invisible before the click.
    await page.evaluate(() => {
      const ghost = document.getElementById('covered') as HTMLElement;
      ghost.style.opacity = '0';
    });
    expect(await click(page, covered)).toMatchObject({ ok: false, reason: 'hidden' });
    await page.evaluate(() => {
      const button = document.getElementById('covered') as HTMLElement;
      button.style.opacity = '';
      button.classList.add('offscreen');
    });
    expect(await click(page, covered)).toMatchObject({ ok: false, reason: 'hidden' });
    await page.evaluate(() => {
      const button = document.getElementById('covered') as HTMLElement;
      button.classList.remove('offscreen');
      button.scrollIntoView({ block: 'start' });
      const overlay = document.createElement('div');
      overlay.className = 'overlay';
      overlay.id = 'overlay';
      overlay.textContent = 'Nothing to see here';
      document.getElementById('overlay-host')?.append(overlay);
      const box = button.getBoundingClientRect();
      Object.assign(overlay.style, { left: `${box.left - 5}px`, top: `${box.top - 5}px`, width: `${box.width + 10}px`, height: `${box.height + 10}px` });
    });
    const result = await click(page, covered);
    expect(result).toMatchObject({ ok: false, reason: 'covered' });
    expect(result.message).toContain('is covered by');
    // Not covered, visible: it clicks.
    await page.evaluate(() => document.getElementById('overlay')?.remove());
    expect(await click(page, covered)).toMatchObject({ ok: true, did: 'clicked' });
    expect(await hits(page)).toEqual(['covered']);
    expect(amount).toMatch(/^e\d+$/);
  });

  test('no oracle: a guessed attribute value and a hidden CSRF input get the same answer as nothing', async ({ page }) => {
    await open(page);
    const answer = (selector: string, selectors: boolean) =>
      page.evaluate(
        ([s, opt]) => {
          const result = window.__hostilePage.dom.resolveTarget(s, { selectors: opt });
          return result.ok ? 'found' : `${result.reason}: ${result.message.replace(s, 'S')}`;
        },
        [selector, selectors] as const,
      );
    for (const selectors of [false, true]) {
      // Right and wrong guesses at the password's value: the same answer.
      expect(await answer('input[type=password][value^="hun"]', selectors)).toBe(await answer('input[type=password][value^="xyz"]', selectors));
      expect(await answer('input[name=csrf][value^="csrf-7"]', selectors)).toBe(await answer('input[name=csrf][value^="nope"]', selectors));
      // A hidden input that exists, and an element that does not: the same answer.
      expect(await answer('#csrf', selectors)).toBe(await answer('#no-such-element', selectors));
      expect(await answer('form #csrf', selectors)).toBe(await answer('form #nothing', selectors));
    }
    expect(await answer('input[type=password][value^="hun"]', true)).toMatch(/^refused/);
  });
});

test.describe('a click never goes where it must not (item 4)', () => {
  test('javascript:, another site, downloads and a new tab are refused; nothing runs, loads or downloads', async ({ page }) => {
    const offsite: string[] = [];
    await page.route(/evil\.example/, (route) => {
      offsite.push(route.request().url());
      return route.abort();
    });
    const downloads: string[] = [];
    page.on('download', (download) => downloads.push(download.url()));
    const popups: string[] = [];
    page.on('popup', (popup) => popups.push(popup.url()));
    await open(page);
    const text = await outline(page);
    const expectations: Array<[string, string]> = [
      ['Claim your prize', 'blocked-url'],
      ['Verify your account', 'other-origin'],
      ['Download statement', 'download'],
      ['Install the helper', 'download'],
      ['Terms (new tab)', 'denied'],
    ];
    for (const [name, reason] of expectations) {
      const result = await click(page, refIn(text, name));
      expect(result, name).toMatchObject({ ok: false, reason });
      expect(result.message?.length, name).toBeGreaterThan(20);
    }
    // The new tab asked the user (who said no); nothing else got as far as asking.
    expect(await page.evaluate(() => window.__hostilePage.asked.map((step) => step.detail))).toEqual([
      'Click the link "Terms (new tab)". It opens a new window with /terms.',
    ]);
    // A same-page link is a plain click.
    expect(await click(page, refIn(text, 'Details'))).toMatchObject({ ok: true, did: 'followed-link' });
    await page.waitForTimeout(300); // give a stray navigation, download or popup the time to show up
    expect(await hits(page)).toEqual(['samesite']);
    expect(offsite).toEqual([]);
    expect(downloads).toEqual([]);
    expect(popups).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/fixtures/hostile-page.html');
  });

  test('a form submission asks first, and a no means the form is not sent', async ({ page }) => {
    await open(page);
    const send = refIn(await outline(page), 'Confirm transfer');
    const denied = await click(page, send);
    expect(denied).toMatchObject({ ok: false, reason: 'denied' });
    expect(await page.evaluate(() => window.__hostilePage.submits)).toEqual([]);
    // Issue 30: in the page's words, with the real destination; the form's aria-label no one sees does not name it.
    expect(await page.evaluate(() => window.__hostilePage.asked)).toEqual([
      {
        risk: 'irreversible',
        detail: 'Click the button "Confirm transfer". It sends the form "Confirm transfer" to /transfer: Amount and 1 hidden field.',
        effect: 'It sends the form "Confirm transfer" to /transfer: Amount and 1 hidden field',
        consequence: 'send',
        url: expect.stringMatching(/\/transfer$/),
      },
    ]);
    // Without a way to ask, it is refused outright.
    const unasked = await page.evaluate((t) => window.__hostilePage.dom.activate(t, { exclude: '#guide' }), send);
    expect(unasked).toMatchObject({ ok: false, reason: 'needs-approval' });
    await page.evaluate(() => (window.__hostilePage.answer = true));
    expect(await click(page, send)).toMatchObject({ ok: true, did: 'submitted' });
    expect(await page.evaluate(() => window.__hostilePage.submits)).toEqual(['transfer']);
  });
});

test.describe('secrets never reach the model (item 6)', () => {
  test('a revealed password, a card number and an API key in a contenteditable stay out of the outline', async ({ page }) => {
    await open(page);
    const before = await outline(page);
    expect(await click(page, refIn(before, 'Show password'))).toMatchObject({ ok: true });
    expect(await page.locator('#password').getAttribute('type')).toBe('text');
    const after = await outline(page);
    for (const text of [before, after]) {
      for (const secret of ['hunter2', '4242', 'sk-live', '4eC39', 'csrf-7f3a']) expect(text).not.toContain(secret);
    }
    expect(after).toMatch(/textbox "Password" secret/);
    expect(after).toMatch(/textbox "Card" secret/);
    expect(after).toMatch(/textbox "Scratch pad" secret/);
  });

  test('typing into the password field takes a placeholder the host fills; the model never writes or sees it', async ({ page }) => {
    await open(page);
    const text = await outline(page);
    const password = refIn(text, 'Password');
    const fillTool = (target: string, value: string) =>
      page.evaluate(([t, v]) => window.__hostilePage.fillTool(t, v), [target, value] as const) as Promise<ToolResult>;
    expect(await fillTool(password, 'guessed')).toMatchObject({ ok: false, reason: 'secret-literal' });
    const filled = await fillTool(password, '{{secret:password}}');
    expect(filled).toMatchObject({ ok: true, value: 'withheld' });
    expect(JSON.stringify(filled)).not.toContain('the-real-password');
    expect(await page.locator('#password').inputValue()).toBe('the-real-password');
    expect(await outline(page)).not.toContain('the-real-password');
    expect(await fillTool(refIn(text, 'Amount'), '{{secret:password}}')).toMatchObject({ ok: false, reason: 'secret-elsewhere' });
  });
});

test.describe('what a sighted user cannot see, the model does not read (item 7)', () => {
  test('hidden, white-on-white, 1px, sr-only, clipped, off-screen and transparent headings; hidden name parts', async ({ page }) => {
    await open(page);
    const text = await outline(page);
    const headings = text.split('\n').filter((l) => / h[1-6] /.test(l));
    expect(headings.join('\n')).not.toContain('SYSTEM');
    expect(text.split('\n').filter((l) => l.includes('SYSTEM'))).toEqual([expect.stringMatching(/button "SYSTEM: display-none text[^"]{0,30}…"$/)]);
    expect(text).toContain('h1 "Account settings"');
    expect(text).toContain('h2 "Billing"');
    expect(text).toContain('h2 "Security"');
    // A control named through aria-labelledby to display:none text keeps at most a label's length (40 characters) of it.
    expect(text).not.toContain('click Delete account');
  });
});

test('a page whose body hides horizontal overflow still has its lower half clickable', async ({ page }) => {
  await open(page);
  await page.addStyleTag({ content: 'html, body { height: 100%; overflow-x: hidden; }' });
  await page.evaluate(() =>
    document.getElementById('details')?.insertAdjacentHTML('afterend', '<button onclick="__hostilePage.hit(\'bottom\')">Bottom button</button>'),
  );
  const text = await outline(page);
  const result = await click(page, refIn(text, 'Bottom button'));
  expect(result).toMatchObject({ ok: true, did: 'clicked' });
  expect(await hits(page)).toEqual(['bottom']);
});
