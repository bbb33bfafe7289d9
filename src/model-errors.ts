/*
 * The errors of a model call and of what it produced: the provider failed (`ProviderError`), the
 * model declined (`RefusalError`), the planner's or the editor's answer was unusable
 * (`PlannerOutputError`, `EditError`), or a document changed while the model rewrote it
 * (`ConflictError`). Part of the catalogue in `errors.ts` (the codes, the base class, the brand),
 * in a file of their own because only the code that calls a model throws them: a page that
 * imports `Plan` loads them with the planner, not at start.
 */
import { brandOf, PlanloopError, type ModelOutputErrorOptions, type PlanloopErrorOptions, type ValidationIssue } from './errors.js';

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
