import type { Page } from '@playwright/test';
import { expect, openDemo, test } from './fixtures.js';

// planloop/dom in a real Chromium: what happy-dom cannot show (boxes with no size, distance from
// the viewport), and the outline's time on a 2,000-element page. The fixture page puts the module
// (through the `planloop/dom` alias) on `window.planloopDom`.

type Dom = typeof import('../src/dom/index.js');
declare global {
  interface Window {
    planloopDom: Dom;
    bigPageHtml: (elements?: number) => string;
  }
}

async function open(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto('/fixtures/dom-outline.html');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
}

/**
 * The outline of a page made of `html`, and how many hit tests (elementFromPoint) it took; with
 * `coverId`, an opaque patch is first drawn over that element.
 */
function outlineCountingHits(page: Page, html: string, coverId?: string): Promise<{ text: string; hits: number }> {
  return page.evaluate(
    ({ html, coverId }) => {
      document.body.innerHTML = html;
      if (coverId) {
        const box = (document.getElementById(coverId) as HTMLElement).getBoundingClientRect();
        const cover = document.createElement('div');
        cover.style.cssText = `position:fixed;left:${box.left - 2}px;top:${box.top - 2}px;width:${box.width + 4}px;height:${box.height + 4}px;background:#fff`;
        document.body.append(cover);
      }
      const proto = Document.prototype;
      const original = proto.elementFromPoint;
      let hits = 0;
      proto.elementFromPoint = function (this: Document, x: number, y: number) {
        hits += 1;
        return original.call(this, x, y);
      };
      try {
        const { outlinePage, renderOutline } = window.planloopDom;
        return { text: renderOutline(outlinePage()), hits };
      } finally {
        proto.elementFromPoint = original;
      }
    },
    { html, coverId },
  );
}

const outlineText = (page: Page, options: { maxTokens?: number } = {}) =>
  page.evaluate((opts) => window.planloopDom.renderOutline(window.planloopDom.outlinePage(opts)), options);

test('lists what is visible, with the shadow root opened, and nothing hidden or without a size', async ({ page }) => {
  await open(page);
  const text = await outlineText(page);
  expect(text).toContain('button "Near the top"');
  expect(text).toContain('h2 "Slotted title"');
  expect(text).toContain('button "Inside the shadow"');
  expect(text).toContain('textbox "Password" secret');
  for (const hidden of ['No size', 'Invisible', 'Not displayed', 'Hidden from AT', 'Inert']) expect(text).not.toContain(hidden);
  expect(text).not.toContain('hunter2');
  // Far below the viewport, but the whole page fits the budget: listed.
  expect(text).toContain('button "Far below"');
});

test('over budget, keeps what is near the viewport, and follows the scroll', async ({ page }) => {
  await open(page);
  await page.evaluate(() => {
    const row = (label: string) => {
      const div = document.createElement('div');
      for (let i = 0; i < 60; i += 1) div.append(Object.assign(document.createElement('button'), { textContent: `${label} ${i}` }));
      return div;
    };
    document.querySelector('main')?.prepend(row('Top'));
    document.querySelector('#far')?.after(row('Bottom'));
  });
  const top = await outlineText(page, { maxTokens: 150 });
  expect(top).toMatch(/more (elements (not listed|elsewhere)|in e\d+: .+)$/);
  // A button line, or a part of a line of sibling buttons (the outline is written shorter when the viewport is full of controls).
  const button = (name: string) => new RegExp(`(\\[e\\d+\\] button|^ *buttons:.* e\\d+) "${name}"`, 'm');
  expect(top).toMatch(button('Top 0'));
  expect(top).not.toContain('Bottom');
  // Landmarks and headings come first, wherever they are.
  expect(top).toContain('h1 "Outline check"');

  await page.locator('#far').scrollIntoViewIfNeeded();
  const bottom = await outlineText(page, { maxTokens: 150 });
  expect(bottom).toMatch(button('Far below'));
  expect(bottom).toMatch(button('Bottom 0'));
  expect(bottom).not.toContain('Top');
  expect(bottom).toContain('h1 "Outline check"');
});

test('a ref survives a re-render, and a click through the resolver reaches the new element', async ({ page }) => {
  await open(page);
  const result = await page.evaluate(() => {
    const { outlinePage, resolveTarget } = window.planloopDom;
    const node = outlinePage().nodes.find((item) => item.name === 'Near the top');
    const old = document.querySelector('#near') as HTMLButtonElement;
    const fresh = document.createElement('button');
    fresh.textContent = 'Near the top';
    fresh.id = 'near-2';
    let clicks = 0;
    fresh.addEventListener('click', () => (clicks += 1));
    old.replaceWith(fresh);
    const found = resolveTarget(node?.ref);
    if (found.ok) (found.element as HTMLElement).click();
    const again = outlinePage().nodes.find((item) => item.name === 'Near the top');
    return { ref: node?.ref, via: found.ok ? found.via : found.reason, clicks, sameRef: again?.ref === node?.ref };
  });
  expect(result).toEqual({ ref: expect.stringMatching(/^e\d+$/), via: 'relocated', clicks: 1, sameRef: true });
});

// The running demo does not load planloop/dom itself: import it through Vite's resolver (the
// `planloop/dom` alias), as a host page's own module would.
const importDom = (page: Page) =>
  page.evaluate(async () => {
    const url = '/@id/planloop/dom';
    (window as unknown as { planloopDom: Dom }).planloopDom = (await import(/* @vite-ignore */ url)) as Dom;
  });

test('outlines the running demo: site, guide and the plan panel inside its shadow root; only the dialog while it is modal', async ({ page }) => {
  await openDemo(page, '/commercial?fast=1');
  await importDom(page);
  await page.getByRole('button', { name: 'Introduce the pricing page' }).click();
  await expect(page.getByRole('button', { name: 'Start the tour' })).toBeVisible();
  const text = await outlineText(page, { maxTokens: 1000 });
  expect(text).toMatch(/^ {2}\[e\d+\] h1 "Pricing"$/m);
  expect(text).toMatch(/link "Start a 14-day trial"$/m);
  expect(text).toContain('button "Start the tour"');
  // <plan-panel> draws the plan in an open shadow root.
  expect(text).toMatch(/h\d "Tour plan"/);

  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.locator('#settings')).toBeVisible();
  await page.getByLabel('An OpenAI-compatible endpoint').check();
  await page.getByLabel('API key (optional)').fill('sk-test-not-for-models');
  const modal = await outlineText(page);
  expect(modal.split('\n')[0]).toMatch(/^\[e\d+\] dialog "Settings"$/);
  expect(modal).toContain('textbox "API key (optional)" secret');
  expect(modal).not.toContain('sk-test');
  expect(modal).not.toContain('Pricing');
});

test('outlines a 2,000-element page in time that grows no faster than the page', async ({ page }, testInfo) => {
  await open(page);
  const figures = await page.evaluate(() => {
    document.body.innerHTML = window.bigPageHtml(2000);
    const elements = document.body.querySelectorAll('*').length;
    const { outlinePage, renderOutline } = window.planloopDom;
    const median = (runs: number, work: () => void): number => {
      const times: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        const start = performance.now();
        work();
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[Math.floor(runs / 2)] as number;
    };
    outlinePage(); // warm-up: first layout, refs given
    let outline = outlinePage();
    const big = median(15, () => (outline = outlinePage()));
    // The same page at a quarter of the size, measured in the same run: a ratio holds on a busy machine.
    const bigRoot = document.body.innerHTML;
    document.body.innerHTML = window.bigPageHtml(500);
    outlinePage();
    const small = median(15, () => outlinePage());
    document.body.innerHTML = bigRoot;
    return {
      elements,
      median: big,
      small,
      ratio: big / Math.max(small, 0.05),
      total: outline.total,
      listed: outline.nodes.length,
      tokens: outline.tokens,
      text: renderOutline(outline),
    };
  });
  testInfo.annotations.push({
    type: 'outline, 2,000 elements',
    description: `median ${figures.median.toFixed(2)} ms (500 elements: ${figures.small.toFixed(2)} ms); ${figures.total} listable, ${figures.listed} listed, ${figures.tokens} tokens (estimated)`,
  });
  console.log(
    `dom-outline: ${figures.elements} elements, median ${figures.median.toFixed(2)} ms (500 elements: ${figures.small.toFixed(2)} ms), ${figures.listed}/${figures.total} listed, ${figures.tokens} tokens`,
  );
  expect(figures.elements).toBeGreaterThanOrEqual(2000);
  expect(figures.tokens).toBeLessThanOrEqual(400);
  expect(figures.text).toMatch(/more (elements (not listed|elsewhere)|in e\d+: .+)$/);
  // Four times the page must not take much more than four times as long (a walk that is worse than
  // linear would take 16 times); the absolute figure is the benchmark's (npm run bench).
  expect(figures.ratio).toBeLessThan(10);
});

test('a name part drawn where its link was already hit is not hit-tested again; a covered part still is, and is left out', async ({ page }) => {
  await open(page);
  const run = (spans: boolean) => {
    const words = (text: string) => (spans ? `<span>${text}</span>` : text);
    // Links with room for an icon before their words: the link's centre is on its words, not at theirs.
    return outlineCountingHits(
      page,
      `<style>.icon { padding-left: 28px }</style><main><h1>Hits</h1>
        <p><a href="/a" class="icon">${words('Pricing for teams')}</a> and <a href="/b" class="icon">${words('Contact the sales team')}</a>.</p>
        <p><a href="/c">Open the <span id="under">SECRETWORD</span> developer documentation</a></p></main>`,
      'under',
    );
  };
  const plain = await run(false);
  const wrapped = await run(true);
  for (const { text } of [plain, wrapped]) {
    expect(text).toContain('link "Pricing for teams"');
    expect(text).toContain('link "Contact the sales team"');
    expect(text).toContain('link "Open the developer documentation"');
    expect(text).not.toContain('SECRETWORD');
  }
  // The link's centre lands on its span: the span is seen there, with no hit test of its own (before: one more each).
  expect(wrapped.hits).toBe(plain.hits);
});

test('an icon with no words in a link or a heading is not hit-tested: it can add no word to the name', async ({ page }) => {
  await open(page);
  const run = (icons: boolean) => {
    const icon = icons ? '<i class="bi bi-gear" data-icon="gear"></i>' : '';
    return outlineCountingHits(
      page,
      `<style>i { display: inline-block; width: 16px; height: 16px; background: #444 }</style>
        <nav><a href="/a">${icon}<b>Dashboard</b></a> <a href="/b">${icon}<b>Settings</b></a> <a href="/c">${icon}<b>Billing</b></a></nav>
        <main><h1>${icon}<b>Account</b></h1></main>`,
    );
  };
  const plain = await run(false);
  const withIcons = await run(true);
  expect(withIcons.text).toBe(plain.text);
  expect(withIcons.hits).toBe(plain.hits);
});

test('a collapsed menu (a display:none container) is left at its first link: no box is read for the rest, and none is listed', async ({ page }) => {
  await open(page);
  const result = await page.evaluate(() => {
    const links = Array.from({ length: 50 }, (_, i) => `<li><a href="/m${i}">Menu item ${i}</a></li>`).join('');
    document.body.innerHTML = `<nav><a href="/">Home</a><div class="menu" style="display:none"><ul>${links}</ul></div><a href="/help">Help</a></nav>
      <main><h1>Collapsed</h1></main>`;
    const proto = Element.prototype;
    const original = proto.getBoundingClientRect;
    let boxes = 0;
    proto.getBoundingClientRect = function (this: Element) {
      if (this.closest('.menu')) boxes += 1;
      return original.call(this);
    };
    try {
      const { outlinePage, renderOutline } = window.planloopDom;
      return { text: renderOutline(outlinePage()), boxes };
    } finally {
      proto.getBoundingClientRect = original;
    }
  });
  expect(result.text).toContain('"Home"');
  expect(result.text).toContain('"Help"');
  expect(result.text).not.toContain('Menu item');
  expect(result.boxes).toBe(1);
});

test('after a collapsed menu inside a shadow root or a slot, the walk goes on with the rest of the page', async ({ page }) => {
  await open(page);
  const text = await page.evaluate(() => {
    const links = (prefix: string) => Array.from({ length: 5 }, (_, i) => `<a href="/${prefix}${i}">${prefix} item ${i}</a>`).join('');
    document.body.innerHTML = `<nav><div id="host"><div slot="menu" style="display:none">${links('Slotted')}</div><a href="/light">Light link</a></div>
      <a href="/after">After the host</a></nav><main><h1>Shadow menus</h1></main>`;
    const host = document.getElementById('host') as HTMLElement;
    host.attachShadow({
      mode: 'open',
    }).innerHTML = `<div style="display:none">${links('Shadow')}</div><slot name="menu"></slot><slot></slot><a href="/inside">Inside the shadow</a>`;
    const { outlinePage, renderOutline } = window.planloopDom;
    return renderOutline(outlinePage());
  });
  for (const name of ['Light link', 'Inside the shadow', 'After the host', 'Shadow menus']) expect(text).toContain(name);
  expect(text).not.toMatch(/(Slotted|Shadow) item/);
});
