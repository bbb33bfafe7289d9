import { ValidationError } from '../errors.js';
import { StateWriteOnceError } from './errors.js';
import { readPath, UNSAFE_SEGMENTS } from './reference.js';

type Container = Record<string, unknown>;

/**
 * The write-once State a tool-call graph reads and writes: a tree of values addressed by dot
 * paths (`flights.0.price`, or `['flights', '0', 'price']`).
 *
 * A path, once written, cannot be written again, nor can anything inside it or around it: after
 * `set('user', {...})`, writing `user.name` fails, and after `set('user.name', 'A')` writing `user`
 * fails, while `user.email` is still free. Every top-level key of `initial` counts as written.
 * Reads use own properties only; `__proto__`, `constructor` and `prototype` are refused.
 * Values are stored as given (not copied); {@link GraphState.snapshot} returns a deep copy.
 *
 * @example
 * ```ts
 * const state = new GraphState();
 * state.set('language', 'fr');
 * state.get('language');     // 'fr'
 * state.set('language', 'en'); // throws StateWriteOnceError (code 'state_write_once')
 * ```
 */
export class GraphState {
  readonly #root: Container = Object.create(null) as Container;
  /** Objects the store created to hold deeper writes; everything else in the tree was written. */
  readonly #implicit = new WeakSet<object>([this.#root]);

  constructor(initial: Record<string, unknown> = {}) {
    for (const key of Object.keys(initial)) this.set([key], initial[key]);
  }

  /** Whether a value exists at `path` (written there, or inside or around a written value). */
  has(path: string | readonly string[]): boolean {
    return readPath(this.#root, toSegments(path)).found;
  }

  /** The value at `path`, or `undefined` when there is none. */
  get(path: string | readonly string[]): unknown {
    return readPath(this.#root, toSegments(path)).value;
  }

  /** Whether `path` can be written: nothing at it, above it or below it holds a value yet. */
  canWrite(path: string | readonly string[]): boolean {
    return this.#conflict(toSegments(path)) === null;
  }

  /**
   * Writes `value` at `path`; throws {@link StateWriteOnceError} when the path (or a path
   * around it) holds a value already. `undefined` is stored as `null`, so that the path exists.
   */
  set(path: string | readonly string[], value: unknown): void {
    const segments = toSegments(path);
    const conflict = this.#conflict(segments);
    if (conflict !== null) throw new StateWriteOnceError('state_write_once', undefined, { path: `state.${segments.join('.')}`, detail: conflict });
    let node = this.#root;
    for (const segment of segments.slice(0, -1)) {
      if (!Object.hasOwn(node, segment)) {
        const child = Object.create(null) as Container;
        this.#implicit.add(child);
        node[segment] = child;
      }
      node = node[segment] as Container;
    }
    node[segments.at(-1)!] = value === undefined ? null : value;
  }

  /** A deep copy of the whole state as a plain object. */
  snapshot(): Record<string, unknown> {
    return copy(this.#root) as Record<string, unknown>;
  }

  #conflict(segments: readonly string[]): string | null {
    let node: unknown = this.#root;
    for (const [i, segment] of segments.entries()) {
      const container = node as Container;
      if (!Object.hasOwn(container, segment)) return null;
      node = container[segment];
      const here = `state.${segments.slice(0, i + 1).join('.')}`;
      if (i === segments.length - 1) {
        return this.#implicit.has(node as object) ? `values inside ${here} were already written` : `${here} already holds a value`;
      }
      if (node === null || typeof node !== 'object' || !this.#implicit.has(node)) return `${here} already holds a value`;
    }
    return null;
  }
}

function toSegments(path: string | readonly string[]): readonly string[] {
  const segments = typeof path === 'string' ? path.split('.') : path;
  if (segments.length === 0 || segments.some((segment) => segment === '' || UNSAFE_SEGMENTS.has(segment))) {
    throw new ValidationError(
      'invalid_input',
      `The state path "${segments.join('.')}" is not allowed: use non-empty dot-separated segments other than __proto__, constructor and prototype.`,
      { issues: [{ path: segments.join('.'), message: 'must be non-empty segments other than __proto__, constructor and prototype' }] },
    );
  }
  return segments;
}

/**
 * Deep copy of plain data; values structuredClone cannot copy (functions, class instances with them)
 * are kept as they are. A value met twice is copied once, so shared and cyclic data (a tool output
 * with a back-reference) keeps its shape instead of recursing without end.
 */
function copy(value: unknown, seen = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    seen.set(value, out);
    value.forEach((item, index) => {
      out[index] = copy(item, seen);
    });
    return out;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== null && prototype !== Object.prototype) {
    let cloned: unknown;
    try {
      cloned = structuredClone(value);
    } catch {
      cloned = value;
    }
    seen.set(value, cloned);
    return cloned;
  }
  const out: Container = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    // defineProperty, not assignment, so a `__proto__` key in tool output stays plain data.
    Object.defineProperty(out, key, { value: copy((value as Container)[key], seen), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
