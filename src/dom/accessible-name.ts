import { NAME_FROM_CONTENT } from './element-role.js';
import { textUnseenBy, unseenReason } from './sighted.js';
import { styleOf } from './visibility.js';

/*
 * The accessible name: what a screen reader would announce for an element, which is also the
 * best short description for a model. A simplified accname 1.2: aria-labelledby, aria-label, the
 * element's own labelling (label, legend, caption, alt, value), its content for roles named by
 * content, then title and placeholder. Names are whitespace-collapsed and at most
 * 160 characters.
 */

/** Longest name kept; the outline clips further when it renders. */
const MAX_NAME_LENGTH = 160;
/**
 * Longest text a name takes from what a sighted user cannot see (aria-label, a visually hidden or
 * display:none label, title, alt): enough for a label ("Close menu", "Search products"), too
 * little for a paragraph of instructions. Issue 20 item 7: such text is an injection channel.
 */
const MAX_UNSEEN_LENGTH = 40;

/** Never part of a name: form controls (a label's own input) and non-content elements. */
const SKIPPED = new Set(['input', 'select', 'textarea', 'script', 'style', 'template', 'noscript']);
const BUTTON_INPUT_DEFAULTS: Record<string, string> = { submit: 'Submit', reset: 'Reset', image: 'Submit' };

/**
 * The accessible name of `element` given its `role`; `''` when it has none.
 *
 * @example
 * ```ts
 * // <label for="email">Work email</label><input id="email">
 * accessibleName(document.querySelector('#email')!, 'textbox'); // 'Work email'
 * ```
 */
export function accessibleName(element: Element, role: string | undefined): string {
  return clean(rawName(element, role));
}

/*
 * What a sighted user cannot see (issue 20 item 7). A heading is named only by the text a person
 * sees in it: aria-label, aria-labelledby and visually hidden, transparent, same-coloured or tiny
 * text inside it never are. Other elements keep the accessible name screen readers use (it matters
 * to them), but each part that a person cannot see (aria-label, a hidden or visually hidden
 * label, title, alt, a control's visually hidden content when it shows no text) is cut to 40
 * characters, and a control's visible content wins over its visually hidden content.
 */
function rawName(element: Element, role: string | undefined): string {
  if (role === 'heading') return contentText(element, true);
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) {
    const root = element.getRootNode() as Document | ShadowRoot;
    const text = labelledBy
      .split(/\s+/)
      .map((id) => (id && typeof root.getElementById === 'function' ? root.getElementById(id) : null))
      .map((label) => (label ? (label === element ? short(element.getAttribute('aria-label') ?? '') : labelText(label)) : ''))
      .join(' ');
    if (text.trim()) return text;
  }
  const label = element.getAttribute('aria-label');
  if (label?.trim()) return short(label);
  const own = nativeName(element);
  if (own.trim()) return own;
  if (role && NAME_FROM_CONTENT.has(role)) {
    const text = contentText(element, true);
    if (text.trim()) return text;
    const unseen = contentText(element, false);
    if (unseen.trim()) return short(unseen);
  }
  const title = element.getAttribute('title');
  if (title?.trim()) return short(title);
  return element.getAttribute('placeholder') ?? '';
}

/** A label's text: what a person sees of it, else (a visually hidden or display:none label) at most 40 characters. */
function labelText(label: Element): string {
  if (!unseenReason(label, { layout: false })) {
    const seen = contentText(label, true);
    if (seen.trim()) return seen;
  }
  return short(contentText(label, false));
}

/** Text no one sees, cut to a label's length. */
function short(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_UNSEEN_LENGTH ? `${collapsed.slice(0, MAX_UNSEEN_LENGTH - 1)}…` : collapsed;
}

/** The name an element gets from its own HTML: labels, legend, caption, figcaption, alt, a button's value. */
function nativeName(element: Element): string {
  const tag = element.localName;
  if (tag === 'input') {
    const input = element as HTMLInputElement;
    const type = (element.getAttribute('type') ?? 'text').toLowerCase();
    if (type === 'button' || type === 'submit' || type === 'reset') return element.getAttribute('value') ?? BUTTON_INPUT_DEFAULTS[type] ?? '';
    if (type === 'image') return short(element.getAttribute('alt') ?? element.getAttribute('value') ?? 'Submit');
    return labelsText(input.labels);
  }
  if (tag === 'select' || tag === 'textarea') return labelsText((element as HTMLSelectElement).labels);
  if (tag === 'img' || tag === 'area') return short(element.getAttribute('alt') ?? '');
  const captionTag = tag === 'fieldset' ? 'legend' : tag === 'table' ? 'caption' : tag === 'figure' ? 'figcaption' : '';
  if (captionTag) {
    for (const child of Array.from(element.children)) if (child.localName === captionTag) return labelText(child);
  }
  return '';
}

function labelsText(labels: NodeListOf<HTMLLabelElement> | null | undefined): string {
  return labels ? Array.from(labels, labelText).join(' ') : '';
}

/**
 * The text inside `element`, as a name: text nodes, `alt` of images, `aria-label` of labelled
 * children (cut to 40 characters); skipping display:none children (`sighted`: also children a
 * sighted user cannot see, see `textUnseenBy`) and form controls (a label's own input), and
 * stopping once it has enough for a name. Walks the flat tree (shadow roots, slots).
 */
function contentText(element: Element, sighted: boolean): string {
  let text = '';
  const visit = (node: Node): void => {
    for (const child of renderedNodes(node)) {
      if (text.length > MAX_NAME_LENGTH) return;
      if (child.nodeType === 3) text += child.nodeValue ?? '';
      if (child.nodeType !== 1) continue;
      const el = child as Element;
      const tag = el.localName;
      if (SKIPPED.has(tag) || el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') continue;
      const style = styleOf(el);
      if (style?.display === 'none' || (sighted && textUnseenBy(el, style, true))) continue;
      const label = el.getAttribute('aria-label');
      if (label?.trim()) text += ` ${short(label)} `;
      else if (tag === 'img') text += ` ${short(el.getAttribute('alt') ?? '')} `;
      else if (tag === 'svg') text += ` ${el.querySelector('title')?.textContent ?? ''} `;
      else {
        text += ' ';
        visit(el);
        text += ' ';
      }
    }
  };
  visit(element);
  return text;
}

/** Child nodes in rendering order, text included: an open shadow root's for a host, a slot's assigned ones. */
function renderedNodes(node: Node): readonly Node[] {
  if (node.nodeType === 1) {
    const element = node as Element;
    if (element.shadowRoot) return Array.from(element.shadowRoot.childNodes);
    if (element.localName === 'slot') {
      const assigned = (element as HTMLSlotElement).assignedNodes?.({ flatten: true }) ?? [];
      if (assigned.length > 0) return assigned;
    }
  }
  return Array.from(node.childNodes);
}

/** Collapses whitespace and clips to 160 characters. */
function clean(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_NAME_LENGTH ? collapsed.slice(0, MAX_NAME_LENGTH) : collapsed;
}
