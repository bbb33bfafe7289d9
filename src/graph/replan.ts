import { safeParse, type z } from 'zod/mini';
import { TypedEmitter } from '../emitter.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { PlannerOutputError } from '../model-errors.js';
import { throwIfAborted, untilAborted } from '../abort.js';
import { resolveProvider, type LLMMessage, type LLMSource } from '../llm/provider.js';
import { parseModelJson } from '../llm/model-json.js';
import { formatIssues, toIssues } from '../validation.js';
import type { ApproveHook } from './approval.js';
import { callKey, isPlainObject } from './call.js';
import { TurnLimitError } from './errors.js';
import { createTodoMirror, type TodoMirrorTarget } from './mirror.js';
import { REPLAN_SYSTEM_PROMPT, replanTurnMessage, toSchema } from './replan-prompt.js';
import { executeToolPlan, toGraphRun, type CallReport, type GraphRun } from './run.js';
import type { ToolGraphEvents } from './tool-graph-events.js';
import { GraphState } from './state.js';
import type { GraphTool, ToolCall } from './tool.js';
import { analyzeToolPlan } from './validate.js';

/** Options of {@link runReplanningLoop}. */
export interface ReplanningLoopOptions<Output = unknown> {
  /** The model; the `plan` role of a router is used. */
  llm: LLMSource;
  tools: readonly GraphTool[];
  input: Record<string, unknown>;
  /** A blueprint of the state (zod or JSON Schema): names the paths the model should fill. Guidance only. */
  stateSchema?: z.core.$ZodType | Record<string, unknown>;
  /** Checks a non-null `output`; a mismatch is fed back to the model like any malformed answer. */
  outputSchema?: z.core.$ZodType<Output>;
  /** The state to start from (a `GraphState` is written in place). Default empty. */
  state?: GraphState | Record<string, unknown>;
  /** A plan from before this loop, shown to the model in the first turn as its previous plan. */
  previousCalls?: readonly ToolCall[];
  /** Model turns at most. Default 5. */
  maxTurns?: number;
  /** Extra model calls per turn for malformed answers, each with feedback. Default 1. */
  retries?: number;
  /** Calls running at once. Default 4. */
  concurrency?: number;
  /** Let a call identical to one that completed in an earlier turn run again. Default false. */
  repeatCalls?: boolean;
  signal?: AbortSignal;
  /** Asked before each turn's calls run. */
  approve?: ApproveHook;
  /** A `Plan` mirroring every turn's calls as todos (earlier turns' todos stay, completed). */
  plan?: TodoMirrorTarget;
}

/** One turn of the loop. */
export interface ReplanningTurn {
  turn: number;
  /** The calls the model answered with. */
  proposed: ToolCall[];
  /** Calls left out because the same call completed in an earlier turn. */
  repeated: ToolCall[];
  /** The calls that ran (after leaving out repeats and any approval edit); `results` index into it. */
  ran: ToolCall[];
  results: CallReport[];
  output: unknown;
}

/** What the loop returns: the output (null when the model stopped without one), the state, every turn. */
export interface ReplanningResult<Output = unknown> {
  output: Output | null;
  state: Record<string, unknown>;
  turns: ReplanningTurn[];
}

/** Events of the loop: the call events of every turn, and the turns. */
export interface ReplanningEvents extends ToolGraphEvents {
  'turn-start': { readonly turn: number };
  'turn-end': { readonly turn: number; readonly ran: readonly ToolCall[]; readonly output: unknown };
}

/**
 * Plans, runs and replans with a model. Each turn the model sees the tools, the input, the state
 * (and the blueprint when given), its previous plan and what those calls did, and answers
 * `{ calls: [...], output: null | {...} }`. The calls are validated and run; the loop ends when
 * `output` is not null (after running that turn's calls) or no calls are left, and throws a
 * `TurnLimitError` (code `turn_limit`) after `maxTurns` turns.
 *
 * An answer that does not parse, fails validation or has an `output` failing `outputSchema` is
 * sent back with the problems, up to `retries` times; then a `PlannerOutputError` (an answer cut
 * off by the token limit is asked for again too, as it may have lost calls). A call the
 * model repeats after it completed is not run again (models echo finished steps): change an
 * argument, or set `repeatCalls`, to run it again. A tool failing without an error path ends the
 * loop with its `ToolCallError`.
 *
 * @example
 * ```ts
 * import { z } from 'zod/mini';
 * declare const tools: GraphTool[];
 * const stateSchema = z.object({ language: z.optional(z.string()) });
 * const { output, state } = await runReplanningLoop({ llm, tools, input: { text: 'Bonjour le monde' }, stateSchema });
 * ```
 */
export function runReplanningLoop<Output = unknown>(options: ReplanningLoopOptions<Output>): GraphRun<ReplanningResult<Output>, ReplanningEvents> {
  const emitter = new TypedEmitter<ReplanningEvents>();
  return toGraphRun(emitter, loop(options, emitter));
}

async function loop<Output>(options: ReplanningLoopOptions<Output>, emitter: TypedEmitter<ReplanningEvents>): Promise<ReplanningResult<Output>> {
  await null; // let `on()` subscribe first
  const maxTurns = options.maxTurns ?? 5;
  const retries = options.retries ?? 1;
  if (!(maxTurns >= 1) || !(retries >= 0)) {
    throw new ValidationError('invalid_input', `maxTurns must be at least 1 and retries at least 0 (got ${maxTurns} and ${retries}).`, {
      issues: [
        ...(maxTurns >= 1 ? [] : [{ path: 'maxTurns', message: 'must be at least 1' }]),
        ...(retries >= 0 ? [] : [{ path: 'retries', message: 'must be at least 0' }]),
      ],
    });
  }
  const provider = resolveProvider(options.llm, 'plan');
  const state = options.state instanceof GraphState ? options.state : new GraphState(options.state);
  const graphEmitter = emitter as unknown as TypedEmitter<ToolGraphEvents>;
  const mirror = options.plan ? createTodoMirror(options.plan, graphEmitter) : undefined;
  const completed = new Set<string>();
  const turns: ReplanningTurn[] = [];
  let previousCalls = options.previousCalls ?? null;
  let lastResults: CallReport[] = [];

  for (let turn = 1; turn <= maxTurns; turn++) {
    throwIfAborted(options.signal);
    emitter.emit('turn-start', { turn });
    const messages: LLMMessage[] = [
      { role: 'system', content: REPLAN_SYSTEM_PROMPT },
      {
        role: 'user',
        content: replanTurnMessage({ ...options, state: state.snapshot(), previousCalls, lastResults, turn, maxTurns }),
      },
    ];

    let answer: { calls: ToolCall[]; output: unknown } | undefined;
    let fresh: ToolCall[] = [];
    for (let attempt = 0; !answer; attempt++) {
      // Raced with the signal too: a provider that ignores it must not keep an aborted loop waiting.
      const result = await untilAborted(
        Promise.resolve().then(() =>
          provider.generate({ messages, jsonSchema: answerSchema(options.outputSchema), ...(options.signal ? { signal: options.signal } : {}) }),
        ),
        options.signal,
      );
      throwIfAborted(options.signal);
      const checked = checkAnswer(result.text, result.finishReason === 'length', options, state, completed);
      if (checked.ok) {
        answer = checked.answer;
        fresh = checked.fresh;
        break;
      }
      if (attempt >= retries) {
        throw new PlannerOutputError(
          checked.truncated ? 'planner_output_truncated' : 'planner_output_invalid',
          `The model's replanning answer in turn ${turn} was unusable after ${attempt + 1} attempt${attempt === 0 ? '' : 's'}: ${checked.feedback}`,
          { raw: result.text, issues: checked.issues },
        );
      }
      // An empty assistant message is refused by some APIs (Anthropic answers HTTP 400): say it was empty.
      messages.push({ role: 'assistant', content: result.text.trim() === '' ? '(empty answer)' : result.text }, { role: 'user', content: checked.feedback });
    }

    const run = await executeToolPlan(
      fresh,
      {
        tools: options.tools,
        input: options.input,
        state,
        ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.approve ? { approve: options.approve } : {}),
      },
      { emitter: graphEmitter, ...(mirror ? { mirror } : {}), keepTodos: turn > 1 },
    );
    for (const report of run.calls) if (report.status === 'completed') completed.add(callKey(run.plan[report.index]));
    turns.push({
      turn,
      proposed: answer.calls,
      repeated: answer.calls.filter((call) => !fresh.includes(call)),
      ran: run.plan,
      results: run.calls,
      output: answer.output,
    });
    emitter.emit('turn-end', { turn, ran: run.plan, output: answer.output });
    if (answer.output !== null || fresh.length === 0) {
      return { output: answer.output as Output | null, state: state.snapshot(), turns };
    }
    previousCalls = answer.calls;
    lastResults = run.calls;
  }
  throw new TurnLimitError('turn_limit', undefined, { turns: maxTurns, state: state.snapshot() });
}

type Checked =
  | { ok: true; answer: { calls: ToolCall[]; output: unknown }; fresh: ToolCall[] }
  | { ok: false; feedback: string; truncated: boolean; issues: ValidationIssue[] };

/** Parses, shapes and validates one answer; on failure, says what to fix in words for the model. */
function checkAnswer(text: string, cutOff: boolean, options: ReplanningLoopOptions<unknown>, state: GraphState, completed: ReadonlySet<string>): Checked {
  const fail = (feedback: string, issues: ValidationIssue[] = [], truncated = false): Checked => ({ ok: false, feedback, truncated, issues });
  const parsed = parseModelJson(text);
  // A cut-off plan may have lost calls even when the JSON repair closes it, so it is asked for again.
  if (cutOff || parsed.truncated) {
    return fail('Your answer was cut off before its end. Answer again with a shorter plan, as one complete JSON object.', [], true);
  }
  if (!parsed.ok) return fail(`Your answer is not usable JSON: ${parsed.error}. Answer with {"calls": [...], "output": null}.`);
  const value = parsed.value;
  // Small models drop keys they think are empty: a missing list means no calls, a missing output means null.
  const calls = isPlainObject(value) ? (value.calls ?? []) : undefined;
  if (!isPlainObject(value) || !Array.isArray(calls)) {
    return fail('Your answer must be a JSON object {"calls": [...], "output": null | {...}} with "calls" as a list.', [
      { path: 'calls', message: 'must be an array' },
    ]);
  }
  const output = value.output ?? null;
  if (output !== null && options.outputSchema) {
    const result = safeParse(options.outputSchema, output);
    if (!result.success) {
      const issues = toIssues(result.error.issues, ['output']);
      return fail(`"output" does not have the required shape: ${formatIssues(issues)}. Fix it, or set "output" to null while work remains.`, issues);
    }
  }
  const fresh = (calls as ToolCall[]).filter((call) => options.repeatCalls || !completed.has(callKey(call)));
  const analyzed = analyzeToolPlan(fresh, { tools: options.tools, input: options.input, state });
  if (!analyzed.ok) {
    const issues = analyzed.error.issues.map((issue) => ({
      path: `calls[${calls.indexOf(fresh[issue.index])}]${issue.path ? `.${issue.path}` : ''}`,
      message: issue.message,
    }));
    return fail(
      `Your plan has problems; send the whole answer again with them fixed:\n${issues.map((issue) => `- ${issue.path}: ${issue.message}`).join('\n')}`,
      issues,
    );
  }
  return { ok: true, answer: { calls: calls as ToolCall[], output }, fresh };
}

/** The answer shape, for adapters that can constrain the model's output. */
function answerSchema(outputSchema: z.core.$ZodType | undefined): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      calls: {
        type: 'array',
        items: { type: 'object', properties: { _tool: { type: 'string' }, _outputPath: { type: 'string' } }, required: ['_tool'] },
      },
      output: outputSchema ? { anyOf: [toSchema(outputSchema), { type: 'null' }] } : { type: ['object', 'null'] },
    },
    required: ['calls', 'output'],
  };
}
