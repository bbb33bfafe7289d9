import { ValidationError } from '../errors.js';
import { refRegistryFor, type RefRegistry } from './element-ref.js';
import { elementState, rememberPasswordFields } from './element-state.js';
import { estimateTokens as defaultEstimate } from './estimate-tokens.js';
import { documentOf, pageRoot, type PageRoot } from './page-root.js';
import { collectPageElements, nameOf, type CollectOptions, type PageElement } from './page-elements.js';
import { omittedLine, renderOutline, renderOutlineLine, type OutlineNode, type PageOutline } from './render-outline.js';

/** Options of {@link outlinePage}. */
export interface OutlinePageOptions {
  /** What to outline: a document, an element or a shadow root. Default: `document`, when called. */
  root?: PageRoot | undefined;
  /** The budget for {@link renderOutline}'s text, in estimated tokens. Default 400. */
  maxTokens?: number | undefined;
  /** Counts tokens. Default {@link estimateTokens} (words, numbers and symbols: close to o200k on outline text). */
  estimateTokens?: ((text: string) => number) | undefined;
  /** Where refs live. Default: the root's document's registry, which `resolveTarget` uses too. */
  registry?: RefRegistry | undefined;
  /** Extra elements to list (CSS selector), e.g. `'.card, [data-tour]'`. */
  include?: CollectOptions['include'] | undefined;
  /** Elements to leave out with all they contain (CSS selector), e.g. the agent's own panel: `'#guide'`. */
  exclude?: CollectOptions['exclude'] | undefined;
  /** Elements whose values (and their descendants') are never read (CSS selector), besides `[data-planloop-private]`. */
  privateSelector?: CollectOptions['privateSelector'] | undefined;
  /**
   * Fields whose values may be shown although the secret rules would withhold them (CSS
   * selector): the host's per-field opt-in, e.g. `'#promo-code'`. Never a password field's
   * (present or former) nor a private one's. Default: none.
   */
  revealValues?: string | undefined;
  /** Whether boxes have real sizes (checks zero size, orders by viewport distance). Default: detected. */
  layout?: boolean | undefined;
}

/**
 * The default budget of an outline, in estimated tokens: 400.
 *
 * @example
 * ```ts
 * outlinePage({ maxTokens: DEFAULT_OUTLINE_TOKENS / 2 }); // a shorter outline for a small model
 * ```
 */
export const DEFAULT_OUTLINE_TOKENS = 400;

/**
 * Describes the visible page for a model within a token budget: landmarks, headings, interactive
 * elements and content blocks with an id or a name, each with a ref (`e12`) that
 * {@link resolveTarget} turns back into the element, its role, accessible name and state. Values of
 * secret fields and of private elements are never read.
 *
 * Hidden elements are left out (display:none, visibility:hidden, `hidden`, aria-hidden="true",
 * `inert`, closed dialogs and details, and zero-size boxes where the page has layout). Open shadow
 * roots are walked. While a modal dialog is open, only the dialog is outlined.
 *
 * Over budget, half of it goes first to the page's structure (landmarks and headings: nearest the
 * viewport, then least nested, first), the rest to the other elements (nearest the viewport, then
 * inside `main`, first) and then to the remaining structure. An element is kept with the elements
 * it is inside. `omitted` says how many were left out, and the rendered text says so too. Refs are given only to listed elements and stay with an element across
 * outlines; a re-rendered element with the same id, test id, form name, role and name, or place
 * gets its old ref back.
 *
 * Touches nothing at import; reads `document` only when called without `root`.
 * Defaults: `maxTokens` 400, tokens counted by `estimateTokens` (close to o200k), layout detected.
 *
 * @example
 * ```ts
 * import { outlinePage, renderOutline } from 'planloop/dom';
 *
 * const outline = outlinePage({ root: document.querySelector('main')!, maxTokens: 300 });
 * const text = renderOutline(outline); // '[e1] main\n  [e2] h1 "Pricing"\n  [e3] link "Start free" ->/try'
 * outline.omitted; // 0
 * ```
 */
export function outlinePage(options: OutlinePageOptions = {}): PageOutline {
  const root = pageRoot(options.root, 'outlinePage');
  const maxTokens = options.maxTokens ?? DEFAULT_OUTLINE_TOKENS;
  if (typeof maxTokens !== 'number' || !Number.isFinite(maxTokens) || maxTokens < 1) {
    throw new ValidationError(`outlinePage: maxTokens must be a number of at least 1, not ${String(maxTokens)}.`, [{ path: 'maxTokens', message: 'must be a number of at least 1' }]);
  }
  const estimate = options.estimateTokens ?? defaultEstimate;
  if (typeof estimate !== 'function') {
    throw new ValidationError('outlinePage: estimateTokens must be a function (text) => number.', [{ path: 'estimateTokens', message: 'must be a function' }]);
  }
  const document = documentOf(root);
  const registry = options.registry ?? refRegistryFor(document);
  rememberPasswordFields(root);
  const reveal = (element: Element): boolean => !!options.revealValues && safeMatches(element, options.revealValues);
  const found = collectPageElements(modalDialogIn(root, document) ?? root, {
    ...(options.layout === undefined ? {} : { layout: options.layout }),
    ...(options.include ? { include: options.include } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(options.privateSelector ? { privateSelector: options.privateSelector } : {}),
  });

  // Lines are costed before refs are given (refs go to listed elements only, to keep them short):
  // an element without a ref is costed with a ref as long as any it could get. Costing needs the
  // name and state, so it is done only for the elements the budget gets to.
  const longRef = `e${registry.nextNumber() + found.length}`;
  const drafts: Array<OutlineNode | undefined> = [];
  const draftAt = (i: number): OutlineNode => (drafts[i] ??= draftNode(found[i] as PageElement, longRef, registry, reveal));
  const costs: number[] = [];
  const costAt = (i: number): number => (costs[i] ??= estimate(`${renderOutlineLine(draftAt(i))}\n`));
  const keep = fit(found, costAt, maxTokens, estimate(omittedLine(found.length)));

  const nodes: OutlineNode[] = [];
  for (let i = 0; i < found.length; i += 1) {
    if (!keep[i]) continue;
    const draft = draftAt(i);
    nodes.push({ ...draft, ref: registry.assign(draft.element, { role: draft.role, name: draft.name }) });
  }
  let outline: PageOutline = { nodes, total: found.length, omitted: found.length - nodes.length, tokens: 0, maxTokens };
  // A custom tokenizer may count a whole text as more than the sum of its lines: drop the last
  // line (nothing is inside it) until the text fits.
  for (;;) {
    const tokens = estimate(renderOutline(outline));
    if (tokens <= maxTokens || outline.nodes.length === 0) return { ...outline, tokens };
    const trimmed = outline.nodes.slice(0, -1);
    outline = { ...outline, nodes: trimmed, omitted: found.length - trimmed.length };
  }
}

function draftNode(item: PageElement, longRef: string, registry: RefRegistry, reveal: (element: Element) => boolean): OutlineNode {
  const id = item.element.id;
  const name = nameOf(item);
  return {
    ref: registry.refOf(item.element) ?? longRef,
    kind: item.kind,
    role: item.role,
    name,
    ...(item.level === undefined ? {} : { level: item.level }),
    ...(id && !name ? { id } : {}),
    state: elementState(item.element, item.role, item.isPrivate, reveal(item.element)),
    depth: item.depth,
    element: item.element,
  };
}

/** Elements in a row that do not fit before a pass takes the budget as spent. */
const MISSES_BEFORE_STOP = 8;

/**
 * Which elements fit the budget. When not all do, the line saying how many were left out is
 * reserved, then two passes fill the rest:
 * 1. the page's structure (landmarks and headings), within half of the budget: nearest the
 *    viewport first (by screenfuls), then the least nested, then in document order;
 * 2. everything else: nearest the viewport first, then inside `main` before outside, then in
 *    document order; then the structure that pass 1 had no room for.
 * An element comes with the elements it is inside. A pass stops after
 * {@link MISSES_BEFORE_STOP} elements in a row that do not fit, without costing the rest.
 */
function fit(found: readonly PageElement[], costAt: (index: number) => number, maxTokens: number, omittedCost: number): Uint8Array {
  const keep = new Uint8Array(found.length);
  // Everything in when it all fits. (A line costs at least a token: more lines than the budget never fit.)
  if (found.length <= maxTokens) {
    let all = 0;
    for (let i = 0; i < found.length && all <= maxTokens; i += 1) all += costAt(i);
    if (all <= maxTokens) return keep.fill(1);
  }

  const screen = Math.max(1, found[0]?.element.ownerDocument.defaultView?.innerHeight ?? 1);
  const screens = (item: PageElement) => (item.distance === 0 ? 0 : 1 + Math.floor(item.distance / screen));
  const isStructure = (item: PageElement) => item.kind === 'landmark' || item.kind === 'heading';
  const structure: number[] = [];
  const rest: number[] = [];
  found.forEach((item, i) => (isStructure(item) ? structure : rest).push(i));
  const at = (i: number) => found[i] as PageElement;
  structure.sort((a, b) => screens(at(a)) - screens(at(b)) || at(a).depth - at(b).depth || a - b);
  rest.sort((a, b) => screens(at(a)) - screens(at(b)) || Number(at(b).inMain) - Number(at(a).inMain) || a - b);

  let left = maxTokens - omittedCost;
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
  take(structure, left / 2);
  take(rest, Number.POSITIVE_INFINITY);
  take(structure, Number.POSITIVE_INFINITY);
  return keep;
}

/** The open modal dialog inside `root`, if any: while it is open, the rest of the page is inert. */
function modalDialogIn(root: PageRoot, document: Document): Element | undefined {
  let modal: Element | null = null;
  try {
    modal = document.querySelector('dialog:modal');
  } catch {
    // An engine without :modal (happy-dom, old browsers): outline the whole root.
    return undefined;
  }
  if (!modal) return undefined;
  return root.nodeType === 9 || root.contains(modal) ? modal : undefined;
}

function safeMatches(element: Element, selector: string): boolean {
  try {
    return element.matches(selector);
  } catch {
    return false;
  }
}
