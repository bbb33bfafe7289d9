/*
 * `plan.markdown.editWithInstruction()`: the model edits a document, and the edit is merged into
 * what the document has become meanwhile. Loaded on the first edit, with the editor and the merge;
 * `plan.ts` commits the result.
 */
import type { EditWithInstructionOptions } from '../artifacts/markdown.js';
import { ConflictError } from '../model-errors.js';
import type { LLMProvider } from '../llm/provider.js';
import type { MarkdownDoc } from '../plan-state.js';
import { editDocument } from '../planning/edit-with-instruction.js';
import { mergeDocument } from '../planning/merge-text.js';
import type { PlanCore } from './plan-core.js';

/**
 * Asks `provider` to edit `before` as `instruction` says, and merges the edit onto the document
 * as it is now: the model's change goes onto a version edited meanwhile when the two touched
 * different parts; where they overlap, the newer text is kept and a `ConflictError` says so.
 * Returns the title and content to commit (the caller commits them, with `editMarkdownDoc`).
 *
 * @example
 * ```ts
 * import type { PlanCore } from './plan-core.js';
 * declare const core: PlanCore; // the plan's state
 * const before = core.state.docs[0]!;
 * const next = await editWithMerge(core, plan.provider('edit'), before, 'Shorten the intro', {});
 * ```
 */
export async function editWithMerge(
  core: PlanCore,
  provider: LLMProvider,
  before: MarkdownDoc,
  instruction: string,
  options: EditWithInstructionOptions,
): Promise<{ title: string; content: string }> {
  const edited = await editDocument(provider, before, instruction, options);
  const now = core.state.docs.find((doc) => doc.id === before.id);
  const proposed = { title: edited.title, content: edited.content };
  if (!now)
    throw new ConflictError('edit_conflict', `Markdown doc ${before.id} was deleted while the model edited it; nothing was saved.`, {
      id: before.id,
      conflicts: [],
      proposed,
    });
  // Edited meanwhile (the user, another tab): the model's change goes onto the new version when
  // the two touched different parts; where they overlap, the user's text is kept.
  const unchanged = now.title === before.title && now.content === before.content;
  const merged = unchanged ? { ok: true as const, value: edited } : mergeDocument(before, now, edited);
  if (!merged.ok) {
    throw new ConflictError(
      'edit_conflict',
      `Markdown doc ${before.id} was edited while the model worked, in the same place the model changed (${merged.conflicts.map((conflict) => (conflict.field === 'title' ? 'the title' : `line ${conflict.line}`)).join(', ')}); your version was kept. Try the instruction again.`,
      { id: before.id, conflicts: merged.conflicts, proposed },
    );
  }
  return { title: merged.value.title, content: merged.value.content };
}
