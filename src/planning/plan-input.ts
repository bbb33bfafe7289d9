import { ValidationError, type ValidationIssue } from '../errors.js';
import { isRecord, readText } from '../guards.js';
import { formatIssues } from '../validation.js';
import type { BrandPrompt, PersonaInput, SelectionContext, SitemapConfig, SitemapPage } from './prompts.js';

/*
 * What the planning call takes (`PlanInput`) and its validator: the task, its language, and what
 * the host tells the planner about its site, brand, persona and the user's selection. Split from
 * make-todos.ts, which asks the model.
 */

/**
 * What the planning call takes. Only `task` is required; everything else, when given, goes into
 * the planner's prompt.
 *
 * @example
 * ```ts
 * const input: PlanInput = {
 *   task: 'Zeig mir die Preise',
 *   locale: 'de-DE',
 *   sitemap: [{ path: '/pricing', title: 'Pricing', description: 'plans and prices' }],
 *   selection: { text: 'Team plan', selector: '#team' },
 * };
 * ```
 */
export interface PlanInput {
  /** The user's request, as they wrote it. Must not be empty. */
  task: string;
  /** The pages the planner may take the user to. */
  sitemap?: SitemapConfig;
  brand?: BrandPrompt;
  persona?: PersonaInput;
  /** BCP-47 tag (`de-DE`): the language of the task summary and the todo descriptions. */
  locale?: string;
  /** What the user had selected on the page when they asked. */
  selection?: SelectionContext;
  /** Free-form extra context from the host. */
  hostContext?: string;
}

/** The longest task, in characters: a request typed by a user, not a document. */
const MAX_TASK = 4000;

/**
 * Validates a {@link PlanInput}; throws a {@link ValidationError} naming every bad field. The
 * sitemap may come in the shapes sitemaps are usually kept in (see {@link readSitemap}).
 *
 * @example
 * ```ts
 * validatePlanInput({ task: '' }); // throws: task must not be empty
 * ```
 */
export function validatePlanInput(input: unknown): PlanInput {
  if (!isRecord(input)) {
    throw new ValidationError('invalid_input', 'Cannot plan: makeTodos takes an object such as { task: "Show me the prices" }.', {
      issues: [{ path: '(root)', message: 'must be an object' }],
    });
  }
  const issues: ValidationIssue[] = [];
  const parsed: PlanInput = { task: readText(input.task, 'task', issues, { max: MAX_TASK }) };
  if (input.locale !== undefined) {
    if (typeof input.locale === 'string' && !isLanguageTag(input.locale))
      issues.push({ path: 'locale', message: 'must be a BCP-47 language tag such as "de-DE"' });
    else parsed.locale = readText(input.locale, 'locale', issues);
  }
  if (input.hostContext !== undefined) parsed.hostContext = readText(input.hostContext, 'hostContext', issues, { nonEmpty: false });
  if (input.sitemap !== undefined) parsed.sitemap = readSitemap(input.sitemap, issues);
  if (input.brand !== undefined) parsed.brand = readShaped(input.brand, 'brand', issues, { name: true, voice: false, guidelines: false }) as BrandPrompt;
  if (input.persona !== undefined) parsed.persona = readShaped(input.persona, 'persona', issues, { name: false, role: false, tone: false }) as PersonaInput;
  if (input.selection !== undefined)
    parsed.selection = readShaped(input.selection, 'selection', issues, { text: true, selector: false, url: false }) as SelectionContext;
  if (issues.length > 0) throw new ValidationError('invalid_input', `Cannot plan: ${formatIssues(issues)}.`, { issues });
  return parsed;
}

/**
 * Reads a sitemap in any of the shapes hosts keep one in: a string (used as written); an array of
 * pages, each a path string or an object with a path (`path`, `url`, `href` or `route`) and
 * optionally a title (`title`, `name` or `label`) and a description (`description` or
 * `summary`); an object holding such an array (`{ routes }`, `{ pages }`); or a map from path to
 * title or to `{ title?, description? }`.
 *
 * @example
 * ```ts
 * const issues: ValidationIssue[] = [];
 * readSitemap({ '/pricing': 'Pricing', '/docs': { title: 'Docs', description: 'guides' } }, issues);
 * // [{ path: '/pricing', title: 'Pricing' }, { path: '/docs', title: 'Docs', description: 'guides' }]
 * ```
 */
export function readSitemap(value: unknown, issues: ValidationIssue[]): SitemapConfig {
  if (typeof value === 'string') return value;
  const shape = 'a string, an array of pages ({ path, title?, description? } or a path), { routes: [...] } or a { path: title } map';
  if (isRecord(value)) {
    const list = value.routes ?? value.pages;
    if (Array.isArray(list)) return readSitemap(list, issues);
    return Object.entries(value).map(([path, entry]) =>
      readPage(typeof entry === 'string' ? { path, title: entry } : isRecord(entry) ? { ...entry, path } : entry, `sitemap.${path}`, issues, shape),
    );
  }
  if (!Array.isArray(value)) {
    issues.push({ path: 'sitemap', message: `must be ${shape}` });
    return [];
  }
  return value.map((page, index) => readPage(typeof page === 'string' ? { path: page } : page, `sitemap[${index}]`, issues, shape));
}

function readPage(value: unknown, path: string, issues: ValidationIssue[], shape: string): SitemapPage {
  if (!isRecord(value)) {
    issues.push({ path, message: `must be a page: ${shape}` });
    return { path: '' };
  }
  const pick = (keys: readonly string[]): unknown => keys.map((key) => value[key]).find((field) => field !== undefined && field !== null);
  const page: SitemapPage = { path: readText(pick(['path', 'url', 'href', 'route']), `${path}.path`, issues) };
  const title = pick(['title', 'name', 'label']);
  const description = pick(['description', 'summary']);
  if (title !== undefined) page.title = readText(title, `${path}.title`, issues, { nonEmpty: false });
  if (description !== undefined) page.description = readText(description, `${path}.description`, issues, { nonEmpty: false });
  return page;
}

/** A string, or an object of string fields (`true`: required). */
function readShaped(value: unknown, path: string, issues: ValidationIssue[], fields: Record<string, boolean>): string | Record<string, string> {
  if (typeof value === 'string') return value;
  const names = Object.entries(fields)
    .map(([name, required]) => (required ? name : `${name}?`))
    .join(', ');
  if (!isRecord(value)) {
    issues.push({ path, message: `must be a string or an object { ${names} }` });
    return '';
  }
  const out: Record<string, string> = {};
  for (const [name, required] of Object.entries(fields)) {
    if (value[name] === undefined && !required) continue;
    out[name] = readText(value[name], `${path}.${name}`, issues, { nonEmpty: required });
  }
  return out;
}

/**
 * Like {@link validatePlanInput}, but returns `{ success, data | error }` instead of throwing.
 *
 * @example
 * ```ts
 * const field = document.querySelector<HTMLInputElement>('#task')!;
 * const result = safeValidatePlanInput({ task: field.value, locale: navigator.language });
 * if (!result.success) console.log(result.error.issues);
 * ```
 */
export function safeValidatePlanInput(input: unknown): { success: true; data: PlanInput } | { success: false; error: ValidationError } {
  try {
    return { success: true, data: validatePlanInput(input) };
  } catch (error) {
    if (ValidationError.isInstance(error)) return { success: false, error };
    throw error;
  }
}

function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
