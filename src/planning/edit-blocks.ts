/**
 * SEARCH/REPLACE edit blocks: the answer form that lets a model change a long document without
 * sending it back whole. See `edit-prompts.ts` for the syntax the model is taught.
 */

/** One edit: replace the one occurrence of `search` with `replace`. */
export interface EditBlock {
  search: string;
  replace: string;
}

/** What {@link parseEditBlocks} found in a model's answer (line breaks already `\n`). */
export interface ParsedBlocks {
  /** The complete blocks, in order. */
  blocks: EditBlock[];
  /** The answer ended inside a block (before its `>>>>>>> REPLACE`). */
  unclosed: boolean;
  /** Blocks that cannot be read, as sentences for the model ("block 2 has no ======= line"). */
  malformed: string[];
  /** The text before the first block (where a `Title:` line may be). */
  before: string;
}

/** Any count from 5 to 9 is read: small models miscount the 7 of git's conflict markers. */
const OPEN = /^\s*<{5,9}\s*SEARCH\b.*$/i;
const DIVIDER = /^\s*={5,9}\s*$/;
const CLOSE = /^\s*>{5,9}\s*REPLACE\b.*$/i;

/**
 * Reads the SEARCH/REPLACE blocks of an answer. Text between blocks (prose, code fences around
 * them) is ignored. Once a block's `=======` is read, further `=======` lines belong to its
 * replacement (a setext heading underline can be one).
 *
 * @example
 * ```ts
 * parseEditBlocks('<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE');
 * // { blocks: [{ search: 'old', replace: 'new' }], unclosed: false, malformed: [], before: '' }
 * ```
 */
export function parseEditBlocks(text: string): ParsedBlocks {
  const result: ParsedBlocks = { blocks: [], unclosed: false, malformed: [], before: '' };
  const lines = text.split('\n');
  let state: 'out' | 'search' | 'replace' = 'out';
  let search: string[] = [];
  let replace: string[] = [];
  let firstOpen = -1;
  const fail = (problem: string): void => {
    result.malformed.push(`block ${result.blocks.length + result.malformed.length + 1} ${problem}`);
  };
  lines.forEach((line, index) => {
    if (state === 'out') {
      if (!OPEN.test(line)) return;
      if (firstOpen < 0) firstOpen = index;
      state = 'search';
      search = [];
    } else if (state === 'search') {
      if (DIVIDER.test(line)) {
        state = 'replace';
        replace = [];
      } else if (OPEN.test(line) || CLOSE.test(line)) {
        fail('has no ======= line between its SEARCH and REPLACE parts');
        state = OPEN.test(line) ? 'search' : 'out';
        search = [];
      } else search.push(line);
    } else if (CLOSE.test(line)) {
      result.blocks.push({ search: search.join('\n'), replace: replace.join('\n') });
      state = 'out';
    } else if (OPEN.test(line)) {
      fail('has no >>>>>>> REPLACE line');
      state = 'search';
      search = [];
    } else replace.push(line);
  });
  result.unclosed = state !== 'out';
  result.before = firstOpen < 0 ? text : lines.slice(0, firstOpen).join('\n');
  return result;
}

/** Why a block could not be applied. */
export interface BlockFailure {
  /** 0-based index of the block. */
  index: number;
  reason: 'missing' | 'ambiguous' | 'empty';
  /** How often the SEARCH text occurs (0 when missing or empty). */
  count: number;
}

/**
 * Applies blocks one after the other, all or nothing: each block's SEARCH text must occur exactly
 * once in the document as the blocks before it left it. A SEARCH that is not found as it is, is
 * looked for again as whole lines, ignoring spaces at line ends and blank lines around it (small
 * models drop trailing spaces and add blank lines), then as an elided passage: `first words ...
 * last words`, matched within one paragraph. An empty replacement of whole lines also
 * removes the line break after them, so a deleted list item leaves no blank line. `text` uses `\n`.
 *
 * @example
 * ```ts
 * applyEditBlocks('a\nb\nc', [{ search: 'b', replace: 'B' }]); // { ok: true, text: 'a\nB\nc' }
 * applyEditBlocks('a\na', [{ search: 'a', replace: 'b' }]);   // { ok: false, index: 0, reason: 'ambiguous', count: 2 }
 * ```
 */
export function applyEditBlocks(text: string, blocks: readonly EditBlock[]): { ok: true; text: string } | ({ ok: false } & BlockFailure) {
  let current = text;
  for (const [index, block] of blocks.entries()) {
    if (block.search.trim() === '') return { ok: false, index, reason: 'empty', count: 0 };
    const found = locate(current, block.search);
    if (found.count !== 1) return { ok: false, index, reason: found.count === 0 ? 'missing' : 'ambiguous', count: found.count };
    let { start, end } = found;
    const wholeLines = (start === 0 || current[start - 1] === '\n') && (end === current.length || current[end] === '\n');
    if (block.replace === '' && wholeLines && current[end] === '\n') end++;
    current = current.slice(0, start) + block.replace + current.slice(end);
  }
  return { ok: true, text: current };
}

/** Where `search` occurs in `text` (when once) and how often: exactly, else as trimmed lines, else elided. */
function locate(text: string, search: string): { count: number; start: number; end: number } {
  const exact = occurrences(text, search);
  if (exact.length > 0) {
    const start = exact[0] as number;
    return { count: exact.length, start, end: start + search.length };
  }
  const lines = locateLines(text, search);
  return lines.count === 0 && ELISION.test(search) ? locateElided(text, search) : lines;
}

/** ` ... ` or ` … ` between words of a SEARCH text. */
const ELISION = /\s*(?:\.\.\.|…)\s*/;
/**
 * An elided SEARCH ("The Starter plan is free ... billed yearly."): its parts in order, within one
 * paragraph, each from where the one before ended. Models write this for long passages unasked;
 * the prompt allows it, which keeps the answer short when a long paragraph is rewritten.
 */
function locateElided(text: string, search: string): { count: number; start: number; end: number } {
  const [first = '', ...rest] = search.trim().split(ELISION);
  if (first === '' || rest.some((part) => part === '')) return { count: 0, start: 0, end: 0 };
  let count = 0;
  let match = { start: 0, end: 0 };
  for (const start of occurrences(text, first)) {
    let end = start + first.length;
    for (const part of rest) {
      // Only up to the next blank line: an elision never crosses a paragraph.
      const paragraph = text.slice(end, paragraphEnd(text, end));
      const at = paragraph.indexOf(part);
      end = at < 0 ? -1 : end + at + part.length;
      if (end < 0) break;
    }
    if (end < 0) continue;
    count++;
    match = { start, end };
  }
  return { count, ...match };
}

const BLANK_LINE = /\n[ \t]*\n/g;

/** Where the paragraph that `from` is in ends: its blank line, or the end of the text. */
function paragraphEnd(text: string, from: number): number {
  BLANK_LINE.lastIndex = from;
  return BLANK_LINE.exec(text)?.index ?? text.length;
}

/** The whole lines equal to `search`'s, ignoring spaces at line ends and blank lines around it. */
function locateLines(text: string, search: string): { count: number; start: number; end: number } {
  const wanted = search.split('\n').map((line) => line.trimEnd());
  while (wanted.length > 0 && wanted[0] === '') wanted.shift();
  while (wanted.length > 0 && wanted[wanted.length - 1] === '') wanted.pop();
  if (wanted.length === 0) return { count: 0, start: 0, end: 0 };
  const lines = text.split('\n');
  const starts: number[] = [];
  let offset = 0;
  let match = { start: 0, end: 0 };
  let count = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  for (let i = 0; i + wanted.length <= lines.length; i++) {
    if (!wanted.every((line, k) => (lines[i + k] as string).trimEnd() === line)) continue;
    count++;
    const last = i + wanted.length - 1;
    match = { start: starts[i] as number, end: (starts[last] as number) + (lines[last] as string).length };
  }
  return { count, ...match };
}

/** Every index where `needle` starts in `text`, overlapping ones included. */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}
