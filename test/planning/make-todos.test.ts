import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { AbortError, type PlanloopError, ValidationError } from '../../src/errors.js';
import { PlannerOutputError, ProviderError } from '../../src/model-errors.js';
import type { PlanEvents } from '../../src/events.js';
import type { LLMChunk, LLMProvider, LLMRequest } from '../../src/llm/provider.js';
import { createScriptedProvider, type ScriptedResponses } from '../../src/llm/scripted.js';
import { Plan } from '../../src/plan.js';

const GOOD = {
  task_summary: 'I will show you the pricing page.',
  todos: [
    { intent: 'navigate', description: 'Open the pricing page', expected_turn: 1 },
    { intent: 'narrate', description: 'Explain the three tiers', expected_turn: 2 },
    { intent: 'finish', description: 'Wrap up', expected_turn: 3 },
  ],
};
const GOOD_TEXT = JSON.stringify(GOOD);

function setup(responses: ScriptedResponses, options: { chunkSize?: number; delayMs?: number } = {}) {
  const llm = createScriptedProvider(responses, options);
  const plan = new Plan({ llm, agentName: 'Guide' });
  const events: Array<{ name: string; payload: unknown }> = [];
  plan.onAny((name, payload) => events.push({ name, payload }));
  const named = <K extends keyof PlanEvents & string>(name: K) => events.filter((event) => event.name === name).map((event) => event.payload as PlanEvents[K]);
  return { llm, plan, events, named };
}

/** A provider that streams `text` cut at the given code-unit offsets. */
function cutProvider(text: string, cuts: readonly number[]): LLMProvider {
  return {
    generate: async () => ({ text }),
    async *stream(): AsyncIterable<LLMChunk> {
      const points = [...new Set(cuts.map((cut) => Math.min(cut, text.length)))].sort((a, b) => a - b);
      let from = 0;
      for (const point of [...points, text.length]) {
        yield { type: 'text-delta', delta: text.slice(from, point) };
        from = point;
      }
      yield { type: 'finish', finishReason: 'stop' };
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<PlanloopError> {
  try {
    await promise;
  } catch (error) {
    return error as PlanloopError;
  }
  throw new Error('expected the call to fail');
}

type Expected = { summary: string; todos: Array<[string, string, number?]> } | { error: 'planner_output_invalid' | 'planner_output_truncated' };

const fence = '```';
const big = Array.from({ length: 200 }, (_, index) => ({ intent: 'narrate', description: `Step ${index}` }));

/** Planner answers as small models write them, and what makeTodos makes of each (no retry). */
const MALFORMED: Array<[string, string | { text: string; finishReason: 'length' | 'stop' }, Expected]> = [
  [
    'a code fence',
    `${fence}json\n${GOOD_TEXT}\n${fence}`,
    {
      summary: GOOD.task_summary,
      todos: [
        ['navigate', 'Open the pricing page', 1],
        ['narrate', 'Explain the three tiers', 2],
        ['finish', 'Wrap up', 3],
      ],
    },
  ],
  [
    'prose around the JSON',
    `Sure! Here is the plan:\n${GOOD_TEXT}\nLet me know if you need changes.`,
    {
      summary: GOOD.task_summary,
      todos: [
        ['navigate', 'Open the pricing page', 1],
        ['narrate', 'Explain the three tiers', 2],
        ['finish', 'Wrap up', 3],
      ],
    },
  ],
  [
    'a fence inside a fenced answer',
    `${fence}json\n{"task_summary": "Show code", "todos": [{"intent": "narrate", "description": "Show ${fence}npm i${fence}"}]}\n${fence}`,
    { summary: 'Show code', todos: [['narrate', `Show ${fence}npm i${fence}`]] },
  ],
  [
    'trailing commas',
    '{"task_summary": "Tour", "todos": [{"intent": "navigate", "description": "Open /pricing",},],}',
    { summary: 'Tour', todos: [['navigate', 'Open /pricing']] },
  ],
  [
    'single quotes',
    "{'task_summary': 'Tour', 'todos': [{'intent': 'narrate', 'description': 'Explain tiers'}]}",
    { summary: 'Tour', todos: [['narrate', 'Explain tiers']] },
  ],
  [
    'comments',
    '{\n  // plan\n  "task_summary": "Tour", /* todos */ "todos": [{"intent": "ask", "description": "Ask which plan"}]\n}',
    { summary: 'Tour', todos: [['ask', 'Ask which plan']] },
  ],
  [
    'Python literals',
    "{'task_summary': 'Tour', 'todos': [{'intent': 'fill', 'description': 'Fill the email', 'expected_turn': None}]}",
    { summary: 'Tour', todos: [['fill', 'Fill the email']] },
  ],
  [
    'cut off mid-todo (no length reason)',
    '{"task_summary": "Tour", "todos": [{"intent": "navigate", "description": "Open pricing"}, {"intent": "narr',
    { error: 'planner_output_truncated' },
  ],
  [
    'cut off by the length limit',
    { text: '{"task_summary": "Tour", "todos": [{"intent": "navigate", "descr', finishReason: 'length' },
    { error: 'planner_output_truncated' },
  ],
  [
    'complete JSON padded to the length limit',
    { text: `{"task_summary": "Tour", "todos": [{"description": "Open pricing"}]}${'\n'.repeat(50)}`, finishReason: 'length' },
    { summary: 'Tour', todos: [['narrate', 'Open pricing']] },
  ],
  ['todos as a string', '{"task_summary": "Tour", "todos": "navigate, then narrate"}', { error: 'planner_output_invalid' }],
  ['todos as an object', '{"task_summary": "Tour", "todos": {"t1": {"description": "Open pricing"}}}', { error: 'planner_output_invalid' }],
  ['task_summary of the wrong type', '{"task_summary": 42, "todos": [{"description": "Open pricing"}]}', { error: 'planner_output_invalid' }],
  ['no task_summary', '{"todos": [{"intent": "navigate", "description": "Open pricing"}]}', { summary: '', todos: [['navigate', 'Open pricing']] }],
  [
    'one item without a description',
    '{"task_summary": "Tour", "todos": [{"intent": "navigate"}, {"intent": "narrate", "description": "Explain"}]}',
    { summary: 'Tour', todos: [['narrate', 'Explain']] },
  ],
  [
    'only items without a usable description',
    '{"task_summary": "Tour", "todos": [{"intent": "navigate"}, {"description": "   "}, {"description": 7}]}',
    { error: 'planner_output_invalid' },
  ],
  [
    'a missing intent',
    '{"task_summary": "Tour", "todos": [{"description": "Explain the tiers"}]}',
    { summary: 'Tour', todos: [['narrate', 'Explain the tiers']] },
  ],
  [
    'an empty or mistyped intent, and capitals',
    '{"task_summary": "Tour", "todos": [{"intent": "", "description": "A"}, {"intent": 3, "description": "B"}, {"intent": " Navigate ", "description": "C"}]}',
    {
      summary: 'Tour',
      todos: [
        ['narrate', 'A'],
        ['narrate', 'B'],
        ['navigate', 'C'],
      ],
    },
  ],
  [
    'a custom intent',
    '{"task_summary": "Tour", "todos": [{"intent": "scroll", "description": "Scroll to the FAQ"}]}',
    { summary: 'Tour', todos: [['scroll', 'Scroll to the FAQ']] },
  ],
  [
    'odd expected_turn values',
    '{"task_summary": "T", "todos": [{"description": "A", "expected_turn": 0}, {"description": "B", "expected_turn": -2}, {"description": "C", "expected_turn": 2.6}, {"description": "D", "expected_turn": "2"}, {"description": "E", "expected_turn": "soon"}]}',
    {
      summary: 'T',
      todos: [
        ['narrate', 'A'],
        ['narrate', 'B'],
        ['narrate', 'C', 3],
        ['narrate', 'D', 2],
        ['narrate', 'E'],
      ],
    },
  ],
  [
    'an expected_turn too large to be a whole number',
    '{"task_summary": "T", "todos": [{"description": "A", "expected_turn": 1e20}, {"description": "B", "expected_turn": "99999999999999999999"}, {"description": "C", "expected_turn": 3}]}',
    {
      summary: 'T',
      todos: [
        ['narrate', 'A'],
        ['narrate', 'B'],
        ['narrate', 'C', 3],
      ],
    },
  ],
  [
    'todos written as bare strings',
    '{"task_summary": "Tour", "todos": ["Open pricing", "Explain tiers"]}',
    {
      summary: 'Tour',
      todos: [
        ['narrate', 'Open pricing'],
        ['narrate', 'Explain tiers'],
      ],
    },
  ],
  [
    'statuses and ids from the model (ignored)',
    '{"task_summary": "Tour", "todos": [{"id": "t99", "status": "completed", "intent": "narrate", "description": "Explain"}]}',
    { summary: 'Tour', todos: [['narrate', 'Explain']] },
  ],
  ['no todos key', '{"task_summary": "Tour"}', { error: 'planner_output_invalid' }],
  ['an empty todos list', '{"task_summary": "Tour", "todos": []}', { error: 'planner_output_invalid' }],
  ['an empty object', '{}', { error: 'planner_output_invalid' }],
  ['an empty string', '', { error: 'planner_output_invalid' }],
  ['a refusal in prose', "I'm sorry, but I can't help with planning that.", { error: 'planner_output_invalid' }],
  ['JSON null', 'null', { error: 'planner_output_invalid' }],
  [
    'a bare array of todos',
    '[{"intent": "navigate", "description": "Open pricing"}, {"intent": "finish", "description": "Done"}]',
    {
      summary: '',
      todos: [
        ['navigate', 'Open pricing'],
        ['finish', 'Done'],
      ],
    },
  ],
  [
    'an answer wrapped in one more object',
    `{"plan": ${GOOD_TEXT}}`,
    {
      summary: GOOD.task_summary,
      todos: [
        ['navigate', 'Open the pricing page', 1],
        ['narrate', 'Explain the three tiers', 2],
        ['finish', 'Wrap up', 3],
      ],
    },
  ],
  ['200 todos', JSON.stringify({ task_summary: 'Too long', todos: big }), { error: 'planner_output_invalid' }],
  [
    'a very large answer around a small plan',
    `${'Thinking about it. '.repeat(20_000)}\n${GOOD_TEXT}\n${'More notes. '.repeat(20_000)}`,
    {
      summary: GOOD.task_summary,
      todos: [
        ['navigate', 'Open the pricing page', 1],
        ['narrate', 'Explain the three tiers', 2],
        ['finish', 'Wrap up', 3],
      ],
    },
  ],
  [
    '__proto__ keys',
    '{"__proto__": {"polluted": 1}, "task_summary": "Tour", "todos": [{"__proto__": {"intent": "click"}, "description": "Explain"}]}',
    { summary: 'Tour', todos: [['narrate', 'Explain']] },
  ],
  [
    'typographic quotes',
    '{“task_summary”: “Tour”, “todos”: [{“intent”: “navigate”, “description”: “Open the “Pro” tier”}, {“intent”: “narrate”, “description”: “Explain it’s 12 EUR”}]}',
    {
      summary: 'Tour',
      todos: [
        ['navigate', 'Open the “Pro” tier'],
        ['narrate', 'Explain it’s 12 EUR'],
      ],
    },
  ],
  [
    'typographic single quotes',
    '{‘task_summary’: ‘Tour’, ‘todos’: [{‘intent’: ‘ask’, ‘description’: ‘Ask which plan’}]}',
    { summary: 'Tour', todos: [['ask', 'Ask which plan']] },
  ],
  [
    'a stringified answer',
    JSON.stringify(GOOD_TEXT),
    {
      summary: GOOD.task_summary,
      todos: [
        ['navigate', 'Open the pricing page', 1],
        ['narrate', 'Explain the three tiers', 2],
        ['finish', 'Wrap up', 3],
      ],
    },
  ],
  [
    'unicode and escapes',
    '{"task_summary": "Zeig dir die Preise \\u2014 \\"Team\\" 😀", "todos": [{"intent": "narrate", "description": "Tarife\\nerklären"}]}',
    { summary: 'Zeig dir die Preise — "Team" 😀', todos: [['narrate', 'Tarife\nerklären']] },
  ],
];

describe('makeTodos: malformed planner output', () => {
  test('the table has at least 25 cases', () => {
    expect(MALFORMED.length).toBeGreaterThanOrEqual(25);
  });

  test.each(MALFORMED)('%s', async (_name, answer, expected) => {
    const { plan } = setup([answer]);
    const call = plan.makeTodos({ task: 'Show me the prices' }, { retries: 0 });
    if ('error' in expected) {
      const error = await rejection(call);
      expect(error).toBeInstanceOf(PlannerOutputError);
      expect(error.code).toBe(expected.error);
      expect((error as PlannerOutputError).raw).toBe(typeof answer === 'string' ? answer : answer.text);
      expect((error as PlannerOutputError).issues.length).toBeGreaterThan(0);
      expect(plan.todos.list()).toEqual([]);
      return;
    }
    const result = await call;
    expect(result.summary).toBe(expected.summary);
    expect(result.todos.map((todo) => [todo.intent, todo.description, ...(todo.expected_turn === undefined ? [] : [todo.expected_turn])])).toEqual(
      expected.todos,
    );
    expect(result.todos.every((todo) => todo.status === 'pending')).toBe(true);
    expect(result.todos.map((todo) => todo.id)).toEqual(expected.todos.map((_, index) => `t${index + 1}`));
    expect(plan.todos.list()).toEqual(result.todos);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('makeTodos', () => {
  test('resets the todos, emits plan-create and plan-update, and returns copies', async () => {
    const { plan, named } = setup(GOOD);
    plan.todos.create({ intent: 'narrate', description: 'An old todo' });
    const result = await plan.makeTodos({ task: 'Show me the prices' });
    expect(result.summary).toBe(GOOD.task_summary);
    expect(result.todos).toEqual([
      { id: 't2', intent: 'navigate', description: 'Open the pricing page', status: 'pending', expected_turn: 1 },
      { id: 't3', intent: 'narrate', description: 'Explain the three tiers', status: 'pending', expected_turn: 2 },
      { id: 't4', intent: 'finish', description: 'Wrap up', status: 'pending', expected_turn: 3 },
    ]);
    expect(plan.todos.list()).toEqual(result.todos);
    expect(named('plan-create')).toEqual([{ plan: result }]);
    expect(named('plan-update')).toEqual([{ todos: result.todos, source: 'make-todos' }]);
    result.todos[0]!.description = 'changed';
    expect(plan.todos.get('t2')?.description).toBe('Open the pricing page');
  });

  test("ids never reuse an earlier plan's", async () => {
    const { plan } = setup(GOOD);
    const first = await plan.makeTodos({ task: 'One' });
    const second = await plan.makeTodos({ task: 'Two' });
    expect(first.todos.map((todo) => todo.id)).toEqual(['t1', 't2', 't3']);
    expect(second.todos.map((todo) => todo.id)).toEqual(['t4', 't5', 't6']);
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t4', 't5', 't6']);
  });

  test('streams the task summary to onSummaryDelta and summary-delta, escapes decoded', async () => {
    const summary = 'Ich zeige dir "die Preise"\n— schnell 😀';
    const { plan, named } = setup({ task_summary: summary, todos: GOOD.todos }, { chunkSize: 3 });
    const seen: Array<[string, string]> = [];
    const result = await plan.makeTodos({ task: 'Preise?', locale: 'de' }, { onSummaryDelta: (delta, text) => seen.push([delta, text]) });
    expect(result.summary).toBe(summary);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.map(([delta]) => delta).join('')).toBe(summary);
    expect(seen.at(-1)?.[1]).toBe(summary);
    expect(named('summary-delta').map(({ delta, text }) => [delta, text])).toEqual(seen);
  });

  test('the summary streams before the todos have arrived', async () => {
    const { plan } = setup(GOOD, { chunkSize: 5, delayMs: 5 });
    let todosWhenSummaryDone: number | undefined;
    await plan.makeTodos(
      { task: 'Show me the prices' },
      {
        onSummaryDelta: (_delta, text) => {
          if (text === GOOD.task_summary) todosWhenSummaryDone = plan.todos.list().length;
        },
      },
    );
    expect(todosWhenSummaryDone).toBe(0);
  });

  test('works with a provider that cannot stream (one delta)', async () => {
    const plan = new Plan({ llm: { generate: async () => ({ text: GOOD_TEXT }) } });
    const deltas: string[] = [];
    const result = await plan.makeTodos({ task: 'Tour' }, { onSummaryDelta: (delta) => deltas.push(delta) });
    expect(deltas).toEqual([GOOD.task_summary]);
    expect(result.todos).toHaveLength(3);
  });

  test('property: summary deltas concatenate to the final task_summary however the stream is chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 30 }), fc.array(fc.nat(300), { maxLength: 25 }), async (summary, cuts) => {
        const text = JSON.stringify({ task_summary: summary, todos: [{ intent: 'narrate', description: 'x', task_summary: 'not this' }] });
        const plan = new Plan({ llm: cutProvider(text, cuts) });
        const deltas: string[] = [];
        const events: string[] = [];
        plan.on('summary-delta', ({ delta }) => events.push(delta));
        const result = await plan.makeTodos({ task: 'Tour' }, { onSummaryDelta: (delta) => deltas.push(delta) });
        expect(deltas.join('')).toBe(result.summary);
        expect(events).toEqual(deltas);
      }),
      { numRuns: 200 },
    );
  });

  test('the deltas add up to the final summary also when the stream could not read it early', async () => {
    // Each of these is read correctly by the whole-text parse, but not by the summary scanner:
    // a wrapped answer, an unquoted key, a repeated key (the last one counts).
    const answers = [
      `{"plan": ${GOOD_TEXT}}`,
      `{task_summary: "${GOOD.task_summary}", todos: [{description: "Open pricing"}]}`,
      `{"task_summary": "First thought", "task_summary": "${GOOD.task_summary}", "todos": [{"description": "Open pricing"}]}`,
    ];
    for (const answer of answers) {
      const { plan, named } = setup([answer], { chunkSize: 4 });
      const seen: Array<[string, string]> = [];
      const result = await plan.makeTodos({ task: 'Tour' }, { onSummaryDelta: (delta, text) => seen.push([delta, text]) });
      expect(result.summary).toBe(GOOD.task_summary);
      const restart = seen.map(([delta, text]) => delta === '' && text === '').lastIndexOf(true);
      expect(
        seen
          .slice(restart + 1)
          .map(([delta]) => delta)
          .join(''),
      ).toBe(GOOD.task_summary);
      expect(seen.at(-1)?.[1]).toBe(GOOD.task_summary);
      expect(named('summary-delta').map(({ delta, text }) => [delta, text])).toEqual(seen);
    }
  });

  test('a throwing onSummaryDelta is reported and the call goes on', async () => {
    const report = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { plan } = setup(GOOD);
      const result = await plan.makeTodos(
        { task: 'Tour' },
        {
          onSummaryDelta: () => {
            throw new Error('ui broke');
          },
        },
      );
      expect(result.todos).toHaveLength(3);
      expect(report).toHaveBeenCalled();
    } finally {
      report.mockRestore();
    }
  });
});

describe('makeTodos: retries', () => {
  test('retries an unusable answer once, feeding back what was wrong', async () => {
    const { llm, plan, named } = setup(['{"task_summary": "Tour", "todos": "first pricing, then done"}', GOOD_TEXT]);
    const result = await plan.makeTodos({ task: 'Show me the prices' });
    expect(result.todos).toHaveLength(3);
    expect(llm.calls).toHaveLength(2);
    const retry = llm.calls[1]!.messages;
    expect(retry.slice(0, 2)).toEqual(llm.calls[0]!.messages);
    expect(retry[2]).toEqual({ role: 'assistant', content: '{"task_summary": "Tour", "todos": "first pricing, then done"}' });
    expect(retry[3]?.role).toBe('user');
    expect(retry[3]?.content).toContain('todos must be an array of todos');
    expect(llm.calls[1]!.jsonSchema).toEqual(llm.calls[0]!.jsonSchema);
    expect(named('plan-create')).toHaveLength(1);
  });

  test('the summary restarts on a retry: a ("", "") delta marks it', async () => {
    const { plan } = setup(['{"task_summary": "First try", "todos": []}', GOOD_TEXT]);
    const seen: Array<[string, string]> = [];
    await plan.makeTodos({ task: 'Tour' }, { onSummaryDelta: (delta, text) => seen.push([delta, text]) });
    const restart = seen.findIndex(([delta, text]) => delta === '' && text === '');
    expect(restart).toBeGreaterThan(0);
    expect(seen[restart - 1]?.[1]).toBe('First try');
    expect(seen.at(-1)?.[1]).toBe(GOOD.task_summary);
  });

  test('an empty answer is fed back as a placeholder, never as an empty message', async () => {
    const { llm, plan } = setup(['', GOOD_TEXT]);
    await plan.makeTodos({ task: 'Tour' });
    expect(llm.calls[1]!.messages[2]).toEqual({ role: 'assistant', content: '(empty answer)' });
    expect(llm.calls[1]!.messages[3]?.content).toMatch(/no JSON object/);
  });

  test('two unusable answers: PlannerOutputError with the raw text and issues, plan unchanged', async () => {
    const { llm, plan, named } = setup(['not json at all', '{"task_summary": "Tour", "todos": []}']);
    const existing = plan.todos.create({ intent: 'narrate', description: 'Keep me' });
    const error = await rejection(plan.makeTodos({ task: 'Show me the prices' }));
    expect(error).toBeInstanceOf(PlannerOutputError);
    expect(error.code).toBe('planner_output_invalid');
    expect((error as PlannerOutputError).raw).toBe('{"task_summary": "Tour", "todos": []}');
    expect((error as PlannerOutputError).issues).toEqual([{ path: 'todos', message: 'must have at least 1 todo' }]);
    expect(error.message).toMatch(/2 attempts.*todos must have at least 1 todo/);
    expect(llm.calls).toHaveLength(2);
    expect(plan.todos.list()).toEqual([existing]);
    expect(named('plan-create')).toEqual([]);
    expect(named('plan-update')).toEqual([]);
  });

  test('retries: 0 makes one call; retries: 2 makes three', async () => {
    const none = setup(['bad', 'bad', 'bad']);
    await expect(none.plan.makeTodos({ task: 'Tour' }, { retries: 0 })).rejects.toMatchObject({ code: 'planner_output_invalid' });
    expect(none.llm.calls).toHaveLength(1);
    const two = setup(['bad', 'bad', GOOD_TEXT]);
    await expect(two.plan.makeTodos({ task: 'Tour' }, { retries: 2 })).resolves.toMatchObject({ summary: GOOD.task_summary });
    expect(two.llm.calls).toHaveLength(3);
  });

  test('output cut off by the length limit: asks for a shorter plan, then planner_output_truncated', async () => {
    const cut = { text: '{"task_summary": "Tour", "todos": [{"intent": "navigate", "description": "Open', finishReason: 'length' as const };
    const { llm, plan } = setup([cut, cut]);
    const error = await rejection(plan.makeTodos({ task: 'Show me the prices' }));
    expect(error).toBeInstanceOf(PlannerOutputError);
    expect(error.code).toBe('planner_output_truncated');
    expect(error.message).toMatch(/cut off by the length limit/);
    expect((error as PlannerOutputError).raw).toBe(cut.text);
    expect(llm.calls[1]!.messages[3]?.content).toMatch(/cut off.*fewer, shorter todos/);
    expect(plan.todos.list()).toEqual([]);
  });
});

describe('makeTodos: failures', () => {
  test('an abort in the middle of the stream: AbortError aborted, plan unchanged', async () => {
    const { plan, named } = setup(GOOD, { chunkSize: 4, delayMs: 5 });
    const existing = plan.todos.create({ intent: 'narrate', description: 'Keep me' });
    const controller = new AbortController();
    const call = plan.makeTodos(
      { task: 'Show me the prices' },
      {
        signal: controller.signal,
        onSummaryDelta: (_delta, text) => {
          if (text.length > 6) controller.abort();
        },
      },
    );
    const error = await rejection(call);
    expect(error).toBeInstanceOf(AbortError);
    expect(error.code).toBe('aborted');
    expect(named('summary-delta').length).toBeGreaterThan(0);
    expect(plan.todos.list()).toEqual([existing]);
    expect(named('plan-create')).toEqual([]);
    expect(named('todos-change')).toHaveLength(1); // the create above, nothing since
  });

  test('an aborted signal fails at once, without a model call', async () => {
    const { llm, plan } = setup(GOOD);
    const error = await rejection(plan.makeTodos({ task: 'Tour' }, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('aborted');
    expect(llm.calls).toHaveLength(0);
  });

  test('an abort stops the wait even when the provider ignores its signal', async () => {
    const plan = new Plan({ llm: { generate: () => new Promise(() => {}) } });
    const controller = new AbortController();
    const call = plan.makeTodos({ task: 'Tour' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    expect((await rejection(call)).code).toBe('aborted');
    expect(plan.todos.list()).toEqual([]);
  });

  test('a slow model times out with code timeout', async () => {
    const { plan } = setup(GOOD, { chunkSize: 2, delayMs: 20 });
    const error = await rejection(plan.makeTodos({ task: 'Tour' }, { timeoutMs: 50 }));
    expect(error).toBeInstanceOf(AbortError);
    expect(error.code).toBe('timeout');
    expect(plan.todos.list()).toEqual([]);
  });

  test('the timeout holds against a provider that never answers (timing guard)', async () => {
    const plan = new Plan({ llm: { generate: () => new Promise(() => {}) } });
    const started = Date.now();
    expect((await rejection(plan.makeTodos({ task: 'Tour' }, { timeoutMs: 30 }))).code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('timeoutMs 0 turns the timeout off', async () => {
    const { plan } = setup(GOOD, { delayMs: 5 });
    await expect(plan.makeTodos({ task: 'Tour' }, { timeoutMs: 0 })).resolves.toMatchObject({ summary: GOOD.task_summary });
  });

  test('a provider error propagates as is and changes nothing', async () => {
    const failure = new ProviderError('provider_error', 'HTTP 503 from the model server', { provider: 'test', status: 503, retryable: true });
    const { llm, plan, named } = setup([failure]);
    expect(await rejection(plan.makeTodos({ task: 'Tour' }))).toBe(failure);
    expect(llm.calls).toHaveLength(1);
    expect(plan.todos.list()).toEqual([]);
    expect(named('plan-create')).toEqual([]);
  });

  test('a plain error from a hand-written provider becomes a ProviderError', async () => {
    const cause = new TypeError('backend exploded');
    const plan = new Plan({
      llm: {
        generate: async () => {
          throw cause;
        },
      },
    });
    const error = await rejection(plan.makeTodos({ task: 'Tour' }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toContain('backend exploded');
    expect(error.cause).toBe(cause);
  });

  test('a plan without a model throws no_llm', async () => {
    const error = await rejection(new Plan().makeTodos({ task: 'Tour' }));
    expect(error.code).toBe('no_llm');
    expect(error.message).toMatch(/new Plan\(\{ llm \}\)/);
  });

  test.each([
    ['an empty task', { task: '  ' }, 'task'],
    ['no task', {}, 'task'],
    ['a bad locale', { task: 'Tour', locale: 'not a locale!' }, 'locale'],
    ['a sitemap page without a path', { task: 'Tour', sitemap: [{ title: 'Pricing' }] }, 'sitemap[0].path'],
    ['a brand that is a number', { task: 'Tour', brand: 42 }, 'brand'],
    ['a selection without text', { task: 'Tour', selection: { selector: '#x' } }, 'selection.text'],
    ['a hostContext that is not a string', { task: 'Tour', hostContext: { a: 1 } }, 'hostContext'],
  ])('bad input (%s) throws ValidationError before any model call', async (_name, input, path) => {
    const { llm, plan } = setup(GOOD);
    const error = await rejection(plan.makeTodos(input as never));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('invalid_input');
    expect((error as ValidationError).issues.map((issue) => issue.path)).toContain(path);
    expect(llm.calls).toHaveLength(0);
  });

  test('bad options throw ValidationError', async () => {
    const { plan } = setup(GOOD);
    await expect(plan.makeTodos({ task: 'Tour' }, { retries: -1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(plan.makeTodos({ task: 'Tour' }, { timeoutMs: Number.NaN })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('makeTodos: routing', () => {
  test("uses the router's plan role", async () => {
    const planner = createScriptedProvider(GOOD);
    const fallback = createScriptedProvider(new Error('wrong role'));
    const plan = new Plan({ llm: { route: (role: string) => (role === 'plan' ? planner : fallback) } });
    await plan.makeTodos({ task: 'Tour' });
    expect(planner.calls).toHaveLength(1);
    expect(fallback.calls).toHaveLength(0);
  });

  test("passes the caller's signal to the provider", async () => {
    let seen: AbortSignal | undefined;
    const plan = new Plan({
      llm: {
        generate: async (request: LLMRequest) => {
          seen = request.signal;
          return { text: GOOD_TEXT };
        },
      },
    });
    await plan.makeTodos({ task: 'Tour' });
    expect(seen).toBeInstanceOf(AbortSignal);
  });
});

describe('safeValidatePlanInput', () => {
  test('returns the input, or a ValidationError naming each bad field', async () => {
    const { safeValidatePlanInput } = await import('../../src/planning/make-todos.js');
    expect(safeValidatePlanInput({ task: ' Show prices ', locale: 'de-DE' })).toEqual({ success: true, data: { task: 'Show prices', locale: 'de-DE' } });
    const bad = safeValidatePlanInput({ task: '', locale: 'not a tag!' });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.error.issues.map((issue) => issue.path).sort()).toEqual(['locale', 'task']);
  });
});
