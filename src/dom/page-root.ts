import { ValidationError } from '../errors.js';

/**
 * What an outline or a resolver works on: a document, an element, or a shadow root.
 *
 * @example
 * ```ts
 * const root: PageRoot = document.querySelector('main')!;
 * ```
 */
export type PageRoot = Document | Element | ShadowRoot;

/**
 * `root` checked, or the global `document` when it is not given (read now, never at import).
 * A host mistake (no DOM, a root that is not a node) is a `ValidationError` naming `caller`.
 *
 * @example
 * ```ts
 * pageRoot(undefined, 'outlinePage'); // document, in a browser
 * ```
 */
export function pageRoot(root: unknown, caller: string): PageRoot {
  if (root === undefined) {
    const document = (globalThis as { document?: Document }).document;
    if (!document) {
      throw new ValidationError('invalid_input', `${caller}: there is no document here; pass options.root (a Document, Element or ShadowRoot).`, {
        issues: [{ path: 'root', message: 'is required outside a browser' }],
      });
    }
    return document;
  }
  const type = (root as { nodeType?: unknown } | null)?.nodeType;
  if (type !== 1 && type !== 9 && type !== 11) {
    throw new ValidationError('invalid_input', `${caller}: options.root must be a Document, an Element or a ShadowRoot.`, {
      issues: [{ path: 'root', message: 'must be a Document, Element or ShadowRoot' }],
    });
  }
  return root as PageRoot;
}

/**
 * The document `root` belongs to.
 *
 * @example
 * ```ts
 * const shadowRoot = document.querySelector('product-card')!.shadowRoot!;
 * documentOf(shadowRoot) === document; // true
 * ```
 */
export function documentOf(root: PageRoot): Document {
  return root.nodeType === 9 ? (root as Document) : (root.ownerDocument as Document);
}
