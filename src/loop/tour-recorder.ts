/*
 * Recording a tour while a run plays: each action is written down as it is admitted (before it
 * runs, while the element it names is still on the page) and kept once it has run. The loop knows
 * nothing of the page: the host's `locators` (planloop/dom's `createTourLocators`, with the same
 * root and exclude as its tools) turn a target into a locator, so the loop's code never imports
 * planloop/dom and the core's start size does not grow with it.
 */

import type { Locator, LocatorFailure } from '../dom/locator.js';
import type { TurnAction } from '../envelope/schema.js';
import { isRecord } from '../guards.js';
import type { TodoItem } from '../plan-state.js';
import type { ActionOutcome } from './dispatch-action.js';
import type { ToolTable } from './tool-table.js';
import { TOUR_FORMAT, TOUR_LIMITS, TOUR_VERSION, type Tour, type TourStep } from './tour.js';

/**
 * What a run needs of the page to record and replay tours: `locate` turns a target the model
 * wrote (an outline ref) into a locator while its element is there; `find` turns a locator back
 * into a target the tools take, or says why not. `planloop/dom`'s `createTourLocators` makes one.
 *
 * @example
 * ```ts
 * import { createTourLocators } from 'planloop/dom';
 * const locators: TourLocators = createTourLocators({ root: document.querySelector('main')!, exclude: '#guide' });
 * ```
 */
export interface TourLocators {
  locate(target: string): Locator | undefined;
  find(locator: Locator): { ok: true; target: string } | { ok: false; reason: LocatorFailure; message: string };
}

/** A run's recorder (see {@link createTourRecorder}). */
export interface TourRecorder {
  /** An action is about to run: note it, its targets as locators. */
  admit(action: TurnAction): void;
  /** The action noted last has run with `outcome` for the turn's todo: keep it, unless it failed, was refused or only looked. */
  settle(action: TurnAction, outcome: ActionOutcome, refused: boolean, todoId: string | undefined): void;
  /** The tour so far, for the plan's `todos` (in their order, as they read now). */
  tour(input: { task: string; locale?: string | undefined; summary: string; todos: readonly TodoItem[] }): Tour | undefined;
}

/**
 * Records what a run does as a {@link Tour}: narrations with their targets, tool calls with their
 * arguments (a tool's `targets`, default `target`, as locators), questions and the finish, filed
 * under the todo each turn worked on. Not kept: tool calls refused by the policy or the user, a
 * tool that threw or answered `{ ok: false }` (it did nothing), and tools of `risk: 'read'` (they
 * only showed the model something). Without `locators`, or where a target names nothing, the
 * target is recorded as `null`. Steps past the tour's caps are not kept.
 *
 * @example
 * ```ts
 * declare const locators: TourLocators; // createTourLocators() from planloop/dom
 * const recorder = createTourRecorder({ tools: resolveRunOptions({ task: 'Show me the prices', tools }).tools, locators });
 * recorder.admit({ type: 'narrate', text: 'Here are the plans.', target: 'e12' });
 * recorder.settle({ type: 'narrate', text: 'Here are the plans.', target: 'e12' }, {}, false, 't2');
 * recorder.tour({ task: 'Show me the prices', summary: plan.summary, todos: plan.todos.list() });
 * ```
 */
export function createTourRecorder(options: { tools: ToolTable; locators?: TourLocators | undefined }): TourRecorder {
  const { tools } = options;
  const byTodo = new Map<string, TourStep[]>();
  const loose: TourStep[] = [];
  let last: string | undefined;
  let total = 0;
  let pending: { action: TurnAction; step: TourStep } | undefined;

  const locate = (target: unknown): Locator | null => {
    if (typeof target !== 'string' || !options.locators) return null;
    try {
      return options.locators.locate(target) ?? null;
    } catch {
      return null;
    }
  };

  const stepOf = (action: TurnAction): TourStep | undefined => {
    switch (action.type) {
      case 'narrate':
        return action.target === undefined ? { type: 'narrate', text: action.text } : { type: 'narrate', text: action.text, target: locate(action.target) };
      case 'ask':
        return { type: 'ask', question: action.question };
      case 'task_finish':
        return { type: 'finish', summary: action.summary };
      default: {
        const tool = tools.get(action.name);
        if (!tool || tool.risk === 'read') return undefined;
        const args = structuredClone(action.args);
        const targets: Record<string, Locator | null> = {};
        for (const name of tool.targets) {
          if (!Object.hasOwn(args, name) || typeof args[name] !== 'string') continue;
          targets[name] = locate(args[name]);
          delete args[name];
        }
        return Object.keys(targets).length > 0 ? { type: 'tool', name: action.name, args, targets } : { type: 'tool', name: action.name, args };
      }
    }
  };

  return {
    admit(action) {
      const step = stepOf(action);
      pending = step ? { action, step } : undefined;
    },
    settle(action, outcome, refused, todoId) {
      const noted = pending?.action === action ? pending.step : undefined;
      pending = undefined;
      if (!noted || refused || total >= TOUR_LIMITS.totalSteps) return;
      const observation = outcome.observation;
      if (observation?.kind === 'tool-error' || observation?.kind === 'refused') return;
      if (action.type === 'tool' && isRecord(observation?.data) && observation.data.ok === false) return;
      const key = todoId ?? last;
      const list = key === undefined ? loose : (byTodo.get(key) ?? []);
      if (list.length >= TOUR_LIMITS.steps) return;
      list.push(noted);
      total += 1;
      if (key !== undefined) {
        byTodo.set(key, list);
        last = key;
      }
    },
    tour(input) {
      if (input.todos.length === 0 || !input.task.trim()) return undefined;
      const todos = input.todos.slice(0, TOUR_LIMITS.todos).map((todo) => {
        const check = (todo as { check?: unknown }).check;
        return {
          id: todo.id,
          intent: todo.intent,
          description: todo.description,
          ...(isRecord(check) ? { check: structuredClone(check) } : {}),
          steps: [...(byTodo.get(todo.id) ?? [])],
        };
      });
      // Steps of turns that named no todo go with the first todo, before its own.
      if (loose.length > 0 && todos[0]) todos[0].steps = [...loose, ...todos[0].steps].slice(0, TOUR_LIMITS.steps);
      const locale = input.locale && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(input.locale) ? { locale: input.locale } : {};
      return {
        format: TOUR_FORMAT,
        version: TOUR_VERSION,
        task: input.task.trim().slice(0, TOUR_LIMITS.text),
        ...locale,
        summary: input.summary.slice(0, TOUR_LIMITS.text),
        todos,
      };
    },
  };
}
