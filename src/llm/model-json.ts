import { describeValue } from '../guards.js';
import { closersOf, isQuote, repairJson } from './repair-json.js';

/** The result of {@link parseModelJson}. */
export type ModelJsonResult =
  | {
      ok: true;
      value: unknown;
      /** The text needed repair (trailing commas, single quotes, a cut-off end, …). */
      repaired: boolean;
      /** The JSON value never closed: the model stopped mid-object and the end was guessed. */
      truncated: boolean;
    }
  | { ok: false; error: string; truncated: boolean };

/** How many `{…}`/`[…]` spans are tried before giving up: prose rarely holds more. */
const MAX_CANDIDATES = 8;

/**
 * How many characters (over all spans) are repaired. The repair is linear, but a reply this long
 * that is not valid JSON as it stands is not worth guessing at: it is refused (the model is asked
 * again). Valid JSON of any length is still read; model replies that need repair are far shorter.
 */
const MAX_REPAIR_CHARS = 64 * 1024;

interface Candidate {
  text: string;
  truncated: boolean;
}

/**
 * Reads the JSON value a model meant to send, tolerating what models do to it: code fences
 * (also with fences inside the JSON's strings), prose before and after, trailing commas, single
 * and typographic quotes, comments, a mismatched closing bracket, a reply stringified once
 * (`"{\"todo\": …}"`), and an end cut off by the token limit. Tries the
 * balanced `{…}` spans in order (a reply that starts with an array of objects is read as that
 * array; other arrays only when no object parses), each strictly first and then repaired
 * (`repairJson`: Python literals, unquoted keys, unescaped quotes and line breaks too).
 * `__proto__` keys are dropped so parsed data can never reach an object's prototype. Repair is
 * only tried on the first 64 KiB of spans; valid JSON is read at any length. `repair` replaces
 * the repair (the tests compare ours with jsonrepair through the whole reader). Default `repairJson`.
 *
 * @example
 * ```ts
 * parseModelJson('Sure! ```json\n{"a": 1,}\n```'); // { ok: true, value: { a: 1 }, repaired: true, truncated: false }
 * parseModelJson('{"todos": [{"intent": "narr'); // { ok: true, …, truncated: true }
 * parseModelJson('I cannot help with that.');     // { ok: false, error: 'no JSON object found …', truncated: false }
 * ```
 */
export function parseModelJson(text: string, repair: (text: string) => string = repairJson): ModelJsonResult {
  if (typeof text !== 'string') return { ok: false, error: `expected the model's answer as text, got ${describeValue(text)}`, truncated: false };
  const source = unescapeReply(text.replace(/^\uFEFF/, ''));
  const candidates = findCandidates(source);
  const first = candidates[0];
  if (!first) {
    return { ok: false, error: 'no JSON object found in the reply; answer with one JSON object and nothing else', truncated: false };
  }
  for (const candidate of candidates) {
    const value = tryParse(candidate.text, false);
    if (value !== undefined) return { ok: true, value, repaired: false, truncated: candidate.truncated };
  }
  let reason = '';
  let budget = MAX_REPAIR_CHARS;
  for (const candidate of candidates) {
    if (candidate.text.length > budget) {
      reason ||= `it is ${candidate.text.length} characters long, too long to repair (the limit is ${MAX_REPAIR_CHARS}); send valid JSON`;
      continue;
    }
    budget -= candidate.text.length;
    try {
      const value = tryParse(repair(candidate.text), true);
      if (value !== undefined) return { ok: true, value, repaired: true, truncated: candidate.truncated };
    } catch (error) {
      reason ||= error instanceof Error ? error.message : String(error);
    }
  }
  reason ||= 'it is not an object or array';
  return {
    ok: false,
    error: first.truncated ? `the JSON was cut off and could not be repaired (${reason})` : `the JSON is malformed (${reason})`,
    truncated: first.truncated,
  };
}

/** A parsed object or array, else undefined (a repair may also throw). */
function tryParse(text: string, rethrow: boolean): unknown {
  try {
    const value: unknown = JSON.parse(text, dropProto);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch (error) {
    if (rethrow) throw error;
    return undefined;
  }
}

function dropProto(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

/**
 * A reply stringified once (`"{\"todo\": \"t1\"}"`, with or without its outer quotes: a model
 * or a proxy escaped its answer) with its escapes undone from its first bracket on, when the first
 * quote after a bracket is escaped; any other reply as it is.
 */
function unescapeReply(text: string): string {
  const start = /[{[]\s*\\?"/.exec(text);
  return start?.[0].includes('\\')
    ? text.slice(0, start.index) + text.slice(start.index).replace(/\\(u[\da-fA-F]{4}|["\\/bfnrt])/g, (escape) => JSON.parse(`"${escape}"`) as string)
    : text;
}

/**
 * The spans that may hold the JSON, best first: a reply that starts (after an optional code
 * fence) with an array of objects, strings or arrays gives that array first; then the `{…}` spans in order; then the
 * JSON-looking `[…]` spans. Spans never overlap, so an inner object of a cut-off outer one is
 * never taken for the answer.
 */
function findCandidates(source: string): Candidate[] {
  // A prose brace that never closes (`Press { to open`), or holds an apostrophe (`{the user's
  // request}`), would swallow the real object as a cut-off span: skip braces that cannot start
  // JSON, unless no other brace is left.
  const found = spansFrom(source, true);
  return found.length > 0 ? found : spansFrom(source, false);
}

function spansFrom(source: string, objectsOnly: boolean): Candidate[] {
  const region = regionStart(source);
  const spans: Array<Candidate & { start: number; array: boolean }> = [];
  for (let i = region; i < source.length && spans.length < MAX_CANDIDATES; i++) {
    const ch = source[i];
    if (!(ch === '{' && (!objectsOnly || looksLikeObject(source, i))) && !(ch === '[' && looksLikeArray(source, i))) continue;
    const end = matchingClose(source, i);
    spans.push({ start: i, array: ch === '[', text: end < 0 ? source.slice(i) : source.slice(i, end + 1), truncated: end < 0 });
    if (end < 0) break;
    i = end;
  }
  const head = spans[0];
  const leading = head?.array && /^\s*$/.test(source.slice(region, head.start)) && /^\[\s*[[{"'“‘]/.test(head.text) ? [head] : [];
  const objects = spans.filter((span) => !span.array);
  const arrays = spans.filter((span) => span.array && !leading.includes(span));
  return [...leading, ...objects, ...arrays];
}

/** Where to start looking: just inside the first code fence whose body starts with JSON, else 0. */
function regionStart(text: string): number {
  for (const match of text.matchAll(/```[a-zA-Z0-9_-]*[^\S\n]*\n?\s*/g)) {
    const next = match.index + match[0].length;
    if (text[next] === '{' || text[next] === '[') return next;
  }
  return 0;
}

/** `{"`, `{'`, `{“`, `{}`, `{key:`, `{ // comment`, or a `{` the text ends after: an object, unlike the `{ to open` of prose. */
function looksLikeObject(text: string, start: number): boolean {
  return /^\{\s*(?:$|["'}/“”‘`]|[A-Za-z_$][\w$]*\s*(?:$|:))/.test(text.slice(start, start + 128));
}

/** `[{`, `["`, `[“`, `[1`, `[]`…: an array, unlike the `[Note]` of prose. */
function looksLikeArray(text: string, start: number): boolean {
  return /^\[\s*[[{"'“‘\d\-\]]/.test(text.slice(start, start + 64));
}

/**
 * The index of the bracket that closes the one at `start`, or -1 when the text ends first.
 * Skips brackets inside strings (double- or single-quoted: small models write both; typographic
 * quotes too) and inside `//` and `/* *\/` comments. A closer that skips levels (`[{…}}`) closes
 * them all, as models mean it; a stray closer with no opener is ignored.
 */
export function matchingClose(text: string, start: number): number {
  const stack: string[] = [];
  // How many of each closer the stack holds: a closer with none open is skipped at once, not by a
  // search of the whole stack (`[[[…}}}` would make that quadratic).
  const open: Record<string, number> = { '}': 0, ']': 0 };
  let quote: string | null = null; // what closes the open string
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (quote.includes(ch as string)) quote = null;
      continue;
    }
    if (isQuote(ch as string)) quote = closersOf(ch as string);
    else if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      if (end < 0) return -1;
      i = end;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return -1;
      i = end + 1;
    } else if (ch === '{' || ch === '[') {
      const closer = ch === '{' ? '}' : ']';
      stack.push(closer);
      open[closer]!++;
    } else if (ch === '}' || ch === ']') {
      if (open[ch] === 0) continue;
      // Pops up to and including the nearest `ch`: each level is popped once, so this is linear overall.
      for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
        open[top]!--;
        if (top === ch) break;
      }
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
