/*
 * The flat tree: the page as it renders, through open shadow roots and slots. The outline, the
 * names and the tools all walk it the same way.
 */

/**
 * Child nodes in rendering order, text included: an open shadow root's for a host, a slot's
 * assigned ones, else the node's own children (a live list: read it before changing the page).
 *
 * @example
 * ```ts
 * const card = document.querySelector('product-card')!;
 * for (const child of renderedNodes(card)) console.log(child.textContent); // a custom element's shadow content
 * ```
 */
export function renderedNodes(node: Node): ArrayLike<Node> & Iterable<Node> {
  // (The live lists themselves, not copies: names and text walk them for every element they read.)
  if (node.nodeType === 1) {
    const element = node as Element;
    if (element.shadowRoot) return element.shadowRoot.childNodes;
    if (element.localName === 'slot') {
      const assigned = (element as HTMLSlotElement).assignedNodes?.({ flatten: true }) ?? [];
      if (assigned.length > 0) return assigned;
    }
  }
  return node.childNodes;
}

/**
 * `element.closest(selector)` that goes on through shadow roots to their hosts; a selector the
 * browser cannot parse (a host's option) matches nothing.
 *
 * @example
 * ```ts
 * const buttonInShadow = document.querySelector('product-card')!.shadowRoot!.querySelector('button')!;
 * closestAcross(buttonInShadow, 'form'); // the form around the custom element
 * ```
 */
export function closestAcross(element: Element, selector: string): Element | null {
  for (let node: Element | null = element; node; ) {
    let found: Element | null = null;
    try {
      found = node.closest(selector);
    } catch {
      return null;
    }
    if (found) return found;
    const top = node.getRootNode();
    node = top.nodeType === 11 ? (top as ShadowRoot).host : null;
  }
  return null;
}

/**
 * The element `element` is drawn inside: its slot, its parent, or its shadow root's host.
 *
 * @example
 * ```ts
 * const host = document.querySelector('my-widget')!;
 * composedParent(host.shadowRoot!.firstElementChild!); // host
 * ```
 */
export function composedParent(element: Element): Element | null {
  const slot = element.assignedSlot;
  if (slot) return slot;
  if (element.parentElement) return element.parentElement;
  const parent = element.parentNode;
  return parent && parent.nodeType === 11 ? (parent as ShadowRoot).host : null;
}
