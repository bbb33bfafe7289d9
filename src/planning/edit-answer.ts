import type { ValidationIssue } from '../errors.js';
import type { EditErrorCode } from '../model-errors.js';
import { parseModelJson } from '../llm/model-json.js';
import type { FinishReason } from '../llm/provider.js';
import { applyEditBlocks, parseEditBlocks, type BlockFailure, type EditBlock } from './edit-blocks.js';
import { DOCUMENT_END, DOCUMENT_START } from './edit-prompts.js';

/** How the model wrote its answer. */
export type EditAnswerForm = 'blocks' | 'markers' | 'json' | 'fence' | 'plain';

/** A usable answer: the new document. */
export interface EditReadingOk {
  ok: true;
  /** `edits` for SEARCH/REPLACE blocks, `rewrite` for a whole document. */
  kind: 'rewrite' | 'edits';
  form: EditAnswerForm;
  title: string;
  content: string;
}

/** An unusable answer: its code, the issues for the host, and sentences for the model. */
export interface EditReadingFailure {
  ok: false;
  code: EditErrorCode;
  issues: ValidationIssue[];
  problems: string[];
}

/** What {@link readEditAnswer} makes of an answer. */
export type EditReading = EditReadingOk | EditReadingFailure;

/** In edits mode a whole document shorter than this share of the original is taken for a fragment. */
const MIN_WHOLE_SHARE = 0.5;

/**
 * Reads a model's answer to an edit instruction, in every form models write it:
 * - SEARCH/REPLACE blocks (applied to `doc` all or nothing; a missing or ambiguous SEARCH fails
 *   with `edit_anchor_missing` / `edit_anchor_ambiguous`);
 * - the document between `--- document start ---` / `--- document end ---` lines;
 * - JSON `{ "content": … }` or `{ "markdown": … }`, with an optional `title`;
 * - a ```` ```markdown ````, ```` ```md ```` or bare fence;
 * - plain markdown, with or without a lead-in ("Sure! Here is the note:") and a closing remark.
 * Text around a delimited answer is dropped; a `Title: …` line before it (or JSON `title`) renames,
 * and an answer of only that line renames and changes nothing else.
 *
 * Without delimiters the reply is judged: one that reads as a refusal ("I'm sorry, I can't…", "As
 * an AI…") is `edit_refused`, one that talks about the document instead of being it is
 * `edit_invalid`, a blank one `edit_empty`. Text outside a fence counts as the model's prose only
 * when none of its lines is in `doc`, so a document that merely contains a code block is not cut
 * down to it. An answer cut off (by `finishReason: 'length'`, or before its end marker, closing
 * fence, JSON end or last block's `>>>>>>> REPLACE`) is `edit_truncated`. With `mode: 'edits'`,
 * a whole document under half the original's length is taken for a fragment (`edit_invalid`).
 * The content keeps `doc`'s line breaks (CRLF when it used CRLF) and its final line break or lack of one.
 *
 * @example
 * ```ts
 * readEditAnswer('--- document start ---\n# Notes\n--- document end ---', { title: 'N', content: '# notes\n' }, { mode: 'rewrite' });
 * // { ok: true, kind: 'rewrite', form: 'markers', title: 'N', content: '# Notes\n' }
 * ```
 */
export function readEditAnswer(
  raw: string,
  doc: { title: string; content: string },
  options: { mode: 'rewrite' | 'edits'; finishReason?: FinishReason | undefined },
): EditReading {
  const text = toLF(raw.replace(/^\uFEFF/, ''));
  const original = toLF(doc.content);
  const known = new Set(
    original
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  );
  const cutOff = options.finishReason === 'length';
  if (text.trim() === '') return cutOff ? truncated('was cut off by the length limit before any text') : failure('edit_empty', 'is empty');

  // Only a `Title:` line: a rename with no change to the text (edits with no block).
  const onlyLines = trimBlank(text.split('\n'));
  if (onlyLines.length === 1 && titleIn(text, '') !== '' && !known.has((onlyLines[0] as string).trim()) && !cutOff) {
    return { ok: true, kind: 'edits', form: 'blocks', title: titleIn(text, doc.title), content: doc.content };
  }

  const parsed = parseEditBlocks(text);
  if (parsed.blocks.length > 0 || parsed.unclosed || parsed.malformed.length > 0) {
    if (parsed.unclosed || cutOff)
      return truncated(parsed.unclosed ? 'ended inside an edit block, before its >>>>>>> REPLACE line' : 'was cut off by the length limit');
    if (parsed.malformed.length > 0) return failure('edit_invalid', parsed.malformed.join('; '));
    const applied = applyEditBlocks(original, parsed.blocks);
    if (!applied.ok) return anchorFailure(applied, parsed.blocks[applied.index]?.search ?? '');
    return done('edits', 'blocks', titleIn(parsed.before, doc.title), applied.text, doc.content);
  }

  const whole = wholeDocument(text, original, known, cutOff);
  if (!whole.ok) return whole;
  const content = whole.content;
  if (content.trim() === '') return failure('edit_empty', 'holds an empty document');
  if (readsAsRefusal(content) && !readsAsRefusal(original)) return failure('edit_refused', 'reads as a refusal, not a document');
  if (options.mode === 'edits' && content.length < original.length * MIN_WHOLE_SHARE) {
    return failure(
      'edit_invalid',
      `is a whole document of ${content.length} characters for one of ${original.length}: it looks like a fragment; answer with SEARCH/REPLACE blocks`,
    );
  }
  return done('rewrite', whole.form, whole.title?.trim() || doc.title, content, doc.content);
}

/**
 * Follows an answer as it streams and gives the document as it forms: for a rewrite between the
 * markers, the text written so far (a last line that may be the start of the end marker is held
 * back, and so is a line break that may be the last one); for SEARCH/REPLACE blocks, the document with each complete block applied, up to the first
 * that does not apply. `undefined` while the answer's form is unknown (and for JSON, fenced or
 * plain answers, which are only read once complete). Uses `doc`'s line breaks.
 *
 * @example
 * ```ts
 * declare const deltas: AsyncIterable<string>; // the model's answer as it streams
 * const preview = createEditPreview(plan.markdown.list()[0]!);
 * let text = '';
 * for await (const delta of deltas) console.log(preview((text += delta)));
 * ```
 */
export function createEditPreview(doc: { content: string }): (raw: string) => string | undefined {
  const original = toLF(doc.content);
  const crlf = doc.content.includes('\r\n');
  const out = (text: string): string => (crlf ? text.replace(/\n/g, '\r\n') : text);
  let current = original;
  let applied = 0;
  let stuck = false;
  return (raw) => {
    const text = toLF(raw);
    const lines = text.split('\n');
    const start = lines.findIndex((line) => START_LINE.test(line));
    if (start >= 0) {
      const body = lines.slice(start + 1);
      const end = body.findIndex((line) => END_LINE.test(line));
      if (end >= 0) return out(body.slice(0, end).join('\n'));
      // The last line may be the first characters of the end marker (or the line break before it).
      if (/^[\s*_`>]*(?:-|$)/.test(body.at(-1) ?? '')) body.pop();
      return out(body.join('\n'));
    }
    const { blocks, before } = parseEditBlocks(text);
    if (before === text) return undefined;
    for (; !stuck && applied < blocks.length; applied++) {
      const step = applyEditBlocks(current, [blocks[applied] as EditBlock]);
      if (step.ok) current = step.text;
      else stuck = true;
    }
    return out(current);
  };
}

/** The marker lines, also as models restyle them: `---Document Start---`, `**--- document end ---**`. */
const START_LINE = markerLine(DOCUMENT_START);
const END_LINE = markerLine(DOCUMENT_END);

function markerLine(marker: string): RegExp {
  const words = marker.replace(/-/g, '').trim().split(/\s+/).join('\\s+');
  return new RegExp(`^[\\s*_\`>]*-{2,}\\s*${words}\\s*-{2,}[\\s*_\`]*$`, 'i');
}

type Whole = { ok: true; form: Exclude<EditAnswerForm, 'blocks'>; content: string; title?: string | undefined } | EditReadingFailure;

/** The whole document of an answer that has no blocks, in the first form that fits. */
function wholeDocument(text: string, original: string, known: Set<string>, cutOff: boolean): Whole {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => START_LINE.test(line));
  if (start >= 0) {
    let end = lines.length - 1;
    while (end > start && !END_LINE.test(lines[end] as string)) end--;
    if (end === start) return truncated(`ended before its ${DOCUMENT_END} line`);
    const inside = lines.slice(start + 1, end);
    // Small models sometimes fence the document inside the markers too.
    const fenced = fencedDocument(inside, original, known);
    const content = fenced?.ok ? fenced.content : inside.join('\n');
    return { ok: true, form: 'markers', content, title: titleIn(lines.slice(0, start).join('\n'), '') };
  }

  // Only an object with a quoted first key counts as a JSON answer: "Use {name} here" is markdown.
  const brace = text.search(/\{\s*["']/);
  if (brace >= 0 && isProse(text.slice(0, brace).replace(/```[\w-]*\s*$/, ''), known) && !original.trimStart().startsWith('{')) {
    const json = parseModelJson(text.slice(brace));
    if (json.truncated) return truncated('was cut off before its JSON ended');
    const value = json.ok && !Array.isArray(json.value) ? (json.value as Record<string, unknown>) : {};
    const content = typeof value.content === 'string' ? value.content : value.markdown;
    if (typeof content !== 'string') {
      const why = !json.ok ? json.error : 'content' in value || 'markdown' in value ? 'its content must be a string' : 'it has no "content" string';
      return failure('edit_invalid', `is JSON but ${why}`);
    }
    return { ok: true, form: 'json', content, title: typeof value.title === 'string' ? value.title : undefined };
  }

  const fence = fencedDocument(lines, original, known);
  if (fence) return fence;
  if (cutOff) return truncated('was cut off by the length limit');
  return plainDocument(lines, known);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*([\w+-]*)[ \t]*$/;
const WRAPPER_LANGUAGES = new Set(['', 'markdown', 'md', 'mdx', 'text', 'txt']);

/**
 * A document wrapped in a markdown (or bare) code fence: the fence must open the answer or follow a
 * short intro, and its closer is the last bare fence line of the answer (so fences inside the
 * document stay in it). Not a wrapper when the original starts with the same fence line and the
 * answer has no intro, or when the text outside holds a line of the original.
 */
function fencedDocument(lines: readonly string[], original: string, known: Set<string>): Whole | undefined {
  const open = lines.findIndex((line) => FENCE.test(line));
  if (open < 0) return undefined;
  const [, marks = '', language = ''] = FENCE.exec(lines[open] as string) ?? [];
  const intro = lines.slice(0, open).join('\n');
  if (!WRAPPER_LANGUAGES.has(language.toLowerCase()) || !isProse(intro, known) || !isIntro(intro)) return undefined;
  if (intro.trim() === '' && original.trimStart().split('\n')[0]?.trim() === (lines[open] as string).trim()) return undefined;
  let close = -1;
  for (let index = lines.length - 1; index > open && close < 0; index--) {
    const match = FENCE.exec(lines[index] as string);
    if (match?.[2] === '' && match[1]?.[0] === marks[0] && (match[1]?.length ?? 0) >= marks.length) close = index;
  }
  if (close < 0) return truncated('ended before its closing code fence');
  if (!isProse(lines.slice(close + 1).join('\n'), known)) return undefined;
  return { ok: true, form: 'fence', content: lines.slice(open + 1, close).join('\n'), title: titleIn(intro, '') };
}

const LEAD_IN =
  /^(?:sure|certainly|of course|okay|ok|alright|absolutely|done|great|here(?:'s|’s| is| are)|below is|i(?:'ve|’ve| have)\b|i (?:made|changed|updated|edited|rewrote|shortened|added|removed|fixed|translated|applied|kept)\b|the (?:updated|edited|revised|new|rewritten) (?:document|note|text|version)|the (?:document|note|text) (?:already|does|doesn|has|is)\b|(?:this|your) (?:document|note|text)\b|no changes?\b|nothing to change|there (?:is|are) no)/i;
const OUTRO =
  /^(?:let me know|i hope|hope this|feel free|if you(?:'d|’d| would)? (?:like|want|need)|would you like|is there anything|do you want|changes(?: made)?:|summary of changes|note:|i(?:'ve|’ve| have) (?:made|kept|changed|also|updated))/i;

/**
 * A reply without delimiters: refused when it reads as a refusal, invalid when its first line talks
 * about the document (unless that line ends with ":" and a document follows), else the document,
 * without a lead-in line and closing remarks that are not lines of the original.
 */
function plainDocument(lines: string[], known: Set<string>): Whole {
  const body = trimBlank(lines);
  if (readsAsRefusal(body.join('\n'))) return failure('edit_refused', 'reads as a refusal, not a document');
  // A `Title:` line the original does not have, as the prompt teaches, even without the markers.
  const title = titleIn(body[0] ?? '', '');
  if (title !== '' && !known.has((body[0] as string).trim())) body.splice(0, trimBlank(body.slice(1)).length > 0 ? 1 : 0);
  const first = body[0] ?? '';
  if (LEAD_IN.test(first.trim()) && !known.has(first.trim())) {
    if (!first.trimEnd().endsWith(':') || trimBlank(body.slice(1)).length === 0) {
      return failure('edit_invalid', `talks about the document instead of being it ("${clip(first)}")`);
    }
    body.shift();
  }
  // Closing remarks: a paragraph among the last three that starts like one and is not in the original.
  const paragraphs = trimBlank(body)
    .join('\n')
    .split(/\n[ \t]*\n/);
  const cut = paragraphs.findIndex(
    (paragraph, index) =>
      index > 0 && index >= paragraphs.length - 3 && OUTRO.test(paragraph.trim()) && !known.has(paragraph.trim().split('\n')[0]?.trim() ?? ''),
  );
  const kept = cut > 0 ? paragraphs.slice(0, cut) : paragraphs;
  return { ok: true, form: 'plain', content: kept.join('\n\n'), title: title || undefined };
}

const AI_IDENTITY = /^(?:as an ai|as a (?:large )?language model|i(?:'m| am) an ai)\b/;
const APOLOGY = /^(?:i(?:'m| am) sorry|sorry|i apologi[sz]e|unfortunately)\b/;
const DECLINE = /\b(?:i (?:can(?:not|'t| not)|won't|will not)|i(?:'m| am) (?:unable|not able)|unable to|not (?:able|allowed) to)\b/;
const FLAT_DECLINE =
  /^i(?: can(?:not|'t| not)| won't| will not|(?:'m| am) (?:unable|not able) to)\s+(?:help|assist|comply|fulfil+|edit|rewrite|modify|change|translate|complete|process|perform|follow|do (?:that|this|it))\b/;

/**
 * Whether a text opens like a refusal: "As an AI…", an apology or "unfortunately" with "I can't /
 * cannot / won't / am unable to" in its first sentence, or "I can't help / edit / …".
 */
function readsAsRefusal(text: string): boolean {
  const sentence = (/^[^\n]*?(?:[.!?](?=\s|$)|$)/m.exec(text.trimStart())?.[0] ?? '').toLowerCase().replace(/’/g, "'");
  return AI_IDENTITY.test(sentence) || (APOLOGY.test(sentence) && DECLINE.test(sentence)) || FLAT_DECLINE.test(sentence);
}

/** Blank, or a lead-in: "Here is the note:", "Sure!". */
function isIntro(text: string): boolean {
  const lines = trimBlank(text.split('\n'));
  return lines.length === 0 || (lines.at(-1) as string).trimEnd().endsWith(':') || LEAD_IN.test((lines[0] as string).trim());
}

/** Whether `text` is only the model's own words: at most three short lines, none of them a line of the original. */
function isProse(text: string, known: Set<string>): boolean {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.length <= 3 && lines.every((line) => line.length <= 300 && !known.has(line));
}

/** The new title from a `Title: …` line (the last one), else `fallback`. */
function titleIn(text: string, fallback: string): string {
  let title = fallback;
  for (const line of text.split('\n')) {
    const match = /^\s*(?:[*_]{1,2})?title(?:[*_]{1,2})?\s*:\s*(.*)$/i.exec(line);
    const value = match?.[1]?.replace(/^[*_"'“”\s]+|[*_"'“”\s]+$/g, '');
    if (value) title = value;
  }
  return title;
}

function done(kind: 'rewrite' | 'edits', form: EditAnswerForm, title: string, content: string, original: string): EditReadingOk {
  let text = toLF(content);
  if (original.endsWith('\n') && !text.endsWith('\n')) text += '\n';
  else if (!original.endsWith('\n')) text = text.replace(/\n+$/, '');
  if (original.includes('\r\n')) text = text.replace(/\n/g, '\r\n');
  return { ok: true, kind, form, title, content: text };
}

function anchorFailure(failed: BlockFailure, search: string): EditReadingFailure {
  const which = `block ${failed.index + 1}`;
  const quoted = `"${clip(search)}"`;
  if (failed.reason === 'empty') return failure('edit_anchor_missing', `${which} has an empty SEARCH part; copy the lines to change from the document`, which);
  if (failed.reason === 'missing') {
    return failure('edit_anchor_missing', `${which}: its SEARCH text ${quoted} is not in the document; copy it exactly, character for character`, which);
  }
  return failure(
    'edit_anchor_ambiguous',
    `${which}: its SEARCH text ${quoted} occurs ${failed.count} times in the document; add a neighbouring line so it occurs once`,
    which,
  );
}

function truncated(message: string): EditReadingFailure {
  return failure('edit_truncated', message);
}

function failure(code: EditErrorCode, message: string, path = '(answer)'): EditReadingFailure {
  return { ok: false, code, issues: [{ path, message }], problems: [path === '(answer)' ? `the answer ${message}` : message] };
}

function trimBlank(lines: readonly string[]): string[] {
  let from = 0;
  let to = lines.length;
  while (from < to && (lines[from] as string).trim() === '') from++;
  while (to > from && (lines[to - 1] as string).trim() === '') to--;
  return lines.slice(from, to);
}

function toLF(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function clip(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max)}…`;
}
