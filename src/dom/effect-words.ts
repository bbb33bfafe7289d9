import { accessibleName } from './accessible-name.js';
import { elementRole } from './element-role.js';
import { readableText } from './readable-text.js';
import { isSeen } from './sighted.js';
import { hasLayout } from './visibility.js';
import { redactUrl } from '../secret-text.js';

/*
 * What an action does, in the user's words, built from the page and from what the action set off,
 * never from what the model wrote: the control by its role and visible name (`the button "Delete
 * account"`), a form by what a person sees of it (a visible legend, heading or label) and the
 * fields it sends (their names, never their values), a request by its method and real
 * destination. Every piece of page text is cut short and has its quotes replaced, so that it
 * cannot pass for the sentence around it.
 */

/** Roles whose word reads naturally after "the": `the button "Buy"`. Others are named by their text alone. */
const ROLE_WORDS: Readonly<Record<string, string>> = {
  button: 'button',
  link: 'link',
  checkbox: 'checkbox',
  radio: 'radio button',
  switch: 'switch',
  tab: 'tab',
  menuitem: 'menu item',
  menuitemcheckbox: 'menu item',
  menuitemradio: 'menu item',
  option: 'option',
  textbox: 'field',
  searchbox: 'search field',
  combobox: 'list',
  listbox: 'list',
  spinbutton: 'number field',
  slider: 'slider',
  treeitem: 'item',
  img: 'image',
};

/**
 * A control in words: `the button "Delete account"`, `the link "Pricing"`, `"Upgrade to Pro €99"`
 * (an element without a role, such as a clickable div, by its text). The name is the accessible
 * name, cut to 60 characters; without one, the element's visible text.
 *
 * @example
 * ```ts
 * controlWords(document.querySelector('#delete')!); // 'the button "Delete account"'
 * ```
 */
export function controlWords(element: Element): string {
  const role = elementRole(element);
  const name = quote(accessibleName(element, role) || visibleText(element));
  const word = role ? ROLE_WORDS[role] : undefined;
  if (word) return name ? `the ${word} ${name}` : `an unnamed ${word}`;
  return name || `an unnamed ${element.localName} element`;
}

/**
 * A click in words: `Click the button "Delete account"`.
 *
 * @example
 * ```ts
 * clickWords(document.querySelector('#delete')!); // 'Click the button "Delete account"'
 * ```
 */
export function clickWords(element: Element): string {
  return `Click ${controlWords(element)}`;
}

/**
 * Typing in words: `Type "Ada" into the field "Name"`, `Choose "Express" in the list "Shipping"`,
 * `Type a saved secret into the field "Password"` (a secret's value never shows).
 *
 * @example
 * ```ts
 * fillWords(document.querySelector('#name')!, 'Ada'); // 'Type "Ada" into the field "Name"'
 * ```
 */
export function fillWords(element: Element, value: string, secret = false): string {
  const what = controlWords(element);
  if (secret) return `Type a saved secret into ${what}`;
  if (element.localName === 'select') return `Choose ${quote(value) || '""'} in ${what}`;
  return value ? `Type ${quote(value)} into ${what}` : `Clear ${what}`;
}

/**
 * A form's name as a person sees it: its first visible legend or heading, else the visible text
 * its `aria-labelledby` points at, else the first visible heading of the section it is in, else
 * the submit button's name; never a hidden heading and never an `aria-label` no one sees.
 * `''` when nothing names it.
 *
 * @example
 * ```ts
 * formName(document.querySelector('form')!); // 'Payments'
 * ```
 */
export function formName(form: HTMLFormElement, submitter?: Element | null): string {
  const layout = hasLayout(form.ownerDocument);
  const seen = (element: Element | null | undefined): string => {
    if (!element || !isSeen(element, { layout, text: true })) return '';
    return element.localName === 'legend' ? visibleText(element) : accessibleName(element, 'heading');
  };
  for (const candidate of Array.from(form.querySelectorAll('legend, h1, h2, h3, h4, h5, h6, [role=heading]'))) {
    const text = seen(candidate);
    if (text) return clip(text);
  }
  for (const id of (form.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)) {
    const text = seen(form.ownerDocument.getElementById(id));
    if (text) return clip(text);
  }
  const section = form.parentElement?.closest('section, article, aside, dialog, [role=region], [role=dialog], fieldset');
  for (const candidate of Array.from(section?.querySelectorAll('h1, h2, h3, h4, h5, h6, [role=heading], legend') ?? [])) {
    if (form.contains(candidate)) continue;
    const text = seen(candidate);
    if (text) return clip(text);
  }
  const button = submitter ? accessibleName(submitter, elementRole(submitter)) : '';
  return button ? clip(button) : '';
}

/**
 * The fields a form would send, by the names a person sees (their labels), never their values:
 * the controls that are submitted (named, enabled, checked when they are checkboxes or radios).
 * Fields no one sees are counted, not named.
 *
 * @example
 * ```ts
 * formFields(document.querySelector('form')!); // { seen: ['Recipient IBAN', 'Amount'], hidden: 1 }
 * ```
 */
export function formFields(form: HTMLFormElement): { seen: string[]; hidden: number } {
  const layout = hasLayout(form.ownerDocument);
  const seen: string[] = [];
  const groups = new Set<string>();
  let hidden = 0;
  for (const control of Array.from(form.elements)) {
    const field = control as HTMLInputElement;
    const tag = control.localName;
    const type = (field.type ?? '').toLowerCase();
    if (!field.name || field.disabled || tag === 'button' || tag === 'fieldset' || tag === 'output' || tag === 'object') continue;
    if (['submit', 'button', 'reset', 'image'].includes(type)) continue;
    if ((type === 'checkbox' || type === 'radio') && !field.checked) continue;
    if (type === 'radio') {
      if (groups.has(field.name)) continue;
      groups.add(field.name);
    }
    const label = type === 'hidden' || !isSeen(control, { layout }) ? '' : accessibleName(control, elementRole(control));
    if (label) seen.push(clip(label, 40));
    else hidden += 1;
  }
  return { seen, hidden };
}

/**
 * The form's fields in words, for a sentence: `: Recipient IBAN, Amount and 1 hidden field`;
 * `''` for a form that sends nothing a person filled in.
 */
export function fieldList(fields: { seen: readonly string[]; hidden: number }): string {
  const shown = fields.seen.slice(0, 8);
  const more = fields.seen.length - shown.length;
  const parts = [...shown, ...(more > 0 ? [`${more} more`] : [])];
  const hidden = fields.hidden > 0 ? `${fields.hidden} hidden field${fields.hidden === 1 ? '' : 's'}` : '';
  if (parts.length === 0) return hidden ? `: ${hidden}` : '';
  return `: ${parts.join(', ')}${hidden ? ` and ${hidden}` : ''}`;
}

/**
 * Where a URL leads, for the user: a path on this site (`/api/account`), the host and path
 * elsewhere (`evil.example/collect`); credentials in its query (`?token=…`) and values that look
 * secret redacted (see `redactUrl`); cut to 80 characters.
 *
 * @example
 * ```ts
 * whereTo('https://shop.example/api/account', 'https://shop.example/settings'); // '/api/account'
 * whereTo('https://evil.example/c?id=1', 'https://shop.example/'); // 'evil.example/c?id=1'
 * ```
 */
export function whereTo(url: string, base: string): string {
  try {
    const target = new URL(url, base);
    const here = new URL(base);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return clip(target.href, 80);
    const path = redactUrl(`${target.pathname}${target.search}`);
    return clip(target.origin === here.origin ? path : `${target.host}${path === '/' ? '' : path}`, 80);
  } catch {
    return clip(redactUrl(url), 80);
  }
}

/** The names in a request body a script sends (form data, URL parameters, a JSON object's keys), never the values. */
export function bodyFields(body: unknown): string[] {
  try {
    if (typeof FormData !== 'undefined' && body instanceof FormData) return [...new Set(Array.from(body.keys()))];
    if (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) return [...new Set(Array.from(body.keys()))];
    if (typeof body === 'string' && /^\s*\{/.test(body)) {
      const parsed = JSON.parse(body) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return Object.keys(parsed);
    }
  } catch {
    // A body that cannot be read names nothing.
  }
  return [];
}

/** Page text, quoted for a sentence: cut to `max` characters, its double quotes made single. `''` for no text. */
export function quote(text: string, max = 60): string {
  const line = clip(text, max);
  return line ? `"${line}"` : '';
}

/** One line of page text, cut to `max` characters, its double quotes made single. */
export function clip(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/"/g, "'");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The text of an element a person sees: its name from content (hidden parts left out), when the element is seen. */
function visibleText(element: Element): string {
  if (!isSeen(element, { layout: hasLayout(element.ownerDocument) })) return '';
  return readableText(element, { maxChars: 200 }).text;
}
