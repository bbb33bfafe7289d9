import type { TodoItem } from '../src/artifacts/todos.js';
import { validateTurnEnvelope } from '../src/envelope/parse.js';
import { createScriptedProvider } from '../src/llm/scripted.js';
import { renderPlanForTurn } from '../src/loop/render-plan.js';
import { Plan } from '../src/plan.js';
import { readPlan } from '../src/planning/make-todos.js';
import { parseModelJson } from '../src/llm/model-json.js';
import { MAX_TODOS } from '../src/planning/prompts.js';
import { createMemoryAdapter } from '../src/storage/memory.js';
import { median, ratio, round, timeMs, timeSyncMs } from './measure.js';
import { realisticEnvelope, tourScenario } from './scenarios.js';

/** Options of {@link benchOverhead}. */
export interface OverheadOptions {
  /** Plan sizes (todos) for the per-turn steps. Default `[10, 100, 1000]`. */
  sizes?: readonly number[];
  /** Timed turns per size (after a warm-up of a tenth as many). Default 1000. */
  iterations?: number;
  /** Planner answer sizes (todos) for the makeTodos parse. Default `[10, 50]` (50 is the planner's cap). */
  planSizes?: readonly number[];
  /** Timed planner answers per size. Default 200. */
  planIterations?: number;
}

/** Median milliseconds of each per-turn step at one plan size. */
export interface TurnOverhead {
  todos: number;
  /** Envelope text to a JSON value (`parseModelJson`). */
  parse: number;
  /** The JSON value against the envelope schemas (`validateTurnEnvelope`). */
  validate: number;
  /** `plan.adjust(todo_adjust, { inProgress })`. */
  adjust: number;
  /** `renderPlanForTurn(plan)`. */
  render: number;
  /** The save that follows the adjust: snapshot to a memory adapter (`await plan.flush()`). */
  save: number;
  /** The sum of the five medians. */
  total: number;
}

/** Median milliseconds of the makeTodos parse at one answer size. */
export interface PlanParseOverhead {
  todos: number;
  /** Planner text to validated todos (`readPlan`: tolerant JSON, then the todo schema). */
  parse: number;
  /** A whole `plan.makeTodos()` against a scripted provider streaming the answer without delay. */
  call: number;
}

/** What {@link benchOverhead} measured. */
export interface OverheadResult {
  iterations: number;
  turns: TurnOverhead[];
  /** How each step grows from the smallest to the largest size (largest / smallest). */
  growth: Record<keyof Omit<TurnOverhead, 'todos'>, number | null>;
  planIterations: number;
  makeTodos: PlanParseOverhead[];
}

/**
 * Times what planloop adds to each turn (parse, validate, adjust, render, save) at several plan
 * sizes, and the planning call's parse, reporting medians in milliseconds.
 *
 * @example
 * ```ts
 * const { turns } = await benchOverhead({ sizes: [10], iterations: 20, planSizes: [5], planIterations: 5 });
 * turns[0].total; // ms per turn at 10 todos
 * ```
 */
export async function benchOverhead(options: OverheadOptions = {}): Promise<OverheadResult> {
  const { sizes = [10, 100, 1000], iterations = 1000, planSizes = [10, MAX_TODOS], planIterations = 200 } = options;
  const turns: TurnOverhead[] = [];
  for (const size of sizes) turns.push(await turnOverhead(size, iterations));
  const makeTodos: PlanParseOverhead[] = [];
  for (const size of planSizes) makeTodos.push(await planParseOverhead(size, planIterations));
  const first = turns[0];
  const last = turns[turns.length - 1];
  const steps = ['parse', 'validate', 'adjust', 'render', 'save', 'total'] as const;
  const growth = Object.fromEntries(steps.map((step) => [step, first && last ? ratio(last[step], first[step]) : null])) as OverheadResult['growth'];
  return { iterations, turns, growth, planIterations, makeTodos };
}

async function turnOverhead(size: number, iterations: number): Promise<TurnOverhead> {
  const storage = createMemoryAdapter();
  const plan = new Plan({ storage });
  await plan.ready;
  const seeds = tourScenario(size).todos;
  let todos: TodoItem[] = [];
  let cursor = 0;
  const restart = async () => {
    todos = plan.todos.reset(seeds);
    cursor = 0;
    await plan.flush();
  };
  await restart();

  const samples = { parse: [] as number[], validate: [] as number[], adjust: [] as number[], render: [] as number[], save: [] as number[] };
  const warmup = Math.max(1, Math.floor(iterations / 10));
  for (let i = 0; i < warmup + iterations; i++) {
    // Each turn completes one todo, starts the next and rewrites the one after; start over when the plan runs out.
    if (cursor + 3 > todos.length) await restart();
    const previous = todos[cursor] as TodoItem;
    const current = todos[cursor + 1] as TodoItem;
    const later = todos[cursor + 2] as TodoItem;
    cursor += 1;
    const text = realisticEnvelope(2, { replace: true })
      .replaceAll('"t1"', JSON.stringify(previous.id))
      .replaceAll('"t2"', JSON.stringify(current.id))
      .replaceAll('"t4"', JSON.stringify(later.id));
    const remainingIds = todos.slice(cursor - 1).map((todo) => todo.id);

    let value: unknown;
    const parse = timeSyncMs(() => {
      const json = parseModelJson(text);
      if (!json.ok) throw new Error(json.error);
      value = json.value;
    });
    let envelope = validateTurnEnvelope(value, { remainingIds });
    const validate = timeSyncMs(() => {
      envelope = validateTurnEnvelope(value, { remainingIds });
    });
    const todoAdjust = envelope.todo_adjust ?? { remove: [], replace: [] };
    const inProgress = envelope.turn_planning?.todo_id;
    const adjust = timeSyncMs(() => plan.adjust(todoAdjust, inProgress === undefined ? {} : { inProgress }));
    const save = await timeMs(() => plan.flush());
    const render = timeSyncMs(() => renderPlanForTurn(plan));
    if (i >= warmup) {
      samples.parse.push(parse);
      samples.validate.push(validate);
      samples.adjust.push(adjust);
      samples.render.push(render);
      samples.save.push(save);
    }
  }
  const row = {
    todos: size,
    parse: median(samples.parse),
    validate: median(samples.validate),
    adjust: median(samples.adjust),
    render: median(samples.render),
    save: median(samples.save),
  };
  return {
    todos: size,
    parse: round(row.parse, 4),
    validate: round(row.validate, 4),
    adjust: round(row.adjust, 4),
    render: round(row.render, 4),
    save: round(row.save, 4),
    total: round(row.parse + row.validate + row.adjust + row.render + row.save, 4),
  };
}

/**
 * A planner answer with `size` todos, as a model writes it.
 *
 * @example
 * ```ts
 * readPlan(plannerAnswer(10), 'stop').ok; // true
 * ```
 */
export function plannerAnswer(size: number): string {
  return JSON.stringify({
    task_summary: 'A short tour of the pricing page, the integrations and the free trial.',
    todos: tourScenario(size).todos.map((todo, index) => ({ ...todo, expected_turn: index + 1 })),
  });
}

async function planParseOverhead(size: number, iterations: number): Promise<PlanParseOverhead> {
  const text = plannerAnswer(size);
  const parses: number[] = [];
  const calls: number[] = [];
  const plan = new Plan({ llm: createScriptedProvider(text) });
  const warmup = Math.max(1, Math.floor(iterations / 10));
  for (let i = 0; i < warmup + iterations; i++) {
    let ok = false;
    const parse = timeSyncMs(() => {
      ok = readPlan(text, 'stop').ok;
    });
    if (!ok) throw new Error(`benchOverhead: the ${size}-todo planner answer did not parse.`);
    const call = await timeMs(() => plan.makeTodos({ task: 'Show me the pricing page' }));
    if (i >= warmup) {
      parses.push(parse);
      calls.push(call);
    }
  }
  return { todos: size, parse: round(median(parses), 4), call: round(median(calls), 4) };
}
