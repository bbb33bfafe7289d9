import { blend, contrastRatio, parseColor } from './colour.js';
import { passCached, passShared } from './read-pass.js';
import { hasLayout, hiddenReason, styleOf, type HiddenReason } from './visibility.js';

/*
 * What a sighted user can see, which is stricter than what assistive technology is given:
 * `visibility.ts` says whether an element is rendered at all; this file also says whether a
 * person looking at the screen can make it out. An element is unseen when it (or what it is drawn
 * inside) is transparent, clipped away (the screen-reader-only pattern, `clip`, `clip-path`, an
 * overflow:hidden box that cuts it off), placed where no scrolling reaches, or, for text, drawn in
 * a colour (nearly) the same as its background or at a near-zero font size. The outline lists
 * no heading or text a person cannot see, and the tools act on nothing a person cannot see.
 *
 * Every rule here reads only computed styles and boxes; what cannot be told (a background image
 * under the text, a colour format it does not parse) counts as seen, so a page is never hidden
 * from the model by a guess.
 */

/** Why a sighted user cannot see an element. */
export type UnseenReason = HiddenReason | 'transparent' | 'clipped' | 'off-screen' | 'tiny-text' | 'same-colour' | 'covered';

/** Opacity (times that of everything it is drawn inside) at or below which nothing shows. */
const MIN_OPACITY = 0.05;
/** Font sizes (px) below which text cannot be read. */
const MIN_FONT_SIZE = 6;
/** Contrast ratios (WCAG) below which text is taken as drawn in its background's colour: #eee on white is 1.16. */
const MIN_CONTRAST = 1.2;
/** A box this thin (px) or less shows nothing: the screen-reader-only pattern is 1×1. */
const MAX_INVISIBLE_EXTENT = 1;

/**
 * Why a sighted user cannot see `element` now, if they cannot; `undefined` when they can. Checks
 * everything {@link hiddenReason} does, then, through the element and what it is drawn inside:
 * opacity near 0, a `clip` or `clip-path` that leaves nothing, a 1-pixel box that hides its
 * overflow; where the page has layout, a box cut away by an overflow:hidden container or placed
 * where no scrolling reaches (left of or above the page, a fixed box outside the viewport). With
 * `text: true` (headings, text), also text drawn transparent, in (nearly) its background's
 * colour, or at a font size under 6px.
 *
 * @example
 * ```ts
 * unseenReason(document.querySelector('.sr-only')!); // 'clipped'
 * unseenReason(document.querySelector('h2.white-on-white')!, { text: true }); // 'same-colour'
 * ```
 */
export function unseenReason(element: Element, options: { layout?: boolean; text?: boolean } = {}): UnseenReason | undefined {
  const layout = options.layout ?? hasLayout(element.ownerDocument);
  // During an outline, one checker (and what it keeps of every ancestor) serves every element asked about.
  return hiddenReason(element, { layout }) ?? passShared(`sight:${String(layout)}`, () => createSightCheck(layout))(element, options.text ?? false);
}

/** What an element's ancestors do to what it draws. */
interface Sight {
  /** Opacity, times every ancestor's. */
  opacity: number;
  /** What overflow:hidden ancestors (and the element itself, for its children) leave visible, in viewport coordinates. */
  window: Rect | undefined;
  /** Inside (or is) a fixed box: it does not move when the page scrolls. */
  fixed: boolean;
  /** Clipped away (clip, clip-path, a 1px box hiding its overflow) by itself or an ancestor. */
  clipped: boolean;
}

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * A checker of what a sighted user sees, for many elements of one page at one moment: what the
 * ancestors contribute is computed once per element and kept. It does not repeat
 * {@link hiddenReason}'s checks (the outline's walk has made them); {@link unseenReason} does both.
 *
 * `thorough` (what a tool is about to act on): opacity, `clip`/`clip-path` and overflow:hidden
 * cut-offs through every ancestor. Otherwise (the outline, over every element of a page, where
 * each computed-style property read costs): opacity through every ancestor (one read each), the
 * element's own clipping, and a 1px box whose own or parent's overflow is hidden; a heading
 * inside a clipped container is then left to the action-time check. `style` and `box` may be
 * passed when the caller has them.
 *
 * @example
 * ```ts
 * const unseen = createSightCheck(true);
 * const headings = [...document.querySelectorAll('h1, h2, h3')];
 * headings.filter((heading) => !unseen(heading, true));
 * ```
 */
export function createSightCheck(
  layout: boolean,
  thorough = true,
): (element: Element, text: boolean, style?: CSSStyleDeclaration, box?: DOMRect) => UnseenReason | undefined {
  const cache = new WeakMap<Element, Sight>();
  const opacities = new WeakMap<Element, number>();
  const top: Sight = { opacity: 1, window: undefined, fixed: false, clipped: false };
  let reach: Reach | null = null;
  const reachFor = (element: Element): Reach | undefined => (reach ??= reachOf(element.ownerDocument) ?? null) ?? undefined;
  const backgrounds = passShared('backgrounds', () => new WeakMap<Element, number[] | null>());
  const sightOf = (element: Element): Sight => {
    const known = cache.get(element);
    if (known) return known;
    const parent = composedParent(element);
    const above = parent ? sightOf(parent) : top;
    const style = styleOf(element);
    let sight = above;
    if (style) {
      // The root's and body's overflow applies to the viewport, which scrolls: they cut nothing off.
      const cuts = element !== element.ownerDocument.documentElement && element !== element.ownerDocument.body && cutsOverflow(style);
      const box = layout && cuts ? element.getBoundingClientRect() : undefined;
      sight = {
        opacity: above.opacity * numberOr(style.opacity, 1),
        window: box ? intersect(above.window, box) : above.window,
        fixed: above.fixed || style.position === 'fixed',
        clipped: above.clipped || clipsAll(style, box),
      };
    }
    cache.set(element, sight);
    return sight;
  };
  const opacityOf = (element: Element): number => {
    const known = opacities.get(element);
    if (known !== undefined) return known;
    const parent = composedParent(element);
    const value = (parent ? opacityOf(parent) : 1) * numberOr(styleOf(element)?.opacity, 1);
    opacities.set(element, value);
    return value;
  };
  // Chromium's checkVisibility looks for an opacity of exactly 0 up the tree natively, far faster than
  // reading every ancestor's style; a faint ancestor (0.01) is then left to the action-time check.
  const transparent = (element: Element, style: CSSStyleDeclaration | undefined): boolean => {
    if (numberOr(style?.opacity, 1) <= MIN_OPACITY) return true;
    const native = (element as Element & { checkVisibility?: (options: { opacityProperty: boolean }) => boolean }).checkVisibility;
    if (layout && typeof native === 'function') return !native.call(element, { opacityProperty: true });
    return opacityOf(element) <= MIN_OPACITY;
  };
  const check = (element: Element, text: boolean, given?: CSSStyleDeclaration, givenBox?: DOMRect): UnseenReason | undefined => {
    let reason: UnseenReason | undefined;
    let box: DOMRect | undefined;
    if (thorough) {
      const sight = sightOf(element);
      if (sight.opacity <= MIN_OPACITY) reason = 'transparent';
      else if (sight.clipped) reason = 'clipped';
      else if (layout) {
        const parent = composedParent(element);
        box = givenBox ?? element.getBoundingClientRect();
        const visible = intersect(parent ? sightOf(parent).window : undefined, box);
        if (visible.right - visible.left <= MAX_INVISIBLE_EXTENT || visible.bottom - visible.top <= MAX_INVISIBLE_EXTENT) {
          // A box with no size of its own may still show its children (display:contents, floats): only a cut-off one is hidden here.
          if (parent && sightOf(parent).window) reason = 'clipped';
        } else if (unreachable(reachFor(element), visible, sight.fixed, element)) reason = 'off-screen';
      }
    } else {
      const style = given ?? styleOf(element);
      box = layout ? (givenBox ?? element.getBoundingClientRect()) : undefined;
      if (transparent(element, style)) reason = 'transparent';
      else if (style && clipsAll(style, box)) reason = 'clipped';
      else if (box && (box.width <= MAX_INVISIBLE_EXTENT || box.height <= MAX_INVISIBLE_EXTENT)) {
        const parent = composedParent(element);
        const parentStyle = parent ? styleOf(parent) : undefined;
        if (parentStyle && (cutsOverflow(parentStyle) || clipsAll(parentStyle, undefined))) reason = 'clipped';
      } else if (box && unreachable(reachFor(element), box, style?.position === 'fixed', element)) reason = 'off-screen';
    }
    if (reason === 'transparent' || reason === 'clipped') {
      // A visually hidden native checkbox or radio drawn by its label (a common styling pattern) is seen through that label.
      const labels = (element as HTMLInputElement).labels;
      if (labels && labels.length > 0 && Array.from(labels).some((label) => label !== element && !check(label, false))) return undefined;
      return reason;
    }
    if (reason) return reason;
    return text ? textUnseenBy(element, given, false, backgrounds) : undefined;
  };
  return check;
}

function intersect(a: Rect | undefined, b: Rect): Rect {
  if (!a) return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
  return { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
}

/**
 * Why the text `element` draws itself is unseen, from its own style only (its ancestors are the
 * caller's): transparent (opacity, `color` or `-webkit-text-fill-color` alpha 0), clipped away,
 * under 6px, or (nearly) the colour of the background behind it. Used for the parts of a name:
 * a white span inside a visible heading is not part of the heading's name.
 *
 * @example
 * ```ts
 * const span = document.querySelector('h1 span')!;
 * textUnseenBy(span, getComputedStyle(span)); // 'same-colour' for white text on a white page
 * ```
 */
export function textUnseenBy(
  element: Element,
  style: CSSStyleDeclaration | undefined = styleOf(element),
  parentChecked = false,
  backgrounds?: WeakMap<Element, number[] | null>,
): UnseenReason | undefined {
  if (!style) return undefined;
  const visibility = style.visibility;
  if (visibility === 'hidden' || visibility === 'collapse') return 'visibility';
  if (numberOr(style.opacity, 1) <= MIN_OPACITY) return 'transparent';
  if (clipsAll(style, undefined)) return 'clipped';
  const size = Number.parseFloat(style.fontSize);
  if (Number.isFinite(size) && size < MIN_FONT_SIZE) return 'tiny-text';
  const color = parseColor(style.getPropertyValue('-webkit-text-fill-color') || style.color);
  if (!color) return undefined;
  if (color[3] <= MIN_OPACITY) return 'transparent';
  // Inside text already judged, colours unchanged from the parent's hide nothing new (and cost an ancestor walk).
  if (parentChecked) {
    const parent = composedParent(element);
    const parentStyle = parent ? styleOf(parent) : undefined;
    if (parentStyle && parentStyle.color === style.color) {
      const background = style.backgroundColor;
      if (background === parentStyle.backgroundColor) return undefined;
      if ((parseColor(background)?.[3] ?? 1) === 0) return undefined;
    }
  }
  const background = backgroundBehind(element, backgrounds ?? passShared('backgrounds', () => new WeakMap<Element, number[] | null>()));
  if (!background) return undefined;
  return contrastRatio(blend(color, background), background) < MIN_CONTRAST ? 'same-colour' : undefined;
}

/**
 * Whether {@link textUnseenBy} says 'clipped' for an element of computed style `style`, read
 * without its colour and size checks: visible, not transparent, and clipped away.
 *
 * @example
 * ```ts
 * const srOnlySpan = document.querySelector('.sr-only')!;
 * textClippedBy(getComputedStyle(srOnlySpan)); // true
 * ```
 */
export function textClippedBy(style: CSSStyleDeclaration): boolean {
  const visibility = style.visibility;
  if (visibility === 'hidden' || visibility === 'collapse') return false;
  if (numberOr(style.opacity, 1) <= MIN_OPACITY) return false;
  return clipsAll(style, undefined);
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
export function isSeen(element: Element, options: { layout?: boolean; text?: boolean } = {}): boolean {
  return unseenReason(element, options) === undefined;
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
function clipsAll(style: CSSStyleDeclaration, box: DOMRect | undefined): boolean {
  const position = style.position;
  const clip = position === 'absolute' || position === 'fixed' ? style.clip : '';
  if (clip && clip !== 'auto') {
    const numbers = (/rect\(([^)]*)\)/.exec(clip)?.[1] ?? '').split(/[\s,]+/).map((n) => Number.parseFloat(n));
    if (numbers.length === 4 && numbers.every(Number.isFinite)) {
      const [top, right, bottom, left] = numbers as [number, number, number, number];
      if (right - left <= MAX_INVISIBLE_EXTENT || bottom - top <= MAX_INVISIBLE_EXTENT) return true;
    }
  }
  const path = style.clipPath;
  if (path && path !== 'none') {
    const inset = /^inset\(([^)]*)\)/.exec(path)?.[1];
    if (inset) {
      const parts = inset.split(/\s+round\s+/)[0]?.trim().split(/\s+/) ?? [];
      const percent = (part: string | undefined) => (part?.endsWith('%') ? Number.parseFloat(part) : Number.NaN);
      const [t, r = t, b = t, l = r] = parts.map(percent);
      if ((t ?? 0) + (b ?? 0) >= 100 || (l ?? 0) + (r ?? 0) >= 100) return true;
    }
    if (/^(circle|ellipse)\(\s*0(px|%)?[\s)]/.test(path)) return true;
  }
  if (box && (box.width <= MAX_INVISIBLE_EXTENT || box.height <= MAX_INVISIBLE_EXTENT) && cutsOverflow(style)) return true;
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
  return { x: view.scrollX, y: view.scrollY, width: Math.max(scroller.scrollWidth, view.innerWidth), height: Math.max(scroller.scrollHeight, view.innerHeight), viewWidth: view.innerWidth, viewHeight: view.innerHeight };
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

/** The element `element` is drawn inside: its slot, its parent, or its shadow root's host. */
function composedParent(element: Element): Element | null {
  const slot = element.assignedSlot;
  if (slot) return slot;
  if (element.parentElement) return element.parentElement;
  const parent = element.parentNode;
  return parent && parent.nodeType === 11 ? (parent as ShadowRoot).host : null;
}

function numberOr(text: string | undefined, fallback: number): number {
  const value = Number.parseFloat(text ?? '');
  return Number.isFinite(value) ? value : fallback;
}
