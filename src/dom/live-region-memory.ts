/*
 * What each live region (alert, status, log, aria-live) said when an outline last showed it, so
 * the next outline can mark the ones whose text changed: what a screen reader would announce.
 */

const said = new WeakMap<Element, string>();

/**
 * Whether a live region's text is new since an outline last showed it (its first showing is new
 * too, unless it is empty), and remembers it.
 *
 * @example
 * ```ts
 * const alert = document.querySelector('[role=alert]')!;
 * liveRegionChanged(alert, 'Card declined'); // true, then false until the text changes
 * ```
 */
export function liveRegionChanged(element: Element, text: string): boolean {
  const before = said.get(element);
  said.set(element, text);
  return text !== '' && text !== before;
}
