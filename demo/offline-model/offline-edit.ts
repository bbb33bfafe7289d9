// The offline model's note editing: it reads the edit request as a real model would (the system
// prompt says which answer form is wanted, the user message holds the instruction and the document
// between marker lines) and answers in that form:
// - a rewrite: an optional `Title:` line, then the whole new document between the marker lines;
// - edits (the prompt planloop sends for long notes): SEARCH/REPLACE blocks touching only the
//   passages the instruction changes, each anchored on text that occurs once in the note.
// It knows a handful of instructions, for the whole note or one place in it ("the refunds
// paragraph", "the section about pricing"). Anything else it declines in words ("I can't follow
// …"), as models do, instead of writing into the note. Deterministic: same request, same answer.

import type { LLMMessage } from 'planloop';

const DOCUMENT_START = '--- document start ---';
const DOCUMENT_END = '--- document end ---';

/** What the offline model knows how to do, as it tells the user when it declines. */
const REPERTOIRE =
  'the offline stand-in only knows how to make a list, shorten, add a heading, replace "a" with "b", add "a sentence", delete, rename to "a title" or change case, for the whole note or for "the … paragraph" or "section". Connect a real model in Settings for anything else.';

/**
 * The offline model's answer to an edit request (`editDocument`'s messages): a rewrite between the
 * document markers, SEARCH/REPLACE blocks when the system prompt asks for them, or a refusal.
 *
 * @example
 * ```ts
 * editAnswer([{ role: 'user', content: 'Instruction: Make it a list\nTitle: N\n--- document start ---\nA. B.\n--- document end ---' }]);
 * // '--- document start ---\n- A\n- B\n--- document end ---'
 * ```
 */
export function editAnswer(messages: readonly LLMMessage[]): string {
  const system = messages.find((message) => message.role === 'system')?.content ?? '';
  // The first user message holds the document; a retry's feedback comes later and has none.
  const prompt = messages.find((message) => message.role === 'user' && message.content.includes(DOCUMENT_START))?.content ?? '';
  const { instruction, content } = readEditPrompt(prompt);
  const edit = planEdit(instruction, content);
  if ('refusal' in edit) return edit.refusal;
  const titleLine = edit.title !== undefined ? `Title: ${edit.title}\n` : '';
  if (edit.changes.length === 0 && titleLine) return titleLine.trimEnd();
  // Nothing to change (the note already is a list): the note as it is, which any prompt accepts.
  if (edit.changes.length > 0 && /^<{7} SEARCH$/m.test(system)) return titleLine + editBlocks(content, edit.changes).join('\n\n');
  const next = applyChanges(content, edit.changes).replace(/\n+$/, '');
  return `${titleLine}${DOCUMENT_START}\n${next}\n${DOCUMENT_END}`;
}

/** The `Instruction:` line and the document between the marker lines of the edit prompt. */
function readEditPrompt(prompt: string): { instruction: string; content: string } {
  const lines = prompt.replace(/\r\n?/g, '\n').split('\n');
  const instruction = /^Instruction:[ \t]*(.*)$/m.exec(prompt)?.[1]?.trim() ?? '';
  const start = lines.indexOf(DOCUMENT_START);
  const end = lines.lastIndexOf(DOCUMENT_END);
  return { instruction, content: start >= 0 && end > start ? lines.slice(start + 1, end).join('\n') : '' };
}

/** A paragraph, list or heading of the note: `[start, end)` in the text, without its line break. */
interface Passage {
  start: number;
  end: number;
  /** The heading's level, 0 for anything else. */
  level: number;
}

/** Replace `text.slice(from, to)` with `text` (offsets in the original note). */
interface Change {
  from: number;
  to: number;
  text: string;
}

type Edit = { title?: string; changes: Change[] } | { refusal: string };

/** The note's passages: runs of lines between blank lines; a heading line is a passage of its own. */
function passagesOf(content: string): Passage[] {
  const passages: Passage[] = [];
  let open: Passage | undefined;
  let offset = 0;
  for (const line of content.split('\n')) {
    const end = offset + line.length;
    const level = /^(#{1,6})\s/.exec(line)?.[1]?.length ?? 0;
    if (line.trim() === '') open = undefined;
    else if (level > 0) {
      passages.push({ start: offset, end, level });
      open = undefined;
    } else if (open) open.end = end;
    else {
      open = { start: offset, end, level: 0 };
      passages.push(open);
    }
    offset = end + 1;
  }
  return passages;
}

/** Where in the note the instruction applies: passages `[first, last]`, and how to name it. */
interface Scope {
  first: number;
  last: number;
  name: string;
  whole: boolean;
}

const ORDINALS: Record<string, number> = { first: 0, second: 1, third: 2, last: -1 };
const SCOPE_AFTER =
  /\b(?:in\s+)?(?:the\s+)?(paragraph|section|part)\s+(?:about|on|called|titled|named|headed|mentioning|with)\s+["“]?([^"”,;:.]+?)["”]?(?=\s*[,;:.]|\s+(?:to|into|as|and|with|in)\b|\s*$)/i;
const SCOPE_BEFORE = /\b(?:in\s+|of\s+)?the\s+["“]?([\p{L}\p{N}' -]+?)["”]?\s+(paragraph|section|part)\b/iu;

/** The scope the instruction names, the instruction without it, or a refusal when it names nothing in the note. */
function readScope(instruction: string, content: string, passages: Passage[]): { scope: Scope; rest: string } | { refusal: string } {
  const after = SCOPE_AFTER.exec(instruction);
  const before = after ? null : SCOPE_BEFORE.exec(instruction);
  const match = after ?? before;
  if (!match) return { scope: { first: 0, last: passages.length - 1, name: 'this note', whole: true }, rest: instruction };
  const kind = ((after ? match[1] : match[2]) ?? '').toLowerCase();
  const key = ((after ? match[2] : match[1]) ?? '').trim();
  const rest = instruction.replace(match[0], ' ');
  const text = (passage: Passage) => content.slice(passage.start, passage.end).toLowerCase();
  const sectionOf = (heading: number): Scope => {
    const level = (passages[heading] as Passage).level;
    let last = heading;
    while (last + 1 < passages.length && !((passages[last + 1] as Passage).level > 0 && (passages[last + 1] as Passage).level <= level)) last++;
    return { first: heading, last, name: `the “${key}” section`, whole: false };
  };
  const heading = passages.findIndex((passage) => passage.level > 0 && text(passage).includes(key.toLowerCase()));
  if (kind !== 'paragraph' && heading >= 0) return { scope: sectionOf(heading), rest };
  if (kind === 'section') return { refusal: `Sorry, I can't find a section about “${key}” in this note, so I changed nothing.` };

  const prose = passages.flatMap((passage, index) => (passage.level === 0 ? [index] : []));
  const ordinal = ORDINALS[key.toLowerCase()];
  const found =
    ordinal !== undefined
      ? [prose.at(ordinal)]
      : heading >= 0
        ? [prose.find((index) => index > heading && index <= sectionOf(heading).last)]
        : prose.filter((index) => text(passages[index] as Passage).includes(key.toLowerCase()));
  const index = found[0];
  if (found.length > 1)
    return { refusal: `Sorry, I can't tell which paragraph you mean: “${key}” is in ${found.length} of them. Name its section, or quote a phrase from it.` };
  if (index === undefined) return { refusal: `Sorry, I can't find a paragraph about “${key}” in this note, so I changed nothing.` };
  return { scope: { first: index, last: index, name: `the “${key}” paragraph`, whole: false }, rest };
}

/** What the instruction asks for, as changes to the note (or a new title), else a refusal. */
function planEdit(instruction: string, content: string): Edit {
  const passages = passagesOf(content);
  if (passages.length === 0) return { refusal: "I can't edit an empty note: write something first." };
  const read = readScope(instruction, content, passages);
  if ('refusal' in read) return read;
  const { scope, rest } = read;
  // Keywords count outside quotes only: 'Add "a short list"' adds a line, it does not shorten.
  const wanted = rest.replace(/["“][^"”]*["”]/g, '""').toLowerCase();
  const inScope = passages.slice(scope.first, scope.last + 1);
  const each = (transform: (text: string, passage: Passage) => string): Change[] =>
    inScope.flatMap((passage) => {
      const old = content.slice(passage.start, passage.end);
      const text = transform(old, passage);
      return text === old ? [] : [{ from: passage.start, to: passage.end, text }];
    });

  const quoted = /["“]([^"”]+)["”]/.exec(rest)?.[1];
  const replace = /\b(?:replace|change)\s+["“](.+?)["”]\s+(?:with|to|by|into)\s+["“](.*?)["”]/i.exec(rest);
  if (replace) {
    const [, from = '', to = ''] = replace;
    const changes = each((text) => text.split(from).join(to));
    return changes.length > 0 ? { changes } : { refusal: `Sorry, I can't find “${from}” in ${scope.name}, so I changed nothing.` };
  }
  if (/\b(?:heading|headline)\b/.test(wanted)) {
    const first = inScope.find((passage) => passage.level === 0) ?? (inScope[0] as Passage);
    const words = quoted ?? sentencesOf(content.slice(first.start, first.end))[0]?.replace(/[.!?:]$/, '') ?? 'Notes';
    const at = (inScope[0] as Passage).start;
    return { changes: [{ from: at, to: at, text: `${scope.whole ? '#' : '##'} ${words}\n\n` }] };
  }
  if (quoted !== undefined && /\badd\b/.test(wanted)) {
    const last = passages[scope.last] as Passage;
    const item = /^\s*(?:[-*]|\d+\.)\s/;
    const joined = item.test(quoted) && item.test(content.slice(last.start, last.end).split('\n').at(-1) ?? '') ? '\n' : '\n\n';
    return { changes: [{ from: last.end, to: last.end, text: `${joined}${quoted}` }] };
  }
  if (quoted !== undefined && /\b(?:rename|retitle|title)\b/.test(wanted)) return { title: quoted, changes: [] };
  if (/^\s*(?:please\s+)?(?:delete|remove|drop|cut)\b/.test(wanted)) {
    if (scope.whole) return { refusal: "I can't do that: to delete the whole note, use the Delete button; to delete a part, name its paragraph or section." };
    return { changes: [deletion(content, passages, scope)] };
  }
  const prose = (transform: (text: string) => string) => (text: string, passage: Passage) => (passage.level > 0 ? text : transform(text));
  let changes: Change[] | undefined;
  if (/\b(?:bullet(?:s|ed)?|list)\b/.test(wanted)) {
    changes = each(
      prose((text) =>
        isList(text)
          ? text
          : sentencesOf(text)
              .map((sentence) => `- ${sentence.replace(/\.$/, '')}`)
              .join('\n'),
      ),
    );
  } else if (/\b(?:short(?:en|er)?|summari[sz]e|summary|brief|concise|one sentence|condense|trim)\b/.test(wanted)) {
    changes = each(prose((text) => (isList(text) ? text : (sentencesOf(text)[0] ?? text))));
  } else if (/\b(?:upper ?case|capitals|caps|shout)\b/.test(wanted)) {
    changes = each((text) => text.toUpperCase());
  } else if (/\blower ?case\b/.test(wanted)) {
    changes = each((text) => text.toLowerCase());
  }
  if (!changes) return { refusal: `I can't follow “${instruction}”: ${REPERTOIRE}` };
  return { changes };
}

/** Removes the passages of `scope` with the blank line that separated them from the rest. */
function deletion(_content: string, passages: Passage[], scope: Scope): Change {
  const next = passages[scope.last + 1];
  const previous = passages[scope.first - 1];
  if (next) return { from: (passages[scope.first] as Passage).start, to: next.start, text: '' };
  return { from: previous ? previous.end : 0, to: (passages[scope.last] as Passage).end, text: '' };
}

function isList(text: string): boolean {
  return text.split('\n').every((line) => /^\s*(?:[-*]|\d+\.)\s/.test(line));
}

/** The sentences of a passage, list markers removed. */
function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((line) => line.replace(/^\s*(?:[-*]|\d+\.)\s+/, '').trim())
    .filter(Boolean);
}

/** The note with the changes applied (they are in note order and do not overlap). */
function applyChanges(content: string, changes: readonly Change[]): string {
  let out = '';
  let at = 0;
  for (const change of changes) {
    out += content.slice(at, change.from) + change.text;
    at = change.to;
  }
  return out + content.slice(at);
}

/**
 * The changes as SEARCH/REPLACE blocks, as the edits prompt teaches: each SEARCH is whole lines of
 * the note as the blocks before it left it, grown by the passage before it (or after it) until it
 * occurs once; a long one-line paragraph is quoted by its first and last words (`first ... last`).
 */
function editBlocks(content: string, changes: readonly Change[]): string[] {
  const blocks: string[] = [];
  let current = content;
  let shift = 0;
  for (const change of changes) {
    const passages = passagesOf(current);
    let from = change.from + shift;
    let to = change.to + shift;
    const start = from;
    const end = to;
    for (;;) {
      const search = current.slice(from, to);
      if (search.trim() !== '' && count(current, search) === 1) break;
      const before = passages.filter((passage) => passage.end < from).at(-1);
      const after = passages.find((passage) => passage.start > to);
      if (before) from = before.start;
      else if (after) to = after.end;
      else break;
    }
    const search = current.slice(from, to);
    const replace = current.slice(from, start) + change.text + current.slice(end, to);
    blocks.push(`<<<<<<< SEARCH\n${elided(current, search)}\n=======\n${replace}\n>>>>>>> REPLACE`);
    current = current.slice(0, from) + replace + current.slice(to);
    shift += change.text.length - (change.to - change.from);
  }
  return blocks;
}

/** A long one-line paragraph as `first words ... last words`, when those quote it unambiguously. */
function elided(current: string, search: string): string {
  if (search.includes('\n') || search.length < 240 || /\.\.\.|…/.test(search)) return search;
  const words = search.split(' ');
  const first = words.slice(0, 8).join(' ');
  const last = words.slice(-6).join(' ');
  const unique = count(current, first) === 1 && search.indexOf(last, first.length) === search.length - last.length;
  return unique ? `${first} ... ${last}` : search;
}

function count(text: string, needle: string): number {
  let found = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) found++;
  return found;
}
