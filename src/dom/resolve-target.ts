import { identityKeys, refRegistryFor, type RefEntry, type RefRegistry } from './element-ref.js';
import { documentOf, pageRoot, type PageRoot } from './page-root.js';
import { collectPageElements, nameOf, type PageElement } from './page-elements.js';
import { hasLayout, hiddenReason } from './visibility.js';

/** Why a target did not resolve. */
export type ResolveFailureReason = 'not-found' | 'hidden' | 'ambiguous' | 'invalid';

/** The element a target names, or why there is none, in words a model can act on. */
export type ResolveTargetResult =
  | {
      ok: true;
      element: Element;
      /** The element's ref, when an outline gave it one. */
      ref: string | undefined;
      /** `ref`: the ref's element; `relocated`: the ref's element was re-rendered and found again by its identity; `selector`: a CSS selector. */
      via: 'ref' | 'relocated' | 'selector';
    }
  | {
      ok: false;
      reason: ResolveFailureReason;
      /** One or two sentences for the model: what went wrong and what to do instead. */
      message: string;
      /** The target as given. */
      target: string;
    };

/** Options of {@link resolveTarget}. */
export interface ResolveTargetOptions {
  /** Where the element must be (a tool that acts on the site only passes the site's container). Default: `document`, when called. */
  root?: PageRoot | undefined;
  /** Where refs live. Default: the root's document's registry, the one `outlinePage` fills. */
  registry?: RefRegistry | undefined;
  /** Whether boxes have real sizes (a zero-size element is hidden). Default: detected. */
  layout?: boolean | undefined;
}

/** `e12`, also written `[e12]`, `#e12` or `ref=e12` by models copying the outline loosely. */
const REF_PATTERN = /^(?:\[|#|ref\s*[:=]\s*)?(e\d+)\]?$/i;

/**
 * Turns a tool's target back into an element: a ref from {@link outlinePage} (`e12`), or a CSS
 * selector (as tools took before outlines; the first visible match, open shadow roots included).
 * A ref whose element was re-rendered is found again by its id, test id, form name, role and name,
 * or place, and keeps pointing at the new element. It never throws on what the model sent: a
 * target that does not resolve is `{ ok: false, reason, message }`, with a message to hand the
 * model as the tool's observation.
 *
 * @example
 * ```ts
 * import { resolveTarget } from 'planloop/dom';
 *
 * const tools = {
 *   click: ({ target }) => {
 *     const found = resolveTarget(target, { root: document.querySelector('main')! });
 *     if (!found.ok) throw new Error(found.message); // e.g. 'ref e12 (button "Buy") is no longer on the page; …'
 *     (found.element as HTMLElement).click();
 *     return { clicked: found.ref ?? target };
 *   },
 * };
 * ```
 */
export function resolveTarget(target: unknown, options: ResolveTargetOptions = {}): ResolveTargetResult {
  const root = pageRoot(options.root, 'resolveTarget');
  const text = typeof target === 'string' ? target.trim() : '';
  if (!text) {
    return fail('invalid', target, `The target ${typeof target === 'string' ? 'is empty' : 'must be a string'}: give a ref from the page outline, such as e3.`);
  }
  const document = documentOf(root);
  const registry = options.registry ?? refRegistryFor(document);
  const layout = options.layout ?? hasLayout(document);
  const ref = REF_PATTERN.exec(text)?.[1]?.toLowerCase();
  const entry = ref ? registry.entry(ref) : undefined;
  if (entry) return byRef(entry, root, registry, layout);
  return bySelector(text, root, registry, layout, ref !== undefined);
}

function byRef(entry: RefEntry, root: PageRoot, registry: RefRegistry, layout: boolean): ResolveTargetResult {
  const { ref } = entry;
  const what = describe(entry.role, entry.name);
  const bound = registry.element(ref);
  const present = bound && isInside(root, bound) ? bound : undefined;
  if (present && !hiddenReason(present, { layout })) return { ok: true, element: present, ref, via: 'ref' };
  // Gone (re-rendered or removed), or hidden (a view kept hidden while a new copy shows, a
  // collapsed menu with the same control elsewhere): look for a visible element with its identity.
  const candidates = collectPageElements(root, { includeHidden: true, layout }).filter((item) => item.element !== present);
  const keysOf = new Map<PageElement, string[]>();
  let ambiguous = 0;
  for (const key of entry.keys) {
    const matches = candidates.filter((item) => hasKey(item, key, keysOf));
    if (matches.length === 0) continue;
    const visible = matches.filter((item) => !item.hidden);
    if (visible.length === 0) return hidden(ref, what);
    if (visible.length === 1) {
      const found = visible[0] as PageElement;
      const identity = { role: found.role, name: nameOf(found) };
      registry.bind(ref, found.element, [...new Set([...(keysOf.get(found) ?? identityKeys(found.element, identity)), ...entry.keys])], identity);
      return { ok: true, element: found.element, ref, via: 'relocated' };
    }
    ambiguous = Math.max(ambiguous, visible.length);
  }
  if (present) return hidden(ref, what);
  if (ambiguous > 0) {
    return fail('ambiguous', ref, `ref ${ref} (${what}) was re-rendered and now matches ${ambiguous} elements; pick one of their refs from the outline above.`);
  }
  return fail('not-found', ref, `ref ${ref} (${what}) is no longer on the page; the outline above lists what is there now.`);
}

function hasKey(item: PageElement, key: string, keysOf: Map<PageElement, string[]>): boolean {
  if (key.startsWith('#')) return item.element.id === key.slice(1);
  // Role keys and place keys name the role: skip other roles without computing their place.
  if ((key.startsWith('role:') || key.startsWith('path:')) && !key.startsWith(`${key.slice(0, 4)}:${item.role}:`)) return false;
  let keys = keysOf.get(item);
  if (!keys) keysOf.set(item, (keys = identityKeys(item.element, { role: item.role, name: nameOf(item) })));
  return keys.includes(key);
}

function bySelector(selector: string, root: PageRoot, registry: RefRegistry, layout: boolean, looksLikeRef: boolean): ResolveTargetResult {
  let matches: Element[];
  try {
    matches = queryDeep(root, selector);
  } catch {
    return fail('invalid', selector, `"${clip(selector)}" is neither a ref from the page outline (such as e3) nor a valid CSS selector.`);
  }
  if (matches.length === 0) {
    return fail(
      'not-found',
      selector,
      looksLikeRef
        ? `${clip(selector)} is not a ref the page outline gave; use one of the refs it lists, such as e3.`
        : `Nothing on the page matches "${clip(selector)}"; use a ref from the page outline, such as e3.`,
    );
  }
  const element = matches.find((match) => !hiddenReason(match, { layout }));
  if (!element) {
    return fail('hidden', selector, `"${clip(selector)}" matches only hidden elements; open or scroll to what contains them, or choose an element from the page outline.`);
  }
  return { ok: true, element, ref: registry.refOf(element), via: 'selector' };
}

/** `querySelectorAll` over `root` and every open shadow root inside it; `root` itself included. */
function queryDeep(root: PageRoot, selector: string): Element[] {
  const found: Element[] = [];
  if (root.nodeType === 1 && (root as Element).matches(selector)) found.push(root as Element);
  const search = (scope: PageRoot): void => {
    found.push(...Array.from(scope.querySelectorAll(selector)));
    const hosts = scope.nodeType === 1 ? [scope as Element, ...Array.from(scope.querySelectorAll('*'))] : Array.from(scope.querySelectorAll('*'));
    for (const host of hosts) if (host.shadowRoot) search(host.shadowRoot);
  };
  search(root);
  return found;
}

/** Whether `element` is `root` or inside it, across shadow roots. */
function isInside(root: PageRoot, element: Element): boolean {
  for (let node: Node | null = element; node; ) {
    if (node === root) return true;
    node = node.parentNode ?? (node.nodeType === 11 ? (node as ShadowRoot).host : null);
  }
  return false;
}

function hidden(ref: string, what: string): ResolveTargetResult {
  return fail('hidden', ref, `ref ${ref} (${what}) is on the page but hidden now; open or scroll to what contains it, or choose another element from the outline above.`);
}

function describe(role: string, name: string): string {
  return name ? `${role} "${clip(name)}"` : role;
}

function fail(reason: ResolveFailureReason, target: unknown, message: string): ResolveTargetResult {
  return { ok: false, reason, message, target: typeof target === 'string' ? target : String(target ?? '') };
}

function clip(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
