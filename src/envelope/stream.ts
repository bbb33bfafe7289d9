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
import { createJsonScanner } from './json-scanner.js';
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
   * The same signature as a run's `user.narrateDelta`: the piece, the `target` when known, the rest.
   */
  onNarrateDelta?: (delta: string, target: string | undefined, narrate: NarrateDelta) => void;
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

/**
 * Where the reader is in the envelope: among the root's members (the plan part, and whatever
 * follows the actions), in the `actions` array, in an action object, or in a narrate's text.
 */
type Place = 'members' | 'actions' | 'action' | 'text';

/**
 * What goes out next: the planning (`planning`: nothing went out yet), the plan change (`adjust`:
 * the planning went out), or the actions one by one (`actions`: the plan change went out);
 * `failed` once a piece did not validate (nothing more goes out).
 */
type Stage = 'planning' | 'adjust' | 'actions' | 'failed';

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
 * keys and escapes may be split across deltas. The JSON itself is read by
 * {@link createJsonScanner}; this reader follows the envelope's places in it and the order in
 * which its pieces may go out.
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
 *   onNarrateDelta: (delta, target, { text }) => (bubble.textContent = text), // words as they come
 *   onAction: (action) => dispatch(action), // runs while the rest still streams
 * });
 * await callModel(provider, request, { onDelta: (delta) => parser.push(delta) }); // from planloop/planning
 * const result = parser.end(); // { success: true, data: envelope } | { success: false, error }
 * ```
 */
export function createEnvelopeStreamParser(options: EnvelopeStreamOptions = {}): EnvelopeStreamParser {
  const maxActions = options.maxActions ?? ENVELOPE_LIMITS.actions;
  let text = '';
  let place: Place = 'members';
  // A repeated `actions` key: the whole-text parse keeps the last list, so the items of a second
  // list are never emitted while streaming (end() decides; it refuses if the first list ran).
  let actionsSeen = false;
  let itemCount = 0;
  let item: OpenItem | undefined;
  const narrations = new Map<number, StreamedText>();

  let stage: Stage = 'planning';
  let error: EnvelopeError | undefined;
  // The plan part's members as written (the first of each key), and what they validate to.
  const members: Record<string, unknown> = {};
  let header: EnvelopeHeader = {};
  const actions: TurnAction[] = [];
  let emittedPlanning: TurnPlanning | undefined;
  let emittedAdjust: TodoAdjust = EMPTY_ADJUST;
  // Whether the emitted adjust was complete (todo_adjust closed, or the end): else more may follow.
  let adjustExact = false;
  let ended = false;
  let actionsOut = 0;
  let final: SafeParseTurnEnvelopeResult | undefined;

  const scanner = createJsonScanner({
    open(bracket, _at, depth, key) {
      if (depth !== 1 || bracket !== '[' || key !== 'actions' || actionsSeen) return;
      actionsSeen = true;
      place = 'actions';
      // The plan change is due now: a model that leaves out todo_adjust (small models drop an
      // empty one), or writes the compact form, must not have its actions held until the end.
      release();
    },
    close(_bracket, _at, depth) {
      // Left when the array closes, not when the member ends: `"actions" [` (no colon, which
      // the whole-text parse repairs) has no value to end, and its later members are no actions.
      if (depth === 1 && place === 'actions') place = 'members';
    },
    valueStart(first, _at, depth, key) {
      if (depth === 2 && place === 'actions' && first === '{') {
        item = { index: itemCount };
        place = 'action';
      } else if (depth === 3 && item && (first === '"' || first === "'") && key === 'text' && !item.text) {
        item.text = createStreamedText(ENVELOPE_LIMITS.text);
        narrations.set(item.index, item.text);
        place = 'text';
      }
    },
    stringDelta(raw) {
      if (place === 'text') item?.text?.push(raw);
    },
    stringEnd() {
      if (place === 'text') place = 'action';
    },
    valueEnd(from, to, depth, key) {
      if (depth === 1) finishMember(key, from, to);
      else if (depth === 2 && place !== 'members') finishItem(from, to);
      else if (depth === 3 && item) finishItemMember(key, from, to);
    },
  });

  /** A member of the root object ended: a plan part's first value is validated with what came before. */
  const finishMember = (key: string | undefined, from: number, to: number) => {
    if (key === undefined || !HEADER_KEYS.has(key) || Object.hasOwn(members, key)) return; // a repeat: end() sees the mismatch
    guard(() => {
      members[key] = readJson(scanner.slice(from, to), key);
      header = validateEnvelopeHeader(members, options);
    });
  };

  const finishItem = (from: number, to: number) => {
    const index = itemCount++;
    item = undefined;
    place = 'actions';
    guard(() => {
      if (index >= maxActions) throw tooManyActions(maxActions);
      actions.push(validateTurnAction(readJson(scanner.slice(from, to), `actions[${index}]`), index));
    });
  };

  // `type` and `target` of the open action, as soon as each value ends.
  const finishItemMember = (key: string | undefined, from: number, to: number) => {
    if (!item || (key !== 'type' && key !== 'target')) return;
    const value = readJsonLeniently(scanner.slice(from, to));
    if (typeof value === 'string') item[key] ??= value;
  };

  const guard = (run: () => void) => {
    if (error) return;
    try {
      run();
    } catch (caught) {
      if (!(caught instanceof EnvelopeError)) throw caught;
      error = caught;
      stage = 'failed';
      scanner.stop();
      return;
    }
    release();
  };

  /** Lets out whatever may go now, in order: the planning, the plan change, the actions read, the open narrate's words. */
  const release = () => {
    if (stage === 'failed') return;
    // The compact form's `todo` waits for `actions`: a `last` or `replace` may still follow it.
    const planned = members.turn_planning != null || (actionsSeen && members.todo != null);
    if (stage === 'planning' && (ended || (header.turn_planning !== undefined && planned))) {
      stage = 'adjust';
      emittedPlanning = header.turn_planning;
      if (emittedPlanning) options.onTurnPlanning?.(emittedPlanning);
    }
    if (stage === 'adjust' && (ended || Object.hasOwn(members, 'todo_adjust') || actionsSeen)) {
      stage = 'actions';
      adjustExact = ended || Object.hasOwn(members, 'todo_adjust');
      emittedAdjust = header.todo_adjust ?? EMPTY_ADJUST;
      options.onTodoAdjust?.(emittedAdjust);
    }
    while (stage === 'actions' && actionsOut < actions.length) {
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
    if (!item || !narration || item.type !== 'narrate' || stage !== 'actions' || actionsOut !== item.index) return;
    const delta = narration.take();
    if (delta !== '') options.onNarrateDelta?.(delta, item.target, { index: item.index, target: item.target, text: narration.shown });
  };

  /** What of a closed narrate's text was not handed out yet, before its action goes out. */
  const finishNarration = (action: TurnAction & { type: 'narrate' }, index: number) => {
    const shown = narrations.get(index)?.shown ?? '';
    narrations.delete(index);
    if (shown.length < action.text.length && action.text.startsWith(shown)) {
      options.onNarrateDelta?.(action.text.slice(shown.length), action.target, { index, target: action.target, text: action.text });
    }
  };

  return {
    push(delta) {
      if (final)
        throw new ValidationError('invalid_input', 'Cannot push to an envelope stream parser after end(): make a new parser per reply.', {
          issues: [{ path: 'delta', message: 'came after end()' }],
        });
      if (typeof delta !== 'string') {
        throw new ValidationError('invalid_input', `An envelope stream parser takes text deltas, not ${describeValue(delta)}.`, {
          issues: [{ path: 'delta', message: 'must be a string' }],
        });
      }
      text += delta;
      scanner.push(delta);
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

  function settle(): SafeParseTurnEnvelopeResult {
    const result = safeParseTurnEnvelope(text, options);
    if (!result.success) return result;
    const envelope = result.data;
    const finalAdjust = envelope.todo_adjust ?? EMPTY_ADJUST;
    const adjustOut = stage === 'actions';
    // What the whole text adds to a plan change that went out before its end (written after the actions).
    const late = adjustOut ? (adjustExact ? (same(emittedAdjust, finalAdjust) ? EMPTY_ADJUST : null) : lateAdjust(emittedAdjust, finalAdjust)) : EMPTY_ADJUST;
    const agrees =
      !error &&
      late !== null &&
      (stage === 'planning' || samePlanning(emittedPlanning, envelope.turn_planning)) &&
      actions.slice(0, actionsOut).every((action, index) => same(action, envelope.actions[index]));
    if (!agrees) {
      const message = error ? error.message : 'Your reply is ambiguous (a repeated key, or more than one JSON object). Send exactly one envelope object.';
      return {
        success: false,
        error: new EnvelopeError(error?.code === 'envelope_insert_forbidden' ? error.code : 'envelope_invalid', message, {
          raw: text,
          issues: error?.issues ?? [],
        }),
      };
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
