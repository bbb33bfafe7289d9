/*
 * The lexical half of the streaming envelope parser: it knows JSON's punctuation, strings and
 * members, and nothing of envelopes. It reads what models write, not only strict JSON: text
 * before the object is skipped, keys may be unquoted (`{todo: "t1"}`), strings may use single
 * quotes, and a value is whatever lies between its member's `:` and the next `,` or closing
 * bracket (`tru e`, `1 2`): judging values is the consumer's job (it slices the text and parses
 * it). Every position is an offset into the text pushed so far, in UTF-16 code units.
 */

/**
 * What a {@link JsonScanner} reports, in text order; every method is optional. `depth` is how
 * many containers enclose the token: the root object's `{` is at 0, its members at 1, the items
 * of an array member at 2. `key` is the key of the member the token belongs to (`undefined` in
 * arrays and before a key is read).
 */
export interface JsonScanHandler {
  /** A `{` or `[` at `at`, opening a value at `depth` (the root object at 0). */
  open?(bracket: '{' | '[', at: number, depth: number, key: string | undefined): void;
  /** The matching `}` or `]` at `at`, closing the value at `depth`; after the root's, the scan stops. */
  close?(bracket: '}' | ']', at: number, depth: number): void;
  /** A member's key, once read: a quoted key at its closing quote (decoded), an unquoted one (trimmed) at its `:`. */
  key?(key: string, depth: number): void;
  /** A member's or an item's value begins at `at` with `first` (a quote, a bracket, or the first character of a bare word). Once per value. */
  valueStart?(first: string, at: number, depth: number, key: string | undefined): void;
  /**
   * That value ended: it is the text `from`..`to` (exclusive), trailing blanks included, at its
   * `,`, at its container's closing bracket, or right after its own closing bracket (not waiting
   * for the comma), whichever comes first.
   */
  valueEnd?(from: number, to: number, depth: number, key: string | undefined): void;
  /** A string (a key or a value) opens with `quote` at `at`. */
  stringStart?(quote: '"' | "'", at: number, depth: number): void;
  /** More of the open string's body, raw: escapes as written, possibly cut inside one (`\`, then `u00e9`). */
  stringDelta?(raw: string, depth: number): void;
  /** The open string's closing quote, at `at`. */
  stringEnd?(at: number, depth: number): void;
}

/** An incremental JSON scanner: push text, it reports tokens as they complete. */
export interface JsonScanner {
  /** Appends `chunk` and scans as far as the text goes. Handlers run synchronously from here; if one throws, the next push (even `''`) resumes with the event after it. */
  push(chunk: string): void;
  /** The text pushed so far from `from` to `to` (exclusive), read from the chunks without joining them all. */
  slice(from: number, to: number): string;
  /** Stops the scan: no more events. */
  stop(): void;
  /** Whether the scan is over: the root object closed, a closing bracket did not match, or `stop()`. */
  readonly done: boolean;
}

/** One open container: its closing bracket and, for an object, where its current member stands. */
interface Frame {
  closer: number;
  object: boolean;
  /** Whether the next non-blank text is a key (an object, between `{` or `,` and `:`). */
  expectKey: boolean;
  /** Where the current member's text begins (after `{` or `,`): an unquoted key is read from here. */
  keyFrom: number;
  /** Where the last string written as the key opened, or -1. */
  keyQuote: number;
  key: string | undefined;
  /** Where the current member's or item's value begins, or -1 before it (and after it ended). */
  valueStart: number;
}

/** One event for the outbox: a handler method's name and its arguments. */
type Events = { [K in keyof JsonScanHandler]-?: [K, Parameters<NonNullable<JsonScanHandler[K]>>] }[keyof JsonScanHandler];

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const APOSTROPHE = 39;
const COMMA = 44;
const COLON = 58;
const LBRACKET = 91;
const BACKSLASH = 92;
const RBRACKET = 93;
const LBRACE = 123;
const RBRACE = 125;

/**
 * Scans the first JSON object in streamed text, chunk by chunk, reporting keys, value spans,
 * brackets and string bodies to `handler` as soon as each is complete. Chunks may be cut
 * anywhere (inside a key, an escape or a surrogate pair); the events are the same however the
 * text is cut, except that a string body arrives in as many `stringDelta` pieces as it was cut
 * into. Text before the first `{` is skipped; the scan stops when that object closes or a
 * closing bracket does not match. Tolerant as model text needs (see the file's header); no
 * depth limit (the state is one small record per open container).
 *
 * @example
 * ```ts
 * const keys: string[] = [];
 * const scanner = createJsonScanner({ key: (key, depth) => keys.push(`${depth}:${key}`) });
 * scanner.push('Sure: {"todo": "t1", act');
 * scanner.push("ions: [{'type': 'narrate'}]}");
 * keys; // ['1:todo', '1:actions', '3:type']
 * scanner.done; // true
 * ```
 */
export function createJsonScanner(handler: JsonScanHandler): JsonScanner {
  // The chunks as they came, with where each starts: the scan reads characters and slices pieces
  // from them, never from one joined string, because indexing a string built by `+=` makes V8
  // flatten it (copy it whole), and a reply streamed one character at a time then scans in
  // quadratic time.
  const chunks: string[] = [];
  const chunkStarts: number[] = [];
  let length = 0;
  let chunkAt = -1; // the chunk holding `pos`
  let chunk = '';
  let chunkStart = 0;
  let pos = 0;
  let seeking = true;
  let done = false;
  let quote = 0; // the open string's quote, or 0
  let escaped = false;
  const frames: Frame[] = []; // reused: frames[0] is the root object
  let depth = 0; // open containers
  // The events of the character being read: the scan moves on before handlers run, so a handler
  // that throws leaves it consistent, and the next push delivers the events after the failed one.
  const outbox: Events[] = [];

  const post = (...event: Events) => outbox.push(event);

  const deliver = () => {
    for (let event = outbox.shift(); event; event = outbox.shift()) (handler[event[0]] as ((...args: unknown[]) => void) | undefined)?.(...event[1]);
  };

  const openFrame = (closer: number, from: number) => {
    const frame = (frames[depth] ??= { closer, object: true, expectKey: true, keyFrom: 0, keyQuote: -1, key: undefined, valueStart: -1 });
    depth++;
    frame.closer = closer;
    frame.object = closer === RBRACE;
    startKey(frame, from);
  };

  /** A new member (or item) begins after `from`. */
  const startKey = (frame: Frame, from: number) => {
    frame.expectKey = frame.object;
    frame.key = undefined;
    frame.keyFrom = from;
    frame.keyQuote = -1;
    frame.valueStart = -1;
  };

  /** The top container's current value begins at `at`, unless it already has (or a key is expected). */
  const markValue = (first: string, at: number) => {
    const frame = frames[depth - 1] as Frame;
    if (frame.expectKey || frame.valueStart >= 0) return;
    frame.valueStart = at;
    post('valueStart', [first, at, depth, frame.key]);
  };

  /** The value of `frame` (at `frameDepth`) ends before `end`, if it had begun. */
  const endValue = (frame: Frame, end: number, frameDepth: number) => {
    if (frame.valueStart < 0) return;
    post('valueEnd', [frame.valueStart, end, frameDepth, frame.key]);
    frame.valueStart = -1;
  };

  /** One character outside strings, at `at`, inside the root object. */
  const step = (c: number, at: number) => {
    const frame = frames[depth - 1] as Frame;
    if (c === COMMA) {
      endValue(frame, at, depth);
      if (frame.object) startKey(frame, at + 1);
    } else if (c === COLON && frame.object) {
      if (!frame.expectKey) return;
      frame.expectKey = false;
      frame.keyQuote = -1;
      if (frame.key === undefined) {
        frame.key = slice(frame.keyFrom, at).trim();
        post('key', [frame.key, depth]);
      }
    } else if (c === RBRACE || c === RBRACKET) {
      endValue(frame, at, depth);
      depth--;
      if (frame.closer !== c || depth === 0) done = true; // the root closed, or brackets mismatched: the rest is the consumer's whole-text parse
      if (frame.closer !== c) return;
      post('close', [c === RBRACE ? '}' : ']', at, depth]);
      if (depth > 0) endValue(frames[depth - 1] as Frame, at + 1, depth);
    } else if (c === QUOTE || c === APOSTROPHE) {
      const mark = c === QUOTE ? '"' : "'";
      markValue(mark, at);
      if (frame.expectKey) frame.keyQuote = at;
      quote = c;
      post('stringStart', [mark, at, depth]);
    } else if (c === LBRACE || c === LBRACKET) {
      const bracket = c === LBRACE ? '{' : '[';
      markValue(bracket, at);
      const key = frame.key;
      openFrame(c === LBRACE ? RBRACE : RBRACKET, at + 1);
      post('open', [bracket, at, depth - 1, key]);
    } else if (c !== SPACE && c !== LF && c !== CR && c !== TAB) {
      markValue(String.fromCharCode(c), at); // a bare word (or a `:` in an array): only its first character counts
    }
  };

  /** Reads the open string's body up to its closing quote or the end of the current chunk. */
  const stringRun = () => {
    const offset = pos - chunkStart;
    let i = offset;
    while (i < chunk.length) {
      const c = chunk.charCodeAt(i);
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === quote) break;
      i++;
    }
    pos = chunkStart + i;
    // Handed over at once (the outbox is empty here): a string's body is most of the text. Should
    // the handler throw, the closing quote is still unread and the next push resumes there.
    if (i > offset) handler.stringDelta?.(chunk.slice(offset, i), depth);
    if (i === chunk.length) return;
    const at = pos++;
    const frame = frames[depth - 1] as Frame;
    post('stringEnd', [at, depth]);
    if (frame.expectKey && frame.keyQuote >= 0) {
      frame.key = readKey(slice(frame.keyQuote, at + 1));
      post('key', [frame.key, depth]);
    }
    quote = 0;
  };

  const scan = () => {
    deliver(); // what a throwing handler left
    while (pos < length && !done) {
      while (pos >= chunkStart + chunk.length) {
        chunk = chunks[++chunkAt] as string;
        chunkStart = chunkStarts[chunkAt] as number;
      }
      if (seeking) {
        const brace = chunk.indexOf('{', pos - chunkStart);
        pos = brace < 0 ? chunkStart + chunk.length : chunkStart + brace + 1;
        if (brace < 0) continue;
        seeking = false;
        openFrame(RBRACE, pos);
        post('open', ['{', pos - 1, 0, undefined]);
      } else if (quote !== 0) stringRun();
      else {
        const at = pos++; // advanced first: a throwing handler must not make a character count twice
        step(chunk.charCodeAt(at - chunkStart), at);
      }
      deliver();
    }
  };

  function slice(from: number, to: number): string {
    if (to <= from) return '';
    if (from >= chunkStart && to <= chunkStart + chunk.length) return chunk.slice(from - chunkStart, to - chunkStart);
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((chunkStarts[mid] as number) <= from) lo = mid;
      else hi = mid - 1;
    }
    const parts: string[] = [];
    for (let c = lo; c < chunks.length && (chunkStarts[c] as number) < to; c++) {
      const start = chunkStarts[c] as number;
      parts.push((chunks[c] as string).slice(Math.max(0, from - start), to - start));
    }
    return parts.join('');
  }

  return {
    push(text) {
      if (text.length > 0) {
        chunks.push(text);
        chunkStarts.push(length);
        length += text.length;
      }
      scan();
    },
    slice,
    stop() {
      done = true;
      outbox.length = 0;
    },
    get done() {
      return done;
    },
  };
}

/** A quoted key's text: JSON's decoding for a double-quoted one, else (single quotes, a bad escape) what lies between the quotes. */
function readKey(quoted: string): string {
  if (quoted.charCodeAt(0) !== QUOTE || !quoted.includes('\\')) return quoted.slice(1, -1);
  try {
    return String(JSON.parse(quoted));
  } catch {
    return quoted.slice(1, -1);
  }
}
