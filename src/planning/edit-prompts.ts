/**
 * The prompts of `editDocument`: one asks for the whole new document between marker lines (a
 * rewrite), the other for SEARCH/REPLACE blocks (edits). The user message is the same for both and
 * uses the same markers, so a model copies them back without being taught a new syntax.
 *
 * ```text
 * Instruction: <the instruction, on one line>
 * Title: <the title, on one line>
 * --- document start ---
 * <the document>
 * --- document end ---
 * ```
 *
 * A rewrite answer is an optional `Title: …` line, then the document between the same two marker
 * lines. An edits answer is an optional `Title: …` line, then blocks:
 *
 * ```text
 * <<<<<<< SEARCH
 * text copied exactly from the document, occurring once in it
 * =======
 * the text to put there instead
 * >>>>>>> REPLACE
 * ```
 *
 * These markers are part of the public contract (offline and scripted models read them): change
 * them only together with their readers.
 */

/**
 * The line that opens the document, in the prompt and in a rewrite answer.
 *
 * @example
 * ```ts
 * declare const answer: string; // the model's rewrite
 * const at = answer.indexOf(`${DOCUMENT_START}\n`);
 * ```
 */
export const DOCUMENT_START = '--- document start ---';

/** The line that closes the document, in the prompt and in a rewrite answer. */
export const DOCUMENT_END = '--- document end ---';

/**
 * The system prompt asking for a whole new document (about 90 words).
 *
 * @example
 * ```ts
 * messages.unshift({ role: 'system', content: REWRITE_SYSTEM_PROMPT });
 * ```
 */
export const REWRITE_SYSTEM_PROMPT = `You edit markdown documents. Apply the user's instruction to the document and keep everything else as it is.

Reply with the whole new document between these two lines, in plain markdown (no JSON, no code fence around it):
${DOCUMENT_START}
the new document
${DOCUMENT_END}

To change the title (only when the instruction asks), write one line "Title: the new title" before the document.
If you cannot follow the instruction, say why in one sentence and write no document lines.`;

/**
 * The system prompt asking for SEARCH/REPLACE edits (about 190 words).
 *
 * @example
 * ```ts
 * messages.unshift({ role: 'system', content: EDITS_SYSTEM_PROMPT });
 * ```
 */
export const EDITS_SYSTEM_PROMPT = `You edit markdown documents. Apply the user's instruction to the document and change nothing else.

Do not repeat the document. Reply only with edit blocks, each replacing one passage:
<<<<<<< SEARCH
lines copied exactly from the document
=======
the new lines
>>>>>>> REPLACE

Rules:
- SEARCH is copied character for character from the document and must occur only once in it: copy whole lines, enough of them to be unique, and no more.
- For a long paragraph, SEARCH may be its first words, then " ... ", then its last words.
- To delete, leave the new lines empty. To add, SEARCH for the line before the place and put that line, then the new text, under =======.
- Use one block per place you change, in document order; blocks apply one after the other.
- No JSON, no code fences, no comments between blocks.

To change the title (only when the instruction asks), write one line "Title: the new title" before the blocks.
If you cannot follow the instruction, say why in one sentence and write no blocks.`;

/**
 * The user message: the instruction, the title and the document between marker lines (not a code
 * fence: documents often contain fences).
 *
 * @example
 * ```ts
 * editPrompt({ title: 'Notes', content: '# Pricing' }, 'Shorten it.');
 * // 'Instruction: Shorten it.\nTitle: Notes\n--- document start ---\n# Pricing\n--- document end ---'
 * ```
 */
export function editPrompt(doc: { title: string; content: string }, instruction: string): string {
  return `Instruction: ${oneLine(instruction)}\nTitle: ${oneLine(doc.title)}\n${DOCUMENT_START}\n${doc.content}\n${DOCUMENT_END}`;
}

/**
 * What the model is told after an unusable answer: each problem, then the answer form again.
 *
 * @example
 * ```ts
 * editFeedback('edits', ['block 2: its SEARCH text is not in the document']);
 * ```
 */
export function editFeedback(mode: 'rewrite' | 'edits', problems: readonly string[]): string {
  const form =
    mode === 'edits'
      ? 'Answer again with only <<<<<<< SEARCH / ======= / >>>>>>> REPLACE blocks, each SEARCH copied exactly from the document and occurring once in it. Blocks that were fine must be sent again too.'
      : `Answer again with the whole new document between the lines ${DOCUMENT_START} and ${DOCUMENT_END}.`;
  return `Your answer could not be used: ${problems.join('; ')}. Nothing was changed. ${form}`;
}

/**
 * Whether an instruction asks for a whole new document rather than a change in one place:
 * "rewrite it", "translate the whole note", "summarize", "start from scratch".
 *
 * @example
 * ```ts
 * wantsRewrite('Translate the whole note into German.'); // true
 * wantsRewrite('Fix the typo in the pricing paragraph.'); // false
 * ```
 */
export function wantsRewrite(instruction: string): boolean {
  const text = oneLine(instruction).toLowerCase();
  if (/\b(?:from scratch|start (?:over|again)|(?:whole|entire|complete|full) re-?write)\b/.test(text)) return true;
  return REWRITE_VERB_SCOPE.test(text);
}

const REWRITE_VERB = '(?:re-?write|redo|redraft|translate|summari[sz]e|condense|restructure|reorgani[sz]e|reformat|shorten)';
const REWRITE_SCOPE =
  '(?:it|this|everything|all(?: of it)?|the (?:whole |entire |full )?(?:document|doc|note|notes|text|file|page|thing)|(?:the )?(?:whole|entire) (?:thing|document|doc|note|text))';
/** Where the object ends: "rewrite it." or "translate it into…", unlike "rewrite this paragraph". */
const SCOPE_END = '(?=\\s*$|\\s*[.,;:!?]|\\s+(?:in|into|to|as|for|so|and|with|using|from|more|less|but)\\b)';
/** A rewriting verb with the whole document as its object, or alone ("Summarize."). */
const REWRITE_VERB_SCOPE = new RegExp(`\\b${REWRITE_VERB}\\b(?:\\s+${REWRITE_SCOPE}${SCOPE_END}|\\s*[.!]?\\s*$)`);

/** The text on one line: its lines trimmed and joined with a space (a line break would end the `Instruction:` line). */
function oneLine(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
}
