import { jsonrepair } from 'jsonrepair';

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

/**
 * Reads the JSON value a model meant to send, tolerating what models do to it: code fences,
 * prose before and after, trailing commas, single quotes, comments, and an end cut off by the
 * token limit. Finds the first balanced `{…}` (else `[…]`), parses it, and falls back to jsonrepair.
 * `__proto__` keys are dropped so parsed data can never reach an object's prototype.
 *
 * @example
 * ```ts
 * parseModelJson('Sure! ```json\n{"a": 1,}\n```'); // { ok: true, value: { a: 1 }, repaired: true, truncated: false }
 * parseModelJson('{"todos": [{"intent": "narr'); // { ok: true, …, truncated: true }
 * parseModelJson('I cannot help with that.');     // { ok: false, error: 'no JSON object found …', truncated: false }
 * ```
 */
export function parseModelJson(text: string): ModelJsonResult {
  const source = unfence(text.replace(/^\uFEFF/, ''));
  // Objects first: prose such as "[Note]" before the JSON must not be taken for an array.
  let start = source.indexOf('{');
  if (start < 0) start = source.indexOf('[');
  if (start < 0) {
    return { ok: false, error: 'no JSON object found in the reply; answer with one JSON object and nothing else', truncated: false };
  }
  const end = matchingClose(source, start);
  const truncated = end < 0;
  const candidate = truncated ? source.slice(start) : source.slice(start, end + 1);
  try {
    return { ok: true, value: JSON.parse(candidate, dropProto), repaired: false, truncated };
  } catch {
    // fall through to repair
  }
  try {
    return { ok: true, value: JSON.parse(jsonrepair(candidate), dropProto), repaired: true, truncated };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: truncated ? `the JSON was cut off and could not be repaired (${reason})` : `the JSON is malformed (${reason})`,
      truncated,
    };
  }
}

function dropProto(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

/** The inside of the first ``` fence that holds JSON, else the text itself. */
function unfence(text: string): string {
  const fence = /```[a-zA-Z0-9_-]*[^\S\n]*\n?([\s\S]*?)(?:```|$)/g;
  for (const match of text.matchAll(fence)) {
    const body = match[1] ?? '';
    if (/[{[]/.test(body)) return body;
  }
  return text;
}

/**
 * The index of the bracket that closes the one at `start`, or -1 when the text ends first.
 * Skips brackets inside strings (double- or single-quoted: small models write both).
 */
export function matchingClose(text: string, start: number): number {
  const stack: string[] = [];
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
