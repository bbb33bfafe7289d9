import { expect, it } from 'vitest';
import { createLLMRouter } from '../../src/llm/provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import type { ApprovalRequest } from '../../src/loop/action-policy.js';
import { Plan } from '../../src/plan.js';
import { runReadmeBlock } from '../helpers/readme-code.js';

// Runs the README's "Safety" example as written: a read tool runs unasked, the user allows the
// write and declines the irreversible one, which does not run.
it("runs the README's Safety example: asked before write and irreversible tools, only a yes runs them", async () => {
  const planner = createScriptedProvider([{ task_summary: 'Sign up', todos: [{ intent: 'fill', description: 'Fill in the newsletter form' }] }]);
  const model = createScriptedProvider([
    {
      todo: 't1',
      actions: [
        { type: 'tool', name: 'look', args: { plan: 'team' } },
        { type: 'tool', name: 'fill', args: { target: '#email', value: 'sam@example.com' } },
        { type: 'tool', name: 'subscribe', args: {} },
      ],
    },
    { todo: 't1', last: true, actions: [{ type: 'task_finish', summary: 'Filled in, not subscribed.' }] },
  ]);
  const plan = new Plan({ llm: createLLMRouter({ default: model, plan: planner }) });
  const ran: string[] = [];
  const asked: string[] = [];
  await runReadmeBlock('## Safety', {
    scope: {
      plan,
      task: 'Sign me up for the newsletter',
      priceOf: (name: string) => void ran.push(`look ${name}`),
      fillField: () => void ran.push('fill'),
      api: { subscribe: () => void ran.push('subscribe') },
      panel: {
        requestApproval: async (request: ApprovalRequest) => {
          asked.push(`${request.tool} ${request.risk}: ${request.detail}`);
          return { approved: request.risk !== 'irreversible' };
        },
      },
    },
    exports: [],
  });
  expect(ran).toEqual(['look team', 'fill']);
  expect(asked).toEqual(['fill write: type into a field #email sam@example.com', 'subscribe irreversible: subscribe to the newsletter']);
  expect(model.calls[1]?.messages.at(-1)?.content).toContain('subscribe was not run: the user declined.');
});
