/** What a JSON escape letter stands for; any other escaped character stands for itself (`\"`, `\\`, `\/`, `\'`). */
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

/** A JSON string's text, decoded while its characters stream in. */
export interface StreamedText {
  /** Feeds raw characters of the string's body (what lies between its quotes, escapes as written), one or many, cut anywhere. */
  push(raw: string): void;
  /** The decoded text that may be shown now, since the last call. */
  take(): string;
  /** Everything `take()` handed out so far. */
  readonly shown: string;
}

/**
 * Decodes a JSON string value as it streams, for text shown while the model still writes it (a
 * narrate's words). What it hands out, put together, is the string `JSON.parse` gives, trimmed
 * as the envelope validator trims it: leading blanks are dropped and trailing ones held back
 * until more text follows. Escapes may be split across pushes (`\`, then `u00e9`); a high
 * surrogate waits for its pair, so no piece ends in half a character. At most `max` characters
 * are handed out (a longer text is refused by the validator anyway). Default no limit.
 *
 * @example
 * ```ts
 * const text = createStreamedText();
 * for (const char of ' Caf\\u00e9 ') text.push(char);
 * text.take(); // 'Café'
 * ```
 */
export function createStreamedText(max = Number.POSITIVE_INFINITY): StreamedText {
  // null: no escape open; '': right after a backslash; 'u…': the hex digits of a \u escape so far.
  let escape: string | null = null;
  let started = false;
  let held = '';
  let shown = '';

  const add = (decoded: string): void => {
    let text = decoded;
    if (!started) {
      text = text.replace(/^\s+/, '');
      if (text === '') return;
      started = true;
    }
    held += text;
  };

  return {
    push(raw) {
      for (let i = 0; i < raw.length; i++) {
        const char = raw[i] as string;
        if (escape === null) {
          if (char === '\\') escape = '';
          else add(char);
        } else if (escape === '') {
          if (char === 'u') escape = 'u';
          else {
            escape = null;
            add(ESCAPES[char] ?? char);
          }
        } else {
          escape += char;
          if (escape.length === 5) {
            const hex = escape.slice(1);
            add(/^[0-9a-fA-F]{4}$/.test(hex) ? String.fromCharCode(Number.parseInt(hex, 16)) : `\\${escape}`);
            escape = null;
          }
        }
      }
    },
    take() {
      let end = held.length;
      while (end > 0 && /\s/.test(held[end - 1] as string)) end--;
      const last = held.charCodeAt(end - 1);
      if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
      let out = held.slice(0, end);
      held = held.slice(end);
      if (shown.length + out.length > max) out = out.slice(0, Math.max(0, max - shown.length));
      shown += out;
      return out;
    },
    get shown() {
      return shown;
    },
  };
}
