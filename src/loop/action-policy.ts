/*
 * The rules that decide whether a page action may run: how risky each tool says it is, which
 * risks need the user's approval, and how an approval hook's answer is read (only a clear yes is
 * a yes). Pure rules and one helper that asks the hook; the per-run bookkeeping (the action count,
 * rewritten todos) lives in `action-gate.ts`.
 */

/**
 * How consequential a tool's action is: `'read'` has no side effect, `'write'` changes the page or
 * the user's data, `'irreversible'` submits, buys, deletes, sends or leaves the site.
 *
 * @example
 * ```ts
 * declare const form: HTMLFormElement;
 * const tools = { submit: { risk: 'irreversible' satisfies ActionRisk, run: () => form.requestSubmit() } };
 * ```
 */
export type ActionRisk = 'read' | 'write' | 'irreversible';

/**
 * The risks, least consequential first.
 *
 * @example
 * ```ts
 * declare const value: string; // read from a tool's definition
 * ACTION_RISKS.includes(value as ActionRisk); // a risk?
 * ```
 */
export const ACTION_RISKS = ['read', 'write', 'irreversible'] as const;

/**
 * From which risk on an action needs the user's approval (`'none'`: never asked, everything runs).
 * Default: `'write'` when the run has an `onApprove` hook, `'irreversible'` when it has none.
 *
 * @example
 * ```ts
 * startRun(plan, { task, tools, approval: { ask: onApprove, level: 'irreversible' } }); // ask only before submits, purchases, …
 * ```
 */
export type ApprovalLevel = ActionRisk | 'none';

/**
 * What the run asks the user's approval for: an action about to run (`'action'`), or a todo the
 * model rewrote after the plan was approved (`'plan-change'`), asked before the next tool action.
 *
 * @example
 * ```ts
 * const request: ApprovalRequest = { kind: 'action', tool: 'submit', args: {}, risk: 'irreversible', detail: 'submit {}', url: '/trial' };
 * ```
 */
export interface ApprovalRequest {
  /** An action about to run, or a todo the model rewrote after the announcement. */
  readonly kind: 'action' | 'plan-change';
  /** The tool's name (kind `'action'`; for a plan change, the tool about to run). */
  readonly tool?: string;
  /** The tool's arguments, as the model wrote them (untrusted; a copy: changing it changes nothing that runs). */
  readonly args?: Readonly<Record<string, unknown>>;
  readonly risk: ActionRisk;
  /** What will happen, in words for the user ("Submit the form 'Start trial' on /trial"). */
  readonly detail: string;
  /** The todo the action serves (for a plan change: the rewritten todo, with its new text). */
  readonly todo?: { readonly id: string; readonly description: string };
  /** The page it happens on. */
  readonly url?: string;
  /** What the model said the turn is for (`turn_planning.does`): untrusted text, show it as a quote. */
  readonly purpose?: string;
  /** What the step does, as the page shows it or as observed (`It sends a DELETE to /api/account`), when a tool's `confirm` said (see {@link ConfirmStep}). */
  readonly effect?: string;
  /** What it amounts to, when a tool's `confirm` said: `send`, `delete`, `pay`, `buy`, `order`, `transfer`, `subscribe`, `unsubscribe`, `close-account`, `sign-out`, `leave`, `new-window`, `download`. */
  readonly consequence?: string;
}

/**
 * An approval hook's answer: `true` or `{ approved: true }` is a yes; anything else is a no.
 *
 * @example
 * ```ts
 * const answer: ApprovalAnswer = { approved: false, reason: 'Not with my card' };
 * ```
 */
export type ApprovalAnswer = boolean | { readonly approved: boolean; readonly reason?: string };

/**
 * The host's approval hook: asked before every action at or above `approvalLevel` and before the
 * next action after the model rewrote a todo. `signal` aborts when the answer is no longer wanted
 * (the run stopped, or `approvalTimeoutMs` passed): close the question then.
 *
 * @example
 * ```ts
 * const onApprove: ApproveHook = (request, { signal }) => panel.requestApproval(request, { signal });
 * ```
 */
export type ApproveHook = (request: ApprovalRequest, context: { signal: AbortSignal }) => ApprovalAnswer | Promise<ApprovalAnswer>;

/**
 * What a tool's `ctx.confirm(step)` asks about: a step riskier than the tool declared.
 *
 * @example
 * ```ts
 * const step: ConfirmStep = { risk: 'irreversible', detail: 'Submit the form "Start trial"', url: '/trial' };
 * ```
 */
export interface ConfirmStep {
  risk: ActionRisk;
  /** What will happen, in words for the user. */
  detail: string;
  /** The page it happens on (default: the run's `url`). */
  url?: string;
  /** What it does, as the page shows it or as observed: `It sends a DELETE to /api/account` (passed on to the request). */
  effect?: string;
  /** What it amounts to (`send`, `delete`, `leave`, `download`…; passed on to the request, for a UI to compare with the todo). */
  consequence?: string;
}

/**
 * What `ctx.confirm(step)` answers: go on, or do not, with a reason the model can read.
 *
 * @example
 * ```ts
 * const submit: LoopToolHandler = async (_args, context) => {
 *   const answer: ConfirmResult = await context.confirm({ risk: 'irreversible', detail: 'Send the contact form' });
 *   if (!answer.approved) return `not sent: ${answer.reason}`;
 *   document.querySelector('form')!.requestSubmit();
 *   return 'sent';
 * };
 * ```
 */
export type ConfirmResult = { approved: true } | { approved: false; reason: string };

/**
 * The 0.2 flat options of the action policy.
 *
 * @deprecated since 0.3.0, use `approval: { ask, level, timeoutMs }` and `bounds.runActions` (see `RunOptions`); removed in 0.4.0
 *
 * @example
 * ```ts
 * // 0.2: runWebAgent({ plan, task, tools, onApprove, maxActions: 60 })
 * startRun(plan, { task, tools, approval: { ask: onApprove }, bounds: { runActions: 60 } });
 * ```
 */
export interface ActionPolicyOptions {
  /** Asked before actions at or above `approvalLevel`. Default: none (then `'irreversible'` actions are refused). */
  onApprove?: ApproveHook | undefined;
  /** From which risk on the user is asked. Default `'write'` with `onApprove`, `'irreversible'` without. */
  approvalLevel?: ApprovalLevel | undefined;
  /** Milliseconds the hook may take before its silence counts as a no (`0`: no limit). Default 300,000 (5 minutes). */
  approvalTimeoutMs?: number | undefined;
  /** Tool actions one run may attempt (run, failed or refused); the next one ends the run with `action_limit`. Default 40. */
  maxActions?: number | undefined;
}

/**
 * Whether an action of `risk` needs approval at `level`.
 *
 * @example
 * ```ts
 * needsApproval('write', 'irreversible'); // false
 * needsApproval('irreversible', 'write'); // true
 * ```
 */
export function needsApproval(risk: ActionRisk, level: ApprovalLevel): boolean {
  return level !== 'none' && ACTION_RISKS.indexOf(risk) >= ACTION_RISKS.indexOf(level);
}

/**
 * Reads a hook's answer: only `true` or an object with `approved: true` is a yes; a no carries the
 * user's reason when there is one.
 *
 * @example
 * ```ts
 * readApprovalAnswer(true); // { approved: true }
 * readApprovalAnswer('yes'); // { approved: false, reason: 'the approval hook gave no clear yes' }
 * ```
 */
export function readApprovalAnswer(answer: unknown): ConfirmResult {
  if (answer === true) return { approved: true };
  if (typeof answer === 'object' && answer !== null) {
    const { approved, reason } = answer as { approved?: unknown; reason?: unknown };
    if (approved === true) return { approved: true };
    if (approved === false)
      return { approved: false, reason: typeof reason === 'string' && reason.trim() ? `the user declined: ${short(reason)}` : 'the user declined' };
  }
  if (answer === false) return { approved: false, reason: 'the user declined' };
  return { approved: false, reason: 'the approval hook gave no clear yes' };
}

/**
 * Asks the hook and waits for a clear yes. A throw, a timeout (`timeoutMs`, `0`: none), an abort
 * of `signal` or anything but a clear yes is a no with a reason; never throws. The hook's own
 * signal aborts on a timeout or an abort, and the timer is cleared as soon as the hook answers.
 *
 * @example
 * ```ts
 * const verdict = await askApproval(onApprove, { kind: 'action', tool: 'submit', risk: 'irreversible', detail: 'Submit the form' }, { timeoutMs: 60_000, signal });
 * if (!verdict.approved) console.log(verdict.reason); // 'no answer within 60 s'
 * ```
 */
export async function askApproval(
  hook: ApproveHook,
  request: ApprovalRequest,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<ConfirmResult> {
  const { signal, timeoutMs } = options;
  if (signal?.aborted) return { approved: false, reason: 'the run was stopped' };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const answer = await new Promise<unknown>((resolve, reject) => {
      onAbort = () => {
        controller.abort(signal?.reason);
        resolve(STOPPED);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          controller.abort(new DOMException('No answer in time.', 'TimeoutError'));
          resolve(TIMED_OUT);
        }, timeoutMs);
      }
      // A hook that throws at once is a no, like one that rejects.
      Promise.resolve()
        .then(() => hook(request, { signal: controller.signal }))
        .then(resolve, reject);
    });
    if (answer === STOPPED) return { approved: false, reason: 'the run was stopped' };
    if (answer === TIMED_OUT)
      return { approved: false, reason: `no answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}` };
    return readApprovalAnswer(answer);
  } catch (error) {
    return { approved: false, reason: `the approval hook failed (${short(error instanceof Error ? error.message : String(error))})` };
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

const STOPPED = Symbol('stopped');
const TIMED_OUT = Symbol('timed out');

function short(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
