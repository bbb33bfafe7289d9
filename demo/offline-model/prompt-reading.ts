/*
 * The offline demo model answers from the prompts alone, as a real model would: these read the
 * planner's and the turn's user messages back (the inverse of `plannerUserMessage` and
 * `turnUserPrompt`). They live with the demo because only the demo's stand-in model needs them;
 * `test/demo/offline-model/prompt-reading.test.ts` keeps them in step with the prompts.
 */

const TASK_MARKER = 'Task:';
const LOCALE_MARKER = 'Locale:';
const SITEMAP_MARKER = 'Sitemap:';

/** A page of the sitemap, as the planner prompt lists it. */
export interface SitemapPageReading {
  path: string;
  title?: string;
  description?: string;
}

/**
 * Reads the task, the user's locale and the sitemap back from a planner user message: for
 * scripted and offline models.
 *
 * @example
 * ```ts
 * readPlannerMessage('Task: Tour\nLocale: de — German\nSitemap:\n- /pricing — Pricing: the tiers');
 * // { task: 'Tour', locale: 'de', sitemap: [{ path: '/pricing', title: 'Pricing', description: 'the tiers' }] }
 * ```
 */
export function readPlannerMessage(text: string): { task?: string; locale?: string; sitemap: SitemapPageReading[] } {
  const lines = text.split(/\r?\n/);
  const result: { task?: string; locale?: string; sitemap: SitemapPageReading[] } = { sitemap: [] };
  const taskLine = lines.find((line) => line.startsWith(TASK_MARKER));
  if (taskLine !== undefined) result.task = taskLine.slice(TASK_MARKER.length).trim();
  // `Locale: de-DE — German (Germany)`: the tag is the first word.
  const locale = lines
    .find((line) => line.startsWith(LOCALE_MARKER))
    ?.slice(LOCALE_MARKER.length)
    .trim()
    .split(/\s/)[0];
  if (locale) result.locale = locale;
  const start = lines.indexOf(SITEMAP_MARKER);
  if (start >= 0) {
    for (const line of lines.slice(start + 1)) {
      const match = /^- (\S+)(?: — (.*?))?(?:: (.*))?$/.exec(line);
      if (!match) break;
      const page: SitemapPageReading = { path: match[1] as string };
      if (match[2]) page.title = match[2];
      if (match[3]) page.description = match[3];
      result.sitemap.push(page);
    }
  }
  return result;
}

/** What {@link readTurnMessage} finds in a turn's user message. */
export interface TurnMessageReading {
  task?: string;
  /** The todo lines of the `<plan>` block; `intent` only where the line names one (a host's own intent). */
  todos: Array<{ id: string; intent?: string; description: string; expected_turn?: number }>;
  turn?: number;
  maxTurns?: number;
  /** The `User answered:` lines, without the label. */
  answers: string[];
  /** The entries of the `Earlier:` line in `<plan>` (the model's own memory), oldest first. */
  earlier: string[];
  /** The `- ` lines under `Last turn:` in `<data>`, without the dash. */
  lastTurn: string[];
  nudge?: string;
  /** The `URL:` line in `<data>`. */
  url?: string;
  /** The lines under `Page:` in `<data>` (what `observe` said the page shows). */
  page: string[];
}

/**
 * Reads a turn's user message back (the inverse of planloop's `turnUserPrompt`): for scripted and
 * offline models that answer from the prompt, like the demo's. Only the lines outside the blocks
 * are read as the user's and planloop's (the task, the turn, answers, a nudge); a `Task:` line the
 * page wrote inside `<data>` is page text.
 *
 * @example
 * ```ts
 * const { task, todos } = readTurnMessage(request.messages.at(-1)?.content ?? '');
 * todos[0]?.id; // 't2': the todo to do now
 * ```
 */
export function readTurnMessage(text: string): TurnMessageReading {
  const reading: TurnMessageReading = { todos: [], answers: [], earlier: [], lastTurn: [], page: [] };
  let block: 'plan' | 'data' | undefined;
  let section: 'last' | 'page' | undefined;
  for (const line of text.split('\n')) {
    if (block === undefined) {
      const turn = /^Turn (\d+) of (\d+)\.$/.exec(line);
      if (line === '<plan>' || line === '<data>') block = line === '<plan>' ? 'plan' : 'data';
      else if (line.startsWith('Task: ') && reading.task === undefined) reading.task = line.slice(6);
      else if (line.startsWith('User answered: ')) reading.answers.push(line.slice(15));
      else if (line.startsWith('Nudge: ')) reading.nudge = line.slice(7);
      else if (turn) {
        reading.turn = Number(turn[1]);
        reading.maxTurns = Number(turn[2]);
      }
    } else if (line === `</${block}>`) {
      block = undefined;
      section = undefined;
    } else if (block === 'plan') {
      const todo = /^(t\d+) (?:(\S+): )?(.*?)(?: \(turn (\d+)\))?$/.exec(line);
      if (line.startsWith('Earlier: ')) reading.earlier.push(...line.slice(9).split('; '));
      else if (todo) {
        const [, id = '', intent, description = '', expected] = todo;
        reading.todos.push({ id, ...(intent ? { intent } : {}), description, ...(expected ? { expected_turn: Number(expected) } : {}) });
      }
    } else if (section !== 'page' && line.startsWith('URL: ') && reading.url === undefined) reading.url = line.slice(5);
    else if (section !== 'page' && line === 'Last turn:') section = 'last';
    else if (section !== 'page' && line === 'Page:') section = 'page';
    else if (section === 'page') reading.page.push(line);
    else if (section === 'last' && line.startsWith('- ')) reading.lastTurn.push(line.slice(2));
  }
  return reading;
}
