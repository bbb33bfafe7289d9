import type { TodoAdjust, ToolAction } from '../envelope/schema.js';
import { ValidationError } from '../errors.js';
import type { Plan } from '../plan.js';
import {
  ACTION_RISKS,
  askApproval,
  needsApproval,
  type ActionRisk,
  type ApprovalRequest,
  type ApproveHook,
  type ConfirmResult,
  type ConfirmStep,
} from './action-policy.js';
import type { ApprovalConfig, RunConfig } from './run-options.js';
import type { ToolEntry, ToolTable } from './tool-table.js';
import { clip } from './turn-prompt.js';

/** What the gate needs to know about the turn an action belongs to. */
export interface GateTurn {
  /** The todo the turn works on (`turn_planning.todo_id`). */
  readonly todoId: string | undefined;
  /** What the model said the turn does (`turn_planning.does`). */
  readonly purpose: string | undefined;
  readonly signal: AbortSignal | undefined;
}

/** Whether a tool action may run, and why not. */
export type GateDecision =
  | { readonly run: true; readonly risk: ActionRisk | undefined; readonly approvedBy: 'policy' | 'user'; readonly detail: string }
  | {
      readonly run: false;
      readonly risk: ActionRisk | undefined;
      /** Why, in words the model can act on. */
      readonly reason: string;
      readonly detail: string;
      /** The run's action cap was reached: the run ends after this turn. */
      readonly capped?: true;
    };

/** The per-run side of the action policy (see {@link createActionGate}). */
export interface ActionGate {
  /** The run's tools, each with its risk: what the turn dispatches to. */
  readonly tools: ToolTable;
  /** Whether a tool action was refused because the run's `bounds.runActions` were used up. */
  readonly capped: boolean;
  /** Whether `replace`s are marked `rewritten` (the run has an approval hook). */
  readonly marksRewrites: boolean;
  /** Notes the approved text of the todos a `todo_adjust` is about to rewrite, to put it back on a refusal. */
  beforeAdjust(adjust: TodoAdjust): void;
  /** Decides about one tool action: the action cap, then the model's unapproved plan changes, then the tool's risk. */
  admit(action: ToolAction, turn: GateTurn): Promise<GateDecision>;
  /** `ctx.confirm` for a tool that runs with `admitted` risk; `onRefused` hears of each refused step. */
  confirmFor(
    action: ToolAction,
    admitted: ActionRisk,
    turn: GateTurn,
    onRefused: (risk: ActionRisk, detail: string, reason: string) => void,
  ): (step: ConfirmStep) => Promise<ConfirmResult>;
}

/**
 * What {@link createActionGate} reads of a run's resolved options (`resolveRunOptions`): the tools,
 * the approval rules, the run's action cap and where the page is.
 */
export interface GateConfig {
  readonly tools: ToolTable;
  readonly approval: ApprovalConfig;
  readonly bounds: Pick<RunConfig['bounds'], 'runActions'>;
  readonly page: Pick<RunConfig['page'], 'url'>;
}

/**
 * The action policy of one run: counts tool actions against `bounds.runActions`, asks
 * `approval.ask` before actions at or above `approval.level` (and refuses them without a hook),
 * and, with a hook, has the user approve a todo the model rewrote before the next tool action
 * runs: a refused rewrite is put back to the text the user approved (when this run knows it) and
 * the action is not run. `playTurn` takes it; a hand-written loop makes one per run.
 *
 * @example
 * ```ts
 * const gate = createActionGate(plan, resolveRunOptions({ task, tools, approval: { ask: onApprove } }));
 * const decision = await gate.admit({ type: 'tool', name: 'submit', args: {} }, { todoId: 't3', purpose: 'Send the form', signal });
 * if (!decision.run) console.log(decision.reason);
 * ```
 */
export function createActionGate(plan: Plan, config: GateConfig): ActionGate {
  const { tools } = config;
  const { level, timeoutMs } = config.approval;
  if (config.approval.ask === 'state') {
    throw new ValidationError(
      'invalid_input',
      "Cannot make an action gate: approval.ask 'state' is answered through a run's state (startRun); a hand-written loop passes a hook.",
      {
        issues: [{ path: 'approval.ask', message: "'state' needs a run: pass a hook" }],
      },
    );
  }
  const onApprove: ApproveHook | undefined = config.approval.ask;
  const maxActions = config.bounds.runActions;
  const urlOf = config.page.url;
  const originals = new Map<string, { intent: string; description: string }>();
  let attempted = 0;
  let capped = false;

  const request = (action: ToolAction, risk: ActionRisk, detail: string, turn: GateTurn, url?: string): ApprovalRequest => {
    const todo = turn.todoId === undefined ? undefined : plan.todos.get(turn.todoId);
    const where = url ?? urlOf?.();
    return {
      kind: 'action',
      tool: action.name,
      args: structuredClone(action.args),
      risk,
      detail,
      ...(todo ? { todo: { id: todo.id, description: todo.description } } : {}),
      ...(where ? { url: where } : {}),
      ...(turn.purpose ? { purpose: turn.purpose } : {}),
    };
  };
  /** The policy for one step: asked when the level says so; refused without a hook. */
  const decide = async (risk: ActionRisk, asked: ApprovalRequest, signal: AbortSignal | undefined): Promise<ConfirmResult & { by: 'policy' | 'user' }> => {
    if (!needsApproval(risk, level)) return { approved: true, by: 'policy' };
    if (!onApprove) {
      return { approved: false, reason: `${risk} actions need the user's approval, and this page has no way to ask for it`, by: 'policy' };
    }
    return { ...(await askApproval(onApprove, asked, { timeoutMs, signal })), by: 'user' };
  };

  /** The todos the model rewrote that the user has not approved yet, asked about one by one. */
  const approvePlanChanges = async (action: ToolAction, risk: ActionRisk, turn: GateTurn): Promise<string | undefined> => {
    if (!onApprove || level === 'none') return undefined;
    for (const todo of plan.todos.list()) {
      if (!todo.rewritten || todo.status === 'completed') continue;
      const original = originals.get(todo.id);
      const where = urlOf?.();
      const verdict = await askApproval(
        onApprove,
        {
          kind: 'plan-change',
          tool: action.name,
          args: structuredClone(action.args),
          risk,
          detail: original
            ? `The assistant changed this step after you approved the plan. It was: "${clip(original.description, 200)}"`
            : 'The assistant changed this step after you approved the plan.',
          todo: { id: todo.id, description: todo.description },
          ...(where ? { url: where } : {}),
          ...(turn.purpose ? { purpose: turn.purpose } : {}),
        },
        { timeoutMs, signal: turn.signal },
      );
      if (turn.signal?.aborted) return 'the run was stopped';
      if (verdict.approved) {
        originals.delete(todo.id);
        plan.todos.edit(todo.id, { rewritten: false });
        continue;
      }
      if (!original) return `your change to ${todo.id} was not approved (${verdict.reason}); it stays marked until the user approves or edits it`;
      originals.delete(todo.id);
      plan.todos.edit(todo.id, { intent: original.intent, description: original.description, rewritten: false });
      return `your change to ${todo.id} was not approved (${verdict.reason}); it is back to "${clip(original.description, 120)}"`;
    }
    return undefined;
  };

  return {
    tools,
    get capped() {
      return capped;
    },
    marksRewrites: onApprove !== undefined,
    beforeAdjust(adjust) {
      if (!onApprove) return;
      for (const entry of adjust.replace ?? []) {
        const todo = plan.todos.get(entry.id);
        // The first unapproved rewrite keeps the text the user approved; a second one does not replace it.
        if (todo && !todo.rewritten) originals.set(todo.id, { intent: todo.intent, description: todo.description });
      }
    },
    async admit(action, turn) {
      const tool = tools.get(action.name);
      const risk = tool?.risk;
      const detail = describeToolAction(action, tool);
      attempted += 1;
      if (attempted > maxActions) {
        capped = true;
        return { run: false, risk, detail, reason: `the run's limit of ${maxActions} actions is reached`, capped: true };
      }
      // An unknown tool runs nothing: dispatch reports it to the model.
      if (!tool || risk === undefined) return { run: true, risk, approvedBy: 'policy', detail };
      const planChange = await approvePlanChanges(action, risk, turn);
      if (planChange) return { run: false, risk, detail, reason: planChange };
      const verdict = await decide(risk, request(action, risk, detail, turn), turn.signal);
      return verdict.approved ? { run: true, risk, approvedBy: verdict.by, detail } : { run: false, risk, detail, reason: verdict.reason };
    },
    confirmFor(action, admitted, turn, onRefused) {
      return async (step) => {
        // A tool passing something that is no risk gets the strictest reading.
        const risk: ActionRisk = ACTION_RISKS.includes(step?.risk) ? step.risk : 'irreversible';
        const detail = typeof step?.detail === 'string' && step.detail.trim() ? clip(step.detail, 300) : describeToolAction(action, tools.get(action.name));
        // Already approved (or allowed) at this risk or above when the action was admitted.
        if (ACTION_RISKS.indexOf(risk) <= ACTION_RISKS.indexOf(admitted)) return { approved: true };
        const url = typeof step?.url === 'string' && step.url ? step.url : undefined;
        const said = {
          ...(typeof step?.effect === 'string' && step.effect ? { effect: clip(step.effect, 300) } : {}),
          ...(typeof step?.consequence === 'string' && step.consequence ? { consequence: clip(step.consequence, 40) } : {}),
        };
        const verdict = await decide(risk, { ...request(action, risk, detail, turn, url), ...said }, turn.signal);
        if (verdict.approved) return { approved: true };
        onRefused(risk, detail, verdict.reason);
        return { approved: false, reason: verdict.reason };
      };
    },
  };
}

/**
 * What a tool action will do, in words for the user: the tool's `describe(args)`, else its
 * description with `{name}` placeholders filled from the arguments (or as it is, for an action
 * without arguments), else the name and arguments.
 *
 * @example
 * ```ts
 * const { tools: table } = resolveRunOptions({ task, tools: { navigate: { description: 'open a page {path}', run: ({ path }) => location.assign(String(path)) } } });
 * describeToolAction({ type: 'tool', name: 'navigate', args: { path: '/pricing' } }, table.get('navigate'));
 * // 'open a page /pricing'
 * ```
 */
export function describeToolAction(action: ToolAction, tool: ToolEntry | undefined): string {
  if (tool) {
    if (tool.describe) {
      try {
        const text = tool.describe(action.args);
        if (typeof text === 'string' && text.trim()) return clip(text, 300);
      } catch {
        // A failing describe falls back to the generic words below.
      }
    }
    const template = tool.description;
    if (template && /\{\w+\}/.test(template)) {
      return clip(
        template.replace(/\{(\w+)\}/g, (whole, key: string) => (Object.hasOwn(action.args, key) ? clip(action.args[key], 80) : whole)),
        300,
      );
    }
    // A description that takes no arguments says it all when none were given.
    if (template && Object.keys(action.args).length === 0) return clip(template, 300);
  }
  return `${action.name} ${clip(action.args, 200)}`;
}
