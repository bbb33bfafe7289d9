import type { MarkdownChangeEvent } from './artifacts/markdown.js';
import type { TodoSeed, TodosChangeEvent } from './artifacts/todos.js';
import type { AdjustResult } from './envelope/apply.js';
import type { TodoAdjust, TurnAction, TurnEnvelope } from './envelope/schema.js';
import type { PlanloopError, StorageError } from './errors.js';
import type { LLMUsage } from './llm/provider.js';
import type { PlanChangeOrigin, PlanState, TodoItem } from './plan-state.js';
import type { MergeConflict as SyncConflict } from './sync/merge-plan-snapshots.js';
import type { PlanSaveStatus } from './storage/save-queue.js';

export type { AdjustResult } from './envelope/apply.js';

/** The result of `makeTodos`: a one-sentence summary in the user's language and the ordered todos. */
export interface TaskPlan {
  /** The one-sentence summary (which becomes `plan.summary`; the model writes it as `task_summary`). */
  summary: string;
  /** The same summary under the name DESIGN.md's contract gives `makeTodos`' result (`{ task_summary, todos }`): kept. */
  task_summary: string;
  todos: TodoItem[];
}

/**
 * What `plan.setTaskPlan` takes: a summary, todos (ids assigned when missing, statuses `pending`
 * unless given) and optionally the task they are for.
 *
 * @example
 * ```ts
 * plan.setTaskPlan({ summary: 'A look at pricing', todos: [{ intent: 'navigate', description: 'Open pricing' }], task: 'Show me the prices' });
 * ```
 */
export interface TaskPlanInput {
  /** The one-sentence summary. Default `''`. */
  summary?: string | undefined;
  todos: readonly TodoSeed[];
  /** The task the plan is for. Default `''`. */
  task?: string | undefined;
}

/** Where a `plan-update` came from. */
export type PlanUpdateSource = 'adjust' | 'make-todos' | 'write-todos' | 'checklist' | 'tool-result' | 'graph' | 'host' | 'sync';

/** The phases of the reasoning trail (plan, act, obs, reflect). */
export type ReasoningPhase = 'plan' | 'act' | 'obs' | 'reflect';

/**
 * What a turn observed: a tool's result or error, the user's answer, feedback to the model, or an
 * action the policy or the user refused (`refused`: it did not run, or stopped at a refused step).
 */
export interface Observation {
  kind: 'tool-result' | 'tool-error' | 'answer' | 'feedback' | 'refused';
  /** The tool name, for tool observations. */
  name?: string;
  /** One short line the next prompt carries. */
  summary: string;
  data?: unknown;
}

/** Why a run ended without an error. */
export type RunFinishReason = 'task_finish' | 'last_turn' | 'no_todos' | 'turn_limit' | 'action_limit' | 'declined' | 'output' | 'unverified';

/**
 * The events of one run (`run.on(name, listener)`), by name: the run's start, each turn's start
 * and end, each action (run or refused), the run's end, and the reasoning trail. Until 0.4.0 each
 * is also emitted on the run's plan.
 */
export type RunEventMap = Pick<PlanEventMap, 'run-start' | 'turn-start' | 'action' | 'turn-end' | 'run-finish' | 'run-error' | 'reasoning-step'>;

/** The events of one plan, by name. Every payload is one readonly object. */
export interface PlanEventMap {
  /** The plan's state changed: once per commit, whatever changed (todos, documents, summary, task). */
  'state-change': { readonly state: PlanState; readonly previous: PlanState; readonly origin: PlanChangeOrigin };
  /** The todo list changed (any mutation). */
  'todos-change': TodosChangeEvent;
  /** A markdown document changed. */
  'markdown-change': MarkdownChangeEvent;
  /** Stored data was loaded (or there was none). */
  'plan-hydrate': {
    readonly todos: TodoItem[];
    /** How many markdown documents the plan holds now. */
    readonly docCount: number;
    readonly restored: boolean;
  };
  /** makeTodos produced a new plan. */
  'plan-create': { readonly plan: TaskPlan };
  /** The streamed task summary grew. `text` is everything so far. */
  'summary-delta': { readonly delta: string; readonly text: string };
  /** The todo list as a stream event (for UIs and wire protocols). */
  'plan-update': {
    readonly todos: TodoItem[];
    readonly source: PlanUpdateSource;
    readonly tool_call_id?: string;
    readonly revision?: number;
  };
  /** Loading or saving failed; the in-memory plan is intact. */
  'storage-error': { readonly error: StorageError };
  /** `plan.saveStatus` changed: saved, pending, failing (retrying), or held. */
  'save-status-change': { readonly status: PlanSaveStatus };
  /** Merging another tab's plan dropped or renamed something (never silently): what, and which side it came from. */
  'sync-conflict': { readonly conflict: SyncConflict };
  /** A tab took or gave up this plan's run lease (`holder`: its replica, `null` when none holds it; `self`: this tab). */
  'run-holder-change': { readonly holder: string | null; readonly self: boolean };
  /** Something the host should know that is not an error (e.g. a checklist file too large to seed). */
  'plan-warning': { readonly code: string; readonly message: string };
  /**
   * A loop run started.
   * @deprecated since 0.3.0 on the plan: listen on the run (`startRun(plan, options).on('run-start', …)`); the plan stops emitting the run's events in 0.4.0
   */
  'run-start': { readonly runId: string; readonly task: string; readonly resumed: boolean };
  /**
   * A turn started (`attempt` 2 when a bad envelope is retried; the turn number stays).
   * @deprecated since 0.3.0 on the plan: listen on the run (`run.on('turn-start', …)`), or read `run.state`; the plan stops emitting it in 0.4.0
   */
  'turn-start': { readonly runId: string; readonly turn: number; readonly maxTurns: number; readonly attempt?: number };
  /**
   * An action is about to run (`decision: 'run'`) or was refused (`'refused'`, with the `reason`
   * the model is told): by the action policy, the user, or the run's action cap. A tool that asks
   * at run time for a riskier step (`ctx.confirm`) and is refused is reported a second time, with
   * the same index, as `'refused'` with that step's `risk` and `detail`.
   * @deprecated since 0.3.0 on the plan: listen on the run (`run.on('action', …)`); the plan stops emitting it in 0.4.0
   */
  action: {
    readonly runId: string;
    readonly turn: number;
    readonly index: number;
    readonly action: TurnAction;
    readonly decision: 'run' | 'refused';
    /** The tool's declared risk (or the refused step's); absent for narrate, ask, task_finish and unknown tools. */
    readonly risk?: 'read' | 'write' | 'irreversible';
    /** Who let it run: the policy (no approval needed) or the user (`approval.ask` said yes). */
    readonly approvedBy?: 'policy' | 'user';
    /** Why it was refused. */
    readonly reason?: string;
    /** What the action does, in words for the user (tool actions). */
    readonly detail?: string;
  };
  /**
   * A turn ended.
   * @deprecated since 0.3.0 on the plan: listen on the run (`run.on('turn-end', …)`); the plan stops emitting it in 0.4.0
   */
  'turn-end': {
    readonly runId: string;
    readonly turn: number;
    readonly envelope: TurnEnvelope;
    readonly adjust: AdjustResult;
    readonly observations: Observation[];
    readonly usage?: LLMUsage;
  };
  /**
   * A run ended normally.
   * @deprecated since 0.3.0 on the plan: listen on the run (`run.on('run-finish', …)`), or read `run.state.end`; the plan stops emitting it in 0.4.0
   */
  'run-finish': {
    readonly runId: string;
    readonly reason: RunFinishReason;
    readonly turns: number;
    readonly summary?: string;
    /** Reason `unverified`: each todo with a check the run left open, and what is missing. */
    readonly unverified?: ReadonlyArray<{ readonly id: string; readonly missing: string }>;
  };
  /**
   * A run ended with an error.
   * @deprecated since 0.3.0 on the plan: listen on the run (`run.on('run-error', …)`), or read `run.state.end`; the plan stops emitting it in 0.4.0
   */
  'run-error': { readonly runId: string; readonly turn: number; readonly error: PlanloopError | Error };
  /**
   * A tagged line of the reasoning trail: plan, act, obs or reflect. The turn loop's steps are on
   * the run too (`run.on('reasoning-step', …)`); from 0.4.0 only there (`write_todos` keeps emitting its own here).
   */
  'reasoning-step': {
    readonly runId?: string;
    readonly phase: ReasoningPhase;
    readonly summary: string;
    /** The loop's turn; absent for steps from outside a turn loop (e.g. `write_todos`). */
    readonly turn?: number;
    /** The plan revision, for `write_todos` updates. */
    readonly revision?: number;
    readonly timestamp: number;
  };
  /** A tool-call graph call started. */
  'call-start': ToolGraphEvents['call-start'];
  /** A tool-call graph call ended. */
  'call-end': ToolGraphEvents['call-end'];
  /** A tool-call graph call failed. */
  'call-error': ToolGraphEvents['call-error'];
}

/**
 * Events of a tool-call graph run (`planloop/graph`), one payload each; a run mirrored into a plan
 * emits the same payloads on it. Indices are positions in the plan that ran.
 */
export interface ToolGraphEvents {
  'call-start': { readonly index: number; readonly tool: string; readonly args: Record<string, unknown> };
  'call-end': { readonly index: number; readonly tool: string; readonly result: unknown; readonly wrote: readonly string[] };
  /** `handled`: the error went to the call's error path and the run goes on. */
  'call-error': { readonly index: number; readonly tool: string; readonly error: unknown; readonly handled: boolean; readonly wrote: readonly string[] };
  /** The call can never run: a path it needs will never be written (another alternative was taken). */
  'call-skip': { readonly index: number; readonly tool: string; readonly reason: string };
}

/** A plan event re-emitted by a parent plan: `subagent.plan-update`, with the subagent's name. */
export type SubagentEventMap = {
  [K in keyof PlanEventMap as `subagent.${K}`]: PlanEventMap[K] & { readonly subagent: string };
};

/** Every event a plan can emit. */
export type PlanEvents = PlanEventMap & SubagentEventMap;

/** The name of a plan event. */
export type PlanEventName = keyof PlanEvents;

/** The todo-adjust payload type, re-exported for event consumers. */
export type { TodoAdjust };
