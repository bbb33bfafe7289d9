/**
 * Every error planloop throws while it works is a {@link PlanloopError} with a stable `code`, so
 * hosts can branch on `error.code` instead of parsing messages. Messages say what failed, on what,
 * and how to fix it. (Set-up mistakes such as `createLLMRouter` without a `default` throw a plain
 * `TypeError`.)
 *
 * This file is the catalogue of planloop's errors, read as one by a host that branches on them:
 * the codes, one constructor shape, the cross-realm brand every class shares (`isPlanloopError`,
 * `isInstance`), and the classes the plan's core throws. The classes only a model call or a tour
 * throws are beside it, so that a page importing `Plan` does not load them at start:
 * `model-errors.ts` (`ProviderError`, `RefusalError`, `PlannerOutputError`, `EditError`,
 * `ConflictError`), `loop/tour-error.ts` (`TourError`) and `graph/errors.ts`.
 */

/**
 * The stable codes carried by {@link PlanloopError}. New codes may be added; existing ones never
 * change meaning. Each code is thrown as one class, always: the subclass whose constructor takes it
 * (`invalid_input` is a `ValidationError`, `timeout` an `AbortError`, …), else `PlanloopError`
 * itself (test/error-codes.test.ts checks every `new XError(code, …)` in src).
 */
export type PlanloopErrorCode =
  /** A todo, markdown doc or other input failed validation. */
  | 'invalid_input'
  /** The planner model's output could not be parsed or validated. */
  | 'planner_output_invalid'
  /** The model stopped at its length limit before finishing its JSON. */
  | 'planner_output_truncated'
  /** A turn envelope from the model could not be parsed or validated. */
  | 'envelope_invalid'
  /** todo_adjust tried to add todos (insert/add/create key, or a replace with a new id). */
  | 'envelope_insert_forbidden'
  /** A model provider failed (HTTP error, network error, malformed stream). */
  | 'provider_error'
  /** The platform lacks something a provider needs (e.g. Chrome's Prompt API). */
  | 'provider_unavailable'
  /** The operation was aborted through an AbortSignal. */
  | 'aborted'
  /** The operation took longer than its timeout. */
  | 'timeout'
  /** The plan has no LLM but a call needs one. */
  | 'no_llm'
  /** A document changed while the model was rewriting it. */
  | 'edit_conflict'
  /** The model declined to edit a document ("I'm sorry, I can't…"). */
  | 'edit_refused'
  /** The model's edit answer was empty, or held an empty document. */
  | 'edit_empty'
  /** The model's edit answer was cut off before its document or its last edit block ended. */
  | 'edit_truncated'
  /** The model's edit answer held no usable document or edits (an explanation, malformed blocks, a fragment). */
  | 'edit_invalid'
  /** An edit block's SEARCH text does not occur in the document. */
  | 'edit_anchor_missing'
  /** An edit block's SEARCH text occurs more than once in the document. */
  | 'edit_anchor_ambiguous'
  /** A stored snapshot is corrupt or failed validation, or a save failed. */
  | 'storage_error'
  /** A host set-up clashes with planloop (tool name, state field). */
  | 'config_conflict'
  /** A tool-call graph failed validation. */
  | 'graph_invalid'
  /** A tool-call graph tried to write a state path twice. */
  | 'state_write_once'
  /** A tool in a tool-call graph failed and the call declared no error path. */
  | 'tool_failed'
  /** The host rejected a plan in an approval hook. */
  | 'plan_rejected'
  /** A run or loop exceeded its turn bound. */
  | 'turn_limit'
  /** A turn loop is already running on this plan. */
  | 'run_in_progress'
  /** An id counter reached the largest safe number: no unique id is left to hand out. */
  | 'id_space_exhausted'
  /** A model's answer grew past the limit set for it (characters) and was cut short. */
  | 'output_too_long'
  /** The model (or its provider's safety system) declined to answer: see {@link RefusalError}. */
  | 'model_refused'
  /** A recorded tour failed validation (`TourError.issues` has the path of each problem); nothing ran. */
  | 'tour_invalid'
  /** A replayed tour stopped at a step it could not do and no model was there to repair it (`TourError.step`). */
  | 'tour_step_failed';

/** Options shared by every planloop error: the error that caused it. */
export interface PlanloopErrorOptions {
  cause?: unknown;
}

/** The brand every planloop error carries, shared across realms (iframes, workers, vm contexts). */
const ERROR_BRAND: unique symbol = Symbol.for('planloop.error') as never;

/** What {@link PlanloopError.isInstance} reads on a class: its own cross-realm brand. */
interface BrandedClass {
  readonly brand?: symbol;
}

/** Marks `error` with the brand of `target` and of each planloop class it extends. */
// biome-ignore lint/complexity/noBannedTypes: any class constructor, abstract ones included
function brandError(error: object, target: Function): void {
  for (let current: unknown = target; typeof current === 'function' && current !== Error; current = Object.getPrototypeOf(current)) {
    const own = Object.hasOwn(current, 'brand') ? (current as BrandedClass).brand : undefined;
    if (own && !Object.hasOwn(error, own)) Object.defineProperty(error, own, { value: true });
  }
}

/**
 * Whether `value` is a planloop error (of `code`, when given). Works across realms: an error
 * thrown by planloop in an iframe, a worker or another copy of the package is recognised, where
 * `instanceof` is not (it reads a `Symbol.for('planloop.error')` brand, not the prototype).
 *
 * @example
 * ```ts
 * try { await plan.makeTodos({ task }); }
 * catch (error) { if (!isPlanloopError(error, 'aborted')) throw error; }
 * ```
 */
export function isPlanloopError<C extends PlanloopErrorCode = PlanloopErrorCode>(value: unknown, code?: C): value is PlanloopError & { readonly code: C } {
  if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[ERROR_BRAND] !== true) return false;
  return code === undefined || (value as { code?: unknown }).code === code;
}

/**
 * Base class of every error planloop throws. Every planloop error is built the same way:
 * `new XError(code, message, options)`, with `cause` and the class's details in `options`; a
 * class that can word its message itself takes `undefined` for it. Check one with
 * {@link isPlanloopError} or `XError.isInstance(error)` (both work across realms), or `instanceof`.
 *
 * @example
 * ```ts
 * try { plan.todos.create({ intent: 'narrate', description: '' }); }
 * catch (error) {
 *   if (isPlanloopError(error, 'invalid_input')) console.warn(error.message);
 * }
 * ```
 */
export class PlanloopError extends Error {
  /** This class's cross-realm brand: set on every instance of it and of its subclasses. */
  protected static readonly brand: symbol = ERROR_BRAND;

  readonly code: PlanloopErrorCode;

  constructor(code: PlanloopErrorCode, message: string, options: PlanloopErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    brandError(this, new.target);
  }

  /**
   * Whether `value` is an instance of this class (or a subclass), also when it comes from another
   * realm or another copy of planloop: `ProviderError.isInstance(error)`.
   *
   * @example
   * ```ts
   * declare const error: unknown;
   * declare function retryLater(afterMs: number | undefined): void;
   * if (ProviderError.isInstance(error) && error.retryable) retryLater(error.retryAfterMs);
   * ```
   */
  static isInstance<T extends abstract new (...args: never[]) => PlanloopError>(this: T, value: unknown): value is InstanceType<T> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass isInstance was called on (EnvelopeError.isInstance checks EnvelopeError's brand)
    const brand = (this as unknown as BrandedClass).brand ?? ERROR_BRAND;
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}

/**
 * The brand of the planloop error class called `name`, the same in every realm: what a subclass
 * sets as its static `brand`, for `isInstance`.
 *
 * @example
 * ```ts
 * class MyError extends PlanloopError {
 *   protected static override readonly brand: symbol = brandOf('MyError');
 * }
 * ```
 */
export function brandOf(name: string): symbol {
  return Symbol.for(`planloop.error.${name}`);
}

/** One problem found by validation: a path such as `todos[2].status` and what is wrong there. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** What a {@link ValidationError} is built from. */
export interface ValidationErrorOptions extends PlanloopErrorOptions {
  /** Every problem found, with its path. Default `[]`. */
  issues?: readonly ValidationIssue[] | undefined;
}

/**
 * Input failed validation. `issues` lists every problem with its path (`[2].description`).
 *
 * @example
 * ```ts
 * try { plan.todos.createMany([{ intent: 'narrate', description: 'ok' }, { intent: '', description: 'x' }]); }
 * catch (error) { if (ValidationError.isInstance(error)) console.log(error.issues[0]?.path); } // "[1].intent"
 * ```
 */
export class ValidationError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('ValidationError');

  readonly issues: readonly ValidationIssue[];

  constructor(code: 'invalid_input', message: string, options: ValidationErrorOptions = {}) {
    super(code, message, options);
    this.issues = options.issues ?? [];
  }
}

/** What a `PlannerOutputError`, an {@link EnvelopeError} or an `EditError` is built from. */
export interface ModelOutputErrorOptions extends PlanloopErrorOptions {
  /** The model's text. Default `''`. */
  raw?: string | undefined;
  /** What was wrong with it, with paths. Default `[]`. */
  issues?: readonly ValidationIssue[] | undefined;
}

/**
 * A turn envelope from the model was malformed. `message` is written to be fed back to the model
 * verbatim; `raw` keeps the text.
 *
 * @example
 * ```ts
 * declare const text: string; // the model's reply
 * const result = safeParseTurnEnvelope(text);
 * if (!result.success) messages.push({ role: 'user', content: result.error.message });
 * ```
 */
export class EnvelopeError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('EnvelopeError');

  readonly raw: string;
  readonly issues: readonly ValidationIssue[];

  constructor(code: 'envelope_invalid' | 'envelope_insert_forbidden', message: string, options: ModelOutputErrorOptions = {}) {
    super(code, message, options);
    this.raw = options.raw ?? '';
    this.issues = options.issues ?? [];
  }
}

/**
 * The operation was aborted (code `aborted`) or timed out (code `timeout`). Nothing was changed.
 * Built with `message` `undefined`, it says "The operation was aborted." (or "timed out.").
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const pending = plan.makeTodos({ task }, { signal: controller.signal });
 * controller.abort();
 * await pending.catch((error) => error.code); // 'aborted'
 * ```
 */
export class AbortError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('AbortError');

  constructor(code: 'aborted' | 'timeout', message?: string | undefined, options?: PlanloopErrorOptions) {
    super(code, message ?? (code === 'timeout' ? 'The operation timed out.' : 'The operation was aborted.'), options);
  }
}

/**
 * Why a storage operation failed, when the adapter can tell (`StorageError.reason`):
 * - `blocked`: IndexedDB did not open in time (another tab holds an older version open, or an
 *   upgrade is pending); the adapter keeps trying and a later save can succeed;
 * - `quota`: the browser refused the write because the origin's storage is full;
 * - `unavailable`: this storage does not exist here (private mode, an old browser, a server);
 * - `corrupt`: the stored data cannot be read (not JSON, a missing part); `raw` holds what was found;
 * - `backup_failed`: unreadable stored data could not be copied aside; it is still under its key,
 *   and must not be written over until the host decides (`raw` holds it);
 * - `conflict`: the stored plan has changes (from another tab) that the snapshot being saved has
 *   not merged; nothing was written: load, merge, and save again.
 */
export type StorageErrorReason = 'blocked' | 'quota' | 'unavailable' | 'corrupt' | 'backup_failed' | 'conflict';

/** What a {@link StorageError} is built from. */
export interface StorageErrorOptions extends PlanloopErrorOptions {
  /** What failed: loading or saving. */
  operation: 'load' | 'save';
  /** Unusable stored data, kept so that nothing is lost. */
  raw?: unknown;
  /** Why it failed, when the adapter knows. */
  reason?: StorageErrorReason | undefined;
}

/**
 * Loading or saving a snapshot failed. `raw` keeps unusable stored data so that nothing is lost;
 * `reason` says why, when the adapter knows. An adapter that refuses a write it has not merged
 * throws one with `reason: 'conflict'`.
 *
 * @example
 * ```ts
 * throw new StorageError('storage_error', 'The stored plan changed in another tab.', { operation: 'save', reason: 'conflict' });
 * // and where the plan reports it:
 * plan.on('storage-error', ({ error }) => console.warn(error.operation, error.reason, error.message));
 * ```
 */
export class StorageError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('StorageError');

  readonly operation: 'load' | 'save';
  readonly raw: unknown;
  /** Why it failed, when known; `undefined` for failures the adapter cannot classify. */
  readonly reason: StorageErrorReason | undefined;

  constructor(code: 'storage_error', message: string, options: StorageErrorOptions) {
    super(code, message, options);
    this.operation = options.operation;
    this.raw = options.raw;
    this.reason = options.reason;
  }
}

/**
 * `error` as a {@link StorageError} of `operation`, keeping it when it is one already.
 *
 * @example
 * ```ts
 * try { localStorage.setItem('plan', '{}'); }
 * catch (caught) { throw asStorageError('save', caught); }
 * ```
 */
export function asStorageError(operation: 'load' | 'save', error: unknown): StorageError {
  if (StorageError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StorageError('storage_error', `${operation === 'load' ? 'Loading' : 'Saving'} the plan failed: ${message}`, { operation, cause: error });
}

/** Renders a zod-style path (`['todos', 2, 'status']`) as `todos[2].status`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * Reports an error that must not stop what caused it (a throwing listener or host callback): the
 * browser's `reportError` (console and `window.onerror`), else `console.error`.
 *
 * @example
 * ```ts
 * declare const listener: (payload: unknown) => void;
 * try { listener({ state: plan.state }); } catch (error) { reportError(error); }
 * ```
 */
export function reportError(error: unknown): void {
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
  if (typeof report === 'function') report(error);
  else console.error('[planloop] a listener or callback threw:', error);
}
