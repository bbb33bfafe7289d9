/*
 * The 0.2 shape of a run's options, one flat bag of 27 names, and how it maps onto the groups of
 * `RunOptions`. `runWebAgent` takes it until 0.4.0; this file goes then.
 */
import { ValidationError } from '../errors.js';
import type { LLMSource } from '../llm/provider.js';
import type { TodoItem } from '../plan-state.js';
import type { PlanInput } from '../planning/make-todos.js';
import type { ApprovalLevel, ApproveHook } from './action-policy.js';
import type { LoopTool, UserChannels } from './dispatch-action.js';
import { FLAT_NAMES, type ObserveContext, type RunOptions } from './run-options.js';

/**
 * The 0.2 options of `runWebAgent`, flat. Each name is a key of a group now ({@link FLAT_NAMES}).
 *
 * @deprecated since 0.3.0, use the grouped {@link RunOptions} (`start`, `user`, `approval`, `page`, `prompt`, `model`, `bounds`); removed in 0.4.0
 */
export interface FlatRunOptions {
  task: string;
  tools?: Record<string, LoopTool> | undefined;
  signal?: AbortSignal | undefined;
  /** @deprecated since 0.3.0, use `model.provider`; removed in 0.4.0 */
  llm?: LLMSource | undefined;
  /** @deprecated since 0.3.0, use `start.planInput`; removed in 0.4.0 */
  planInput?: PlanInput | undefined;
  /** @deprecated since 0.3.0, use `start.announce`; removed in 0.4.0 */
  announcePlan?: ((summary: string, todos: TodoItem[]) => boolean | Promise<boolean>) | undefined;
  /** @deprecated since 0.3.0, use `start.takeOver`; removed in 0.4.0 */
  takeOver?: boolean | undefined;
  /** @deprecated since 0.3.0, use `start.resume`; removed in 0.4.0 */
  resume?: boolean | undefined;
  /** @deprecated since 0.3.0, use `bounds.turnSlack`; removed in 0.4.0 */
  maxTurnSlack?: number | undefined;
  /** @deprecated since 0.3.0, use `bounds.lookTurns`; removed in 0.4.0 */
  maxLookTurns?: number | undefined;
  /** @deprecated since 0.3.0, use `prompt.nudgeAfter`; removed in 0.4.0 */
  stallTurns?: number | undefined;
  /** @deprecated since 0.3.0, use `prompt.memoryTurns`; removed in 0.4.0 */
  memorySize?: number | undefined;
  /** @deprecated since 0.3.0, use `page.observe`; removed in 0.4.0 */
  observe?: ((context: ObserveContext) => string | undefined | Promise<string | undefined>) | undefined;
  /** @deprecated since 0.3.0, use `page.tokenBudget`; removed in 0.4.0 */
  observeBudget?: number | undefined;
  /** @deprecated since 0.3.0, use `page.url`; removed in 0.4.0 */
  url?: (() => string | undefined) | false | undefined;
  /** @deprecated since 0.3.0, use `model.timeoutMs`, `model.maxChars` and `bounds.turnActions`; removed in 0.4.0 */
  turnLimits?: { timeoutMs?: number | undefined; maxChars?: number | undefined; maxActions?: number | undefined } | undefined;
  /** @deprecated since 0.3.0, use `prompt.instructions`; removed in 0.4.0 */
  systemPrompt?: string | undefined;
  /** @deprecated since 0.3.0, use `model.temperature`; removed in 0.4.0 */
  temperature?: number | undefined;
  /** @deprecated since 0.3.0, use `model.maxTokens`; removed in 0.4.0 */
  maxTokens?: number | undefined;
  /** @deprecated since 0.3.0, use `user.narrate`; removed in 0.4.0 */
  onNarrate?: UserChannels['narrate'];
  /** @deprecated since 0.3.0, use `user.narrateDelta`; removed in 0.4.0 */
  onNarrateDelta?: UserChannels['narrateDelta'];
  /** @deprecated since 0.3.0, use `user.ask`; removed in 0.4.0 */
  onAsk?: UserChannels['ask'];
  /** @deprecated since 0.3.0, use `approval.ask`; removed in 0.4.0 */
  onApprove?: ApproveHook | undefined;
  /** @deprecated since 0.3.0, use `approval.level`; removed in 0.4.0 */
  approvalLevel?: ApprovalLevel | undefined;
  /** @deprecated since 0.3.0, use `approval.timeoutMs`; removed in 0.4.0 */
  approvalTimeoutMs?: number | undefined;
  /** @deprecated since 0.3.0, use `bounds.runActions` (the envelope's cap is `bounds.turnActions`); removed in 0.4.0 */
  maxActions?: number | undefined;
}

/** Where `turnLimits`' keys went. */
const TURN_LIMIT_NAMES = { timeoutMs: 'model.timeoutMs', maxChars: 'model.maxChars', maxActions: 'bounds.turnActions' } as const;

/**
 * Options that may use the 0.2 flat names, as grouped {@link RunOptions}: each flat name is moved
 * to its group (`maxTurnSlack` to `bounds.turnSlack`); grouped options pass as they are. A name
 * given both ways (`maxActions` and `bounds.runActions`) is a `ValidationError` saying to keep the
 * grouped one. Keys it does not know are left for `resolveRunOptions` to refuse. `origins` maps
 * each moved option's new path to the name the host wrote, for {@link withFlatNames}.
 *
 * @example
 * ```ts
 * groupFlatOptions({ task, maxActions: 60, onApprove }).options; // { task, bounds: { runActions: 60 }, approval: { ask: onApprove } }
 * ```
 */
export function groupFlatOptions(options: FlatRunOptions | RunOptions | (RunOptions & { plan: unknown })): {
  options: RunOptions;
  origins: ReadonlyMap<string, string>;
} {
  const origins = new Map<string, string>();
  const source = options as unknown as Record<string, unknown>;
  const grouped: Record<string, unknown> = {};
  const groups: Record<string, Record<string, unknown>> = {};
  const conflicts: string[] = [];
  const put = (path: string, value: unknown, from: string): void => {
    if (value === undefined) return;
    const [group, key] = path.split('.') as [string, string];
    const given = source[group] as Record<string, unknown> | undefined;
    if (given && typeof given === 'object' && given[key] !== undefined) conflicts.push(`${from} and ${path}`);
    (groups[group] ??= {})[key] = value;
    origins.set(path, from);
  };
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(source))) {
    // The plan is runWebAgent's own (startRun takes it apart from the options).
    if (!descriptor.enumerable || name === 'plan') continue;
    // 0.2 read `systemPrompt` before every turn: a getter (a prompt that changes during the run) stays live.
    const value = name === 'systemPrompt' && descriptor.get ? () => String(source.systemPrompt) : source[name];
    if (name === 'turnLimits' && value && typeof value === 'object') {
      for (const [key, limit] of Object.entries(value)) {
        const path = TURN_LIMIT_NAMES[key as keyof typeof TURN_LIMIT_NAMES];
        if (path) put(path, limit, `turnLimits.${key}`);
      }
    } else if (Object.hasOwn(FLAT_NAMES, name) && name !== 'turnLimits') put(FLAT_NAMES[name as keyof typeof FLAT_NAMES], value, name);
    else grouped[name] = value;
  }
  if (conflicts.length > 0) {
    throw new ValidationError('invalid_input', `Cannot run: ${conflicts.map((pair) => `${pair} are both given`).join('; ')}; keep the grouped one.`, {
      issues: conflicts.map((pair) => ({
        path: pair.split(' and ')[0] as string,
        message: `is the 0.2 name of ${pair.split(' and ')[1]}, which is given too`,
      })),
    });
  }
  for (const [group, values] of Object.entries(groups)) {
    const given = grouped[group];
    grouped[group] = given && typeof given === 'object' ? { ...(given as object), ...values } : given === undefined ? values : given;
  }
  return { options: grouped as unknown as RunOptions, origins };
}

/**
 * `error` (from `resolveRunOptions`) in the names the host wrote: an issue about an option given
 * under its 0.2 name names that name, and where it lives now (`maxActions must be a whole number
 * of at least 0, not -1 (bounds.runActions since 0.3.0)`). Other errors pass as they are.
 *
 * @example
 * ```ts
 * declare const error: ValidationError; // thrown by resolveRunOptions
 * throw withFlatNames(error, new Map([['bounds.runActions', 'maxActions']]));
 * ```
 */
export function withFlatNames(error: unknown, origins: ReadonlyMap<string, string>): unknown {
  if (!ValidationError.isInstance(error) || !error.issues.some((issue) => origins.has(issue.path))) return error;
  const issues = error.issues.map((issue) => {
    const flat = origins.get(issue.path);
    return flat ? { path: flat, message: `${issue.message} (${issue.path} since 0.3.0)` } : issue;
  });
  return new ValidationError('invalid_input', `Cannot run: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}.`, { issues, cause: error });
}
