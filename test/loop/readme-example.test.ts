// @vitest-environment happy-dom
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { URL as NodeURL, fileURLToPath } from 'node:url';
import { afterEach, expect, it, vi } from 'vitest';
import { TURN_INSTRUCTIONS } from '../../src/loop/turn-prompt.js';
import { sseEvent, startServer, writeSSE, type TestServer } from '../helpers/sse-server.js';

// Runs the README's "wire planloop into your own in-page agent" example as written,
// against a local server (happy-dom's URL is not Node's, hence NodeURL) speaking the OpenAI Chat Completions stream.
const readmePath = fileURLToPath(new NodeURL('../../README.md', import.meta.url));
const module = fileURLToPath(new NodeURL('./readme-example.tmp.ts', import.meta.url));
let server: TestServer | undefined;
afterEach(async () => {
  rmSync(module, { force: true });
  await server?.close();
});

const PLAN = {
  task_summary: 'A look at the prices',
  todos: [
    { intent: 'navigate', description: 'Open pricing' },
    { intent: 'click', description: 'Open a tier' },
  ],
};
const TURNS = [
  {
    turn_planning: { todo_id: 't1', does: 'Open pricing', is_last_turn: false },
    todo_adjust: {},
    actions: [
      { type: 'tool', name: 'navigate', args: { path: '/pricing' } },
      { type: 'narrate', text: 'Our prices.', target: '#tiers' },
    ],
  },
  // The click names the Team button by the ref the page outline gave it (filled in from the prompt).
  {
    turn_planning: { todo_id: 't2', does: 'Open a tier', is_last_turn: true },
    todo_adjust: { remove: ['t1'] },
    actions: [
      { type: 'tool', name: 'click', args: { target: 'REF' } },
      { type: 'task_finish', summary: 'Shown.' },
    ],
  },
];

it('runs as written', async () => {
  let turn = 0;
  const prompts: string[] = [];
  server = await startServer(async (request, response) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST' };
    if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
    const body = request.json as { messages: Array<{ content: string }> };
    const isTurn = body.messages[0]?.content.startsWith(TURN_INSTRUCTIONS);
    if (isTurn) prompts.push(body.messages[1]?.content ?? '');
    const ref = /\[(e\d+)\] button "Team"/.exec(body.messages[1]?.content ?? '')?.[1] ?? 'missing';
    const answer = JSON.stringify(isTurn ? TURNS[turn++] : PLAN).replace('"REF"', JSON.stringify(ref));
    // No [DONE]: the client then reads to the end instead of cancelling a body happy-dom is still
    // closing (happy-dom's fetch throws "Controller is already closed" there; browsers do not).
    const pieces = answer.match(/.{1,12}/gs) ?? [];
    await writeSSE(
      response,
      [
        ...pieces.map((content) => sseEvent({ choices: [{ index: 0, delta: { content } }] })),
        sseEvent({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      ],
      { headers: cors },
    );
  });
  const code =
    readFileSync(readmePath, 'utf8')
      .split('## The turn loop')[1]
      ?.match(/```ts\n([\s\S]*?)```/)?.[1] ?? '';
  expect(code).toContain('runWebAgent');
  writeFileSync(module, `${code.replace('http://localhost:11434/v1', `${server.url}/v1`)}\nexport {};\n`);

  document.body.innerHTML = '<p id="bubble"></p><button id="stop">Stop</button><section id="tiers"><button id="team">Team</button></section>';
  let clicked = 0;
  document.querySelector('#team')?.addEventListener('click', () => clicked++);
  (globalThis as { confirm: (text: string) => boolean }).confirm = () => true;
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await import(/* @vite-ignore */ module);
  const logged = log.mock.calls.slice();
  log.mockRestore();

  expect(logged).toEqual([['task_finish', expect.any(Array)]]);
  expect(turn).toBe(2);
  expect(location.pathname).toBe('/pricing');
  expect(document.querySelector('#bubble')?.textContent).toBe('Our prices.');
  expect(clicked).toBe(1);
  // Each turn's prompt carried the page outline, with a ref for the Team button.
  expect(prompts[1]).toMatch(/<data>\n[\s\S]*Page:\n[\s\S]*\[e\d+\] button "Team"\n<\/data>/);
  expect(prompts[0]).toContain('URL: /');
  const stored = JSON.parse(localStorage.getItem('guide-plan') ?? '{}') as { todos?: Array<{ status: string }> };
  expect(stored.todos?.map((todo) => todo.status)).toEqual(['completed', 'completed']);
});

it("runs the README's quick start with a real model as written", async () => {
  // The Quick start's second block: the first runs offline (test/readme-quick-start.test.ts).
  const section = readFileSync(readmePath, 'utf8').split('## Quick start')[1]?.split('\n## ')[0] ?? '';
  const quickStart = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!).find((code) => code.includes('localhost:11434')) ?? '';
  expect(quickStart).toContain('runWebAgent');
  const turns = [
    {
      turn_planning: { todo_id: 't1', does: 'Open pricing', is_last_turn: false },
      todo_adjust: {},
      actions: [{ type: 'tool', name: 'navigate', args: { path: '/pricing' } }],
    },
    {
      turn_planning: { todo_id: 't2', does: 'Say it', is_last_turn: true },
      todo_adjust: { remove: ['t1'] },
      actions: [
        { type: 'narrate', text: 'Three plans.' },
        { type: 'task_finish', summary: 'Done.' },
      ],
    },
  ];
  let turn = 0;
  server = await startServer(async (request, response) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST' };
    if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
    const body = request.json as { messages: Array<{ content: string }> };
    const answer = JSON.stringify(body.messages[0]?.content.startsWith(TURN_INSTRUCTIONS) ? turns[turn++] : PLAN);
    await writeSSE(
      response,
      [sseEvent({ choices: [{ index: 0, delta: { content: answer } }] }), sseEvent({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })],
      { headers: cors },
    );
  });
  localStorage.clear();
  writeFileSync(module, `${quickStart.replace('http://localhost:11434/v1', `${server.url}/v1`)}\nexport {};\n`);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const table = vi.spyOn(console, 'table').mockImplementation(() => {});
  await import(/* @vite-ignore */ `${module}?quick-start`);
  const said = log.mock.calls.slice();
  log.mockRestore();
  table.mockRestore();
  expect(turn).toBe(2);
  expect(location.pathname).toBe('/pricing');
  expect(said).toEqual([['Three plans.']]);
  expect(JSON.parse(localStorage.getItem('tour') ?? '{}').todos).toHaveLength(2);
});
