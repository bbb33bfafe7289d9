import { safeParseAsync } from 'zod/mini';
import type { Listener, Unsubscribe } from '../emitter.js';
import { TypedEmitter } from '../emitter.js';
import { formatPath, ValidationError } from '../errors.js';
import { toAbortError, untilAborted } from '../abort.js';
import { formatIssues, toIssues } from '../validation.js';
import { reviewToolPlan, type ApproveHook } from './approval.js';
import { bindSite, isPlainObject, mapReferences, type PathStatus } from './call.js';
import { ToolCallError } from './errors.js';
import { createTodoMirror, type TodoMirror, type TodoMirrorTarget } from './mirror.js';
import { formatReference, readPath, type Reference } from './reference.js';
import { GraphState } from './state.js';
import { isToolOutcome, type GraphTool, type ToolCall } from './tool.js';
import type { ToolGraphEvents } from './tool-graph-events.js';
import { analyzeToolPlan, type AnalyzedCall, type ToolGraph } from './validate.js';

export type { ToolGraphEvents } from './tool-graph-events.js';

/** What happened to one call. `failed`: the tool failed and its error went to the call's error path. */
export interface CallReport {
  index: number;
  tool: string;
  status: 'completed' | 'failed' | 'skipped';
  /** The state paths written. */
  wrote: string[];
  result?: unknown;
  error?: unknown;
  /** Why a skipped call could not run. */
  reason?: string;
}

/** What a finished run returns. */
export interface ToolPlanResult {
  /** A copy of the whole state after the run. */
  state: Record<string, unknown>;
  /** One report per call, by index. */
  calls: CallReport[];
  /** The calls that ran: the plan given, or the approval hook's edit. */
  plan: ToolCall[];
}

/** Options of {@link runToolPlan}. */
export interface RunToolPlanOptions {
  tools: readonly GraphTool[];
  /** What `†input.*` reads. Default `{}`. */
  input?: Record<string, unknown>;
  /** The state to read and write: a `GraphState` (written in place) or initial values. Default empty. */
  state?: GraphState | Record<string, unknown>;
  /** How many calls may run at once. Default 4. */
  concurrency?: number;
  signal?: AbortSignal;
  /** Runs after validation, before anything executes. */
  approve?: ApproveHook;
  /**
   * A `Plan` whose todos mirror the calls (intent `tool`, `pending` → `in_progress` →
   * `completed`), so `<plan-panel>` shows progress. Replaces its todos; re-emits the call events
   * and a `plan-update` (source `graph`) on it.
   */
  plan?: TodoMirrorTarget;
}

/**
 * A run in progress: await it (or its `result`) for the {@link ToolPlanResult}; subscribe with
 * `on()` right after starting, before the first event.
 */
export interface GraphRun<Result, Events extends object> extends PromiseLike<Result> {
  readonly result: Promise<Result>;
  on<K extends keyof Events & string>(name: K, listener: Listener<Events[K]>): Unsubscribe;
}

/** A running {@link runToolPlan}. */
export type ToolPlanRun = GraphRun<ToolPlanResult, ToolGraphEvents>;

/**
 * Validates a tool-call plan, asks the approval hook, then runs it: every call whose inputs are
 * available runs, up to `concurrency` at once (ties go in plan order).
 *
 * Failures: a tool that throws (or whose resolved arguments fail its schema) writes
 * `{ message, code? }` to the last `||` alternative of its `_outputPath` when it has one;
 * otherwise the run stops with a `ToolCallError` (code `tool_failed`). Stopping, like aborting
 * through `signal`, aborts the running tools' `context.signal` and rejects at once; results that
 * arrive later are dropped, so the state holds exactly the writes of the calls reported done.
 * Calls whose inputs can never exist are reported as skipped. Throws `GraphValidationError`
 * before anything runs when the plan is invalid.
 *
 * @example
 * ```ts
 * declare const calls: unknown[]; // the model's plan
 * declare const tools: GraphTool[];
 * const run = runToolPlan(calls, { tools, input: { amount: 50 } });
 * run.on('call-end', ({ index, tool }) => console.log('done', index, tool));
 * const { state, calls: reports } = await run;
 * ```
 */
export function runToolPlan(calls: readonly unknown[], options: RunToolPlanOptions): ToolPlanRun {
  const emitter = new TypedEmitter<ToolGraphEvents>();
  const mirror = options.plan ? createTodoMirror(options.plan, emitter) : undefined;
  return toGraphRun(emitter, executeToolPlan(calls, options, { emitter, ...(mirror ? { mirror } : {}), keepTodos: false }));
}

/** Wraps a result promise and its emitter as a {@link GraphRun}. */
export function toGraphRun<Result, Events extends object>(emitter: TypedEmitter<Events>, result: Promise<Result>): GraphRun<Result, Events> {
  return {
    result,
    on: (name, listener) => emitter.on(name, listener),
    // biome-ignore lint/suspicious/noThenProperty: the handle is awaitable on purpose (await run(...) gives the result)
    then: (onFulfilled, onRejected) => result.then(onFulfilled, onRejected),
  };
}

/** How a run reports: the events, and the todo mirror of a replanning loop or a single run. */
export interface RunHooks {
  emitter: TypedEmitter<ToolGraphEvents>;
  mirror?: TodoMirror;
  keepTodos: boolean;
}

/** Validation, approval and execution of one plan. Used by {@link runToolPlan} and the replanning loop. */
export async function executeToolPlan(calls: readonly unknown[], options: RunToolPlanOptions, hooks: RunHooks): Promise<ToolPlanResult> {
  await null; // start on a later tick, so that `on()` right after runToolPlan() sees every event
  if (options.signal?.aborted) throw toAbortError(options.signal.reason);
  const concurrency = options.concurrency ?? 4;
  if (!(concurrency >= 1)) {
    throw new ValidationError('invalid_input', `concurrency must be at least 1 (got ${concurrency}).`, {
      issues: [{ path: 'concurrency', message: 'must be at least 1' }],
    });
  }
  const input = options.input ?? {};
  const state = options.state instanceof GraphState ? options.state : new GraphState(options.state);
  const context = { tools: options.tools, input, state };
  const analyzed = analyzeToolPlan(calls, context);
  if (!analyzed.ok) throw analyzed.error;
  // The hook may wait on a person: an abort meanwhile ends the run at once, and its late decision is ignored.
  const graph = options.approve ? await untilAborted(reviewToolPlan(analyzed.graph, options.approve, context), options.signal) : analyzed.graph;
  if (options.signal?.aborted) throw toAbortError(options.signal.reason);
  hooks.mirror?.begin(graph.calls, hooks.keepTodos);
  const reports = await execute(graph, { input, state, concurrency, signal: options.signal, ...hooks });
  return { state: state.snapshot(), calls: reports, plan: graph.calls.map((call) => call.call) };
}

interface ExecuteContext extends RunHooks {
  input: Record<string, unknown>;
  state: GraphState;
  concurrency: number;
  signal: AbortSignal | undefined;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

function execute(graph: ToolGraph, context: ExecuteContext): Promise<CallReport[]> {
  const { input, state, emitter, mirror } = context;
  const status = graph.calls.map((): 'pending' | 'running' | 'settled' => 'pending');
  const reports: CallReport[] = [];
  const controller = new AbortController();
  let running = 0;
  let stopped = false;

  return new Promise<CallReport[]>((resolve, reject) => {
    const onAbort = () => stop(toAbortError(context.signal?.reason));
    context.signal?.addEventListener('abort', onAbort, { once: true });
    const end = () => {
      stopped = true;
      context.signal?.removeEventListener('abort', onAbort);
    };
    const stop = (error: unknown) => {
      if (stopped) return;
      end();
      controller.abort(error);
      // The calls in flight no longer run: their todos must not stay in progress.
      for (const call of graph.calls) {
        if (status[call.index] !== 'running') continue;
        try {
          mirror?.update(call.index, 'pending', 'stopped');
        } catch {
          // the mirror failing must not hide why the run stopped
        }
      }
      reject(error);
    };

    const probe = (ref: Reference, producers: readonly number[]): PathStatus => {
      if (ref.root === 'input') return readPath(input, ref.path).found ? 'present' : 'absent';
      if (producers.some((index) => status[index] !== 'settled')) return 'waiting';
      return state.has(ref.path) ? 'present' : 'absent';
    };
    const read = (ref: Reference) => (ref.root === 'input' ? readPath(input, ref.path).value : state.get(ref.path));

    const settle = (call: AnalyzedCall, report: Omit<CallReport, 'index' | 'tool'>) => {
      status[call.index] = 'settled';
      reports[call.index] = { index: call.index, tool: call.tool.name, ...report };
    };

    const pump = () => {
      try {
        let changed = true;
        while (changed && !stopped) {
          changed = false;
          for (const call of graph.calls) {
            if (stopped || status[call.index] !== 'pending') continue;
            const values = new Map<string, unknown>();
            let waiting = false;
            let missing: readonly Reference[] | null = null;
            for (const site of call.sites) {
              const binding = bindSite(site, probe, read);
              if (binding.status === 'absent') missing = binding.missing;
              else if (binding.status === 'waiting') waiting = true;
              else values.set(site.argPath, binding.value);
              if (missing) break;
            }
            if (missing) {
              const reason = `${missing.map(formatReference).join(', ')} ${missing.length === 1 ? 'was' : 'were'} never written`;
              settle(call, { status: 'skipped', wrote: [], reason });
              emitter.emit('call-skip', { index: call.index, tool: call.tool.name, reason });
              mirror?.update(call.index, 'completed', 'skipped');
              changed = true;
            } else if (!waiting && running < context.concurrency) {
              launch(call, values);
            }
          }
        }
        if (!stopped && running === 0) {
          end();
          resolve(graph.calls.map((call) => reports[call.index]!));
        }
      } catch (error) {
        stop(error);
      }
    };

    const launch = (call: AnalyzedCall, values: Map<string, unknown>) => {
      running++;
      status[call.index] = 'running';
      const args = mapReferences(call.args, (_text, path) => values.get(formatPath(path))) as Record<string, unknown>;
      emitter.emit('call-start', { index: call.index, tool: call.tool.name, args });
      mirror?.update(call.index, 'in_progress');
      void invoke(call, args, controller.signal).then((outcome) => {
        running--;
        if (stopped) return; // the run already ended: a late result is dropped
        try {
          finish(call, outcome);
        } catch (error) {
          stop(error);
          return;
        }
        pump();
      });
    };

    const finish = (call: AnalyzedCall, outcome: Outcome) => {
      const refs = call.output?.refs ?? [];
      if (outcome.ok) {
        let value = outcome.value;
        let targets = call.output?.op === 'and' ? refs : refs.slice(0, 1);
        if (isToolOutcome(value)) {
          const chosen = pickAlternative(refs, value.alternative);
          if (chosen) {
            targets = [chosen];
            value = value.value;
          } else {
            const named = typeof value.alternative === 'number' ? `alternative ${value.alternative}` : `"${value.alternative}"`;
            outcome = {
              ok: false,
              error: new ValidationError(
                'invalid_input',
                `${call.tool.name} chose the outcome ${named}, which its _outputPath does not declare (${refs.map(formatReference).join(', ') || 'none'}).`,
                { issues: [{ path: '_outputPath', message: `does not declare ${named}` }] },
              ),
            };
          }
        }
        if (outcome.ok) {
          const wrote = write(targets, value);
          settle(call, { status: 'completed', wrote, result: value });
          emitter.emit('call-end', { index: call.index, tool: call.tool.name, result: value, wrote });
          mirror?.update(call.index, 'completed');
          return;
        }
      }
      const { error } = outcome;
      if (call.output?.op === 'or') {
        const wrote = write(refs.slice(-1), toErrorValue(error));
        settle(call, { status: 'failed', wrote, error });
        emitter.emit('call-error', { index: call.index, tool: call.tool.name, error, handled: true, wrote });
        mirror?.update(call.index, 'completed', `failed → ${wrote[0]}`);
        return;
      }
      status[call.index] = 'settled';
      emitter.emit('call-error', { index: call.index, tool: call.tool.name, error, handled: false, wrote: [] });
      mirror?.update(call.index, 'pending', 'failed');
      throw new ToolCallError('tool_failed', undefined, { index: call.index, tool: call.tool.name, cause: error });
    };

    /** Writes all targets or none: a fan-out never half-applies. */
    const write = (targets: readonly Reference[], value: unknown): string[] => {
      for (const ref of targets) if (!state.canWrite(ref.path)) state.set(ref.path, value); // throws the write-once error
      for (const ref of targets) state.set(ref.path, value);
      return targets.map(formatReference);
    };

    pump();
  });
}

async function invoke(call: AnalyzedCall, args: Record<string, unknown>, signal: AbortSignal): Promise<Outcome> {
  try {
    const parsed = await safeParseAsync(call.tool.schema, args);
    if (!parsed.success) {
      const issues = toIssues(parsed.error.issues);
      throw new ValidationError('invalid_input', `The arguments of ${call.tool.name} are invalid: ${formatIssues(issues)}.`, { issues });
    }
    return { ok: true, value: await call.tool.run(parsed.data, { signal, index: call.index }) };
  } catch (error) {
    return { ok: false, error };
  }
}

function pickAlternative(refs: readonly Reference[], alternative: number | string): Reference | undefined {
  if (typeof alternative === 'number') return refs[alternative];
  const wanted = alternative.trim().replace(/^(?:†|\$)/u, '');
  const path = wanted.startsWith('state.') ? wanted : `state.${wanted}`;
  return refs.find((ref) => formatReference(ref) === path);
}

/** What a failure looks like in the state: `{ message, code? }`, or the thrown plain object itself. */
function toErrorValue(error: unknown): unknown {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { message: error.message, ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}) };
  }
  return isPlainObject(error) ? error : { message: String(error) };
}
