import { accessibleName } from './accessible-name.js';
import { refRegistryFor, type RefRegistry } from './element-ref.js';
import { elementRole, LANDMARK_ROLES, NAME_FROM_CONTENT } from './element-role.js';
import { isOffLimits } from './host-ui.js';
import { documentOf, pageRoot, type PageRoot } from './page-root.js';
import { resolveTarget } from './resolve-target.js';
import { unseenReason } from './sighted.js';
import { hasLayout } from './visibility.js';

/*
 * Locators: how a recorded tour names an element so that it can be found again on another visit,
 * after a re-render or a redesign. Never an outline ref (refs die with the page) and never a CSS
 * selector (classes and nesting are what a redesign changes): the element's role and accessible
 * name, the landmark it is in, the heading it sits under, and an ordinal only to tell identical
 * twins apart. Found again among what a person can see now, with the same sight and host-UI rules
 * as `activate` (`unseenReason`, `isOffLimits`), by a score (see {@link findLocator}).
 */

/**
 * Where an element is, in words that survive a redesign: its role and accessible name (for an
 * unnamed container, the text of its first heading), the landmark it is inside, the heading it
 * sits under, and `nth` (0-based, in document order) only when identical elements share all of that.
 *
 * @example
 * ```ts
 * const locator: Locator = { role: 'link', name: 'Start a 14-day trial', landmark: { role: 'region', name: 'Plans' }, heading: 'Team' };
 * ```
 */
export interface Locator {
  role: string;
  name: string;
  landmark?: { role: string; name: string };
  heading?: string;
  nth?: number;
}

/** Why a locator found no element: none scores enough, several score alike, or it is not a locator. */
export type LocatorFailure = 'not-found' | 'ambiguous' | 'invalid';

/** The element a locator finds, with its score, or why there is none. */
export type LocatorMatch = { ok: true; element: Element; score: number } | { ok: false; reason: LocatorFailure; message: string };

/** Options of {@link locatorOf} and {@link findLocator}: where to look, as for `activate`. */
export interface LocatorOptions {
  /** Where the element must be. Default: `document`, when called. */
  root?: PageRoot | undefined;
  /** The host's own UI, never found (as `activate`'s `exclude`). Default: only `[data-planloop-ignore]`. */
  exclude?: string | readonly string[] | undefined;
  /** Whether boxes have real sizes. Default: detected. */
  layout?: boolean | undefined;
}

/** Points of a candidate, out of 100: an exact name alone passes, a similar one needs its context. */
const SCORE = { name: 60, similarName: 40, landmark: 20, heading: 20, roleFamily: -10, pass: 60, tie: 5 } as const;
/** Names at least this similar (Dice on letter pairs) count as a rewording; below, as another element. */
const SIMILAR = 0.5;
/** Longest name or heading text a locator keeps (as the outline's names). */
const MAX_TEXT = 160;
/** Roles a redesign swaps for each other: a link styled as a button becomes a button. */
const ROLE_FAMILY: Record<string, string> = { link: 'button', button: 'link' };

/**
 * The locator of `element`: its role and name, its landmark, the heading it sits under, and `nth`
 * when other visible elements share all of these. `undefined` for an element outside `root`, in
 * the host's UI, or one a person cannot see.
 *
 * @example
 * ```ts
 * locatorOf(document.querySelector('#tier-team a')!); // { role: 'link', name: 'Start a 14-day trial', landmark: { role: 'region', name: 'Plans' }, heading: 'Team' }
 * ```
 */
export function locatorOf(element: Element, options: LocatorOptions = {}): Locator | undefined {
  const scope = scopeOf(options, 'locatorOf');
  if (!inside(scope.root, element) || !scope.visible(element)) return undefined;
  const role = roleOf(element);
  const locator = describeElement(element, role, scope);
  const twins = candidates(scope, role).filter((other) => other !== element && sameAs(describeElement(other, role, scope), locator));
  if (twins.length > 0) {
    const all = [element, ...twins].sort(documentOrder);
    locator.nth = all.indexOf(element);
  }
  return locator;
}

/**
 * Finds the element `locator` names among what a person can see now inside `root` (nothing
 * hidden, transparent, clipped away or in the host's UI: `activate`'s rules). Each visible element
 * of the same role (or of its family: a link that became a button, 10 points off) is scored out of
 * 100: its name equal to the locator's (case and spacing aside) 60, similar (Dice coefficient of
 * letter pairs at least 0.5: a reworded heading) 40 × the similarity, anything else rules it out;
 * the same landmark 20 (same role, similar name 10); the same heading above it 20 (similar: 20 ×
 * the similarity). At least 60 is a match, so an exact name finds its element wherever it moved
 * and a reworded one needs its place to agree. Candidates within 5 points of the best are a tie:
 * `nth` picks among them in document order, else the answer is `ambiguous`. Never throws.
 *
 * @example
 * ```ts
 * const found = findLocator({ role: 'button', name: 'Start my trial' }, { root: document.querySelector('main')!, exclude: '#guide' });
 * if (found.ok) (found.element as HTMLElement).focus();
 * else console.log(found.reason, found.message);
 * ```
 */
export function findLocator(locator: unknown, options: LocatorOptions = {}): LocatorMatch {
  if (!isLocator(locator)) return { ok: false, reason: 'invalid', message: 'Not a locator: it needs a role and a name (strings).' };
  const scope = scopeOf(options, 'findLocator');
  const wanted = normal(locator.name);
  const scored: Array<{ element: Element; score: number }> = [];
  const roles = ROLE_FAMILY[locator.role] ? [locator.role, ROLE_FAMILY[locator.role] as string] : [locator.role];
  for (const role of roles) {
    for (const element of candidates(scope, role)) {
      const here = describeElement(element, role, scope);
      const name = similarity(wanted, normal(here.name));
      if (name < SIMILAR) continue;
      let score = name === 1 ? SCORE.name : SCORE.similarName * name;
      if (role !== locator.role) score += SCORE.roleFamily;
      score += landmarkScore(locator.landmark, here.landmark);
      score += textScore(locator.heading, here.heading, SCORE.heading);
      if (score >= SCORE.pass) scored.push({ element, score });
    }
  }
  const what = describeLocator(locator);
  if (scored.length === 0) return { ok: false, reason: 'not-found', message: `Nothing a person can see now matches ${what}.` };
  const best = Math.max(...scored.map((entry) => entry.score));
  const tied = scored.filter((entry) => entry.score >= best - SCORE.tie).sort((a, b) => documentOrder(a.element, b.element));
  if (tied.length === 1) return { ok: true, element: (tied[0] as { element: Element }).element, score: round(best) };
  const nth = locator.nth;
  if (nth !== undefined && nth < tied.length) {
    const pick = tied[nth] as { element: Element; score: number };
    return { ok: true, element: pick.element, score: round(pick.score) };
  }
  return { ok: false, reason: 'ambiguous', message: `${tied.length} elements a person can see match ${what} alike.` };
}

/**
 * A locator in words, for messages: `button "Start my trial" in region "Plans" under "Team"`.
 *
 * @example
 * ```ts
 * describeLocator({ role: 'link', name: 'Docs', heading: 'Help' }); // 'link "Docs" under "Help"'
 * ```
 */
export function describeLocator(locator: Locator): string {
  const name = locator.name ? ` "${clip(locator.name)}"` : '';
  const landmark = locator.landmark ? ` in ${locator.landmark.role}${locator.landmark.name ? ` "${clip(locator.landmark.name)}"` : ''}` : '';
  const heading = locator.heading ? ` under "${clip(locator.heading)}"` : '';
  const nth = locator.nth !== undefined ? ` (number ${locator.nth + 1})` : '';
  return `${locator.role}${name}${landmark}${heading}${nth}`;
}

/**
 * What a recorded tour needs of the page: `locate` turns a target the model wrote (an outline ref,
 * or a selector from the safe subset) into a locator while the element is there, and `find` turns
 * a locator back into a ref the tools take (`activate`, `fill`, a narrator's `resolveTarget`),
 * with the same `root` and `exclude` as those tools. Pass it to `runWebAgent` (to record) and to
 * `replayTour` (to replay) as `locators`. Defaults: `document`, `[data-planloop-ignore]` only,
 * the document's ref registry.
 *
 * @example
 * ```ts
 * import { runWebAgent } from 'planloop';
 * import { createTourLocators } from 'planloop/dom';
 *
 * const locators = createTourLocators({ root: document.querySelector('main')!, exclude: '#guide' });
 * const { tour } = await runWebAgent({ plan, task, tools, page: { locators } });
 * localStorage.setItem('tour:pricing', JSON.stringify(tour));
 * ```
 */
export function createTourLocators(options: LocatorOptions & { registry?: RefRegistry | undefined } = {}): {
  locate(target: string): Locator | undefined;
  find(locator: Locator): { ok: true; target: string } | { ok: false; reason: LocatorFailure; message: string };
} {
  const where = (): { root: PageRoot; exclude: LocatorOptions['exclude']; layout: boolean | undefined } => ({
    root: pageRoot(options.root, 'createTourLocators'),
    exclude: options.exclude,
    layout: options.layout,
  });
  return {
    locate(target) {
      const scope = where();
      const found = resolveTarget(target, { ...scope, selectors: true, ...(options.registry ? { registry: options.registry } : {}) });
      return found.ok ? locatorOf(found.element, scope) : undefined;
    },
    find(locator) {
      const scope = where();
      const found = findLocator(locator, scope);
      if (!found.ok) return found;
      const registry = options.registry ?? refRegistryFor(documentOf(scope.root));
      const role = roleOf(found.element);
      return { ok: true, target: registry.assign(found.element, { role, name: accessibleName(found.element, role) }) };
    },
  };
}

interface Scope {
  root: PageRoot;
  layout: boolean;
  visible: (element: Element) => boolean;
  /** The headings a person can see, in document order (read once per scope). */
  headings: () => Element[];
}

function scopeOf(options: LocatorOptions, caller: string): Scope {
  const root = pageRoot(options.root, caller);
  const layout = options.layout ?? hasLayout(documentOf(root));
  const seen = new Map<Element, boolean>();
  const visible = (element: Element, text = false): boolean => {
    const known = seen.get(element);
    if (known !== undefined && !text) return known;
    const answer = !isOffLimits(element, options.exclude) && unseenReason(element, { layout, text }) === undefined;
    if (!text) seen.set(element, answer);
    return answer;
  };
  let headings: Element[] | undefined;
  return {
    root,
    layout,
    visible,
    headings: () => (headings ??= allElements(root).filter((element) => elementRole(element) === 'heading' && visible(element, true))),
  };
}

/** The role a locator gives `element`: its ARIA role, else its tag (as the outline lists an included element). */
function roleOf(element: Element): string {
  return elementRole(element) ?? element.localName;
}

/** The visible elements of `role` inside the scope. */
function candidates(scope: Scope, role: string): Element[] {
  return allElements(scope.root).filter((element) => roleOf(element) === role && scope.visible(element));
}

/** The role, name, landmark and heading of `element` (no `nth`). */
function describeElement(element: Element, role: string, scope: Scope): Locator {
  const locator: Locator = { role, name: labelOf(element, role) };
  const landmark = landmarkOf(element, scope.root);
  if (landmark) locator.landmark = landmark;
  const heading = headingAbove(element, scope);
  if (heading) locator.heading = heading;
  return locator;
}

/** The accessible name; for an unnamed container, the text of the first heading inside it. */
function labelOf(element: Element, role: string): string {
  const name = accessibleName(element, role);
  if (name || NAME_FROM_CONTENT.has(role)) return clipText(name);
  const heading = element.querySelector('h1, h2, h3, h4, h5, h6, [role=heading]');
  return heading ? clipText(accessibleName(heading, 'heading')) : '';
}

/** The nearest landmark around `element` inside `root` (a region or form only when it has a name). */
function landmarkOf(element: Element, root: PageRoot): { role: string; name: string } | undefined {
  for (let node = parentAcross(element); node; node = parentAcross(node)) {
    const role = elementRole(node);
    if (role && LANDMARK_ROLES.has(role)) {
      const name = clipText(accessibleName(node, role));
      if ((role !== 'region' && role !== 'form') || name) return { role, name };
    }
    if (node === root) break;
  }
  return undefined;
}

/** The text of the last visible heading before `element` in document order (not one inside it, not itself). */
function headingAbove(element: Element, scope: Scope): string | undefined {
  let found: Element | undefined;
  for (const heading of scope.headings()) {
    if (heading === element || element.contains(heading)) continue;
    if (!((heading.compareDocumentPosition(element) & 4) /* FOLLOWING */)) break;
    found = heading;
  }
  const text = found ? clipText(accessibleName(found, 'heading')) : '';
  return text || undefined;
}

function landmarkScore(wanted: Locator['landmark'], here: Locator['landmark']): number {
  if (!wanted || !here) return wanted || here ? 0 : SCORE.landmark;
  if (wanted.role !== here.role) return 0;
  const name = similarity(normal(wanted.name), normal(here.name));
  return name === 1 ? SCORE.landmark : name >= SIMILAR ? SCORE.landmark / 2 : 0;
}

function textScore(wanted: string | undefined, here: string | undefined, points: number): number {
  if (!wanted || !here) return wanted || here ? 0 : points;
  const value = similarity(normal(wanted), normal(here));
  return value >= SIMILAR ? points * value : 0;
}

function sameAs(a: Locator, b: Locator): boolean {
  return (
    normal(a.name) === normal(b.name) &&
    normal(a.heading ?? '') === normal(b.heading ?? '') &&
    a.landmark?.role === b.landmark?.role &&
    normal(a.landmark?.name ?? '') === normal(b.landmark?.name ?? '')
  );
}

/**
 * How alike two texts are, 0 to 1: 1 when equal, else the Dice coefficient of their letter pairs
 * (works for words in any script, Japanese included, where word splitting would not).
 */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const pairs = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i += 1) {
    const pair = a.slice(i, i + 2);
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i += 1) {
    const pair = b.slice(i, i + 2);
    const count = pairs.get(pair) ?? 0;
    if (count > 0) {
      shared += 1;
      pairs.set(pair, count - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

function normal(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function isLocator(value: unknown): value is Locator {
  if (typeof value !== 'object' || value === null) return false;
  const { role, name, landmark, heading, nth } = value as Record<string, unknown>;
  if (typeof role !== 'string' || role === '' || typeof name !== 'string') return false;
  if (heading !== undefined && typeof heading !== 'string') return false;
  if (nth !== undefined && !(Number.isSafeInteger(nth) && (nth as number) >= 0)) return false;
  if (landmark === undefined) return true;
  return (
    typeof landmark === 'object' &&
    landmark !== null &&
    typeof (landmark as { role?: unknown }).role === 'string' &&
    typeof (landmark as { name?: unknown }).name === 'string'
  );
}

/** Every element under `root`, open shadow roots included, in document order. */
function allElements(root: PageRoot): Element[] {
  const found: Element[] = [];
  const walk = (scope: Element | Document | ShadowRoot): void => {
    for (const element of Array.from(scope.querySelectorAll('*'))) {
      found.push(element);
      if (element.shadowRoot) walk(element.shadowRoot);
    }
  };
  if (root.nodeType === 1) found.push(root as Element);
  walk(root);
  return found;
}

function parentAcross(node: Element): Element | null {
  if (node.parentElement) return node.parentElement;
  const top = node.parentNode;
  return top && top.nodeType === 11 ? (top as ShadowRoot).host : null;
}

/** Whether `element` is `root` or inside it, across shadow roots. */
function inside(root: PageRoot, element: Element): boolean {
  for (let node: Node | null = element; node; ) {
    if (node === root) return true;
    node = node.parentNode ?? (node.nodeType === 11 ? (node as ShadowRoot).host : null);
  }
  return false;
}

function documentOrder(a: Element, b: Element): number {
  if (a === b) return 0;
  return a.compareDocumentPosition(b) & 4 /* FOLLOWING */ ? -1 : 1;
}

function round(score: number): number {
  return Math.round(score * 10) / 10;
}

function clipText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_TEXT ? line.slice(0, MAX_TEXT).trimEnd() : line;
}

function clip(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
