/**
 * The prompts of the planning call (`makeTodos`) and the JSON schema sent with it (the edit
 * prompts are in `edit-prompts.ts`).
 *
 * The planner's user message is plain lines with stable markers, so that a scripted or offline
 * model can read it back (the demo's does, with `readPlannerMessage` in demo/offline-model/prompt-reading.ts):
 *
 * ```text
 * Task: <the task, on one line>
 * Locale: <BCP-47 tag> — <language name, in English>
 * Sitemap:
 * - <path> — <title>: <description>
 * Brand: …
 * Persona: …
 * Selected on the page: …
 * Context:
 * <hostContext>
 * ```
 *
 * Only `Task:` is always there. In a sitemap line ` — <title>` and `: <description>` appear only
 * when given; a sitemap given as a string follows `Sitemap:` verbatim. Change the markers only
 * together with that reader (test/demo/offline-model/prompt-reading.test.ts keeps the two in step).
 */

/** The most todos a plan may have; a longer list is unusable output (it would not bound a run). */
export const MAX_TODOS = 50;

/**
 * Marker of the task line in the planner's user message.
 *
 * @example
 * ```ts
 * declare const userMessage: string; // the planner's user message
 * const task = userMessage.split('\n').find((line) => line.startsWith(TASK_MARKER))?.slice(TASK_MARKER.length).trim();
 * ```
 */
export const TASK_MARKER = 'Task:';

/**
 * Marker of the sitemap block in the planner's user message (one `- ` line per page follows).
 *
 * @example
 * ```ts
 * declare const userMessage: string; // the planner's user message
 * userMessage.includes(`\n${SITEMAP_MARKER}\n`); // a sitemap was given
 * ```
 */
export const SITEMAP_MARKER = 'Sitemap:';

/**
 * The JSON Schema of the planner's answer, sent as the request's `jsonSchema`. `task_summary`
 * comes first so that constrained decoders write it first and it can stream while the todos are
 * still being written. `intent` is a plain string (not an enum) so that hosts with their own
 * `systemPrompt` can use their own intents.
 *
 * @example
 * ```ts
 * await provider.generate({ messages, jsonSchema: PLAN_OUTPUT_SCHEMA });
 * ```
 */
export const PLAN_OUTPUT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    task_summary: { type: 'string' },
    todos: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_TODOS,
      items: {
        type: 'object',
        properties: {
          intent: { type: 'string' },
          description: { type: 'string' },
          expected_turn: { type: 'integer', minimum: 1 },
          check: { type: 'string' },
        },
        required: ['intent', 'description'],
      },
    },
  },
  required: ['task_summary', 'todos'],
};

/**
 * The built-in planner system prompt (about 165 words).
 *
 * @example
 * ```ts
 * plannerSystemPrompt('Guide'); // "You are Guide, an assistant that works inside a web page. …"
 * ```
 */
export function plannerSystemPrompt(agentName?: string): string {
  const who = agentName?.trim() ? `You are ${agentName.trim()}, an assistant` : 'You are an assistant';
  return `${who} that works inside a web page and helps the user there. Before you act, plan the whole task as a short ordered list of todos. You cannot add todos later, only finish or rewrite them.

Reply with one JSON object and nothing else:
{"task_summary": "...", "todos": [{"intent": "...", "description": "...", "expected_turn": 1}]}

- task_summary: one short sentence saying what you will do, in the user's language (see Locale; else the language of the task).
- intent: navigate (open a page), narrate (explain what is on screen), click, fill (type into a field), ask (ask the user), finish (wrap up).
- description: what the user will see happen, short, in the user's language.
- expected_turn: the turn (1, 2, …) you expect to do it in.
- check (optional): "/path" it opens, or "see <role> <name>" when done.
- Keep it short: usually 2 to 6 todos, in order, ending with finish. Only open pages listed in the sitemap, when there is one.`;
}

/**
 * The planner's system message: `systemPrompt` when given (it replaces the built-in one), else
 * {@link plannerSystemPrompt}; then `appendSystemPrompt`, once, when given.
 *
 * @example
 * ```ts
 * plannerSystem({ agentName: 'Guide', appendSystemPrompt: '# Playbook\n…' });
 * ```
 */
export function plannerSystem(config: { agentName?: string | undefined; systemPrompt?: string | undefined; appendSystemPrompt?: string | undefined }): string {
  const base = config.systemPrompt?.trim() ? config.systemPrompt : plannerSystemPrompt(config.agentName);
  const extra = config.appendSystemPrompt?.trim() ? config.appendSystemPrompt : undefined;
  return extra === undefined ? base : `${base}\n\n${extra}`;
}

/** A page of the sitemap the planner may send the user to. */
export interface SitemapPage {
  /** The route, e.g. `/pricing`. */
  path: string;
  title?: string;
  /** What is on the page, in a few words. */
  description?: string;
}

/** The site's pages: a list of pages, or free text sent as is. */
export type SitemapConfig = readonly SitemapPage[] | string;

/** The brand the agent speaks for: a name and voice, or free text. */
export type BrandPrompt = string | { name: string; voice?: string; guidelines?: string };

/** Who the user is: name, role and the tone to take, or free text. */
export type PersonaInput = string | { name?: string; role?: string; tone?: string };

/** What the user selected on the page when they asked: the text, and where, or free text. */
export type SelectionContext = string | { text: string; selector?: string; url?: string };

/** The parts of `PlanInput` the planner's user message renders. */
export interface PlannerMessageInput {
  task: string;
  sitemap?: SitemapConfig | undefined;
  brand?: BrandPrompt | undefined;
  persona?: PersonaInput | undefined;
  locale?: string | undefined;
  selection?: SelectionContext | undefined;
  hostContext?: string | undefined;
}

/** Longest selection text sent; a selection of a whole page would crowd out the task. */
const MAX_SELECTION = 2000;

/**
 * The planner's user message: the markers described at the top of this file.
 *
 * @example
 * ```ts
 * plannerUserMessage({ task: 'Show me the prices', sitemap: [{ path: '/pricing', title: 'Pricing' }] });
 * // "Task: Show me the prices\nSitemap:\n- /pricing — Pricing"
 * ```
 */
export function plannerUserMessage(input: PlannerMessageInput): string {
  const lines = [`${TASK_MARKER} ${oneLine(input.task)}`];
  if (input.locale) {
    const name = languageName(input.locale);
    lines.push(`Locale: ${input.locale}${name ? ` — ${name}` : ''}`);
  }
  if (input.sitemap !== undefined && input.sitemap.length > 0) {
    lines.push(SITEMAP_MARKER);
    if (typeof input.sitemap === 'string') lines.push(input.sitemap.trim());
    else for (const page of input.sitemap) lines.push(sitemapLine(page));
  }
  if (input.brand !== undefined) {
    const brand = input.brand;
    lines.push(
      typeof brand === 'string'
        ? `Brand: ${brand.trim()}`
        : `Brand: ${fields([
            ['', brand.name],
            ['voice', brand.voice],
            ['guidelines', brand.guidelines],
          ])}`,
    );
  }
  if (input.persona !== undefined) {
    const persona = input.persona;
    lines.push(
      typeof persona === 'string'
        ? `Persona: ${persona.trim()}`
        : `Persona: ${fields([
            ['name', persona.name],
            ['role', persona.role],
            ['tone', persona.tone],
          ])}`,
    );
  }
  if (input.selection !== undefined) {
    const selection = typeof input.selection === 'string' ? { text: input.selection } : input.selection;
    const where = fields([
      ['element', selection.selector],
      ['page', selection.url],
    ]);
    lines.push(`Selected on the page: ${JSON.stringify(clip(selection.text.trim(), MAX_SELECTION))}${where ? ` (${where})` : ''}`);
  }
  if (input.hostContext?.trim()) lines.push('Context:', input.hostContext.trim());
  return lines.join('\n');
}

/**
 * The feedback sent after an unusable planner answer, naming what was wrong.
 *
 * @example
 * ```ts
 * plannerFeedback({ truncated: false, problems: ['todos must be an array'] });
 * ```
 */
export function plannerFeedback(failure: { truncated: boolean; problems: readonly string[] }): string {
  if (failure.truncated) {
    return 'Your answer was cut off before its JSON ended. Answer again with fewer, shorter todos (at most 6, a few words each) and a one-sentence task_summary, as one complete JSON object and nothing else.';
  }
  return `Your answer could not be used: ${failure.problems.join('; ')}. Answer again with one JSON object {"task_summary": "...", "todos": [{"intent": "...", "description": "...", "expected_turn": 1}]} and nothing else.`;
}

function sitemapLine(page: SitemapPage): string {
  let line = `- ${oneLine(page.path)}`;
  if (page.title?.trim()) line += ` — ${oneLine(page.title)}`;
  if (page.description?.trim()) line += `: ${oneLine(page.description)}`;
  return line;
}

/** `name, voice: friendly, role: buyer`: the given fields, an empty label meaning the bare value. */
function fields(entries: ReadonlyArray<readonly [string, string | undefined]>): string {
  return entries
    .filter((entry): entry is readonly [string, string] => Boolean(entry[1]?.trim()))
    .map(([label, value]) => (label ? `${label}: ${oneLine(value)}` : oneLine(value)))
    .join(', ');
}

/** Collapses line breaks so that a value cannot break the line-based markers. */
/**
 * Joins lines with one space. Whitespace runs are matched whole and replaced only when they hold a
 * line break: `\s*[\r\n]+\s*` would backtrack quadratically over a long run of spaces.
 */
function oneLine(text: string): string {
  return text.replace(/\s+/g, (run) => (/[\r\n]/.test(run) ? ' ' : run)).trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** `German (Germany)` for `de-DE`, in English; undefined where Intl cannot say. */
function languageName(locale: string): string | undefined {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(locale);
    return name && name !== locale ? name : undefined;
  } catch {
    return undefined;
  }
}
