import type { TodoItem } from '../artifacts/todos.js';
import type { Observation } from '../events.js';
import type { LLMMessage } from '../llm/provider.js';
import { renderPlanForTurn } from './render-plan.js';

/*
 * The per-turn prompt. Two messages, rebuilt every turn (there is no growing chat history, so a
 * turn costs about the same at turn 9 as at turn 1):
 *
 * system: TURN_INSTRUCTIONS (or the host's replacement), then `Tools: …` when the host has tools.
 *
 * user, one item per line, in this order (the offline demo model and tests parse these markers,
 * so keep them stable):
 * ```text
 * Task: <the user's task, on one line>
 * Locale: de-DE                                     <- optional: the user's language (planInput.locale)
 * URL: /pricing                                     <- optional: where the page is now
 * Todos (first is next):
 * t2 narrate: Show the three tiers (turn 2)        <- renderPlanForTurn: each line starts with the id
 * t3 click: Open the free-trial form (turn 3)
 * Turn 2 of 6.
 * Earlier: 1 t1 Open the pricing page [navigate]   <- bounded memory, oldest first, optional
 * Last turn:                                        <- optional: what the last turn observed
 * - navigate: {"ok":true}
 * Page (targets: [eN] refs or CSS):                <- optional: what `observe` returned,
 * <the page outline, within its budget>                clipped to the host's budget
 * Nudge: <one line>                                 <- optional, after turns without progress
 * ```
 * The planner's `appendSystemPrompt` is never part of it: strategic context is paid once, in the
 * planning call.
 */

/**
 * The envelope instructions: the fixed system prompt of every turn (about 104 GPT tokens). They
 * teach the compact envelope: `todo` names the todo being done now (the open todos above it are
 * done), `last` and `replace` only when needed, a narrate's `target` before its `text` (so the
 * highlight shows while the words stream). The full envelope (`turn_planning`, `todo_adjust`) is
 * still accepted; it is not taught, to keep every turn's prompt and answer short.
 *
 * @example
 * ```ts
 * runWebAgent({ plan, task, systemPrompt: `${TURN_INSTRUCTIONS}\nSpeak like a pirate.` });
 * ```
 */
export const TURN_INSTRUCTIONS = [
  'Reply with one JSON object: {"todo":"t2","actions":[…]}',
  'todo: the id you work on now; the todos above it are done. On the final turn add "last":true. To rewrite todos: "replace":[{"id","intent","description"}] before actions (no new ids).',
  'Actions: {"type":"narrate","target":"#css","text"} {"type":"tool","name","args"} {"type":"ask","question"} {"type":"task_finish","summary"}',
].join('\n');

/** The line above the page outline in a turn's prompt; it tells the model what a `target` may be. */
const PAGE_MARKER = 'Page (targets: [eN] refs or CSS):';

/** A tool as the prompt names it. */
export interface TurnToolSpec {
  name: string;
  /** One short line: what it does and its args, e.g. `open a page {path}`. */
  description?: string;
}

/**
 * The system message of a turn: the envelope instructions (or `systemPrompt`, which replaces
 * them) and a `Tools:` line.
 *
 * @example
 * ```ts
 * turnSystemPrompt({ tools: [{ name: 'navigate', description: 'open a page {path}' }, { name: 'click' }] });
 * // '…\nTools: navigate (open a page {path}); click'
 * ```
 */
export function turnSystemPrompt(options: { tools?: readonly TurnToolSpec[]; systemPrompt?: string } = {}): string {
  const tools = options.tools ?? [];
  const toolLine = tools.length === 0 ? '' : `\nTools: ${tools.map((tool) => (tool.description ? `${tool.name} (${oneLine(tool.description)})` : tool.name)).join('; ')}`;
  return (options.systemPrompt ?? TURN_INSTRUCTIONS) + toolLine;
}

/** What {@link turnUserPrompt} renders. */
export interface TurnPromptInput {
  task: string;
  /** The plan's todos (all of them: completed ones are left out of the prompt). */
  todos: readonly TodoItem[];
  turn: number;
  maxTurns: number;
  /** Short lines about earlier turns, oldest first. */
  memory?: readonly string[];
  /** What the last turn observed. */
  observations?: readonly Observation[];
  /** A one-line push after turns without progress. */
  nudge?: string | undefined;
  /** Where the page is now (a path or URL). */
  url?: string | undefined;
  /** The user's language (BCP-47), as the planning call had it: the model speaks it every turn. */
  locale?: string | undefined;
  /** What the page shows now (e.g. `describePage()` from `planloop/dom`), already within its budget. */
  page?: string | undefined;
}

/**
 * The user message of a turn, in the format described at the top of this file (`Task:` line, one line per todo starting with its id).
 *
 * @example
 * ```ts
 * turnUserPrompt({ task: 'Show me the prices', todos: plan.todos.list(), turn: 2, maxTurns: 6 });
 * // 'Task: Show me the prices\nTodos (first is next):\nt2 narrate: Show the three tiers (turn 2)\nTurn 2 of 6.'
 * ```
 */
export function turnUserPrompt(input: TurnPromptInput): string {
  const lines = [`Task: ${oneLine(input.task)}`];
  if (input.locale) lines.push(`Locale: ${oneLine(input.locale)}`);
  if (input.url) lines.push(`URL: ${oneLine(input.url)}`);
  lines.push('Todos (first is next):', renderPlanForTurn(input.todos), `Turn ${input.turn} of ${input.maxTurns}.`);
  if (input.memory && input.memory.length > 0) lines.push(`Earlier: ${input.memory.join('; ')}`);
  if (input.observations && input.observations.length > 0) {
    lines.push('Last turn:', ...input.observations.map((observation) => `- ${observation.summary}`));
  }
  if (input.page?.trim()) lines.push(PAGE_MARKER, input.page.trim());
  if (input.nudge) lines.push(`Nudge: ${input.nudge}`);
  return lines.join('\n');
}

/**
 * Both messages of a turn.
 *
 * @example
 * ```ts
 * const messages = buildTurnMessages({ task, todos: plan.todos.list(), turn: 1, maxTurns: 5 }, { tools: [{ name: 'navigate' }] });
 * ```
 */
export function buildTurnMessages(input: TurnPromptInput, system: { tools?: readonly TurnToolSpec[]; systemPrompt?: string } = {}): LLMMessage[] {
  return [
    { role: 'system', content: turnSystemPrompt(system) },
    { role: 'user', content: turnUserPrompt(input) },
  ];
}

/**
 * A value as one short line for a prompt: strings as they are, anything else as JSON, cut at
 * `max` characters. Default 160.
 *
 * @example
 * ```ts
 * clip({ ok: true, url: '/pricing' }); // '{"ok":true,"url":"/pricing"}'
 * ```
 */
export function clip(value: unknown, max = 160): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  text = oneLine(text);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
