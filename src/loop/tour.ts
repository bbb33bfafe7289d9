/*
 * A recorded tour: what a finished run did, as plain JSON a host stores and replays for the next
 * visitor without a model (`replayTour`). It comes back from storage or the network, so it is
 * untrusted: `validateTour` checks it whole before anything runs, with size caps, and refuses
 * what the live tools must never be asked to open (javascript: and other non-web URLs, other
 * origins, downloads). Targets are locators (`planloop/dom`'s `Locator`: role, name, landmark,
 * heading), never outline refs or CSS selectors.
 */

import type { Locator } from '../dom/locator.js';
import type { ValidationIssue } from '../errors.js';
import { TourError } from './tour-error.js';
import { describeValue, isRecord, pathOf, readArray, readRecord, readText } from '../guards.js';

/**
 * The `format` field every tour carries.
 *
 * @example
 * ```ts
 * const looksLikeTour = (value: { format?: unknown }) => value.format === TOUR_FORMAT;
 * ```
 */
export const TOUR_FORMAT = 'planloop-tour';
/**
 * The tour format version this planloop writes and reads.
 *
 * @example
 * ```ts
 * declare const stored: { version: number };
 * if (stored.version > TOUR_VERSION) console.log('recorded by a newer planloop: record it again');
 * ```
 */
export const TOUR_VERSION = 1;

/**
 * The caps of a tour, in items or characters: a tour past them is refused whole. A tour is a
 * handful of todos of a few steps each, as a run is.
 *
 * @example
 * ```ts
 * declare const text: string; // a stored tour
 * text.length <= TOUR_LIMITS.chars;
 * ```
 */
export const TOUR_LIMITS = {
  /** Characters of a tour's JSON text (`parseTour`). */
  chars: 200_000,
  /** Todos. */
  todos: 50,
  /** Steps of one todo. */
  steps: 40,
  /** Steps of the whole tour. */
  totalSteps: 400,
  /** A narration, a question, a summary, the task, a string inside a tool's arguments. */
  text: 2000,
  /** A tool's name, a todo's id, an argument's name. */
  name: 200,
  /** Keys of one arguments object, items of one array inside it. */
  items: 20,
  /** How deep objects and arrays nest inside a tool's arguments. */
  depth: 4,
  /** Characters of a todo's check (its JSON). */
  check: 1000,
  /** A locator's role. */
  role: 40,
  /** A locator's name, landmark name or heading. */
  locatorText: 160,
} as const;

/**
 * A recorded tour: the task, the locale, the plan (todos with their summaries) and, per todo, what
 * was done, in order. JSON-able: store it as `JSON.stringify(tour)`, read it back with `parseTour`.
 *
 * @example
 * ```ts
 * const tour: Tour = {
 *   format: 'planloop-tour', version: 1, task: 'Show me the prices', summary: 'A look at the plans',
 *   todos: [
 *     { id: 't1', intent: 'navigate', description: 'Open pricing', steps: [{ type: 'tool', name: 'navigate', args: { path: '/pricing' } }] },
 *     { id: 't2', intent: 'narrate', description: 'Show the Team plan', steps: [{ type: 'narrate', text: 'Most teams pick this one.', target: { role: 'article', name: 'Team' } }] },
 *   ],
 * };
 * ```
 */
export interface Tour {
  format: typeof TOUR_FORMAT;
  version: typeof TOUR_VERSION;
  /** The user's request the tour was recorded for. */
  task: string;
  /** The language the tour speaks (a BCP 47 tag), when the run had one. */
  locale?: string;
  /** The plan's one-sentence summary. */
  summary: string;
  todos: TourTodo[];
}

/** One todo of a tour and what was done for it. */
export interface TourTodo {
  /** The todo's id in the recorded run (the replay's plan gives its own). */
  id: string;
  intent: string;
  description: string;
  /**
   * The todo's evidence check, once todos carry one (a small JSON object the SDK evaluates; see
   * `replayTour`'s `checkTodo`). Optional; kept as recorded.
   */
  check?: Record<string, unknown>;
  /** What was done, in order. A todo without steps was completed by naming a later one. */
  steps: TourStep[];
}

/**
 * One thing a tour does: a narration (with the element it points at), a tool call (targets as
 * locators, the other arguments as recorded), a question to the user, or the run's finish.
 * `null` for a target: the recorded run named one that could not be located (nothing to point at).
 *
 * @example
 * ```ts
 * const step: TourStep = { type: 'tool', name: 'click', args: {}, targets: { target: { role: 'button', name: 'Start my trial' } } };
 * ```
 */
export type TourStep =
  | { type: 'narrate'; text: string; target?: Locator | null }
  | { type: 'tool'; name: string; args: Record<string, unknown>; targets?: Record<string, Locator | null> }
  | { type: 'ask'; question: string }
  | { type: 'finish'; summary: string };

/**
 * What the URL checks accept besides this page's own origin. Default: the page's origin
 * (`location.origin`) only, no downloads.
 */
export interface TourCheckOptions {
  /** The origin the tour runs on. Default: `location.origin` in a browser; none elsewhere (then every absolute URL is refused). */
  origin?: string | undefined;
  /** Other origins a tool of this host may open (as `activate`'s `allowedOrigins`). Default none. */
  allowedOrigins?: readonly string[] | undefined;
  /** Whether a tour may name a download (a path like `.zip` or `.exe`). Default `false`. */
  allowDownloads?: boolean | undefined;
}

/** The result of {@link safeValidateTour} and {@link safeParseTour}. */
export type SafeTourResult = { success: true; data: Tour } | { success: false; error: TourError };

const STEP_TYPES = ['narrate', 'tool', 'ask', 'finish'] as const;
const NEVER_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Schemes no tool may ever be sent to (after the whitespace and control characters a URL parser skips). */
const BLOCKED_SCHEME = /^(?:javascript|vbscript|data|file|blob|filesystem|view-source|about|chrome|chrome-extension|intent):/i;
/** A URL that may name a host: `https://…`, `http:host`, `//host/…`. */
const ABSOLUTE = /^(?:https?:|[a-z][a-z0-9+.-]*:\/\/|\/\/)/i;
/** Paths that are almost always downloads rather than pages (as `planloop/dom`'s `activate` judges links). */
const DOWNLOAD_PATH = /\.(exe|msi|msix|dmg|pkg|deb|rpm|apk|ipa|appimage|bat|cmd|com|scr|ps1|sh|jar|vbs|zip|rar|7z|tar|gz|tgz|bz2|xz|iso|img|bin)$/i;

/**
 * Checks a parsed tour whole and returns a copy of it; throws {@link TourError} (`tour_invalid`)
 * with every problem and its path (`todos[1].steps[0].args.url`), the first one in the message.
 * Beyond the shape and the caps ({@link TOUR_LIMITS}), refuses in a tool's arguments any string
 * that is a `javascript:`, `data:`, `file:` or other non-web URL, an absolute URL to an origin
 * other than the page's (unless `allowedOrigins` lists it), or a download path (unless
 * `allowDownloads`); and keys such as `__proto__`. A tour of a newer format version is refused
 * with a message saying so. Defaults: the page's origin only, no downloads.
 *
 * @example
 * ```ts
 * declare const stored: unknown; // JSON.parse of what the host stored
 * const tour = validateTour(stored); // throws TourError 'tour_invalid' naming the first bad path
 * ```
 */
export function validateTour(value: unknown, options: TourCheckOptions = {}): Tour {
  const issues: ValidationIssue[] = [];
  const tour = readTour(value, issues, urlCheck(options));
  if (issues.length > 0) throw invalid(issues);
  return tour;
}

/**
 * {@link validateTour} that returns `{ success, data | error }` instead of throwing.
 *
 * @example
 * ```ts
 * const result = safeValidateTour({ format: 'planloop-tour', version: 1 });
 * if (!result.success) console.log(result.error.issues[0]?.path); // 'task'
 * ```
 */
export function safeValidateTour(value: unknown, options: TourCheckOptions = {}): SafeTourResult {
  try {
    return { success: true, data: validateTour(value, options) };
  } catch (error) {
    if (TourError.isInstance(error)) return { success: false, error };
    throw error;
  }
}

/**
 * Reads a tour from JSON text (at most `TOUR_LIMITS.chars` characters) and validates it as
 * {@link validateTour} does; throws {@link TourError} (`tour_invalid`).
 *
 * @example
 * ```ts
 * const tour = parseTour(localStorage.getItem('tour:pricing') ?? '');
 * ```
 */
export function parseTour(text: string, options: TourCheckOptions = {}): Tour {
  if (typeof text !== 'string') throw invalid([{ path: '(root)', message: `must be JSON text, not ${describeValue(text)}` }]);
  if (text.length > TOUR_LIMITS.chars) throw invalid([{ path: '(root)', message: `must have at most ${TOUR_LIMITS.chars} characters (has ${text.length})` }]);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid([{ path: '(root)', message: `is not JSON (${error instanceof Error ? error.message : String(error)})` }]);
  }
  return validateTour(value, options);
}

/**
 * {@link parseTour} that returns `{ success, data | error }` instead of throwing.
 *
 * @example
 * ```ts
 * const result = safeParseTour('{"format":"planloop-tour"');
 * if (!result.success) console.log(result.error.message); // 'Cannot use this tour: (root) is not JSON …'
 * ```
 */
export function safeParseTour(text: string, options: TourCheckOptions = {}): SafeTourResult {
  try {
    return { success: true, data: parseTour(text, options) };
  } catch (error) {
    if (TourError.isInstance(error)) return { success: false, error };
    throw error;
  }
}

function invalid(issues: ValidationIssue[]): TourError {
  const first = issues[0] as ValidationIssue;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return new TourError('tour_invalid', `Cannot use this tour: ${first.path} ${first.message}${more}. Nothing was run; record the tour again or fix it.`, {
    issues,
  });
}

type UrlCheck = (text: string) => string | undefined;

function readTour(value: unknown, issues: ValidationIssue[], url: UrlCheck): Tour {
  const record = readRecord(value, '', issues);
  if (!record) return undefined as never;
  strictKeys(record, ['format', 'version', 'task', 'locale', 'summary', 'todos'], '', issues);
  if (record.format !== TOUR_FORMAT) issues.push({ path: 'format', message: `must be "${TOUR_FORMAT}"` });
  if (typeof record.version === 'number' && record.version > TOUR_VERSION) {
    issues.push({ path: 'version', message: `is ${record.version}, newer than this planloop reads (${TOUR_VERSION}): update planloop` });
  } else if (record.version !== TOUR_VERSION) issues.push({ path: 'version', message: `must be ${TOUR_VERSION}` });
  const task = readText(record.task, 'task', issues, { max: TOUR_LIMITS.text });
  const summary = readText(record.summary, 'summary', issues, { nonEmpty: false, max: TOUR_LIMITS.text });
  let locale: string | undefined;
  if (record.locale !== undefined) {
    locale = readText(record.locale, 'locale', issues, { max: 35 });
    if (locale && !/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(locale)) issues.push({ path: 'locale', message: 'must be a language tag such as en or de-CH' });
  }
  let total = 0;
  const todos = readArray(record.todos, 'todos', issues, (item, path) => {
    const todo = readTodo(item, path, issues, url);
    total += todo?.steps.length ?? 0;
    return todo;
  });
  if (Array.isArray(record.todos)) {
    if (todos.length === 0) issues.push({ path: 'todos', message: 'must hold at least one todo' });
    if (todos.length > TOUR_LIMITS.todos) issues.push({ path: 'todos', message: `must hold at most ${TOUR_LIMITS.todos} todos (has ${todos.length})` });
  }
  if (total > TOUR_LIMITS.totalSteps) issues.push({ path: 'todos', message: `must hold at most ${TOUR_LIMITS.totalSteps} steps in all (has ${total})` });
  return { format: TOUR_FORMAT, version: TOUR_VERSION, task, ...(locale ? { locale } : {}), summary, todos: todos as TourTodo[] };
}

function readTodo(value: unknown, path: string, issues: ValidationIssue[], url: UrlCheck): TourTodo {
  const record = readRecord(value, path, issues);
  if (!record) return undefined as never;
  strictKeys(record, ['id', 'intent', 'description', 'check', 'steps'], path, issues);
  const id = readText(record.id, pathOf(path, 'id'), issues, { max: 64 });
  const intent = readText(record.intent, pathOf(path, 'intent'), issues, { max: 40 });
  const description = readText(record.description, pathOf(path, 'description'), issues, { max: 1000 });
  let check: Record<string, unknown> | undefined;
  if (record.check !== undefined) {
    const checkPath = pathOf(path, 'check');
    check = readRecord(record.check, checkPath, issues);
    if (check) {
      readJson(check, checkPath, issues, 0, () => undefined);
      const size = safeLength(check);
      if (size > TOUR_LIMITS.check) issues.push({ path: checkPath, message: `must have at most ${TOUR_LIMITS.check} characters of JSON (has ${size})` });
    }
  }
  const stepsPath = pathOf(path, 'steps');
  const steps = readArray(record.steps, stepsPath, issues, (item, at) => readStep(item, at, issues, url));
  if (steps.length > TOUR_LIMITS.steps) issues.push({ path: stepsPath, message: `must hold at most ${TOUR_LIMITS.steps} steps (has ${steps.length})` });
  return { id, intent, description, ...(check ? { check: structuredClone(check) } : {}), steps };
}

function readStep(value: unknown, path: string, issues: ValidationIssue[], url: UrlCheck): TourStep {
  const record = readRecord(value, path, issues);
  if (!record) return undefined as never;
  const type = record.type as (typeof STEP_TYPES)[number];
  if (!STEP_TYPES.includes(type)) {
    issues.push({ path: pathOf(path, 'type'), message: `must be one of ${STEP_TYPES.join(', ')}` });
    return undefined as never;
  }
  const at = (key: string): string => pathOf(path, key);
  switch (type) {
    case 'narrate': {
      strictKeys(record, ['type', 'text', 'target'], path, issues);
      const text = readText(record.text, at('text'), issues, { max: TOUR_LIMITS.text });
      if (record.target === undefined) return { type, text };
      return { type, text, target: record.target === null ? null : readLocator(record.target, at('target'), issues) };
    }
    case 'tool': {
      strictKeys(record, ['type', 'name', 'args', 'targets'], path, issues);
      const name = readText(record.name, at('name'), issues, { max: TOUR_LIMITS.name });
      const args = readRecord(record.args, at('args'), issues) ?? {};
      readJson(args, at('args'), issues, 0, url);
      if (record.targets === undefined) return { type, name, args: structuredClone(args) };
      const targets: Record<string, Locator | null> = {};
      const given = readRecord(record.targets, at('targets'), issues) ?? {};
      const keys = Object.keys(given);
      if (keys.length > 5) issues.push({ path: at('targets'), message: `must name at most 5 arguments (has ${keys.length})` });
      for (const key of keys) {
        const keyPath = pathOf(at('targets'), key);
        if (!validKey(key, keyPath, issues)) continue;
        targets[key] = given[key] === null ? null : readLocator(given[key], keyPath, issues);
      }
      return { type, name, args: structuredClone(args), targets };
    }
    case 'ask':
      strictKeys(record, ['type', 'question'], path, issues);
      return { type, question: readText(record.question, at('question'), issues, { max: TOUR_LIMITS.text }) };
    default:
      strictKeys(record, ['type', 'summary'], path, issues);
      return { type: 'finish', summary: readText(record.summary, at('summary'), issues, { nonEmpty: false, max: TOUR_LIMITS.text }) };
  }
}

function readLocator(value: unknown, path: string, issues: ValidationIssue[]): Locator {
  const record = readRecord(value, path, issues);
  if (!record) return undefined as never;
  strictKeys(record, ['role', 'name', 'landmark', 'heading', 'nth'], path, issues);
  const role = readText(record.role, pathOf(path, 'role'), issues, { max: TOUR_LIMITS.role });
  if (role && !/^[a-z][a-z0-9-]*$/.test(role))
    issues.push({ path: pathOf(path, 'role'), message: 'must be a role or tag name (lower-case letters, digits, -)' });
  const locator: Locator = { role, name: readText(record.name, pathOf(path, 'name'), issues, { nonEmpty: false, max: TOUR_LIMITS.locatorText }) };
  if (record.landmark !== undefined) {
    const landmarkPath = pathOf(path, 'landmark');
    const landmark = readRecord(record.landmark, landmarkPath, issues);
    if (landmark) {
      strictKeys(landmark, ['role', 'name'], landmarkPath, issues);
      locator.landmark = {
        role: readText(landmark.role, pathOf(landmarkPath, 'role'), issues, { max: TOUR_LIMITS.role }),
        name: readText(landmark.name, pathOf(landmarkPath, 'name'), issues, { nonEmpty: false, max: TOUR_LIMITS.locatorText }),
      };
    }
  }
  if (record.heading !== undefined) locator.heading = readText(record.heading, pathOf(path, 'heading'), issues, { max: TOUR_LIMITS.locatorText });
  if (record.nth !== undefined) {
    const nth = record.nth;
    if (typeof nth !== 'number' || !Number.isSafeInteger(nth) || nth < 0 || nth > 999)
      issues.push({ path: pathOf(path, 'nth'), message: 'must be a whole number from 0 to 999' });
    else locator.nth = nth;
  }
  return locator;
}

/** Checks a JSON value inside a tool's arguments: plain data within the caps, every string past `url`. */
function readJson(value: unknown, path: string, issues: ValidationIssue[], depth: number, url: UrlCheck): void {
  if (typeof value === 'string') {
    if (value.length > TOUR_LIMITS.text) issues.push({ path, message: `must have at most ${TOUR_LIMITS.text} characters (has ${value.length})` });
    const refusal = url(value);
    if (refusal) issues.push({ path, message: refusal });
    return;
  }
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) issues.push({ path, message: 'must be a finite number' });
    return;
  }
  if (typeof value !== 'object') {
    issues.push({ path, message: `must be JSON data, not ${describeValue(value)}` });
    return;
  }
  if (depth >= TOUR_LIMITS.depth) {
    issues.push({ path, message: `nests deeper than ${TOUR_LIMITS.depth} levels` });
    return;
  }
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  if (!Array.isArray(value) && !isRecord(value)) return;
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    issues.push({ path, message: 'must be a plain object' });
    return;
  }
  if (entries.length > TOUR_LIMITS.items) issues.push({ path, message: `must hold at most ${TOUR_LIMITS.items} items (has ${entries.length})` });
  for (const [key, item] of entries.slice(0, TOUR_LIMITS.items)) {
    const at = pathOf(path, key);
    if (typeof key === 'string' && !validKey(key, at, issues)) continue;
    readJson(item, at, issues, depth + 1, url);
  }
}

function validKey(key: string, path: string, issues: ValidationIssue[]): boolean {
  if (NEVER_KEYS.has(key)) {
    issues.push({ path, message: 'is a key no tour may use' });
    return false;
  }
  if (key.length === 0 || key.length > TOUR_LIMITS.name) {
    issues.push({ path, message: `must be a name of 1 to ${TOUR_LIMITS.name} characters` });
    return false;
  }
  return true;
}

function strictKeys(record: Record<string, unknown>, allowed: readonly string[], path: string, issues: ValidationIssue[]): void {
  for (const key of Object.keys(record))
    if (!allowed.includes(key)) issues.push({ path: pathOf(path, key), message: `is not part of a tour (allowed here: ${allowed.join(', ')})` });
}

/** What `url` says about one string of a tool's arguments: `undefined` when a tool may get it. */
function urlCheck(options: TourCheckOptions): UrlCheck {
  const here = options.origin ?? (globalThis as { location?: Location }).location?.origin;
  const allowed = new Set([
    ...(here && here !== 'null' ? [here] : []),
    ...(options.allowedOrigins ?? []).map((origin) => originOf(origin)).filter((origin): origin is string => !!origin),
  ]);
  return (text) => {
    // A URL parser skips leading spaces and control characters and tabs and newlines anywhere, and
    // reads a backslash as a slash in web URLs (a slash and a backslash start another host).
    const bare = text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: URL parsers strip leading C0 controls and spaces, so we do too
      .replace(/^[\u0000-\u0020]+/, '')
      .replace(/[\t\n\r]/g, '')
      .replace(/\\/g, '/');
    if (BLOCKED_SCHEME.test(bare)) return 'is a URL of a kind no tool may open (javascript:, data:, file: and the like)';
    const absolute = ABSOLUTE.test(bare);
    if (absolute) {
      const origin = originOf(bare, here);
      if (!origin || !allowed.has(origin)) return `is a URL to ${origin ?? 'another site'}, which this page does not allow (pass allowedOrigins to allow it)`;
    }
    if (!options.allowDownloads && (absolute || bare.startsWith('/') || bare.startsWith('./'))) {
      const path = (bare.split(/[?#]/)[0] ?? '').replace(/\/+$/, '');
      if (DOWNLOAD_PATH.test(path)) return 'is a download, which this tour may not start (pass allowDownloads to allow it)';
    }
    return undefined;
  };
}

function originOf(text: string, base?: string): string | undefined {
  try {
    const url = new URL(text, base ?? 'http://invalid.invalid');
    return url.origin === 'null' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

function safeLength(value: unknown): number {
  try {
    return JSON.stringify(value).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
