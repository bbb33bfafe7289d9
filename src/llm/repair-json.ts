/*
 * The repair of the almost-JSON models write, in one pass over the text: every character is read
 * a bounded number of times (the look-ahead at a closing quote skips only whitespace, never a
 * comment or a string), with an explicit stack instead of recursion and a count of open brackets
 * instead of a search, so a long or deeply nested reply costs time in proportion to its length. It replaced jsonrepair
 * (3.x), which cost ~2.8 KB gzipped at start (parseTurnEnvelope repairs synchronously) and is worse
 * than quadratic on long strings with stray quotes; test/llm/repair-json.test.ts compares the two
 * over a corpus of broken model replies.
 */

/** What is expected next. */
const KEY = 0;
const COLON = 1;
const VALUE = 2;
const AFTER = 3;

const CLOSERS: Record<string, string> = { '{': '}', '[': ']' };
const OPENERS: Record<string, string> = { '}': '{', ']': '[' };
/** JSON's literals, and Python's and JavaScript's words for them. */
const LITERALS: Record<string, string> = { true: 'true', false: 'false', null: 'null', True: 'true', False: 'false', None: 'null', undefined: 'null' };

/**
 * Whitespace outside strings: JavaScript's `\s` (which holds NBSP, the Unicode spaces and the BOM)
 * and the zero-width space and Mongolian vowel separator, which jsonrepair read as spaces too.
 */
const SPACE = /[\s\u180e\u200b]*/y;
/** Whitespace and comments (`//` to the end of the line, `/* … *\/`, or to the end of the text). */
const GAP = /(?:[\s\u180e\u200b]|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))*/y;
/**
 * The quotes a string may open with. `"` and `'` close only themselves; a typographic quote (chat
 * front ends, word processors and some small models write them) closes at any quote of its kind,
 * as jsonrepair read them: `“…”` (or `”…”`, `“…"`, the full-width `＂`), `‘…’` (or `` `…´ ``, `‘…'`).
 */
const DOUBLE = '"\u201c\u201d\uff02';
const SINGLE = "'\u2018\u2019`\u00b4";
const QUOTES = DOUBLE + SINGLE;

/**
 * Whether `ch` opens a string (a straight or typographic quote).
 *
 * @example
 * ```ts
 * isQuote('“'); // true
 * ```
 */
export function isQuote(ch: string): boolean {
  return QUOTES.includes(ch);
}

/**
 * What closes a string opened by the quote `open`.
 *
 * @example
 * ```ts
 * closersOf('“'); // '"“”＂'
 * ```
 */
export function closersOf(open: string): string {
  return open === '"' || open === "'" ? open : DOUBLE.includes(open) ? DOUBLE : SINGLE;
}

/** Characters that stand for themselves in a JSON string. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters end a plain run: JSON escapes them
const PLAIN = /[^"'\\\0-\x1f\u201c\u201d\uff02\u2018\u2019`\u00b4]+/y;
/** A number, or a word starting with a digit or `-` (`12px`, `2024-10-18T18:35Z`, read as a string). */
const NUMBER_RUN = /(?:[\w.+-]|:(?=\d))*/y;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** An unquoted key (`{todo: "t1"}`) and an unquoted value (`pending`, `True`, `hello world`). */
const BARE_KEY = /[^\s\u180e\u200b:,{}[\]/"'\u201c\u201d\uff02\u2018\u2019`\u00b4]+/y;
const BARE_VALUE = /(?:[^,:{}[\]\n"/]|\/(?![/*])|:\/\/)*/y;

/** Where a match of `pattern` (sticky) from `at` ends; `at` when there is none. */
function runEnd(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : at;
}

/**
 * Turns what a model meant as JSON into JSON: strips comments and trailing or doubled commas,
 * quotes unquoted keys and values (an unquoted URL or time too), reads single and typographic
 * quotes (`“…”`, `‘…’`), Unicode spaces between tokens, Python's `True`/`False`/`None`,
 * escapes raw line breaks and quotes that cannot end a string (`"Click "Save" now"`), adds a
 * missing comma, lets a closer that skips levels close them all and ignores one with no
 * opener, drops `...`, and closes what a cut-off end left open (a key with no value gets `null`).
 * Linear in the length of the text. Throws a `SyntaxError` saying where it could not go on.
 *
 * @example
 * ```ts
 * repairJson("{'a': True, b: [1, 2,], // note\n"); // '{"a":true,"b":[1,2]}'
 * repairJson('{"todos": [{"description": "Open pri'); // '{"todos":[{"description":"Open pri"}]}'
 * repairJson('{“todo”: “t1”, “actions”: []}'); // '{"todo":"t1","actions":[]}'
 * ```
 */
export function repairJson(text: string): string {
  const n = text.length;
  const stack: string[] = [];
  // How many of each opener the stack holds: a closer with none open is skipped at once.
  const open: Record<string, number> = { '{': 0, '[': 0 };
  // The output's tokens, joined at the end (appending to one string made a chain of a million
  // small strings on deep input, which the collector then walked).
  const out: string[] = [];
  let i = 0;
  let state = VALUE;
  /** A comma is owed before the next key or value (so a trailing comma is never written). */
  let comma = false;

  const fail = (): never => {
    throw new SyntaxError(`unexpected ${JSON.stringify(text[i] ?? 'end')} at position ${i}`);
  };
  const emit = (token: string, next: number): void => {
    out.push(comma ? `,${token}` : token);
    comma = false;
    state = next;
  };
  /** Closes the innermost open bracket, giving a key or a colon left without a value `null`. */
  const finish = (): void => {
    const top = stack.pop() as string;
    out.push(state === COLON ? ':null' : state === VALUE && top === '{' ? 'null' : '', CLOSERS[top] as string);
    open[top]!--;
    comma = false;
    state = AFTER;
  };
  /**
   * Whether the quote at `q`, one of its string's closers, ends it; else what follows cannot come
   * after a string, and it is a quote the model forgot to escape (`"Click "Save" now"`, `'the
   * user's request'`). It ends the string before a comma, colon or closer, a comment, a line
   * break, the end of the text, or another quote (a comma is missing), unless that quote ends the
   * value (`"labelled "Next""`). The look-ahead skips whitespace only.
   */
  const endsString = (q: number): boolean => {
    const at = runEnd(SPACE, text, q + 1);
    const next = text[at];
    if (next === undefined || ',:}]'.includes(next) || text.slice(q + 1, at).includes('\n')) return true;
    if (isQuote(next)) return !',:}]'.includes(text[runEnd(SPACE, text, at + 1)] ?? ',');
    return next === '/' && (text[at + 1] === '/' || text[at + 1] === '*');
  };
  /**
   * The string at `i` as a JSON string; `i` ends past its closing quote (or at the end of the
   * text). A key ends at its first closing quote; a value's quote is judged by `endsString`.
   */
  const readString = (key: boolean): string => {
    const closers = closersOf(text[i] as string);
    let value = '"';
    i++;
    while (i < n) {
      const end = runEnd(PLAIN, text, i);
      value += text.slice(i, end);
      i = end;
      const ch = text[i];
      if (ch === undefined) break;
      if (ch === '\\') {
        const escaped = text[++i];
        if (escaped === undefined) break; // cut off after the backslash
        i++;
        if (escaped === 'u') {
          const hex = text.slice(i, i + 4);
          if (/^[\da-fA-F]{4}$/.test(hex)) {
            value += `\\u${hex}`;
            i += 4;
          } else if (i + 4 > n && /^[\da-fA-F]*$/.test(hex)) {
            i = n; // cut off inside \uXXXX
          } else value += 'u';
        } else {
          // JSON's escapes stay; any other escaped character stands for itself (`\'` is `'`).
          value += '"\\/bfnrt'.includes(escaped) ? `\\${escaped}` : escape(escaped);
        }
      } else if (closers.includes(ch) && (key || endsString(i))) {
        i++;
        return `${value}"`;
      } else {
        value += escape(ch);
        i++;
      }
    }
    // Cut off: spaces (and a comma) at the cut are dropped, as jsonrepair did (other Unicode spaces stay).
    i = n;
    value = value.replace(/ +$/, '');
    return `${value.endsWith(',') ? value.slice(0, -1).replace(/ +$/, '') : value}"`;
  };

  while (true) {
    i = runEnd(GAP, text, i);
    const ch = text[i];
    if (ch === undefined || text.startsWith('```', i)) break; // the end, or a code fence after cut-off JSON
    if (state === AFTER) {
      if (stack.length === 0) fail(); // text after the JSON value
      if (ch === ',') {
        comma = true;
        state = stack[stack.length - 1] === '{' ? KEY : VALUE;
        i++;
        continue;
      }
      if (ch === ':') fail();
      if (!(ch in OPENERS)) {
        comma = true; // a missing comma
        state = stack[stack.length - 1] === '{' ? KEY : VALUE;
        continue;
      }
    }
    if (ch in OPENERS) {
      // A closer closes the levels above its opener too (`[{…}}`); one with no opener is ignored.
      if (open[OPENERS[ch] as string]) {
        while (stack[stack.length - 1] !== OPENERS[ch]) finish();
        finish();
      }
      i++;
      continue;
    }
    if (text.startsWith('...', i) && state !== COLON) {
      i += 3; // `[1, 2, ...]`
      continue;
    }
    if (state === COLON) {
      if (ch !== ':') fail();
      i++;
      state = VALUE;
      out.push(':');
      continue;
    }
    if (state === KEY) {
      if (ch === ',') i++;
      else if (isQuote(ch)) emit(readString(true), COLON);
      else {
        const end = runEnd(BARE_KEY, text, i);
        if (end === i) fail();
        emit(JSON.stringify(text.slice(i, end)), COLON);
        i = end;
      }
      continue;
    }
    // state === VALUE
    if (ch === ',') {
      if (stack[stack.length - 1] === '{') emit('null', AFTER);
      else i++; // `[1,,2]`
    } else if (ch in CLOSERS) {
      emit(ch, ch === '{' ? KEY : VALUE);
      stack.push(ch);
      open[ch]!++;
      i++;
    } else if (isQuote(ch)) {
      emit(readString(false), AFTER);
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const end = runEnd(NUMBER_RUN, text, i);
      const raw = text.slice(i, end);
      // A number cut off after `-`, `.` or the exponent's `e` is completed with a 0, as JSON allows.
      emit(JSON_NUMBER.test(raw) ? raw : JSON_NUMBER.test(`${raw}0`) ? `${raw}0` : JSON.stringify(raw), AFTER);
      i = end;
    } else {
      const end = runEnd(BARE_VALUE, text, i);
      const word = text.slice(i, end).trim();
      if (!word) fail();
      emit(Object.hasOwn(LITERALS, word) ? (LITERALS[word] as string) : JSON.stringify(word), AFTER);
      i = end;
    }
  }
  while (stack.length > 0) finish();
  if (state !== AFTER) fail(); // no value at all
  return out.join('');
}

/** A character as it is written inside a JSON string. */
function escape(ch: string): string {
  return ch === '"' || ch === '\\' || ch < ' ' ? JSON.stringify(ch).slice(1, -1) : ch;
}
