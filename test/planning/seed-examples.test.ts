// The examples of seed 004 that call the model, run as written against the scripted provider.
// DotDotDuck is the seed's host; a minimal stand-in plays it here (a planner hook, an error event).
import { Plan, PlannerOutputError, type PlanConfig, type TaskPlan } from 'planloop';
import { createScriptedProvider, type ScriptedResponder } from 'planloop/testing';
import { describe, expect, test } from 'vitest';
import type { PlanInput } from '../../src/planning/make-todos.js';
import { readPlannerMessage } from '../../demo/offline-model/prompt-reading.js';

/** The seed's host, reduced to what the examples touch: `webAgent.planner` and error events. */
class DotDotDuck {
  plan?: Plan;
  readonly events: Array<{ kind: 'plan' | 'error'; summary?: string; error?: unknown }> = [];
  constructor(readonly config: { webAgent: { planner?: (input: PlanInput) => Promise<TaskPlan>; announcePlan?: boolean } }) {}

  /** Runs the pre-loop planning pass; fail-loud: a planner error becomes an error event and the run halts. */
  async run(task: string): Promise<TaskPlan | null> {
    try {
      const taskPlan = await this.config.webAgent.planner!({ task });
      this.events.push({ kind: 'plan', summary: taskPlan.summary });
      return taskPlan;
    } catch (error) {
      this.events.push({ kind: 'error', error });
      return null;
    }
  }
}

/** A tour planner a scripted model can be: reads the task from the prompt and plans a visit. */
const tourModel: ScriptedResponder = (request) => {
  const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
  const { task } = readPlannerMessage(user);
  const page = /pricing|commercial|price/i.test(task ?? '') ? '/commercial' : '/try';
  return {
    task_summary: `I'll introduce ${page}.`,
    todos: [
      { intent: 'navigate', description: `Open ${page}`, expected_turn: 1 },
      { intent: 'narrate', description: 'Explain what the page offers', expected_turn: 2 },
      { intent: 'narrate', description: 'Point out the main call to action', expected_turn: 3 },
      { intent: 'finish', description: 'Wrap up the tour', expected_turn: 4 },
    ],
  };
};

describe('seed 004 examples', () => {
  test('minimum setup: Plan with a playbook, attachTo, and the webagent planner wiring', async () => {
    const llm = createScriptedProvider(tourModel, { chunkSize: 8 });
    const dddk = new DotDotDuck({ webAgent: {} });

    const plan = new Plan({
      llm, // single LLMProvider or LLMRouter (plan role used)
      agentName: 'YourAgent',
      appendSystemPrompt: `# Sitemap mental model
- /commercial — pricing & licensing
- /try — interactive demo
- /docs — API reference

# Tour playbook
"Introduce X page" = navigate (if needed) + 2-4 narrate todos + finish.
`,
    });

    plan.attachTo(dddk); // exposes dddk.plan for host-wide access

    // Wire into the webagent so each run starts with a planning pass:
    dddk.config.webAgent = {
      planner: (input) => plan.makeTodos(input),
      announcePlan: true, // stream task_summary + wait for user Space
    };

    expect(dddk.plan).toBe(plan);
    const taskPlan = await dddk.run('Introduce the pricing page');
    expect(taskPlan?.summary).toBe("I'll introduce /commercial.");
    expect(taskPlan?.todos.map((todo) => todo.id)).toEqual(['t1', 't2', 't3', 't4']);
    expect(dddk.events).toEqual([{ kind: 'plan', summary: "I'll introduce /commercial." }]);
    // The strategic context went into the one planning call, once.
    const system = llm.calls[0]!.messages[0]!.content;
    expect(system).toContain('You are YourAgent');
    expect(system.split('# Tour playbook').length - 1).toBe(1);
  });

  test('makeTodos(input): the returned todos are also seeded into plan.todos', async () => {
    const llm = createScriptedProvider(tourModel);
    const config: PlanConfig = { llm, agentName: 'YourAgent' };
    const plan = new Plan(config);
    const input: PlanInput = { task: 'Show me the interactive demo', locale: 'en-US', sitemap: [{ path: '/try', title: 'Try it' }] };

    const taskPlan: TaskPlan = await plan.makeTodos(input);

    expect(taskPlan.summary).toBe("I'll introduce /try.");
    expect(taskPlan.todos[0]).toEqual({ id: 't1', intent: 'navigate', description: 'Open /try', status: 'pending', expected_turn: 1 });
    expect(plan.todos.list()).toEqual(taskPlan.todos);
  });

  test('failure mode: unparseable planner output makes makeTodos throw, and the webagent halts with an error event', async () => {
    const llm = createScriptedProvider('Sure! I would first open the pricing page and then');
    const plan = new Plan({ llm });
    const dddk = new DotDotDuck({ webAgent: { planner: (input) => plan.makeTodos(input) } });

    expect(await dddk.run('Introduce the pricing page')).toBeNull();
    expect(dddk.events).toHaveLength(1);
    expect(dddk.events[0]?.kind).toBe('error');
    expect(dddk.events[0]?.error).toBeInstanceOf(PlannerOutputError);
    expect(plan.todos.list()).toEqual([]);
  });

  test('editWithInstruction: the model rewrites against the current content and returns the new doc', async () => {
    const llm = createScriptedProvider((request) => {
      const user = request.messages.at(-1)?.content ?? '';
      expect(user).toContain('shorten the third paragraph to one sentence');
      return { content: 'Intro.\n\nDetails.\n\nThe third paragraph, short.\n' };
    });
    const plan = new Plan({ llm });
    const doc = plan.markdown.create({ title: 'Meeting notes', content: 'Intro.\n\nDetails.\n\nThe third paragraph. It rambles. On and on.\n' });

    const updated = await plan.markdown.editWithInstruction(doc.id, 'shorten the third paragraph to one sentence');

    expect(updated?.content).toBe('Intro.\n\nDetails.\n\nThe third paragraph, short.\n');
    expect(updated?.updatedAt).toBeGreaterThan(doc.updatedAt);
    expect(plan.markdown.read(doc.id)).toEqual(updated);
  });
});
