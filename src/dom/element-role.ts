/*
 * The role of an element as a model should read it: its ARIA role (explicit, else the HTML
 * element's implicit one), reduced to the roles an outline lists. A simplified HTML-AAM mapping:
 * enough for real pages, not a conformance-grade implementation.
 */

/**
 * Roles that mark a region of the page.
 *
 * @example
 * ```ts
 * LANDMARK_ROLES.has('navigation'); // true
 * ```
 */
export const LANDMARK_ROLES: ReadonlySet<string> = new Set(['banner', 'navigation', 'main', 'complementary', 'contentinfo', 'search', 'form', 'region']);

/**
 * Roles a person acts on: click, type, choose.
 *
 * @example
 * ```ts
 * declare const element: Element;
 * INTERACTIVE_ROLES.has(elementRole(element) ?? ''); // a control?
 * ```
 */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'slider',
  'spinbutton',
  'treeitem',
  'focusable',
  'clickable',
]);

/**
 * Roles of content blocks a narration can point at (listed when they have an id or a name).
 *
 * @example
 * ```ts
 * BLOCK_ROLES.has('article'); // true
 * ```
 */
export const BLOCK_ROLES: ReadonlySet<string> = new Set([
  'article',
  'dialog',
  'alertdialog',
  'tabpanel',
  'group',
  'table',
  'grid',
  'treegrid',
  'figure',
  'tablist',
  'menu',
  'menubar',
  'toolbar',
  'radiogroup',
  'tree',
]);

/**
 * Roles whose accessible name comes from their content.
 *
 * @example
 * ```ts
 * NAME_FROM_CONTENT.has('button'); // true: a button is named by its text
 * ```
 */
export const NAME_FROM_CONTENT: ReadonlySet<string> = new Set([
  'button',
  'link',
  'heading',
  'tab',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'treeitem',
  'checkbox',
  'radio',
  'switch',
  'cell',
  'columnheader',
  'rowheader',
  'tooltip',
  'clickable',
  'focusable',
]);

const INPUT_ROLES: Record<string, string> = {
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  file: 'button',
  color: 'button',
  search: 'searchbox',
};

const TAG_ROLES: Record<string, string> = {
  button: 'button',
  textarea: 'textbox',
  nav: 'navigation',
  main: 'main',
  aside: 'complementary',
  form: 'form',
  search: 'search',
  section: 'region',
  article: 'article',
  dialog: 'dialog',
  fieldset: 'group',
  table: 'table',
  figure: 'figure',
  details: 'group',
  option: 'option',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
};

/** Sectioning elements inside which <header>/<footer> are not the page's banner/contentinfo. */
const SECTIONING = 'article, aside, main, nav, section';

/**
 * The role of `element` (its first `role` token, else the implicit role of its tag), or
 * `undefined` for generic elements and `role="none"`/`"presentation"`. A `<section>` is `region`
 * whether or not it has a name (the outline lists unnamed ones only when they have an id); an
 * element with `tabindex` ≥ 0 and no role is `focusable`; one with an `onclick` attribute and no role is
 * `clickable` (the outline also calls a `focusable` one with `cursor: pointer` `clickable`). Both
 * are named by their content, as a button is.
 *
 * @example
 * ```ts
 * elementRole(document.querySelector('input[type=email]')!); // 'textbox'
 * elementRole(document.querySelector('nav')!); // 'navigation'
 * ```
 */
export function elementRole(element: Element): string | undefined {
  if (!element.hasAttributes()) return implicitRole(element, element.localName);
  const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0]?.toLowerCase();
  if (explicit && explicit !== 'none' && explicit !== 'presentation' && explicit !== 'generic') return explicit;
  const role = implicitRole(element, element.localName);
  // role="none" on a control is ignored (ARIA's presentational-role conflict rule); elsewhere it removes the role.
  if (explicit) return role && INTERACTIVE_ROLES.has(role) ? role : undefined;
  if (role) return role;
  if (isEditingHost(element)) return 'textbox';
  if (element.hasAttribute('onclick') && element.localName !== 'body' && element.localName !== 'html') return 'clickable';
  const tabindex = element.getAttribute('tabindex');
  return tabindex !== null && Number(tabindex) >= 0 ? 'focusable' : undefined;
}

function implicitRole(element: Element, tag: string): string | undefined {
  switch (tag) {
    case 'a':
    case 'area':
      return element.hasAttribute('href') ? 'link' : undefined;
    case 'input': {
      const type = (element.getAttribute('type') ?? 'text').toLowerCase();
      if (type === 'hidden') return undefined;
      if (INPUT_ROLES[type]) return INPUT_ROLES[type];
      return element.hasAttribute('list') ? 'combobox' : 'textbox';
    }
    case 'select':
      return (element as HTMLSelectElement).multiple || Number(element.getAttribute('size')) > 1 ? 'listbox' : 'combobox';
    case 'summary':
      return element.parentElement?.localName === 'details' ? 'button' : undefined;
    case 'header':
      return element.parentElement?.closest(SECTIONING) ? undefined : 'banner';
    case 'footer':
      return element.parentElement?.closest(SECTIONING) ? undefined : 'contentinfo';
    case 'img':
      return element.getAttribute('alt') === '' ? undefined : 'img';
    default:
      return TAG_ROLES[tag];
  }
}

/** The element where contenteditable starts (not every element inside it). */
function isEditingHost(element: Element): boolean {
  const value = element.getAttribute('contenteditable');
  if (value === null || value.toLowerCase() === 'false') return false;
  const parent = element.parentElement?.getAttribute('contenteditable');
  return parent === null || parent === undefined || parent.toLowerCase() === 'false';
}

/**
 * The level of a heading: `<h3>` is 3, `role="heading" aria-level="2"` is 2 (default 2, as ARIA says).
 *
 * @example
 * ```ts
 * headingLevel(document.querySelector('h3')!); // 3
 * ```
 */
export function headingLevel(element: Element): number {
  const aria = Number(element.getAttribute('aria-level'));
  if (Number.isInteger(aria) && aria > 0) return aria;
  const match = /^h([1-6])$/.exec(element.localName);
  return match ? Number(match[1]) : 2;
}
