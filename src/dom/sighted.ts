import { blend, contrastRatio, parseColor } from './colour.js';
import { atPassEnd, duringReadPass, passCached, passShared } from './read-pass.js';
import { boxOf, hasLayout, hiddenReason, styleOf, type HiddenReason } from './visibility.js';
import { composedParent, renderedNodes } from './flat-tree.js';

/*
 * What a sighted user can see now: the one rule every path to the model goes through (the
 * outline's controls, headings, prose and live regions, names and their parts, field hints, the
 * look tools, and what `activate` and `fill` act on). `visibility.ts` says whether an element is
 * rendered at all; this file says whether a person looking at the screen can make it out:
 *
 * - through the element and everything it is drawn inside: opacity (and `filter: opacity()`)
 *   multiplied down to 0.05 or less, a mask that lets nothing through, `clip`/`clip-path`
 *   (inset, polygon, circle) that leave nothing, `content-visibility: hidden`;
 * - where the page has layout: a box cut away by an overflow:hidden container (a 0×0 box hiding
 *   its overflow, the 1px screen-reader-only box), scaled to nothing, placed where no scrolling
 *   reaches (left of or above the page, fixed outside the viewport, right of a page whose root
 *   hides horizontal overflow), or, in the viewport, covered at every point looked at by an
 *   opaque element drawn over it (or an opaque ancestor it is drawn behind);
 * - for text: an element that draws text is seen only when some of its text is: text drawn
 *   transparent (`color` or `-webkit-text-fill-color` alpha, times the opacity above it), in
 *   (nearly) its background's colour, under 6px as drawn (font size times any scale), or pushed
 *   out of sight by `text-indent`, is not.
 *
 * Every rule reads only computed styles, boxes and hit tests; what cannot be told (a background
 * image under the text, a colour format it does not parse, a mask image, what is beyond the
 * viewport for covering) counts as seen, so a page is never hidden from the model by a guess.
 * During an outline (a read pass) every answer is kept per element, so the rule's cost is paid
 * once per element however many paths ask.
 */

/** Why a sighted user cannot see an element. */
export type UnseenReason = HiddenReason | 'transparent' | 'clipped' | 'off-screen' | 'tiny-text' | 'same-colour' | 'covered';

/** Opacity (times that of everything it is drawn inside) at or below which nothing shows. */
const MIN_OPACITY = 0.05;
/** Font sizes (px, as drawn) below which text cannot be read. */
const MIN_FONT_SIZE = 6;
/** Contrast ratios (WCAG) below which text is taken as drawn in its background's colour: #eee on white is 1.16. */
const MIN_CONTRAST = 1.2;
/** A box this thin (px) or less shows nothing: the screen-reader-only pattern is 1×1. */
const MAX_INVISIBLE_EXTENT = 1;
/** Nodes a text check looks at before it takes an element's text as seen (a huge element is not walked whole). */
const MAX_TEXT_NODES = 400;
/** Elements drawn as one picture or control: seen, they show something whatever their text. */
const REPLACED = new Set(['img', 'svg', 'canvas', 'video', 'iframe', 'object', 'embed', 'input', 'select', 'textarea', 'meter', 'progress', 'picture']);
/** Never drawn as text. */
const NOT_DRAWN = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'datalist']);

/** Options of {@link unseenReason}. */
export interface SightOptions {
  /** Whether boxes have real sizes. Default: detected. */
  layout?: boolean | undefined;
  /** Also judge the text the element draws (it is seen only when some of it is). Default true. */
  text?: boolean | undefined;
  /**
   * About to act on it: covers that let clicks through (`pointer-events: none`) are found too,
   * by making every element hit-testable for the check (a style sheet added and removed within
   * it: no DOM change). Costs two style recalculations of the page. Default false.
   */
  acting?: boolean | undefined;
}

/**
 * Why a sighted user cannot see `element` now, if they cannot; `undefined` when they can. Checks
 * everything {@link hiddenReason} does, then the rules at the top of this file: opacity, filter,
 * mask, clipping and content-visibility through everything it is drawn inside; where the page has
 * layout, overflow cut-offs, reach and (in the viewport) opaque covers; and, unless `text: false`,
 * whether any of the text it draws can be read.
 *
 * @example
 * ```ts
 * unseenReason(document.querySelector('.sr-only')!); // 'clipped'
 * unseenReason(document.querySelector('h2.white-on-white')!); // 'same-colour'
 * ```
 */
export function unseenReason(element: Element, options: SightOptions = {}): UnseenReason | undefined {
  return duringReadPass(() => {
    const layout = options.layout ?? hasLayout(element.ownerDocument);
    const check = (): UnseenReason | undefined => {
      const hidden = hiddenReason(element, { layout });
      if (hidden) return hidden;
      const box = boxUnseen(element, layout);
      if (box) return box;
      if (options.text !== false) {
        const text = textUnseen(element, layout);
        if (text) return text;
      }
      return layout ? coveredReason(element, options.acting === true) : undefined;
    };
    const reason = passCached(`seen:${String(layout)}:${String(options.text !== false)}:${String(options.acting === true)}`, element, check);
    if ((reason === 'transparent' || reason === 'clipped') && seenThroughLabel(element, layout)) return undefined;
    return reason;
  });
}

/**
 * Whether a sighted user can see `element` now (see {@link unseenReason}).
 *
 * @example
 * ```ts
 * import { isSeen } from 'planloop/dom';
 * isSeen(document.querySelector('#buy')!); // false while it is opacity:0 or off-screen
 * ```
 */
export function isSeen(element: Element, options: SightOptions = {}): boolean {
  return unseenReason(element, options) === undefined;
}

/** A visually hidden native checkbox or radio drawn by its label (a common styling pattern) is seen through that label. */
function seenThroughLabel(element: Element, layout: boolean): boolean {
  const labels = (element as HTMLInputElement).labels;
  if (!labels || labels.length === 0 || element.localName !== 'input') return false;
  return Array.from(labels).some((label) => label !== element && hiddenReason(label, { layout }) === undefined && boxUnseen(label, layout) === undefined);
}

/** What an element's ancestors (and it) do to what it draws. */
interface Sight {
  /** Opacity (and filter opacity), times every ancestor's. */
  alpha: number;
  /** What overflow:hidden ancestors and the element itself leave visible of its children, in viewport coordinates. */
  window: Rect | undefined;
  /** Inside (or is) a fixed box: it does not move when the page scrolls. */
  fixed: boolean;
  /** Clipped or masked away by itself or an ancestor, or inside a `content-visibility: hidden` one. */
  clipped: boolean;
  /** Its children are not drawn (`content-visibility: hidden`). */
  hidesContent: boolean;
  /** It or an ancestor is transformed (its text may be drawn smaller than its font size). */
  transformed: boolean;
}

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const TOP: Sight = { alpha: 1, window: undefined, fixed: false, clipped: false, hidesContent: false, transformed: false };

/** The sight of `element` through everything it is drawn inside, kept per element during a pass. */
function sightOf(element: Element, layout: boolean): Sight {
  return passCached(layout ? 'sight:layout' : 'sight', element, (): Sight => {
    const parent = composedParent(element);
    const above = parent ? sightOf(parent, layout) : TOP;
    const style = styleOf(element);
    if (!style) return above;
    const document = element.ownerDocument;
    // The root's and body's overflow applies to the viewport, which scrolls: they cut nothing off.
    const cuts = element !== document.documentElement && element !== document.body && cutsOverflow(style);
    // (Each read of a computed style's property costs about a microsecond: read once, passed on.)
    const path = style.clipPath;
    const position = style.position;
    const box = layout && (cuts || path !== 'none') ? boxOf(element) : undefined;
    return {
      alpha: above.alpha * numberOr(style.opacity, 1) * filterOpacity(style.filter),
      window: box && cuts ? intersect(above.window, box) : above.window,
      fixed: above.fixed || position === 'fixed',
      clipped: above.clipped || above.hidesContent || clipsAll(style, box, position, path) || masksAll(style),
      hidesContent: style.contentVisibility === 'hidden',
      transformed: above.transformed || style.transform !== 'none' || (style.scale !== 'none' && style.scale !== ''),
    };
  });
}

/** The product of a `filter`'s `opacity()` functions (1 without). */
function filterOpacity(filter: string | undefined): number {
  if (!filter || filter === 'none' || !filter.includes('opacity(')) return 1;
  let alpha = 1;
  for (const match of filter.matchAll(/opacity\(\s*([\d.]+)(%?)\s*\)/g)) alpha *= Number.parseFloat(match[1] ?? '1') / (match[2] ? 100 : 1);
  return Number.isFinite(alpha) ? alpha : 1;
}

/** Whether a mask lets nothing through: a gradient mask whose every colour is (nearly) transparent, or a mask of no size. */
function masksAll(style: CSSStyleDeclaration): boolean {
  const image = style.maskImage || style.getPropertyValue('-webkit-mask-image');
  if (!image || image === 'none') return false;
  const size = style.maskSize || style.getPropertyValue('-webkit-mask-size');
  if (size && /^0(px|%)?(\s|$)|\s0(px|%)?$/.test(size.trim())) return true;
  if (!/gradient\(/.test(image) || /url\(/.test(image)) return false;
  const colors = Array.from(image.matchAll(/(rgba?\([^)]*\)|transparent|#[0-9a-f]{3,8}\b|\b(?:black|white)\b)/gi), (match) => parseColor(match[0]));
  return colors.length > 0 && colors.every((color) => color !== undefined && color[3] <= MIN_OPACITY);
}

/**
 * Why the box of `element` shows nothing, from its sight and its box: transparent, clipped or
 * masked, cut away by an overflow:hidden container, too thin to show, or where no scrolling
 * reaches. (Not its text, not covers.)
 */
function boxUnseen(element: Element, layout: boolean): UnseenReason | undefined {
  const sight = sightOf(element, layout);
  if (sight.alpha <= MIN_OPACITY) return 'transparent';
  if (sight.clipped) return 'clipped';
  if (!layout) return undefined;
  const style = styleOf(element);
  // display:contents has no box of its own: its children are judged on their own.
  if (style?.display === 'contents') return undefined;
  const parent = composedParent(element);
  const window = parent ? sightOf(parent, layout).window : undefined;
  const box = boxOf(element);
  const visible = intersect(window, box);
  // A thin box of its own may still show its children (floats, overflow): only one cut off by a
  // container, or a picture (which has no children to show), is hidden here.
  if (visible.right - visible.left <= MAX_INVISIBLE_EXTENT || visible.bottom - visible.top <= MAX_INVISIBLE_EXTENT)
    return window || REPLACED.has(element.localName) ? 'clipped' : undefined;
  if (unreachable(reachFor(element), visible, sight.fixed, element)) return 'off-screen';
  return undefined;
}

/**
 * How a walker over an element already judged seen (a name's parts, the text read from a
 * paragraph) takes one of its descendants: `'hidden'` when nothing it draws can be seen (it
 * and its content are left out), `'text-hidden'` when its own text cannot be read but its
 * children may be (visibility, colour, size, text-indent), `undefined` when it is seen. A part
 * in the viewport under an opaque cover is hidden too (as for reading: see `acting`).
 *
 * @example
 * ```ts
 * partSight(document.querySelector('p > span.sr-only')!); // 'hidden'
 * partSight(document.querySelector('p > span.white-on-white')!); // 'text-hidden'
 * ```
 */
export function partSight(element: Element): 'hidden' | 'text-hidden' | undefined {
  return duringReadPass(() =>
    passCached('part-sight', element, () => {
      const layout = passShared('layout', () => hasLayout(element.ownerDocument));
      if (boxUnseen(element, layout) || (layout && coveredReason(element, false))) return 'hidden';
      return ownTextUnseen(element, layout) ? 'text-hidden' : undefined;
    }),
  );
}

/**
 * Why the text `element` draws itself (its text nodes, its ::before and ::after) cannot be read,
 * its box being seen: visibility, `content-visibility: hidden`, transparent colour (times the
 * opacity above), its background's colour, under 6px as drawn, pushed out of sight by text-indent.
 */
function ownTextUnseen(element: Element, layout: boolean): UnseenReason | undefined {
  return passCached(layout ? 'own-text:layout' : 'own-text', element, (): UnseenReason | undefined => {
    const style = styleOf(element);
    if (!style) return undefined;
    const visibility = style.visibility;
    if (visibility === 'hidden' || visibility === 'collapse') return 'visibility';
    if (style.contentVisibility === 'hidden') return 'clipped';
    const size = Number.parseFloat(style.fontSize);
    if (Number.isFinite(size) && size * (layout && sightOf(element, layout).transformed ? drawnScale(element) : 1) < MIN_FONT_SIZE) return 'tiny-text';
    const color = parseColor(style.getPropertyValue('-webkit-text-fill-color') || style.color);
    if (color) {
      const alpha = color[3] * sightOf(element, layout).alpha;
      if (alpha <= MIN_OPACITY) return 'transparent';
      const background = backgroundBehind(
        element,
        passShared('backgrounds', () => new WeakMap<Element, number[] | null>()),
      );
      if (background && contrastRatio(blend([color[0], color[1], color[2], alpha], background), background) < MIN_CONTRAST) return 'same-colour';
    }
    const indent = style.textIndent;
    if (indent && indent !== '0px' && layout) return indentedAway(element, indent);
    return undefined;
  });
}

/** How much smaller than its font size an element is drawn (a transform's scale on it or above it), from its box; 1 when unknown. */
function drawnScale(element: Element): number {
  const height = (element as HTMLElement).offsetHeight;
  if (!height) return 1;
  const scale = boxOf(element).height / height;
  return Number.isFinite(scale) && scale < 1 ? scale : 1;
}

/** Whether text-indent put the element's own text where no one sees it: its text's boxes all outside what its container shows or out of reach. */
function indentedAway(element: Element, indent: string): UnseenReason | undefined {
  if (indent.endsWith('%')) {
    const percent = Math.abs(Number.parseFloat(indent));
    return percent >= 100 ? 'clipped' : undefined;
  }
  const range = element.ownerDocument.createRange();
  let rects: DOMRect[] = [];
  for (const node of Array.from(renderedNodes(element))) {
    if (node.nodeType !== 3 || !/\S/.test(node.nodeValue ?? '')) continue;
    range.selectNodeContents(node);
    rects = rects.concat(Array.from(range.getClientRects()));
  }
  if (rects.length === 0) return undefined;
  const window = sightOf(element, true).window;
  const reach = reachFor(element);
  const fixed = sightOf(element, true).fixed;
  const seen = rects.some((rect) => {
    const visible = intersect(window, rect);
    return (
      visible.right - visible.left > MAX_INVISIBLE_EXTENT && visible.bottom - visible.top > MAX_INVISIBLE_EXTENT && !unreachable(reach, visible, fixed, element)
    );
  });
  return seen ? undefined : 'off-screen';
}

/**
 * Why none of the text `element` draws (itself and through its descendants) can be read, when it
 * draws any and none can; `undefined` when some can, when it draws none, or when it shows a
 * picture or control that is seen.
 */
function textUnseen(element: Element, layout: boolean): UnseenReason | undefined {
  if (REPLACED.has(element.localName)) return undefined;
  let first: UnseenReason | undefined;
  let looked = 0;
  // True as soon as something drawn is seen: the walk ends there.
  const visit = (node: Element, own: UnseenReason | undefined): boolean => {
    const children = renderedNodes(node);
    for (let i = 0; i < children.length; i += 1) {
      if ((looked += 1) > MAX_TEXT_NODES) return true;
      const child = children[i] as Node;
      if (child.nodeType === 3) {
        if (!/\S/.test(child.nodeValue ?? '')) continue;
        if (!own) return true;
        first ??= own;
        continue;
      }
      if (child.nodeType !== 1) continue;
      const el = child as Element;
      if (NOT_DRAWN.has(el.localName) || el.hasAttribute('hidden') || styleOf(el)?.display === 'none') continue;
      const box = boxUnseen(el, layout);
      if (box) {
        first ??= box;
        continue;
      }
      if (REPLACED.has(el.localName) || visit(el, ownTextUnseen(el, layout))) return true;
    }
    return false;
  };
  return visit(element, ownTextUnseen(element, layout)) ? undefined : first;
}

/**
 * Whether `element`, in the viewport, is hidden under something opaque at every point looked at
 * (the centre and four inner points of its first box, the centres of its next two line boxes):
 * 'covered' when each hits another element with an opaque background (or a picture) drawn over it,
 * or an opaque ancestor it is drawn behind. Outside the viewport it cannot be told: seen. Without
 * `acting`, an element that lets clicks through (`pointer-events: none`) cannot be hit-tested
 * and counts as seen, and so does what lies under a cover that lets clicks through.
 */
function coveredReason(element: Element, acting: boolean): UnseenReason | undefined {
  // Kept per element for the pass while the hit-test sheets stay as they are (an element and the parts of its name ask alike).
  return passCached(`covered:${String(acting)}:${hitSheets().count}`, element, () => coveredNow(element, acting));
}

function coveredNow(element: Element, acting: boolean): UnseenReason | undefined {
  const document = element.ownerDocument;
  const view = document.defaultView;
  if (!view || typeof document.elementFromPoint !== 'function') return undefined;
  const parent = composedParent(element);
  const window = intersect(parent ? sightOf(parent, true).window : undefined, { left: 0, top: 0, right: view.innerWidth, bottom: view.innerHeight });
  // Its boxes lie within its bounding box (kept for the pass): none shows in the viewport when that does not.
  const bounds = intersect(window, boxOf(element));
  if (bounds.right - bounds.left <= 1 || bounds.bottom - bounds.top <= 1) return undefined;
  const rects = Array.from(element.getClientRects()).slice(0, 3);
  const points: Array<[number, number]> = [];
  const areas: Rect[] = [];
  rects.forEach((rect, i) => {
    const area = intersect(window, rect);
    if (area.right - area.left <= 1 || area.bottom - area.top <= 1) return;
    areas.push(area);
    const at = (fx: number, fy: number): [number, number] => [area.left + (area.right - area.left) * fx, area.top + (area.bottom - area.top) * fy];
    points.push(at(0.5, 0.5));
    if (i === 0) points.push(at(1 / 3, 1 / 3), at(2 / 3, 1 / 3), at(1 / 3, 2 / 3), at(2 / 3, 2 / 3));
  });
  if (points.length === 0) return undefined;
  if (acting) allowHits(document);
  else if (styleOf(element)?.pointerEvents === 'none') return undefined;
  // A point already hit-tested in this pass (for the element a name part is in, say) that lands on it: it is seen there.
  for (const [x, y, hit] of hitsSoFar(document, acting))
    if (hit && areas.some((area) => x > area.left && x < area.right && y > area.top && y < area.bottom) && containsAcross(element, hit)) return undefined;
  for (const [x, y] of points) {
    const hit = deepElementFromPoint(document, x, y, acting);
    if (!hit || containsAcross(element, hit)) return undefined;
    if (!coverIsOpaque(hit, element)) return undefined;
  }
  return 'covered';
}

/** Whether `hit` (what is drawn at a point of `element`) hides it there: it, or what holds it up to what holds `element` too, paints an opaque background or a picture; an ancestor `element` is drawn behind, by its own background. */
function coverIsOpaque(hit: Element, element: Element): boolean {
  for (let node: Element | null = hit; node; node = composedParent(node)) {
    if (paintsOpaque(node)) return true;
    if (containsAcross(node, element)) return false;
  }
  return false;
}

function paintsOpaque(element: Element): boolean {
  return passCached('paints-opaque', element, () => {
    // A picture hides what is under it once it has loaded (a transparent one cannot be told: it counts as opaque); one without a source draws nothing.
    const picture = element as HTMLImageElement & HTMLVideoElement;
    if (element.localName === 'img' && picture.complete && picture.naturalWidth > 0) return sightOf(element, true).alpha > 0.9;
    if (element.localName === 'video' && picture.readyState >= 2) return sightOf(element, true).alpha > 0.9;
    const style = styleOf(element);
    if (!style) return false;
    const image = style.backgroundImage;
    const color = parseColor(style.backgroundColor || 'transparent');
    const alpha = sightOf(element, true).alpha;
    if (image && image !== 'none' && image !== 'initial') return alpha > 0.9;
    return !!color && color[3] * alpha > 0.9;
  });
}

/**
 * Makes every element of `document` (and of the shadow roots hit tests go into) hit-testable for
 * the rest of the pass: a constructed style sheet with `pointer-events: auto !important`, added
 * to `adoptedStyleSheets` and removed when the pass ends (no DOM change a MutationObserver sees).
 */
function allowHits(scope: Document | ShadowRoot): void {
  const added = hitSheets();
  if (added.scopes.has(scope)) return;
  added.scopes.add(scope);
  added.count += 1;
  const view = (scope.nodeType === 9 ? (scope as Document) : (scope as ShadowRoot).ownerDocument).defaultView as (Window & typeof globalThis) | null;
  const Sheet = view?.CSSStyleSheet;
  const holder = scope as (Document | ShadowRoot) & { adoptedStyleSheets?: CSSStyleSheet[] };
  if (!Sheet || !Array.isArray(holder.adoptedStyleSheets)) return;
  try {
    const sheet = new Sheet();
    sheet.replaceSync('*, *::before, *::after { pointer-events: auto !important; }');
    holder.adoptedStyleSheets = [...holder.adoptedStyleSheets, sheet];
    atPassEnd(() => {
      holder.adoptedStyleSheets = (holder.adoptedStyleSheets ?? []).filter((known) => known !== sheet);
    });
  } catch {
    // An engine without constructable style sheets: covers that let clicks through are not seen.
  }
}

/** The scopes given a hit-test sheet in this pass, and how many: hit tests are kept per count (a sheet changes what they hit). */
function hitSheets(): { scopes: WeakSet<Document | ShadowRoot>; count: number } {
  return passShared('hit-sheets', () => ({ scopes: new WeakSet<Document | ShadowRoot>(), count: 0 }));
}

/** What is drawn at a point, through open shadow roots; kept per point for the pass while the hit-test sheets stay as they are. */
function deepElementFromPoint(document: Document, x: number, y: number, acting: boolean): Element | null {
  const root = document.documentElement;
  if (!root) return hitNow(document, x, y, acting);
  const hits = passCached('hits', root, () => new Map<string, Element | null>());
  const key = `${String(acting)}:${hitSheets().count}:${x}:${y}`;
  if (hits.has(key)) return hits.get(key) as Element | null;
  const hit = hitNow(document, x, y, acting);
  hits.set(key, hit);
  hitsSoFar(document, acting).push([x, y, hit]);
  return hit;
}

/** The points hit-tested so far in this pass, with what each hit, while the hit-test sheets stay as they are. */
function hitsSoFar(document: Document, acting: boolean): Array<[number, number, Element | null]> {
  const lists = passShared('hit-list', () => new WeakMap<Document, Map<string, Array<[number, number, Element | null]>>>());
  let byKey = lists.get(document);
  if (!byKey) lists.set(document, (byKey = new Map()));
  const key = `${String(acting)}:${hitSheets().count}`;
  let list = byKey.get(key);
  if (!list) byKey.set(key, (list = []));
  return list;
}

function hitNow(document: Document, x: number, y: number, acting: boolean): Element | null {
  let hit = document.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    if (acting) allowHits(hit.shadowRoot);
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** Whether `node` is `container` or inside it, across shadow roots and slots. */
function containsAcross(container: Element, node: Element): boolean {
  for (let current: Element | null = node; current; current = composedParent(current)) if (current === container) return true;
  return false;
}

function intersect(a: Rect | undefined, b: Rect): Rect {
  if (!a) return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
  return { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
}

/** The viewport and the page's reach, read once per pass. */
function reachFor(element: Element): Reach | undefined {
  return passShared('reach', () => reachOf(element.ownerDocument) ?? null) ?? undefined;
}

/**
 * A quick first look at an element the outline's walk may list, from what the walk has read
 * (`style`, `box`): transparent by its own opacity or (natively) an ancestor's, clipped by its own
 * clip or a parent that cuts a thin box off, out of reach. Anything it finds unseen
 * {@link unseenReason} finds unseen too; the outline judges what it keeps with the whole rule.
 *
 * @example
 * ```ts
 * const firstLook = createSightCheck(true);
 * [...document.querySelectorAll('button')].filter((button) => !firstLook(button));
 * ```
 */
export function createSightCheck(layout: boolean): (element: Element, style?: CSSStyleDeclaration, box?: DOMRect) => UnseenReason | undefined {
  const first = (element: Element, given: CSSStyleDeclaration | undefined, givenBox: DOMRect | undefined): UnseenReason | undefined => {
    const style = given ?? styleOf(element);
    const box = layout ? (givenBox ?? boxOf(element)) : undefined;
    if (numberOr(style?.opacity, 1) * filterOpacity(style?.filter) <= MIN_OPACITY) return 'transparent';
    // Chromium's checkVisibility looks up the tree natively: opacity 0, content-visibility:hidden.
    const native = (element as Element & { checkVisibility?: (options: { opacityProperty: boolean }) => boolean }).checkVisibility;
    if (layout && typeof native === 'function' && style?.display !== 'contents' && !native.call(element, { opacityProperty: true })) return 'transparent';
    const position = style?.position;
    if (style && clipsAll(style, box, position)) return 'clipped';
    if (box && (box.width <= MAX_INVISIBLE_EXTENT || box.height <= MAX_INVISIBLE_EXTENT)) {
      const parent = composedParent(element);
      const parentStyle = parent ? styleOf(parent) : undefined;
      if (parentStyle && (cutsOverflow(parentStyle) || clipsAll(parentStyle, undefined))) return 'clipped';
    } else if (box && unreachable(reachFor(element), box, position === 'fixed', element)) return 'off-screen';
    return undefined;
  };
  return (element, style, box) => {
    const reason = first(element, style, box);
    return (reason === 'transparent' || reason === 'clipped') && seenThroughLabel(element, layout) ? undefined : reason;
  };
}

/**
 * The opaque colour behind `element`'s text: its own and its ancestors' background colours laid
 * over each other, on a white canvas; undefined when a background image (or a colour it cannot
 * read) is in the way, since what is drawn there cannot be told. Kept per element in `known`.
 */
function backgroundBehind(element: Element, known: WeakMap<Element, number[] | null>): number[] | undefined {
  const cached = known.get(element);
  if (cached !== undefined) return cached ?? undefined;
  let result: number[] | null = null;
  const style = styleOf(element);
  const image = style?.backgroundImage;
  // ('initial': happy-dom's value after the `background` shorthand.)
  if (!style || !image || image === 'none' || image === 'initial') {
    const color = parseColor(style?.backgroundColor || 'transparent');
    if (color) {
      if (color[3] >= 1) result = color.slice(0, 3);
      else {
        const parent = composedParent(element);
        const below = parent ? backgroundBehind(parent, known) : [255, 255, 255];
        result = below ? (color[3] > 0 ? blend(color, below) : below) : null;
      }
    }
  }
  known.set(element, result);
  return result ?? undefined;
}

/**
 * Whether `style` clips its element away: `clip: rect()` with no area (absolutely positioned),
 * `clip-path: inset(50%)` and the like, or (given its box) a box at most 1px wide or high that
 * hides its overflow: the screen-reader-only pattern.
 */
function clipsAll(style: CSSStyleDeclaration, box: DOMRect | undefined, position = style.position, path = style.clipPath): boolean {
  const clip = position === 'absolute' || position === 'fixed' ? style.clip : '';
  if (clip && clip !== 'auto') {
    const numbers = (/rect\(([^)]*)\)/.exec(clip)?.[1] ?? '').split(/[\s,]+/).map((n) => Number.parseFloat(n));
    if (numbers.length === 4 && numbers.every(Number.isFinite)) {
      const [top, right, bottom, left] = numbers as [number, number, number, number];
      if (right - left <= MAX_INVISIBLE_EXTENT || bottom - top <= MAX_INVISIBLE_EXTENT) return true;
    }
  }
  if (path && path !== 'none' && clipPathLeavesNothing(path, box)) return true;
  if (box && (box.width <= MAX_INVISIBLE_EXTENT || box.height <= MAX_INVISIBLE_EXTENT) && cutsOverflow(style)) return true;
  return false;
}

/**
 * Whether a `clip-path` shape has no area: `inset()` whose sides meet (percentages, or lengths
 * given the box), `circle(0)`/`ellipse(0 …)`, a `polygon()` whose points enclose (nearly) nothing.
 */
function clipPathLeavesNothing(path: string, box: DOMRect | undefined): boolean {
  const length = (part: string | undefined, extent: number | undefined): number => {
    if (!part) return Number.NaN;
    const value = Number.parseFloat(part);
    if (part.endsWith('%')) return extent === undefined ? (value >= 100 ? Number.POSITIVE_INFINITY : Number.NaN) : (value / 100) * extent;
    return part.endsWith('px') || value === 0 ? value : Number.NaN;
  };
  const inset = /^inset\(([^)]*)\)/.exec(path)?.[1];
  if (inset) {
    const parts =
      inset
        .split(/\s+round\s+/)[0]
        ?.trim()
        .split(/\s+/) ?? [];
    const [t, r = t, b = t, l = r] = parts;
    const percents = parts.map((part) => (part.endsWith('%') ? Number.parseFloat(part) : Number.NaN));
    const [pt, pr = pt, pb = pt, pl = pr] = percents;
    if ((pt ?? 0) + (pb ?? 0) >= 100 || (pl ?? 0) + (pr ?? 0) >= 100) return true;
    if (box) {
      const vertical = length(t, box.height) + length(b, box.height);
      const horizontal = length(l, box.width) + length(r, box.width);
      if (vertical >= box.height - MAX_INVISIBLE_EXTENT || horizontal >= box.width - MAX_INVISIBLE_EXTENT) return true;
    }
    return false;
  }
  if (/^(circle|ellipse)\(\s*0(px|%)?[\s)]/.test(path)) return true;
  const polygon = /^polygon\(([^)]*)\)/.exec(path)?.[1];
  if (polygon) {
    const points = polygon
      .replace(/^\s*(nonzero|evenodd)\s*,/, '')
      .split(',')
      .map((pair) => {
        const [x, y] = pair.trim().split(/\s+/);
        return [length(x, box?.width ?? 100), length(y, box?.height ?? 100)] as const;
      });
    if (points.some(([x, y]) => !Number.isFinite(x) || !Number.isFinite(y))) return false;
    let area = 0;
    for (let i = 0; i < points.length; i += 1) {
      const [x1, y1] = points[i] as readonly [number, number];
      const [x2, y2] = points[(i + 1) % points.length] as readonly [number, number];
      area += x1 * y2 - x2 * y1;
    }
    return Math.abs(area) / 2 <= MAX_INVISIBLE_EXTENT;
  }
  return false;
}

/** Whether a box cuts off what overflows it (and cannot be scrolled by the user to show it). */
function cutsOverflow(style: CSSStyleDeclaration): boolean {
  const x = style.overflowX;
  if (x === 'hidden' || x === 'clip') return true;
  const y = style.overflowY;
  // (happy-dom leaves the longhands empty after the `overflow` shorthand.)
  if (y === 'hidden' || y === 'clip') return true;
  if (x || y) return false;
  const both = style.overflow;
  return both === 'hidden' || both === 'clip';
}

/** The viewport and the page's scrollable size: what decides whether scrolling can reach a box. */
interface Reach {
  x: number;
  y: number;
  width: number;
  height: number;
  viewWidth: number;
  viewHeight: number;
}

function reachOf(document: Document): Reach | undefined {
  const view = document.defaultView;
  if (!view) return undefined;
  const scroller = document.scrollingElement ?? document.documentElement;
  let width = Math.max(scroller.scrollWidth, view.innerWidth);
  // A root (or a body whose overflow goes to the viewport) that hides horizontal overflow: no one scrolls right of the viewport.
  const rootX = styleOf(document.documentElement)?.overflowX;
  const bodyX = document.body ? styleOf(document.body)?.overflowX : undefined;
  const hides = (value: string | undefined) => value === 'hidden' || value === 'clip';
  if (hides(rootX) || ((rootX === 'visible' || !rootX) && hides(bodyX))) width = view.scrollX + view.innerWidth;
  return {
    x: view.scrollX,
    y: view.scrollY,
    width,
    height: Math.max(scroller.scrollHeight, view.innerHeight),
    viewWidth: view.innerWidth,
    viewHeight: view.innerHeight,
  };
}

/**
 * Whether no scrolling shows the rectangle of `element`: left of or above the page, past its
 * scrollable end, or fixed outside the viewport. Inside a container that scrolls (overflow auto or
 * scroll, with more content than room: a chat log, a body that is the page's scroller) the page's
 * extent says nothing, so such an element counts as reachable.
 */
function unreachable(reach: Reach | undefined, rect: { left: number; top: number; right: number; bottom: number }, fixed: boolean, element: Element): boolean {
  if (!reach) return false;
  const out = fixed
    ? rect.right <= 0 || rect.bottom <= 0 || rect.left >= reach.viewWidth || rect.top >= reach.viewHeight
    : rect.right + reach.x <= 0 || rect.bottom + reach.y <= 0 || rect.left + reach.x >= reach.width || rect.top + reach.y >= reach.height;
  // Rarely out: only then look for a scrolling container (reading every ancestor's style costs).
  return out && !insideScroller(element);
}

function insideScroller(element: Element): boolean {
  // Kept per element during an outline: the elements out of reach on a page are often many, in the same few containers.
  return passCached('inside-scroller', element, (): boolean => {
    const node = composedParent(element);
    if (!node || node === element.ownerDocument.documentElement) return false;
    return scrollsWithMore(node) || insideScroller(node);
  });
}

/** Whether `node` scrolls (overflow auto, scroll or overlay) and has more content than room. */
function scrollsWithMore(node: Element): boolean {
  const style = styleOf(node);
  if (!style) return false;
  const scrolls = (value: string) => value === 'auto' || value === 'scroll' || value === 'overlay';
  return (scrolls(style.overflowY) && node.scrollHeight > node.clientHeight + 1) || (scrolls(style.overflowX) && node.scrollWidth > node.clientWidth + 1);
}

function numberOr(text: string | undefined, fallback: number): number {
  const value = Number.parseFloat(text ?? '');
  return Number.isFinite(value) ? value : fallback;
}
