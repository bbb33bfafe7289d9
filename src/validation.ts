import type { z } from 'zod/mini';
import { formatPath, ValidationError, type ValidationIssue } from './errors.js';

type ZodIssue = z.core.$ZodIssue;

/**
 * Says in words what a zod issue means. zod/mini ships no messages ("Invalid input"), and ours are
 * read by people and fed back to models, so they name the expectation.
 */
export function describeIssue(issue: ZodIssue, input?: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      // zod/mini does not keep the received value, so look it up in the input when we have it.
      if (input === undefined) return `must be ${article(issue.expected)}`;
      const received = valueAt(input, issue.path);
      return received === undefined ? `is required (${article(issue.expected)})` : `must be ${article(issue.expected)}, not ${kindOf(received)}`;
    }
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must have at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `must have at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      return issue.inclusive ? `must be at least ${issue.minimum}` : `must be greater than ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must have at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((value) => String(value)).join(', ')}`;
    case 'unrecognized_keys':
      return `has unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'invalid_union':
      return 'does not match any allowed shape';
    case 'custom':
      return issue.message;
    default:
      return issue.message || 'is invalid';
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? `the number ${value}` : `the fraction ${value}`;
  return article(typeof value);
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'array' || expected === 'object') return `an ${expected}`;
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/**
 * Turns zod issues into {@link ValidationIssue}s, with paths under `prefix` (`todos[2].status`).
 * Pass the parsed `input` so that missing fields read "is required" and wrong types say what came.
 *
 * @example
 * ```ts
 * import { z } from 'zod/mini';
 * const schema = z.array(z.object({ status: z.enum(['pending', 'completed']) }));
 * const input: unknown = JSON.parse('[{"status":"done"}]');
 * const result = schema.safeParse(input);
 * if (!result.success) console.log(toIssues(result.error.issues, ['todos'], input));
 * ```
 */
export function toIssues(issues: readonly ZodIssue[], prefix: readonly PropertyKey[] = [], input?: unknown): ValidationIssue[] {
  return issues.map((issue) => ({
    path: formatPath([...prefix, ...issue.path]) || '(root)',
    message: describeIssue(issue, input),
  }));
}

/** How many issues a message lists; the rest are counted (every issue stays in `issues`). */
const MAX_LISTED_ISSUES = 20;

/**
 * One line per issue: `todos[2].status must be one of pending, in_progress, completed`. Lists the
 * first 20 and counts the rest, so that a huge bad input (a reply with 10,000 bad actions) does not
 * make a message, fed back to the model, several times its own size.
 */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => `${issue.path} ${issue.message}`);
  const rest = issues.length - listed.length;
  if (rest > 0) listed.push(`and ${rest} more issue${rest === 1 ? '' : 's'} like these`);
  return listed.join('; ');
}

/**
 * Validates `input` (a value) with `schema` or throws a {@link ValidationError} whose message lists every issue.
 *
 * @example
 * ```ts
 * import { z } from 'zod/mini';
 * declare const input: unknown; // a tool's answer, parsed
 * const todo = validateOrThrow(z.object({ description: z.string() }), input, 'Invalid todo');
 * ```
 */
export function validateOrThrow<T>(schema: z.ZodMiniType<T>, input: unknown, what: string, prefix: readonly PropertyKey[] = []): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = toIssues(result.error.issues, prefix, input);
  throw new ValidationError('invalid_input', `${what}: ${formatIssues(issues)}.`, { issues });
}
