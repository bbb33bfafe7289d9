import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import type { TodoItem } from '../src/artifacts/todos.js';
import { createWriteTodos } from '../src/interop/write-todos.js';
import { renderPlanForTurn } from '../src/loop/render-plan.js';
import { TURN_INSTRUCTIONS } from '../src/loop/turn-prompt.js';
import { Plan } from '../src/plan.js';
import { plannerSystemPrompt } from '../src/planning/prompts.js';
import { ratio, round } from './measure.js';
import { tokenScenarios, type TokenScenario } from './scenarios.js';

/** The public sizes of LangChain JS's `write_todos` prompts (characters); their text is not used. */
export const LANGCHAIN_REFERENCE = { toolDescriptionChars: 11_389, systemPromptChars: 1_075 } as const;

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

/** One protocol's plan tokens over one run. */
export interface ProtocolTokens {
  protocol: 'planloop' | 'write_todos (planloop tool)' | 'write_todos (LangChain JS sizes)';
  /** Whether the fixed prompt text was counted from the real text or estimated from a character count. */
  source: 'measured' | 'estimated from characters';
  /** Fixed prompt text sent on every call (planloop: the envelope instructions; write_todos: tool description + system prompt fragment). */
  fixedInput: number;
  /** The plan as the model sees it each turn, beyond the fixed text: first turn, largest turn, mean. */
  planContext: { first: number; max: number; mean: number };
  /** Everything plan-related in the input of one call (fixed + plan context): first, largest, last turn. */
  inputPerTurn: { first: number; max: number; last: number };
  /** Plan-upkeep output per turn: mean and largest. */
  outputPerTurn: { mean: number; max: number };
  totalInput: number;
  totalOutput: number;
}

/** One scenario's comparison. */
export interface ScenarioTokens {
  key: TokenScenario['key'];
  scenario: string;
  turns: number;
  protocols: ProtocolTokens[];
  /** write_todos ÷ planloop, per write_todos variant. */
  ratios: Array<{ protocol: ProtocolTokens['protocol']; output: number | null; input: number | null }>;
  /** planloop's `todo_adjust` member alone (without `turn_planning`): its run total and write_todos output ÷ it. */
  adjustOnly: { total: number; ratio: number | null };
}

/** What {@link benchTokens} measured. */
export interface TokensResult {
  tokenizer: 'o200k_base';
  /** Characters per token of planloop's own English prompt prose, used to estimate the LangChain sizes. */
  charsPerToken: number;
  langchainFixedTokens: number;
  scenarios: ScenarioTokens[];
}

interface Turn {
  /** planloop: the plan context and the turn_planning + todo_adjust members. */
  render: string;
  upkeep: string;
  /** The `todo_adjust` member alone. */
  adjust: string;
  /** write_todos: the arguments of the turn's call. */
  args: { todos: Array<{ content: string; status: TodoItem['status'] }> };
}

/**
 * Replays a scenario turn by turn on real plans: planloop's per-turn plan rendering and the
 * `turn_planning` + `todo_adjust` members the model writes, and the `write_todos` list the model
 * would send instead (one call per turn, the whole list with statuses).
 */
function replay(scenario: TokenScenario): Turn[] {
  const plan = new Plan();
  plan.todos.reset(scenario.todos);
  const n = scenario.todos.length;
  let contents = scenario.todos.map((todo) => todo.description);
  const turns: Turn[] = [];
  for (let turn = 1; turn <= n; turn++) {
    const render = `Todos (first is next):\n${renderPlanForTurn(plan)}`;
    const ids = plan.todos.list().map((todo) => todo.id);
    const replace: Array<{ id: string; intent: string; description: string }> = [];
    const rewrite = scenario.replaceAt;
    if (rewrite && turn === rewrite.turn) {
      for (let index = n - rewrite.count; index < n; index++) {
        const next = rewrite.rewrite(scenario.todos[index] as TodoItem, index);
        replace.push({ id: ids[index] as string, intent: next.intent, description: next.description });
        contents = contents.map((content, i) => (i === index ? next.description : content));
      }
    }
    const id = ids[turn - 1] as string;
    const turnPlanning = { todo_id: id, does: contents[turn - 1] as string, is_last_turn: turn === n };
    const todoAdjust = { remove: turn > 1 ? [ids[turn - 2] as string] : [], replace };
    // The two members as they sit in the envelope (without the braces of the envelope itself).
    const upkeep = `"turn_planning":${JSON.stringify(turnPlanning)},"todo_adjust":${JSON.stringify(todoAdjust)}`;
    plan.adjust(todoAdjust, { inProgress: id });
    turns.push({
      render,
      upkeep,
      adjust: `"todo_adjust":${JSON.stringify(todoAdjust)}`,
      args: {
        todos: contents.map((content, i) => ({ content, status: i < turn - 1 ? 'completed' : i === turn - 1 ? 'in_progress' : 'pending' })),
      },
    });
  }
  return turns;
}

function summarize(
  protocol: ProtocolTokens['protocol'],
  source: ProtocolTokens['source'],
  fixedInput: number,
  contexts: number[],
  outputs: number[],
): ProtocolTokens {
  const inputs = contexts.map((context) => fixedInput + context);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return {
    protocol,
    source,
    fixedInput,
    planContext: { first: contexts[0] ?? 0, max: Math.max(...contexts), mean: round(sum(contexts) / contexts.length, 1) },
    inputPerTurn: { first: inputs[0] ?? 0, max: Math.max(...inputs), last: inputs[inputs.length - 1] ?? 0 },
    outputPerTurn: { mean: round(sum(outputs) / outputs.length, 1), max: Math.max(...outputs) },
    totalInput: sum(inputs),
    totalOutput: sum(outputs),
  };
}

/**
 * Counts the plan tokens of each scenario under planloop and under the `write_todos` full-replace
 * protocol (planloop's own tool, and LangChain JS's published prompt sizes).
 *
 * Per turn:
 * - planloop input: the fixed envelope instructions + the rendered remaining todos; output: the
 *   `turn_planning` and `todo_adjust` members of the envelope. There is no chat history.
 * - write_todos input: the tool description + the system prompt fragment (planloop's tool lists
 *   the current todos in it) + every earlier tool result still in the history (planloop's tool
 *   answers a short acknowledgement; LangChain's echoes the list: `Updated todo list to [...]`);
 *   output: the call's arguments, the whole list.
 * JSON is counted compact on both sides; JSON Schemas sent beside the prompt are not counted.
 *
 * @example
 * ```ts
 * const { scenarios } = benchTokens([tourScenario(3)]);
 * ```
 */
export function benchTokens(scenarios: readonly TokenScenario[] = tokenScenarios()): TokensResult {
  // Estimate LangChain's tokens from its character counts with the ratio of our own English prompts.
  const probe = createWriteTodos(new Plan());
  const prose = [TURN_INSTRUCTIONS, plannerSystemPrompt('Guide'), probe.description, probe.systemPrompt()].join('\n\n');
  const charsPerToken = prose.length / countTokens(prose);
  const langchainFixed = Math.round((LANGCHAIN_REFERENCE.toolDescriptionChars + LANGCHAIN_REFERENCE.systemPromptChars) / charsPerToken);
  const instructions = countTokens(TURN_INSTRUCTIONS);

  const results = scenarios.map((scenario): ScenarioTokens => {
    const turns = replay(scenario);
    const upkeep = turns.map((turn) => countTokens(turn.upkeep));
    const renders = turns.map((turn) => countTokens(turn.render));
    const planloop = summarize('planloop', 'measured', instructions, renders, upkeep);

    // planloop's own write_todos tool, run for real on a plan: its prompt lists the current todos.
    const plan = new Plan();
    plan.todos.reset(scenario.todos);
    const tool = createWriteTodos(plan, { maxItems: Math.max(20, scenario.todos.length) });
    const ownFixed = countTokens(`${tool.description}\n${tool.systemPrompt().split('\nCurrent todos:')[0]}`);
    const ownContexts: number[] = [];
    const langchainContexts: number[] = [];
    const outputs: number[] = [];
    let ownHistory = 0;
    let langchainHistory = 0;
    turns.forEach((turn, index) => {
      const fragment = tool.systemPrompt();
      const listPart = fragment.slice(fragment.indexOf('\nCurrent todos:'));
      ownContexts.push(countTokens(listPart) + ownHistory);
      langchainContexts.push(langchainHistory);
      const args = JSON.stringify(turn.args);
      outputs.push(countTokens(args));
      const ack = tool.execute(turn.args, { turn: index });
      if (!ack.ok) throw new Error(`benchTokens: write_todos refused turn ${index + 1}: ${ack.message}`);
      ownHistory += countTokens(JSON.stringify(ack));
      langchainHistory += countTokens(`Updated todo list to ${JSON.stringify(turn.args.todos)}`);
    });
    const adjustTotal = turns.reduce((sum, turn) => sum + countTokens(turn.adjust), 0);
    const own = summarize('write_todos (planloop tool)', 'measured', ownFixed, ownContexts, outputs);
    const langchain = summarize('write_todos (LangChain JS sizes)', 'estimated from characters', langchainFixed, langchainContexts, outputs);
    return {
      key: scenario.key,
      scenario: scenario.name,
      turns: turns.length,
      protocols: [planloop, own, langchain],
      ratios: [own, langchain].map((other) => ({
        protocol: other.protocol,
        output: ratio(other.totalOutput, planloop.totalOutput),
        input: ratio(other.totalInput, planloop.totalInput),
      })),
      adjustOnly: { total: adjustTotal, ratio: ratio(own.totalOutput, adjustTotal) },
    };
  });
  return { tokenizer: 'o200k_base', charsPerToken: round(charsPerToken, 2), langchainFixedTokens: langchainFixed, scenarios: results };
}
