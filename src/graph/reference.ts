/**
 * References in tool-call plans: `†input.a.b` reads the input, `†state.x.y` reads the state.
 *
 * Spelling: the sigil is `†` (U+2020), or `$` as the ASCII spelling (`$input.a`, `$state.x`),
 * because models do not always produce `†`. Paths are dot-separated; a segment is letters,
 * digits, `_` or `-` (`†state.flights.0.price` reads an array item). A string is a reference when
 * it starts (after spaces) with `†`, or with `$input`/`$state` followed by `.`, a space, `|`, `&`
 * or its end; any other string is a literal. There is no escape: a literal string cannot start
 * with `$state.`.
 *
 * Operators join whole references and are not mixed in one string: `A || B` and `A && B`. What
 * they mean depends on where they stand (an argument or `_outputPath`); see `GraphTool`.
 */

/** Where a reference reads or writes. */
export type ReferenceRoot = 'input' | 'state';

/** One parsed reference: a root and a dot path (at least one segment). */
export interface Reference {
  root: ReferenceRoot;
  path: readonly string[];
}

/** A reference string: one reference, or several joined by `||` (`or`) or `&&` (`and`). */
export interface ReferenceExpression {
  op: 'single' | 'or' | 'and';
  refs: readonly Reference[];
}

/** The result of {@link parseReferenceExpression}. */
export type ReferenceParse = { ok: true; expression: ReferenceExpression } | { ok: false; unsafe: boolean; message: string };

/** Path segments refused anywhere in a path: they would reach into object prototypes. */
export const UNSAFE_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const START = /^\s*(?:†|\$(?:input|state)(?=$|[.\s|&]))/u;
const SEGMENT = /^[\p{L}\p{N}_-]+$/u;

/**
 * Whether `value` is meant as a reference (a string starting with `†`, `$input` or `$state`).
 *
 * @example
 * ```ts
 * isReferenceString('†state.flights'); // true
 * isReferenceString('$50');            // false: a literal
 * ```
 */
export function isReferenceString(value: unknown): value is string {
  return typeof value === 'string' && START.test(value);
}

/**
 * Parses a reference string into its references and operator; says what is wrong otherwise.
 *
 * @example
 * ```ts
 * parseReferenceExpression('†state.receipt || $state.error');
 * // { ok: true, expression: { op: 'or', refs: [{ root: 'state', path: ['receipt'] }, { root: 'state', path: ['error'] }] } }
 * ```
 */
export function parseReferenceExpression(text: string): ReferenceParse {
  if (typeof text !== 'string') {
    return {
      ok: false,
      unsafe: false,
      message: `${String(JSON.stringify(text) ?? text).slice(0, 60)} is not a reference: a reference is a string such as "†state.result"`,
    };
  }
  const hasOr = text.includes('||');
  const hasAnd = text.includes('&&');
  if (hasOr && hasAnd) {
    return { ok: false, unsafe: false, message: `"${text}" mixes || and &&; use one operator per reference` };
  }
  const parts = text.split(hasOr ? '||' : '&&');
  const refs: Reference[] = [];
  for (const part of parts) {
    const parsed = parseReference(part.trim());
    if (!parsed.ok) return parsed;
    refs.push(parsed.reference);
  }
  return { ok: true, expression: { op: refs.length === 1 ? 'single' : hasOr ? 'or' : 'and', refs } };
}

function parseReference(text: string): { ok: true; reference: Reference } | { ok: false; unsafe: boolean; message: string } {
  const match = /^(?:†|\$)(input|state)\.(.+)$/u.exec(text);
  if (!match) {
    return {
      ok: false,
      unsafe: false,
      message: `"${text}" is not a reference; write †input.some.path or †state.some.path (or $input… / $state…)`,
    };
  }
  const segments = match[2]!.split('.');
  for (const segment of segments) {
    if (UNSAFE_SEGMENTS.has(segment)) {
      return { ok: false, unsafe: true, message: `"${text}" uses the forbidden path segment "${segment}"` };
    }
    if (!SEGMENT.test(segment)) {
      return {
        ok: false,
        unsafe: false,
        message: `"${text}" has an invalid path segment "${segment}"; segments are letters, digits, _ or -`,
      };
    }
  }
  return { ok: true, reference: { root: match[1] as ReferenceRoot, path: segments } };
}

/**
 * Renders a reference without its sigil, as messages and pictures show it: `state.flights.0`.
 *
 * @example
 * ```ts
 * formatReference({ root: 'input', path: ['customerId'] }); // 'input.customerId'
 * ```
 */
export function formatReference(reference: Reference): string {
  return [reference.root, ...reference.path].join('.');
}

/** Whether one path is the other or lies inside it (`a.b` and `a.b.c` overlap; `a.b` and `a.c` do not). */
export function pathsOverlap(a: readonly string[], b: readonly string[]): boolean {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Reads a dot path from a value using own properties only (never inherited ones), so a path can
 * never reach `Object.prototype`. `found` is false when any step is missing.
 *
 * @example
 * ```ts
 * readPath({ a: { b: [1, 2] } }, ['a', 'b', '1']); // { found: true, value: 2 }
 * ```
 */
export function readPath(root: unknown, path: readonly string[]): { found: boolean; value: unknown } {
  let node = root;
  for (const segment of path) {
    if (UNSAFE_SEGMENTS.has(segment) || node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) {
      return { found: false, value: undefined };
    }
    node = (node as Record<string, unknown>)[segment];
  }
  return node === undefined ? { found: false, value: undefined } : { found: true, value: node };
}
