// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createRefRegistry, createTourLocators, findLocator, locatorOf, outlinePage, renderOutline, resolveTarget } from '../../src/dom/index.js';

// Locators without layout (happy-dom): the element's role, name and place, and what finding one
// again tolerates. What a person can see with real CSS and boxes is tested in e2e/locator.spec.ts.

afterEach(() => {
  document.body.replaceChildren();
});

const PRICING = `
  <main>
    <h1>Pricing</h1>
    <section aria-label="Plans" class="tiers">
      <article class="tier" id="tier-starter"><h2>Starter</h2><a href="/try" class="button">Start free</a></article>
      <article class="tier" id="tier-team"><h2>Team</h2><a href="/try" class="button">Start a 14-day trial</a></article>
      <article class="tier" id="tier-business"><h2>Business</h2><a href="/try" class="button">Start a trial</a></article>
    </section>
    <section aria-labelledby="compare-title"><h2 id="compare-title">Compare the plans</h2><table><tr><td>5</td></tr></table></section>
  </main>
  <aside id="guide" data-planloop-ignore><button>Start a 14-day trial</button></aside>`;

const $ = (selector: string): Element => document.querySelector(selector) as Element;

describe('locatorOf', () => {
  it('names an element by role and accessible name, with its landmark and the heading it sits under: no ref, no selector', () => {
    document.body.innerHTML = PRICING;
    expect(locatorOf($('#tier-team a'))).toEqual({ role: 'link', name: 'Start a 14-day trial', landmark: { role: 'region', name: 'Plans' }, heading: 'Team' });
    // An unnamed container is named by its first heading; the heading above it is the one before it.
    expect(locatorOf($('#tier-team'))).toEqual({ role: 'article', name: 'Team', landmark: { role: 'region', name: 'Plans' }, heading: 'Starter' });
    expect(locatorOf($('section[aria-labelledby]'))).toEqual({
      role: 'region',
      name: 'Compare the plans',
      landmark: { role: 'main', name: '' },
      heading: 'Business',
    });
    expect(JSON.stringify(locatorOf($('#tier-team a')))).not.toMatch(/tier|button|#|\be\d+\b/);
  });

  it('gives an ordinal only to twins that share role, name, landmark and heading', () => {
    document.body.innerHTML = '<main><h2>Cart</h2><button>Remove</button><button>Remove</button><h2>Saved</h2><button>Remove</button></main>';
    const buttons = Array.from(document.querySelectorAll('button'));
    expect(buttons.map((button) => locatorOf(button)?.nth)).toEqual([0, 1, undefined]);
  });

  it('has none for what a person cannot see or the host UI', () => {
    document.body.innerHTML = `${PRICING}<p hidden><button id="ghost">Ghost</button></p>`;
    expect(locatorOf($('#guide button'))).toBeUndefined();
    expect(locatorOf($('#ghost'))).toBeUndefined();
    expect(locatorOf($('#tier-team a'), { root: $('section[aria-labelledby]') })).toBeUndefined();
  });
});

describe('findLocator', () => {
  const team = { role: 'link', name: 'Start a 14-day trial', landmark: { role: 'region', name: 'Plans' }, heading: 'Team' };

  it('finds the element again after a re-render, a class renamed and ids dropped', () => {
    document.body.innerHTML = PRICING;
    document.body.innerHTML = PRICING.replaceAll('class="button"', 'class="cta"').replaceAll(/ id="tier-\w+"/g, '');
    const found = findLocator(team);
    expect(found.ok && found.element.textContent).toBe('Start a 14-day trial');
    expect(found.ok && found.score).toBe(100);
  });

  it('finds it moved into another section (its exact name is enough), or turned from a link into a button in place, not both', () => {
    document.body.innerHTML = `<main><h1>Pricing</h1><section aria-label="Get started"><h2>Try it</h2><a href="/try">Start a 14-day trial</a></section></main>`;
    expect(findLocator(team)).toMatchObject({ ok: true, score: 60 });
    document.body.innerHTML = PRICING.replace('<a href="/try" class="button">Start a 14-day trial</a>', '<button>Start a 14-day trial</button>');
    const button = findLocator(team);
    expect(button.ok && button.element.localName).toBe('button');
    expect(button.ok && button.score).toBe(90);
    document.body.innerHTML = `<main><section aria-label="Get started"><h2>Try it</h2><button>Start a 14-day trial</button></section></main>`;
    expect(findLocator(team)).toMatchObject({ ok: false, reason: 'not-found' });
  });

  it('finds a region whose heading was reworded, by its place; refuses a similar name elsewhere', () => {
    document.body.innerHTML = PRICING.replace('Compare the plans', 'Compare our plans');
    const compare = { role: 'region', name: 'Compare the plans', landmark: { role: 'main', name: '' }, heading: 'Business' };
    const found = findLocator(compare);
    expect(found.ok && found.element.id).toBe('');
    expect(found.ok && found.element.getAttribute('aria-labelledby')).toBe('compare-title');
    // The Team link removed: the Business tier's "Start a trial" is similar in name, not in place.
    document.body.innerHTML = PRICING.replace('<a href="/try" class="button">Start a 14-day trial</a>', '');
    const gone = findLocator(team);
    expect(gone).toMatchObject({ ok: false, reason: 'not-found' });
    expect(!gone.ok && gone.message).toMatch(/link "Start a 14-day trial" in region "Plans" under "Team"/);
  });

  it('says ambiguous for twins without an ordinal, and picks by the ordinal when there is one', () => {
    document.body.innerHTML = '<main><h2>Cart</h2><button id="a">Remove</button><button id="b">Remove</button></main>';
    expect(findLocator({ role: 'button', name: 'Remove', landmark: { role: 'main', name: '' }, heading: 'Cart' })).toMatchObject({
      ok: false,
      reason: 'ambiguous',
    });
    const second = findLocator({ role: 'button', name: 'Remove', landmark: { role: 'main', name: '' }, heading: 'Cart', nth: 1 });
    expect(second.ok && second.element.id).toBe('b');
  });

  it('never finds the host UI or hidden elements, and never throws on a bad locator', () => {
    document.body.innerHTML = `<main><p hidden><a href="/x">Start a 14-day trial</a></p></main><aside data-planloop-ignore><a href="/y">Start a 14-day trial</a></aside>`;
    expect(findLocator(team)).toMatchObject({ ok: false, reason: 'not-found' });
    for (const bad of [
      null,
      'link',
      { role: 'link' },
      { role: 3, name: 'x' },
      { role: 'link', name: 'x', nth: -1 },
      { role: 'link', name: 'x', landmark: 'main' },
    ]) {
      expect(findLocator(bad)).toMatchObject({ ok: false, reason: 'invalid' });
    }
  });
});

describe('createTourLocators', () => {
  it('turns an outline ref into a locator, and a locator back into a ref the tools resolve', () => {
    document.body.innerHTML = PRICING;
    const registry = createRefRegistry();
    const text = renderOutline(outlinePage({ registry, exclude: '#guide' }));
    const ref = /\[(e\d+)\] link "Start a 14-day trial"/.exec(text)?.[1] as string;
    const locators = createTourLocators({ registry, exclude: '#guide' });
    const locator = locators.locate(ref);
    expect(locator).toEqual(team());
    // A new page (a re-render): the old ref's element is gone; the locator finds the new one.
    document.body.innerHTML = PRICING.replaceAll('tier', 'plan');
    const found = locators.find(locator!);
    expect(found.ok).toBe(true);
    const resolved = resolveTarget(found.ok ? found.target : '', { registry, exclude: '#guide' });
    expect(resolved.ok && resolved.element.textContent).toBe('Start a 14-day trial');
    expect(locators.locate('e999')).toBeUndefined();
    expect(locators.find({ role: 'button', name: 'Nothing like it' })).toMatchObject({ ok: false, reason: 'not-found' });
  });
});

function team() {
  return { role: 'link', name: 'Start a 14-day trial', landmark: { role: 'region', name: 'Plans' }, heading: 'Team' };
}
