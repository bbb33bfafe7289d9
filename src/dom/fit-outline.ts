import { FIELD_ROLES } from './field-help.js';
import type { PageElement } from './page-elements.js';

/*
 * Which elements of a page fit an outline's budget, in the order a person's attention goes:
 * what the page just announced, the main heading and the first paragraph; then what a person can
 * act on now (the controls in the viewport, every field of a form that is visible or has focus);
 * then the page's structure near the viewport and the main content's prose; then the rest. When
 * what a person can act on now does not fit as it is, its lines get shorter (see `FitCost`)
 * before any of it is left out.
 */

/** What to put first, besides the viewport. */
export interface FitPriorities {
  /**
   * Elements of the form the user is in or sees: they come with the viewport's controls, first,
   * the fields (textboxes, selects, checkboxes…) before the forms' buttons.
   */
  focused?: ((item: PageElement) => boolean) | undefined;
  /** Indexes taken before anything but live regions: the main heading, the first paragraph. */
  first?: readonly number[] | undefined;
  /** Controls in the viewport before anything else, without a share (a closer look at a region). */
  viewportFirst?: boolean | undefined;
  /**
   * Whether the elements' distances to the viewport were measured. Without a layout (a DOM without
   * one) nothing is known to be in view: only the focused form comes before the structure, and the
   * controls follow it within 45%, those in `main` first. Default: true.
   */
  layout?: boolean | undefined;
}

/**
 * What an element's line costs, in one way of writing the outline. With `runOf`, elements of the
 * same run (consecutive sibling links or buttons, none containing another listed element) share
 * one line: each costs `inline`, and the first of a run to be kept also `overhead` (the line's
 * indent, role and break).
 */
export interface FitCost {
  line: (index: number) => number;
  /** The run an element is in (the index of the run's first element), or -1. */
  runOf?: ((index: number) => number) | undefined;
  inline?: ((index: number) => number) | undefined;
  overhead?: ((index: number) => number) | undefined;
  /**
   * At most what `line` (in a run: `inline`) costs, known without writing the line (its indent,
   * ref and role): an element whose least cost already does not fit is passed over without its
   * name and state being read. Without it, every element looked at is written.
   */
  least?: ((index: number) => number) | undefined;
}

/** Elements in a row that do not fit before a pass takes the budget as spent. */
const MISSES_BEFORE_STOP = 8;
/**
 * Share of the budget (after the reserve) what a person can act on now may take at most, written
 * the longest way: the rest is for headings and prose. Written shorter, it may take all of the
 * budget and the reserve for the lines saying what was left out: those get what it leaves.
 */
const NOW_SHARE = 0.8;
/** Share of the reserve (the lines saying what was left out) a shorter way may lend to what a person can act on now. */
const RESERVE_LENT = 1;
/** Shares of the budget each later pass may spend at most, before the passes that fill what is left. */
const STRUCTURE_SHARE = 0.4;
const NEAR_SHARE = 0.45;
const PROSE_SHARE = 0.25;

/**
 * Which elements fit `maxTokens` (a 1 per kept element), and which of `costs` (ways of writing the
 * outline, longest first) was used. When not all fit, `reserve` tokens are kept aside (the lines
 * saying what was left out) and passes fill the rest, each stopping after
 * {@link MISSES_BEFORE_STOP} elements in a row that do not fit:
 * 1. live regions (alert, status, log), the main heading and the first paragraph of the content;
 * 2. what a person can act on now: the fields of the focused or visible forms first (all of them,
 *    below the fold too), then their buttons, then the viewport's controls, those in `main` first, in document order; within 80% written the first
 *    of `costs` ways, else within all that is left and the reserve, written the first later way in
 *    which all of them fit, else the shortest (without a layout: the focused form's fields only);
 * 3. the page's structure (landmarks, headings) in or next to the viewport, within 40%: nearest
 *    the viewport first (by screenfuls), then the least nested; then the viewport's content blocks
 *    (without a layout, then the controls within 45%, those in `main` first);
 * 4. prose, within 25%: nearest the viewport, then the page's content (`main`, an article) first;
 * 5. everything else by the same orders, without a share: structure (the farther headings),
 *    controls and blocks, prose.
 * An element comes with the elements it is inside.
 *
 * @example
 * ```ts
 * import { FIELD_ROLES } from './field-help.js';
import type { PageElement } from './page-elements.js';
 * declare const found: readonly PageElement[];
 * declare const lineCosts: number[];
 * const { keep } = fitOutline(found, [{ line: (i) => lineCosts[i]! }], 400, 20, {});
 * ```
 */
export function fitOutline(
  found: readonly PageElement[],
  costs: readonly FitCost[],
  maxTokens: number,
  reserve: number,
  priorities: FitPriorities,
): { keep: Uint8Array; way: number } {
  const longest = costs[0] as FitCost;
  // Everything in when it all fits, written the longest way: summed at the least costs first (no
  // line written), then as written. (A line costs at least a token: more lines than the budget never fit.)
  const sumFits = (cost: (index: number) => number): boolean => {
    let all = 0;
    for (let i = 0; i < found.length && all <= maxTokens; i += 1) all += cost(i);
    return all <= maxTokens;
  };
  if (found.length <= maxTokens && (!longest.least || sumFits(longest.least)) && sumFits(longest.line))
    return { keep: new Uint8Array(found.length).fill(1), way: 0 };

  const at = (i: number) => found[i] as PageElement;
  const screen = Math.max(1, found[0]?.element.ownerDocument.defaultView?.innerHeight ?? 1);
  const screens = (i: number) => (at(i).distance === 0 ? 0 : 1 + Math.floor(at(i).distance / screen));
  const focused = priorities.focused;
  // A field of a focused or visible form ranks 2, its other controls (buttons) 1: every field before any button.
  const inFocus = (i: number) => (focused?.(at(i)) ? (FIELD_ROLES.has(at(i).role) ? 2 : 1) : 0);
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
  // What a person can act on now: the focused and visible forms' fields, the viewport's controls.
  const measured = priorities.layout !== false;
  const now = rest.filter((i) => inFocus(i) || (measured && screens(i) === 0 && at(i).kind === 'control'));
  const total = Math.max(0, maxTokens - reserve);

  /** One attempt at filling the budget, written one way. */
  const attempt = (cost: FitCost) => {
    const keep = new Uint8Array(found.length);
    const runKept = cost.runOf ? new Uint16Array(found.length) : undefined;
    const marginal = (i: number): number => {
      const run = cost.runOf?.(i) ?? -1;
      if (run < 0 || !runKept || !cost.inline) return cost.line(i);
      return cost.inline(i) + (runKept[run] ? 0 : (cost.overhead?.(i) ?? 0));
    };
    const least = cost.least;
    const leastMarginal = (i: number): number => {
      const run = cost.runOf?.(i) ?? -1;
      return (least as (index: number) => number)(i) + (run < 0 || !runKept || !cost.inline || runKept[run] ? 0 : (cost.overhead?.(i) ?? 0));
    };
    let left = total;
    const take = (order: readonly number[], limit: number): number => {
      let spent = 0;
      let misses = 0;
      for (const index of order) {
        if (keep[index]) continue;
        if (least) {
          // What cannot fit even at its least cost is a miss without being written.
          let floor = 0;
          for (let i = index; i >= 0 && !keep[i]; i = at(i).parent) floor += leastMarginal(i);
          if (floor > left || spent + floor > limit) {
            if (++misses >= MISSES_BEFORE_STOP) break;
            continue;
          }
        }
        let price = 0;
        for (let i = index; i >= 0 && !keep[i]; i = at(i).parent) price += marginal(i);
        if (price > left || spent + price > limit) {
          if (++misses >= MISSES_BEFORE_STOP) break;
          continue;
        }
        misses = 0;
        left -= price;
        spent += price;
        for (let i = index; i >= 0 && !keep[i]; i = at(i).parent) {
          keep[i] = 1;
          const run = cost.runOf?.(i) ?? -1;
          if (run >= 0 && runKept) runKept[run] = (runKept[run] ?? 0) + 1;
        }
      }
      return spent;
    };
    const borrow = (tokens: number) => (left += tokens);
    return { keep, take, borrow };
  };

  const firsts = [...live, ...(priorities.first ?? [])];
  if (priorities.viewportFirst) {
    const { keep, take } = attempt(longest);
    take(firsts, Number.POSITIVE_INFINITY);
    take(
      rest.filter((i) => inFocus(i) || screens(i) === 0),
      Number.POSITIVE_INFINITY,
    );
    fillRest(take);
    return { keep, way: 0 };
  }
  // The first way in which all that a person can act on now fits its share; else the shortest.
  // The attempt of the way taken goes on to fill the rest (the reserve lent back first).
  let chosen: ReturnType<typeof attempt> | undefined;
  let way = 0;
  for (; way < costs.length; way += 1) {
    const trial = attempt(costs[way] as FitCost);
    trial.take(firsts, Number.POSITIVE_INFINITY);
    const lent = way > 0 ? Math.floor(reserve * RESERVE_LENT) : 0;
    trial.borrow(lent);
    trial.take(now, way === 0 ? total * NOW_SHARE : Number.POSITIVE_INFINITY);
    trial.borrow(-lent);
    chosen = trial;
    if (way === costs.length - 1 || now.every((i) => trial.keep[i])) break;
  }
  const { keep, take } = chosen as ReturnType<typeof attempt>;
  fillRest(take);
  return { keep, way };

  function fillRest(take: (order: readonly number[], limit: number) => number): void {
    take([...structure.filter((i) => screens(i) <= 1), ...rest.filter((i) => screens(i) === 0 && at(i).kind === 'block')], total * STRUCTURE_SHARE);
    if (!measured) take(rest, total * NEAR_SHARE);
    take(prose, total * PROSE_SHARE);
    take(structure, Number.POSITIVE_INFINITY);
    take(rest, Number.POSITIVE_INFINITY);
    take(prose, Number.POSITIVE_INFINITY);
  }
}
