import { accessibleName } from './accessible-name.js';
import { BLOCK_ROLES, INTERACTIVE_ROLES, LANDMARK_ROLES, elementRole, headingLevel } from './element-role.js';
import { PRIVATE_ATTRIBUTE } from './element-state.js';
import { IGNORE_ATTRIBUTE, isOffLimits } from './host-ui.js';
import { documentOf, type PageRoot } from './page-root.js';
import { createSightCheck } from './sighted.js';
import { boxOf, hasLayout, hiddenReason, renderedChildren, selfHiddenBy, styleOf, subtreeHiddenBy } from './visibility.js';
import { closestAcross } from './flat-tree.js';

/*
 * One walk over the rendered page that finds what an outline lists: landmarks, headings,
 * interactive elements, and content blocks that have an id or a name (or match the host's
 * `include` selector). The outline and the target resolver share it, so both see the same roles,
 * names and visibility.
 */

/**
 * What an outline line is about: a landmark, a heading, a control, a content block, a stretch
 * of prose (`text`: a paragraph, a quote, a list item or cell with text of its own), or a live
 * region (`live`: alert, status, log, aria-live).
 */
export type PageElementKind = 'landmark' | 'heading' | 'control' | 'block' | 'text' | 'live';

/** One element the walk found. */
export interface PageElement {
  element: Element;
  kind: PageElementKind;
  role: string;
  /** The accessible name, once known: blocks get it as they are found, the rest when {@link nameOf} asks. */
  name?: string;
  /** Headings only: 1 to 6. */
  level?: number;
  /** Index (in the walk's list) of the nearest listed element this one is inside; -1 at the top. */
  parent: number;
  /** Listed elements this one is inside. */
  depth: number;
  /** Pixels from the viewport (0 when in it, or without layout). */
  distance: number;
  /** Inside the page's `main` landmark. */
  inMain: boolean;
  /** Inside `main` or an `article`: the page's own content. */
  inContent: boolean;
  /** Inside an element marked private (values are withheld). */
  isPrivate: boolean;
  /** Only when the walk includes hidden elements: whether this one is hidden. */
  hidden: boolean;
}

/** Options of {@link collectPageElements}. */
export interface CollectOptions {
  /** Also walk hidden subtrees, marking what is found there `hidden` (the resolver's search). Default false. */
  includeHidden?: boolean;
  /** Check sizes and viewport distance. Default: whether the document has layout. */
  layout?: boolean;
  /** Extra elements to list (CSS selector), as blocks. */
  include?: string;
  /** Elements to leave out with everything inside them (CSS selector), e.g. the agent's own panel. */
  exclude?: string;
  /** Elements whose values, and those of everything inside them, are withheld (CSS selector), besides `[data-planloop-private]`. */
  privateSelector?: string;
}

// Never descended into: their content is not part of the page a person acts on (an <svg>'s shapes,
// a <select>'s options, which its line lists).
const LEAVES = new Set(['svg', 'select', 'textarea', 'input', 'math']);
/** Elements that are prose when they have text: listed as `text` lines. */
const PROSE_TAGS = new Set(['p', 'blockquote', 'pre', 'dd', 'figcaption', 'address']);

/** Roles that leave an element's text prose (a `<p role="note">` is read as a paragraph is). */
const TEXT_ROLES: ReadonlySet<string> = new Set([
  'note',
  'paragraph',
  'blockquote',
  'caption',
  'definition',
  'term',
  'comment',
  'generic',
  'presentation',
  'none',
]);
/** Roles of live regions, whose changes a page announces. */
const LIVE_ROLES = new Set(['alert', 'status', 'log']);
/** Characters of text of its own that make any other element prose (a <div> or <li> used as a paragraph). */
const PROSE_MIN_CHARS = 40;

/**
 * Every listable element under `root` (itself included when it is an element), in document order.
 *
 * @example
 * ```ts
 * collectPageElements(document).filter((item) => item.kind === 'control').map((item) => item.name);
 * ```
 */
export function collectPageElements(root: PageRoot, options: CollectOptions = {}): PageElement[] {
  const document = documentOf(root);
  const layout = options.layout ?? hasLayout(document);
  const view = document.defaultView;
  const width = view?.innerWidth ?? 0;
  const height = view?.innerHeight ?? 0;
  const include = options.include;
  const exclude = options.exclude;
  const privateSelector = options.privateSelector;
  const found: PageElement[] = [];
  // A first look at what a sighted user sees (transparent, clipped, out of reach): what it finds unseen is never listed;
  // the outline judges what it keeps with the whole rule (unseenReason).
  const unseen = createSightCheck(layout);

  const matches = (element: Element, selector: string | undefined): boolean => {
    if (!selector) return false;
    try {
      return element.matches(selector);
    } catch {
      return false;
    }
  };

  const visit = (
    element: Element,
    parent: number,
    depth: number,
    inMain: boolean,
    isPrivate: boolean,
    hidden: boolean,
    inContent: boolean,
    inText: boolean,
  ): void => {
    let hiddenHere = hidden;
    if (!hiddenHere && subtreeHiddenBy(element, undefined)) {
      if (!options.includeHidden) return;
      hiddenHere = true;
    }
    if ((exclude && matches(element, exclude)) || (element.hasAttributes() && element.hasAttribute(IGNORE_ATTRIBUTE))) return;
    let role = elementRole(element);
    const privateHere = isPrivate || (element.hasAttributes() && element.hasAttribute(PRIVATE_ATTRIBUTE)) || matches(element, privateSelector);
    const inMainHere = inMain || role === 'main';
    const inContentHere = inContent || role === 'main' || role === 'article';
    // A live region is listed while it has something to say (and is not the host's private content).
    const live = !privateHere && liveRole(element, role) && hasText(element) ? liveRole(element, role) : undefined;
    if (live) role = live;
    // Prose: a paragraph-like element with text, not inside a control or other prose (its text is read whole).
    const prose = !inText && !live && (!role || TEXT_ROLES.has(role)) && !privateHere && isProse(element);
    const kind = live ? 'live' : prose ? 'text' : role ? kindOf(role) : undefined;
    const included = matches(element, include);
    // Computed styles are the walk's biggest cost. With layout, only the elements it may list need
    // one: an element inside a display:none container has no box, which the size check catches.
    // Without layout (happy-dom, jsdom), every element's display is read to prune hidden subtrees.
    const style = !layout || kind || included ? styleOf(element) : undefined;
    if (!hiddenHere && style?.display === 'none') {
      if (!options.includeHidden) return;
      hiddenHere = true;
    }
    // A focusable element without a role that shows a pointer is something to click.
    if (role === 'focusable' && style?.cursor === 'pointer') role = 'clickable';
    let index = parent;
    let childDepth = depth;
    if (kind || included) {
      // Unnamed regions and groups without an id are layout, not something to point at. Names of
      // controls and headings wait until the outline needs them: most never make it into a budget.
      // A block's name is needed now only when it alone decides whether the block is listed (no id, not
      // included, not listed anyway): otherwise it too waits for nameOf (same role, same name).
      const later =
        kind === 'control' ||
        kind === 'heading' ||
        kind === 'text' ||
        kind === 'live' ||
        (role !== undefined && (element.id !== '' || included || alwaysListed(role)));
      const name = later ? undefined : accessibleName(element, role);
      const listed = name === undefined || name !== '' || element.id !== '' || included || alwaysListed(role);
      const box = listed && layout && !hiddenHere ? boxOf(element) : undefined;
      const drawnNot = listed ? selfHiddenBy(style, box) : undefined;
      // Not drawn at all, inside a display:none container the walk read no style of (it reads styles of what it may list
      // only): nothing else in that container is drawn either, and the walk leaves it.
      if (drawnNot === 'zero-size' && !options.includeHidden && !hiddenHere) {
        undrawn = undrawnContainer(element, path);
        if (undrawn) return;
      }
      const selfHidden =
        hiddenHere || (listed && (drawnNot !== undefined || ((kind === 'control' || kind === 'heading') && unseen(element, style, box) !== undefined)));
      if (listed && (!selfHidden || options.includeHidden)) {
        index = found.length;
        childDepth = depth + 1;
        const item: PageElement = {
          element,
          kind: kind ?? 'block',
          role: role ?? element.localName,
          parent,
          depth,
          distance: box && !selfHidden ? viewportDistance(box, width, height) : 0,
          inMain: inMainHere,
          inContent: inContentHere,
          isPrivate: privateHere,
          hidden: selfHidden,
        };
        if (name !== undefined) item.name = name;
        if (kind === 'heading') item.level = headingLevel(element);
        found.push(item);
      }
    }
    if (LEAVES.has(element.localName)) return;
    const inTextHere = inText || kind === 'text' || kind === 'live' || kind === 'control';
    const tag = element.localName;
    path.push(element);
    if (tag !== 'slot' && tag !== 'details' && !element.shadowRoot) {
      // Most elements render their own children (see renderedChildren): walked without a collection.
      for (let child = element.firstElementChild; child && !undrawn; child = child.nextElementSibling)
        visit(child, index, childDepth, inMainHere, privateHere, hiddenHere, inContentHere, inTextHere);
    } else {
      const children = renderedChildren(element);
      for (let i = 0; i < children.length && !undrawn; i += 1)
        visit(children[i] as Element, index, childDepth, inMainHere, privateHere, hiddenHere, inContentHere, inTextHere);
    }
    path.pop();
    if (undrawn === element) undrawn = undefined;
  };
  // The elements the walk is inside, and the display:none one among them it is leaving (every
  // element between it and the one found undrawn ends its loop at once).
  const path: Element[] = [];
  let undrawn: Element | undefined;

  // Start from what the root's ancestors make of it (a shadow root's: its host's): inside a
  // hidden, private or main container, so is everything under the root.
  const top = root.nodeType === 1 ? (root as Element) : root.nodeType === 11 ? (root as ShadowRoot).host : undefined;
  let hidden = false;
  let inMain = false;
  let inContent = false;
  let isPrivate = false;
  if (top) {
    if (isOffLimits(top, exclude)) return found;
    const reason = hiddenReason(top, { layout: false });
    hidden = reason !== undefined && reason !== 'visibility';
    if (hidden && !options.includeHidden) return found;
    inMain = !!closestAcross(top, 'main, [role=main]');
    inContent = inMain || !!closestAcross(top, 'article, [role=article]');
    isPrivate = !!closestAcross(top, `[${PRIVATE_ATTRIBUTE}]`) || (!!privateSelector && !!closestAcross(top, privateSelector));
  }
  if (root.nodeType === 1) visit(root as Element, -1, 0, inMain, isPrivate, hidden, inContent, false);
  else {
    const children = renderedChildren(root);
    for (let i = 0; i < children.length; i += 1) visit(children[i] as Element, -1, 0, inMain, isPrivate, hidden, inContent, false);
  }
  return found;
}

/**
 * The accessible name of a found element, computed on first use and kept.
 *
 * @example
 * ```ts
 * collectPageElements(document).map(nameOf);
 * ```
 */
export function nameOf(item: PageElement): string {
  return (item.name ??= accessibleName(item.element, item.role));
}

/**
 * The display:none container on the walk's `path` (the elements it is inside) that `element`, found
 * with a box of no size, is in, when the browser draws nothing of it; else undefined. Styles of
 * its containers are read only when it is not drawn.
 */
function undrawnContainer(element: Element, path: readonly Element[]): Element | undefined {
  if (typeof element.checkVisibility !== 'function' || element.checkVisibility()) return undefined;
  for (let i = path.length - 1; i >= 0; i -= 1) if (styleOf(path[i] as Element)?.display === 'none') return path[i];
  return undefined;
}

/** The live region role of an element: alert, status, log, or what its aria-live says (assertive: alert). */
function liveRole(element: Element, role: string | undefined): string | undefined {
  if (role && LIVE_ROLES.has(role)) return role;
  if (element.localName === 'output') return 'status';
  if (!element.hasAttributes()) return undefined;
  const live = element.getAttribute('aria-live');
  if (live === 'assertive') return 'alert';
  if (live === 'polite') return 'status';
  return undefined;
}

/** A paragraph-like element (p, blockquote…) with text, or any role-less element with a run of text of its own. */
function isProse(element: Element): boolean {
  if (PROSE_TAGS.has(element.localName)) return hasText(element);
  if (LEAVES.has(element.localName) || element.localName === 'body' || element.localName === 'label') return false;
  for (let child = element.firstChild; child; child = child.nextSibling) {
    // (A text shorter than that untrimmed is shorter trimmed: no string is made for it.)
    if (child.nodeType === 3 && (child as CharacterData).length >= PROSE_MIN_CHARS && (child.nodeValue ?? '').trim().length >= PROSE_MIN_CHARS) return true;
  }
  return false;
}

/** Whether any text node under `element` has a visible character (stops at the first; no string of the whole text is built). */
function hasText(element: Element): boolean {
  const walker = element.ownerDocument.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (/\S/.test(node.nodeValue ?? '')) return true;
  return false;
}

function kindOf(role: string): PageElementKind | undefined {
  if (role === 'heading') return 'heading';
  if (INTERACTIVE_ROLES.has(role)) return 'control';
  if (LANDMARK_ROLES.has(role)) return 'landmark';
  if (BLOCK_ROLES.has(role)) return 'block';
  return undefined;
}

/** Listed even without an id or a name: the page's main landmarks, forms and open dialogs. */
function alwaysListed(role: string | undefined): boolean {
  return (
    role === 'main' ||
    role === 'navigation' ||
    role === 'banner' ||
    role === 'contentinfo' ||
    role === 'complementary' ||
    role === 'search' ||
    role === 'form' ||
    role === 'dialog' ||
    role === 'alertdialog' ||
    role === 'tabpanel'
  );
}

/** Pixels between `box` and the viewport, horizontally plus vertically. */
function viewportDistance(box: DOMRect, width: number, height: number): number {
  const dy = box.bottom < 0 ? -box.bottom : box.top > height ? box.top - height : 0;
  const dx = box.right < 0 ? -box.right : box.left > width ? box.left - width : 0;
  return dx + dy;
}
