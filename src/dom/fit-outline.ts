import type { PageElement } from './page-elements.js';

/*
 * Which elements of a page fit an outline's budget, in the order a person's attention goes:
 * what the page just announced, the main heading and the first paragraph, the page's structure,
 * what is in the viewport (and the focused form), then the main content's prose, then the rest.
 */

/** What to put first, besides the viewport. */
export interface FitPriorities {
  /** Elements of the form the user is in: they come before the rest of the viewport. */
  focused?: ((item: PageElement) => boolean) | undefined;
  /** Indexes taken before anything but live regions: the main heading, the first paragraph. */
  first?: readonly number[] | undefined;
  /** Controls in the viewport before the structure, without a share (a closer look at a region). */
  viewportFirst?: boolean | undefined;
}

/** Elements in a row that do not fit before a pass takes the budget as spent. */
const MISSES_BEFORE_STOP = 8;
/** Shares of the budget (after the reserve) each pass may spend at most, before the passes that fill what is left. */
const STRUCTURE_SHARE = 0.4;
const NEAR_SHARE = 0.45;
const PROSE_SHARE = 0.25;

/**
 * Which elements fit `maxTokens` (a 1 per kept element). When not all do, `reserve` tokens are
 * kept aside (the lines saying what was left out) and passes fill the rest, each stopping after
 * {@link MISSES_BEFORE_STOP} elements in a row that do not fit:
 * 1. live regions (alert, status, log), the main heading and the first paragraph of the content;
 * 2. the page's structure (landmarks, headings) in or next to the viewport, within 40%: nearest
 *    the viewport first (by screenfuls), then the least nested;
 * 3. controls and blocks in the viewport or the focused form, within 45%: the focused form
 *    first, then inside `main`, then in document order;
 * 4. prose, within 25%: nearest the viewport, then the page's content (`main`, an article) first;
 * 5. everything else by the same orders, without a share: structure (the farther headings),
 *    controls and blocks, prose.
 * An element comes with the elements it is inside.
 *
 * @example
 * ```ts
 * import type { PageElement } from './page-elements.js';
 * declare const found: readonly PageElement[];
 * declare const costs: number[];
 * const keep = fitOutline(found, (i) => costs[i]!, 400, 20, {});
 * ```
 */
export function fitOutline(found: readonly PageElement[], costAt: (index: number) => number, maxTokens: number, reserve: number, priorities: FitPriorities): Uint8Array {
  const keep = new Uint8Array(found.length);
  // Everything in when it all fits. (A line costs at least a token: more lines than the budget never fit.)
  if (found.length <= maxTokens) {
    let all = 0;
    for (let i = 0; i < found.length && all <= maxTokens; i += 1) all += costAt(i);
    if (all <= maxTokens) return keep.fill(1);
  }

  const at = (i: number) => found[i] as PageElement;
  const screen = Math.max(1, found[0]?.element.ownerDocument.defaultView?.innerHeight ?? 1);
  const screens = (i: number) => (at(i).distance === 0 ? 0 : 1 + Math.floor(at(i).distance / screen));
  const focused = priorities.focused;
  const inFocus = (i: number) => (focused && focused(at(i)) ? 1 : 0);
  const live: number[] = [];
  const structure: number[] = [];
  const prose: number[] = [];
  const rest: number[] = [];
  found.forEach((item, i) => {
    if (item.kind === 'live') live.push(i);
    else if (item.kind === 'landmark' || item.kind === 'heading') structure.push(i);
    else if (item.kind === 'text') prose.push(i);
    else rest.push(i);
  });
  structure.sort((a, b) => screens(a) - screens(b) || at(a).depth - at(b).depth || a - b);
  rest.sort((a, b) => inFocus(b) - inFocus(a) || screens(a) - screens(b) || Number(at(b).inMain) - Number(at(a).inMain) || a - b);
  prose.sort((a, b) => screens(a) - screens(b) || Number(at(b).inContent) - Number(at(a).inContent) || a - b);
  const near = rest.filter((i) => inFocus(i) || screens(i) === 0);

  const total = Math.max(0, maxTokens - reserve);
  let left = total;
  const take = (order: readonly number[], limit: number): void => {
    let spent = 0;
    let misses = 0;
    for (const index of order) {
      if (keep[index]) continue;
      let cost = 0;
      for (let i = index; i >= 0 && !keep[i]; i = at(i).parent) cost += costAt(i);
      if (cost > left || spent + cost > limit) {
        if (++misses >= MISSES_BEFORE_STOP) return;
        continue;
      }
      misses = 0;
      left -= cost;
      spent += cost;
      for (let i = index; i >= 0 && !keep[i]; i = at(i).parent) keep[i] = 1;
    }
  };
  take([...live, ...(priorities.first ?? [])], Number.POSITIVE_INFINITY);
  if (priorities.viewportFirst) take(near, Number.POSITIVE_INFINITY);
  take(structure.filter((i) => screens(i) <= 1), total * STRUCTURE_SHARE);
  take(near, total * NEAR_SHARE);
  take(prose, total * PROSE_SHARE);
  take(structure, Number.POSITIVE_INFINITY);
  take(rest, Number.POSITIVE_INFINITY);
  take(prose, Number.POSITIVE_INFINITY);
  return keep;
}
