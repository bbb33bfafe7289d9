/*
 * The turn envelope's shapes: the types the validators in `parse.ts` produce, the keys that would
 * add todos, the limits, and the JSON Schema sent to backends that can constrain output.
 *
 * A model may write the envelope in two forms, which `parse.ts` reads into one `TurnEnvelope`:
 * - compact (what the turn prompt teaches): `{"todo":"t3","actions":[…]}`, plus `"last":true` on
 *   the final turn and `"replace":[…]` when todos are rewritten. Naming the todo now being done
 *   means the open todos above it are done (`todo_adjust.complete_before`).
 * - full (DESIGN.md's): `turn_planning` and `todo_adjust` spelled out; nothing is implied.
 */

/** What this turn does, anchored to a todo (which becomes `in_progress`), and whether it is the last. */
export interface TurnPlanning {
  todo_id?: string;
  /** Defaults to `''`. */
  does: string;
  /** Defaults to `false`. */
  is_last_turn: boolean;
}

/** A rewrite of an existing todo, in place. The id must already be in the plan. */
export interface TodoReplace {
  id: string;
  description?: string;
  intent?: string;
  expected_turn?: number;
}

/**
 * The per-turn plan change: ids to mark completed, todos to rewrite in place, and (from the
 * compact form) the todo before which every open todo is done. There is deliberately no insert.
 *
 * @example
 * ```ts
 * const change: TodoAdjust = { remove: ['t1'], replace: [{ id: 't3', description: 'Open the trial form', intent: 'click' }] };
 * plan.adjust(change);
 * plan.adjust({ remove: [], replace: [], complete_before: 't4' }); // t1..t3, if still open, become completed
 * ```
 */
export interface TodoAdjust {
  remove: string[];
  replace: TodoReplace[];
  /** Every todo listed before this id that is not completed yet becomes `completed`. Default none. */
  complete_before?: string;
}

/** `todo_adjust` as a host or model may write it: every field optional (`null` reads as absent). */
export interface TodoAdjustInput {
  remove?: string[] | null | undefined;
  replace?: TodoReplace[] | null | undefined;
  complete_before?: string | null | undefined;
}

/** Say something to the user, optionally highlighting the element matched by the CSS `target`. */
export interface NarrateAction {
  type: 'narrate';
  text: string;
  target?: string;
}

/** Call one of the host's tools (navigate, click, fill, …) by name. */
export interface ToolAction {
  type: 'tool';
  name: string;
  /** Defaults to `{}`. */
  args: Record<string, unknown>;
}

/** Ask the user a question; the host answers. */
export interface AskAction {
  type: 'ask';
  question: string;
}

/** Declare the task done. */
export interface TaskFinishAction {
  type: 'task_finish';
  /** Defaults to `''`. */
  summary: string;
}

/** One action of a turn. */
export type TurnAction = NarrateAction | ToolAction | AskAction | TaskFinishAction;

/**
 * One turn's JSON, from the model to the host.
 *
 * @example
 * ```ts
 * const envelope: TurnEnvelope = {
 *   turn_planning: { todo_id: 't2', does: 'Show the tiers', is_last_turn: false },
 *   todo_adjust: { remove: ['t1'], replace: [] },
 *   actions: [{ type: 'narrate', text: 'These are the plans.', target: '#pricing' }],
 * };
 * ```
 */
export interface TurnEnvelope {
  turn_planning?: TurnPlanning;
  todo_adjust?: TodoAdjust;
  actions: TurnAction[];
}

/**
 * The action types, in the order the prompt names them.
 *
 * @example
 * ```ts
 * declare const action: TurnAction;
 * ACTION_TYPES.includes(action.type); // true
 * ```
 */
export const ACTION_TYPES = ['narrate', 'tool', 'ask', 'task_finish'] as const;

/**
 * Keys that would add todos; `todo_adjust` refuses them with an explanation.
 *
 * @example
 * ```ts
 * FORBIDDEN_ADJUST_KEYS.includes('insert'); // true
 * ```
 */
export const FORBIDDEN_ADJUST_KEYS = ['insert', 'add', 'create', 'append', 'new'] as const;

/**
 * Size limits of one envelope, in characters or items: a reply beyond them is refused (and fed
 * back) instead of being acted on. A turn is a handful of actions and a few sentences.
 *
 * @example
 * ```ts
 * declare const envelope: TurnEnvelope;
 * envelope.actions.length <= ENVELOPE_LIMITS.actions;
 * ```
 */
export const ENVELOPE_LIMITS = {
  /** Actions in one envelope. */
  actions: 20,
  /** A narrate's text, a question, a finish summary, `does`. */
  text: 2000,
  /** A tool name, an id, a target selector. */
  name: 200,
} as const;

/**
 * The JSON Schema of the compact envelope, passed to providers that can constrain output to it.
 * Its property order is the order the prompt teaches and streaming wants (backends that compile a
 * schema into a grammar, such as llama.cpp, keep it): `todo` first, so the plan change is known
 * before the first action, and a narrate's `target` before its `text`, so the highlight can show
 * while the words stream. `todo` is required for the same reason. Kept small: backends that show
 * the schema to the model pay it every turn.
 *
 * @example
 * ```ts
 * await provider.generate({ messages, jsonSchema: TURN_ENVELOPE_JSON_SCHEMA });
 * ```
 */
export const TURN_ENVELOPE_JSON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    todo: { type: 'string' },
    last: { type: 'boolean' },
    replace: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, intent: { type: 'string' }, description: { type: 'string' } },
        required: ['id'],
      },
    },
    actions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { enum: [...ACTION_TYPES] },
          target: { type: 'string' },
          text: { type: 'string' },
          name: { type: 'string' },
          args: { type: 'object' },
          question: { type: 'string' },
          summary: { type: 'string' },
        },
        required: ['type'],
      },
    },
  },
  required: ['todo', 'actions'],
};
