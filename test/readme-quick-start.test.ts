import { expect, it } from 'vitest';
import type { Plan } from '../src/plan.js';
import type { RunResult } from '../src/loop/run-web-agent.js';
import { runReadmeBlock } from './helpers/readme-code.js';

// The README's first Quick start block runs as a new user pastes it: no model server, no key.
it('runs the Quick start as written, offline: it plans, navigates, narrates and finishes', async () => {
  const pages: string[] = [];
  const said: string[] = [];
  const { plan, result } = await runReadmeBlock<{ plan: Plan; result: RunResult }>('## Quick start', {
    scope: {
      history: { pushState: (_state: unknown, _title: string, path: string) => void pages.push(path) },
      console: { table: () => {}, log: (text: unknown) => void said.push(String(text)) },
    },
    exports: ['plan', 'result'],
  });
  expect(pages).toEqual(['/pricing']);
  expect(said).toContain('Three plans: Free, Team and Business.');
  expect(result.reason).toBe('last_turn');
  expect(plan.todos.list().map((todo) => [todo.id, todo.status])).toEqual([
    ['t1', 'completed'],
    ['t2', 'completed'],
  ]);
  expect(plan.summary).toBe('A look at the pricing page');
});
