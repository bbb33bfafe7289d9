// @vitest-environment happy-dom
/**
 * The seed 004 document's examples for Plan, todos, markdown and storage, as written there with
 * only the import path changed. (The model-calling examples live in test/planning.)
 */
import { describe, expect, it } from 'vitest';
import { Plan, type PlanConfig, type TaskPlan, type TodoItem } from 'planloop';

const llm = { generate: async () => ({ text: '{}' }) };

describe('seed 004 examples', () => {
  it('minimum setup and attachTo expose dddk.plan', async () => {
    const dddk: Record<string, unknown> = {};
    const plan = new Plan({
      llm, // single LLMProvider or LLMRouter (plan role used)
      agentName: 'YourAgent',
      appendSystemPrompt: `# Sitemap mental model
- /commercial — pricing & licensing
- /try — interactive demo
- /docs — API reference
`,
    });
    plan.attachTo(dddk); // exposes dddk.plan for host-wide access
    expect(dddk.plan).toBe(plan);
    const config: PlanConfig = { llm };
    const empty: TaskPlan = { summary: '', task_summary: '', todos: [] };
    expect(config.llm).toBe(llm);
    expect(empty.todos).toEqual([]);
  });

  it('the todos API', () => {
    const plan = new Plan({ llm });
    const created: TodoItem = plan.todos.create({ intent: 'navigate', description: 'Open the pricing page', expected_turn: 1 });
    const many: TodoItem[] = plan.todos.createMany([
      { intent: 'narrate', description: 'Explain the tiers', expected_turn: 2 },
      { intent: 'finish', description: 'Wrap up', expected_turn: 3 },
    ]);
    expect(plan.todos.list().length).toBe(3);
    expect(plan.todos.get(created.id)?.description).toBe('Open the pricing page');
    expect(plan.todos.edit(many[0]!.id, { description: 'Explain the three tiers' })?.description).toBe('Explain the three tiers');
    expect(plan.todos.delete(many[1]!.id)).toBe(true);
    plan.todos.reset(); // wipe + reseed
    expect(plan.todos.list()).toEqual([]);
  });

  it('the markdown API', () => {
    const plan = new Plan({ llm });
    const doc = plan.markdown.create({ title: 'Meeting notes', content: '# Agenda' });
    expect(plan.markdown.list()).toHaveLength(1);
    expect(plan.markdown.read(doc.id)?.content).toBe('# Agenda');
    expect(plan.markdown.edit(doc.id, { content: '# Agenda\n- pricing' })?.content).toContain('pricing');
    expect(plan.markdown.delete(doc.id)).toBe(true);
  });

  it('the storage adapter example persists across a reload', async () => {
    localStorage.clear();
    const make = () =>
      new Plan({
        llm,
        storage: {
          load: () => {
            const raw = localStorage.getItem('plan-snapshot');
            return raw ? JSON.parse(raw) : null;
          },
          save: (snap) => localStorage.setItem('plan-snapshot', JSON.stringify(snap)),
        },
      });
    const first = make();
    first.attachTo({});
    await first.ready;
    first.todos.create({ intent: 'narrate', description: 'Say hello' });
    await first.flush();
    const second = make();
    second.attachTo({});
    await second.ready;
    expect(second.todos.list()).toEqual(first.todos.list());
  });
});
