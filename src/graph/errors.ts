import { PlanloopError, type PlanloopErrorOptions } from '../errors.js';

/** The brand of the graph error class called `name`, the same in every realm. */
function brandOf(name: string): symbol {
  return Symbol.for(`planloop.error.${name}`);
}

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

  constructor(code: 'graph_invalid', message: string | undefined, options: PlanloopErrorOptions & { issues: readonly GraphIssue[] });
  /** @deprecated since 0.2.0, use `new GraphValidationError('graph_invalid', undefined, { issues, cause })`; removed in 0.3.0 */
  constructor(issues: readonly GraphIssue[], options?: PlanloopErrorOptions);
  constructor(...args: [unknown, unknown?, object?]) {
    const options = (args[0] === 'graph_invalid' ? args[2] : { ...(args[1] as PlanloopErrorOptions | undefined), issues: args[0] }) as PlanloopErrorOptions & {
      issues: readonly GraphIssue[];
    };
    const given = args[0] === 'graph_invalid' ? (args[1] as string | undefined) : undefined;
    const { issues } = options;
    const lines = issues.map((issue) => `- ${issue.index < 0 ? 'the plan' : `call ${issue.index}`}${issue.path ? ` (${issue.path})` : ''}: ${issue.message}`);
    super(
      'graph_invalid',
      given ?? `The tool-call plan has ${issues.length} problem${issues.length === 1 ? '' : 's'}; fix them and send the whole plan again:\n${lines.join('\n')}`,
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

  constructor(code: 'state_write_once', message: string | undefined, options: PlanloopErrorOptions & { path: string; detail: string });
  /** @deprecated since 0.2.0, use `new StateWriteOnceError('state_write_once', undefined, { path, detail })`; removed in 0.3.0 */
  constructor(path: string, detail: string);
  constructor(...args: [string, unknown, object?]) {
    const options = (args[0] === 'state_write_once' && typeof args[2] === 'object' ? args[2] : { path: args[0], detail: args[1] }) as PlanloopErrorOptions & {
      path: string;
      detail: string;
    };
    const given = args[0] === 'state_write_once' && typeof args[2] === 'object' ? (args[1] as string | undefined) : undefined;
    super('state_write_once', given ?? `Cannot write ${options.path}: ${options.detail}. State is write-once; write the value to a new path instead.`, options);
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

  constructor(code: 'tool_failed', message: string | undefined, options: { index: number; tool: string; cause: unknown });
  /** @deprecated since 0.2.0, use `new ToolCallError('tool_failed', undefined, { index, tool, cause })`; removed in 0.3.0 */
  constructor(index: number, tool: string, cause: unknown);
  constructor(...args: [unknown, unknown, unknown]) {
    const options = (args[0] === 'tool_failed' ? args[2] : { index: args[0], tool: args[1], cause: args[2] }) as {
      index: number;
      tool: string;
      cause: unknown;
    };
    const given = args[0] === 'tool_failed' ? (args[1] as string | undefined) : undefined;
    const { index, tool, cause } = options;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      'tool_failed',
      given ?? `Call ${index} (${tool}) failed: ${reason}. To keep the run going, give the call an error path: "_outputPath": "†state.result || †state.error".`,
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

  constructor(code: 'turn_limit', message: string | undefined, options: PlanloopErrorOptions & { turns: number; state: Record<string, unknown> });
  /** @deprecated since 0.2.0, use `new TurnLimitError('turn_limit', undefined, { turns, state })`; removed in 0.3.0 */
  constructor(turns: number, state: Record<string, unknown>);
  constructor(...args: [unknown, unknown, object?]) {
    const options = (args[0] === 'turn_limit' ? args[2] : { turns: args[0], state: args[1] }) as PlanloopErrorOptions & {
      turns: number;
      state: Record<string, unknown>;
    };
    const given = args[0] === 'turn_limit' ? (args[1] as string | undefined) : undefined;
    const { turns } = options;
    super(
      'turn_limit',
      given ?? `The replanning loop stopped after ${turns} turn${turns === 1 ? '' : 's'} without an output. Raise maxTurns or give the model a narrower task.`,
      options,
    );
    this.turns = turns;
    this.state = options.state;
  }
}
