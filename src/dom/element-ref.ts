/*
 * Element references: the short ids (`e1`, `e2`, …) an outline gives the elements it lists, which
 * the model sends back as a tool's target. A registry per document remembers, for each ref, the
 * element (weakly: a removed element can be collected) and its identity keys, strongest first:
 * its id, data-testid, form name, role + accessible name, and its position under the nearest
 * ancestor with an id. An element that a framework re-renders (a new node that has one of those
 * keys) gets its old ref back, and a ref whose element is gone can be found again by those keys.
 */

/** What the registry keeps about one ref. */
export interface RefEntry {
  readonly ref: string;
  /** Identity keys, strongest first (`#id`, `testid:…`, `name:…`, `role:…`, `path:…`). */
  readonly keys: readonly string[];
  /** The role and accessible name the element had, for messages. */
  readonly role: string;
  readonly name: string;
}

/** The role and name an element has, which its identity keys include. */
export interface RefIdentity {
  role: string;
  name: string;
}

/** Refs kept at most; beyond that, refs whose element is gone are forgotten, oldest first. */
const MAX_ENTRIES = 5_000;

/**
 * Where refs live: elements to refs and back, by identity keys. One per document by default (see
 * {@link refRegistryFor}); create your own to keep two outlines' refs apart.
 *
 * @example
 * ```ts
 * import { createRefRegistry, outlinePage } from 'planloop/dom';
 * const registry = createRefRegistry();
 * outlinePage({ root: document.querySelector('main')!, registry });
 * ```
 */
export class RefRegistry {
  #next = 1;
  readonly #byElement = new WeakMap<Element, string>();
  readonly #entries = new Map<string, RefEntry & { element: WeakRef<Element> }>();
  readonly #byKey = new Map<string, string>();

  /** The ref `element` already has, if any. */
  refOf(element: Element): string | undefined {
    const ref = this.#byElement.get(element);
    return ref && this.#entries.get(ref)?.element.deref() === element ? ref : undefined;
  }

  /**
   * The ref of `element`, given one if it has none: the ref of a gone element that shared one of
   * its identity keys (a re-render), else a new one.
   */
  assign(element: Element, identity: RefIdentity): string {
    const known = this.refOf(element);
    if (known) return known;
    const keys = identityKeys(element, identity);
    let ref = keys.map((key) => this.#byKey.get(key)).find((candidate) => candidate !== undefined && !this.#live(candidate));
    ref ??= `e${this.#next++}`;
    this.bind(ref, element, keys, identity);
    return ref;
  }

  /** The number the next new ref gets (`e<n>`). */
  nextNumber(): number {
    return this.#next;
  }

  /** What the registry knows about `ref` (its element may be gone). */
  entry(ref: string): RefEntry | undefined {
    const entry = this.#entries.get(ref);
    return entry && { ref, keys: entry.keys, role: entry.role, name: entry.name };
  }

  /** The element `ref` points to, while it is in the document. */
  element(ref: string): Element | undefined {
    const element = this.#entries.get(ref)?.element.deref();
    return element?.isConnected ? element : undefined;
  }

  /** Points `ref` at `element` (found again after a re-render), keeping its identity keys. */
  bind(ref: string, element: Element, keys: readonly string[] = this.#entries.get(ref)?.keys ?? [], identity?: RefIdentity): void {
    const old = this.#entries.get(ref);
    this.#entries.delete(ref);
    this.#entries.set(ref, { ref, element: new WeakRef(element), keys, role: identity?.role ?? old?.role ?? '', name: identity?.name ?? old?.name ?? '' });
    this.#byElement.set(element, ref);
    for (const key of keys) {
      const holder = this.#byKey.get(key);
      if (holder === undefined || holder === ref || !this.#live(holder)) this.#byKey.set(key, ref);
    }
    if (this.#entries.size > MAX_ENTRIES) this.#forgetGone();
  }

  #live(ref: string): boolean {
    return this.element(ref) !== undefined;
  }

  #forgetGone(): void {
    for (const [ref, entry] of this.#entries) {
      if (this.#entries.size <= MAX_ENTRIES * 0.8) break;
      if (entry.element.deref()?.isConnected) continue;
      this.#entries.delete(ref);
      for (const key of entry.keys) if (this.#byKey.get(key) === ref) this.#byKey.delete(key);
    }
  }
}

/**
 * A new, empty ref registry.
 *
 * @example
 * ```ts
 * const registry = createRefRegistry();
 * const outline = outlinePage({ registry });
 * resolveTarget('e1', { registry });
 * ```
 */
export function createRefRegistry(): RefRegistry {
  return new RefRegistry();
}

const perDocument = new WeakMap<Document, RefRegistry>();

/**
 * The registry `outlinePage` and `resolveTarget` use by default: one per document, so an outline
 * and the tools that resolve its refs agree without passing anything around.
 *
 * @example
 * ```ts
 * declare const button: HTMLButtonElement;
 * refRegistryFor(document).refOf(button); // 'e4' once an outline listed it
 * ```
 */
export function refRegistryFor(document: Document): RefRegistry {
  let registry = perDocument.get(document);
  if (!registry) perDocument.set(document, (registry = new RefRegistry()));
  return registry;
}

/**
 * The ref an outline gave `element`, if any (in its document's registry unless `registry` is given).
 *
 * @example
 * ```ts
 * import { refOf } from 'planloop/dom';
 * declare const form: HTMLFormElement;
 * console.log(`Here is the form (${refOf(form) ?? 'not listed'})`);
 * ```
 */
export function refOf(element: Element, registry: RefRegistry = refRegistryFor(element.ownerDocument)): string | undefined {
  return registry.refOf(element);
}

/**
 * The identity keys of `element`, strongest first. An unnamed element is known by the text of its
 * first heading, if it has one, so that two unnamed sections in the same place on two pages (or
 * before and after a route change) are not taken for one another. The place key includes that
 * name: a place alone says little once the page has changed.
 *
 * @example
 * ```ts
 * const buyButton = document.querySelector('#buy')!;
 * identityKeys(buyButton, { role: 'button', name: 'Buy' });
 * // ['#buy', 'role:button:Buy', 'path:button:Buy:#pricing/div1/button0']
 * ```
 */
export function identityKeys(element: Element, identity: RefIdentity): string[] {
  const keys: string[] = [];
  if (element.id) keys.push(`#${element.id}`);
  const testId = element.getAttribute('data-testid');
  if (testId) keys.push(`testid:${testId}`);
  const name = element.getAttribute('name');
  if (name && (element.localName === 'input' || element.localName === 'select' || element.localName === 'textarea' || element.localName === 'button')) {
    // Radios and checkboxes of one group share a name: their value tells them apart.
    const type = element.getAttribute('type');
    keys.push(`name:${element.localName}:${name}${type === 'radio' || type === 'checkbox' ? `=${element.getAttribute('value') ?? ''}` : ''}`);
  }
  const label = identity.name || headingInside(element);
  if (label) keys.push(`role:${identity.role}:${label}`);
  keys.push(`path:${identity.role}:${label}:${elementPath(element)}`);
  return keys;
}

function headingInside(element: Element): string {
  const heading = element.querySelector('h1, h2, h3, h4, h5, h6, [role=heading]');
  return heading?.textContent?.replace(/\s+/g, ' ').trim().slice(0, 80) ?? '';
}

/**
 * Where `element` sits: child positions from the nearest ancestor with an id (or the document, or
 * a shadow root's host), e.g. `#view/2/1`. Its own id is not part of it, so a renamed id keeps it.
 */
function elementPath(element: Element): string {
  const steps: string[] = [];
  let node: Element = element;
  for (;;) {
    const parent = node.parentNode;
    if (!parent) break;
    let index = 0;
    for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) index += 1;
    steps.push(`${node.localName}${index}`);
    if (parent.nodeType === 11) {
      node = (parent as ShadowRoot).host;
      steps.push('^');
      if (node.id) break;
      continue;
    }
    if (parent.nodeType !== 1) break;
    node = parent as Element;
    if (node.id) break;
  }
  const anchor = node !== element && node.id ? `#${node.id}` : '';
  return `${anchor}/${steps.reverse().join('/')}`;
}
