import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EnvelopeError, PlanloopError } from '../../src/errors.js';
import { createAnthropicProvider } from '../../src/llm/anthropic.js';
import { createFunctionProvider } from '../../src/llm/function-provider.js';
import { createLLMRouter, type LLMProvider } from '../../src/llm/provider.js';
import { createScriptedProvider, type ScriptedResponses } from '../../src/llm/scripted.js';
import { createActionGate } from '../../src/loop/action-gate.js';
import { playTurn, type PlayTurnInput } from '../../src/loop/play-turn.js';
import { resolveRunOptions, type RunOptions } from '../../src/loop/run-options.js';
import { runWebAgent } from '../../src/loop/run-web-agent.js';
import { TURN_INSTRUCTIONS, turnSystemPrompt } from '../../src/loop/turn-prompt.js';
import { Plan } from '../../src/plan.js';
import { createMemoryAdapter } from '../../src/storage/memory.js';
import type { PlanSnapshot } from '../../src/storage/snapshot.js';
import { sseEvent, startServer, writeSSE } from '../helpers/sse-server.js';

/** A plan with a summary, a task, two done todos, one in progress, three pending and a note, saved. */
async function startedPlan(options: { sync?: boolean } = {}) {
  const storage = createMemoryAdapter();
  // With sync on (a channel to nowhere) the plan keeps the per-item clocks tabs merge by.
  const plan = new Plan({ storage, ...(options.sync ? { sync: { key: 'tour', BroadcastChannel: null, storage: null, events: null, locks: null } } : {}) });
  await plan.ready;
  plan.setTaskPlan({
    task: 'Tour the pricing page',
    summary: 'A tour of pricing',
    todos: [
      { intent: 'navigate', description: 'Open pricing', check: { kind: 'none' }, status: 'completed' },
      { intent: 'narrate', description: 'Show the tiers', check: { kind: 'none' }, status: 'completed' },
      { intent: 'narrate', description: 'Compare plans', check: { kind: 'none' }, status: 'in_progress', expected_turn: 3 },
      { intent: 'click', description: 'Open the trial form' },
      { intent: 'fill', description: 'Fill the email', check: { kind: 'none' } },
      { intent: 'finish', description: 'Wrap up' },
    ],
  });
  plan.markdown.create({ title: 'Notes', content: '- three tiers' });
  await plan.flush();
  return { plan, storage };
}

const withoutClocks = (snapshot: PlanSnapshot | null) => (snapshot ? { ...snapshot, sync: undefined } : snapshot);
const lamport = (snapshot: PlanSnapshot | null) => Math.max(0, ...Object.values(snapshot?.sync?.seen ?? {}));

/** A turn of a run with these options (default tools: navigate and click), its own gate. */
function turnInput(plan: Plan, provider: LLMProvider, options: Omit<RunOptions, 'task'> = {}): PlayTurnInput {
  const config = resolveRunOptions({ task: 'go', tools: { navigate: () => 'ok', click: () => 'clicked' }, ...options });
  return { plan, provider, messages: [{ role: 'user', content: 'go' }], config, gate: createActionGate(plan, config), runId: 'r1', turn: 1 };
}

describe('a turn is a transaction', () => {
  it('a rejected turn that rewrote a todo (adding expected_turn) keeps the summary and task, in the plan and in storage', async () => {
    // Before the store: the rollback could not express the added field as an edit, fell back to
    // todos.reset(), and the plan took that for a host reset: summary and task were wiped, and saved.
    const storage = createMemoryAdapter();
    const badTurn = {
      turn_planning: { todo_id: 't1', does: 'Open pricing', is_last_turn: false },
      todo_adjust: { remove: [], replace: [{ id: 't2', description: 'Show the three tiers', expected_turn: 2 }] },
      actions: [{ type: 'narrate', text: 'Opening pricing.' }, { type: 'dance' }],
    };
    const plan = new Plan({
      storage,
      llm: createLLMRouter({
        default: createScriptedProvider([badTurn, badTurn]),
        plan: createScriptedProvider([
          {
            task_summary: 'A tour of pricing',
            todos: [
              { intent: 'navigate', description: 'Open pricing' },
              { intent: 'narrate', description: 'Show the tiers' },
            ],
          },
        ]),
      }),
    });
    await expect(runWebAgent({ plan, task: 'Tour pricing' })).rejects.toBeInstanceOf(EnvelopeError);
    expect(plan.summary).toBe('A tour of pricing');
    expect(plan.task).toBe('Tour pricing');
    expect(plan.todos.list().map((todo) => [todo.id, todo.status, todo.expected_turn])).toEqual([
      ['t1', 'pending', undefined],
      ['t2', 'pending', undefined],
    ]);
    await plan.flush();
    expect(storage.snapshot).toMatchObject({ taskSummary: 'A tour of pricing', task: 'Tour pricing' });
  });

  it('property: a reply that fails at any point leaves the plan and storage exactly as before the turn', async () => {
    const idArb = fc.constantFrom('t1', 't2', 't3', 't4', 't5', 't6', 't7', 't99');
    const replaceArb = fc.record(
      {
        id: fc.constantFrom('t3', 't4', 't5', 't6'),
        description: fc.string({ minLength: 1, maxLength: 20 }),
        intent: fc.constantFrom('click', 'narrate'),
        expected_turn: fc.integer({ min: 1, max: 9 }),
      },
      { requiredKeys: ['id'] },
    );
    const actionArb = fc.oneof(
      fc.record({ type: fc.constant('narrate'), text: fc.string({ minLength: 1, maxLength: 30 }) }),
      fc.record({
        type: fc.constant('tool'),
        name: fc.constantFrom('navigate', 'click', 'missing'),
        args: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 })),
      }),
    );
    // How the reply goes wrong: a bad action somewhere, an insert attempt, a new id, cut off, too many actions.
    const failureArb = fc.oneof(
      fc.record({ kind: fc.constant('bad-action' as const), at: fc.nat(6) }),
      fc.constant({ kind: 'insert' as const }),
      fc.constant({ kind: 'new-id' as const }),
      fc.record({ kind: fc.constant('cut' as const), at: fc.double({ min: 0.05, max: 0.95, noNaN: true }) }),
      fc.constant({ kind: 'too-many' as const }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          todo: idArb,
          remove: fc.uniqueArray(idArb, { maxLength: 4 }),
          replace: fc.array(replaceArb, { maxLength: 3 }),
          actions: fc.array(actionArb, { maxLength: 6 }),
          failure: failureArb,
          chunkSize: fc.integer({ min: 1, max: 40 }),
        }),
        async ({ todo, remove, replace, actions, failure, chunkSize }) => {
          const { plan, storage } = await startedPlan({ sync: true });
          const before = plan.snapshot();
          expect(before.sync?.todos.t3).toBeDefined();
          const stored = storage.snapshot;
          const adjust: Record<string, unknown> = { remove, replace };
          let list: unknown[] = [...actions];
          if (failure.kind === 'bad-action') list.splice(Math.min(failure.at, list.length), 0, { type: 'bogus' });
          if (failure.kind === 'insert') adjust.insert = [{ description: 'extra' }];
          if (failure.kind === 'new-id') adjust.replace = [...replace, { id: 't42', description: 'new' }];
          if (failure.kind === 'too-many') list = Array.from({ length: 25 }, () => ({ type: 'narrate', text: 'hi' }));
          let text = JSON.stringify({ turn_planning: { todo_id: todo, does: 'x', is_last_turn: false }, todo_adjust: adjust, actions: list });
          if (failure.kind === 'cut') text = text.slice(0, Math.floor(text.length * failure.at));
          const outcome = await playTurn(turnInput(plan, createScriptedProvider(text, { chunkSize })));
          expect(outcome.ok).toBe(false);
          // Everything but the sync clocks: a rollback is stamped as a new change (so that other
          // tabs take the restored values), which moves the clocks on by design.
          expect(withoutClocks(plan.snapshot())).toEqual(withoutClocks(before));
          expect(lamport(plan.snapshot())).toBeGreaterThanOrEqual(lamport(before));
          await plan.flush();
          expect(withoutClocks(storage.snapshot)).toEqual(withoutClocks(stored));
        },
      ),
      { numRuns: 1000 },
    );
  }, 60_000);

  it('a rollback keeps what a tool changed in the plan during the turn', async () => {
    const { plan } = await startedPlan();
    const reply = JSON.stringify({
      turn_planning: { todo_id: 't4', does: 'x' },
      todo_adjust: { remove: ['t3'] },
      actions: [{ type: 'tool', name: 'note', args: {} }, { type: 'bogus' }],
    });
    const input = turnInput(plan, createScriptedProvider(reply, { chunkSize: 5 }), {
      // biome-ignore lint/correctness/noEmptyPattern: the tool takes no arguments; the context is the second parameter
      tools: { note: ({}, { plan: target }) => target.markdown.create({ title: 'Seen', content: 'pricing' }) },
    });
    const outcome = await playTurn(input);
    expect(outcome.ok).toBe(false);
    expect(plan.todos.get('t3')?.status).toBe('in_progress');
    expect(plan.markdown.list().map((doc) => doc.title)).toEqual(['Notes', 'Seen']);
  });
});

describe('a turn is bounded', () => {
  it('stops a reply whose JSON never closes at maxChars, rolls back, and says so', async () => {
    const { plan } = await startedPlan();
    const before = plan.snapshot();
    let sent = 0;
    const endless = createFunctionProvider(async function* () {
      yield '{"turn_planning":{"todo_id":"t4","does":"x"},"todo_adjust":{"remove":["t3"]},"actions":[{"type":"narrate","text":"';
      for (;;) {
        sent += 1000;
        yield 'a'.repeat(1000);
      }
    });
    const outcome = await playTurn(turnInput(plan, endless, { model: { maxChars: 50_000 } }));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatchObject({ code: 'output_too_long' });
    expect(sent).toBeLessThan(60_000); // stopped reading, not buffered without bound
    expect(plan.snapshot()).toEqual(before);
  });

  it('stops a reply that trickles in slower than timeoutMs, rolls back, and says so (timing guard)', async () => {
    const { plan } = await startedPlan();
    const before = plan.snapshot();
    const slow = createScriptedProvider(
      { turn_planning: { todo_id: 't4', does: 'x' }, todo_adjust: { remove: ['t3'] }, actions: [] },
      { chunkSize: 1, delayMs: 20 },
    );
    const started = Date.now();
    const outcome = await playTurn(turnInput(plan, slow, { model: { timeoutMs: 150 } }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error).toBeInstanceOf(PlanloopError);
      expect(outcome.error).toMatchObject({ code: 'timeout' });
      expect(outcome.error.message).toMatch(/took longer than/);
    }
    expect(plan.snapshot()).toEqual(before);
  });

  it('refuses an envelope with more actions than maxActions and runs none past the limit', async () => {
    const { plan } = await startedPlan();
    const ran: number[] = [];
    const reply = JSON.stringify({
      turn_planning: { todo_id: 't4', does: 'x' },
      todo_adjust: { remove: [] },
      actions: Array.from({ length: 10_000 }, (_, i) => ({ type: 'tool', name: 'count', args: { i } })),
    });
    const input = turnInput(plan, createScriptedProvider(reply, { chunkSize: 200 }), {
      bounds: { turnActions: 5 },
      tools: { count: ({ i }) => ran.push(Number(i)) },
    });
    const outcome = await playTurn(input);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toMatch(/more than 5 actions/);
    expect(ran.length).toBeLessThanOrEqual(5);
  });

  it('runWebAgent feeds a limit back once, then goes on when the retry is fine', async () => {
    const good = {
      turn_planning: { todo_id: 't1', does: 'x', is_last_turn: true },
      todo_adjust: { remove: [] },
      actions: [{ type: 'task_finish', summary: 'done' }],
    };
    const responses: ScriptedResponses = [{ ...good, actions: Array.from({ length: 30 }, () => ({ type: 'narrate', text: 'hi' })) }, good];
    const model = createScriptedProvider(responses);
    const plan = new Plan({ llm: createLLMRouter({ default: model, plan: createScriptedProvider([{ task_summary: 'x', todos: ['Say hi'] }]) }) });
    const result = await runWebAgent({ plan, task: 'hi', url: false });
    expect(result.reason).toBe('task_finish');
    expect(model.calls[1]?.messages.at(-1)?.content).toMatch(/more than 20 actions/);
  });
});

describe('a turn speaks as it streams', () => {
  const statuses = (plan: Plan) =>
    plan.todos
      .list()
      .map((todo) => `${todo.id}:${todo.status}`)
      .join(' ');

  it('applies the compact plan change before the first words, then streams each narrate after the action before it finished', async () => {
    const { plan } = await startedPlan();
    const reply = JSON.stringify({
      todo: 't5',
      actions: [
        { type: 'narrate', target: '#form', text: 'First, the trial form: it asks for three things.' },
        { type: 'narrate', target: '#email', text: 'Then your work email goes here.' },
      ],
    });
    const log: string[] = [];
    let release = () => {};
    const input = turnInput(plan, createScriptedProvider(reply, { chunkSize: 6 }), {
      user: {
        narrateDelta: (delta, target, { index, text }) => {
          if (log.length === 0) log.push(`plan ${statuses(plan)}`);
          log.push(`delta ${index} ${target} ${JSON.stringify(delta)} -> ${text.length}`);
        },
        narrate: async (text, target) => {
          log.push(`narrate ${target} ${text}`);
          if (target === '#form') await new Promise<void>((resolve) => (release = resolve)); // the user reads
        },
      },
    });
    const turn = playTurn(input);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The second narrate's words wait while the first is on screen.
    expect(log.filter((line) => line.startsWith('delta 1'))).toEqual([]);
    expect(log).toContain('narrate #form First, the trial form: it asks for three things.');
    release();
    const outcome = await turn;
    expect(outcome.ok).toBe(true);
    expect(log[0]).toBe('plan t1:completed t2:completed t3:completed t4:completed t5:in_progress t6:pending');
    const spoken = (index: number) =>
      log
        .filter((line) => line.startsWith(`delta ${index}`))
        .map((line) => JSON.parse(line.slice(line.indexOf('"'), line.lastIndexOf(' ->'))))
        .join('');
    expect(spoken(0)).toBe('First, the trial form: it asks for three things.');
    expect(spoken(1)).toBe('Then your work email goes here.');
    expect(log.filter((line) => line.startsWith('delta 0')).length).toBeGreaterThan(3); // streamed in pieces, not at once
    expect(log.at(-1)).toBe('narrate #email Then your work email goes here.');
    expect(log.findIndex((line) => line.startsWith('delta 1'))).toBeGreaterThan(log.indexOf('narrate #form First, the trial form: it asks for three things.'));
  });

  it('a turn refused after speech started: the plan rolls back, the cut-off words are reported, no onNarrate for them', async () => {
    const { plan } = await startedPlan();
    const before = plan.snapshot();
    const reply = '{"todo":"t5","actions":[{"type":"narrate","target":"#form","text":"Here is the trial form, where you';
    const said: string[] = [];
    const narrated: string[] = [];
    const input = turnInput(plan, createScriptedProvider(reply, { chunkSize: 8 }), {
      user: { narrateDelta: (delta) => void said.push(delta), narrate: (text) => void narrated.push(text) },
    });
    const outcome = await playTurn(input);
    expect(outcome.ok).toBe(false);
    expect(said.join('')).toBe('Here is the trial form, where you');
    expect(narrated).toEqual([]);
    expect(plan.snapshot()).toEqual(before);
    if (!outcome.ok) {
      expect(outcome.error.message).toMatch(/cut off/);
      expect(outcome.done).toEqual(['narrate "Here is the trial form, where you" (cut off)']);
    }
  });

  it('a failing onNarrateDelta becomes an observation; the turn goes on', async () => {
    const { plan } = await startedPlan();
    const narrated: string[] = [];
    const input = turnInput(
      plan,
      createScriptedProvider(
        {
          todo: 't4',
          actions: [
            { type: 'narrate', text: 'Hello there.' },
            { type: 'tool', name: 'click', args: {} },
          ],
        },
        { chunkSize: 4 },
      ),
      {
        tools: { click: () => 'clicked' },
        user: {
          narrateDelta: () => {
            throw new Error('bubble gone');
          },
          narrate: (text) => void narrated.push(text),
        },
      },
    );
    const outcome = await playTurn(input);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.observations.map((observation) => observation.summary)).toEqual(['narrate failed: bubble gone', 'click: clicked']);
    expect(narrated).toEqual(['Hello there.']);
  });
});

describe('a turn sends the schema only where the backend needs it', () => {
  it('an Anthropic turn carries one line about the JSON, not the schema again; a replaced prompt gets the schema as a type', async () => {
    const reply = '{"todo":"t4","actions":[]}';
    const e = (type: string, data: Record<string, unknown>) => sseEvent({ type, ...data }, type);
    const server = await startServer((_req, res) =>
      writeSSE(res, [
        e('message_start', { message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 1, output_tokens: 1 } } }),
        e('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        e('content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply } }),
        e('content_block_stop', { index: 0 }),
        e('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }),
        e('message_stop', {}),
      ]),
    );
    try {
      const claude = createAnthropicProvider({ apiKey: 'k', model: 'm', maxTokens: 100, baseURL: server.url });
      for (const system of [turnSystemPrompt({ systemPrompt: `${TURN_INSTRUCTIONS}\nBe brief.` }), 'You guide visitors. Answer in JSON.']) {
        const { plan } = await startedPlan();
        const input = turnInput(plan, claude);
        input.messages = [
          { role: 'system', content: system },
          { role: 'user', content: '<plan>\nt3 Compare plans\n</plan>' },
        ];
        expect((await playTurn(input)).ok).toBe(true);
      }
      const [taught, replaced] = server.requests.map((request) => (request.json as { system: string }).system);
      expect(taught).toBe(`${TURN_INSTRUCTIONS}\nBe brief.\n\nReply with the JSON object described above and nothing else.`);
      expect(replaced).toContain('of this type: {todo:string,last?:boolean,');
      expect(replaced).not.toContain('"properties"');
    } finally {
      await server.close();
    }
  });
});

describe('each turn sees the page', () => {
  const finishTurn = {
    turn_planning: { todo_id: 't1', does: 'x', is_last_turn: true },
    todo_adjust: { remove: [] },
    actions: [
      { type: 'narrate', text: 'Hi.' },
      { type: 'task_finish', summary: 'done' },
    ],
  };
  const planned = () => createScriptedProvider([{ task_summary: 'x', todos: ['Say hi'] }]);

  it('puts what observe returns under Page, cut to its budget, and passes the budget to it', async () => {
    const model = createScriptedProvider([finishTurn]);
    const plan = new Plan({ llm: createLLMRouter({ default: model, plan: planned() }) });
    const budgets: number[] = [];
    await runWebAgent({
      plan,
      task: 'hi',
      url: () => '/pricing?tier=team',
      observeBudget: 10,
      observe: ({ maxTokens }) => {
        budgets.push(maxTokens);
        return `[e1] button "Start"\n${'x'.repeat(500)}`;
      },
    });
    const prompt = model.calls[0]?.messages.at(-1)?.content ?? '';
    expect(budgets).toEqual([10]);
    expect(prompt).toContain('URL: /pricing?tier=team');
    expect(prompt).toMatch(/Page:\n\[e1\] button "Start"\nx+\n… \(cut to the budget\)\n<\/data>$/);
    expect(prompt.length).toBeLessThan(1000);
  });

  it('a failing observe becomes a line the model reads, and the turn goes on', async () => {
    const model = createScriptedProvider([finishTurn]);
    const plan = new Plan({ llm: createLLMRouter({ default: model, plan: planned() }) });
    const result = await runWebAgent({
      plan,
      task: 'hi',
      url: false,
      observe: () => {
        throw new Error('the page is gone');
      },
    });
    expect(result.reason).toBe('task_finish');
    const prompt = model.calls[0]?.messages.at(-1)?.content ?? '';
    expect(prompt).toContain('(the page could not be read: the page is gone)');
    expect(prompt).not.toContain('URL:');
  });
});

describe('a turn with a gate of its own (a hand-written loop), without an approval hook', () => {
  it('refuses an irreversible tool as a run without a hook does, and reports it to onAction and the observations', async () => {
    const { plan } = await startedPlan();
    const ran: string[] = [];
    const decisions: string[] = [];
    const provider = createScriptedProvider([
      {
        todo: 't4',
        actions: [
          { type: 'tool', name: 'buy', args: {} },
          { type: 'tool', name: 'click', args: { target: '#x' } },
        ],
      },
    ]);
    const outcome = await playTurn({
      ...turnInput(plan, provider, { tools: { buy: { risk: 'irreversible', run: () => void ran.push('buy') }, click: () => void ran.push('click') } }),
      onAction: (action, _index, { decision }) => decisions.push(`${action.type === 'tool' ? action.name : action.type} ${decision}`),
    });
    expect(ran).toEqual(['click']);
    expect(decisions).toEqual(['buy refused', 'click run']);
    expect(outcome.ok && outcome.refusals).toBe(1);
    expect(outcome.observations[0]).toMatchObject({ kind: 'refused', name: 'buy' });
  });
});
