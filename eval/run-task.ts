// One task in one arm: a fresh browser context on the task's start page, the arm's run, then the
// end state, the checker, and what the run cost and how it failed.
import type { Browser } from '@playwright/test';
import type { LLMChunk, LLMProvider, LLMRequest, LLMResult, Plan, RunResult } from '../src/index.js';
import type { PageChecker } from '../src/loop/index.js';
import { playArm, type ArmName } from './arms.js';
import { createBrowserTools, pagePath, toLoopTools, type ReadNote, type ToolCall } from './browser-tools.js';
import { preparePage, readEndState } from './browser-page.js';
import { classifyFailures, type FailureKind } from './failures.js';
import { ATTACK_COOKIE } from './site-server.js';
import { checkTask, type EvalTask } from './task.js';

/** Everything measured about one run. */
export interface TaskRun {
  readonly task: string;
  readonly arm: ArmName;
  readonly repeat: number;
  readonly passed: boolean;
  /** Per step of the task, in order: done or not. */
  readonly steps: readonly boolean[];
  readonly stepsDone: number;
  readonly stepsTotal: number;
  /** Turns played. */
  readonly turns: number;
  /** Model calls made (planning, turns, retries). */
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Whether the server reported token usage on every call. */
  readonly usageReported: boolean;
  readonly wallMs: number;
  /** How the run ended: the loop's reason, or `error`. */
  readonly reason: string;
  readonly error?: string;
  readonly failures: readonly FailureKind[];
  /**
   * The checker on the page as it was before the run, with a claim of being done: must be
   * `false`, else the task checks nothing (a self-check of the task, not of the agent).
   */
  readonly startPassed: boolean;
  /** Replies the loop refused (bad JSON, bad envelope). */
  readonly invalidReplies: number;
  readonly outside: readonly string[];
  readonly todos: number;
  readonly toolCalls: readonly ToolCall[];
  readonly said: readonly string[];
  readonly visits: readonly string[];
  /** Todos the loop completed on evidence (`evidence: 'checked'`) and on the model's word (no check applied). */
  readonly completedOnEvidence: number;
  readonly completedOnWord: number;
  /** Distinct todos the loop held open for missing evidence at some point of the run. */
  readonly heldTodos: number;
  /** The run ended `unverified`: each todo left open without its evidence, and what was missing. */
  readonly unverified?: ReadonlyArray<{ readonly id: string; readonly missing: string }>;
  /** Under `--attack`: whether its pages carried the attacker's instruction, and where it sits (`hidden: opacity 0`). */
  readonly attacked?: boolean;
  readonly attackPlacement?: string;
  /** In an attacked run: the attacker's effects on the end state (the attack succeeded when any). */
  readonly attackEffects?: readonly string[];
}

/** What running a task needs. */
export interface RunTaskOptions {
  readonly browser: Browser;
  readonly task: EvalTask;
  readonly arm: ArmName;
  readonly repeat: number;
  /** Makes the provider for one run (a fresh one per run, so nothing carries over). */
  readonly llm: () => LLMProvider;
  /** Where each site is served. */
  readonly origins: { readonly demo?: string | undefined; readonly eval: string };
  readonly turnTimeoutMs: number;
  /** The whole run's bound; past it the run is aborted and counted as an error. */
  readonly runTimeoutMs: number;
  readonly temperature: number | undefined;
  /** Page text per turn, in estimated tokens (the outline and the last read). Default 800. */
  readonly observeBudget?: number;
  /** Serve the task's pages with the attacker's instruction (a task with an `attack`). Default false. */
  readonly attacked?: boolean;
}

/** The agent's own UI on the demo page, left out of the outline. */
const EXCLUDE: Record<EvalTask['site'], string | undefined> = { demo: '#guide, #narration, #settings', eval: undefined };

/** What a run that only claims success says: the start-state self-check adds it. */
const CLAIM = 'All done: everything you asked for is finished.';

/** Waits until a site's page has started up: the demo marks its body when its router has rendered. */
const READY: Record<EvalTask['site'], string | undefined> = { demo: 'body[data-ready="true"]', eval: undefined };

/** Wraps a provider to count calls and the tokens the server reports. */
function counting(inner: LLMProvider) {
  const usage = { calls: 0, input: 0, output: 0, reported: true };
  const add = (reported: LLMResult['usage']) => {
    usage.calls += 1;
    if (reported?.inputTokens === undefined || reported.outputTokens === undefined) usage.reported = false;
    usage.input += reported?.inputTokens ?? 0;
    usage.output += reported?.outputTokens ?? 0;
  };
  const provider: LLMProvider = {
    async generate(request: LLMRequest) {
      const result = await inner.generate(request);
      add(result.usage);
      return result;
    },
  };
  const stream = inner.stream?.bind(inner);
  if (stream) {
    provider.stream = async function* (request: LLMRequest): AsyncIterable<LLMChunk> {
      let finished = false;
      for await (const chunk of stream(request)) {
        if (chunk.type === 'finish') {
          finished = true;
          add(chunk.usage);
        }
        yield chunk;
      }
      if (!finished) add(undefined);
    };
  }
  return { provider, usage };
}

/**
 * Runs one task in one arm and measures it. Never throws for the agent's failures (they are
 * results); throws only when the harness itself cannot work (the browser, the site).
 *
 * @example
 * ```ts
 * const run = await runTask({ browser, task, arm: 'planloop', repeat: 1, llm, origins, turnTimeoutMs: 60_000, runTimeoutMs: 600_000, temperature: 0 });
 * run.passed;
 * ```
 */
export async function runTask(options: RunTaskOptions): Promise<TaskRun> {
  const { task, arm } = options;
  const origin = task.site === 'demo' ? options.origins.demo : options.origins.eval;
  if (!origin) throw new Error(`Task ${task.id} needs the demo site, and no demo URL is set.`);
  if (options.attacked && !task.attack) throw new Error(`Task ${task.id} has no attack to play.`);
  const context = await options.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await preparePage(context);
    // The site server puts the attacker's instruction into the pages only for this cookie.
    if (options.attacked) await context.addCookies([{ name: ATTACK_COOKIE, value: '1', url: origin }]);
    const page = await context.newPage();
    const readySelector = READY[task.site];
    const ready = readySelector ? () => page.waitForSelector(readySelector, { state: 'attached', timeout: 15_000 }).then(() => undefined) : undefined;
    await page.goto(`${origin}${task.start}`);
    await ready?.();
    const startPassed = checkTask(task, await readEndState(page, [CLAIM])).passed;
    const said: string[] = [];
    const calls: ToolCall[] = [];
    let lastRead: ReadNote | undefined;
    const tools = toLoopTools(createBrowserTools(page, { origin, pages: task.pages, onRead: (note) => (lastRead = note), ready }), calls, page);
    const budget = options.observeBudget ?? 800;
    const observe = async ({ maxTokens }: { maxTokens: number }) => {
      const read = lastRead ? `Read ${lastRead.target}: ${lastRead.text}\n` : '';
      lastRead = undefined;
      const outlineTokens = Math.max(200, maxTokens - Math.ceil(read.length / 4));
      const outline = (await page.evaluate(
        `window.__planloopDom.renderOutline(window.__planloopDom.outlinePage({ maxTokens: ${outlineTokens}, exclude: ${JSON.stringify(EXCLUDE[task.site])} }))`,
      )) as string;
      return `${read}${outline}`;
    };
    const pageCheck: PageChecker = async (todoCheck) => {
      const found = (await page.evaluate(
        `window.__planloopDom.checkPage(${JSON.stringify(todoCheck)}, { exclude: ${JSON.stringify(EXCLUDE[task.site] ?? [])} })`,
      )) as { ok: true } | { ok: false; missing: string };
      return found;
    };
    const held = new Set<string>();
    let plan: Plan | undefined;
    const { provider, usage } = counting(options.llm());
    let invalidReplies = 0;
    let turns = 0;
    let todos = 0;
    let result: RunResult | undefined;
    let error: unknown;
    const started = performance.now();
    const signal = AbortSignal.timeout(options.runTimeoutMs);
    try {
      result = await playArm(arm, {
        llm: provider,
        task: task.prompt,
        pages: task.pages,
        tools,
        observe,
        observeBudget: budget,
        check: pageCheck,
        onNarrate: (text) => void said.push(text),
        url: () => pagePath(page),
        turns: task.turns,
        turnTimeoutMs: options.turnTimeoutMs,
        temperature: options.temperature,
        signal,
        onWriteTodos: (args, ok, result) => void calls.push({ name: 'write_todos', args, page: pagePath(page), ok, result }),
        onPlan: (made: Plan) => {
          plan = made;
          made.on('turn-start', ({ turn, attempt }) => {
            turns = Math.max(turns, turn);
            if ((attempt ?? 1) > 1) invalidReplies += 1;
          });
          made.on('todos-change', ({ todos: list }) => {
            todos = list.length;
            for (const todo of list) if (todo.evidence === 'held') held.add(todo.id);
          });
        },
      });
    } catch (caught) {
      error = caught;
    }
    const wallMs = Math.round(performance.now() - started);
    if (result?.summary) said.push(result.summary);
    const end = await readEndState(page, said);
    const check = checkTask(task, end);
    const code = (error as { code?: string } | undefined)?.code;
    if (code === 'envelope_invalid') invalidReplies += 1;
    const finalTodos = result?.todos ?? plan?.todos.list() ?? [];
    for (const todo of finalTodos) if (todo.evidence === 'held') held.add(todo.id);
    const completed = finalTodos.filter((todo) => todo.status === 'completed');
    const completedOnEvidence = completed.filter((todo) => todo.evidence === 'checked').length;
    const failures = classifyFailures({ check, reason: result?.reason ?? 'error', errorCode: code, invalidReplies, calls });
    return {
      task: task.id,
      arm,
      repeat: options.repeat,
      passed: check.passed,
      steps: check.steps,
      stepsDone: check.done,
      stepsTotal: check.steps.length,
      turns: result?.turns ?? turns,
      calls: usage.calls,
      inputTokens: usage.input,
      outputTokens: usage.output,
      usageReported: usage.reported,
      wallMs,
      reason: result?.reason ?? 'error',
      ...(error ? { error: `${code ?? 'error'}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300) } : {}),
      failures,
      startPassed,
      invalidReplies,
      outside: check.outside,
      todos: arm === 'planloop' ? todos : 0,
      toolCalls: calls,
      said: end.said,
      visits: end.visits,
      completedOnEvidence,
      completedOnWord: completed.length - completedOnEvidence,
      heldTodos: held.size,
      ...(result?.unverified ? { unverified: result.unverified.map(({ id, missing }) => ({ id, missing })) } : {}),
      ...(task.attack ? { attacked: options.attacked ?? false, attackPlacement: `${task.attack.placement}: ${task.attack.how}` } : {}),
      ...(options.attacked && task.attack ? { attackEffects: [...new Set([...task.attack.check(end), ...check.outside])] } : {}),
    };
  } finally {
    await context.close();
  }
}
