import { z } from 'zod/mini';
import { TypedEmitter, type Unsubscribe } from '../emitter.js';
import { ConflictError, PlanloopError, ValidationError, type ValidationIssue } from '../errors.js';
import { formatIssues, parseOrThrow, toIssues } from '../validation.js';
import { IdSequence } from './id-sequence.js';

/**
 * A markdown document the model can edit on instruction.
 *
 * @example
 * ```ts
 * const doc: MarkdownDoc = { id: 'm1', title: 'Notes', content: '# Pricing\n', updatedAt: Date.now() };
 * ```
 */
export interface MarkdownDoc {
  /** `m1`, `m2`, … assigned on create; never reused within a plan. */
  id: string;
  title: string;
  content: string;
  /** Milliseconds since the epoch, set on create and on every edit; strictly increasing. */
  updatedAt: number;
}

/** What `markdown.create` takes. */
export interface MarkdownInput {
  title: string;
  content: string;
}

/** What `markdown.edit` takes. */
export interface MarkdownPatch {
  title?: string;
  content?: string;
}

/** The zod schema of a stored document. */
export const MarkdownDocSchema = z.object({
  id: z.string().check(z.minLength(1)),
  title: z.string().check(z.trim(), z.minLength(1)),
  content: z.string(),
  updatedAt: z.number().check(z.nonnegative()),
});

const InputSchema = z.object({ title: z.string().check(z.trim(), z.minLength(1)), content: z.string() });
const PatchSchema = z.object({
  title: z.optional(z.string().check(z.trim(), z.minLength(1))),
  content: z.optional(z.string()),
});

/** What changed in one mutation, as `onChange` reports it. */
export type MarkdownChange =
  | { type: 'create'; doc: MarkdownDoc }
  | { type: 'edit'; doc: MarkdownDoc; previous: MarkdownDoc }
  | { type: 'delete'; id: string }
  | { type: 'hydrate'; docs: MarkdownDoc[] };

/** The payload of `markdown.onChange` and the plan's `markdown-change` event. */
export interface MarkdownChangeEvent {
  /** A copy of every document after the change. */
  readonly docs: MarkdownDoc[];
  readonly change: MarkdownChange;
}

/** Options of {@link MarkdownArtifact.editWithInstruction}. */
export interface EditWithInstructionOptions {
  signal?: AbortSignal;
}

/** Rewrites a document as instructed (the model call); supplied by `Plan`. */
export type InstructionEditor = (
  doc: MarkdownDoc,
  instruction: string,
  options: EditWithInstructionOptions,
) => Promise<{ title?: string; content: string }>;

const copy = (doc: MarkdownDoc): MarkdownDoc => ({ ...doc });

/**
 * The plan's markdown documents. Every read returns a copy; `updatedAt` strictly increases on
 * every change, even within one millisecond.
 *
 * @example
 * ```ts
 * const doc = plan.markdown.create({ title: 'Tour notes', content: '- pricing has 3 tiers' });
 * plan.markdown.edit(doc.id, { content: '- pricing has three tiers' });
 * await plan.markdown.editWithInstruction(doc.id, 'Make it one friendly sentence.');
 * ```
 */
export class MarkdownArtifact {
  #docs: MarkdownDoc[] = [];
  #lastStamp = 0;
  readonly #ids = new IdSequence('m');
  readonly #events = new TypedEmitter<{ change: MarkdownChangeEvent }>({ ordered: true });
  readonly #editor: InstructionEditor | undefined;
  readonly #now: () => number;

  constructor(options: { editor?: InstructionEditor; now?: () => number } = {}) {
    this.#editor = options.editor;
    this.#now = options.now ?? Date.now;
  }

  /** Every document, in creation order. */
  list(): MarkdownDoc[] {
    return this.#docs.map(copy);
  }

  /** The document with `id`, or `null`. */
  read(id: string): MarkdownDoc | null {
    const doc = this.#find(id);
    return doc ? copy(doc) : null;
  }

  /** Adds a document with a fresh id; the title must not be empty. */
  create(input: MarkdownInput): MarkdownDoc {
    const parsed = parseOrThrow(InputSchema, input, 'Cannot create markdown doc');
    const doc: MarkdownDoc = { id: this.#ids.next(), title: parsed.title, content: parsed.content, updatedAt: this.#stamp() };
    this.#docs = [...this.#docs, doc];
    this.#emit({ type: 'create', doc: copy(doc) });
    return copy(doc);
  }

  /**
   * Overwrites the title and/or content. Returns the new doc, or `null` for an unknown id. A patch
   * that changes nothing returns the doc as it is, without an event or a new `updatedAt`.
   */
  edit(id: string, patch: MarkdownPatch): MarkdownDoc | null {
    const current = this.#find(id);
    if (!current) return null;
    const parsed = parseOrThrow(PatchSchema, patch, `Cannot edit markdown doc ${id}`);
    const title = parsed.title ?? current.title;
    const content = parsed.content ?? current.content;
    // Saving what is already there (an editor's autosave) is not an edit: updatedAt stays, so a
    // rewrite in flight is not reported as a conflict.
    if (title === current.title && content === current.content) return copy(current);
    const doc: MarkdownDoc = {
      ...current,
      ...(parsed.title !== undefined ? { title: parsed.title } : {}),
      ...(parsed.content !== undefined ? { content: parsed.content } : {}),
      updatedAt: this.#stamp(),
    };
    this.#docs = this.#docs.map((item) => (item.id === id ? doc : item));
    this.#emit({ type: 'edit', doc: copy(doc), previous: copy(current) });
    return copy(doc);
  }

  /**
   * Has the model rewrite a document as instructed (the plan's `edit` role), and stores the result.
   * Returns `null` for an unknown id without calling the model. If the document was edited or
   * deleted while the model worked, the newer document is kept and a {@link ConflictError}
   * (code `edit_conflict`) is thrown.
   */
  async editWithInstruction(id: string, instruction: string, options: EditWithInstructionOptions = {}): Promise<MarkdownDoc | null> {
    const before = this.#find(id);
    if (!before) return null;
    if (typeof instruction !== 'string' || instruction.trim() === '') {
      throw new ValidationError('Cannot edit with an empty instruction: say what to change.', [
        { path: 'instruction', message: 'must not be empty' },
      ]);
    }
    if (!this.#editor) {
      throw new PlanloopError('no_llm', 'editWithInstruction needs a model: pass `llm` to new Plan({ llm }).');
    }
    const rewritten = await this.#editor(copy(before), instruction, options);
    const now = this.#find(id);
    if (!now) throw new ConflictError(id, `Markdown doc ${id} was deleted while the model rewrote it; nothing was saved.`);
    if (now.updatedAt !== before.updatedAt) {
      throw new ConflictError(id, `Markdown doc ${id} was edited while the model rewrote it; the newer version was kept. Try the instruction again.`);
    }
    return this.edit(id, rewritten);
  }

  /** Removes a document; its id is retired. Returns `false` for an unknown id. */
  delete(id: string): boolean {
    if (!this.#find(id)) return false;
    this.#docs = this.#docs.filter((doc) => doc.id !== id);
    this.#emit({ type: 'delete', id });
    return true;
  }

  /** Subscribes to every successful mutation; returns the function that unsubscribes. */
  onChange(listener: (event: MarkdownChangeEvent) => void): Unsubscribe {
    return this.#events.on('change', listener);
  }

  /** The id counter, persisted in snapshots so deleted ids stay retired across reloads. */
  get lastId(): number {
    return this.#ids.last;
  }

  /**
   * Loads stored documents ahead of any created before hydration finished (which get fresh ids
   * if theirs are taken). Used by `Plan`.
   *
   * @internal
   */
  hydrate(stored: readonly MarkdownDoc[], lastId: number): void {
    const issues: ValidationIssue[] = [];
    stored.forEach((doc, index) => {
      const result = MarkdownDocSchema.safeParse(doc);
      if (!result.success) issues.push(...toIssues(result.error.issues, [index], doc));
    });
    if (issues.length > 0) throw new ValidationError(`Cannot load markdown docs: ${formatIssues(issues)}.`, issues);
    // The stored plan's high-water mark: every id at or below it was handed out before the reload.
    const storedLast = stored.reduce((high, doc) => Math.max(high, this.#ids.numberOf(doc.id) ?? 0), lastId);
    this.#ids.advanceTo(storedLast);
    for (const doc of stored) this.#lastStamp = Math.max(this.#lastStamp, doc.updatedAt);
    const taken = new Set(stored.map((doc) => doc.id));
    // A local id the stored plan has, or had and deleted, gets a fresh one: ids are never reused.
    const retired = (id: string): boolean => taken.has(id) || (this.#ids.numberOf(id) ?? Number.POSITIVE_INFINITY) <= storedLast;
    let renamed = false;
    const local = this.#docs.map((doc) => {
      if (!retired(doc.id)) return doc;
      renamed = true;
      return { ...doc, id: this.#ids.next() };
    });
    this.#docs = [...stored.map(copy), ...local];
    if (stored.length > 0 || renamed) this.#emit({ type: 'hydrate', docs: this.list() });
  }

  /** A timestamp after every earlier one: `Date.now()`, or one more than the last when the clock has not moved. */
  #stamp(): number {
    this.#lastStamp = Math.max(this.#now(), this.#lastStamp + 1);
    return this.#lastStamp;
  }

  #find(id: string): MarkdownDoc | undefined {
    return this.#docs.find((doc) => doc.id === id);
  }

  #emit(change: MarkdownChange): void {
    // An ordered emitter: a listener that mutates this artifact re-enters here, and its event waits
    // behind the current one, so every listener sees the changes in order and ends on the newest state.
    this.#events.emit('change', { docs: this.list(), change });
  }

}
