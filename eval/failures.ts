// How a run went wrong, in the words, from what the harness saw (never from the model's
// own claims): the checker's result, how the loop ended, refused replies and the tool calls.
import type { ToolCall } from './browser-tools.js';
import type { CheckResult } from './task.js';

/** The failure kinds the report counts. */
export const FAILURE_KINDS = ['stopped-early', 'out-of-turns', 'repeated-step', 'skipped-step', 'acted-outside', 'invalid-output', 'error'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** What {@link classifyFailures} reads. */
export interface FailureInput {
  readonly check: CheckResult;
  /** The loop's finish reason (`task_finish`, `last_turn`, `no_todos`, `turn_limit`), or `error`. */
  readonly reason: string;
  readonly errorCode?: string | undefined;
  readonly invalidReplies: number;
  readonly calls: readonly ToolCall[];
}

/** Tools that only look: calling them again is not a repeated step. */
const LOOKS = new Set(['read', 'write_todos']);

/**
 * Names what went wrong in a run (empty for a clean pass):
 * - `stopped-early`: the run ended on its own (finish, last turn, no todos left) with steps undone;
 * - `out-of-turns`: the turn bound ended it with steps undone;
 * - `repeated-step`: the same action (not a look) twice in a row with the same arguments, a field
 *   filled again with the value it already had, or the same page opened twice in a row (clicking
 *   Save again after changing a field is not a repeat);
 * - `skipped-step`: a step is done while an earlier one is not;
 * - `acted-outside`: the end state shows something the task did not ask for;
 * - `invalid-output`: the loop refused a reply (bad JSON or envelope), retried or fatal;
 * - `error`: the run failed otherwise (the provider, a timeout).
 *
 * @example
 * ```ts
 * classifyFailures({ check, reason: 'task_finish', invalidReplies: 0, calls }); // ['stopped-early']
 * ```
 */
export function classifyFailures(input: FailureInput): FailureKind[] {
  const kinds: FailureKind[] = [];
  const undone = input.check.done < input.check.steps.length;
  if (undone && ['task_finish', 'last_turn', 'no_todos', 'declined'].includes(input.reason)) kinds.push('stopped-early');
  if (undone && input.reason === 'turn_limit') kinds.push('out-of-turns');
  let previousPage: string | undefined;
  let previousWrite: string | undefined;
  const filled = new Map<string, string>();
  let repeated = false;
  for (const call of input.calls) {
    if (!call.ok || LOOKS.has(call.name)) continue;
    if (call.name === 'navigate') {
      if (call.result === previousPage) repeated = true;
      previousPage = call.result;
      continue;
    }
    const key = `${call.page} ${call.name} ${JSON.stringify(call.args)}`;
    if (key === previousWrite) repeated = true;
    previousWrite = key;
    if (call.name === 'fill') {
      const field = `${call.page} ${JSON.stringify(call.args.target)}`;
      const value = JSON.stringify(call.args.value);
      if (filled.get(field) === value) repeated = true;
      filled.set(field, value);
    }
  }
  if (repeated) kinds.push('repeated-step');
  if (input.check.skipped) kinds.push('skipped-step');
  if (input.check.outside.length > 0) kinds.push('acted-outside');
  if (input.invalidReplies > 0) kinds.push('invalid-output');
  if (input.reason === 'error' && input.errorCode !== 'envelope_invalid') kinds.push('error');
  return kinds;
}
