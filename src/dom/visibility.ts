import { passCached, passStyle } from './read-pass.js';

/*
 * What a person sees on the page. The outline walks the page top down and stops at a subtree
 * that hides everything inside it (display:none, `hidden`, aria-hidden="true", `inert`, a closed
 * <dialog> or <details>), then leaves out single elements that are invisible themselves
 * (visibility:hidden, or no size when the page has layout). It walks the flat tree: into open
 * shadow roots, and from a <slot> to what is assigned to it.
 */

/** Why an element is not visible. */
export type HiddenReason = 'display' | 'hidden' | 'aria-hidden' | 'inert' | 'closed' | 'unslotted' | 'visibility' | 'zero-size';

/** Elements that are never page content, with everything inside them. */
const NOT_CONTENT = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'base', 'iframe', 'object', 'datalist']);

/**
 * Whether the document has real layout. happy-dom and jsdom give every box zero size; there the
 * outline takes every box as visible and in the viewport, and still honours CSS and attributes.
 *
 * @example
 * ```ts
 * hasLayout(document); // true in a browser, false in happy-dom
 * ```
 */
export function hasLayout(document: Document): boolean {
  const box = document.documentElement?.getBoundingClientRect();
  return !!box && (box.width > 0 || box.height > 0);
}

/**
 * The computed style of `element`, or none when its window is gone (a detached document).
 *
 * @example
 * ```ts
 * const button = document.querySelector('button')!;
 * styleOf(button)?.display; // 'inline-block'
 * ```
 */
export function styleOf(element: Element): CSSStyleDeclaration | undefined {
  // Read once per outline (see read-pass.ts).
  return passStyle(element, () => element.ownerDocument.defaultView?.getComputedStyle(element));
}

/**
 * The border box of `element` in viewport coordinates (`getBoundingClientRect`), read once per
 * outline: the walk, the sight rule and the name's parts ask for the same boxes (see read-pass.ts).
 *
 * @example
 * ```ts
 * boxOf(document.body).width;
 * ```
 */
export function boxOf(element: Element): DOMRect {
  return passCached('box', element, () => element.getBoundingClientRect());
}

/**
 * Why `element` hides itself and all of its content, if it does (`style`: its computed style, or
 * `undefined` to look at its tag and attributes only).
 *
 * @example
 * ```ts
 * subtreeHiddenBy(document.querySelector('[aria-hidden=true]')!, undefined); // 'aria-hidden'
 * ```
 */
export function subtreeHiddenBy(element: Element, style: CSSStyleDeclaration | undefined): HiddenReason | undefined {
  if (NOT_CONTENT.has(element.localName)) return 'display';
  // Most elements have no attributes: skip the lookups for them (the outline's walk calls this for every element).
  if (element.hasAttributes()) {
    if (element.hasAttribute('hidden')) return 'hidden';
    if (element.getAttribute('aria-hidden') === 'true') return 'aria-hidden';
    if (element.hasAttribute('inert')) return 'inert';
  }
  if (style?.display === 'none') return 'display';
  // A closed <dialog> is display:none in browsers; say so for DOMs without the user-agent sheet.
  if (element.localName === 'dialog' && !element.hasAttribute('open')) return 'closed';
  return undefined;
}

/**
 * Why an element is invisible itself while its content may show (visibility:hidden can be undone
 * by a child; a zero-size box can have overflowing children), if it is. `box` is its border box,
 * or `undefined` without layout.
 *
 * @example
 * ```ts
 * const button = document.querySelector('button')!;
 * selfHiddenBy(styleOf(button), button.getBoundingClientRect()); // 'zero-size' for a 0×0 button
 * ```
 */
export function selfHiddenBy(style: CSSStyleDeclaration | undefined, box: DOMRect | undefined): HiddenReason | undefined {
  const visibility = style?.visibility;
  if (visibility === 'hidden' || visibility === 'collapse') return 'visibility';
  // display:contents has no box of its own, but its children do: it is not hidden.
  if (box && (box.width === 0 || box.height === 0) && style?.display !== 'contents') return 'zero-size';
  return undefined;
}

/**
 * The children the browser renders for `node`, in order: an open shadow root's children for its
 * host, what is assigned to a <slot> (else the slot's fallback content), only the <summary> of a
 * closed <details>, else the node's own children. Children of a host with a closed shadow root
 * are walked as they are: it cannot be opened. (content-visibility:hidden content has no boxes:
 * where there is layout, the zero-size check leaves it out.)
 *
 * @example
 * ```ts
 * const cardWithShadowRoot = document.querySelector('product-card')!;
 * renderedChildren(cardWithShadowRoot); // the shadow root's children, not the light DOM's
 * ```
 */
export function renderedChildren(node: ParentNode): ArrayLike<Element> {
  if (node.nodeType === 1) {
    const element = node as Element;
    if (element.shadowRoot) return element.shadowRoot.children;
    if (element.localName === 'slot') {
      const assigned = (element as HTMLSlotElement).assignedElements?.({ flatten: true }) ?? [];
      if (assigned.length > 0) return assigned;
    } else if (element.localName === 'details' && !element.hasAttribute('open')) {
      const summary = element.firstElementChild;
      return summary?.localName === 'summary' ? [summary] : [];
    }
  }
  return node.children;
}

/**
 * The element `element` is rendered inside: the <slot> it is assigned to, its parent, or the host
 * of the shadow root it sits in; `null` at the top.
 *
 * For a span slotted into a custom element it is the `<slot>` the span is shown in.
 */
function renderedParent(element: Element): Element | null {
  const slot = assignedSlotOf(element);
  if (slot) return slot;
  if (element.parentElement) return element.parentElement;
  const parent = element.parentNode;
  return parent && parent.nodeType === 11 ? ((parent as ShadowRoot).host ?? null) : null;
}

/** The <slot> `element` is assigned to, if any. */
function assignedSlotOf(element: Element): HTMLSlotElement | null {
  if (element.assignedSlot !== undefined) return element.assignedSlot;
  // happy-dom has no Element.assignedSlot: find the slot of the same name in the parent's shadow root.
  const root = element.parentElement?.shadowRoot;
  if (!root) return null;
  const name = element.getAttribute('slot') ?? '';
  return Array.from(root.querySelectorAll('slot')).find((slot) => (slot.getAttribute('name') ?? '') === name) ?? null;
}

/**
 * Why `element` is not visible, looking at it and everything it is rendered inside; `undefined`
 * when it is visible. Without layout (happy-dom, jsdom) sizes are not checked.
 *
 * @example
 * ```ts
 * hiddenReason(document.querySelector('dialog:not([open]) button')!); // 'closed'
 * ```
 */
export function hiddenReason(element: Element, options: { layout?: boolean } = {}): HiddenReason | undefined {
  if (!element.isConnected) return 'display';
  const layout = options.layout ?? hasLayout(element.ownerDocument);
  // During an outline the same element is asked about more than once (a label, a heading named twice).
  return passCached(layout ? 'hidden:layout' : 'hidden:no-layout', element, (): HiddenReason | undefined => {
    const own = styleOf(element);
    const self = subtreeHiddenBy(element, own) ?? selfHiddenBy(own, layout ? boxOf(element) : undefined);
    return self ?? hiddenAbove(element);
  });
}

/**
 * Why what `child` is rendered inside hides it, nearest first; kept per element during an outline,
 * so that each ancestor is looked at once however many elements below it ask.
 */
function hiddenAbove(child: Element): HiddenReason | undefined {
  return passCached('hidden-above', child, (): HiddenReason | undefined => {
    const parent = renderedParent(child);
    if (!parent) return undefined;
    // A light-DOM child of a shadow host that no slot takes is not rendered at all.
    if (parent.shadowRoot && child.parentElement === parent) return 'unslotted';
    if (parent.localName === 'details' && !parent.hasAttribute('open') && !(child === parent.firstElementChild && child.localName === 'summary'))
      return 'closed';
    return subtreeHiddenBy(parent, styleOf(parent)) ?? hiddenAbove(parent);
  });
}

/**
 * Whether a person can see `element`: it is connected, and neither it nor anything it is rendered
 * inside is display:none, `hidden`, aria-hidden="true", `inert`, a closed <dialog> or <details>,
 * or an unslotted child of a shadow host; it is not visibility:hidden; and, where the page has
 * layout, its box has a size.
 *
 * @example
 * ```ts
 * import { isElementVisible } from 'planloop/dom';
 * isElementVisible(document.querySelector('#pricing')!); // false while the section is display:none
 * ```
 */
export function isElementVisible(element: Element, options: { layout?: boolean } = {}): boolean {
  return hiddenReason(element, options) === undefined;
}
