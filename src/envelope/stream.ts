import { EnvelopeError, ValidationError } from '../errors.js';
import { describeValue } from '../guards.js';
import { parseModelJson } from '../llm/model-json.js';
import {
  safeParseTurnEnvelope,
  parseTodoAdjust,
  tooManyActions,
  validateTurnAction,
  validateTurnPlanning,
  type ParseTurnEnvelopeOptions,
  type SafeParseTurnEnvelopeResult,
} from './parse.js';
import { ENVELOPE_LIMITS, type TodoAdjust, type TurnAction, type TurnPlanning } from './schema.js';

/** Options of {@link createEnvelopeStreamParser}: where the pieces go, and the parse options. */
export interface EnvelopeStreamOptions extends ParseTurnEnvelopeOptions {
  /** `turn_planning`, validated, as soon as its object closes. */
  onTurnPlanning?: (planning: TurnPlanning) => void;
  /**
   * `todo_adjust`, validated, once it and `turn_planning` are complete, before the first action:
   * with `{ remove: [], replace: [] }` when there is none. A model that skips `todo_adjust` and
   * goes on to `actions` gets the empty adjust there, so its actions are not held back; if it
   * writes `todo_adjust` after its actions after all, that one comes in a second call at `end()`.
   */
  onTodoAdjust?: (adjust: TodoAdjust) => void;
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

/**
 * Parses a streamed turn envelope piece by piece, so a host can act while the model is still
 * writing: `turn_planning`, then `todo_adjust`, then each action, each validated with the same
 * zod schemas as {@link safeParseTurnEnvelope} and emitted as soon as its JSON value closes.
 *
 * The order is guaranteed even when the model writes the keys in another order: pieces wait for
 * their predecessors. One exception keeps streaming useful: a model that writes `turn_planning`,
 * skips `todo_adjust` and goes on to `actions` (small models drop an empty one) gets an empty
 * adjust there and its actions as they close; a `todo_adjust` it writes after the actions still
 * counts, in a second `onTodoAdjust` at `end()`. Actions before any `turn_planning` wait for
 * `end()`. Text before the object (prose, a code fence) is skipped; strings may hold
 * braces and escaped quotes; keys and escapes may be split across deltas.
 *
 * `end()` returns what `safeParseTurnEnvelope(fullText)` returns, with one exception: if the
 * whole text resolves to something other than the pieces already emitted (a repeated key, a
 * brace in prose before a fenced object), it returns an `envelope_invalid` error, because acting
 * on a different envelope than the one the model meant is worse than a retry.
 *
 * @example
 * ```ts
 * const parser = createEnvelopeStreamParser({
 *   onTurnPlanning: (planning) => console.log('now:', planning.does),
 *   onAction: (action) => dispatch(action), // runs while the rest still streams
 * });
 * for await (const chunk of streamOrGenerate(provider, request)) if (chunk.type === 'text-delta') parser.push(chunk.delta);
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
  let expectKey = true;
  let keyFrom = 0;
  let keyQuote = -1;
  let key: string | undefined;
  let valueStart = -1;
  // Items of the root's `actions` array.
  let inActions = false;
  // A repeated `actions` key: the whole-text parse keeps the last list, so the items of a second
  // list are never emitted while streaming (end() decides; it refuses if the first list ran).
  let actionsSeen = false;
  let itemStart = -1;
  let itemCount = 0;

  let error: EnvelopeError | undefined;
  let planning: TurnPlanning | undefined;
  let adjust: TodoAdjust | undefined;
  const actions: TurnAction[] = [];
  let planningOut = false;
  let adjustOut = false;
  // Set when `actions` began before any `todo_adjust`: the empty adjust went out in its place.
  let adjustAssumed = false;
  let lateAdjust: TodoAdjust | undefined;
  let actionsOut = 0;
  let final: SafeParseTurnEnvelopeResult | undefined;

  const startKey = (from: number) => {
    expectKey = true;
    key = undefined;
    keyFrom = from;
  };

  const markStart = (i: number) => {
    const depth = closers.length;
    if (depth === 1 && !expectKey && valueStart < 0) valueStart = i;
    else if (depth === 2 && inActions && itemStart < 0) itemStart = i;
  };

  const finishMember = (end: number) => {
    if (valueStart < 0) return;
    const piece = slice(valueStart, end);
    valueStart = -1;
    if (key === 'actions') inActions = false;
    guard(() => {
      if (key === 'turn_planning') {
        const value = readJson(piece, 'turn_planning');
        if (value !== null) planning ??= validateTurnPlanning(value); // a repeated key: end() sees the mismatch
      } else if (key === 'todo_adjust') {
        const value = parseTodoAdjust(readJson(piece, 'todo_adjust'), options.remainingIds);
        if (adjustAssumed) lateAdjust ??= value;
        else adjust ??= value;
      }
    });
  };

  const finishItem = (end: number) => {
    if (itemStart < 0) return;
    const piece = slice(itemStart, end);
    itemStart = -1;
    const index = itemCount++;
    guard(() => {
      if (index >= maxActions) throw tooManyActions(maxActions);
      actions.push(validateTurnAction(readJson(piece, `actions[${index}]`), index));
    });
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
    if (planning && !planningOut) {
      planningOut = true;
      options.onTurnPlanning?.(planning);
    }
    if (planningOut && adjust && !adjustOut) {
      adjustOut = true;
      options.onTodoAdjust?.(adjust);
    }
    while (adjustOut && actionsOut < actions.length) {
      const index = actionsOut++;
      options.onAction?.(actions[index] as TurnAction, index);
    }
  };

  const step = (c: string, i: number) => {
    if (mode === 'seek') {
      if (c === '{') {
        mode = 'root';
        closers.push('}');
        startKey(i + 1);
      }
      return;
    }
    if (quote) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === quote) {
        quote = null;
        if (closers.length === 1 && expectKey && keyQuote >= 0) key = readKey(slice(keyQuote, i + 1));
      }
      return;
    }
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') return;
    const depth = closers.length;
    if (c === ',') {
      if (depth === 1) {
        finishMember(i);
        startKey(i + 1);
      } else if (depth === 2 && inActions) finishItem(i);
      return;
    }
    if (c === ':' && depth === 1 && expectKey) {
      // An unquoted key (small models write them; jsonrepair accepts them) is the raw text.
      key ??= slice(keyFrom, i).trim();
      expectKey = false;
      keyQuote = -1;
      return;
    }
    if (c === '}' || c === ']') {
      if (depth === 1) finishMember(i);
      else if (depth === 2 && inActions) finishItem(i);
      if (closers.pop() !== c || closers.length === 0) {
        mode = 'done'; // the root closed (or mismatched brackets): end() judges the whole text
        return;
      }
      if (closers.length === 1) finishMember(i + 1);
      else if (closers.length === 2 && inActions) finishItem(i + 1);
      return;
    }
    markStart(i);
    if (c === '"' || c === "'") {
      quote = c;
      if (depth === 1 && expectKey) keyQuote = i;
    } else if (c === '{' || c === '[') {
      if (depth === 1 && c === '[' && key === 'actions' && !actionsSeen) {
        actionsSeen = true;
        inActions = true;
        // Small models often leave out an empty todo_adjust: do not hold the actions until the end.
        if (planningOut && !adjust && !error) {
          adjust = EMPTY_ADJUST;
          adjustAssumed = true;
          release();
        }
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
    const agrees =
      !error &&
      (!planningOut || same(planning, envelope.turn_planning)) &&
      (!adjustOut || same(adjustAssumed ? (lateAdjust ?? EMPTY_ADJUST) : adjust, finalAdjust)) &&
      actions.slice(0, actionsOut).every((action, index) => same(action, envelope.actions[index]));
    if (!agrees) {
      const message = error
        ? error.message
        : 'Your reply is ambiguous (a repeated key, or more than one JSON object). Send exactly one envelope object.';
      return { success: false, error: new EnvelopeError(error?.code === 'envelope_insert_forbidden' ? error.code : 'envelope_invalid', message, { raw: text, issues: error?.issues ?? [] }) };
    }
    planning = envelope.turn_planning;
    adjust = finalAdjust;
    actions.splice(0, actions.length, ...envelope.actions);
    release();
    if (adjustAssumed && lateAdjust) options.onTodoAdjust?.(finalAdjust); // written after the actions
    if (!adjustOut) {
      // No turn_planning: the adjust and the actions were held back until now.
      adjustOut = true;
      options.onTodoAdjust?.(finalAdjust);
      release();
    }
    return result;
  }
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
