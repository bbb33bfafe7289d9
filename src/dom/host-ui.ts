/*
 * The host's own UI (its guide, its plan panel, its chat) is never part of the page the model
 * reads or acts on. One mechanism keeps it out of both the outline and target resolution: the
 * `data-planloop-ignore` attribute on a container, and an `exclude` selector list a host passes
 * to `outlinePage`, `resolveTarget`, `activate` and `fill` alike.
 */

/**
 * The attribute a host puts on its own UI (a container and everything in it) so that no outline
 * lists it and no tool resolves a target inside it.
 *
 * @example
 * ```html
 * <aside id="guide" data-planloop-ignore>…the agent's chat and plan panel…</aside>
 * ```
 */
export const IGNORE_ATTRIBUTE = 'data-planloop-ignore';

/**
 * The selector of everything off-limits: `[data-planloop-ignore]` and the host's `exclude`
 * selector list (a string, or strings joined as a list).
 *
 * @example
 * ```ts
 * offLimitsSelector('#guide, .toast'); // '[data-planloop-ignore], #guide, .toast'
 * ```
 */
export function offLimitsSelector(exclude: string | readonly string[] | undefined): string {
  const extra = (typeof exclude === 'string' ? [exclude] : (exclude ?? [])).map((part) => part.trim()).filter(Boolean);
  return [`[${IGNORE_ATTRIBUTE}]`, ...extra].join(', ');
}

/**
 * Whether `element` is inside (or is) the host's own UI: a `[data-planloop-ignore]` container or
 * an element matching `exclude`, across shadow roots. An `exclude` that is not a valid selector
 * counts as matching nothing (outlinePage has always treated it so).
 *
 * @example
 * ```ts
 * isOffLimits(document.querySelector('#guide button')!, '#guide'); // true
 * ```
 */
export function isOffLimits(element: Element, exclude?: string | readonly string[]): boolean {
  const selector = offLimitsSelector(exclude);
  for (let node: Element | null = element; node; ) {
    let found: Element | null;
    try {
      found = node.closest(selector);
    } catch {
      found = node.closest(`[${IGNORE_ATTRIBUTE}]`);
    }
    if (found) return true;
    const top = node.getRootNode();
    node = top.nodeType === 11 ? (top as ShadowRoot).host : null;
  }
  return false;
}
