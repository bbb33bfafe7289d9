import { brandOf, PlanloopError, type PlanloopErrorOptions } from '../errors.js';

/** What kind of problem a {@link GraphIssue} is, for hosts that branch on it. */
export type GraphIssueKind =
  /** A call is not an object with a `_tool` string. */
  | 'malformed_call'
  /** `_tool` names no registered tool. */
  | 'unknown_tool'
  /** Literal arguments fail the tool's schema. */
  | 'invalid_args'
  /** A string starts like a reference but does not parse as one. */
  | 'malformed_reference'
  /** A reference that no input value, state value or producing call can satisfy. */
  | 'unresolvable_reference'
  /** The calls depend on each other in a loop. */
  | 'cycle'
  /** Two calls (or one fan-out) write the same or overlapping state paths. */
  | 'duplicate_output'
  /** An output path already holds a value in the state (state is write-once). */
  | 'state_write_once'
  /** `__proto__`, `constructor` or `prototype` in a path. */
  | 'unsafe_path';

/**
 * One problem in a tool-call plan: the index of the call, where in the call (`_outputPath`,
 * `filters.city`) and what is wrong.
 */
export interface GraphIssue {
  /** The call's position in the plan; -1 when the plan itself is not a list. */
  index: number;
  path?: string;
  kind: GraphIssueKind;
  message: string;
}

/**
 * A tool-call plan failed validation (code `graph_invalid`). `issues` lists every problem at
 * once, each with its call index; the message is written so it can be fed back to a model.
 *
 * @example
 * ```ts
 * declare const calls: unknown[]; // the model's plan
 * declare const tools: GraphTool[];
 * try { await runToolPlan(calls, { tools }); }
 * catch (error) { if (GraphValidationError.isInstance(error)) console.table(error.issues); }
 * ```
 */
export class GraphValidationError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('GraphValidationError');

  readonly issues: readonly GraphIssue[];

  constructor(code: 'graph_invalid', message: string | undefined, options: PlanloopErrorOptions & { issues: readonly GraphIssue[] }) {
    const { issues } = options;
    const lines = issues.map((issue) => `- ${issue.index < 0 ? 'the plan' : `call ${issue.index}`}${issue.path ? ` (${issue.path})` : ''}: ${issue.message}`);
    super(
      code,
      message ??
        `The tool-call plan has ${issues.length} problem${issues.length === 1 ? '' : 's'}; fix them and send the whole plan again:\n${lines.join('\n')}`,
      options,
    );
    this.issues = issues;
  }
}

/**
 * The issue of a "plan" that is not a list of calls at all (a model that answered an object, text
 * or null): index -1.
 *
 * @example
 * ```ts
 * declare const calls: unknown; // the model's plan
 * if (!Array.isArray(calls)) throw new GraphValidationError('graph_invalid', undefined, { issues: [notAListIssue(calls)] });
 * ```
 */
export function notAListIssue(calls: unknown): GraphIssue {
  const shown = String(JSON.stringify(calls) ?? calls).slice(0, 60);
  return { index: -1, kind: 'malformed_call', message: `the plan must be a list of calls ([{ "_tool": ... }, ...]), not ${shown}` };
}

/**
 * A state path that already holds a value was written again (code `state_write_once`).
 *
 * @example
 * ```ts
 * const state = new GraphState({ total: 1 });
 * try { state.set('total', 2); } catch (error) { (error as StateWriteOnceError).path; } // 'state.total'
 * ```
 */
export class StateWriteOnceError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('StateWriteOnceError');

  readonly path: string;

  constructor(code: 'state_write_once', message: string | undefined, options: PlanloopErrorOptions & { path: string; detail: string }) {
    super(code, message ?? `Cannot write ${options.path}: ${options.detail}. State is write-once; write the value to a new path instead.`, options);
    this.path = options.path;
  }
}

/**
 * A tool failed and its call declared no error path (code `tool_failed`). `index` and `tool`
 * name the call; `cause` is what the tool threw.
 *
 * @example
 * ```ts
 * declare const calls: unknown[]; // the model's plan
 * declare const tools: GraphTool[];
 * try { await runToolPlan(calls, { tools }); }
 * catch (error) { if (ToolCallError.isInstance(error)) console.log(error.index, error.tool, error.cause); }
 * ```
 */
export class ToolCallError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('ToolCallError');

  readonly index: number;
  readonly tool: string;

  constructor(code: 'tool_failed', message: string | undefined, options: { index: number; tool: string; cause: unknown }) {
    const { index, tool, cause } = options;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      code,
      message ??
        `Call ${index} (${tool}) failed: ${reason}. To keep the run going, give the call an error path: "_outputPath": "†state.result || †state.error".`,
      { cause },
    );
    this.index = index;
    this.tool = tool;
  }
}

/**
 * The replanning loop used all its turns without an output (code `turn_limit`). Keeps the state
 * reached and the number of turns.
 *
 * @example
 * ```ts
 * declare const tools: GraphTool[];
 * try { await runReplanningLoop({ llm, tools, input: { text: 'Bonjour' } }); }
 * catch (error) { if (TurnLimitError.isInstance(error)) console.log(error.turns, error.state); }
 * ```
 */
export class TurnLimitError extends PlanloopError {
  protected static override readonly brand: symbol = brandOf('TurnLimitError');

  readonly turns: number;
  readonly state: Record<string, unknown>;

  constructor(code: 'turn_limit', message: string | undefined, options: PlanloopErrorOptions & { turns: number; state: Record<string, unknown> }) {
    const { turns } = options;
    super(
      code,
      message ??
        `The replanning loop stopped after ${turns} turn${turns === 1 ? '' : 's'} without an output. Raise maxTurns or give the model a narrower task.`,
      options,
    );
    this.turns = turns;
    this.state = options.state;
  }
}
