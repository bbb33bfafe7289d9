// `import * as z`, not `import { z }`: esbuild bundles all of zod (its locales too) for the named import.
import * as z from 'zod/mini';
import { TODO_STATUSES } from '../artifacts/todos.js';
import { ValidationError } from '../errors.js';
import type { Plan } from '../plan.js';
import { formatIssues, validateOrThrow, toIssues } from '../validation.js';

const text = z.string().check(z.trim(), z.minLength(1));

/** A todo as a capsule carries it: the plan's todo shape (zod here: this module validates with zod anyway). */
const CapsuleTodoSchema = z.object({
  id: text,
  intent: text,
  description: text,
  status: z._default(z.enum(TODO_STATUSES), 'pending'),
  expected_turn: z.optional(z.int().check(z.positive())),
});

/**
 * The zod schema of a {@link ContextCapsule}.
 *
 * @example
 * ```ts
 * declare const toolResult: string; // a subagent's answer
 * ContextCapsuleSchema.safeParse(JSON.parse(toolResult)).success;
 * ```
 */
export const ContextCapsuleSchema = z.object({
  /** The goal the parent gave the subagent. */
  goal: text,
  /** The subagent's todos when it stopped (and its `write_todos` revision, if it had one). */
  planSnapshot: z.optional(
    z.object({
      revision: z.optional(z.int().check(z.nonnegative())),
      todos: z.array(CapsuleTodoSchema),
    }),
  ),
  /** What it learned, one short sentence each. */
  keyFindings: z.array(text),
  /** What it produced, by reference (a markdown doc id, a URL, a selector) with a one-line summary. */
  artifacts: z.array(z.object({ type: text, ref: text, summary: z.string() })),
  /** What it suggests the parent does next. */
  nextActions: z.optional(z.array(text)),
});

/**
 * What a subagent hands back to its parent instead of its transcript: the goal, its plan, its
 * findings, its artifacts and the next actions. Small by construction, so the parent's context
 * grows by a few lines per subagent.
 */
export type ContextCapsule = z.output<typeof ContextCapsuleSchema>;

/** What {@link createContextCapsule} takes besides the plan. */
export interface ContextCapsuleInput {
  goal: string;
  keyFindings?: string[];
  artifacts?: ContextCapsule['artifacts'];
  nextActions?: string[];
  /** The `write_todos` revision to record. */
  revision?: number;
}

/**
 * Validates a capsule (one a subagent returned as JSON, say); throws {@link ValidationError} naming every bad field.
 *
 * @example
 * ```ts
 * declare const toolResult: string; // a subagent's answer
 * const capsule = validateContextCapsule(JSON.parse(toolResult));
 * ```
 */
export function validateContextCapsule(input: unknown): ContextCapsule {
  return validateOrThrow(ContextCapsuleSchema, input, 'Invalid context capsule');
}

/**
 * Like {@link validateContextCapsule}, but returns `{ success, data | error }` instead of throwing.
 *
 * @example
 * ```ts
 * declare const value: unknown; // read from a tool result
 * const result = safeValidateContextCapsule(value);
 * if (!result.success) console.warn(result.error.message);
 * ```
 */
export function safeValidateContextCapsule(input: unknown): { success: true; data: ContextCapsule } | { success: false; error: ValidationError } {
  const result = ContextCapsuleSchema.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  const issues = toIssues(result.error.issues, [], input);
  return { success: false, error: new ValidationError('invalid_input', `Invalid context capsule: ${formatIssues(issues)}.`, { issues }) };
}

/**
 * Packs a subagent's result for its parent: `goal`, the plan's todos as they are now, findings,
 * artifacts and next actions (`keyFindings` and `artifacts` default to `[]`). Throws
 * {@link ValidationError} on an empty goal or empty entries.
 *
 * @example
 * ```ts
 * declare const researchPlan: Plan; // the subagent's plan
 * const capsule = createContextCapsule(researchPlan, {
 *   goal: 'Find the cheapest plan with SSO',
 *   keyFindings: ['SSO starts at the Business tier ($24/user)'],
 *   artifacts: [{ type: 'markdown', ref: 'm1', summary: 'Tier comparison table' }],
 * });
 * ```
 */
export function createContextCapsule(plan: Plan, input: ContextCapsuleInput): ContextCapsule {
  const planSnapshot = { todos: plan.todos.list(), ...(input.revision === undefined ? {} : { revision: input.revision }) };
  return validateContextCapsule({
    goal: input.goal,
    planSnapshot,
    keyFindings: input.keyFindings ?? [],
    artifacts: input.artifacts ?? [],
    ...(input.nextActions === undefined ? {} : { nextActions: input.nextActions }),
  });
}

/**
 * Renders a capsule as a few plain lines for the parent's next turn (a tool result or a user
 * message): the goal, progress and open todos, findings, artifacts and next actions. Empty
 * sections are left out; completed todos are only counted.
 *
 * @example
 * ```ts
 * declare const capsule: ContextCapsule;
 * const messages: object[] = []; // an OpenAI Chat conversation
 * messages.push({ role: 'tool', tool_call_id: 'call_1', content: renderContextCapsule(capsule) });
 * ```
 */
export function renderContextCapsule(capsule: ContextCapsule): string {
  const lines = [`Subagent result. Goal: ${capsule.goal}`];
  const todos = capsule.planSnapshot?.todos ?? [];
  if (todos.length > 0) {
    const open = todos.filter((todo) => todo.status !== 'completed');
    lines.push(`Plan: ${todos.length - open.length} of ${todos.length} done.`);
    for (const todo of open) lines.push(`- [${todo.status}] ${todo.description}`);
  }
  const section = (title: string, entries: readonly string[] | undefined) => {
    if (entries && entries.length > 0) lines.push(`${title}:`, ...entries.map((entry) => `- ${entry}`));
  };
  section('Findings', capsule.keyFindings);
  section(
    'Artifacts',
    capsule.artifacts.map((artifact) => `${artifact.type} ${artifact.ref}${artifact.summary ? `: ${artifact.summary}` : ''}`),
  );
  section('Next', capsule.nextActions);
  return lines.join('\n');
}
