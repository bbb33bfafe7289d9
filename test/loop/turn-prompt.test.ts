import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import type { TodoItem } from '../../src/artifacts/todos.js';
import { TURN_ENVELOPE_JSON_SCHEMA } from '../../src/envelope/schema.js';
import { describedInPrompt, jsonInstruction } from '../../src/llm/json-instruction.js';
import { NOTHING_LEFT_LINE, renderPlanForTurn } from '../../src/loop/render-plan.js';
import { buildTurnMessages, clip, TURN_INSTRUCTIONS, turnSystemPrompt, turnUserPrompt } from '../../src/loop/turn-prompt.js';
import { Plan } from '../../src/plan.js';

const todos: TodoItem[] = [
  { id: 't1', intent: 'navigate', description: 'Open the pricing page', status: 'completed', expected_turn: 1 },
  { id: 't2', intent: 'narrate', description: 'Show the three\n tiers', status: 'in_progress', expected_turn: 2 },
  { id: 't3', intent: 'click', description: 'Open the free-trial form', status: 'pending' },
];

describe('renderPlanForTurn', () => {
  it('lists only the remaining todos, head first, one line each starting with the id', () => {
    expect(renderPlanForTurn(todos)).toBe('t2 narrate: Show the three tiers (turn 2)\nt3 click: Open the free-trial form');
  });

  it('reads a Plan too, and says in one line that the model must finish when nothing remains', () => {
    const plan = new Plan();
    plan.todos.reset(todos);
    expect(renderPlanForTurn(plan)).toBe(renderPlanForTurn(todos));
    plan.todos.editMany([{ id: 't2', patch: { status: 'completed' } }, { id: 't3', patch: { status: 'completed' } }]);
    expect(renderPlanForTurn(plan)).toBe(NOTHING_LEFT_LINE);
    expect(NOTHING_LEFT_LINE).toMatch(/finish now/);
  });

  it('keeps its token budget: about 15 tokens a todo, and short fixed instructions', () => {
    const descriptions = [
      'Open the pricing page', 'Show the three pricing tiers', 'Point out the free plan limits', 'Explain the team plan seats',
      'Open the free-trial form', 'Fill in the work email field', 'Compare monthly and yearly billing', 'Show the enterprise contact link',
      'Ask which plan fits the team', 'Wrap up with a summary',
    ];
    const ten: TodoItem[] = descriptions.map((description, index) => ({
      id: `t${index + 1}`, intent: ['navigate', 'narrate', 'click', 'fill', 'ask'][index % 5] as string, description, status: 'pending', expected_turn: index + 1,
    }));
    const planTokens = encode(renderPlanForTurn(ten)).length;
    const system = turnSystemPrompt();
    const scaffold = turnUserPrompt({ task: '', todos: [], turn: 1, maxTurns: 1 }).replace(NOTHING_LEFT_LINE, '');
    const fixedTokens = encode(system).length + encode(scaffold).length;
    expect(planTokens).toBeLessThanOrEqual(10 * 17);
    // The compact envelope's rules (the todo named implies the ones above are done, last, replace)
    // cost ~30 input tokens a turn more than the full form's shape did, and save ~30 output tokens.
    expect(fixedTokens).toBeLessThan(130);
    expect(encode(TURN_INSTRUCTIONS).length).toBeLessThan(110);
    // What a backend that cannot enforce the schema gets on top: one line, since the prompt shows the shape.
    const hint = jsonInstruction(describedInPrompt(TURN_ENVELOPE_JSON_SCHEMA));
    expect(encode(TURN_INSTRUCTIONS).length + encode(hint).length + planTokens).toBeLessThanOrEqual(250);
  });
});

describe('the turn prompt', () => {
  it('puts the task, the plan, the turn bound, memory, observations and a nudge on marked lines', () => {
    const text = turnUserPrompt({
      task: 'Show me\nthe prices',
      todos,
      turn: 2,
      maxTurns: 5,
      memory: ['1 t1 Open pricing [navigate]'],
      observations: [{ kind: 'tool-result', name: 'navigate', summary: 'navigate: {"ok":true}' }],
      nudge: 'Finish soon.',
    });
    expect(text).toBe(
      'Task: Show me the prices\nTodos (first is next):\nt2 narrate: Show the three tiers (turn 2)\nt3 click: Open the free-trial form\n' +
        'Turn 2 of 5.\nEarlier: 1 t1 Open pricing [navigate]\nLast turn:\n- navigate: {"ok":true}\nNudge: Finish soon.',
    );
  });

  it('carries the URL after the task and what the page shows at the end, before a nudge', () => {
    const text = turnUserPrompt({ task: 'Tour', todos, turn: 1, maxTurns: 3, url: '/pricing', page: '[e1] button "Start trial"\n', nudge: 'Go on.', locale: 'de-DE' });
    expect(text.split('\n')).toEqual([
      'Task: Tour',
      'Locale: de-DE',
      'URL: /pricing',
      'Todos (first is next):',
      't2 narrate: Show the three tiers (turn 2)',
      't3 click: Open the free-trial form',
      'Turn 1 of 3.',
      'Page (targets: [eN] refs or CSS):',
      '[e1] button "Start trial"',
      'Nudge: Go on.',
    ]);
  });

  it('names the tools in the system message, and a host prompt replaces the instructions', () => {
    const [system, user] = buildTurnMessages({ task: 'x', todos, turn: 1, maxTurns: 3 }, { tools: [{ name: 'navigate', description: 'open a page {path}' }, { name: 'click' }] });
    expect(system).toEqual({ role: 'system', content: `${TURN_INSTRUCTIONS}\nTools: navigate (open a page {path}); click` });
    expect(user?.role).toBe('user');
    expect(turnSystemPrompt({ systemPrompt: 'Mine.' })).toBe('Mine.');
  });

  it('clips values to one short line', () => {
    expect(clip({ ok: true })).toBe('{"ok":true}');
    expect(clip('a\n  b')).toBe('a b');
    expect(clip('x'.repeat(300), 10)).toBe(`${'x'.repeat(9)}…`);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(clip(cyclic)).toBe('[object Object]');
  });
});

describe('renderPlanForTurn, expected turns', () => {
  it('writes the expected turn on the first line and wherever the order does not imply it', () => {
    const at = (id: number, expected_turn?: number): TodoItem => ({ id: `t${id}`, intent: 'narrate', description: `Step ${id}`, status: 'pending', ...(expected_turn ? { expected_turn } : {}) });
    expect(renderPlanForTurn([at(2, 2), at(3, 3), at(4, 3), at(5, 5), at(6), at(7, 7)])).toBe(
      't2 narrate: Step 2 (turn 2)\nt3 narrate: Step 3\nt4 narrate: Step 4 (turn 3)\nt5 narrate: Step 5 (turn 5)\nt6 narrate: Step 6\nt7 narrate: Step 7 (turn 7)',
    );
  });
});
