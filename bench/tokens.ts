import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { TodoInput } from '../src/artifacts/todos.js';
import { parseTurnEnvelope } from '../src/envelope/parse.js';
import { TURN_ENVELOPE_JSON_SCHEMA } from '../src/envelope/schema.js';
import { createEnvelopeStreamParser } from '../src/envelope/stream.js';
import { createWriteTodos } from '../src/interop/write-todos.js';
import { describedInPrompt, jsonInstruction } from '../src/llm/json-instruction.js';
import type { Observation } from '../src/events.js';
import { renderPlanForTurn } from '../src/loop/render-plan.js';
import { TurnMemory } from '../src/loop/turn-memory.js';
import { DATA_RULE, TURN_INSTRUCTIONS, turnUserPrompt } from '../src/loop/turn-prompt.js';
import { Plan } from '../src/plan.js';
import { plannerSystemPrompt } from '../src/planning/prompts.js';
import { ratio, round } from './measure.js';
import { tokenScenarios, type TokenScenario } from './scenarios.js';

/**
 * Tokens of `text` with o200k_base (the GPT-4o / GPT-5 tokenizer).
 *
 * @example
 * ```ts
 * countTokens('t2 narrate: Show the three tiers'); // about 8
 * ```
 */
export function countTokens(text: string): number {
  return encode(text).length;
}

/** LangChain JS's `write_todos` (todoListMiddleware) as a model gets it: read from the installed package, or estimated. */
export interface LangChainWriteTodos {
  /** `langchain@1.5.14`, or why the texts are estimated. */
  source: string;
  /** Whether the texts came from the installed package (else their sizes are estimated). */
  exact: boolean;
  /** The tool as a request carries it (name, description, parameters JSON Schema), in tokens. */
  toolTokens: number;
  /** What the middleware appends to the system prompt on every model call, in tokens. */
  systemPromptTokens: number;
  /** The tool's answer to a call with `todos`: what stays in the history. */
  result(todos: WriteTodosArgs['todos']): string;
  /** The tool's answer to a call it refused (an invalid status). */
  errorResult: string;
}

/** The public sizes of LangChain JS's write_todos texts (langchain@1.5.14), used only when the package is not installed. */
const LANGCHAIN_SIZES = { toolDescriptionChars: 11_389, systemPromptChars: 1_075 } as const;

/** `write_todos` arguments: the whole list, with statuses. */
interface WriteTodosArgs {
  todos: Array<{ content: string; status: string }>;
}

/**
 * LangChain's texts, taken from the `langchain` package installed in this project (a
 * devDependency; nothing of it is copied into the repository): `todoListMiddleware()`'s
 * `write_todos` tool (converted to an OpenAI tool by `@langchain/core`, as LangChain sends it),
 * `TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT` (appended to the system prompt by the middleware), the tool's
 * answer to a call, and its error for an invalid call. Without the package: the published
 * character counts at `charsPerToken`, labelled as estimated.
 *
 * @example
 * ```ts
 * const langchain = await loadLangChainWriteTodos(4.1);
 * langchain.exact; // true when `langchain` is installed
 * ```
 */
export async function loadLangChainWriteTodos(charsPerToken: number, root = fileURLToPath(new URL('..', import.meta.url))): Promise<LangChainWriteTodos> {
  // Loaded with require (langchain ships CommonJS builds beside its ES modules): `npm run bench`
  // runs inside Vite's module runner, which is closed by the time the benchmarks call import().
  const require = createRequire(`${root}/package.json`);
  let langchain: Record<string, unknown>;
  let functionCalling: Record<string, unknown>;
  try {
    langchain = require('langchain') as Record<string, unknown>;
    functionCalling = require('@langchain/core/utils/function_calling') as Record<string, unknown>;
  } catch (error) {
    return estimatedLangChain(charsPerToken, `estimated: langchain is not installed here (${firstLine(error)})`);
  }
  const version = packageVersion(require.resolve('langchain'));
  type Tool = { name: string; description: string; invoke(call: unknown): Promise<unknown> };
  const middleware = (langchain.todoListMiddleware as () => { tools?: Tool[] })();
  const tool = middleware.tools?.find((candidate) => candidate.name === 'write_todos');
  const systemPrompt = langchain.TODO_LIST_MIDDLEWARE_SYSTEM_PROMPT;
  if (!tool || typeof systemPrompt !== 'string')
    return estimatedLangChain(charsPerToken, `estimated: langchain@${version} has no write_todos tool or system prompt where expected`);
  const { function: definition } = (functionCalling.convertToOpenAITool as (tool: Tool) => { function: ToolDefinition })(tool);
  const call = async (todos: unknown) => tool.invoke({ id: 'call_1', name: 'write_todos', args: { todos }, type: 'tool_call' });
  // The tool answers with a Command whose message is the history entry; an invalid call throws.
  const sample = (await call([{ content: '\u0000', status: 'pending' }])) as { update?: { messages?: Array<{ content?: unknown }> } };
  const template = String(sample.update?.messages?.[0]?.content ?? '');
  const marker = JSON.stringify([{ content: '\u0000', status: 'pending' }]);
  if (!template.includes(marker)) return estimatedLangChain(charsPerToken, `estimated: langchain@${version}'s write_todos answer has an unexpected shape`);
  let errorResult = '';
  try {
    await call([{ content: 'x', status: 'done' }]);
  } catch (error) {
    errorResult = `Error: ${error instanceof Error ? error.message : String(error)}`;
  }
  return {
    source: `langchain@${version}`,
    exact: true,
    toolTokens: toolDefinitionTokens(definition),
    systemPromptTokens: countTokens(`\n\n${systemPrompt}`),
    result: (todos) => template.replace(marker, JSON.stringify(todos)),
    errorResult,
  };
}

function estimatedLangChain(charsPerToken: number, source: string): LangChainWriteTodos {
  // The parameters are the same { todos: [{ content, status }] } as planloop's own tool: measured on it.
  const parameters = createWriteTodos(new Plan()).parameters;
  return {
    source,
    exact: false,
    toolTokens: Math.round(LANGCHAIN_SIZES.toolDescriptionChars / charsPerToken) + toolDefinitionTokens({ name: 'write_todos', description: '', parameters }),
    systemPromptTokens: Math.round(LANGCHAIN_SIZES.systemPromptChars / charsPerToken),
    result: (todos) => `Updated todo list to ${JSON.stringify(todos)}`,
    errorResult: 'Error: Received tool input did not match expected schema (estimated)',
  };
}

/** The version in the package.json of the package holding `file` (its exports map may not expose package.json). */
function packageVersion(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (!existsSync(path)) continue;
    const json = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
    if (json.name && json.version) return json.version;
  }
  return '?';
}

/** A function tool as a request carries it. */
interface ToolDefinition {
  name: string;
  description?: string;
  parameters?: unknown;
}

/**
 * A tool definition's tokens: its name, its description as text (a backend renders it for the
 * model, it does not show it JSON-escaped) and its parameters as JSON.
 */
function toolDefinitionTokens(tool: ToolDefinition): number {
  return countTokens(tool.name) + countTokens(tool.description ?? '') + countTokens(JSON.stringify(tool.parameters ?? {}));
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 120) ?? '';
}

/**
 * The kinds of backend, by what a turn costs on each beyond the prompt: `schema enforced` (a
 * json_schema server that compiles it into a grammar: llama.cpp, vLLM, Ollama, WebLLM; the
 * schema is not prompt text), `Chrome` (responseConstraint, told not to add it to the input),
 * `instruction` (Anthropic, or a server in json_object mode: one line appended), and
 * `schema in prompt` (a hosted json_schema API that renders the schema into the prompt, as
 * OpenAI's harmony format does for gpt-oss; whether OpenAI bills it for its own models is not
 * documented: an upper bound).
 */
export type BackendKind = 'schema enforced' | 'Chrome' | 'instruction' | 'schema in prompt';

/**
 * Tokens a turn sends on each backend kind besides the plan: the envelope instructions and what
 * the backend adds (nothing, one line about the JSON, or the schema).
 *
 * @example
 * ```ts
 * turnFixedTokens().instruction; // TURN_INSTRUCTIONS + "Reply with the JSON object described above and nothing else."
 * ```
 */
export function turnFixedTokens(): Record<BackendKind, number> {
  const instructions = countTokens(TURN_INSTRUCTIONS);
  return {
    'schema enforced': instructions,
    Chrome: instructions,
    instruction: instructions + countTokens(`\n\n${jsonInstruction(describedInPrompt(TURN_ENVELOPE_JSON_SCHEMA))}`),
    'schema in prompt': instructions + countTokens(JSON.stringify(TURN_ENVELOPE_JSON_SCHEMA)),
  };
}

/** Output and input of one protocol over one run. */
export interface ProtocolTokens {
  protocol: string;
  /** Plan-upkeep output per turn: mean and largest (turns without a call count as 0). */
  outputPerTurn: { mean: number; max: number };
  /** Plan-upkeep output over the run, resends included. */
  totalOutput: number;
  /** Of which: output of replies that failed and were sent again. */
  resentOutput: number;
  /** Plan-related input per turn (largest) and over the run, on `backend` for planloop. */
  inputPerTurn?: number;
  totalInput?: number;
}

/** One scenario's comparison. */
export interface ScenarioTokens {
  key: TokenScenario['key'];
  scenario: string;
  turns: number;
  /** Turns whose first reply failed on both sides (one in `failEvery`). */
  failedTurns: number[];
  /** Output: planloop compact (taught), planloop full, the floor, write_todos. */
  output: ProtocolTokens[];
  /** write_todos output ÷ each planloop form and ÷ the floor. */
  ratios: { compact: number | null; full: number | null; floor: number | null };
  /**
   * planloop's plan context per turn: the rendered todos (first turn / largest), and the largest
   * user message less the task, URL and page text (fences, turn line, memory, observations'
   * framing included) and the turn it happens on.
   */
  planContext: { first: number; max: number; userMessageMax: number; largestTurn: number };
  /** What the data fencing costs on that largest turn: the `<plan>`/`<data>` tags, and the instructions' data rule. */
  fencing: { tags: number; rule: number };
  /** planloop input per turn (largest) and per run, by backend kind: the system message and all of the user message but the task, URL and page text. */
  planloopInput: Array<{ backend: BackendKind; perTurnMax: number; total: number }>;
  /** write_todos input per turn (largest) and per run: LangChain's middleware and planloop's own tool. */
  writeTodosInput: Array<{ protocol: string; perTurnMax: number; total: number; fixed: number }>;
  /**
   * The planning call's answer (task summary and todos, as the planner prompt asks for them):
   * without checks, and with a compact check on every navigate and click todo (the most the prompt
   * invites; fill and narrate checks are derived, not written), and the growth.
   */
  planningOutput?: { without: number; withChecks: number; growth: number };
}

/** What {@link benchTokens} measured. */
export interface TokensResult {
  tokenizer: 'o200k_base';
  /** Where LangChain's texts came from. */
  langchain: { source: string; exact: boolean; toolTokens: number; systemPromptTokens: number };
  /** Characters per token of planloop's own English prompt prose (used only for the estimate). */
  charsPerToken: number;
  failEvery: number;
  /** The turn's fixed tokens by backend kind (instructions + what the backend adds). */
  fixedByBackend: Record<BackendKind, number>;
  scenarios: ScenarioTokens[];
}

/** Options of {@link benchTokens}. */
export interface BenchTokensOptions {
  scenarios?: readonly TokenScenario[];
  /** One turn in this many fails once on both sides and is sent again (turns failEvery/2, 1.5·failEvery, …). Default 0: none (`npm run bench` also runs 10). */
  failEvery?: number;
  /** Where to look for `langchain`. Default this project. */
  langchainRoot?: string;
}

/** The actions after the plan part in every envelope counted: only the difference with and without the plan part is counted. */
const ACTIONS = '"actions":[{"type":"narrate","target":"#pricing","text":"Here are the plans."}]';

/** Output tokens a member list adds to an envelope: the envelope with it minus the envelope without it. */
function upkeepTokens(members: string): number {
  return members === '' ? 0 : countTokens(`{${members},${ACTIONS}}`) - countTokens(`{${ACTIONS}}`);
}

interface Turn {
  render: string;
  /** The turn's whole user message as `runWebAgent` builds it, and the tokens of what the host and the page put in it (task, URL, page text). */
  prompt: { user: string; excluded: number };
  compact: string;
  full: string;
  floor: string;
  /** write_todos arguments when this turn calls it (the plan changed), else undefined. */
  call: WriteTodosArgs | undefined;
}

/** Stand-ins for what the host and the page put into a turn's prompt: built into it, then subtracted. */
const PAGE_TEXT = '[e1] heading "Pricing"\n[e2] button "Start free trial"';
const PAGE_URL = '/pricing';

/** The actions a todo of this intent takes in the replay: a tool call for page actions (with a narrate), else its own kind. */
function actionsFor(intent: string): string {
  if (intent === 'finish') return '[{"type":"task_finish","summary":"Done."}]';
  if (intent === 'narrate') return '[{"type":"narrate","text":"Here."}]';
  return `[{"type":"tool","name":${JSON.stringify(intent)},"args":{}},{"type":"narrate","text":"Here."}]`;
}

/**
 * Replays a scenario turn by turn on a real plan: the compact envelope the prompt teaches (parsed
 * and applied as a turn would), the full envelope of the same changes, the floor (bare ids), and
 * the write_todos call a model would make (only on turns where the list changes). Each turn's
 * user message is the one `runWebAgent` builds (`turnUserPrompt`, with the real `TurnMemory` at
 * its default size, the last turn's tool observations as a tool that returns nothing gives them,
 * and stand-ins for the task, the URL and the page, whose tokens are noted to be left out).
 */
function replay(scenario: TokenScenario): Turn[] {
  const plan = new Plan();
  plan.todos.reset(scenario.todos);
  const n = scenario.todos.length;
  const span = scenario.turnsPerTodo ?? 1;
  const ids = plan.todos.list().map((todo) => todo.id);
  let contents = scenario.todos.map((todo) => todo.description);
  const turns: Turn[] = [];
  const memory = new TurnMemory(4);
  const excluded = countTokens(scenario.task) + countTokens(PAGE_URL) + countTokens(PAGE_TEXT);
  let observations: Observation[] = [];
  for (let turn = 1; turn <= n * span; turn++) {
    const index = Math.floor((turn - 1) / span);
    const firstOfTodo = (turn - 1) % span === 0;
    const render = renderPlanForTurn(plan);
    const user = turnUserPrompt({
      task: scenario.task,
      todos: plan.todos.list(),
      turn,
      maxTurns: n * span + 2,
      memory: memory.lines,
      observations,
      url: PAGE_URL,
      page: PAGE_TEXT,
    });
    const id = ids[index] as string;
    const last = turn === n * span;
    const replace: Array<{ id: string; intent: string; description: string }> = [];
    const rewrite = scenario.replaceAt;
    if (rewrite && turn === rewrite.turn) {
      for (let at = n - rewrite.count; at < n; at++) {
        const next = rewrite.rewrite(scenario.todos[at] as TodoInput, at);
        replace.push({ id: ids[at] as string, intent: next.intent ?? 'narrate', description: next.description });
        contents = contents.map((content, i) => (i === at ? next.description : content));
      }
    }
    const compact = [
      `"todo":${JSON.stringify(id)}`,
      ...(last ? ['"last":true'] : []),
      ...(replace.length > 0 ? [`"replace":${JSON.stringify(replace)}`] : []),
    ].join(',');
    const remove = firstOfTodo && index > 0 ? [ids[index - 1] as string] : [];
    const full = `"turn_planning":${JSON.stringify({ todo_id: id, does: contents[index], is_last_turn: last })},"todo_adjust":${JSON.stringify({ remove, replace })}`;
    const floor = [id, ...replace.flatMap((entry) => [entry.id, entry.intent, entry.description])].map((value) => JSON.stringify(value)).join(',');
    // Apply the compact envelope as a turn does, so the next prompt is what the model would see.
    const intent = plan.todos.get(id)?.intent ?? 'narrate';
    const envelope = parseTurnEnvelope(`{${compact},"actions":${actionsFor(intent)}}`);
    const adjust = plan.adjust(envelope.todo_adjust ?? {}, { inProgress: envelope.turn_planning?.todo_id });
    memory.record(envelope, adjust);
    observations = envelope.actions.flatMap((action): Observation[] =>
      action.type === 'tool' ? [{ kind: 'tool-result', name: action.name, summary: `${action.name}: ok` }] : [],
    );
    // write_todos writes when the list changes: a todo starts, todos are rewritten, and on the last
    // turn, when the last todo is done (LangChain's prompt: "mark todos as completed as soon as
    // you are done"; planloop's side pays "last":true for the same). One call a turn at most.
    const changed = firstOfTodo || replace.length > 0 || last;
    const status = (i: number) => (last || i < index ? 'completed' : i === index ? 'in_progress' : 'pending');
    const call: WriteTodosArgs | undefined = changed ? { todos: contents.map((content, i) => ({ content, status: status(i) })) } : undefined;
    turns.push({ render, prompt: { user, excluded }, compact, full, floor, call });
  }
  return turns;
}

/** A write_todos call as a model writes it: the name and the arguments. */
function callText(args: WriteTodosArgs): string {
  return JSON.stringify({ name: 'write_todos', arguments: args });
}

/**
 * What a failed planloop reply costs: the model writes the todo as a number (`"todo":3`); the
 * stream parser refuses it as soon as the value ends and the turn stops reading, so only that
 * much was generated. Returns the text generated and the error sent back.
 */
function failedPlanloopReply(index: number): { text: string; error: string } {
  const reply = `{"todo":${index},${ACTIONS}}`;
  const parser = createEnvelopeStreamParser();
  for (const char of reply) {
    parser.push(char);
    if (parser.error) return { text: parser.text, error: parser.error.message };
  }
  throw new Error('benchTokens: the failing reply was not refused');
}

/** The planning call's answer for a scenario, without checks and with the checks a planner may write. */
function planningAnswer(scenario: TokenScenario): { without: number; withChecks: number; growth: number } {
  const answer = (checks: boolean) =>
    JSON.stringify({
      task_summary: scenario.name,
      todos: scenario.todos.map((todo, index) => ({
        intent: todo.intent,
        description: todo.description,
        expected_turn: index + 1,
        ...(checks && plannedCheck(todo) ? { check: plannedCheck(todo) } : {}),
      })),
    });
  const without = countTokens(answer(false));
  const withChecks = countTokens(answer(true));
  return { without, withChecks, growth: round((withChecks - without) / without, 3) };
}

/** The check a planner would write: the page a navigate opens (`/free-trial`), what a click shows (`see button "Yearly"`). */
function plannedCheck(todo: TodoInput): string | undefined {
  const words = todo.description
    .replace(/\(part \d+\)/, '')
    .trim()
    .split(/\s+/);
  if (todo.intent === 'navigate') {
    const page = words
      .filter((word) => !/^(open|the|page|form)$/i.test(word))
      .join('-')
      .toLowerCase();
    return `/${page}`;
  }
  if (todo.intent === 'click') return `see button "${words.slice(-2).join(' ')}"`;
  return undefined;
}

function summarize(protocol: string, perTurn: number[], resent: number): ProtocolTokens {
  const total = perTurn.reduce((a, b) => a + b, 0);
  return { protocol, outputPerTurn: { mean: round(total / perTurn.length, 1), max: Math.max(...perTurn) }, totalOutput: total + resent, resentOutput: resent };
}

/**
 * Counts the plan tokens of each scenario, on both sides, the way each protocol really sends them:
 *
 * - Output (the target): planloop's plan members as the prompt teaches them (compact: `"todo":"t3"`,
 *   `"last":true` on the final turn, `"replace":[…]` on a rewrite), the full envelope of the same
 *   changes, the floor (bare ids, and the rewritten texts), and write_todos' calls with their
 *   tool-call syntax (`{"name":"write_todos","arguments":{…}}`), only on turns where the list
 *   changes (a todo starts, todos are rewritten, the last one is done; write_todos may skip a
 *   turn, planloop names its todo every turn). Each planloop member list is counted as what it
 *   adds to an envelope. With `failEvery`, one turn in that many fails once on both sides:
 *   planloop's reply is cut where the stream parser refused it, write_todos' whole call is
 *   refused; both are sent again.
 * - Input: planloop's whole turn as `runWebAgent` sends it, less what the host and the page put
 *   in it: the instructions, what the backend adds (by kind), and the user message (`Task:`
 *   label, turn line, the `<plan>` block with the remaining todos and the memory, the `<data>`
 *   block with the URL label, the last turn's observations and the `Page:` label), without the
 *   task's words, the URL and the page text; on a failed turn the retry too (the refused text
 *   and the error). write_todos: the tool definition and its system prompt on every call, and
 *   the whole history (every earlier call and tool answer, refused ones included); its task and
 *   page are not counted either.
 *
 * @example
 * ```ts
 * const { scenarios } = await benchTokens({ scenarios: [tourScenario(3)] });
 * ```
 */
export async function benchTokens(options: BenchTokensOptions = {}): Promise<TokensResult> {
  const scenarios = options.scenarios ?? tokenScenarios();
  const failEvery = options.failEvery ?? 0;
  const probe = createWriteTodos(new Plan());
  const prose = [TURN_INSTRUCTIONS, plannerSystemPrompt('Guide'), probe.description, probe.systemPrompt()].join('\n\n');
  const charsPerToken = prose.length / countTokens(prose);
  const langchain = await loadLangChainWriteTodos(charsPerToken, options.langchainRoot);
  const fixed = turnFixedTokens();
  const backends = Object.keys(fixed) as BackendKind[];

  const results = scenarios.map((scenario): ScenarioTokens => {
    const turns = replay(scenario);
    const failed = failEvery > 0 ? turns.map((_, i) => i + 1).filter((turn) => turn % failEvery === Math.floor(failEvery / 2)) : [];
    const fails = (turn: number) => failed.includes(turn);

    // Output.
    const compact = turns.map((turn) => upkeepTokens(turn.compact));
    const full = turns.map((turn) => upkeepTokens(turn.full));
    const floor = turns.map((turn) => countTokens(turn.floor));
    const calls = turns.map((turn) => (turn.call ? countTokens(callText(turn.call)) : 0));
    const planloopFailures = failed.map((turn) => failedPlanloopReply(turn));
    const planloopResent = planloopFailures.reduce((sum, failure) => sum + countTokens(failure.text), 0);
    // write_todos' failed call: the same list with one status misspelt, refused whole.
    const badCall = (turn: Turn): WriteTodosArgs => ({
      todos: (turn.call ?? { todos: [] }).todos.map((todo, i) => (i === 0 ? { ...todo, status: 'done' } : todo)),
    });
    const writeTodosResent = failed.reduce((sum, turn) => sum + countTokens(callText(badCall(turns[turn - 1] as Turn))), 0);
    const output = [
      summarize('planloop (compact, taught)', compact, planloopResent),
      summarize('planloop (full envelope)', full, planloopResent),
      summarize('floor (bare ids)', floor, 0),
      summarize('write_todos', calls, writeTodosResent),
    ];

    // planloop input, by backend kind.
    const renders = turns.map((turn) => countTokens(turn.render));
    // Everything planloop puts into a turn's user message: the prompt less the task, URL and page text.
    const users = turns.map((turn) => countTokens(turn.prompt.user) - turn.prompt.excluded);
    const retryInput = planloopFailures.map((failure) => countTokens(failure.text) + countTokens(failure.error));
    const planloopInput = backends.map((backend) => {
      const perTurn = users.map((user, i) => fixed[backend] + user + (fails(i + 1) ? fixed[backend] + user + (retryInput[failed.indexOf(i + 1)] ?? 0) : 0));
      return { backend, perTurnMax: Math.max(...users) + fixed[backend], total: perTurn.reduce((a, b) => a + b, 0) };
    });
    const largest = users.indexOf(Math.max(...users));
    // The fencing at that turn: the block tags in the user message, and the data rule in the instructions.
    const user = (turns[largest] as Turn).prompt.user;
    const unfenced = user
      .split('\n')
      .filter((line) => !/^<\/?(plan|data)>$/.test(line))
      .join('\n');
    const fencing = { tags: countTokens(user) - countTokens(unfenced), rule: countTokens(`\n${DATA_RULE}`) };

    // write_todos input: every model call sends the tool, the system prompt and the whole history.
    const plan = new Plan();
    plan.todos.reset(scenario.todos);
    const own = createWriteTodos(plan, { maxItems: Math.max(20, scenario.todos.length) });
    const ownTool = toolDefinitionTokens(own);
    const ownFixed = ownTool + countTokens(own.systemPrompt().split('\nCurrent todos:')[0] ?? '');
    let ownHistory = 0;
    let langchainHistory = 0;
    const ownPerTurn: number[] = [];
    const langchainPerTurn: number[] = [];
    turns.forEach((turn, i) => {
      const fragment = own.systemPrompt();
      const ownList = countTokens(fragment.slice(fragment.indexOf('\nCurrent todos:')));
      ownPerTurn.push(ownFixed + ownList + ownHistory);
      langchainPerTurn.push(langchain.toolTokens + langchain.systemPromptTokens + langchainHistory);
      if (!turn.call) return;
      if (fails(i + 1)) {
        // The refused call and its error go into the history; the model calls again (one more model call).
        const bad = badCall(turn);
        const refused = own.execute(bad, { turn: `${i}-bad` });
        ownHistory += countTokens(callText(bad)) + countTokens(JSON.stringify(refused));
        langchainHistory += countTokens(callText(bad)) + countTokens(langchain.errorResult);
        ownPerTurn.push(ownFixed + ownList + ownHistory);
        langchainPerTurn.push(langchain.toolTokens + langchain.systemPromptTokens + langchainHistory);
      }
      const ack = own.execute(turn.call, { turn: i });
      if (!ack.ok) throw new Error(`benchTokens: write_todos refused turn ${i + 1}: ${ack.message}`);
      ownHistory += countTokens(callText(turn.call)) + countTokens(JSON.stringify(ack));
      langchainHistory += countTokens(callText(turn.call)) + countTokens(langchain.result(turn.call.todos));
    });
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const writeTodos = output[3] as ProtocolTokens;
    return {
      key: scenario.key,
      scenario: scenario.name,
      turns: turns.length,
      failedTurns: failed,
      output,
      ratios: {
        compact: ratio(writeTodos.totalOutput, (output[0] as ProtocolTokens).totalOutput),
        full: ratio(writeTodos.totalOutput, (output[1] as ProtocolTokens).totalOutput),
        floor: ratio(writeTodos.totalOutput, (output[2] as ProtocolTokens).totalOutput),
      },
      planContext: { first: renders[0] ?? 0, max: Math.max(...renders), userMessageMax: users[largest] ?? 0, largestTurn: largest + 1 },
      planningOutput: planningAnswer(scenario),
      fencing,
      planloopInput,
      writeTodosInput: [
        {
          protocol: `write_todos (LangChain, ${langchain.exact ? langchain.source : 'estimated'})`,
          perTurnMax: Math.max(...langchainPerTurn),
          total: sum(langchainPerTurn),
          fixed: langchain.toolTokens + langchain.systemPromptTokens,
        },
        { protocol: 'write_todos (planloop tool)', perTurnMax: Math.max(...ownPerTurn), total: sum(ownPerTurn), fixed: ownFixed },
      ],
    };
  });
  return {
    tokenizer: 'o200k_base',
    langchain: { source: langchain.source, exact: langchain.exact, toolTokens: langchain.toolTokens, systemPromptTokens: langchain.systemPromptTokens },
    charsPerToken: round(charsPerToken, 2),
    failEvery,
    fixedByBackend: fixed,
    scenarios: results,
  };
}
