/*
 * A todo check as text: the compact form a planner writes and a host may pass (`/pricing`,
 * `see button "Start trial"`, `field "Email" filled`), read into the object form and written back,
 * and the line that says what is missing when a check does not hold. Not loaded at start: the
 * planner, the loop and `planloop/dom` load it.
 */
import { readTodoCheck, SECRET_FIELD_NAME, type TodoCheck } from './todo-check.js';

/**
 * A check as a host or planner may write it: the object, or its compact text (see {@link parseTodoCheck}).
 *
 * @example
 * ```ts
 * const input: TodoCheckInput = 'field "Email" filled';
 * ```
 */
export type TodoCheckInput = TodoCheck | string;

/** The shapes a compact check may take, for messages. */
const SHAPES = '"/path", "see <role> "<name>"", "field <name> filled", "field <name> = <value>", "said", "tool <name>" or "none"';

/** Quotes around a name or value (optional). */
const Q = `["'“‘”’]?`;

/** The compact forms, each read into the object form (which `readTodoCheck` then checks). */
const FORMS: ReadonlyArray<readonly [RegExp, (match: RegExpExecArray) => Record<string, string>]> = [
  [/^(?:(?:url|at) )?(\/\S*)$/i, (m) => ({ kind: 'url', pattern: m[1] as string })],
  [/^(?:said|narrated|none)$/i, (m) => ({ kind: /none/i.test(m[0]) ? 'none' : 'narrated' })],
  [/^tool (\S+)$/i, (m) => ({ kind: 'tool', name: m[1] as string })],
  // `see button "Start trial"`: a word before a quoted name is its role.
  [/^see (?:([a-z]+) )?["'“‘](.+)["'”’]$/i, (m) => ({ kind: 'visible', name: m[2] as string, ...(m[1] ? { role: m[1] } : {}) })],
  [/^see (.+)$/i, (m) => ({ kind: 'visible', name: m[1] as string })],
  [new RegExp(`^field ${Q}(.+?)${Q} filled$`, 'i'), (m) => ({ kind: 'field', field: m[1] as string })],
  [new RegExp(`^field ${Q}(.+?)${Q} = ${Q}(.+?)${Q}$`, 'i'), (m) => ({ kind: 'field', field: m[1] as string, value: m[2] as string })],
];

/**
 * Reads the compact form of a check, as a planner writes it: `/pricing` (or `url /pricing`),
 * `see button "Start trial"` (a role, then the name in quotes) or `see Start trial`,
 * `field "Email" filled`, `field Plan = Team`, `said`, `tool subscribe`, `none`. A value for a
 * field named like a secret (password, card, code…) is refused: such a field can only be checked
 * as filled (and `checkPage` never compares a value that looks secret). Returns
 * `{ ok: false, message }` for anything else, saying what to write.
 *
 * @example
 * ```ts
 * parseTodoCheck('see button "Start trial"'); // { ok: true, check: { kind: 'visible', role: 'button', name: 'Start trial' } }
 * parseTodoCheck('looks done'); // { ok: false, message: '"looks done" is no check: write …' }
 * ```
 */
export function parseTodoCheck(text: string): { ok: true; check: TodoCheck } | { ok: false; message: string } {
  const line = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '';
  for (const [form, read] of FORMS) {
    const match = form.exec(line);
    if (!match) continue;
    const object = read(match);
    if (object.value !== undefined && SECRET_FIELD_NAME.test(object.field ?? '')) {
      return { ok: false, message: `a check never holds a secret: write "field ${object.field} filled"` };
    }
    const issues: Array<{ path: string; message: string }> = [];
    const check = readTodoCheck(object, 'check', issues);
    if (check) return { ok: true, check };
    return { ok: false, message: `"${line.slice(0, 40)}": ${issues.map((issue) => issue.message).join('; ')}` };
  }
  return { ok: false, message: `"${line.slice(0, 40)}" is no check: write ${SHAPES}` };
}

/**
 * Reads a check in either form (object or compact text), adding what is wrong to `issues` under
 * `path`: what a planner's answer and a host's `start.checks` go through.
 *
 * @example
 * ```ts
 * const issues: Array<{ path: string; message: string }> = [];
 * readTodoCheckInput('/pricing', 'todos[0].check', issues); // { kind: 'url', pattern: '/pricing' }
 * ```
 */
export function readTodoCheckInput(value: unknown, path: string, issues: Array<{ path: string; message: string }>): TodoCheck | undefined {
  if (typeof value !== 'string') return readTodoCheck(value, path, issues);
  const parsed = parseTodoCheck(value);
  if (!parsed.ok) issues.push({ path, message: parsed.message });
  return parsed.ok ? parsed.check : undefined;
}

/**
 * A check in its compact form, as {@link parseTodoCheck} reads it back.
 *
 * @example
 * ```ts
 * formatTodoCheck({ kind: 'field', field: 'Plan', value: 'Team' }); // 'field "Plan" = "Team"'
 * ```
 */
export function formatTodoCheck(check: TodoCheck): string {
  switch (check.kind) {
    case 'url':
      return check.pattern;
    case 'visible':
      return `see ${check.role ? `${check.role} ` : ''}"${check.name}"`;
    case 'field':
      return check.value === undefined ? `field "${check.field}" filled` : `field "${check.field}" = "${check.value}"`;
    case 'narrated':
      return 'said';
    case 'tool':
      return `tool ${check.name}`;
    default:
      return 'none';
  }
}

/**
 * What is missing when `check` does not hold, in a few words for the model and the reasoning
 * trail: only the check's own words, never the page's.
 *
 * @example
 * ```ts
 * missingEvidence({ kind: 'url', pattern: '/pricing' }); // 'the page is not at /pricing'
 * ```
 */
export function missingEvidence(check: TodoCheck): string {
  switch (check.kind) {
    case 'url':
      return `the page is not at ${check.pattern}`;
    case 'visible':
      return `no ${check.role ?? 'element'} "${clip(check.name, 60)}" is visible`;
    case 'field':
      return check.value === undefined
        ? `field "${clip(check.field, 60)}" is empty`
        : `field "${clip(check.field, 60)}" does not hold "${clip(check.value, 60)}"`;
    case 'narrated':
      return 'nothing was said for it';
    case 'tool':
      return `${check.name} did not succeed for it`;
    default:
      return 'nothing';
  }
}

/**
 * Whether the page address `url` (a path with query and hash, or a whole URL) matches `pattern`, a
 * path where `*` matches anything. The query and the `#hash` of `url` count only when the pattern
 * has them; a trailing `/` does not matter.
 *
 * @example
 * ```ts
 * matchUrl('/docs/*', '/docs/guide#install'); // true
 * matchUrl('/pricing', 'https://example.com/pricing?ref=nav'); // true
 * ```
 */
export function matchUrl(pattern: string, url: string): boolean {
  const want = addressParts(pattern.trim());
  const have = addressParts(url.trim().replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/');
  const trim = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);
  const glob = (wanted: string, actual: string) =>
    new RegExp(
      `^${wanted
        .split('*')
        .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ).test(actual);
  return (
    glob(trim(want.path), trim(have.path || '/')) &&
    (want.query === undefined || glob(want.query, have.query ?? '')) &&
    (want.hash === undefined || glob(want.hash, have.hash ?? ''))
  );
}

function addressParts(text: string): { path: string; query: string | undefined; hash: string | undefined } {
  const hashAt = text.indexOf('#');
  const beforeHash = hashAt < 0 ? text : text.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  return {
    path: queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt),
    query: queryAt < 0 ? undefined : beforeHash.slice(queryAt),
    hash: hashAt < 0 ? undefined : text.slice(hashAt),
  };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
