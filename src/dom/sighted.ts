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
 * unseenReason(whiteOnWhiteHeading, { text: true }); // 'same-colour'
 * ```
 */
export function unseenReason(element: Element, options: { layout?: boolean; text?: boolean } = {}): UnseenReason | undefined {
  const layout = options.layout ?? hasLayout(element.ownerDocument);
  return hiddenReason(element, { layout }) ?? createSightCheck(layout)(element, options.text ?? false);
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
 * ancestors contribute (opacity, clipping, overflow) is computed once per element and kept, so a
 * walk over the whole page costs one style read per element. It does not repeat
 * {@link hiddenReason}'s checks (the outline's walk has made them); {@link unseenReason} does both.
 *
 * @example
 * ```ts
 * const unseen = createSightCheck(true);
 * headings.filter((heading) => !unseen(heading, true));
 * ```
 */
export function createSightCheck(layout: boolean): (element: Element, text: boolean) => UnseenReason | undefined {
  const cache = new WeakMap<Element, Sight>();
  const top: Sight = { opacity: 1, window: undefined, fixed: false, clipped: false };
  const sightOf = (element: Element): Sight => {
    const known = cache.get(element);
    if (known) return known;
    const parent = composedParent(element);
    const above = parent ? sightOf(parent) : top;
    const style = styleOf(element);
    let sight = above;
    if (style) {
      const cuts = cutsOverflow(style);
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
  const check = (element: Element, text: boolean): UnseenReason | undefined => {
    const sight = sightOf(element);
    if (sight.opacity <= MIN_OPACITY || sight.clipped) {
      // A visually hidden native checkbox or radio drawn by its label (a common styling pattern) is seen through that label.
      const labels = (element as HTMLInputElement).labels;
      if (labels && labels.length > 0 && Array.from(labels).some((label) => label !== element && !check(label, false))) return undefined;
      return sight.clipped && sight.opacity > MIN_OPACITY ? 'clipped' : 'transparent';
    }
    if (layout) {
      const parent = composedParent(element);
      const visible = intersect(parent ? sightOf(parent).window : undefined, element.getBoundingClientRect());
      if (visible.right - visible.left <= MAX_INVISIBLE_EXTENT || visible.bottom - visible.top <= MAX_INVISIBLE_EXTENT) {
        // A box with no size of its own may still show its children (display:contents, floats): only a cut-off one is hidden here.
        if (parent && sightOf(parent).window) return 'clipped';
      } else if (unreachable(element, visible, sight.fixed)) return 'off-screen';
    }
    return text ? textUnseenBy(element) : undefined;
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
 * textUnseenBy(span, getComputedStyle(span)); // 'same-colour' for white text on a white page
 * ```
 */
export function textUnseenBy(element: Element, style: CSSStyleDeclaration | undefined = styleOf(element), parentChecked = false): UnseenReason | undefined {
  if (!style) return undefined;
  if (style.visibility === 'hidden' || style.visibility === 'collapse') return 'visibility';
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
    if (parentStyle && parentStyle.color === style.color && style.backgroundColor === parentStyle.backgroundColor) return undefined;
    if (parentStyle && parentStyle.color === style.color && (parseColor(style.backgroundColor)?.[3] ?? 1) === 0) return undefined;
  }
  const background = backgroundBehind(element);
  if (!background) return undefined;
  return contrastRatio(blend(color, background), background) < MIN_CONTRAST ? 'same-colour' : undefined;
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
 * The WCAG contrast ratio of two opaque sRGB colours (`[r, g, b]`, 0 to 255): 1 (same) to 21.
 *
 * @example
 * ```ts
 * contrastRatio([255, 255, 255], [0, 0, 0]); // 21
 * ```
 */
export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function luminance(rgb: readonly number[]): number {
  const [r, g, b] = [0, 1, 2].map((i) => {
    const c = (rgb[i] ?? 0) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** `rgb()`/`rgba()` (commas or spaces), `#rgb`/`#rrggbb`, `transparent`, `white`, `black`; undefined otherwise. */
function parseColor(text: string | undefined): [number, number, number, number] | undefined {
  const value = (text ?? '').trim().toLowerCase();
  if (!value) return undefined;
  if (value === 'transparent') return [0, 0, 0, 0];
  if (value === 'white') return [255, 255, 255, 1];
  if (value === 'black') return [0, 0, 0, 1];
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)).concat(1) as [number, number, number, number];
  }
  const match = /^rgba?\(([^)]*)\)$/.exec(value);
  if (!match) return undefined;
  const parts = (match[1] ?? '').split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 3) return undefined;
  const channel = (part: string, scale: number) => (part.endsWith('%') ? (Number.parseFloat(part) / 100) * scale : Number.parseFloat(part));
  const rgba = [channel(parts[0] as string, 255), channel(parts[1] as string, 255), channel(parts[2] as string, 255), parts[3] === undefined ? 1 : channel(parts[3], 1)];
  return rgba.every(Number.isFinite) ? (rgba as [number, number, number, number]) : undefined;
}

/** `top` drawn over the opaque `bottom`. */
function blend(top: readonly number[], bottom: readonly number[]): number[] {
  const alpha = top[3] ?? 1;
  return [0, 1, 2].map((i) => (top[i] ?? 0) * alpha + (bottom[i] ?? 0) * (1 - alpha));
}

/**
 * The opaque colour behind `element`'s text: its own and its ancestors' background colours laid
 * over each other, on a white canvas; undefined when a background image (or a colour it cannot
 * read) is in the way, since what is drawn there cannot be told.
 */
function backgroundBehind(element: Element): number[] | undefined {
  const layers: Array<[number, number, number, number]> = [];
  for (let node: Element | null = element; node; node = composedParent(node)) {
    const style = styleOf(node);
    if (!style) continue;
    // ('initial': happy-dom's value after the `background` shorthand.)
    if (style.backgroundImage && style.backgroundImage !== 'none' && style.backgroundImage !== 'initial') return undefined;
    const color = parseColor(style.backgroundColor || 'transparent');
    if (!color) return undefined;
    if (color[3] > 0) layers.push(color);
    if (color[3] >= 1) break;
  }
  let result: number[] = [255, 255, 255];
  for (let i = layers.length - 1; i >= 0; i -= 1) result = blend(layers[i] as number[], result);
  return result;
}

/**
 * Whether `style` clips its element away: `clip: rect()` with no area (absolutely positioned),
 * `clip-path: inset(50%)` and the like, or (given its box) a box at most 1px wide or high that
 * hides its overflow: the screen-reader-only pattern.
 */
function clipsAll(style: CSSStyleDeclaration, box: DOMRect | undefined): boolean {
  if ((style.position === 'absolute' || style.position === 'fixed') && style.clip && style.clip !== 'auto') {
    const numbers = (/rect\(([^)]*)\)/.exec(style.clip)?.[1] ?? '').split(/[\s,]+/).map((n) => Number.parseFloat(n));
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
  return style.overflowX === 'hidden' || style.overflowX === 'clip' || style.overflowY === 'hidden' || style.overflowY === 'clip' || style.overflow === 'hidden' || style.overflow === 'clip';
}

/** Whether no scrolling shows the rectangle: left of or above the page, past its scrollable end, or fixed outside the viewport. */
function unreachable(element: Element, rect: { left: number; top: number; right: number; bottom: number }, fixed: boolean): boolean {
  const view = element.ownerDocument.defaultView;
  if (!view) return false;
  if (fixed) return rect.right <= 0 || rect.bottom <= 0 || rect.left >= view.innerWidth || rect.top >= view.innerHeight;
  const scroller = element.ownerDocument.scrollingElement ?? element.ownerDocument.documentElement;
  const x = view.scrollX;
  const y = view.scrollY;
  return rect.right + x <= 0 || rect.bottom + y <= 0 || rect.left + x >= Math.max(scroller.scrollWidth, view.innerWidth) || rect.top + y >= Math.max(scroller.scrollHeight, view.innerHeight);
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
