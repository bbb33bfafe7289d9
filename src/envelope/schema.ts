import { z } from 'zod/mini';

const text = z.string().check(z.trim(), z.minLength(1));

/** What this turn does, anchored to a todo (which becomes `in_progress`), and whether it is the last. */
export const TurnPlanningSchema = z.object({
  todo_id: z.optional(z.string()),
  does: z._default(z.string(), ''),
  is_last_turn: z._default(z.boolean(), false),
});

/** A rewrite of an existing todo, in place. The id must already be in the plan. */
export const TodoReplaceSchema = z.object({
  id: text,
  description: z.optional(text),
  intent: z.optional(text),
  expected_turn: z.optional(z.int().check(z.positive())),
});

/**
 * The only ways a turn may change the plan: mark ids done (`remove`) or rewrite them (`replace`).
 * There is deliberately no insert.
 *
 * @example
 * ```ts
 * TodoAdjustSchema.parse({ remove: ['t1'] }); // { remove: ['t1'], replace: [] }
 * ```
 */
export const TodoAdjustSchema = z.object({
  remove: z._default(z.array(z.string()), []),
  replace: z._default(z.array(TodoReplaceSchema), []),
});

/** Say something to the user, optionally highlighting the element matched by the CSS `target`. */
export const NarrateActionSchema = z.object({
  type: z.literal('narrate'),
  text: text,
  target: z.optional(z.string()),
});

/** Call one of the host's tools (navigate, click, fill, …) by name. */
export const ToolActionSchema = z.object({
  type: z.literal('tool'),
  name: text,
  args: z._default(z.record(z.string(), z.unknown()), {}),
});

/** Ask the user a question; the host answers. */
export const AskActionSchema = z.object({
  type: z.literal('ask'),
  question: text,
});

/** Declare the task done. */
export const TaskFinishActionSchema = z.object({
  type: z.literal('task_finish'),
  summary: z._default(z.string(), ''),
});

/**
 * One action of a turn.
 *
 * @example
 * ```ts
 * TurnActionSchema.safeParse({ type: 'narrate', text: 'Hi' }).success; // true
 * ```
 */
export const TurnActionSchema = z.discriminatedUnion('type', [
  NarrateActionSchema,
  ToolActionSchema,
  AskActionSchema,
  TaskFinishActionSchema,
]);

/**
 * The one JSON object a model sends per turn.
 *
 * @example
 * ```ts
 * TurnEnvelopeSchema.parse(JSON.parse(text)); // prefer parseTurnEnvelope(text): it also tolerates fences and prose
 * ```
 */
export const TurnEnvelopeSchema = z.object({
  turn_planning: z.optional(TurnPlanningSchema),
  todo_adjust: z.optional(TodoAdjustSchema),
  actions: z._default(z.array(TurnActionSchema), []),
});

/**
 * The per-turn plan change: ids to mark completed and todos to rewrite in place.
 *
 * @example
 * ```ts
 * const change: TodoAdjust = { remove: ['t1'], replace: [{ id: 't3', description: 'Open the trial form', intent: 'click' }] };
 * plan.adjust(change);
 * ```
 */
export type TodoAdjust = z.output<typeof TodoAdjustSchema>;
/** `todo_adjust` as a host or model may write it: both lists optional. */
export type TodoAdjustInput = z.input<typeof TodoAdjustSchema>;
/** One `replace` entry. */
export type TodoReplace = z.output<typeof TodoReplaceSchema>;
/** `turn_planning`. */
export type TurnPlanning = z.output<typeof TurnPlanningSchema>;
/** One action. */
export type TurnAction = z.output<typeof TurnActionSchema>;
/** `narrate`. */
export type NarrateAction = z.output<typeof NarrateActionSchema>;
/** `tool`. */
export type ToolAction = z.output<typeof ToolActionSchema>;
/** `ask`. */
export type AskAction = z.output<typeof AskActionSchema>;
/** `task_finish`. */
export type TaskFinishAction = z.output<typeof TaskFinishActionSchema>;

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
export type TurnEnvelope = z.output<typeof TurnEnvelopeSchema>;

/** Keys that would add todos; `todo_adjust` refuses them with an explanation. */
export const FORBIDDEN_ADJUST_KEYS = ['insert', 'add', 'create', 'append', 'new'] as const;

/**
 * The JSON Schema of the envelope, passed to providers that can constrain output to it. Kept
 * small: every token here is paid on each turn by backends that inline the schema.
 *
 * @example
 * ```ts
 * await provider.generate({ messages, jsonSchema: TURN_ENVELOPE_JSON_SCHEMA });
 * ```
 */
export const TURN_ENVELOPE_JSON_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    turn_planning: {
      type: 'object',
      properties: { todo_id: { type: 'string' }, does: { type: 'string' }, is_last_turn: { type: 'boolean' } },
      required: ['does', 'is_last_turn'],
    },
    todo_adjust: {
      type: 'object',
      properties: {
        remove: { type: 'array', items: { type: 'string' } },
        replace: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, description: { type: 'string' }, intent: { type: 'string' } },
            required: ['id'],
          },
        },
      },
    },
    actions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: ['narrate', 'tool', 'ask', 'task_finish'] },
          text: { type: 'string' },
          target: { type: 'string' },
          name: { type: 'string' },
          args: { type: 'object' },
          question: { type: 'string' },
          summary: { type: 'string' },
        },
        required: ['type'],
      },
    },
  },
  // todo_adjust is required here (the zod schema lets it be absent): a model made to write it,
  // even empty, before `actions` lets the streaming parser dispatch each action as it closes.
  required: ['turn_planning', 'todo_adjust', 'actions'],
};
