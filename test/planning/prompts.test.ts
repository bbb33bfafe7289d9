import { describe, expect, test } from 'vitest';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import { Plan, type PlanConfig } from '../../src/plan.js';
import type { PlanInput } from '../../src/planning/make-todos.js';
import { PLAN_OUTPUT_SCHEMA, plannerSystemPrompt } from '../../src/planning/prompts.js';

const ANSWER = { task_summary: 'Tour', todos: [{ intent: 'finish', description: 'Done' }] };

/** Runs makeTodos against a scripted model and returns the request it received. */
async function request(input: PlanInput, config: Omit<PlanConfig, 'llm'> = {}, answers: unknown[] = [ANSWER]) {
  const llm = createScriptedProvider(answers as never);
  await new Plan({ ...config, llm }).makeTodos(input);
  const first = llm.calls[0]!;
  return {
    calls: llm.calls,
    system: first.messages.find((message) => message.role === 'system')?.content ?? '',
    user: first.messages.find((message) => message.role === 'user')?.content ?? '',
    first,
  };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the planner prompt', () => {
  test('one system and one user message, with the plan schema', async () => {
    const { first } = await request({ task: 'Show me the prices' });
    expect(first.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(first.jsonSchema).toEqual(PLAN_OUTPUT_SCHEMA);
    expect(Object.keys((PLAN_OUTPUT_SCHEMA.properties as object) ?? {})[0]).toBe('task_summary');
  });

  test('introduces the agent by name and asks for the plan shape and the intents', async () => {
    const { system } = await request({ task: 'Tour' }, { agentName: 'Guide' });
    expect(system).toMatch(/^You are Guide,/);
    for (const word of ['task_summary', 'todos', 'intent', 'description', 'expected_turn', 'navigate', 'narrate', 'click', 'fill', 'ask', 'finish']) {
      expect(system).toContain(word);
    }
    expect(system).toMatch(/user's language/);
    expect(plannerSystemPrompt()).toMatch(/^You are an assistant/);
  });

  test('the built-in prompt stays short', () => {
    expect(plannerSystemPrompt('Guide').split(/\s+/).length).toBeLessThan(170);
  });

  test('appendSystemPrompt is appended exactly once, also on a retry', async () => {
    const append = '# Tour playbook\n"Introduce X page" = navigate + 2-4 narrate todos + finish.';
    const { calls, system } = await request({ task: 'Tour' }, { appendSystemPrompt: append }, ['nonsense', ANSWER]);
    expect(system.endsWith(`\n\n${append}`)).toBe(true);
    for (const call of calls) {
      const all = call.messages.map((message) => message.content).join('\n');
      expect(count(all, '# Tour playbook')).toBe(1);
    }
  });

  test('systemPrompt replaces the built-in prompt; appendSystemPrompt still follows it', async () => {
    const { system } = await request({ task: 'Tour' }, { systemPrompt: 'You plan in JSON.', appendSystemPrompt: 'Extra rules.', agentName: 'Guide' });
    expect(system).toBe('You plan in JSON.\n\nExtra rules.');
  });

  test('the user message holds the task line and the sitemap block, one line per page', async () => {
    const { user } = await request({
      task: 'Show me\nthe prices',
      sitemap: [
        { path: '/pricing', title: 'Pricing', description: 'plans and prices' },
        { path: '/try', title: 'Try it' },
        { path: '/docs', description: 'API reference' },
        { path: '/about' },
      ],
    });
    const lines = user.split('\n');
    expect(lines).toContain('Task: Show me the prices');
    const start = lines.indexOf('Sitemap:');
    expect(lines.slice(start, start + 5)).toEqual([
      'Sitemap:',
      '- /pricing — Pricing: plans and prices',
      '- /try — Try it',
      '- /docs: API reference',
      '- /about',
    ]);
  });

  test('locale, brand, persona, selection and hostContext are in the user message', async () => {
    const { user } = await request({
      task: 'Zeig mir die Preise',
      locale: 'de-DE',
      brand: { name: 'Acme', voice: 'warm and brief' },
      persona: { role: 'buyer', tone: 'formal' },
      selection: { text: 'Team plan — $20', selector: '#team', url: 'https://acme.test/pricing' },
      hostContext: 'The user is logged in.\nTrial ends tomorrow.',
    });
    expect(user).toContain('Locale: de-DE — German (Germany)');
    expect(user).toContain('Brand: Acme, voice: warm and brief');
    expect(user).toContain('Persona: role: buyer, tone: formal');
    expect(user).toContain('Selected on the page: "Team plan — $20" (element: #team, page: https://acme.test/pricing)');
    expect(user).toContain('Context:\nThe user is logged in.\nTrial ends tomorrow.');
  });

  test('string forms of sitemap, brand, persona and selection are sent as given', async () => {
    const { user } = await request({
      task: 'Tour',
      sitemap: '/pricing is the price list; /try is the demo',
      brand: 'Acme, friendly',
      persona: 'A developer in a hurry',
      selection: 'Team plan',
    });
    expect(user).toContain('Sitemap:\n/pricing is the price list; /try is the demo');
    expect(user).toContain('Brand: Acme, friendly');
    expect(user).toContain('Persona: A developer in a hurry');
    expect(user).toContain('Selected on the page: "Team plan"');
  });

  test('absent fields leave no trace, and a long selection is clipped', async () => {
    const { user } = await request({ task: 'Tour' });
    expect(user).toBe('Task: Tour');
    const long = await request({ task: 'Tour', selection: 'x'.repeat(10_000) });
    expect(long.user.length).toBeLessThan(2100);
  });
});

describe('plannerUserMessage on long host input', () => {
  test('keeps the task on one line in linear time, however many spaces it holds', async () => {
    const { plannerUserMessage } = await import('../../src/planning/prompts.js');
    const task = `${'word '.repeat(10)}${' '.repeat(400_000)}x\n\ny`;
    const started = performance.now();
    const message = plannerUserMessage({ task });
    // A guard against backtracking, not a speed test: about a minute with the backtracking pattern
    // (3.6 s at 100 KB), a few ms now.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(message.split('\n')[0]?.endsWith('x y')).toBe(true);
  });
});
