/**
 * Every error planloop throws while it works is a {@link PlanloopError} with a stable `code`, so
 * hosts can branch on `error.code` instead of parsing messages. Messages say what failed, on what,
 * and how to fix it. (Set-up mistakes such as `createLLMRouter` without a `default` throw a plain
 * `TypeError`.)
 */

/** The stable codes carried by {@link PlanloopError}. New codes may be added; existing ones never change meaning. */
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
  | 'model_refused';

/** Options shared by every planloop error. */
export interface PlanloopErrorOptions {
  cause?: unknown;
}

/**
 * Base class of every error planloop throws.
 *
 * @example
 * ```ts
 * try { plan.todos.create({ intent: 'narrate', description: '' }); }
 * catch (error) {
 *   if (error instanceof PlanloopError && error.code === 'invalid_input') console.warn(error.message);
 * }
 * ```
 */
export class PlanloopError extends Error {
  readonly code: PlanloopErrorCode;

  constructor(code: PlanloopErrorCode, message: string, options: PlanloopErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}

/** One problem found by validation: a path such as `todos[2].status` and what is wrong there. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/**
 * Input failed validation. `issues` lists every problem with its path (`[2].description`).
 *
 * @example
 * ```ts
 * try { plan.todos.createMany([{ intent: 'narrate', description: 'ok' }, { intent: '', description: 'x' }]); }
 * catch (error) { if (error instanceof ValidationError) console.log(error.issues[0]?.path); } // "[1].intent"
 * ```
 */
export class ValidationError extends PlanloopError {
  readonly issues: readonly ValidationIssue[];

  constructor(message: string, issues: readonly ValidationIssue[], options: PlanloopErrorOptions = {}) {
    super('invalid_input', message, options);
    this.issues = issues;
  }
}

/**
 * The planner's (or another structured call's) model output was unusable, after retries.
 * Keeps the raw text so hosts can log it.
 *
 * @example
 * ```ts
 * try { await plan.makeTodos({ task: 'Tour pricing' }); }
 * catch (error) { if (error instanceof PlannerOutputError) console.log(error.code, error.raw); }
 * ```
 */
export class PlannerOutputError extends PlanloopError {
  readonly raw: string;
  readonly issues: readonly ValidationIssue[];

  constructor(
    code: 'planner_output_invalid' | 'planner_output_truncated',
    message: string,
    details: { raw: string; issues?: readonly ValidationIssue[] },
    options: PlanloopErrorOptions = {},
  ) {
    super(code, message, options);
    this.raw = details.raw;
    this.issues = details.issues ?? [];
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
  readonly raw: string;
  readonly issues: readonly ValidationIssue[];

  constructor(
    code: 'envelope_invalid' | 'envelope_insert_forbidden',
    message: string,
    details: { raw?: string; issues?: readonly ValidationIssue[] } = {},
    options: PlanloopErrorOptions = {},
  ) {
    super(code, message, options);
    this.raw = details.raw ?? '';
    this.issues = details.issues ?? [];
  }
}

/**
 * A model provider failed. `status` is the HTTP status when there was one, `body` an excerpt of
 * the response, and `retryable` says whether trying again can help (429 and 5xx, network errors).
 *
 * @example
 * ```ts
 * declare function scheduleRetry(afterMs: number | undefined): void;
 * try { await provider.generate(request); }
 * catch (error) { if (error instanceof ProviderError && error.retryable) scheduleRetry(error.retryAfterMs); }
 * ```
 */
export class ProviderError extends PlanloopError {
  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly retryable: boolean;
  /** Milliseconds the server asked us to wait (from `Retry-After`), when it said. */
  readonly retryAfterMs: number | undefined;
  readonly provider: string;

  constructor(
    message: string,
    details: { provider: string; status?: number; body?: string; retryable: boolean; retryAfterMs?: number },
    options: PlanloopErrorOptions & { code?: 'provider_error' | 'provider_unavailable' } = {},
  ) {
    super(options.code ?? 'provider_error', message, options);
    this.provider = details.provider;
    this.status = details.status;
    this.body = details.body;
    this.retryable = details.retryable;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/**
 * The model declined to answer (code `model_refused`): whichever provider said so (Anthropic's
 * `stop_reason: "refusal"`, OpenAI's `refusal` or `content_filter`, the AI SDK's `content-filter`),
 * this is what `makeTodos` and `runWebAgent` throw, with the model's words in `refusal` (the API's
 * own explanation when the model wrote none; `''` when there is neither). Nothing was changed.
 * Asking the same again rarely helps, so nothing retries it. `editWithInstruction` reports the
 * same as its own `EditError` `edit_refused` (words in `raw`, this error as `cause`):
 * {@link refusalOf} reads both.
 *
 * @example
 * ```ts
 * try { await plan.makeTodos({ task }); }
 * catch (error) { if (error instanceof RefusalError) console.log(`The model declined: ${error.refusal}`); }
 * ```
 */
export class RefusalError extends PlanloopError {
  /** The model's words declining (or the API's explanation); `''` when it gave none. */
  readonly refusal: string;
  /** Any text the model wrote before it stopped. */
  readonly text: string;
  /** The provider's `name`, when it has one. */
  readonly provider: string | undefined;

  constructor(details: { refusal: string; text?: string; provider?: string | undefined }, options: PlanloopErrorOptions = {}) {
    const who = details.provider ? `The model (${details.provider})` : 'The model';
    const words = details.refusal.trim();
    super('model_refused', `${who} declined to answer${words ? `: ${words.slice(0, 300)}` : ' (it gave no reason)'}. Nothing was changed; rephrase the request or use another model.`, options);
    this.refusal = details.refusal;
    this.text = details.text ?? '';
    this.provider = details.provider;
  }
}

/**
 * The model's words when `error` says the model declined (a {@link RefusalError}, or an edit's
 * `EditError` with code `edit_refused`), else `undefined`: one check for a guide that says "the
 * model declined" instead of showing an error.
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
  if (error instanceof RefusalError) return error.refusal;
  if (error instanceof EditError && error.code === 'edit_refused') return error.raw;
  return undefined;
}

/**
 * The operation was aborted (code `aborted`) or timed out (code `timeout`). Nothing was changed.
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
  constructor(message = 'The operation was aborted.', options: PlanloopErrorOptions & { code?: 'aborted' | 'timeout' } = {}) {
    super(options.code ?? 'aborted', message, options);
  }
}

/**
 * A document was edited or deleted while the model was rewriting it; the newer document was kept.
 *
 * @example
 * ```ts
 * declare function reloadEditor(id: string): void;
 * try { plan.markdown.edit('m1', { content: 'New text' }); }
 * catch (error) { if (error instanceof ConflictError) reloadEditor(error.id); }
 * ```
 */
export class ConflictError extends PlanloopError {
  readonly id: string;
  /** Where the two versions overlapped, when a merge was tried (`line` is 1-based in the current text). */
  readonly conflicts: ReadonlyArray<{ field: 'title' | 'content'; line?: number }>;
  /** The model's version, which was not stored: to show the user, or to apply by hand. */
  readonly proposed: { readonly title: string; readonly content: string } | undefined;

  constructor(
    id: string,
    message: string,
    conflicts: ReadonlyArray<{ field: 'title' | 'content'; line?: number }> = [],
    proposed?: { title: string; content: string },
  ) {
    super('edit_conflict', message);
    this.id = id;
    this.conflicts = conflicts;
    this.proposed = proposed;
  }
}

/** The codes of {@link EditError}. */
export type EditErrorCode = 'edit_refused' | 'edit_empty' | 'edit_truncated' | 'edit_invalid' | 'edit_anchor_missing' | 'edit_anchor_ambiguous';

/**
 * The model's answer to an edit instruction was unusable, after retries; the document is unchanged.
 * Keeps the raw text of the last answer and, when known, the provider's name.
 *
 * @example
 * ```ts
 * try { await plan.markdown.editWithInstruction('m1', 'Shorten the intro.'); }
 * catch (error) { if (error instanceof EditError && error.code === 'edit_refused') console.log(error.raw); }
 * ```
 */
export class EditError extends PlanloopError {
  declare readonly code: EditErrorCode;
  readonly raw: string;
  readonly issues: readonly ValidationIssue[];
  /** The provider's `name`, when it has one. */
  readonly provider: string | undefined;

  constructor(
    code: EditErrorCode,
    message: string,
    details: { raw: string; issues?: readonly ValidationIssue[]; provider?: string | undefined },
    options: PlanloopErrorOptions = {},
  ) {
    super(code, message, options);
    this.raw = details.raw;
    this.issues = details.issues ?? [];
    this.provider = details.provider;
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

/**
 * Loading or saving a snapshot failed. `raw` keeps unusable stored data so that nothing is lost;
 * `reason` says why, when the adapter knows.
 *
 * @example
 * ```ts
 * plan.on('storage-error', ({ error }) => console.warn(error.operation, error.reason, error.message));
 * ```
 */
export class StorageError extends PlanloopError {
  readonly operation: 'load' | 'save';
  readonly raw: unknown;
  /** Why it failed, when known; `undefined` for failures the adapter cannot classify. */
  readonly reason: StorageErrorReason | undefined;

  constructor(
    operation: 'load' | 'save',
    message: string,
    details: { raw?: unknown; reason?: StorageErrorReason } = {},
    options: PlanloopErrorOptions = {},
  ) {
    super('storage_error', message, options);
    this.operation = operation;
    this.raw = details.raw;
    this.reason = details.reason;
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
  if (error instanceof StorageError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StorageError(operation, `${operation === 'load' ? 'Loading' : 'Saving'} the plan failed: ${message}`, {}, { cause: error });
}

/** Throws an {@link AbortError} when `signal` is aborted (keeping a timeout's `timeout` code). */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw toAbortError(signal.reason);
}

/**
 * Turns whatever an aborted signal carries into an {@link AbortError}.
 *
 * @example
 * ```ts
 * await new Promise<void>((resolve, reject) => {
 *   signal.addEventListener('abort', () => reject(toAbortError(signal.reason)));
 * });
 * ```
 */
export function toAbortError(reason: unknown): AbortError {
  if (reason instanceof AbortError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new AbortError('The operation timed out.', { code: 'timeout', cause: reason });
  }
  return new AbortError('The operation was aborted.', { cause: reason });
}

/**
 * Settles with `promise`, or rejects with an {@link AbortError} as soon as `signal` aborts, even
 * if the promise never settles (a stalled stream, a host callback waiting on the user).
 *
 * @example
 * ```ts
 * const iterator = provider.stream!(request)[Symbol.asyncIterator]();
 * const next = await untilAborted(iterator.next(), signal);
 * ```
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(toAbortError(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(toAbortError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
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
