/*
 * The state of an element a model needs to act on it: checked, expanded, disabled, selected,
 * current, required, pressed, and the value of a field. A value is never read from a secret
 * field (passwords, card data, one-time codes, fields named like secrets) nor from an element the
 * host marks private: the state says that it was withheld, and why.
 */

/** The state of one element; a key is absent when it does not apply. */
export interface ElementState {
  /** Checkboxes, radios, switches: `true`, `false` or `'mixed'`. */
  checked?: boolean | 'mixed';
  /** Toggle buttons (`aria-pressed`). */
  pressed?: boolean | 'mixed';
  /** Disclosures, menus, comboboxes (`aria-expanded`, `<details open>`). */
  expanded?: boolean;
  /** Tabs and options. */
  selected?: boolean;
  disabled?: boolean;
  required?: boolean;
  /** `aria-current`: `'page'`, `'step'`, `'true'`… */
  current?: string;
  /** What a field holds (a select: its chosen option's text), at most 40 characters. */
  value?: string;
  /** The field has a value the outline does not show: `'secret'` (its kind) or `'private'` (the host's mark). */
  withheld?: 'secret' | 'private';
  /** A select's choices, at most 8. */
  options?: string[];
  /** How many choices there are beyond `options`. */
  moreOptions?: number;
  /** An input's type when it says what to type (`email`, `number`, `date`…); not for plain text. */
  type?: string;
  /** Where a link goes: a path on this site, else the other site's host. */
  href?: string;
}

/** Longest value kept. */
const MAX_VALUE_LENGTH = 40;
/** Most choices listed for a select. */
const MAX_OPTIONS = 8;

/**
 * The attribute a host puts on an element (or a container) whose values must never reach a model.
 *
 * @example
 * ```html
 * <form data-planloop-private>…</form>
 * ```
 */
export const PRIVATE_ATTRIBUTE = 'data-planloop-private';

// autocomplete tokens of secret fields (WHATWG autofill): card data, passwords, one-time codes.
const SECRET_AUTOCOMPLETE = /(^|\s)(cc-[a-z-]+|current-password|new-password|one-time-code)(\s|$)/i;
// Field names and ids that say "secret", as whole words once camelCase is split (apiKey, user_pin).
const SECRET_WORDS = /(^|[^a-z])(pass(word|phrase|code)?|passwd|pwd|secret|token|api ?key|otp|totp|cvc|cvv|csc|ssn|pin|iban)([^a-z]|$)/;
/** Input types that tell a model what to type or choose. */
const TELLING_TYPES = new Set(['email', 'tel', 'url', 'number', 'range', 'date', 'datetime-local', 'time', 'month', 'week', 'color', 'file']);
const ROLES_WITH_CHECKED = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/**
 * Whether `element` is a field whose value is a secret: a password input, an `autocomplete` of
 * card data (`cc-*`), a password or a one-time code, or a name, id or autocomplete that says
 * password, token, API key, PIN, CVC and the like.
 *
 * @example
 * ```ts
 * isSecretField(document.querySelector('input[type=password]')!); // true
 * isSecretField(document.querySelector('input[autocomplete="cc-number"]')!); // true
 * ```
 */
export function isSecretField(element: Element): boolean {
  if (element.localName === 'input' && element.getAttribute('type')?.toLowerCase() === 'password') return true;
  const autocomplete = element.getAttribute('autocomplete') ?? '';
  if (SECRET_AUTOCOMPLETE.test(autocomplete)) return true;
  const words = [element.getAttribute('name'), element.id, autocomplete]
    .map((value) => (value ?? '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/[-_]/g, ' '))
    .join(' | ');
  return SECRET_WORDS.test(words);
}

/**
 * The state of `element` with role `role`. `isPrivate` withholds its value (and a select's choices).
 *
 * @example
 * ```ts
 * elementState(document.querySelector('#trial-email')!, 'textbox', false); // { type: 'email', required: true, value: 'a@b.co' }
 * ```
 */
export function elementState(element: Element, role: string, isPrivate: boolean): ElementState {
  const state: ElementState = {};
  const aria = (name: string): string | null => element.getAttribute(`aria-${name}`);
  const tag = element.localName;
  const isInput = tag === 'input';
  const type = isInput ? (element.getAttribute('type') ?? 'text').toLowerCase() : '';

  if (isInput && (type === 'checkbox' || type === 'radio')) {
    state.checked = (element as HTMLInputElement).indeterminate ? 'mixed' : (element as HTMLInputElement).checked;
  } else if (ROLES_WITH_CHECKED.has(role)) {
    const checked = tristate(aria('checked'));
    if (checked !== undefined) state.checked = checked;
  }
  const pressed = tristate(aria('pressed'));
  if (pressed !== undefined) state.pressed = pressed;
  const expanded = aria('expanded');
  if (expanded === 'true' || expanded === 'false') state.expanded = expanded === 'true';
  else if (tag === 'summary' && element.parentElement?.localName === 'details') state.expanded = element.parentElement.hasAttribute('open');
  if (aria('selected') === 'true' || (tag === 'option' && (element as HTMLOptionElement).selected)) state.selected = true;
  if (aria('disabled') === 'true' || safeMatches(element, ':disabled') || inDisabledFieldset(element, tag)) state.disabled = true;
  if (aria('required') === 'true' || ((isInput || tag === 'select' || tag === 'textarea') && (element as HTMLInputElement).required)) state.required = true;
  const current = aria('current');
  if (current && current !== 'false') state.current = current;
  if (isInput && TELLING_TYPES.has(type)) state.type = type;
  if (role === 'link') {
    const href = linkTarget(element);
    if (href) state.href = href;
  }
  readValue(element, role, tag, type, isPrivate, state);
  return state;
}

/** Fills `value`/`withheld`/`options` of `state`, never reading a secret or private field's value. */
function readValue(element: Element, role: string, tag: string, type: string, isPrivate: boolean, state: ElementState): void {
  const holdsValue =
    (tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(type)) ||
    tag === 'textarea' ||
    tag === 'select' ||
    role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'slider' || role === 'spinbutton';
  if (!holdsValue) return;
  const withheld = isPrivate ? 'private' : isSecretField(element) ? 'secret' : undefined;
  if (withheld) {
    state.withheld = withheld;
    return;
  }
  if (tag === 'select') {
    const select = element as HTMLSelectElement;
    const chosen = Array.from(select.selectedOptions ?? [], (option) => optionText(option)).join(', ');
    if (chosen) state.value = clip(chosen);
    const options = Array.from(select.options ?? [], optionText);
    state.options = options.slice(0, MAX_OPTIONS).map((option) => clip(option, 24));
    if (options.length > MAX_OPTIONS) state.moreOptions = options.length - MAX_OPTIONS;
    return;
  }
  let value: string | null | undefined;
  if (tag === 'input' || tag === 'textarea') value = (element as HTMLInputElement).value;
  else if (element.getAttribute('contenteditable') !== null) value = element.textContent;
  else value = element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow');
  const text = (value ?? '').replace(/\s+/g, ' ').trim();
  if (text) state.value = clip(text);
}

function optionText(option: HTMLOptionElement): string {
  return (option.label || option.textContent || option.value || '').replace(/\s+/g, ' ').trim();
}

/** A link's destination, short: `/try` on this site, `example.com` elsewhere; none for `#` and scripts. */
function linkTarget(element: Element): string | undefined {
  const raw = element.getAttribute('href')?.trim();
  if (!raw || raw.startsWith('#') || /^javascript:/i.test(raw)) return undefined;
  // Most links are paths on the site: no URL parsing for them (it is a good part of an outline's time).
  if (raw.startsWith('/') && !raw.startsWith('//')) return clip(raw.split('#')[0] || '/');
  if (/^(mailto|tel):/i.test(raw)) return clip(raw);
  try {
    const document = element.ownerDocument;
    const url = new URL(raw, document.baseURI);
    return clip(url.origin === document.location?.origin ? `${url.pathname}${url.search}` : url.host);
  } catch {
    return clip(raw);
  }
}

// A control in a disabled <fieldset> is disabled (except in its first <legend>). Browsers say so
// through :disabled; happy-dom does not, so look for the fieldset too.
function inDisabledFieldset(element: Element, tag: string): boolean {
  if (tag !== 'input' && tag !== 'select' && tag !== 'textarea' && tag !== 'button') return false;
  const fieldset = element.closest('fieldset[disabled]');
  if (!fieldset) return false;
  const legend = fieldset.querySelector(':scope > legend');
  return !legend || !legend.contains(element);
}

function tristate(value: string | null): boolean | 'mixed' | undefined {
  return value === 'true' ? true : value === 'false' ? false : value === 'mixed' ? 'mixed' : undefined;
}

// happy-dom and old engines may not know a pseudo-class; a missing one means "not disabled".
function safeMatches(element: Element, selector: string): boolean {
  try {
    return element.matches(selector);
  } catch {
    return false;
  }
}

function clip(text: string, max = MAX_VALUE_LENGTH): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
