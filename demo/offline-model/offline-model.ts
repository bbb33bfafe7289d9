// The offline stand-in model: no key, no network. It is a plain LLMProvider (createFunctionProvider)
// that reads everything it needs from the prompt it is given, like a real model would:
// - the planning call: the `Task:` and `Locale:` lines and the `Sitemap:` block of the planner's
//   user message (read back with readPlannerMessage, ./prompt-reading.ts), and answers in the
//   user's language (English, German or Japanese: it says so when asked in another);
// - a turn: the `Task:` line, and in the `<plan>` block the todo lines (`t2 Show the tiers`) and the
//   `Earlier:` memory (which todos earlier turns worked on), read with readTurnMessage;
// - editWithInstruction: the system prompt (a rewrite, or SEARCH/REPLACE edits for a long note),
//   the `Instruction:` line and the text between the document markers (./offline-edit.ts); it
//   answers in the form the prompt asks for, and declines in words what it cannot do.
// It answers with JSON text, streamed in small chunks with small pauses, so that planloop's real
// parsing path (streamed summary, incremental envelope parse) runs exactly as with a real model.

import { createFunctionProvider, type LLMProvider, type LLMRequest, type TurnAction } from 'planloop';
import { languageOf } from '../language.js';
import { editAnswer } from './offline-edit.js';
import { spokenLanguage, unspokenLanguage } from './phrases.js';
import { readPlannerMessage, readTurnMessage } from './prompt-reading.js';
import { sleep, type Pace } from '../pace.js';
import { actionsForTodo, findStep, phrasesFor, refIn, tourFor } from './tours.js';

/** What kind of call a request is, judged from its JSON schema and, failing that, its markers. */
export type OfflineCallKind = 'plan' | 'turn' | 'edit' | 'other';

/** Options of {@link createOfflineModel}. */
export interface OfflineModelOptions {
  /** Read on every call, so the speed setting applies at once. */
  pace: () => Pace;
}

/**
 * The offline stand-in model for the demo.
 *
 * @example
 * ```ts
 * const llm = createOfflineModel({ pace: () => createPace(true) });
 * ```
 */
export function createOfflineModel(options: OfflineModelOptions): LLMProvider {
  return createFunctionProvider((request) => {
    const text = answer(request);
    return chunked(text, options.pace(), request.signal);
  });
}

/** The model's whole answer to `request`, as JSON text. */
export function answer(request: LLMRequest): string {
  const user = [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
  switch (callKind(request)) {
    case 'plan':
      return planAnswer(user);
    case 'turn':
      return JSON.stringify(turnAnswer(user));
    case 'edit':
      return editAnswer(request.messages);
    default:
      return JSON.stringify({ text: 'I am an offline stand-in and can only plan tours, run them and edit notes.' });
  }
}

/** Tells the planning call, a turn and a document edit apart. */
export function callKind(request: LLMRequest): OfflineCallKind {
  const properties = (request.jsonSchema?.properties ?? {}) as Record<string, unknown>;
  if ('task_summary' in properties) return 'plan';
  if ('todo' in properties || 'turn_planning' in properties) return 'turn';
  if ('content' in properties) return 'edit';
  const all = request.messages.map((message) => message.content).join('\n');
  // A document first: a note may well contain "todo" or a line like the turn prompt's.
  if (all.includes('--- document start ---')) return 'edit';
  if (/^<plan>$/m.test(all) || all.includes('"todo"')) return 'turn';
  if (/^Task:/m.test(all)) return 'plan';
  return 'other';
}

function planAnswer(prompt: string): string {
  const { task, sitemap, locale } = readPlannerMessage(prompt);
  // The user's language is the `Locale:` the host sent, else the ask's own.
  const language = locale ?? (task ? languageOf(task) : undefined) ?? 'en';
  const lang = spokenLanguage(language);
  const tour = tourFor(task || 'Show me around', sitemap, lang ?? 'en', { understood: lang !== undefined });
  const summary = lang ? tour.summary : `${unspokenLanguage(languageName(language))} ${tour.summary}`;
  // task_summary first, so that it streams to the announcement before the todos arrive.
  return JSON.stringify({
    task_summary: summary,
    todos: tour.steps.map((step, index) => ({ intent: step.intent, description: step.description, expected_turn: index + 1 })),
  });
}

/** Todo ids the `Earlier:` memory says earlier turns of this run worked on. */
function earlierIds(earlier: readonly string[]): Set<string> {
  return new Set(earlier.flatMap((entry) => /^t\d+\b/.exec(entry)?.[0] ?? []));
}

/**
 * What a todo line asks for, read from its words as a model would (the turn prompt names only a
 * host's own intents): a page to open, a question, the wrap-up, else something to explain.
 */
function intentOf(description: string): string {
  const d = description.toLowerCase();
  if (/\(\/[a-z0-9-]*\)/.test(description) || /^(open|go to|visit|öffne|gehe|zeige die seite)\b/.test(d) || /を開/.test(d)) return 'navigate';
  if (/[?？]$/.test(description) || /^(ask|frage)\b/.test(d)) return 'ask';
  if (/^(wrap up|finish|sum up|zum abschluss|fasse|abschluss)/.test(d) || /まとめ/.test(d)) return 'finish';
  return 'narrate';
}

/** A turn's answer in the compact envelope the turn prompt teaches (`{"todo":"t3","actions":[…]}`). */
interface CompactEnvelope {
  todo: string;
  last?: true;
  actions: TurnAction[];
}

function turnAnswer(prompt: string): CompactEnvelope {
  const { task = '', todos, page, earlier: memory } = readTurnMessage(prompt);
  const earlier = earlierIds(memory);
  // A todo an earlier turn worked on is done now. Naming the next one says so: the todos above it
  // count as done. The next one is the first of the rest.
  const rest = todos.filter((todo) => !earlier.has(todo.id));
  const next = rest[0];
  if (!next) {
    return { todo: todos.at(-1)?.id ?? '', last: true, actions: [{ type: 'task_finish', summary: phrasesFor(task).finishedTour }] };
  }
  const step = findStep(task, next.description);
  const planned = step?.actions ?? actionsForTodo(next.intent ?? intentOf(next.description), next.description);
  const actions = planned.map((action) => pointAt(action, page));
  const last = rest.length === 1 || actions.some((action) => action.type === 'task_finish');
  return { todo: next.id, ...(last ? { last: true as const } : {}), actions };
}

/**
 * The action with its target read off the page outline the prompt carries, as a real model would:
 * the outline's ref for the element the step means. Where the outline does not list it, a narrate
 * goes without a highlight, and a tool keeps the description (the tool then reports that it finds
 * nothing, and the next prompt says so).
 */
function pointAt(action: TurnAction, page: readonly string[]): TurnAction {
  if (action.type === 'narrate' && action.target) {
    const ref = refIn(action.target, page);
    return ref ? { ...action, target: ref } : { type: 'narrate', text: action.text };
  }
  if (action.type === 'tool' && typeof action.args.target === 'string') {
    const ref = refIn(action.args.target, page);
    return ref ? { ...action, args: { ...action.args, target: ref } } : action;
  }
  return action;
}

/** `French` for `fr`; the tag itself where Intl cannot say. */
function languageName(locale: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(locale) ?? locale;
  } catch {
    return locale;
  }
}

/** Streams `text` in chunks with a pause before each, stopping on abort. */
async function* chunked(text: string, pace: Pace, signal: AbortSignal | undefined): AsyncIterable<string> {
  const points = Array.from(text);
  for (let i = 0; i < points.length; i += pace.chunkSize) {
    await sleep(pace.chunkDelayMs, signal);
    yield points.slice(i, i + pace.chunkSize).join('');
  }
}
