import { describe, expect, it } from 'vitest';
import { createLLMRouter } from '../../src/llm/provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import { runWebAgent } from '../../src/loop/run-web-agent.js';
import { Plan } from '../../src/plan.js';

// A turn whose actions are all `risk: 'read'` tools (looking at the page) must not complete,
// rewrite or finish anything: it gathers what the next turn acts on.
// These scripts only claim their todos (the fakes move no page): the planner leaves them on the model's word
// (`check: { kind: 'none' as const }`). Evidence is tested in test/loop/evidence.test.ts.
const PLAN = {
  task_summary: 'Read the article',
  todos: [
    { intent: 'narrate', description: 'Say what the article is about', check: { kind: 'none' as const }, expected_turn: 1 },
    { intent: 'narrate', description: 'Sum up its conclusion', check: { kind: 'none' as const }, expected_turn: 2 },
  ],
};

function setup(turns: unknown[]) {
  const plan = new Plan({ llm: createLLMRouter({ default: createScriptedProvider(turns as never), plan: createScriptedProvider([PLAN]) }) });
  const model = (plan as unknown as { provider(role: string): ReturnType<typeof createScriptedProvider> }).provider('turn');
  return { plan, model };
}

const read = {
  risk: 'read' as const,
  description: 'read an element {target}',
  run: ({ target }: Record<string, unknown>) => `text of ${String(target)}: ${'word '.repeat(60)}end`,
};
const click = { description: 'click {target}', run: () => 'clicked' };

describe('runWebAgent: turns that only look', () => {
  it('undoes a look-only turn’s plan change, ignores its last flag, and does not count it against the turn bound', async () => {
    const { plan } = setup([
      // Moving on to t2 would complete t1, and last would end the run: both only looked.
      { todo: 't2', last: true, actions: [{ type: 'tool', name: 'read', args: { target: 'e4' } }] },
      { todo: 't1', actions: [{ type: 'narrate', text: 'It is about tides.' }] },
      { todo: 't2', last: true, actions: [{ type: 'narrate', text: 'Tides follow the moon.' }] },
    ]);
    const statuses: string[] = [];
    plan.on('turn-end', () =>
      statuses.push(
        plan.todos
          .list()
          .map((todo) => `${todo.id}:${todo.status}`)
          .join(' '),
      ),
    );
    const prompts: string[] = [];
    const result = await runWebAgent({
      plan,
      task: 'Read the article to me',
      tools: { read, click },
      maxTurnSlack: 0, // two todos, two turns: the look turn must not use one up
      observe: ({ turn }) => (prompts.push(String(turn)), `page at turn ${turn}`),
    });
    expect(statuses[0]).toBe('t1:pending t2:pending');
    expect(result.reason).toBe('last_turn');
    expect(result.turns).toBe(3);
    expect(result.todos.map((todo) => todo.status)).toEqual(['completed', 'completed']);
  });

  it('keeps a read tool’s result whole (up to its bound) for the next prompt, and still completes on a turn that also acts', async () => {
    const { plan } = setup([
      {
        todo: 't1',
        actions: [
          { type: 'tool', name: 'read', args: { target: 'e4' } },
          { type: 'tool', name: 'click', args: { target: 'e5' } },
        ],
      },
      { todo: 't2', last: true, actions: [{ type: 'narrate', text: 'Done.' }] },
    ]);
    const seen: string[] = [];
    plan.on('turn-end', ({ observations }) => seen.push(...observations.map((observation) => observation.summary)));
    const result = await runWebAgent({ plan, task: 'Read the article to me', tools: { read, click }, maxTurnSlack: 0 });
    expect(seen[0]).toContain('end'); // not clipped at 160 characters
    expect(seen[0]?.length).toBeGreaterThan(200);
    expect(result.todos.map((todo) => todo.status)).toEqual(['completed', 'completed']);
  });
});
