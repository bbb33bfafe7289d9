// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { fitOutline, type FitCost } from '../../src/dom/fit-outline.js';
import type { PageElement, PageElementKind } from '../../src/dom/page-elements.js';

// Issue 35: at the default budget, what a person sees first and the form they are filling come first.

/**
 * A synthetic page: a banner of links, main with a heading, a paragraph and a form whose last fields
 * are below the fold (with `submit`, a button in the viewport between its fields), then far headings,
 * prose and links.
 */
function page(submit = false): PageElement[] {
  const found: PageElement[] = [];
  const add = (kind: PageElementKind, role: string, parent: number, distance: number, inMain = false): number => {
    found.push({
      element: document.createElement('div'),
      kind,
      role,
      parent,
      depth: parent < 0 ? 0 : (found[parent] as PageElement).depth + 1,
      distance,
      inMain,
      inContent: inMain,
      isPrivate: false,
      hidden: false,
    });
    return found.length - 1;
  };
  const banner = add('landmark', 'banner', -1, 0);
  for (let i = 0; i < 10; i += 1) add('control', 'link', banner, 0);
  const main = add('landmark', 'main', -1, 0, true);
  add('heading', 'heading', main, 0, true);
  add('text', 'paragraph', main, 0, true);
  const form = add('landmark', 'form', main, 0, true);
  for (const distance of [0, 0, 0]) add('control', 'textbox', form, distance, true);
  if (submit) add('control', 'button', form, 0, true);
  for (const distance of [900, 1700, 2500]) add('control', 'textbox', form, distance, true);
  for (let i = 0; i < 20; i += 1) add('heading', 'heading', main, 3000 + i * 400, true);
  for (let i = 0; i < 20; i += 1) add('text', 'paragraph', main, 3100 + i * 400, true);
  for (let i = 0; i < 20; i += 1) add('control', 'link', main, 3200 + i * 400, true);
  return found;
}

const at = (found: PageElement[], kind: PageElementKind, role?: string) =>
  found.flatMap((item, i) => (item.kind === kind && (!role || item.role === role) ? [i] : []));
const flat = (tokens: number): FitCost => ({ line: () => tokens });

describe('fitOutline', () => {
  it('puts the viewport’s controls and every field of a visible form before the structure and prose outside the viewport', () => {
    const found = page();
    const form = found.findIndex((item) => item.role === 'form');
    const fields = at(found, 'control', 'textbox');
    const { keep, way } = fitOutline(found, [flat(10)], 300, 20, { focused: (item) => item.parent === form, first: [12, 13] });
    expect(way).toBe(0);
    const viewportControls = at(found, 'control').filter((i) => (found[i] as PageElement).distance === 0);
    for (const i of [...viewportControls, ...fields, 12, 13]) expect(keep[i], `element ${i}`).toBe(1);
    // What is left goes to the structure nearest the viewport, not to the far links.
    expect(at(found, 'heading').filter((i) => keep[i]).length).toBeGreaterThan(0);
    expect(at(found, 'control', 'link').filter((i) => keep[i] && (found[i] as PageElement).distance > 0)).toEqual([]);
  });

  it('lists every field of a visible form, below the fold too, before the form’s buttons in the viewport', () => {
    const found = page(true);
    const form = found.findIndex((item) => item.role === 'form');
    const fields = at(found, 'control', 'textbox');
    const button = at(found, 'control', 'button')[0] as number;
    // 100 tokens after the reserve: main, the heading and the paragraph take 30, the form and its six fields 70; the button does not fit too.
    const { keep } = fitOutline(found, [flat(10)], 120, 20, { focused: (item) => item.parent === form, first: [12, 13] });
    for (const i of fields) expect(keep[i], `field ${i}`).toBe(1);
    expect(keep[button]).toBe(0);
    // With room for it, the button is listed too, before the viewport's links outside the form.
    const roomy = fitOutline(found, [flat(10)], 135, 20, { focused: (item) => item.parent === form, first: [12, 13] }).keep;
    expect(roomy[button]).toBe(1);
    expect(at(found, 'control', 'link').filter((i) => roomy[i])).toEqual([]);
  });

  it('without a layout, nothing counts as in view: the structure comes before the controls', () => {
    const found = page().map((item) => ({ ...item, distance: 0 }));
    const blind = fitOutline(found, [flat(10)], 200, 20, { layout: false }).keep;
    const seen = fitOutline(found, [flat(10)], 200, 20, {}).keep;
    // Without a layout the structure takes its share first; with one (all "in view" here) the controls do.
    const headings = (keep: Uint8Array) => at(found, 'heading').filter((i) => keep[i]).length;
    expect(headings(blind)).toBeGreaterThanOrEqual(4);
    expect(headings(blind)).toBeGreaterThan(headings(seen));
  });

  it('takes the first shorter way of writing in which all that a person can act on now fits, and the shortest when none does', () => {
    const found = page();
    const form = found.findIndex((item) => item.role === 'form');
    const now = [...at(found, 'control').filter((i) => (found[i] as PageElement).distance === 0), ...at(found, 'control', 'textbox')];
    const ways = [flat(20), flat(12), flat(6)];
    // 19 elements to act on now (with their banner, main and form lines): 20 tokens each is over 80% of 300-20, 12 each fits.
    const fitted = fitOutline(found, ways, 300, 20, { focused: (item) => item.parent === form });
    expect(fitted.way).toBe(1);
    for (const i of now) expect(fitted.keep[i]).toBe(1);
    // Too small for any way: the shortest, keeping what fits.
    const tight = fitOutline(found, ways, 60, 10, { focused: (item) => item.parent === form });
    expect(tight.way).toBe(2);
    expect(now.filter((i) => tight.keep[i]).length).toBeGreaterThan(0);
  });

  it('runs of sibling links cost one line start and a part each, so more of them fit', () => {
    const found = page();
    const links = at(found, 'control', 'link').filter((i) => (found[i] as PageElement).distance === 0);
    const line: FitCost = { line: () => 12 };
    const joined: FitCost = { line: () => 12, runOf: (i) => (links.includes(i) ? (links[0] as number) : -1), inline: () => 4, overhead: () => 4 };
    const fitted = fitOutline(found, [line, joined], 120, 10, {});
    expect(fitted.way).toBe(1);
    for (const i of links) expect(fitted.keep[i]).toBe(1);
  });

  it('keeps the main heading and the first paragraph before the viewport’s controls when the budget is tiny', () => {
    const found = page();
    const { keep } = fitOutline(found, [flat(10)], 50, 10, { first: [12, 13] });
    expect([keep[11], keep[12], keep[13]]).toEqual([1, 1, 1]);
  });

  it('writes no line whose least cost cannot fit: the same elements kept, with fewer names and states read', () => {
    const found = page();
    const asked = new Set<number>();
    const cost = (least: boolean): FitCost => ({
      line: (i) => {
        if (least) asked.add(i);
        return (found[i] as PageElement).kind === 'text' ? 30 : 10;
      },
      ...(least ? { least: (i: number) => ((found[i] as PageElement).kind === 'text' ? 20 : 6) } : {}),
    });
    const without = fitOutline(found, [cost(false)], 300, 20, { first: [12, 13] });
    const withLeast = fitOutline(found, [cost(true)], 300, 20, { first: [12, 13] });
    expect(Array.from(withLeast.keep)).toEqual(Array.from(without.keep));
    // Every line written is one the budget could still take at its least: far fewer than the elements looked at.
    const kept = Array.from(withLeast.keep).filter(Boolean).length;
    expect(asked.size).toBeLessThan(kept + 8);
  });
});
