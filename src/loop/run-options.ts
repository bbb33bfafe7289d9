/*
 * A run's options, grouped by purpose, and the one place they are read: `resolveRunOptions`
 * checks them whole (a typed error naming every problem and how to fix it) and fills in every
 * default from `RUN_DEFAULTS`. The run's parts then get the resolved groups they need: the gate
 * the tools, the approval and the action cap; a turn the user's channels and the model's
 * settings; the loop its bounds. Nothing else reads a host's options.
 */
import { ENVELOPE_LIMITS } from '../envelope/schema.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import type { LLMSource } from '../llm/provider.js';
import type { Plan } from '../plan.js';
import type { TodoItem } from '../plan-state.js';
import type { PlanInput } from '../planning/make-todos.js';
import { ACTION_RISKS, type ApprovalLevel, type ApproveHook } from './action-policy.js';
import type { TodoCheck } from '../todo-check.js';
import type { LoopTool, UserChannels } from './dispatch-action.js';
import type { PageChecker } from './evidence-ledger.js';
import type { HostSecrets } from './redact-prompt.js';
import { readToolTable, type ToolTable } from './tool-table.js';
import type { TourLocators } from './tour-recorder.js';

/**
 * What a run takes (`startRun(plan, options)`): the task, the tools and a signal, and one group per
 * purpose. Every group and every key in it is optional; the defaults are {@link RUN_DEFAULTS}.
 *
 * @example
 * ```ts
 * const options: RunOptions = {
 *   task: 'Show me the prices',
 *   tools,
 *   user: { narrate: (text) => console.log(text) },
 *   approval: { ask: (request, { signal }) => panel.requestApproval(request, { signal }) },
 *   bounds: { runActions: 60 },
 * };
 * ```
 */
export interface RunOptions {
  /** The user's request. */
  task: string;
  /** The host's tools, by name: a handler, or `{ run, description, risk, describe }`. An unknown name the model sends becomes an error observation. */
  tools?: Record<string, LoopTool> | undefined;
  /** Stops the run (as `run.stop()` does): it rejects with an `AbortError`. */
  signal?: AbortSignal | undefined;
  /** How the run starts: what the planner gets, the announcement, resuming, taking over from another tab. */
  start?: RunStartOptions | undefined;
  /** How the run talks to the user: narrations and questions. */
  user?: UserChannels | undefined;
  /** Who approves risky actions, from which risk on, and how long an answer may take. */
  approval?: RunApprovalOptions | undefined;
  /** What the model sees of the page each turn. */
  page?: RunPageOptions | undefined;
  /** What each turn's prompt holds besides the plan and the page. */
  prompt?: RunPromptOptions | undefined;
  /** The turn model and the bounds of its answer. */
  model?: RunModelOptions | undefined;
  /** The run's bounds: turns and actions. */
  bounds?: RunBoundsOptions | undefined;
}

/** How a run starts (`options.start`). */
export interface RunStartOptions {
  /** What `plan.makeTodos` gets. Default `{ task }`. */
  planInput?: PlanInput | undefined;
  /**
   * Shows the plan's summary and todos and waits for the user's go (e.g. `panel.review()`). `false`
   * declines: the run ends with reason `declined` and the plan is cleared. Default: none (no wait).
   */
  announce?: ((summary: string, todos: TodoItem[]) => boolean | Promise<boolean>) | undefined;
  /**
   * Whether to go on with a plan that has remaining todos instead of planning anew. Default: only
   * when the plan was made for this same task (or its task is unknown, as for a checklist), which
   * is what a reload wants while a new request plans afresh. `true` resumes whatever the task;
   * `false` always plans.
   */
  resume?: boolean | undefined;
  /** Takes the plan's run over from another tab that runs it (that run stops) instead of refusing with `run_in_progress`. Default `false`. */
  takeOver?: boolean | undefined;
  /**
   * Sets or overrides each open todo's check once the plan is made or resumed, before the first
   * turn: return a check (the object, or its compact text such as `'see status "Saved"'`), `'none'`
   * to leave the todo on the model's word, or `undefined` to keep its own. A malformed check is a
   * `ValidationError` naming the todo, before any turn, and the plan is left as it was. Default: keep.
   */
  checks?: ((todo: TodoItem) => TodoCheck | string | undefined) | undefined;
}

/** Who approves risky actions (`options.approval`); see the README's Safety section. */
export interface RunApprovalOptions {
  /**
   * Asked before each action at or above `level`, and before the next action after the model
   * rewrote a todo; only a clear yes runs it. `'state'`: the run asks through its state (the
   * request waits in `run.state.approval` until `run.answer()`, e.g. from an AG-UI resume).
   * Default: none (then `'irreversible'` actions are refused and the others run).
   */
  ask?: ApproveHook | 'state' | undefined;
  /** From which risk on the user is asked (`'none'`: never). Default `'write'` with `ask`, `'irreversible'` without. */
  level?: ApprovalLevel | undefined;
  /** Milliseconds an answer may take before silence counts as a no (`0`: no limit). Default 300,000. */
  timeoutMs?: number | undefined;
}

/** What the model sees of the page (`options.page`). */
export interface RunPageOptions {
  /**
   * What the page shows now, asked before every turn (e.g. `renderOutline(outlinePage({ maxTokens }))` from `planloop/dom`): its
   * text goes into that turn's prompt under `Page:`, cut to `tokenBudget`. A throw becomes a line
   * saying the page could not be read; the turn goes on. Default: none.
   */
  observe?: ((context: ObserveContext) => string | undefined | Promise<string | undefined>) | undefined;
  /** The token budget of `observe`'s text (passed to it as `maxTokens`); longer text is cut at 4 characters a token. Default 400. */
  tokenBudget?: number | undefined;
  /** Where the page is, for the prompt's `URL:` line and approval requests. Default: `location`'s path, query and hash in a browser; `false` leaves it out. */
  url?: (() => string | undefined) | false | undefined;
  /**
   * The values the model must never read: pass the same secrets `fill` types for `{{secret:name}}`
   * (a map, a list of values, or a function listing them, asked before each turn). Every occurrence
   * in a turn's messages (page text the page echoed them into, tool results, observations, the URL)
   * becomes `[secret]`. Default none.
   */
  secrets?: HostSecrets | undefined;
  /**
   * Turns the targets the model names (outline refs) into locators for the run's `tour`, while
   * the elements are on the page: `planloop/dom`'s `createTourLocators`, with the same `root` and
   * `exclude` as the tools. Default none: the tour records each target as `null` (not replayable
   * without a model).
   */
  locators?: TourLocators | undefined;
  /**
   * Checks a todo's page evidence (`visible` and `field` checks, see `TodoCheck`): planloop/dom's
   * `checkPage` with your own UI left out, `(check) => checkPage(check, { exclude: 'plan-panel, #guide' })`,
   * or your own (a page in another frame or process). Default none: those checks then never hold
   * (their todos stay open, and the model is told the page cannot be checked), and a `fill` todo's
   * evidence is that its fill ran.
   */
  check?: PageChecker | undefined;
}

/** What `observe` receives before each turn. */
export interface ObserveContext {
  readonly turn: number;
  readonly plan: Plan;
  readonly signal: AbortSignal | undefined;
  /** The token budget for the text (`page.tokenBudget`). */
  readonly maxTokens: number;
}

/** What each turn's prompt holds (`options.prompt`). */
export interface RunPromptOptions {
  /**
   * Replaces the envelope instructions (`TURN_INSTRUCTIONS`, the turn's system prompt); the data
   * rule is kept after it. A function is asked before each turn (instructions that change during a
   * run, such as a `write_todos` list). The planner's prompt is the plan's own (`new Plan({ systemPrompt })`).
   */
  instructions?: string | (() => string) | undefined;
  /** Earlier turns remembered in the prompt, one short line each. Default 4. */
  memoryTurns?: number | undefined;
  /** Turns without a todo completed or rewritten before the prompt nudges the model (`0`: never). Default 2. */
  nudgeAfter?: number | undefined;
}

/** The turn model (`options.model`). */
export interface RunModelOptions {
  /** A provider, or a router whose `turn` role is used. Default: the plan's `llm` (its `turn` role, then `default`). Planning always uses the plan's own. */
  provider?: LLMSource | undefined;
  temperature?: number | undefined;
  /** The model's output tokens per turn (the request's `maxTokens`). Default: the provider's. */
  maxTokens?: number | undefined;
  /** Milliseconds the model may take to answer a turn (`0`: no limit). Default 30,000. */
  timeoutMs?: number | undefined;
  /** Characters a turn's answer may have. Default 20,000. */
  maxChars?: number | undefined;
}

/** The run's bounds (`options.bounds`). */
export interface RunBoundsOptions {
  /** Turns allowed beyond the remaining todos; the bound is fixed when the turns start. Default 2. */
  turnSlack?: number | undefined;
  /** Turns that only look (every action a `risk: 'read'` tool) that do not count against the turn bound. Default 3. */
  lookTurns?: number | undefined;
  /** Tool actions one run may attempt (run, failed or refused); the next one ends the run with `action_limit`. Default 40. */
  runActions?: number | undefined;
  /** Actions one turn's envelope may carry. Default 20 (`ENVELOPE_LIMITS.actions`). */
  turnActions?: number | undefined;
}

/**
 * Every default of a run, in one place.
 *
 * @example
 * ```ts
 * startRun(plan, { task, tools, bounds: { runActions: RUN_DEFAULTS.bounds.runActions * 2 } });
 * ```
 */
export const RUN_DEFAULTS = {
  approval: { timeoutMs: 300_000 },
  page: { tokenBudget: 400 },
  prompt: { memoryTurns: 4, nudgeAfter: 2 },
  model: { timeoutMs: 30_000, maxChars: 20_000 },
  bounds: { turnSlack: 2, lookTurns: 3, runActions: 40, turnActions: ENVELOPE_LIMITS.actions },
} as const;

/**
 * The 0.2 defaults of the action policy, under their 0.2 names.
 *
 * @deprecated since 0.3.0, use `RUN_DEFAULTS.bounds.runActions` and `RUN_DEFAULTS.approval.timeoutMs`; removed in 0.4.0
 *
 * @example
 * ```ts
 * RUN_DEFAULTS.bounds.runActions; // 40, DEFAULT_ACTION_POLICY.maxActions in 0.2
 * ```
 */
export const DEFAULT_ACTION_POLICY = { maxActions: RUN_DEFAULTS.bounds.runActions, approvalTimeoutMs: RUN_DEFAULTS.approval.timeoutMs } as const;

/** The approval rules of a run, resolved. */
export interface ApprovalConfig {
  readonly ask: ApproveHook | 'state' | undefined;
  readonly level: ApprovalLevel;
  readonly timeoutMs: number;
}

/**
 * A run's options, checked and with every default filled in (see {@link resolveRunOptions}).
 * Immutable; its parts are handed to the parts of a run that need them.
 */
export interface RunConfig {
  readonly task: string;
  readonly tools: ToolTable;
  readonly signal: AbortSignal | undefined;
  readonly start: Readonly<RunStartOptions> & { readonly takeOver: boolean };
  readonly user: Readonly<UserChannels>;
  readonly approval: ApprovalConfig;
  readonly page: {
    readonly observe: RunPageOptions['observe'];
    readonly tokenBudget: number;
    readonly url: (() => string | undefined) | undefined;
    readonly secrets: HostSecrets | undefined;
    readonly locators: TourLocators | undefined;
    /** The page checker (`undefined`: none). */
    readonly check: PageChecker | undefined;
  };
  readonly prompt: { readonly instructions: string | (() => string) | undefined; readonly memoryTurns: number; readonly nudgeAfter: number };
  readonly model: {
    readonly provider: LLMSource | undefined;
    readonly temperature: number | undefined;
    readonly maxTokens: number | undefined;
    readonly timeoutMs: number;
    readonly maxChars: number;
  };
  readonly bounds: { readonly turnSlack: number; readonly lookTurns: number; readonly runActions: number; readonly turnActions: number };
}

/** The keys of each group, to name a misspelt one. */
const GROUP_KEYS = {
  start: ['planInput', 'announce', 'resume', 'takeOver', 'checks'],
  user: ['narrate', 'narrateDelta', 'ask'],
  approval: ['ask', 'level', 'timeoutMs'],
  page: ['observe', 'tokenBudget', 'url', 'secrets', 'locators', 'check'],
  prompt: ['instructions', 'memoryTurns', 'nudgeAfter'],
  model: ['provider', 'temperature', 'maxTokens', 'timeoutMs', 'maxChars'],
  bounds: ['turnSlack', 'lookTurns', 'runActions', 'turnActions'],
} as const;
const TOP_KEYS = ['task', 'tools', 'signal', ...Object.keys(GROUP_KEYS)];

/**
 * Checks a run's options and fills in every default ({@link RUN_DEFAULTS}): the one place a run's
 * options are read. Throws a `ValidationError` (`invalid_input`) listing every problem with its
 * path and what would be right (`bounds.turnSlack must be a whole number of at least 0, not NaN`),
 * before any model is called. A key a group does not have is refused too, naming the group's keys,
 * so a misspelt option never silently does nothing; a 0.2 name (`maxActions`) names its group.
 *
 * @example
 * ```ts
 * const config = resolveRunOptions({ task, tools, approval: { ask: onApprove } });
 * config.approval.level; // 'write': asked before every action that is not 'read'
 * config.tools.get('navigate')?.risk; // each tool's risk, read once
 * ```
 */
export function resolveRunOptions(options: RunOptions): RunConfig {
  const issues: ValidationIssue[] = [];
  if (typeof options !== 'object' || options === null) {
    throw new ValidationError('invalid_input', 'Cannot run: the options must be an object with at least a task.', {
      issues: [{ path: '', message: 'must be an object' }],
    });
  }
  for (const key of Object.keys(options)) {
    if (TOP_KEYS.includes(key) || (options as unknown as Record<string, unknown>)[key] === undefined) continue;
    const group = Object.hasOwn(FLAT_NAMES, key) ? FLAT_NAMES[key as keyof typeof FLAT_NAMES] : undefined;
    const page = key === 'secrets' || key === 'locators' ? `page.${key}` : undefined;
    issues.push({
      path: key,
      message: group
        ? `is a 0.2 option: pass it as ${group}`
        : page
          ? `is a page option: pass it as ${page}`
          : `is no run option (the options are ${TOP_KEYS.join(', ')})`,
    });
  }
  const group = <G extends keyof typeof GROUP_KEYS>(name: G): Partial<Record<(typeof GROUP_KEYS)[G][number], unknown>> => {
    const value = (options as unknown as Record<string, unknown>)[name];
    if (value === undefined) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      issues.push({ path: name, message: `must be an object with some of ${GROUP_KEYS[name].join(', ')}` });
      return {};
    }
    for (const key of Object.keys(value)) {
      if (!(GROUP_KEYS[name] as readonly string[]).includes(key) && (value as Record<string, unknown>)[key] !== undefined) {
        issues.push({ path: `${name}.${key}`, message: `is not one of ${name}'s options (${GROUP_KEYS[name].join(', ')})` });
      }
    }
    return value as Partial<Record<(typeof GROUP_KEYS)[G][number], unknown>>;
  };
  const count = (path: string, value: unknown, fallback: number): number => {
    if (value === undefined) return fallback;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
    issues.push({ path, message: `must be a whole number of at least 0, not ${typeof value === 'number' ? String(value) : JSON.stringify(value)}` });
    return fallback;
  };
  const fn = <F>(path: string, value: unknown): F | undefined => {
    if (value === undefined || typeof value === 'function') return value as F | undefined;
    issues.push({ path, message: 'must be a function' });
    return undefined;
  };
  const flag = (path: string, value: unknown): boolean | undefined => {
    if (value === undefined || typeof value === 'boolean') return value;
    issues.push({ path, message: 'must be true or false' });
    return undefined;
  };
  const number = (path: string, value: unknown): number | undefined => {
    if (value === undefined || (typeof value === 'number' && Number.isFinite(value))) return value as number | undefined;
    issues.push({ path, message: `must be a finite number, not ${String(value)}` });
    return undefined;
  };
  const text = (path: string, value: unknown): string | undefined => {
    if (value === undefined || typeof value === 'string') return value;
    issues.push({ path, message: 'must be a string' });
    return undefined;
  };

  const start = group('start');
  const user = group('user');
  const approval = group('approval');
  const page = group('page');
  const prompt = group('prompt');
  const model = group('model');
  const bounds = group('bounds');

  const ask = approval.ask === 'state' ? 'state' : fn<ApproveHook>('approval.ask', approval.ask);
  const level = approval.level;
  if (level !== undefined && level !== 'none' && !ACTION_RISKS.includes(level as never)) {
    issues.push({ path: 'approval.level', message: `must be one of ${[...ACTION_RISKS, 'none'].join(', ')}, not ${JSON.stringify(level)}` });
  }
  const url = page.url === false ? false : fn<() => string | undefined>('page.url', page.url);
  if (options.signal !== undefined && !isSignal(options.signal)) issues.push({ path: 'signal', message: 'must be an AbortSignal' });

  const config: RunConfig = {
    task: options.task,
    tools: readToolTable(options.tools, issues),
    signal: options.signal,
    start: {
      planInput: start.planInput as PlanInput | undefined,
      announce: fn('start.announce', start.announce),
      resume: flag('start.resume', start.resume),
      takeOver: flag('start.takeOver', start.takeOver) ?? false,
      checks: fn('start.checks', start.checks),
    },
    user: {
      narrate: fn('user.narrate', user.narrate),
      narrateDelta: fn('user.narrateDelta', user.narrateDelta),
      ask: fn('user.ask', user.ask),
    },
    approval: {
      ask,
      level: (level as ApprovalLevel | undefined) ?? (ask ? 'write' : 'irreversible'),
      timeoutMs: count('approval.timeoutMs', approval.timeoutMs, RUN_DEFAULTS.approval.timeoutMs),
    },
    page: {
      observe: fn('page.observe', page.observe),
      tokenBudget: count('page.tokenBudget', page.tokenBudget, RUN_DEFAULTS.page.tokenBudget),
      url: url === false ? undefined : (url ?? browserUrl),
      secrets: readSecrets(page.secrets, issues),
      locators: readLocators(page.locators, issues),
      check: fn<PageChecker>('page.check', page.check),
    },
    prompt: {
      instructions: typeof prompt.instructions === 'function' ? (prompt.instructions as () => string) : text('prompt.instructions', prompt.instructions),
      memoryTurns: count('prompt.memoryTurns', prompt.memoryTurns, RUN_DEFAULTS.prompt.memoryTurns),
      nudgeAfter: count('prompt.nudgeAfter', prompt.nudgeAfter, RUN_DEFAULTS.prompt.nudgeAfter),
    },
    model: {
      provider: model.provider as LLMSource | undefined,
      temperature: number('model.temperature', model.temperature),
      maxTokens: model.maxTokens === undefined ? undefined : count('model.maxTokens', model.maxTokens, 0),
      timeoutMs: count('model.timeoutMs', model.timeoutMs, RUN_DEFAULTS.model.timeoutMs),
      maxChars: count('model.maxChars', model.maxChars, RUN_DEFAULTS.model.maxChars),
    },
    bounds: {
      turnSlack: count('bounds.turnSlack', bounds.turnSlack, RUN_DEFAULTS.bounds.turnSlack),
      lookTurns: count('bounds.lookTurns', bounds.lookTurns, RUN_DEFAULTS.bounds.lookTurns),
      runActions: count('bounds.runActions', bounds.runActions, RUN_DEFAULTS.bounds.runActions),
      turnActions: count('bounds.turnActions', bounds.turnActions, RUN_DEFAULTS.bounds.turnActions),
    },
  };
  if (issues.length > 0) {
    throw new ValidationError('invalid_input', `Cannot run: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}.`, { issues });
  }
  return config;
}

/**
 * The 0.2 options and where each went: `maxActions` is `bounds.runActions`, `turnLimits.maxActions`
 * `bounds.turnActions`, and so on. `runWebAgent` still takes them until 0.4.0.
 *
 * @example
 * ```ts
 * FLAT_NAMES.maxActions; // 'bounds.runActions'
 * ```
 */
export const FLAT_NAMES = {
  llm: 'model.provider',
  temperature: 'model.temperature',
  maxTokens: 'model.maxTokens',
  systemPrompt: 'prompt.instructions',
  memorySize: 'prompt.memoryTurns',
  stallTurns: 'prompt.nudgeAfter',
  planInput: 'start.planInput',
  announcePlan: 'start.announce',
  resume: 'start.resume',
  takeOver: 'start.takeOver',
  observe: 'page.observe',
  observeBudget: 'page.tokenBudget',
  url: 'page.url',
  maxTurnSlack: 'bounds.turnSlack',
  maxLookTurns: 'bounds.lookTurns',
  maxActions: 'bounds.runActions',
  onNarrate: 'user.narrate',
  onNarrateDelta: 'user.narrateDelta',
  onAsk: 'user.ask',
  onApprove: 'approval.ask',
  approvalLevel: 'approval.level',
  approvalTimeoutMs: 'approval.timeoutMs',
  turnLimits: 'model.timeoutMs, model.maxChars and bounds.turnActions',
} as const;

/** `page.secrets`, when it is a map of names to values, a list of values or a function. */
function readSecrets(value: unknown, issues: ValidationIssue[]): HostSecrets | undefined {
  if (value === undefined || typeof value === 'function') return value as HostSecrets | undefined;
  const values = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : undefined;
  if (values?.every((entry) => typeof entry === 'string')) return value as HostSecrets;
  issues.push({ path: 'page.secrets', message: 'must be a map of names to values, a list of values, or a function that lists them' });
  return undefined;
}

/** `page.locators`, when it has `locate` and `find` (`createTourLocators` from planloop/dom). */
function readLocators(value: unknown, issues: ValidationIssue[]): TourLocators | undefined {
  if (value === undefined) return undefined;
  const locators = value as Partial<TourLocators> | null;
  if (typeof locators === 'object' && locators !== null && typeof locators.locate === 'function' && typeof locators.find === 'function')
    return value as TourLocators;
  issues.push({ path: 'page.locators', message: 'must have locate and find functions (createTourLocators from planloop/dom)' });
  return undefined;
}

function isSignal(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as AbortSignal).addEventListener === 'function' && 'aborted' in value;
}

/** The page's path, query and hash when running in a browser. */
function browserUrl(): string | undefined {
  const location = (globalThis as { location?: Location }).location;
  return location?.pathname ? `${location.pathname}${location.search}${location.hash}` : undefined;
}
