// The three arms. Each gets the same tools, the same page outline, the same turn prompt and the
// same turn bound; they differ only in how the steps are kept:
// - planloop: makeTodos, then runWebAgent on those todos (the README's two halves);
// - no-plan: runWebAgent with one todo that is the task itself, so no planning call and nothing
//   to tick off (the stall nudge, which counts todos done, is off: it would only nag);
// - write-todos: no-plan plus a write_todos tool whose list (planloop/interop's createWriteTodos on
//   a scratch plan) is shown in the system prompt every turn, as LangChain's todo middleware does.
import { Plan, runWebAgent, type LLMProvider, type LoopTool, type RunOptions, type RunResult } from '../src/index.js';
import { TURN_INSTRUCTIONS, type PageChecker } from '../src/loop/index.js';
import { createWriteTodos } from '../src/interop/index.js';
import type { SitePage } from './task.js';

/** The arms, in report order. */
export const ARMS = ['planloop', 'no-plan', 'write-todos'] as const;
export type ArmName = (typeof ARMS)[number];

/** What every arm gets. */
export interface ArmInput {
  readonly llm: LLMProvider;
  readonly task: string;
  readonly pages: readonly SitePage[];
  readonly tools: Record<string, LoopTool>;
  readonly observe: NonNullable<NonNullable<RunOptions['page']>['observe']>;
  readonly observeBudget: number;
  /** Checks a todo's page evidence in the browser (planloop/dom's `checkPage`, as the README's wiring passes it). */
  readonly check: PageChecker;
  readonly onNarrate: (text: string) => void;
  readonly url: () => string;
  /** The turn bound (planloop: at least its todos + 2). */
  readonly turns: number;
  readonly turnTimeoutMs: number;
  readonly temperature: number | undefined;
  readonly signal: AbortSignal;
  /** Hears every write_todos call (write-todos arm), for the run's tool-call record. */
  readonly onWriteTodos?: (args: Record<string, unknown>, ok: boolean, result: string) => void;
  /** Gets the run's plan before it starts, to listen to its events. */
  readonly onPlan: (plan: Plan) => void;
}

/** The loop options all arms share (`bounds` and `prompt` are each arm's). */
function shared(input: ArmInput, plan: Plan, bounds: RunOptions['bounds'], prompt?: RunOptions['prompt']): RunOptions & { plan: Plan } {
  return {
    plan,
    task: input.task,
    tools: input.tools,
    signal: input.signal,
    start: { resume: true },
    user: { narrate: (text) => input.onNarrate(text) },
    page: { observe: input.observe, tokenBudget: input.observeBudget, url: input.url, check: input.check },
    model: { provider: input.llm, timeoutMs: input.turnTimeoutMs, temperature: input.temperature },
    bounds,
    ...(prompt ? { prompt } : {}),
  };
}

/** A plan with one todo, the task: the loop runs without a plan to follow. */
function taskOnlyPlan(input: ArmInput): Plan {
  const plan = new Plan({ llm: input.llm, sync: false });
  plan.setTaskPlan({ summary: input.task.slice(0, 500), todos: [{ intent: 'finish', description: input.task.slice(0, 1000) }], task: input.task });
  return plan;
}

/**
 * Plays one arm on a task and resolves with the loop's result (a failed run rejects).
 *
 * @example
 * ```ts
 * const result = await playArm('no-plan', input);
 * ```
 */
export async function playArm(arm: ArmName, input: ArmInput): Promise<RunResult> {
  if (arm === 'planloop') {
    const plan = new Plan({ llm: input.llm, sync: false });
    input.onPlan(plan);
    await plan.makeTodos({ task: input.task, sitemap: [...input.pages] }, { signal: input.signal, timeoutMs: input.turnTimeoutMs });
    const todos = plan.todos.remaining().length;
    return runWebAgent(shared(input, plan, { turnSlack: Math.max(2, input.turns - todos) }));
  }
  const plan = taskOnlyPlan(input);
  input.onPlan(plan);
  if (arm === 'no-plan') return runWebAgent(shared(input, plan, { turnSlack: input.turns - 1 }, { nudgeAfter: 0 }));

  // write-todos: the model's own list lives in a scratch plan the loop never sees as todos.
  const scratch = new Plan({ sync: false });
  const writeTodos = createWriteTodos(scratch, { hostTools: Object.keys(input.tools) });
  let call = 0;
  const writeTool: LoopTool = {
    description: `${writeTodos.description} {todos:[{content,status}]}`,
    run: (args, context) => {
      call += 1;
      const result = writeTodos.execute(args, { toolCallId: `call-${call}`, turn: context.turn });
      input.onWriteTodos?.(args, result.ok, result.ok ? `revision ${result.revision}, ${result.todoCount} todos` : result.message);
      if (!result.ok) throw new Error(result.message);
      return result;
    },
  };
  // The instructions are asked for before every turn, so the model sees its list as it is now
  // (the middleware adds its prompt and the list to every model call).
  return runWebAgent({
    ...shared(input, plan, { turnSlack: input.turns - 1 }, { nudgeAfter: 0, instructions: () => `${TURN_INSTRUCTIONS}\n\n${writeTodos.systemPrompt()}` }),
    tools: { ...input.tools, write_todos: writeTool },
  });
}
