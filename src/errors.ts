/**
 * Every error planloop throws while it works is a {@link PlanloopError} with a stable `code`, so
 * hosts can branch on `error.code` instead of parsing messages. Messages say what failed, on what,
 * and how to fix it. (Set-up mistakes such as `createLLMRouter` without a `default` throw a plain
 * `TypeError`.)
 *
 * Why one file of ~600 lines: it is the catalogue of planloop's errors, read as one by a host that
 * branches on them: the codes, one constructor shape, and the cross-realm brand every class shares
 * (`isPlanloopError`, `isInstance`).
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

/** The brand of the planloop error class called `name`, the same in every realm. */
function brandOf(name: string): symbol {
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

/** What a {@link PlannerOutputError}, an {@link EnvelopeError} or an {@link EditError} is built from. */
export interface ModelOutputErrorOptions extends PlanloopErrorOptions {
  /** The model's text. Default `''`. */
  raw?: string | undefined;
  /** What was wrong with it, with paths. Default `[]`. */
  issues?: readonly ValidationIssue[] | undefined;
}

/**
 * The planner's (or another structured call's) model output was unusable, after retries.
 * Keeps the raw text so hosts can log it.
 *
 * @example
 * ```ts
 * try { await plan.makeTodos({ task: 'Tour pricing' }); }
 * catch (error) { if (PlannerOutputError.isInstance(error)) console.log(error.code, error.raw); }
 * ```
 */
export class PlannerOutputError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('PlannerOutputError');

  readonly raw: string;
  readonly issues: readonly ValidationIssue[];

  constructor(code: 'planner_output_invalid' | 'planner_output_truncated', message: string, options: ModelOutputErrorOptions = {}) {
    super(code, message, options);
    this.raw = options.raw ?? '';
    this.issues = options.issues ?? [];
  }
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

/** What a {@link ProviderError} is built from. */
export interface ProviderErrorOptions extends PlanloopErrorOptions {
  /** The provider's `name`. */
  provider: string;
  /** The HTTP status, when there was one. */
  status?: number | undefined;
  /** An excerpt of the response body. */
  body?: string | undefined;
  /** Whether trying again can help (429 and 5xx, network errors). */
  retryable: boolean;
  /** Milliseconds the server asked us to wait (from `Retry-After`), when it said. */
  retryAfterMs?: number | undefined;
}

/**
 * A model provider failed (code `provider_error`, or `provider_unavailable` when the platform
 * lacks what the provider needs). `status` is the HTTP status when there was one, `body` an
 * excerpt of the response, and `retryable` says whether trying again can help (429 and 5xx,
 * network errors).
 *
 * @example
 * ```ts
 * declare function scheduleRetry(afterMs: number | undefined): void;
 * try { await provider.generate(request); }
 * catch (error) { if (ProviderError.isInstance(error) && error.retryable) scheduleRetry(error.retryAfterMs); }
 * ```
 */
export class ProviderError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('ProviderError');

  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly retryable: boolean;
  /** Milliseconds the server asked us to wait (from `Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;
  readonly provider: string;

  constructor(code: 'provider_error' | 'provider_unavailable', message: string, options: ProviderErrorOptions) {
    super(code, message, options);
    this.provider = options.provider;
    this.status = options.status;
    this.body = options.body;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** What a {@link RefusalError} is built from. */
export interface RefusalErrorOptions extends PlanloopErrorOptions {
  /** The model's words declining (or the API's explanation); `''` when it gave none. */
  refusal: string;
  /** Any text the model wrote before it stopped. Default `''`. */
  text?: string | undefined;
  /** The provider's `name`, when it has one. */
  provider?: string | undefined;
}

/**
 * The model declined to answer (code `model_refused`): whichever provider said so (Anthropic's
 * `stop_reason: "refusal"`, OpenAI's `refusal` or `content_filter`, the AI SDK's `content-filter`),
 * this is what `makeTodos` and `runWebAgent` throw, with the model's words in `refusal` (the API's
 * own explanation when the model wrote none; `''` when there is neither). Nothing was changed.
 * Asking the same again rarely helps, so nothing retries it. `editWithInstruction` reports the
 * same as its own `EditError` `edit_refused` (words in `raw`, this error as `cause`):
 * {@link refusalOf} reads both. Built with `message` `undefined`, it words its message itself.
 *
 * @example
 * ```ts
 * try { await plan.makeTodos({ task }); }
 * catch (error) { if (RefusalError.isInstance(error)) console.log(`The model declined: ${error.refusal}`); }
 * ```
 */
export class RefusalError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('RefusalError');

  /** The model's words declining (or the API's explanation); `''` when it gave none. */
  readonly refusal: string;
  /** Any text the model wrote before it stopped. */
  readonly text: string;
  /** The provider's `name`, when it has one. */
  readonly provider: string | undefined;

  constructor(code: 'model_refused', message: string | undefined, options: RefusalErrorOptions) {
    const who = options.provider ? `The model (${options.provider})` : 'The model';
    const words = options.refusal.trim();
    super(
      code,
      message ??
        `${who} declined to answer${words ? `: ${words.slice(0, 300)}` : ' (it gave no reason)'}. Nothing was changed; rephrase the request or use another model.`,
      options,
    );
    this.refusal = options.refusal;
    this.text = options.text ?? '';
    this.provider = options.provider;
  }
}

/**
 * The model's words when `error` says the model declined (a {@link RefusalError}, or an edit's
 * `EditError` with code `edit_refused`), else `undefined`: one check for a guide that says "the
 * model declined" instead of showing an error. Works across realms.
 *
 * @example
 * ```ts
 * try { await plan.makeTodos({ task }); }
 * catch (error) {
 *   const words = refusalOf(error);
 *   if (words !== undefined) console.log(`The model declined${words ? `: ${words}` : '.'}`);
 * }
 * ```
 */
export function refusalOf(error: unknown): string | undefined {
  if (RefusalError.isInstance(error)) return error.refusal;
  if (EditError.isInstance(error) && error.code === 'edit_refused') return error.raw;
  return undefined;
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

/** What a {@link ConflictError} is built from. */
export interface ConflictErrorOptions extends PlanloopErrorOptions {
  /** The document's id. */
  id: string;
  /** Where the two versions overlapped, when a merge was tried. Default `[]`. */
  conflicts?: ReadonlyArray<{ field: 'title' | 'content'; line?: number }> | undefined;
  /** The model's version, which was not stored. */
  proposed?: { title: string; content: string } | undefined;
}

/**
 * A document was edited or deleted while the model was rewriting it; the newer document was kept.
 *
 * @example
 * ```ts
 * declare function reloadEditor(id: string): void;
 * try { plan.markdown.edit('m1', { content: 'New text' }); }
 * catch (error) { if (ConflictError.isInstance(error)) reloadEditor(error.id); }
 * ```
 */
export class ConflictError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('ConflictError');

  readonly id: string;
  /** Where the two versions overlapped, when a merge was tried (`line` is 1-based in the current text). */
  readonly conflicts: ReadonlyArray<{ field: 'title' | 'content'; line?: number }>;
  /** The model's version, which was not stored: to show the user, or to apply by hand. */
  readonly proposed: { readonly title: string; readonly content: string } | undefined;

  constructor(code: 'edit_conflict', message: string, options: ConflictErrorOptions) {
    super(code, message, options);
    this.id = options.id;
    this.conflicts = options.conflicts ?? [];
    this.proposed = options.proposed;
  }
}

/** The codes of {@link EditError}. */
export type EditErrorCode = 'edit_refused' | 'edit_empty' | 'edit_truncated' | 'edit_invalid' | 'edit_anchor_missing' | 'edit_anchor_ambiguous';

/** What an {@link EditError} is built from. */
export interface EditErrorOptions extends ModelOutputErrorOptions {
  /** The provider's `name`, when it has one. */
  provider?: string | undefined;
}

/**
 * The model's answer to an edit instruction was unusable, after retries; the document is unchanged.
 * Keeps the raw text of the last answer and, when known, the provider's name.
 *
 * @example
 * ```ts
 * try { await plan.markdown.editWithInstruction('m1', 'Shorten the intro.'); }
 * catch (error) { if (EditError.isInstance(error) && error.code === 'edit_refused') console.log(error.raw); }
 * ```
 */
export class EditError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('EditError');

  declare readonly code: EditErrorCode;
  readonly raw: string;
  readonly issues: readonly ValidationIssue[];
  /** The provider's `name`, when it has one. */
  readonly provider: string | undefined;

  constructor(code: EditErrorCode, message: string, options: EditErrorOptions = {}) {
    super(code, message, options);
    this.raw = options.raw ?? '';
    this.issues = options.issues ?? [];
    this.provider = options.provider;
  }
}

/** Why a replayed step could not be done: its target is gone or ambiguous, its todo's check failed, or the user refused it. */
export type TourStepFailure = 'not-found' | 'ambiguous' | 'check-failed' | 'refused';

/** What a {@link TourError} is built from. */
export interface TourErrorOptions extends PlanloopErrorOptions {
  /** `tour_invalid`: every problem found, with its path (`todos[2].steps[0].target.role`). Default `[]`. */
  issues?: readonly ValidationIssue[] | undefined;
  /** `tour_step_failed`: the step, by its todo's id in the tour and its index among the todo's steps, and why. */
  step?: { readonly todoId: string; readonly index: number; readonly reason: TourStepFailure } | undefined;
}

/**
 * A recorded tour that cannot be used: `tour_invalid` before anything ran (a malformed or
 * oversized tour, a URL the tools must never open; `issues[0].path` is the first problem), or
 * `tour_step_failed` when a replay without a model reached a step it cannot do (`step` says which
 * and why; the todos played before it stay done).
 *
 * @example
 * ```ts
 * declare const stored: string;
 * declare const locators: TourLocators;
 * try { await replayTour(parseTour(stored), { plan, tools, page: { locators } }); }
 * catch (error) { if (TourError.isInstance(error)) console.log(error.code, error.issues[0]?.path ?? error.step); }
 * ```
 */
export class TourError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('TourError');

  declare readonly code: 'tour_invalid' | 'tour_step_failed';
  readonly issues: readonly ValidationIssue[];
  readonly step: TourErrorOptions['step'];

  constructor(code: 'tour_invalid' | 'tour_step_failed', message: string, options: TourErrorOptions = {}) {
    super(code, message, options);
    this.issues = options.issues ?? [];
    this.step = options.step;
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
