import type { MarkdownDoc } from '../artifacts/markdown.js';
import { PlannerOutputError } from '../errors.js';
import { callModel } from '../llm/call.js';
import { parseModelJson } from '../llm/model-json.js';
import type { LLMProvider } from '../llm/provider.js';
import { EDIT_OUTPUT_SCHEMA, EDIT_SYSTEM_PROMPT, editUserMessage } from './prompts.js';

/**
 * The model call behind `plan.markdown.editWithInstruction`: asks `provider` (the plan's `edit` model) to
 * rewrite `doc` as instructed and returns the new `content` (and `title`, when the model changed
 * it). Stores nothing: the markdown artifact checks for conflicts and saves.
 *
 * The model answers `{ "content": …, "title"?: … }` as JSON text, read as tolerantly as the
 * planner's (fences, prose around it, single quotes, …). A reply without that JSON is refused
 * rather than taken as the document: a refusal or an explanation would otherwise overwrite it.
 * Empty content, a cut-off answer (`planner_output_truncated`) or any other unusable answer
 * (`planner_output_invalid`) throws {@link PlannerOutputError} with the raw text, and the document
 * stays as it was. An abort throws code `aborted`.
 *
 * @example
 * ```ts
 * const { content } = await rewriteDocument(provider, plan.markdown.read('m1')!, 'Shorten it.', {});
 * ```
 */
export async function rewriteDocument(
  provider: LLMProvider,
  doc: MarkdownDoc,
  instruction: string,
  options: { signal?: AbortSignal | undefined },
): Promise<{ title?: string; content: string }> {
  const reply = await callModel(provider, {
    messages: [
      { role: 'system', content: EDIT_SYSTEM_PROMPT },
      { role: 'user', content: editUserMessage(doc, instruction) },
    ],
    jsonSchema: EDIT_OUTPUT_SCHEMA,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const raw = reply.text;
  const parsed = parseModelJson(raw);
  const value = parsed.ok && !parsed.truncated ? (parsed.value as Record<string, unknown>) : undefined;
  const content = value?.content;
  const usable = typeof content === 'string' && content.trim() !== '';
  // As in makeTodos: an unclosed JSON value is never used; a closed, usable one counts even at the
  // length limit (JSON modes pad finished objects with whitespace up to it).
  if (parsed.truncated || (reply.finishReason === 'length' && !usable)) {
    throw new PlannerOutputError(
      'planner_output_truncated',
      `The rewrite of markdown doc ${doc.id} was cut off before its JSON ended; the document is unchanged. Raise the model's token limit.`,
      { raw, issues: [{ path: '(root)', message: 'was cut off' }] },
    );
  }
  if (!usable) {
    const message = !parsed.ok ? parsed.error : content === undefined ? 'is required (a string)' : typeof content === 'string' ? 'must not be empty' : 'must be a string';
    const path = parsed.ok ? 'content' : '(root)';
    throw new PlannerOutputError(
      'planner_output_invalid',
      `The model's rewrite of markdown doc ${doc.id} was unusable (${path} ${message}); the document is unchanged. The text is in error.raw.`,
      { raw, issues: [{ path, message }] },
    );
  }
  const title = value?.title;
  return typeof title === 'string' && title.trim() !== '' ? { title, content } : { content };
}
