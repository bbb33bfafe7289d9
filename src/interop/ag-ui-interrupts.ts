/*
 * A run's approvals as AG-UI interrupts (`@ag-ui/core` 1.0, "Interrupts and Resume"): AG-UI has no
 * channel into a run while it goes, so an agent that needs an answer ends its AG-UI run with
 * `RUN_FINISHED { outcome: { type: 'interrupt', interrupts } }`, and the frontend starts the next
 * AG-UI run with `resume: [{ interruptId, status, payload }]`. A planloop run waits in the page
 * meanwhile, its request in `run.state.approval`: a host that speaks AG-UI ends its AG-UI run with
 * that request as an interrupt (`reason: 'confirmation'`) and, when the frontend resumes, hands
 * the resume entries to the run. Only a clear yes is a yes, as for every approval.
 */
// `import * as z`, not `import { z }`: esbuild bundles all of zod (its locales too) for the named import.
import * as z from 'zod/mini';
import { ValidationError } from '../errors.js';
import type { PendingApproval, Run } from '../loop/run-state.js';
import { toIssues } from '../validation.js';

/** AG-UI `Interrupt`: something a run needs from outside before it can continue. */
export interface AGUIInterrupt {
  /** A resume entry answers it by this id (the pending approval's `id`). */
  id: string;
  /** `'confirmation'` for an approval. */
  reason: string;
  /** What will happen, for whoever answers (the request's `detail`). */
  message?: string;
  /** The answer expected: {@link APPROVAL_RESPONSE_SCHEMA}. */
  responseSchema?: Record<string, unknown>;
  /** When silence becomes a no (ISO 8601). */
  expiresAt?: string;
  /** The request itself, under `planloop` (tool, args, risk, todo, url, purpose: the model's words are untrusted, show them as text). */
  metadata?: Record<string, unknown>;
}

/** AG-UI `RUN_FINISHED` with the interrupt outcome: the AG-UI run stops here to ask. */
export interface AGUIRunInterruptedEvent {
  type: 'RUN_FINISHED';
  threadId: string;
  runId: string;
  outcome: { type: 'interrupt'; interrupts: AGUIInterrupt[] };
  /** Milliseconds since the epoch, a whole number. */
  timestamp?: number;
}

/**
 * The answer an approval interrupt expects, as a JSON Schema: `{ approved: true }` runs the action,
 * `{ approved: false, reason? }` does not.
 *
 * @example
 * ```ts
 * const form = APPROVAL_RESPONSE_SCHEMA.properties; // { approved, reason }: what the frontend asks
 * ```
 */
export const APPROVAL_RESPONSE_SCHEMA = {
  type: 'object',
  properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
  required: ['approved'],
  additionalProperties: false,
} as const;

/**
 * A run's pending approval as an AG-UI interrupt: its id, `reason: 'confirmation'`, the request's
 * `detail` as the message, the answer's schema, when it expires, and the request under
 * `metadata.planloop`.
 *
 * @example
 * ```ts
 * declare const run: Run;
 * if (run.state.approval) toAGUIInterrupt(run.state.approval).message; // 'Submit the form "Start trial"'
 * ```
 */
export function toAGUIInterrupt(pending: PendingApproval): AGUIInterrupt {
  const { request } = pending;
  // JSON only: the request as the frontend may show it (undefined fields left out).
  const planloop = JSON.parse(
    JSON.stringify({
      kind: request.kind,
      tool: request.tool,
      args: request.args,
      risk: request.risk,
      todo: request.todo,
      url: request.url,
      purpose: request.purpose,
    }),
  ) as Record<string, unknown>;
  return {
    id: pending.id,
    reason: 'confirmation',
    message: request.detail,
    responseSchema: APPROVAL_RESPONSE_SCHEMA as unknown as Record<string, unknown>,
    ...(pending.expiresAt === undefined ? {} : { expiresAt: new Date(pending.expiresAt).toISOString() }),
    metadata: { planloop },
  };
}

/**
 * The AG-UI event that ends the host's AG-UI run to ask for the run's pending approval
 * (`RUN_FINISHED` with the interrupt outcome), or `null` when the run waits for none. `threadId`
 * and `runId` are the host's AG-UI ones. Default `timestamp`: `Date.now`; `null` leaves it out.
 *
 * @example
 * ```ts
 * declare const run: Run;
 * declare const subscriber: { next(event: AGUIRunInterruptedEvent): void }; // the AG-UI run's event stream
 * run.subscribe(() => {
 *   const event = toAGUIRunInterrupted(run, { threadId: 'thread-1', runId: 'agui-run-7' });
 *   if (event) subscriber.next(event);
 * });
 * ```
 */
export function toAGUIRunInterrupted(
  run: Pick<Run, 'state'>,
  ids: { threadId: string; runId: string },
  options: { timestamp?: (() => number) | null } = {},
): AGUIRunInterruptedEvent | null {
  const pending = run.state.approval;
  if (!pending) return null;
  const clock = options.timestamp === undefined ? Date.now : options.timestamp;
  return {
    type: 'RUN_FINISHED',
    threadId: ids.threadId,
    runId: ids.runId,
    outcome: { type: 'interrupt', interrupts: [toAGUIInterrupt(pending)] },
    ...(clock ? { timestamp: Math.trunc(clock()) } : {}),
  };
}

const ResumeEntries = z.array(
  z.object({
    interruptId: z.string(),
    status: z.enum(['resolved', 'cancelled']),
    payload: z.optional(z.unknown()),
    metadata: z.optional(z.record(z.string(), z.unknown())),
  }),
);

/**
 * Answers the run's pending approval from an AG-UI resume (`RunAgentInput.resume`): the entry whose
 * `interruptId` is the pending approval's id. `status: 'resolved'` with `payload.approved === true`
 * is a yes; `'cancelled'`, `approved: false` (its `reason`, when a string, goes to the model) or
 * any other payload is a no. Entries for other interrupts are left alone. Returns whether the
 * pending approval was answered. A resume that is not a list of resume entries is a
 * `ValidationError` naming each problem, and answers nothing.
 *
 * @example
 * ```ts
 * declare const run: Run;
 * declare const input: { resume?: unknown }; // the next AG-UI RunAgentInput, from the frontend
 * if (input.resume) applyAGUIResume(run, input.resume);
 * ```
 */
export function applyAGUIResume(run: Pick<Run, 'state' | 'answer'>, resume: unknown): boolean {
  const parsed = ResumeEntries.safeParse(resume);
  if (!parsed.success) {
    const issues = toIssues(parsed.error.issues, ['resume'], resume);
    throw new ValidationError('invalid_input', `The AG-UI resume was not applied: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}.`, {
      issues,
    });
  }
  const pending = run.state.approval;
  const entry = pending && parsed.data.find((candidate) => candidate.interruptId === pending.id);
  if (!pending || !entry) return false;
  if (entry.status === 'cancelled') return run.answer(pending.id, { approved: false, reason: 'the question was cancelled' });
  const payload = entry.payload as { approved?: unknown; reason?: unknown } | null | undefined;
  const reason = typeof payload?.reason === 'string' && payload.reason.trim() ? { reason: payload.reason } : {};
  if (payload?.approved === true) return run.answer(pending.id, { approved: true });
  if (payload?.approved === false) return run.answer(pending.id, { approved: false, ...reason });
  // Anything else is no clear yes: read as the approval hook's answer would be.
  return run.answer(pending.id, payload as never);
}
