import type { Unsubscribe } from '../emitter.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { readRecord, readText } from '../guards.js';
import { MARKDOWN_TITLE_MAX, type MarkdownChange, type MarkdownDoc, type PlanState, type PlanStateHost } from '../plan-state.js';
import { formatIssues } from '../validation.js';
import { nextIds } from './id-sequence.js';

export type { MarkdownChange, MarkdownDoc } from '../plan-state.js';

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

/** The payload of `markdown.onChange` and the plan's `markdown-change` event. */
export interface MarkdownChangeEvent {
  /** A copy of every document after the change. */
  readonly docs: MarkdownDoc[];
  readonly change: MarkdownChange;
}

export { MARKDOWN_TITLE_MAX } from '../plan-state.js';

/**
 * Reads a create input or a patch (`partial`); throws {@link ValidationError}.
 *
 * `readMarkdownInput({ title: 'Notes' }, 'Cannot edit', true)` is `{ title: 'Notes' }`.
 */
function readMarkdownInput(value: unknown, what: string, partial: boolean): MarkdownPatch {
  const issues: ValidationIssue[] = [];
  const record = readRecord(value, '', issues);
  const out: MarkdownPatch = {};
  if (record) {
    if (!partial || record.title !== undefined) out.title = readText(record.title, 'title', issues, { max: MARKDOWN_TITLE_MAX });
    if (!partial || record.content !== undefined) out.content = readText(record.content, 'content', issues, { nonEmpty: false });
  }
  if (issues.length > 0) throw new ValidationError('invalid_input', `${what}: ${formatIssues(issues)}.`, { issues });
  return out;
}

/** What `onDelta` receives while the model answers. */
export interface EditDelta {
  /** The new text. */
  delta: string;
  /** The whole answer of this attempt so far (a retry starts again from `''`). */
  text: string;
  /** 1 for the first answer, 2 for the retry after feedback, … */
  attempt: number;
  /**
   * The document as it forms: a rewrite's text so far, or the document with the complete edit
   * blocks applied. `undefined` until the answer's form is known, and for answers that are read
   * only once complete (JSON, a code fence, plain text). Not validated: show it, never store it.
   */
  preview: string | undefined;
}

/**
 * Options of {@link MarkdownArtifact.editWithInstruction} (and of `editDocument`): an abort
 * signal, and how the model is asked and watched.
 */
export interface EditWithInstructionOptions {
  signal?: AbortSignal | undefined;
  /** Bound on the whole call, retries included, in ms. `0` or `Infinity` turns it off. Default 30 000. */
  timeoutMs?: number | undefined;
  /** Further attempts after an unusable answer, each told what was wrong. Default 1. */
  retries?: number | undefined;
  /** Passed to the provider as the request's `maxTokens`. Default: the provider's. */
  maxTokens?: number | undefined;
  /**
   * `rewrite`: the model sends the whole new document. `edits`: SEARCH/REPLACE blocks. `auto`
   * (default): edits for documents of 1,500 characters (`EDITS_MIN_CHARS`) or more, unless the
   * instruction asks for a rewrite ("rewrite it", "translate the whole note", "summarize").
   */
  mode?: 'auto' | 'rewrite' | 'edits' | undefined;
  /** Receives the answer as it streams (see {@link EditDelta}). A throwing callback is reported, not fatal. */
  onDelta?: ((update: EditDelta) => void) | undefined;
}

/** Rewrites a document as instructed (the model call); supplied by `Plan`. */
export type InstructionEditor = (doc: MarkdownDoc, instruction: string, options: EditWithInstructionOptions) => Promise<MarkdownDoc | null>;

const copy = (doc: MarkdownDoc): MarkdownDoc => ({ ...doc });

/**
 * Applies a validated patch to document `id`: the pure step behind `markdown.edit` and edits made
 * by the model. `null` for an unknown id; the same `state` when the patch changes nothing (an
 * editor's autosave is not an edit: `updatedAt` stays, so a rewrite in flight is not told it
 * conflicts with it).
 *
 * @example
 * ```ts
 * const step = editMarkdownDoc(plan.state, 'm1', { content: '# New' }, Date.now());
 * ```
 */
export function editMarkdownDoc(
  state: PlanState,
  id: string,
  patch: MarkdownPatch,
  updatedAt: number,
): { state: PlanState; doc: MarkdownDoc; change: MarkdownChange } | null {
  const current = state.docs.find((doc) => doc.id === id);
  if (!current) return null;
  const title = patch.title ?? current.title;
  const content = patch.content ?? current.content;
  if (title === current.title && content === current.content) return { state, doc: current, change: { type: 'edit', doc: current, previous: current } };
  const doc: MarkdownDoc = Object.freeze({ ...current, title, content, updatedAt });
  return {
    state: { ...state, docs: state.docs.map((item) => (item.id === id ? doc : item)) },
    doc,
    change: { type: 'edit', doc: copy(doc), previous: copy(current) },
  };
}

/**
 * The plan's markdown documents: a thin view of `plan.state.docs`. Every read returns a copy;
 * `updatedAt` strictly increases on every change, even within one millisecond.
 *
 * @example
 * ```ts
 * const doc = plan.markdown.create({ title: 'Tour notes', content: '- pricing has 3 tiers' });
 * plan.markdown.edit(doc.id, { content: '- pricing has three tiers' });
 * await plan.markdown.editWithInstruction(doc.id, 'Make it one friendly sentence.');
 * ```
 */
export class MarkdownArtifact {
  readonly #host: PlanStateHost;
  readonly #subscribe: (listener: (event: MarkdownChangeEvent) => void) => Unsubscribe;
  readonly #stamp: () => number;
  readonly #editor: InstructionEditor;

  /** Made by `Plan`; hosts use `plan.markdown`. */
  constructor(options: {
    host: PlanStateHost;
    subscribe: (listener: (event: MarkdownChangeEvent) => void) => Unsubscribe;
    /** A timestamp after every earlier one. */
    stamp: () => number;
    editor: InstructionEditor;
  }) {
    this.#host = options.host;
    this.#subscribe = options.subscribe;
    this.#stamp = options.stamp;
    this.#editor = options.editor;
  }

  /** Every document, in creation order. */
  list(): MarkdownDoc[] {
    return this.#host.state.docs.map(copy);
  }

  /** The document with `id`, or `null`. */
  read(id: string): MarkdownDoc | null {
    const doc = this.#host.state.docs.find((item) => item.id === id);
    return doc ? copy(doc) : null;
  }

  /** Adds a document with a fresh id; the title must not be empty. */
  create(input: MarkdownInput): MarkdownDoc {
    const { title, content } = readMarkdownInput(input, 'Cannot create markdown doc', false) as MarkdownInput;
    let doc: MarkdownDoc | undefined;
    const updatedAt = this.#stamp();
    this.#host.update((state) => {
      const { ids, last } = nextIds('m', state.lastIds.markdown, 1);
      doc = Object.freeze({ id: ids[0] as string, title, content, updatedAt });
      return {
        state: { ...state, docs: [...state.docs, doc], lastIds: { ...state.lastIds, markdown: last } },
        meta: { origin: 'host', markdown: { type: 'create', doc: copy(doc) } },
      };
    });
    return copy(doc as MarkdownDoc);
  }

  /**
   * Overwrites the title and/or content. Returns the new doc, or `null` for an unknown id. A patch
   * that changes nothing returns the doc as it is, without an event or a new `updatedAt`.
   */
  edit(id: string, patch: MarkdownPatch): MarkdownDoc | null {
    if (!this.#host.state.docs.some((doc) => doc.id === id)) return null;
    const parsed = readMarkdownInput(patch, `Cannot edit markdown doc ${id}`, true);
    let result: MarkdownDoc | null = null;
    const updatedAt = this.#stamp();
    this.#host.update((state) => {
      const step = editMarkdownDoc(state, id, parsed, updatedAt);
      result = step?.doc ?? null;
      return step && step.state !== state ? { state: step.state, meta: { origin: 'host', markdown: step.change } } : null;
    });
    return result ? copy(result) : null;
  }

  /**
   * Has the model edit a document as instructed (the plan's `edit` role), and stores the result.
   * Short documents are rewritten whole, long ones edited in place (SEARCH/REPLACE blocks, so the
   * answer grows with the change, not the document); every answer form models give is read, a
   * refusal is refused (`edit_refused`) and an unusable answer is fed back once (`EditError`).
   * Nothing is stored until the edit is complete and valid. If the document was edited meanwhile,
   * the model's edit is merged onto the new version when the two touched different parts, else a
   * `ConflictError` (`edit_conflict`) is thrown and the newer version kept; a document deleted
   * meanwhile is a conflict too. Returns `null` for an unknown id without calling the model.
   */
  async editWithInstruction(id: string, instruction: string, options: EditWithInstructionOptions = {}): Promise<MarkdownDoc | null> {
    const before = this.read(id);
    if (!before) return null;
    if (typeof instruction !== 'string' || instruction.trim() === '') {
      throw new ValidationError('invalid_input', 'Cannot edit with an empty instruction: say what to change.', {
        issues: [{ path: 'instruction', message: 'must not be empty' }],
      });
    }
    return this.#editor(before, instruction, options);
  }

  /** Removes a document; its id is retired. Returns `false` for an unknown id. */
  delete(id: string): boolean {
    let found = false;
    this.#host.update((state) => {
      const docs = state.docs.filter((doc) => doc.id !== id);
      found = docs.length !== state.docs.length;
      return found ? { state: { ...state, docs }, meta: { origin: 'host', markdown: { type: 'delete', id } } } : null;
    });
    return found;
  }

  /** Subscribes to every change of the documents; returns the function that unsubscribes. */
  onChange(listener: (event: MarkdownChangeEvent) => void): Unsubscribe {
    return this.#subscribe(listener);
  }

  /** The id counter, stored with the plan so deleted ids stay retired across reloads. */
  get lastId(): number {
    return this.#host.state.lastIds.markdown;
  }
}
