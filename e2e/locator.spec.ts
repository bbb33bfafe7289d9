import { expect, test, type Page } from '@playwright/test';
import { domBundle } from './support/dom-bundle.js';

// Locators in real Chromium: found again after a redesign, among what a person can see with real
// CSS and boxes (the sight and host-UI rules of `activate`): never a visually hidden, transparent,
// clipped or off-screen twin, never the host's own UI.

type Dom = typeof import('../src/dom/index.js');

const STYLE = `<style>
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .ghost { opacity: 0; }
  .away { position: absolute; left: -9999px; }
  .tiers { display: grid; grid-template-columns: repeat(3, 1fr); }
  .cards { display: flex; flex-direction: column-reverse; }
</style>`;

const PRICING = `
  <main>
    <h1>Pricing</h1>
    <section aria-label="Plans" class="tiers">
      <article class="tier"><h2>Starter</h2><a href="/try" class="button">Start free</a></article>
      <article class="tier"><h2>Team</h2><a href="/try" class="button">Start a 14-day trial</a></article>
      <article class="tier"><h2>Business</h2><a href="/try" class="button">Start a trial</a></article>
    </section>
    <section aria-labelledby="compare-title"><h2 id="compare-title">Compare the plans</h2><p>Starter, Team, Business.</p></section>
    <a href="/try" class="sr-only">Start a 14-day trial</a>
    <a href="/try" class="ghost">Start a 14-day trial</a>
    <a href="/try" class="away">Start a 14-day trial</a>
  </main>
  <aside id="guide"><a href="/try">Start a 14-day trial</a></aside>`;

async function load(page: Page, html: string): Promise<void> {
  await page.route('**/*', (route) =>
    route.request().url().startsWith('http://locator.test/')
      ? route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><head>${STYLE}</head><body>${html}</body></html>` })
      : route.abort(),
  );
  await page.goto('http://locator.test/page.html');
  await page.addScriptTag({ content: await domBundle(), type: 'module' });
  await page.waitForFunction(() => 'planloopDom' in globalThis);
}

/** The locator of the element `selector` picks, on the page as it is. */
function locatorOf(page: Page, selector: string) {
  return page.evaluate((css) => {
    const { locatorOf } = (window as unknown as { planloopDom: Dom }).planloopDom;
    return locatorOf(document.querySelector(css) as Element, { exclude: '#guide' }) ?? null;
  }, selector);
}

/** What `findLocator` finds now: the element's text and class, or the failure. */
function find(page: Page, locator: unknown) {
  return page.evaluate((wanted) => {
    const { findLocator } = (window as unknown as { planloopDom: Dom }).planloopDom;
    const found = findLocator(wanted, { exclude: '#guide' });
    return found.ok
      ? {
          ok: true,
          text: found.element.textContent?.trim(),
          className: found.element.className,
          in: found.element.closest('section')?.getAttribute('aria-label') ?? null,
          score: found.score,
        }
      : { ok: false, reason: found.reason, message: found.message };
  }, locator);
}

test('a locator names the visible element by role, name, landmark and heading, and ignores its hidden, transparent, off-screen and host-UI twins', async ({
  page,
}) => {
  await load(page, PRICING);
  const team = await locatorOf(page, '.tiers article:nth-child(2) a');
  expect(team).toEqual({ role: 'link', name: 'Start a 14-day trial', landmark: { role: 'region', name: 'Plans' }, heading: 'Team' });
  for (const twin of ['.sr-only', '.ghost', '.away', '#guide a']) expect(await locatorOf(page, twin), twin).toBeNull();
  // The twins are not candidates either: one match, not an ambiguity.
  expect(await find(page, team)).toMatchObject({ ok: true, text: 'Start a 14-day trial', className: 'button', score: 100 });
});

test('after a redesign: a class renamed (the layout with it), the link moved into another section, the heading reworded', async ({ page }) => {
  await load(page, PRICING);
  const team = await locatorOf(page, '.tiers article:nth-child(2) a');
  const compare = await locatorOf(page, 'section[aria-labelledby]');
  expect(compare).toEqual({ role: 'region', name: 'Compare the plans', landmark: { role: 'main', name: '' }, heading: 'Business' });

  // Renamed classes: the tiers are now a reversed column (the Team link is drawn elsewhere), the buttons "cta".
  await page.evaluate(() => {
    for (const element of document.querySelectorAll('.tiers')) element.className = 'cards';
    for (const element of document.querySelectorAll('.button')) element.className = 'cta';
  });
  expect(await find(page, team)).toMatchObject({ ok: true, className: 'cta', score: 100 });

  // Moved into another section, with another heading above it: the exact name is enough.
  await page.evaluate(() => {
    const link = document.querySelector('.cards article:nth-child(2) a') as Element;
    const section = document.createElement('section');
    section.setAttribute('aria-label', 'Get started');
    section.innerHTML = '<h2>Ready?</h2>';
    section.append(link);
    document.querySelector('main')?.append(section);
  });
  expect(await find(page, team)).toMatchObject({ ok: true, in: 'Get started', score: 60 });

  // The heading reworded: the region's name changes with it; its place still agrees.
  await page.evaluate(() => {
    (document.getElementById('compare-title') as HTMLElement).textContent = 'Compare our plans';
  });
  const found = await find(page, compare);
  expect(found).toMatchObject({ ok: true });
  expect((found as { score: number }).score).toBeGreaterThanOrEqual(60);
  expect((found as { score: number }).score).toBeLessThan(100);
});

test('a removed target is not found (its similar neighbour is not taken for it); hidden by CSS counts as removed', async ({ page }) => {
  await load(page, PRICING);
  const team = await locatorOf(page, '.tiers article:nth-child(2) a');
  await page.evaluate(() => document.querySelector('.tiers article:nth-child(2) a')?.remove());
  const gone = await find(page, team);
  expect(gone).toMatchObject({ ok: false, reason: 'not-found' });
  expect((gone as { message: string }).message).toContain('link "Start a 14-day trial" in region "Plans" under "Team"');
  // The Business link, visible, still matches its own locator; made transparent by the page's CSS, it does not.
  const business = await locatorOf(page, '.tiers article:nth-child(3) a');
  expect(await find(page, business)).toMatchObject({ ok: true, text: 'Start a trial' });
  await page.addStyleTag({ content: '.tiers article:nth-child(3) { opacity: 0.01 }' });
  expect(await find(page, business)).toMatchObject({ ok: false, reason: 'not-found' });
});

test('createTourLocators turns an outline ref into a locator and back into a ref activate clicks, inside an open shadow root too', async ({ page }) => {
  await load(page, '<main><h1>Shop</h1><div id="host"></div></main><p id="clicked"></p>');
  const result = await page.evaluate(async () => {
    const { createTourLocators, outlinePage, renderOutline, activate } = (window as unknown as { planloopDom: Dom }).planloopDom;
    const host = document.getElementById('host') as HTMLElement;
    const shadow = host.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<section aria-label="Basket"><h2>Basket</h2><button>Check out</button></section>';
    shadow.querySelector('button')?.addEventListener('click', () => ((document.getElementById('clicked') as HTMLElement).textContent = 'yes'));
    const text = renderOutline(outlinePage({}));
    const ref = /\[(e\d+)\] button "Check out"/.exec(text)?.[1] ?? '';
    const locators = createTourLocators({});
    const locator = locators.locate(ref);
    // A re-render: a new button, the same words.
    shadow.innerHTML = '<section aria-label="Basket"><h2>Your basket</h2><button class="primary">Check out</button></section>';
    shadow.querySelector('button')?.addEventListener('click', () => ((document.getElementById('clicked') as HTMLElement).textContent = 'yes'));
    const found = locators.find(locator as NonNullable<typeof locator>);
    const clicked = found.ok ? await activate(found.target) : undefined;
    return { locator, found, clicked: clicked?.ok, text: document.getElementById('clicked')?.textContent };
  });
  expect(result.locator).toEqual({ role: 'button', name: 'Check out', landmark: { role: 'region', name: 'Basket' }, heading: 'Basket' });
  expect(result.found.ok).toBe(true);
  expect(result).toMatchObject({ clicked: true, text: 'yes' });
});
