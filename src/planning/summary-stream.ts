const SUMMARY_KEY = 'task_summary';

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

type Mode =
  /** Before the top-level object (prose, a code fence). */
  | 'seek'
  /** Just after a `[` before the object: an array answer (`[{`) has no summary; prose (`[Note]`) goes on. */
  | 'bracket'
  /** Inside the top-level object, outside the summary value. */
  | 'object'
  /** Inside the top-level task_summary string: its text is emitted. */
  | 'summary'
  /** The summary ended, or the top-level object did: nothing more is read. */
  | 'done';

/**
 * Reads the top-level `task_summary` string out of a planner answer while it streams, so a UI can
 * show the summary before the todos are written. Feed it each text delta; it returns the newly
 * decoded summary text (escapes such as `\n`, `\"` and `\uXXXX` decoded, surrogate pairs kept
 * whole even when split across deltas). It tracks only the top-level object's keys: text of any
 * other key, or of a nested `task_summary`, is never returned. A key split across deltas is fine.
 * Prose or a code fence before the object is skipped. Never throws.
 *
 * @example
 * ```ts
 * const summary = new SummaryStream();
 * summary.push('{"task_sum'); // ''
 * summary.push('mary": "Tour \\u00e9'); // 'Tour é'
 * summary.push('t\\u00e9"');  // 'té'
 * summary.text; // 'Tour été'
 * ```
 */
export class SummaryStream {
  #mode: Mode = 'seek';
  #text = '';
  /** Container depth, 1 inside the top-level object. */
  #depth = 0;
  /** The quote of the string being read, when inside one. */
  #quote: string | null = null;
  #escape = false;
  /** At depth 1: whether the next string is a key. */
  #expectKey = false;
  /** At depth 1: whether a value follows (a `:` was read). */
  #expectValue = false;
  /** The key being read (only while inside a depth-1 key string). */
  #key: string | null = null;
  #lastKey = '';
  /** Hex digits of a `\uXXXX` escape in the summary, while reading it. */
  #unicode: string | null = null;
  /** A high surrogate waiting for its pair (it may arrive in the next delta). */
  #high = '';

  /** The summary decoded so far. */
  get text(): string {
    return this.#text;
  }

  /** Whether the summary string has closed (or the top-level object ended without one). */
  get done(): boolean {
    return this.#mode === 'done';
  }

  /** Reads one delta; returns the summary text it added (often `''`). */
  push(chunk: string): string {
    let out = '';
    for (let i = 0; i < chunk.length && this.#mode !== 'done'; i++) {
      const ch = chunk[i] as string;
      if (this.#mode === 'summary') out += this.#summaryChar(ch);
      else if (this.#mode === 'seek') {
        if (ch === '{') this.#enterObject();
        else if (ch === '[') this.#mode = 'bracket';
      } else if (this.#mode === 'bracket') {
        if (/[[{"']/.test(ch)) this.#mode = 'done';
        else if (!/\s/.test(ch)) this.#mode = 'seek';
      } else this.#objectChar(ch);
    }
    this.#text += out;
    return out;
  }

  #enterObject(): void {
    this.#mode = 'object';
    this.#depth = 1;
    this.#expectKey = true;
    this.#expectValue = false;
  }

  #objectChar(ch: string): void {
    if (this.#quote) {
      if (this.#escape) this.#escape = false;
      else if (ch === '\\') this.#escape = true;
      else if (ch === this.#quote) {
        this.#quote = null;
        if (this.#key !== null) {
          this.#lastKey = this.#key;
          this.#key = null;
        }
        return;
      }
      if (this.#key !== null) this.#key += ch;
      return;
    }
    const atTop = this.#depth === 1;
    // Small models write single-quoted JSON too; the JSON repair reads it (repairJson), so the scanner does.
    if (ch === '"' || ch === "'") {
      this.#quote = ch;
      if (atTop && this.#expectKey) {
        this.#key = '';
        this.#expectKey = false;
      } else if (atTop && this.#expectValue) {
        this.#expectValue = false;
        if (this.#lastKey === SUMMARY_KEY) this.#mode = 'summary';
      }
      return;
    }
    if (ch === '{' || ch === '[') {
      this.#depth++;
      this.#expectValue = false;
    } else if (ch === '}' || ch === ']') {
      this.#depth--;
      if (this.#depth <= 0) this.#mode = 'done';
    } else if (atTop) {
      if (ch === ',') {
        this.#expectKey = true;
        this.#lastKey = '';
      } else if (ch === ':') this.#expectValue = true;
      else if (this.#expectKey && !/\s/.test(ch)) {
        // A brace in prose ("use {braces}") is not the JSON object: look for the next one.
        this.#mode = 'seek';
      } else if (!/\s/.test(ch)) this.#expectValue = false;
    }
  }

  #summaryChar(ch: string): string {
    if (this.#unicode !== null) {
      this.#unicode += ch;
      if (this.#unicode.length < 4) return '';
      const code = Number.parseInt(this.#unicode, 16);
      this.#unicode = null;
      return Number.isNaN(code) ? '' : this.#unit(String.fromCharCode(code));
    }
    if (this.#escape) {
      this.#escape = false;
      if (ch === 'u') {
        this.#unicode = '';
        return '';
      }
      return this.#unit(SIMPLE_ESCAPES[ch] ?? ch);
    }
    if (ch === '\\') {
      this.#escape = true;
      return '';
    }
    if (ch === this.#quote) {
      this.#mode = 'done';
      const rest = this.#high;
      this.#high = '';
      return rest;
    }
    return this.#unit(ch);
  }

  /** Emits one UTF-16 unit, holding a high surrogate until the next unit shows whether it pairs. */
  #unit(unit: string): string {
    const code = unit.charCodeAt(0);
    const held = this.#high;
    this.#high = '';
    if (code >= 0xd800 && code <= 0xdbff) {
      this.#high = unit;
      return held;
    }
    return held + unit;
  }
}
