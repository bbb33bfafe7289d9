import { identityKeys, refRegistryFor, type RefEntry, type RefRegistry } from './element-ref.js';
import { documentOf, pageRoot, type PageRoot } from './page-root.js';
import { isOffLimits, offLimitsSelector } from './host-ui.js';
import { collectPageElements, nameOf, type PageElement } from './page-elements.js';
import { duringReadPass } from './read-pass.js';
import { unseenReason } from './sighted.js';
import { hasLayout } from './visibility.js';

/** Why a target did not resolve: `refused` is a selector that tests what the model may not read. */
export type ResolveFailureReason = 'not-found' | 'hidden' | 'ambiguous' | 'invalid' | 'refused';

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
  /** Whether boxes have real sizes (checks size, clipping, reach). Default: detected. */
  layout?: boolean | undefined;
  /**
   * The host's own UI, off-limits like `[data-planloop-ignore]` (a CSS selector list, or several);
   * pass the same `exclude` as to `outlinePage`. Default: only `[data-planloop-ignore]`.
   */
  exclude?: string | readonly string[] | undefined;
  /**
   * Also take CSS selectors, not only the outline's refs. Default `false`: a model acts only on
   * what an outline showed it. Opting in accepts a safe subset: tags, `#id`, `.class`, `*`,
   * attribute presence (`[data-tour]`), descendant and child combinators, selector lists, and the
   * pseudo-classes `:first-child`, `:last-child`, `:only-child`, `:*-of-type`, `:nth-*(an+b)`,
   * `:checked`, `:disabled`, `:enabled`, `:focus`, `:hover`. Refused: any attribute value test
   * (`[value^="a"]`, `[type=password]`), `:has()`, `:not()`, `:is()`, `:where()` and every other
   * pseudo-class, sibling combinators (`+`, `~`), strings and escapes: they let a model ask
   * questions about values and hidden elements it was never shown.
   */
  selectors?: boolean | undefined;
}

/** `e12`, also written `[e12]`, `#e12` or `ref=e12` by models copying the outline loosely. */
const REF_PATTERN = /^(?:\[|#|ref\s*[:=]\s*)?(e\d+)\]?$/i;

/**
 * Turns a tool's target back into an element: a ref from {@link outlinePage} (`e12`), or, when the
 * host opts in with `selectors: true`, a CSS selector from a safe subset (the first match a
 * sighted user can see, open shadow roots included). A ref whose element was re-rendered is found
 * again by its id, test id, form name, role and name, or place, and keeps pointing at the new
 * element.
 *
 * It resolves only what a person can see now (not hidden, transparent, clipped away or out of
 * reach: see `unseenReason`; a visually hidden checkbox counts as seen through its visible
 * label), and never anything in the host's own UI (`[data-planloop-ignore]`, `exclude`). A
 * selector that matches only hidden or off-limits elements gets the same answer as one that
 * matches nothing, so a model cannot learn about what it was not shown by guessing.
 *
 * It never throws on what the model sent: a target that does not resolve is
 * `{ ok: false, reason, message }`, with a message to hand the model as the tool's observation.
 * Defaults: refs only, `exclude` none beyond `[data-planloop-ignore]`, layout detected.
 *
 * @example
 * ```ts
 * import { resolveTarget } from 'planloop/dom';
 *
 * const found = resolveTarget('e12', { root: document.querySelector('main')!, exclude: '#guide' });
 * if (found.ok) found.element.scrollIntoView();
 * else console.log(found.message); // e.g. 'ref e12 (button "Buy") is no longer on the page; …'
 * resolveTarget('#pricing', { selectors: true }); // opt-in: a selector from the safe subset
 * ```
 */
export function resolveTarget(target: unknown, options: ResolveTargetOptions = {}): ResolveTargetResult {
  // One read pass: the page does not change while a target is looked for, and the sight rule's hit-test sheet goes in once.
  return duringReadPass(() => resolveOnce(target, options));
}

function resolveOnce(target: unknown, options: ResolveTargetOptions): ResolveTargetResult {
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
  const context: Context = { root, registry, layout, exclude: options.exclude };
  if (entry) return byRef(entry, context);
  if (ref !== undefined) return fail('not-found', text, `${clip(text)} is not a ref the page outline gave; use one of the refs it lists, such as e3.`);
  if (!options.selectors) return fail('invalid', text, `"${clip(text)}" is not a ref from the page outline; use one of the refs it lists, such as e3.`);
  return bySelector(text, context);
}

interface Context {
  root: PageRoot;
  registry: RefRegistry;
  layout: boolean;
  exclude: string | readonly string[] | undefined;
}

/**
 * Whether a person can see `element` now, by the one sight rule (a visually hidden checkbox:
 * through its visible label). What covers it is judged by the tool that acts (`activate` scrolls
 * to it first and says what covers it; `fill` refuses a covered field).
 */
function seen(element: Element, layout: boolean): boolean {
  const reason = unseenReason(element, { layout });
  return reason === undefined || reason === 'covered';
}

function byRef(entry: RefEntry, context: Context): ResolveTargetResult {
  const { root, registry, layout, exclude } = context;
  const { ref } = entry;
  const what = describe(entry.role, entry.name);
  const bound = registry.element(ref);
  const present = bound && isInside(root, bound) && !isOffLimits(bound, exclude) ? bound : undefined;
  if (present && seen(present, layout)) return { ok: true, element: present, ref, via: 'ref' };
  // Gone (re-rendered or removed), or hidden (a view kept hidden while a new copy shows, a
  // collapsed menu with the same control elsewhere): look for a visible element with its identity.
  const candidates = collectPageElements(root, {
    includeHidden: true,
    layout,
    ...(exclude === undefined ? {} : { exclude: offLimitsSelector(exclude) }),
  }).filter((item) => item.element !== present);
  const keysOf = new Map<PageElement, string[]>();
  let ambiguous = 0;
  for (const key of entry.keys) {
    const matches = candidates.filter((item) => hasKey(item, key, keysOf));
    if (matches.length === 0) continue;
    const visible = matches.filter((item) => !item.hidden && seen(item.element, layout));
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

function bySelector(selector: string, context: Context): ResolveTargetResult {
  const refusal = selectorRefusal(selector);
  if (refusal) return fail('refused', selector, `"${clip(selector)}" ${refusal}; use a ref from the page outline, such as e3.`);
  let matches: Element[];
  try {
    matches = queryDeep(context.root, selector);
  } catch {
    return fail('invalid', selector, `"${clip(selector)}" is neither a ref from the page outline (such as e3) nor a valid CSS selector.`);
  }
  // Hidden, unseen and off-limits matches are answered as no match at all: no oracle.
  const element = matches.find((match) => !isOffLimits(match, context.exclude) && seen(match, context.layout));
  if (!element) return fail('not-found', selector, `Nothing visible on the page matches "${clip(selector)}"; use a ref from the page outline, such as e3.`);
  return { ok: true, element, ref: context.registry.refOf(element), via: 'selector' };
}

const SAFE_PSEUDO = new Set([
  'first-child',
  'last-child',
  'only-child',
  'first-of-type',
  'last-of-type',
  'only-of-type',
  'checked',
  'disabled',
  'enabled',
  'focus',
  'hover',
]);
const NTH_PSEUDO = new Set(['nth-child', 'nth-last-child', 'nth-of-type', 'nth-last-of-type']);
const NTH_ARGUMENT = /^\s*(odd|even|[+-]?\d*n(\s*[+-]\s*\d+)?|[+-]?\d+)\s*$/i;

/**
 * Why `selector` falls outside the safe subset (words that follow the quoted selector), or
 * `undefined` when it is inside it. The subset cannot test a value or look at an element's
 * siblings or descendants to decide whether it matches.
 */
function selectorRefusal(selector: string): string | undefined {
  for (let i = 0; i < selector.length; i += 1) {
    const c = selector[i] as string;
    if (c === '\\' || c === '"' || c === "'") return 'uses escapes or strings, which the safe selectors do not take';
    if (c === '+' || c === '~') return 'looks at sibling elements, which the safe selectors do not do';
    if (c === '[') {
      const end = selector.indexOf(']', i);
      const inside = end < 0 ? '' : selector.slice(i + 1, end);
      if (!/^\s*[A-Za-z_][\w-]*\s*$/.test(inside))
        return "tests an attribute's value; selectors may only ask whether an attribute is there, never what it holds";
      i = end;
      continue;
    }
    if (c === ':') {
      if (selector[i + 1] === ':') return 'names a pseudo-element, which is never a target';
      const name = /^[\w-]*/.exec(selector.slice(i + 1))?.[0]?.toLowerCase() ?? '';
      i += name.length;
      if (NTH_PSEUDO.has(name)) {
        if (selector[i + 1] !== '(') return `uses :${name} without its (an+b)`;
        const end = selector.indexOf(')', i);
        if (end < 0 || !NTH_ARGUMENT.test(selector.slice(i + 2, end))) return `uses :${name} with more than a number pattern (an+b)`;
        i = end;
        continue;
      }
      if (!SAFE_PSEUDO.has(name)) return `uses :${name}, which the safe selectors do not take (they cannot test values or what an element contains)`;
      continue;
    }
    if (c === '(' || c === ')' || c === '|' || c === '=' || c === '$' || c === '^' || c === '@' || c === '{' || c === '}' || c === ';')
      return 'is not a selector the safe subset takes';
  }
  return undefined;
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
  return fail(
    'hidden',
    ref,
    `ref ${ref} (${what}) is on the page but hidden now; open or scroll to what contains it, or choose another element from the outline above.`,
  );
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
