import { EnvelopeError, ValidationError } from '../errors.js';
import { describeValue } from '../guards.js';
import { parseModelJson } from '../llm/model-json.js';
import {
  ENVELOPE_HEADER_KEYS,
  safeParseTurnEnvelope,
  tooManyActions,
  validateEnvelopeHeader,
  validateTurnAction,
  type EnvelopeHeader,
  type ParseTurnEnvelopeOptions,
  type SafeParseTurnEnvelopeResult,
} from './parse.js';
import { ENVELOPE_LIMITS, type TodoAdjust, type TurnAction, type TurnPlanning } from './schema.js';
import { createStreamedText, type StreamedText } from './streamed-text.js';

/** Which narrate a piece of streamed text belongs to, and what is known of it so far. */
export interface NarrateDelta {
  /** The narrate's index in `actions`. */
  index: number;
  /** Its `target` when the model wrote it before the text (as the prompt asks), else `undefined` until `onAction`. */
  target: string | undefined;
  /** The whole text so far, this delta included. */
  text: string;
}

/** Options of {@link createEnvelopeStreamParser}: where the pieces go, and the parse options. */
export interface EnvelopeStreamOptions extends ParseTurnEnvelopeOptions {
  /** `turn_planning` (or the compact `todo`/`last`), validated, as soon as it is known. */
  onTurnPlanning?: (planning: TurnPlanning) => void;
  /**
   * The plan change, validated, before the first action: once `turn_planning` and `todo_adjust`
   * are complete, or when `actions` begins (the compact form, or a full envelope without
   * `todo_adjust`), from what was written before it (`{ remove: [], replace: [] }` when nothing
   * was). A plan change written after the actions comes in a second call at `end()`, with only
   * what the first did not have.
   */
  onTodoAdjust?: (adjust: TodoAdjust) => void;
  /**
   * A narrate's text while it is written: each piece as it arrives, in order, after the plan
   * change and the actions before it, and before `onAction` for this narrate; put together, the
   * pieces are the narrate's (trimmed) text. A narrate whose `type` comes after its text starts
   * when the type is read; one held back (actions before any `todo`) comes whole before `onAction`.
   */
  onNarrateDelta?: (delta: string, narrate: NarrateDelta) => void;
  /** Each action, validated, as soon as its object closes (and after `onTodoAdjust`). */
  onAction?: (action: TurnAction, index: number) => void;
}

/** An incremental envelope parser: feed it deltas, then call `end()`. */
export interface EnvelopeStreamParser {
  /** Feeds the next piece of model text. Handlers run synchronously from here. */
  push(delta: string): void;
  /**
   * Parses the whole text (the same result as `safeParseTurnEnvelope(text)`), emits whatever the
   * stream could not emit early, and returns the result. Idempotent.
   */
  end(): SafeParseTurnEnvelopeResult;
  /** Everything pushed so far. */
  readonly text: string;
  /** The first piece that failed validation: the envelope is bad and nothing more is emitted. */
  readonly error: EnvelopeError | undefined;
}

const EMPTY_ADJUST: TodoAdjust = { remove: [], replace: [] };
const HEADER_KEYS: ReadonlySet<string> = new Set(ENVELOPE_HEADER_KEYS);

/** The action object being read: what its members said so far, and its text as it streams. */
interface OpenItem {
  index: number;
  type?: string;
  target?: string;
  text?: StreamedText;
}

/**
 * Parses a streamed turn envelope piece by piece, so a host can act while the model is still
 * writing: the plan part (`turn_planning` and `todo_adjust`, or the compact `todo`, `last` and
 * `replace`), then each action, each validated with the same validators as
 * {@link safeParseTurnEnvelope} and emitted as soon as its JSON value closes; a narrate's text
 * also streams out while it is written (`onNarrateDelta`).
 *
 * The order is guaranteed even when the model writes the keys in another order: pieces wait for
 * their predecessors. The plan change goes out when `actions` begins at the latest, so a compact
 * envelope (`{"todo":"t3","actions":[…]}`) or a full one without `todo_adjust` does not hold its
 * actions back; a plan change written after the actions still counts, in a second
 * `onTodoAdjust` at `end()`. Actions before any `todo`/`turn_planning` wait for `end()`. Text
 * before the object (prose, a code fence) is skipped; strings may hold braces and escaped quotes;
 * keys and escapes may be split across deltas.
 *
 * `end()` returns what `safeParseTurnEnvelope(fullText)` returns, with one exception: if the
 * whole text resolves to something other than the pieces already emitted (a repeated key, a
 * brace in prose before a fenced object), it returns an `envelope_invalid` error, because acting
 * on a different envelope than the one the model meant is worse than a retry.
 *
 * @example
 * ```ts
 * const bubble = document.querySelector('#guide-bubble')!;
 * declare function dispatch(action: TurnAction): void; // the host runs the action
 * const parser = createEnvelopeStreamParser({
 *   onNarrateDelta: (delta, { text }) => (bubble.textContent = text), // words as they come
 *   onAction: (action) => dispatch(action), // runs while the rest still streams
 * });
 * await callModel(provider, request, { onDelta: (delta) => parser.push(delta) }); // from planloop/planning
 * const result = parser.end(); // { success: true, data: envelope } | { success: false, error }
 * ```
 */
export function createEnvelopeStreamParser(options: EnvelopeStreamOptions = {}): EnvelopeStreamParser {
  const maxActions = options.maxActions ?? ENVELOPE_LIMITS.actions;
  let text = '';
  // The deltas as they came, with where each starts: the scan reads characters and slices pieces
  // from them, never from `text`, because indexing a string built by `+=` makes V8 flatten it
  // (copy it whole), and a reply streamed one character at a time then parsed in quadratic time.
  const chunks: string[] = [];
  const chunkStarts: number[] = [];
  let length = 0;
  let chunkAt = 0; // the chunk holding `pos`
  let pos = 0;
  let mode: 'seek' | 'root' | 'done' = 'seek';
  const closers: string[] = []; // expected closing brackets; the root object is closers[0]
  let quote: string | null = null;
  let escaped = false;
  // Members of the root object.
  const root = memberReader();
  // Items of the root's `actions` array.
  let inActions = false;
  // A repeated `actions` key: the whole-text parse keeps the last list, so the items of a second
  // list are never emitted while streaming (end() decides; it refuses if the first list ran).
  let actionsSeen = false;
  let itemStart = -1;
  let itemCount = 0;
  // Members of the action object being read (depth 3), and whether the open string is its text.
  const itemMembers = memberReader();
  let item: OpenItem | undefined;
  let inText = false;
  const narrations = new Map<number, StreamedText>();

  let error: EnvelopeError | undefined;
  // The plan part's members as written (the first of each key), and what they validate to.
  const members: Record<string, unknown> = {};
  let header: EnvelopeHeader = {};
  const actions: TurnAction[] = [];
  let planningOut = false;
  let emittedPlanning: TurnPlanning | undefined;
  let adjustOut = false;
  let emittedAdjust: TodoAdjust = EMPTY_ADJUST;
  // Whether the emitted adjust was complete (todo_adjust closed, or the end): else more may follow.
  let adjustExact = false;
  let ended = false;
  let actionsOut = 0;
  let final: SafeParseTurnEnvelopeResult | undefined;

  const finishMember = (end: number) => {
    const key = root.key;
    const piece = root.take(slice, end);
    if (piece === undefined) return;
    if (key === 'actions') inActions = false;
    if (key === undefined || !HEADER_KEYS.has(key) || Object.hasOwn(members, key)) return; // a repeat: end() sees the mismatch
    guard(() => {
      members[key] = readJson(piece, key);
      header = validateEnvelopeHeader(members, options);
    });
  };

  const finishItem = (end: number) => {
    if (itemStart < 0) return;
    const piece = slice(itemStart, end);
    itemStart = -1;
    const index = itemCount++;
    item = undefined;
    guard(() => {
      if (index >= maxActions) throw tooManyActions(maxActions);
      actions.push(validateTurnAction(readJson(piece, `actions[${index}]`), index));
    });
  };

  // `type` and `target` of the open action, as soon as each value ends.
  const finishItemMember = (end: number) => {
    const key = itemMembers.key;
    const piece = itemMembers.take(slice, end);
    if (piece === undefined || !item || (key !== 'type' && key !== 'target')) return;
    const value = readJsonLeniently(piece);
    if (typeof value === 'string') item[key] ??= value;
  };

  const guard = (run: () => void) => {
    if (error) return;
    try {
      run();
    } catch (caught) {
      if (!(caught instanceof EnvelopeError)) throw caught;
      error = caught;
      mode = 'done';
      return;
    }
    release();
  };

  const release = () => {
    if (error) return;
    // The compact form's `todo` waits for `actions`: a `last` or `replace` may still follow it.
    const planned = members.turn_planning != null || (actionsSeen && members.todo != null);
    if (!planningOut && (ended || (header.turn_planning !== undefined && planned))) {
      planningOut = true;
      emittedPlanning = header.turn_planning;
      if (emittedPlanning) options.onTurnPlanning?.(emittedPlanning);
    }
    if (planningOut && !adjustOut && (ended || Object.hasOwn(members, 'todo_adjust') || actionsSeen)) {
      adjustOut = true;
      adjustExact = ended || Object.hasOwn(members, 'todo_adjust');
      emittedAdjust = header.todo_adjust ?? EMPTY_ADJUST;
      options.onTodoAdjust?.(emittedAdjust);
    }
    while (adjustOut && actionsOut < actions.length) {
      const index = actionsOut++;
      const action = actions[index] as TurnAction;
      if (action.type === 'narrate') finishNarration(action, index);
      options.onAction?.(action, index);
    }
    streamNarration();
  };

  /** Hands out the open narrate's new words, once the plan change and the actions before it are out. */
  const streamNarration = () => {
    const narration = item?.text;
    if (!item || !narration || item.type !== 'narrate' || error || !adjustOut || actionsOut !== item.index) return;
    const delta = narration.take();
    if (delta !== '') options.onNarrateDelta?.(delta, { index: item.index, target: item.target, text: narration.shown });
  };

  /** What of a closed narrate's text was not handed out yet, before its action goes out. */
  const finishNarration = (action: TurnAction & { type: 'narrate' }, index: number) => {
    const shown = narrations.get(index)?.shown ?? '';
    narrations.delete(index);
    if (shown.length < action.text.length && action.text.startsWith(shown)) {
      options.onNarrateDelta?.(action.text.slice(shown.length), { index, target: action.target, text: action.text });
    }
  };

  const markStart = (c: string, i: number) => {
    const depth = closers.length;
    if (depth === 1) root.markValue(i);
    else if (depth === 2 && inActions && itemStart < 0) {
      itemStart = i;
      if (c === '{') {
        item = { index: itemCount };
        itemMembers.startKey(i + 1);
      }
    } else if (depth === 3 && item && itemMembers.markValue(i) && (c === '"' || c === "'") && itemMembers.key === 'text' && !item.text) {
      item.text = createStreamedText(ENVELOPE_LIMITS.text);
      narrations.set(item.index, item.text);
      inText = true;
    }
  };

  const step = (c: string, i: number) => {
    if (mode === 'seek') {
      if (c === '{') {
        mode = 'root';
        closers.push('}');
        root.startKey(i + 1);
      }
      return;
    }
    const depth = closers.length;
    if (quote) {
      if (!escaped && c === quote) {
        quote = null;
        inText = false;
        if (depth === 1) root.readQuotedKey(slice, i + 1);
        else if (depth === 3 && item) itemMembers.readQuotedKey(slice, i + 1);
        return;
      }
      escaped = !escaped && c === '\\';
      if (inText) item?.text?.push(c);
      return;
    }
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') return;
    if (c === ',') {
      if (depth === 1) {
        finishMember(i);
        root.startKey(i + 1);
      } else if (depth === 2 && inActions) finishItem(i);
      else if (depth === 3 && item) {
        finishItemMember(i);
        itemMembers.startKey(i + 1);
      }
      return;
    }
    if (c === ':') {
      if (depth === 1) root.readBareKey(slice, i);
      else if (depth === 3 && item) itemMembers.readBareKey(slice, i);
      if (depth === 1 || (depth === 3 && item)) return;
    }
    if (c === '}' || c === ']') {
      if (depth === 1) finishMember(i);
      else if (depth === 2 && inActions) finishItem(i);
      else if (depth === 3 && item) finishItemMember(i);
      if (closers.pop() !== c || closers.length === 0) {
        mode = 'done'; // the root closed (or mismatched brackets): end() judges the whole text
        return;
      }
      if (closers.length === 1) finishMember(i + 1);
      else if (closers.length === 2 && inActions) finishItem(i + 1);
      else if (closers.length === 3 && item) finishItemMember(i + 1);
      return;
    }
    markStart(c, i);
    if (c === '"' || c === "'") {
      quote = c;
      if (depth === 1) root.markKeyQuote(i);
      else if (depth === 3 && item) itemMembers.markKeyQuote(i);
    } else if (c === '{' || c === '[') {
      if (depth === 1 && c === '[' && root.key === 'actions' && !actionsSeen) {
        actionsSeen = true;
        inActions = true;
        // The plan change is due now: a model that leaves out todo_adjust (small models drop an
        // empty one), or writes the compact form, must not have its actions held until the end.
        release();
      }
      closers.push(c === '{' ? '}' : ']');
    }
  };

  return {
    push(delta) {
      if (final) throw new ValidationError('Cannot push to an envelope stream parser after end(): make a new parser per reply.', [{ path: 'delta', message: 'came after end()' }]);
      if (typeof delta !== 'string') {
        throw new ValidationError(`An envelope stream parser takes text deltas, not ${describeValue(delta)}.`, [{ path: 'delta', message: 'must be a string' }]);
      }
      text += delta;
      if (delta.length > 0) {
        chunks.push(delta);
        chunkStarts.push(length);
        length += delta.length;
      }
      while (pos < length && mode !== 'done') {
        while (pos >= (chunkStarts[chunkAt] as number) + (chunks[chunkAt] as string).length) chunkAt++;
        const i = pos++; // advanced first: a throwing handler must not make a character count twice
        step((chunks[chunkAt] as string)[i - (chunkStarts[chunkAt] as number)] as string, i);
      }
      streamNarration(); // the words of this delta, at once
    },
    end() {
      if (final) return final;
      final = settle();
      return final;
    },
    get text() {
      return text;
    },
    get error() {
      return error;
    },
  };

  /** `text.slice(from, to)`, read from the chunks (see `chunks`). */
  function slice(from: number, to: number): string {
    if (to <= from) return '';
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

  function settle(): SafeParseTurnEnvelopeResult {
    const result = safeParseTurnEnvelope(text, options);
    if (!result.success) return result;
    const envelope = result.data;
    const finalAdjust = envelope.todo_adjust ?? EMPTY_ADJUST;
    // What the whole text adds to a plan change that went out before its end (written after the actions).
    const late = adjustOut ? (adjustExact ? (same(emittedAdjust, finalAdjust) ? EMPTY_ADJUST : null) : lateAdjust(emittedAdjust, finalAdjust)) : EMPTY_ADJUST;
    const agrees =
      !error &&
      late !== null &&
      (!planningOut || samePlanning(emittedPlanning, envelope.turn_planning)) &&
      actions.slice(0, actionsOut).every((action, index) => same(action, envelope.actions[index]));
    if (!agrees) {
      const message = error
        ? error.message
        : 'Your reply is ambiguous (a repeated key, or more than one JSON object). Send exactly one envelope object.';
      return { success: false, error: new EnvelopeError(error?.code === 'envelope_insert_forbidden' ? error.code : 'envelope_invalid', message, { raw: text, issues: error?.issues ?? [] }) };
    }
    header = { ...(envelope.turn_planning ? { turn_planning: envelope.turn_planning } : {}), todo_adjust: finalAdjust };
    actions.splice(0, actions.length, ...envelope.actions);
    item = undefined;
    ended = true;
    release();
    if (late && (late.remove.length > 0 || late.replace.length > 0 || late.complete_before !== undefined)) options.onTodoAdjust?.(late);
    return result;
  }
}

/** Whether the planning that went out is the one the whole text has (a compact `last` may come late). */
function samePlanning(emitted: TurnPlanning | undefined, final: TurnPlanning | undefined): boolean {
  return emitted?.todo_id === final?.todo_id && emitted?.does === final?.does;
}

/**
 * The part of `final` that `emitted` (the plan change that went out when the actions began) did
 * not have, or `null` when `final` is not `emitted` plus more (the model changed what it said).
 */
function lateAdjust(emitted: TodoAdjust, final: TodoAdjust): TodoAdjust | null {
  const extends_ = <T>(all: readonly T[], start: readonly T[]) => start.every((entry, index) => same(entry, all[index]));
  if (!extends_(final.remove, emitted.remove) || !extends_(final.replace, emitted.replace)) return null;
  if (emitted.complete_before !== undefined && emitted.complete_before !== final.complete_before) return null;
  const late: TodoAdjust = { remove: final.remove.slice(emitted.remove.length), replace: final.replace.slice(emitted.replace.length) };
  if (emitted.complete_before === undefined && final.complete_before !== undefined) late.complete_before = final.complete_before;
  return late;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function readKey(quoted: string): string {
  try {
    return String(JSON.parse(quoted));
  } catch {
    return quoted.slice(1, -1);
  }
}

/** One piece's JSON value; the same tolerance (and `__proto__` dropping) as the whole-text parse. */
function readJson(piece: string, path: string): unknown {
  try {
    return JSON.parse(piece, (key, value: unknown) => (key === '__proto__' ? undefined : value));
  } catch {
    const repaired = parseModelJson(piece);
    if (repaired.ok && !repaired.truncated) return repaired.value;
    throw new EnvelopeError('envelope_invalid', `Invalid envelope: ${path} is not valid JSON. Fix it and send the whole envelope again.`, {
      issues: [{ path, message: 'is not valid JSON' }],
    });
  }
}

/** A piece's JSON value, or `undefined` when it is not valid (for values only peeked at). */
function readJsonLeniently(piece: string): unknown {
  try {
    return readJson(piece, '');
  } catch {
    return undefined;
  }
}

/**
 * Follows the members of one JSON object as its characters stream by: where the current key's
 * quote began, the key once read, and where its value starts. The caller feeds it the structural
 * characters it meets at that object's depth.
 */
function memberReader() {
  let expectKey = true;
  let keyFrom = 0;
  let keyQuote = -1;
  let key: string | undefined;
  let valueStart = -1;
  return {
    get key() {
      return key;
    },
    /** A new member starts after `from` (after `{` or `,`). */
    startKey(from: number) {
      expectKey = true;
      key = undefined;
      keyFrom = from;
      keyQuote = -1;
      valueStart = -1;
    },
    markKeyQuote(i: number) {
      if (expectKey) keyQuote = i;
    },
    /** A quoted key's closing quote, at `end - 1`. */
    readQuotedKey(slice: (from: number, to: number) => string, end: number) {
      if (expectKey && keyQuote >= 0) key = readKey(slice(keyQuote, end));
    },
    /** The `:` after a key, at `i`; an unquoted key (small models write them; jsonrepair accepts them) is the raw text. */
    readBareKey(slice: (from: number, to: number) => string, i: number) {
      if (!expectKey) return;
      key ??= slice(keyFrom, i).trim();
      expectKey = false;
      keyQuote = -1;
    },
    /** Whether `i` starts the current member's value (noted). */
    markValue(i: number): boolean {
      if (expectKey || valueStart >= 0) return false;
      valueStart = i;
      return true;
    },
    /** The value's text up to `end`, once: `undefined` when there is none (already taken, or no value yet). */
    take(slice: (from: number, to: number) => string, end: number): string | undefined {
      if (valueStart < 0) return undefined;
      const piece = slice(valueStart, end);
      valueStart = -1;
      return piece;
    },
  };
}
