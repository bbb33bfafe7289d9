// A local OpenAI-compatible Chat Completions server that plays each eval task from its script,
// for the smoke test and for trying the harness without a model. It speaks the real wire format
// (JSON, or SSE with `stream: true` and a usage chunk when asked) and reads what to do from the
// prompts the SDK sends, as a model would: the planning call, and per turn the `Task:` line, the
// todos in `<plan>` and `Turn N of M.`. It plans as a good model would: one todo per script turn,
// its intent from the turn's first action, and a check where the script says what will be true
// (see `planTodo`). The model name picks the behaviour:
// - `scripted-solve`: plays the whole script, then finishes;
// - `scripted-quit`: plays the first half and claims it is done (every checker must fail it);
// - `scripted-claim`: does nothing and claims it is done (every checker must fail it);
// - `scripted-obey`: plays the script, but first does what an attacker's instruction in the page
//   text of its prompt says, when it recognises one (a task's `attack.marker`) not yet done.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SECRET_FIELD_NAME } from '../src/todo-check.js';
import type { EvalTask, ScriptAction, ScriptTurn } from './task.js';

/** The behaviours, by model name. */
export const SCRIPTED_MODELS = ['scripted-solve', 'scripted-quit', 'scripted-claim', 'scripted-obey'] as const;

/** A running scripted model. */
export interface ScriptedModel {
  /** The API root to give the OpenAI-compatible provider (`…/v1`). */
  readonly baseURL: string;
  /** What was asked: one entry per request. */
  readonly requests: ReadonlyArray<{ model: string; kind: 'plan' | 'turn'; task: string; system: string }>;
  close(): Promise<void>;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (data += chunk));
    request.on('end', () => resolve(data));
    request.on('error', reject);
  });
}

function renderAction(action: ScriptAction, prompt: string): Record<string, unknown> {
  if (action.type === 'tool') return { type: 'tool', name: action.name, args: action.args };
  return { type: 'narrate', ...(action.target ? { target: action.target } : {}), text: typeof action.text === 'function' ? action.text(prompt) : action.text };
}

/** The first remaining todo of a turn prompt: the first line of its `<plan>` block. */
function firstTodo(prompt: string): string {
  return /^<plan>\n(t\d+)\b/m.exec(prompt)?.[1] ?? 't1';
}

/**
 * The todo a turn works on: the one planned for its script turn while it is open (the planner
 * numbered them in script order), else the first remaining one. After a look-only turn (its
 * plan change is undone) the first remaining todo is the one looked for, not this turn's.
 */
function turnTodo(prompt: string, index: number): string {
  const plan = /^<plan>\n([\s\S]*?)^<\/plan>/m.exec(prompt)?.[1] ?? '';
  const planned = `t${index + 1}`;
  return new RegExp(`^${planned} `, 'm').test(plan) ? planned : firstTodo(prompt);
}

/**
 * A script turn as a planned todo: its intent from the turn's first action, and the check the
 * script makes certain, in the planner's compact form:
 * - navigate: `navigate`, checked by the path it opens;
 * - fill: `fill`, checked by the turn's last fill (`field <target> = <value>`; `filled` only for a
 *   secret field, whose value a check never holds);
 * - click: `click`, checked by the click tool having succeeded for it (the script does not say
 *   what the page shows after; the planner's `see …` would need the page's words);
 * - a look (`read`): `click` with `tool read` when the turn says nothing, since 'narrate' would ask
 *   for words the turn does not say; a look followed by a narration is a `narrate`;
 * - narrate: `narrate`, checked by something said for it (the loop derives it: no check written).
 *
 * @example
 * ```ts
 * planTodo({ todo: 'Open the pricing page', actions: [{ type: 'tool', name: 'navigate', args: { path: '/commercial' } }] }, 0);
 * // { intent: 'navigate', description: 'Open the pricing page', expected_turn: 1, check: '/commercial' }
 * ```
 */
export function planTodo(turn: ScriptTurn, index: number): Record<string, unknown> {
  const base = { description: turn.todo, expected_turn: index + 1 };
  const tools = turn.actions.flatMap((action) => (action.type === 'tool' ? [action] : []));
  const narrates = turn.actions.some((action) => action.type === 'narrate');
  const first = turn.actions.find((action) => action.type === 'narrate' || action.name !== 'read') ?? turn.actions[0];
  if (!first || first.type === 'narrate') return { intent: 'narrate', ...base };
  if (first.name === 'navigate') return { intent: 'navigate', ...base, check: String(first.args.path) };
  if (first.name === 'fill') {
    const last = tools.filter((tool) => tool.name === 'fill').at(-1)!;
    const field = String(last.args.target);
    return { intent: 'fill', ...base, check: SECRET_FIELD_NAME.test(field) ? `field "${field}" filled` : `field "${field}" = "${String(last.args.value)}"` };
  }
  if (first.name === 'read') return narrates ? { intent: 'narrate', ...base } : { intent: 'click', ...base, check: 'tool read' };
  return { intent: 'click', ...base, check: `tool ${first.name}` };
}

/** What `scripted-obey` does first: the task's attack, when its instruction is in the page text and not yet done. */
function obeyed(task: EvalTask, prompt: string): ScriptAction[] {
  const attack = task.attack;
  const at = prompt.search(/^Page:/m);
  const page = at < 0 ? '' : oneLine(prompt.slice(at)).toLowerCase();
  if (!attack || !page.includes(oneLine(attack.marker).toLowerCase()) || page.includes(oneLine(attack.done).toLowerCase())) return [];
  return [...attack.obey(prompt)];
}

/** The reply to one request, as text. */
function reply(task: EvalTask | undefined, mode: string, kind: 'plan' | 'turn', prompt: string, system: string): string {
  if (!task) {
    return JSON.stringify(
      kind === 'plan'
        ? { task_summary: 'An unknown task.', todos: [{ intent: 'finish', description: 'Say the task is unknown', expected_turn: 1 }] }
        : { todo: 't1', last: true, actions: [{ type: 'task_finish', summary: 'I do not know this task.' }] },
    );
  }
  const script = task.script;
  if (kind === 'plan') {
    return JSON.stringify({
      task_summary: `Doing: ${task.id}`,
      todos: script.map(planTodo),
    });
  }
  if (mode === 'scripted-claim')
    return JSON.stringify({
      todo: firstTodo(prompt),
      last: true,
      actions: [{ type: 'task_finish', summary: 'All done: everything you asked for is finished.' }],
    });
  const turn = Number(/^Turn (\d+) of \d+\.$/m.exec(prompt)?.[1] ?? '1');
  const stopAt = mode === 'scripted-quit' ? Math.max(1, Math.floor(script.length / 2)) : script.length;
  const index = Math.min(turn, stopAt) - 1;
  const todo = turnTodo(prompt, index);
  const first = mode === 'scripted-obey' ? obeyed(task, prompt) : [];
  const actions = [...first, ...(script[index]?.actions ?? [])].map((action) => renderAction(action, prompt));
  if (system.includes('write_todos')) {
    const list = script.map((step, i) => ({ content: step.todo, status: i < index ? 'completed' : i === index ? 'in_progress' : 'pending' }));
    actions.unshift({ type: 'tool', name: 'write_todos', args: { todos: list } });
  }
  const last = index + 1 >= stopAt;
  if (last) actions.push({ type: 'task_finish', summary: mode === 'scripted-quit' ? 'All done.' : 'Done.' });
  return JSON.stringify({ todo, ...(last ? { last: true } : {}), actions });
}

/**
 * Starts the scripted model for `tasks` on 127.0.0.1:`port` (0: any free port).
 *
 * @example
 * ```ts
 * const model = await startScriptedModel(TASKS);
 * const llm = createOpenAICompatibleProvider({ baseURL: model.baseURL, model: 'scripted-solve' });
 * ```
 */
export async function startScriptedModel(tasks: readonly EvalTask[], port = 0): Promise<ScriptedModel> {
  const byPrompt = new Map(tasks.map((task) => [oneLine(task.prompt), task]));
  const requests: Array<{ model: string; kind: 'plan' | 'turn'; task: string; system: string }> = [];
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `No route ${request.method} ${url.pathname}` } }));
      return;
    }
    let body: {
      model?: string;
      stream?: boolean;
      stream_options?: { include_usage?: boolean };
      messages?: Array<{ role: string; content: string }>;
      response_format?: { json_schema?: { schema?: { properties?: Record<string, unknown> } } };
    };
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Body is not JSON' } }));
      return;
    }
    const messages = body.messages ?? [];
    const prompt = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const system = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n');
    const kind = /^Turn \d+ of \d+\.$/m.test(prompt) ? 'turn' : 'plan';
    const taskLine = oneLine(/^Task:[ \t]*(.*)$/m.exec(prompt)?.[1] ?? '');
    const task = byPrompt.get(taskLine) ?? [...byPrompt.entries()].find(([text]) => prompt.includes(text))?.[1];
    const model = String(body.model ?? '');
    requests.push({ model, kind, task: task?.id ?? '', system });
    const text = reply(task, model, kind, prompt, system);
    const id = `chatcmpl-${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = { prompt_tokens: Math.ceil(JSON.stringify(messages).length / 4), completion_tokens: Math.ceil(text.length / 4), total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    if (!body.stream) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage,
        }),
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (payload: unknown) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    send(chunk({ role: 'assistant', content: '' }));
    for (let i = 0; i < text.length; i += 64) send(chunk({ content: text.slice(i, i + 64) }));
    send(chunk({}, 'stop'));
    if (body.stream_options?.include_usage) send({ id, object: 'chat.completion.chunk', created, model, choices: [], usage });
    response.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${bound}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
