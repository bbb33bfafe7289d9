import type { ValidationIssue } from './errors.js';

/*
 * Hand-written checks for the shapes the core validates on every change (todos, documents, the
 * turn envelope, stored snapshots). They replace zod/mini in the core: zod's first `z.object`
 * costs ~5 KB gzipped and the core's budget is 15 KB (figures in the commit that made this file);
 * these cost ~1 KB. Messages use the same words as `describeIssue` for zod issues, so a model or a
 * person reads one style everywhere.
 *
 * Every reader takes the value, its path and the issue list, pushes what is wrong, and returns the
 * value to keep. When it has pushed an issue the returned value is meaningless: callers check
 * `issues.length` before using anything.
 */

/** The path of `key` under `path`: `todos[2]`, `todo_adjust.remove`. */
export function pathOf(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** What a value is, in words: `the number 3`, `an array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? `the number ${value}` : `the fraction ${value}`;
  if (typeof value === 'object') return 'an object';
  return /^[aeiou]/.test(typeof value) ? `an ${typeof value}` : `a ${typeof value}`;
}

/** Whether `value` is a plain JSON-like object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function push(issues: ValidationIssue[], path: string, message: string): void {
  issues.push({ path: path || '(root)', message });
}

function wrongType(issues: ValidationIssue[], path: string, value: unknown, expected: string): void {
  push(issues, path, value === undefined ? `is required (${expected})` : `must be ${expected}, not ${describeValue(value)}`);
}

/** Options of {@link readText}. */
export interface TextOptions {
  /** Trim the text and refuse it when nothing is left. Default `true`. */
  nonEmpty?: boolean;
  /** The most characters allowed (after trimming). Default none. */
  max?: number;
}

/**
 * A string; by default trimmed and not empty.
 *
 * @example
 * ```ts
 * const issues: ValidationIssue[] = [];
 * readText('  Open pricing ', 'description', issues); // 'Open pricing'
 * readText(3, 'description', issues); // issues: description must be a string, not the number 3
 * ```
 */
export function readText(value: unknown, path: string, issues: ValidationIssue[], options: TextOptions = {}): string {
  if (typeof value !== 'string') {
    wrongType(issues, path, value, 'a string');
    return '';
  }
  const nonEmpty = options.nonEmpty ?? true;
  const text = nonEmpty ? value.trim() : value;
  if (nonEmpty && text === '') push(issues, path, 'must not be empty');
  else if (options.max !== undefined && text.length > options.max) push(issues, path, `must have at most ${options.max} characters (has ${text.length})`);
  return text;
}

/**
 * A whole number of at least `min` (default 0: counters, timestamps; 1 for a turn number).
 *
 * @example
 * ```ts
 * const issues: ValidationIssue[] = [];
 * readInteger(2, 'expected_turn', issues, 1); // 2
 * readInteger(1.5, 'expected_turn', issues, 1); // issues: must be an integer, not the fraction 1.5
 * readInteger(-1, 'lastIds.todos', issues); // issues: must be at least 0
 * ```
 */
export function readInteger(value: unknown, path: string, issues: ValidationIssue[], min = 0): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) wrongType(issues, path, value, 'an integer');
  else if (value < min) push(issues, path, `must be at least ${min}`);
  return value as number;
}

/**
 * One of a fixed list of strings.
 *
 * @example
 * ```ts
 * const issues: ValidationIssue[] = [];
 * readOneOf('done', ['pending', 'completed'], 'status', issues); // issues: status must be one of pending, completed
 * ```
 */
export function readOneOf<T extends string>(value: unknown, allowed: readonly T[], path: string, issues: ValidationIssue[]): T {
  if (!allowed.includes(value as T)) push(issues, path, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/**
 * An object (not null, not an array), or `undefined` after pushing an issue.
 *
 * @example
 * ```ts
 * const issues: ValidationIssue[] = [];
 * const record = readRecord(JSON.parse('{"remove":["t1"]}'), 'todo_adjust', issues);
 * ```
 */
export function readRecord(value: unknown, path: string, issues: ValidationIssue[]): Record<string, unknown> | undefined {
  if (isRecord(value)) return value;
  wrongType(issues, path, value, 'an object');
  return undefined;
}

/**
 * An array whose items `readItem` reads (each at `path[i]`), or `[]` after pushing an issue.
 *
 * @example
 * ```ts
 * const issues: ValidationIssue[] = [];
 * readArray(['t1', 't2'], 'remove', issues, (id, at) => readText(id, at, issues)); // ['t1', 't2']
 * ```
 */
export function readArray<T>(value: unknown, path: string, issues: ValidationIssue[], readItem: (item: unknown, path: string, index: number) => T): T[] {
  if (!Array.isArray(value)) {
    wrongType(issues, path, value, 'an array');
    return [];
  }
  return value.map((item, index) => readItem(item, pathOf(path, index), index));
}

/**
 * Own enumerable entries without `null`/`undefined` values and without `__proto__`: small models
 * write `"target": null` for "absent", and a parsed `__proto__` key must never reach an object.
 *
 * @example
 * ```ts
 * definedEntries({ text: 'Hi', target: null }); // { text: 'Hi' }
 * ```
 */
export function definedEntries(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (field !== null && field !== undefined && key !== '__proto__') out[key] = field;
  }
  return out;
}
