import { describe, expect, it } from 'vitest';
import { EnvelopeError, PlanloopError, ValidationError } from '../src/errors.js';
import { validateTodoAdjust, parseTurnEnvelope, safeParseTurnEnvelope } from '../src/envelope/parse.js';
import { createEnvelopeStreamParser } from '../src/envelope/stream.js';
import { createScriptedProvider } from '../src/llm/scripted.js';
import { Plan } from '../src/plan.js';
import { validatePlanInput, readPlan } from '../src/planning/make-todos.js';
import { plannerUserMessage } from '../src/planning/prompts.js';
import { createMemoryAdapter } from '../src/storage/memory.js';

// Defects found by reviewers (issues 11, 12 and 16), each failing before its fix.

describe('bad input gets a coded error, never a TypeError (issue 16.7)', () => {
  for (const input of [null, undefined, 42, {}, [], true]) {
    it(`parseTurnEnvelope(${JSON.stringify(input)})`, () => {
      const result = safeParseTurnEnvelope(input as never);
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error).toBeInstanceOf(EnvelopeError);
      expect(() => parseTurnEnvelope(input as never)).toThrow(EnvelopeError);
    });
  }

  it('an envelope stream parser refuses a delta that is not text, and a push after end()', () => {
    const parser = createEnvelopeStreamParser();
    expect(() => parser.push(null as never)).toThrow(ValidationError);
    parser.push('{"actions":[]}');
    parser.end();
    expect(() => parser.push('more')).toThrow(PlanloopError);
  });
});

describe('one validator for todo_adjust (issue 11)', () => {
  it('reads replace: null as empty, as the envelope parser does', () => {
    expect(validateTodoAdjust({ remove: ['t1'], replace: null })).toEqual({ remove: ['t1'], replace: [] });
    const plan = new Plan();
    plan.todos.createMany([
      { intent: 'narrate', description: 'a' },
      { intent: 'narrate', description: 'b' },
    ]);
    expect(plan.adjust({ remove: ['t1'], replace: null }).completed).toEqual(['t1']);
  });
});

describe('makeTodos takes the sitemap shapes hosts keep (issue 16.9)', () => {
  it('{ routes: [...] }, a path → title map, { url, name } items and bare paths', () => {
    expect(validatePlanInput({ task: 'Tour', sitemap: { routes: [{ path: '/pricing', title: 'Pricing' }] } }).sitemap).toEqual([
      { path: '/pricing', title: 'Pricing' },
    ]);
    expect(validatePlanInput({ task: 'Tour', sitemap: { '/pricing': 'Pricing', '/docs': { title: 'Docs', description: 'guides' } } }).sitemap).toEqual([
      { path: '/pricing', title: 'Pricing' },
      { path: '/docs', title: 'Docs', description: 'guides' },
    ]);
    expect(validatePlanInput({ task: 'Tour', sitemap: [{ url: '/try', name: 'Try it' }, '/about'] }).sitemap).toEqual([
      { path: '/try', title: 'Try it' },
      { path: '/about' },
    ]);
    const message = plannerUserMessage(validatePlanInput({ task: 'Tour', sitemap: { '/pricing': 'Pricing' } }));
    expect(message).toContain('- /pricing — Pricing');
  });

  it('still says what is wrong with a sitemap it cannot read', () => {
    expect(() => validatePlanInput({ task: 'Tour', sitemap: 42 })).toThrow(/sitemap must be a string, an array of pages/);
    expect(() => validatePlanInput({ task: 'Tour', sitemap: [{ title: 'No path' }] })).toThrow(/sitemap\[0\]\.path is required/);
  });
});

describe('length caps (issue 16.10)', () => {
  it('a 1 MB todo description is refused by create() and by the planner', () => {
    const plan = new Plan();
    expect(() => plan.todos.create({ intent: 'narrate', description: 'x'.repeat(1_000_000) })).toThrow(/description must have at most 1000 characters/);
    expect(plan.todos.list()).toEqual([]);
    const reading = readPlan(JSON.stringify({ task_summary: 'Tour', todos: [{ description: 'x'.repeat(1_000_000) }, { description: 'ok' }] }));
    expect(reading.ok).toBe(false);
  });

  it('a task summary of a page is refused, and the planner is asked again', async () => {
    const llm = createScriptedProvider([
      { task_summary: 'x'.repeat(5000), todos: ['Say hi'] },
      { task_summary: 'A short tour', todos: ['Say hi'] },
    ]);
    const plan = new Plan({ llm });
    expect((await plan.makeTodos({ task: 'hi' })).summary).toBe('A short tour');
    expect(llm.calls[1]?.messages.at(-1)?.content).toMatch(/task_summary must have at most 500 characters/);
  });

  it('an envelope with more than 20 actions is refused', () => {
    const result = safeParseTurnEnvelope(JSON.stringify({ actions: Array.from({ length: 21 }, () => ({ type: 'narrate', text: 'hi' })) }));
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.message).toMatch(/more than 20 actions/);
  });
});

describe('ids near 2^53 (issue 12.3)', () => {
  it('never hands out the same id twice, and refuses to create once the counter is exhausted', async () => {
    const storage = createMemoryAdapter({
      version: 1,
      todos: [{ id: 't9007199254740991', intent: 'narrate', description: 'last', status: 'pending' }],
      markdownDocs: [],
      lastIds: { todos: 9007199254740991, markdown: 0 },
    });
    const plan = new Plan({ storage });
    await plan.ready;
    expect(() => plan.todos.create({ intent: 'narrate', description: 'one more' })).toThrow(expect.objectContaining({ code: 'id_space_exhausted' }));
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t9007199254740991']);
  });

  it('refuses an impossible stored counter with a clear error and keeps the rest of the plan', async () => {
    const errors: string[] = [];
    const storage = createMemoryAdapter({
      version: 1,
      todos: [{ id: 't4', intent: 'narrate', description: 'kept', status: 'pending' }],
      markdownDocs: [],
      // biome-ignore lint/correctness/noPrecisionLoss: the point: a stored counter past Number.MAX_SAFE_INTEGER
      lastIds: { todos: 9007199254740993, markdown: 0 },
    } as never);
    const plan = new Plan({ storage });
    plan.on('storage-error', ({ error }) => errors.push(error.message));
    await plan.ready;
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['kept']);
    expect(errors.join(' ')).toMatch(/lastIds\.todos .*left out and the rest of the plan was kept/);
    expect(plan.todos.create({ intent: 'narrate', description: 'next' }).id).toBe('t5');
  });
});
