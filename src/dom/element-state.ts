import { looksSecret, saysSecret } from '../secret-text.js';

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
const PASSWORD_AUTOCOMPLETE = /(^|\s)(current-password|new-password)(\s|$)/i;
/** Words that name a password, in a field's name, id or label (camelCase and `-`/`_` split first). */
const PASSWORD_WORDS = /(^|[^a-z\u00c0-\u024f])(pass ?(word|phrase)|passwd|pwd|passwort|kennwort|mot de passe|contrase[ñn]a|senha)([^a-z\u00c0-\u024f]|$)/;
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
  if (wasPassword.has(element)) return true;
  // Revealed before any outline saw it: a field that says it holds a password is one.
  if (element.localName !== 'input') return false;
  if (PASSWORD_AUTOCOMPLETE.test(element.getAttribute('autocomplete') ?? '')) return true;
  return PASSWORD_WORDS.test(wordsOf(`${element.getAttribute('name') ?? ''} ${element.id} ${labelText(element)}`));
}

/** A field's words, camelCase split and lower case, `-` and `_` as spaces. */
function wordsOf(text: string): string {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[-_]/g, ' ');
}

/** What labels a field, as the page wrote it: its <label>s, aria-label, aria-labelledby's text, placeholder and title. */
function labelText(element: Element): string {
  const parts = [element.getAttribute('aria-label'), element.getAttribute('placeholder'), element.getAttribute('title')];
  for (const label of Array.from((element as HTMLInputElement).labels ?? [])) parts.push(label.textContent);
  const ids = element.getAttribute('aria-labelledby');
  const root = element.getRootNode() as Document | ShadowRoot;
  if (ids && typeof root.getElementById === 'function') for (const id of ids.split(/\s+/)) parts.push(id ? (root.getElementById(id)?.textContent ?? '') : '');
  return parts.filter(Boolean).join(' | ').slice(0, 400);
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
 * data (`cc-*`), a password or a one-time code, a name, id, autocomplete or label that says
 * password, token, API key, PIN, card number (`cardnum`, `ccnum`), CVC, IBAN, one-time code and
 * the like, or one of three or more short fields side by side that hold a card number together.
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
  if (saysSecret([element.getAttribute('name'), element.id, autocomplete].join(' | '))) return true;
  if (saysSecret(labelText(element), true)) return true;
  return inSplitCardNumber(element);
}

/** Most characters a part of a split number takes (`maxlength`): 4 for a card number's groups. */
const MAX_PART = 6;

/**
 * Whether `element` is one of three or more short fields side by side (`maxlength` up to 6, in the
 * same fieldset, group or parent) that hold a card number together: their group's label says so,
 * one of them is named as one, or their digits together pass the Luhn check.
 */
function inSplitCardNumber(element: Element): boolean {
  if (element.localName !== 'input' || !isShortPart(element)) return false;
  const group = element.closest('fieldset, [role=group]') ?? element.parentElement?.parentElement ?? element.parentElement;
  if (!group) return false;
  const parts = Array.from(group.querySelectorAll('input')).filter(isShortPart);
  if (parts.length < 3) return false;
  const named = parts.some((part) => part !== element && saysSecret([part.getAttribute('name'), part.id, part.getAttribute('autocomplete')].join(' | ')));
  const legend = group.localName === 'fieldset' ? (group.querySelector('legend')?.textContent ?? '') : '';
  if (named || saysSecret(`${group.getAttribute('aria-label') ?? ''} ${legend} ${parts.map(labelText).join(' ')}`, true)) return true;
  return looksSecret(parts.map((part) => (part as HTMLInputElement).value ?? '').join(''));
}

function isShortPart(element: Element): boolean {
  const max = Number(element.getAttribute('maxlength'));
  const type = (element.getAttribute('type') ?? 'text').toLowerCase();
  return Number.isInteger(max) && max > 0 && max <= MAX_PART && (type === 'text' || type === 'tel' || type === 'number' || type === 'password');
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
    role === 'textbox' ||
    role === 'searchbox' ||
    role === 'combobox' ||
    role === 'slider' ||
    role === 'spinbutton';
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
    for (const [key, value] of Array.from(url.searchParams)) if (looksSecret(value) || saysSecret(key)) url.searchParams.set(key, '…');
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
  return !legend?.contains(element);
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
