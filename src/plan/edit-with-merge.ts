/*
 * `plan.markdown.editWithInstruction()`: the model edits a document, and the edit is merged into
 * what the document has become meanwhile. Loaded on the first edit, with the editor and the merge.
 */
import { editMarkdownDoc, type EditWithInstructionOptions } from '../artifacts/markdown.js';
import { ConflictError } from '../errors.js';
import type { LLMProvider } from '../llm/provider.js';
import type { MarkdownDoc } from '../plan-state.js';
import { editDocument } from '../planning/edit-with-instruction.js';
import { mergeDocument } from '../planning/merge-text.js';
import type { PlanCore } from './plan-core.js';

/**
 * Asks `provider` to edit `before` as `instruction` says, and commits the edit onto the document
 * as it is now: the model's change goes onto a version edited meanwhile when the two touched
 * different parts; where they overlap, the newer text is kept and a `ConflictError` says so.
 *
 * @example
 * ```ts
 * const doc = await editWithMerge(core, plan.provider('edit'), before, 'Shorten the intro', {});
 * ```
 */
export async function editWithMerge(core: PlanCore, provider: LLMProvider, before: MarkdownDoc, instruction: string, options: EditWithInstructionOptions): Promise<MarkdownDoc | null> {
  const edited = await editDocument(provider, before, instruction, options);
  const now = core.state.docs.find((doc) => doc.id === before.id);
  const proposed = { title: edited.title, content: edited.content };
  if (!now) throw new ConflictError(before.id, `Markdown doc ${before.id} was deleted while the model edited it; nothing was saved.`, [], proposed);
  // Edited meanwhile (the user, another tab): the model's change goes onto the new version when
  // the two touched different parts; where they overlap, the user's text is kept.
  const unchanged = now.title === before.title && now.content === before.content;
  const merged = unchanged ? { ok: true as const, value: edited } : mergeDocument(before, now, edited);
  if (!merged.ok) {
    throw new ConflictError(
      before.id,
      `Markdown doc ${before.id} was edited while the model worked, in the same place the model changed (${merged.conflicts.map((conflict) => (conflict.field === 'title' ? 'the title' : `line ${conflict.line}`)).join(', ')}); your version was kept. Try the instruction again.`,
      merged.conflicts,
      proposed,
    );
  }
  let result: MarkdownDoc | null = null;
  const updatedAt = core.stamp();
  core.update((state) => {
    const step = editMarkdownDoc(state, before.id, { title: merged.value.title, content: merged.value.content }, updatedAt);
    result = step?.doc ?? null;
    return step && step.state !== state ? { state: step.state, meta: { origin: 'edit', markdown: step.change } } : null;
  });
  return result ? { ...(result as MarkdownDoc) } : null;
}
