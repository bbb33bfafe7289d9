import { firstWords, readableText } from './readable-text.js';
import { isSeen } from './sighted.js';
import { looksSecret } from '../secret-text.js';

/*
 * What a page tells a person about a field besides its name: its description (aria-describedby,
 * aria-description, else a short hint right after it, such as "At least 8 characters") and,
 * when it is invalid, its error message (aria-errormessage, else its description). Only what a
 * sighted user can see is read (the sight rule, `isSeen`, then part by part): a hint or an error
 * the page hides, visually hides, fades out or puts off-screen is not shown to the model either.
 */

/** A field's help text and validity. */
export interface FieldHelp {
  /** The description, at most 100 characters. */
  description?: string;
  /** The field is invalid (aria-invalid, or the browser's :user-invalid after the person edited it). */
  invalid?: true;
  /** The error message of an invalid field, at most 100 characters. */
  error?: string;
}

const MAX_HELP = 100;
/** A hint next to a field is short: longer text is content, not help. */
const MAX_HINT = 160;
/**
 * Roles of the fields a person fills in (not buttons or links): they have hints and errors, keep
 * their labels whole in a short outline, and come first in a visible form.
 *
 * @example
 * ```ts
 * FIELD_ROLES.has('combobox'); // true
 * ```
 */
export const FIELD_ROLES: ReadonlySet<string> = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton']);
/** Elements that cannot be a field's hint: they are content or controls of their own. */
const NOT_HINT = new Set([
  'input',
  'select',
  'textarea',
  'button',
  'a',
  'label',
  'fieldset',
  'form',
  'table',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'img',
  'svg',
  'iframe',
  'br',
  'hr',
  'script',
  'style',
  'template',
]);

/**
 * The help text and validity of a field (`role`: its role); `{}` for elements that are not fields.
 *
 * @example
 * ```ts
 * // <input id="pw" aria-describedby="pw-hint"><p id="pw-hint">At least 8 characters</p>
 * fieldHelp(document.querySelector('#pw')!, 'textbox'); // { description: 'At least 8 characters' }
 * ```
 */
export function fieldHelp(element: Element, role: string): FieldHelp {
  if (!FIELD_ROLES.has(role)) return {};
  const help: FieldHelp = {};
  const invalid = isInvalid(element);
  const error = invalid ? referencedText(element, 'aria-errormessage') : '';
  let description = referencedText(element, 'aria-describedby') || clip(element.getAttribute('aria-description') ?? '');
  if (!description) description = adjacentHint(element);
  if (invalid) help.invalid = true;
  // Help text is page text a field points at: never a secret (a key typed into a note beside it).
  if (error && !looksSecret(error)) help.error = error;
  if (description && description !== error && !looksSecret(description)) help.description = description;
  return help;
}

function isInvalid(element: Element): boolean {
  const aria = element.getAttribute('aria-invalid');
  if (aria && aria !== 'false') return true;
  try {
    return element.matches(':user-invalid');
  } catch {
    return false; // an engine without :user-invalid
  }
}

/** The visible text of the elements an attribute's id list names. */
function referencedText(element: Element, attribute: string): string {
  const ids = element.getAttribute(attribute);
  if (!ids) return '';
  const root = element.getRootNode() as Document | ShadowRoot;
  if (typeof root.getElementById !== 'function') return '';
  const parts: string[] = [];
  for (const id of ids.split(/\s+/)) {
    const target = id ? root.getElementById(id) : null;
    if (target && isSeen(target)) {
      const text = firstWords(target, MAX_HELP);
      if (text) parts.push(text);
    }
  }
  return clip(parts.join(' '));
}

/**
 * A hint placed right after the field (or right after the label that wraps it), the common
 * pattern without aria-describedby: the next element sibling, when it is short text with no
 * control, link or label of its own and is not another field's label.
 */
function adjacentHint(element: Element): string {
  const anchor = element.parentElement?.localName === 'label' && element.parentElement.lastElementChild === element ? element.parentElement : element;
  const next = anchor.nextElementSibling;
  if (!next || NOT_HINT.has(next.localName) || next.hasAttribute('for')) return '';
  // What the user types (an editable region) or the host marked private is never a hint.
  if (
    (next as HTMLElement).isContentEditable ||
    next.getAttribute('contenteditable') === 'true' ||
    next.closest('[data-planloop-private]') ||
    next.querySelector('[contenteditable], [data-planloop-private]')
  )
    return '';
  if (next.querySelector('input, select, textarea, button, a[href], label, [role], [tabindex]')) return '';
  if (next.getAttribute('role') || (next.hasAttribute('id') && anchor.ownerDocument.querySelector(`[aria-labelledby~="${cssEscape(next.id)}"]`))) return '';
  if (!isSeen(next)) return '';
  const { text, more } = readableText(next, { maxChars: MAX_HINT });
  return text && more === 0 ? clip(text) : '';
}

function cssEscape(value: string): string {
  return value.replace(/["\\]/g, '\\$&');
}

function clip(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_HELP ? `${collapsed.slice(0, MAX_HELP - 1)}…` : collapsed;
}
