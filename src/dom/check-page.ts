import { looksSecret } from '../secret-text.js';
import { elementRole } from './element-role.js';
import { readableText } from './readable-text.js';
import { isPasswordField, isSecretField, PRIVATE_ATTRIBUTE } from './element-state.js';
import { isOffLimits, offLimitsSelector } from './host-ui.js';
import { collectPageElements, nameOf } from './page-elements.js';
import { documentOf, pageRoot, type PageRoot } from './page-root.js';
import { resolveTarget } from './resolve-target.js';
import { isSeen } from './sighted.js';
import { hasLayout } from './visibility.js';
import type { TodoCheck } from '../todo-check.js';
import { matchUrl, missingEvidence } from '../todo-check-text.js';

/** What {@link checkPage} found: the check holds, or what is missing (words for the model). */
export type PageCheckResult = { readonly ok: true } | { readonly ok: false; readonly missing: string };

/** Options of {@link checkPage}. */
export interface CheckPageOptions {
  /** Where to look. Default `document`. */
  root?: PageRoot | undefined;
  /** The page's address for `url` checks. Default `location`'s path, query and hash. */
  url?: string | undefined;
  /** The host's own UI, never evidence (as `outlinePage`'s `exclude`). Default none beyond `[data-planloop-ignore]`. */
  exclude?: string | readonly string[] | undefined;
  /** Whether the document has layout. Default: detected. */
  layout?: boolean | undefined;
}

/** Roles of elements that hold a value a person typed or chose. */
const FIELD_ROLES: ReadonlySet<string> = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider', 'checkbox', 'radio', 'switch']);

/**
 * Checks a todo's page evidence against the page as a person sees it now, by the outline's sight
 * rules: `url` (the address), `visible` (an element a person can see, by role and accessible
 * name), `field` (a field's value, never compared for a secret or private field: only whether it
 * is filled). Other kinds (`narrated`, `tool`) are facts of the run, not the page: they come back
 * as missing here (the loop checks them). Never throws for what a model or planner wrote.
 *
 * @example
 * ```ts
 * import { checkPage } from 'planloop/dom';
 * checkPage({ kind: 'visible', role: 'status', name: 'Trial started' }); // { ok: true } once the page says so
 * checkPage({ kind: 'url', pattern: '/pricing' }, { url: '/docs' }); // { ok: false, missing: 'the page is not at /pricing' }
 * ```
 */
export function checkPage(check: TodoCheck, options: CheckPageOptions = {}): PageCheckResult {
  switch (check.kind) {
    case 'url': {
      const url = options.url ?? locationOf(options.root);
      return url !== undefined && matchUrl(check.pattern, url) ? { ok: true } : { ok: false, missing: missingEvidence(check) };
    }
    case 'visible':
      return visibleHolds(check, options) ? { ok: true } : { ok: false, missing: missingEvidence(check) };
    case 'field':
      return fieldHolds(check, options);
    default:
      return { ok: false, missing: `${missingEvidence(check)} (not a fact of the page)` };
  }
}

/** How much of the page's readable text a `visible` check reads, in characters. */
const MAX_READ = 500_000;

/**
 * Whether a person can see the check's words now: an element the outline lists (of the check's
 * role, when it has one) whose name contains them, or text a person can read, by the outline's
 * reader (hidden, covered, clipped, transparent and off-screen text left out), in an element of the
 * check's role or, without a role, anywhere on the page. The host's own UI and private regions
 * never count.
 */
function visibleHolds(check: Extract<TodoCheck, { kind: 'visible' }>, options: CheckPageOptions): boolean {
  const root = pageRoot(options.root, 'checkPage');
  const layout = options.layout ?? hasLayout(documentOf(root));
  const wanted = fold(check.name);
  const offLimits = offLimitsSelector(options.exclude);
  const items = collectPageElements(root, { layout, exclude: offLimits });
  // Named things (controls, headings, landmarks) by their names; prose and live regions by the text a person can read.
  const named = items.filter((item) => item.kind === 'control' || item.kind === 'heading' || item.kind === 'landmark');
  if (named.some((item) => (!check.role || item.role === check.role) && hasWords(fold(nameOf(item)), wanted) && isSeen(item.element, { layout }))) return true;
  const skip = `${offLimits}, [${PRIVATE_ATTRIBUTE}]`;
  const reads = (element: Element) => hasWords(fold(readableText(element, { maxChars: MAX_READ, skip, countMore: 1 }).text), wanted);
  const usable = (element: Element) => !isOffLimits(element, options.exclude) && !element.closest(`[${PRIVATE_ATTRIBUTE}]`) && isSeen(element, { layout });
  const candidates = holdingWords(root, wanted);
  if (check.role) return candidates.some((element) => elementRole(element) === check.role && usable(element) && reads(element));
  // Without a role: the innermost element that holds the words (a wrapper is not what a person reads), read as a person reads it.
  return candidates.some(
    (element) => !Array.from(element.children).some((child) => hasWords(fold(child.textContent ?? ''), wanted)) && usable(element) && reads(element),
  );
}

/**
 * The elements under `root` whose text has the words, in document order: the walk goes down only
 * into elements whose text contains them (a child's text is part of its parent's), so a page's
 * text is read along the branches that hold the words, not once per element.
 */
function holdingWords(root: PageRoot, wanted: string): Element[] {
  const found: Element[] = [];
  const visit = (parent: ParentNode): void => {
    for (let child = parent.firstElementChild; child; child = child.nextElementSibling) {
      const text = fold(child.textContent ?? '');
      if (!text.includes(wanted)) continue;
      if (hasWords(text, wanted)) found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

function fieldHolds(check: Extract<TodoCheck, { kind: 'field' }>, options: CheckPageOptions): PageCheckResult {
  const root = pageRoot(options.root, 'checkPage');
  const layout = options.layout ?? hasLayout(documentOf(root));
  const field = findField(check.field, root, layout, options.exclude);
  if (!field) return { ok: false, missing: `no field "${check.field}" can be seen on the page` };
  // A secret's value is never compared (nor read): a secret field, a private one, or a value that looks secret.
  const secret = isPasswordField(field) || isSecretField(field) || field.closest(`[${PRIVATE_ATTRIBUTE}]`) !== null || looksSecret(check.value ?? '');
  if (secret && check.value !== undefined) return { ok: false, missing: `field "${check.field}" is secret: only whether it is filled can be checked` };
  const holds = readField(field);
  if (holds === undefined) return { ok: false, missing: `"${check.field}" is not a field` };
  if (check.value === undefined) return holds.filled ? { ok: true } : { ok: false, missing: missingEvidence(check) };
  return holds.matches(check.value) ? { ok: true } : { ok: false, missing: missingEvidence(check) };
}

/** The field a check names: by accessible name, then by its name or id, then as a ref or selector. */
function findField(name: string, root: PageRoot, layout: boolean, exclude: CheckPageOptions['exclude']): Element | undefined {
  const wanted = fold(name);
  const fields = collectPageElements(root, { layout, exclude: offLimitsSelector(exclude) }).filter(
    (item) => FIELD_ROLES.has(item.role) || isFormField(item.element),
  );
  const seen = (element: Element) => isSeen(element, { layout }) || isSeenThroughLabel(element, layout);
  const byName = fields.find((item) => fold(nameOf(item)) === wanted && seen(item.element));
  if (byName) return byName.element;
  const byAttribute = fields.find(
    (item) => (fold(item.element.getAttribute('name') ?? '') === wanted || fold(item.element.id) === wanted) && seen(item.element),
  );
  if (byAttribute) return byAttribute.element;
  const found = resolveTarget(name, { root, selectors: true, layout, ...(exclude === undefined ? {} : { exclude }) });
  return found.ok && !isOffLimits(found.element, exclude) ? found.element : undefined;
}

/** A visually hidden checkbox or radio is seen through its visible label (as resolveTarget has it). */
function isSeenThroughLabel(element: Element, layout: boolean): boolean {
  const labels = (element as HTMLInputElement).labels;
  return labels ? Array.from(labels).some((label) => isSeen(label, { layout })) : false;
}

function isFormField(element: Element): boolean {
  return element.localName === 'input' || element.localName === 'select' || element.localName === 'textarea';
}

/** Whether a field is filled, and whether it holds a wanted value (a select: its value or its option's text; a box: on or off). */
function readField(element: Element): { filled: boolean; matches(value: string): boolean } | undefined {
  const tag = element.localName;
  if (tag === 'input') {
    const input = element as HTMLInputElement;
    const type = (input.getAttribute('type') ?? 'text').toLowerCase();
    if (type === 'checkbox' || type === 'radio') return { filled: input.checked, matches: (value) => TRUTHY.test(value.trim()) === input.checked };
    return { filled: input.value.trim() !== '', matches: (value) => fold(input.value) === fold(value) };
  }
  if (tag === 'textarea') {
    const area = element as HTMLTextAreaElement;
    return { filled: area.value.trim() !== '', matches: (value) => fold(area.value) === fold(value) };
  }
  if (tag === 'select') {
    const select = element as HTMLSelectElement;
    const chosen = Array.from(select.selectedOptions ?? []);
    return {
      filled: chosen.some((option) => option.value !== ''),
      matches: (value) => chosen.some((option) => fold(option.value) === fold(value) || fold(option.label || option.textContent || '') === fold(value)),
    };
  }
  const checked = element.getAttribute('aria-checked');
  if (checked === 'true' || checked === 'false') return { filled: checked === 'true', matches: (value) => TRUTHY.test(value.trim()) === (checked === 'true') };
  if (element.getAttribute('contenteditable') !== null) {
    const text = element.textContent ?? '';
    return { filled: text.trim() !== '', matches: (value) => fold(text) === fold(value) };
  }
  const valueText = element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow');
  if (valueText !== null) return { filled: valueText.trim() !== '', matches: (value) => fold(valueText) === fold(value) };
  return undefined;
}

/** What counts as "on" for a checkbox check's value. */
const TRUTHY = /^(on|true|yes|checked|ticked|1)$/i;

/** Whether `text` has `words` as whole words ("Saved" is not in "Unsaved"), both folded. */
function hasWords(text: string, words: string): boolean {
  for (let at = text.indexOf(words); at >= 0; at = text.indexOf(words, at + 1)) {
    if (!WORD.test(text.charAt(at - 1)) && !WORD.test(text.charAt(at + words.length))) return true;
  }
  return false;
}

/** A letter or digit in any script. */
const WORD = /[\p{L}\p{N}]/u;

function fold(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function locationOf(root: PageRoot | undefined): string | undefined {
  const location = root ? documentOf(root).defaultView?.location : (globalThis as { location?: Location }).location;
  return location?.pathname ? `${location.pathname}${location.search}${location.hash}` : undefined;
}
