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
const SECRET_AUTOCOMPLETE = /(^|\s)(cc-[a-z-]+|current-password|new-password|one-time-code|transaction-amount)(\s|$)/i;
// Field names and ids that say "secret", as whole words once camelCase is split (apiKey, user_pin),
// and payment fields (card number, cardnum, ccnum, security code, IBAN, account and routing numbers).
const SECRET_WORDS =
  /(^|[^a-z])(pass(word|phrase|code)?|passwd|pwd|secret|token|api ?key|otp|totp|cvc2?|cvv2?|csc|ssn|pin|iban|card ?(num|number|no|nr)?|cardnum(ber)?|cc ?(num|number|no)|ccn|pan|security ?code|account ?(num|number|no)|routing ?(num|number|no)?|sort ?code)([^a-z]|$)/;
/** Input types that tell a model what to type or choose. */
const TELLING_TYPES = new Set(['email', 'tel', 'url', 'number', 'range', 'date', 'datetime-local', 'time', 'month', 'week', 'color', 'file']);
const ROLES_WITH_CHECKED = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/**
 * Fields seen as `type=password` at any time: a "show password" button that turns one into
 * `type=text` does not make its value readable. Kept per field, weakly (a removed field is forgotten).
 */
const wasPassword = new WeakSet<Element>();

/**
 * Whether `element` is, or once was, a password input (see {@link isSecretField}).
 *
 * @example
 * ```ts
 * const revealedPassword = document.querySelector('#password')!;
 * isPasswordField(revealedPassword); // true after it was seen as type=password, now type=text
 * ```
 */
export function isPasswordField(element: Element): boolean {
  if (element.localName === 'input' && element.getAttribute('type')?.toLowerCase() === 'password') {
    wasPassword.add(element);
    return true;
  }
  return wasPassword.has(element);
}

/**
 * Remembers every password input under `root` (open shadow roots included), so that one a page
 * later reveals as `type=text` stays secret. `outlinePage` calls it on every outline; a host
 * can call it earlier, e.g. when its page loads, before any "show password" button is pressed.
 *
 * @example
 * ```ts
 * import { rememberPasswordFields } from 'planloop/dom';
 * rememberPasswordFields(document);
 * ```
 */
export function rememberPasswordFields(root: Document | Element | ShadowRoot): void {
  const visit = (scope: Document | Element | ShadowRoot): void => {
    // (Indexed: no copy of a list of every element on every outline.)
    const inputs = scope.querySelectorAll('input[type]');
    for (let i = 0; i < inputs.length; i += 1) if (inputs[i]?.getAttribute('type')?.toLowerCase() === 'password') wasPassword.add(inputs[i] as Element);
    const all = scope.querySelectorAll('*');
    for (let i = 0; i < all.length; i += 1) {
      const host = all[i] as Element;
      if (host.shadowRoot) visit(host.shadowRoot);
    }
  };
  visit(root);
}

/**
 * Whether `element` is a field whose value is a secret: a password input (or one that was a
 * password input before a "show password" button changed its type), an `autocomplete` of card
 * data (`cc-*`), a password or a one-time code, or a name, id or autocomplete that says password,
 * token, API key, PIN, card number (`cardnum`, `ccnum`), CVC, IBAN and the like.
 *
 * @example
 * ```ts
 * isSecretField(document.querySelector('input[type=password]')!); // true
 * isSecretField(document.querySelector('input[name="cardnum"]')!); // true
 * ```
 */
export function isSecretField(element: Element): boolean {
  if (isPasswordField(element)) return true;
  const autocomplete = element.getAttribute('autocomplete') ?? '';
  if (SECRET_AUTOCOMPLETE.test(autocomplete)) return true;
  const words = [element.getAttribute('name'), element.id, autocomplete]
    .map((value) => (value ?? '').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/[-_]/g, ' '))
    .join(' | ');
  return SECRET_WORDS.test(words);
}

/**
 * Whether `text` holds something that looks like a secret, whatever field it is in: a card number
 * (13 to 19 digits, spaces or dashes allowed, that pass the Luhn check), a key or token with a
 * well-known prefix (`sk-`, `ghp_`, `xoxb-`, `AKIA`, `AIza`, a JWT), or a run of 24 or more
 * letters and digits with both in it, as API keys are.
 *
 * @example
 * ```ts
 * looksSecret('4242 4242 4242 4242'); // true
 * looksSecret('sk-live-8f3kq0d9x7'); // true
 * looksSecret('Order 1234'); // false
 * ```
 */
export function looksSecret(text: string): boolean {
  for (const match of text.matchAll(/\d[\d -]{11,}\d/g)) {
    const digits = match[0].replace(/\D/g, '');
    if (digits.length >= 13 && digits.length <= 19 && luhn(digits)) return true;
  }
  if (/(^|[^A-Za-z0-9])(sk|pk|rk)[-_](live|test|proj|ant)?[-_]?[A-Za-z0-9_-]{8,}/.test(text)) return true;
  if (/\b(ghp|gho|ghs|ghu|github_pat|glpat|xox[abpors]|AKIA|ASIA|AIza)[-_A-Za-z0-9]{10,}/.test(text)) return true;
  if (/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/.test(text)) return true;
  for (const token of text.match(/[A-Za-z0-9_\-+/=]{24,}/g) ?? []) {
    if (/\d/.test(token) && /[A-Za-z]/.test(token) && !/^[a-z]+(-[a-z]+)+$/i.test(token)) return true;
  }
  return false;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The state of `element` with role `role`. `isPrivate` withholds its value (and a select's
 * choices); `reveal` (the host's per-field opt-in) shows a value the secret rules would withhold,
 * except a password field's, present or former.
 *
 * @example
 * ```ts
 * elementState(document.querySelector('#trial-email')!, 'textbox', false); // { type: 'email', required: true, value: 'a@b.co' }
 * ```
 */
export function elementState(element: Element, role: string, isPrivate: boolean, reveal = false): ElementState {
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
  readValue(element, role, tag, type, isPrivate, reveal, state);
  return state;
}

/** Fills `value`/`withheld`/`options` of `state`, never reading a secret or private field's value. */
function readValue(element: Element, role: string, tag: string, type: string, isPrivate: boolean, reveal: boolean, state: ElementState): void {
  const holdsValue =
    (tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(type)) ||
    tag === 'textarea' ||
    tag === 'select' ||
    role === 'textbox' || role === 'searchbox' || role === 'combobox' || role === 'slider' || role === 'spinbutton';
  if (!holdsValue) return;
  const withheld = isPrivate ? 'private' : isPasswordField(element) || (!reveal && isSecretField(element)) ? 'secret' : undefined;
  if (withheld) {
    state.withheld = withheld;
    return;
  }
  if (tag === 'select') {
    const select = element as HTMLSelectElement;
    const chosen = Array.from(select.selectedOptions ?? [], (option) => optionText(option)).join(', ');
    if (chosen && !reveal && looksSecret(chosen)) {
      state.withheld = 'secret';
      return;
    }
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
  // A card number or an API key typed into an ordinary field (or a contenteditable) is withheld too.
  if (text && !reveal && looksSecret(text)) state.withheld = 'secret';
  else if (text) state.value = clip(text);
}

function optionText(option: HTMLOptionElement): string {
  return (option.label || option.textContent || option.value || '').replace(/\s+/g, ' ').trim();
}

/** A link's destination, short: `/try` on this site, `example.com` elsewhere; none for `#` and scripts. */
function linkTarget(element: Element): string | undefined {
  const raw = element.getAttribute('href')?.trim();
  if (!raw || raw.startsWith('#') || /^javascript:/i.test(raw)) return undefined;
  // Most links are paths on the site: no URL parsing for them (it is a good part of an outline's time).
  if (raw.startsWith('/') && !raw.startsWith('//') && !raw.includes('?')) return clip(raw.split('#')[0] || '/');
  if (/^(mailto|tel):/i.test(raw)) return clip(raw);
  try {
    const document = element.ownerDocument;
    const url = new URL(raw, document.baseURI);
    if (url.origin !== document.location?.origin) return clip(url.host);
    // A token in a link (a reset link, a logout link's CSRF token) is not shown: only its key.
    for (const [key, value] of Array.from(url.searchParams)) if (looksSecret(value) || SECRET_WORDS.test(key.toLowerCase().replace(/[-_]/g, ' '))) url.searchParams.set(key, '…');
    return clip(`${url.pathname}${url.search.replace(/%E2%80%A6/g, '…')}`);
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
