/**
 * Every public function that reads untrusted input (a model's answer, a tool call, a file, a
 * provider's bytes), over arbitrary JSON values and text: it returns, or throws a PlanloopError
 * with a code, and nothing else; a refusal leaves the plan exactly as it was; and no input
 * pollutes a prototype. One row per parser, RUNS cases each.
 *
 * To add a parser, add a row to PARSERS below.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { PlanloopError } from '../../src/errors.js';
import { dryRunToolPlan } from '../../src/graph/dry-run.js';
import { toMermaid } from '../../src/graph/mermaid.js';
import { parseReferenceExpression } from '../../src/graph/reference.js';
import { runReplanningLoop } from '../../src/graph/replan.js';
import { defineTool } from '../../src/graph/tool.js';
import { validateToolPlan } from '../../src/graph/validate.js';
import { parseChecklist, seedFromChecklist } from '../../src/interop/checklist.js';
import { validateContextCapsule, safeValidateContextCapsule } from '../../src/interop/context-capsule.js';
import { createPlanUpdateStream } from '../../src/interop/plan-update-stream.js';
import { countPlannerOnlyTurns, normalizeToolCall } from '../../src/interop/tool-calls.js';
import { toLangChainTool } from '../../src/interop/tool-definitions.js';
import { createWriteTodos } from '../../src/interop/write-todos.js';
import { createAnthropicProvider } from '../../src/llm/anthropic.js';
import { parseModelJson } from '../../src/llm/model-json.js';
import { createOpenAICompatibleProvider } from '../../src/llm/openai-compatible.js';
import type { LLMChunk, LLMProvider } from '../../src/llm/provider.js';
import { parseSSE } from '../../src/llm/sse.js';
import { Plan } from '../../src/plan.js';
import { validateTodoAdjust, parseTurnEnvelope, safeParseTurnEnvelope, validateTurnEnvelope } from '../../src/envelope/parse.js';
import { createEnvelopeStreamParser } from '../../src/envelope/stream.js';
import { validatePlanInput, readPlan } from '../../src/planning/make-todos.js';
import { validateSnapshot } from '../../src/storage/snapshot.js';

/** Cases per parser. */
const RUNS = 10_000;

// ---------------------------------------------------------------------------------------------
// Inputs: JSON values built from the words these parsers look for, with keys that reach into
// prototypes made own properties (as JSON.parse makes them), and text that looks almost right.

const WORDS = [
  'todos',
  'content',
  'description',
  'status',
  'pending',
  'in_progress',
  'completed',
  'id',
  't1',
  't2',
  'update',
  'messages',
  'tool_call_id',
  'kwargs',
  'name',
  'write_todos',
  'function',
  'arguments',
  'args',
  'input',
  'call_id',
  'toolCallId',
  'toolName',
  'tool_calls',
  'role',
  'assistant',
  'tool',
  'ai',
  'type',
  'tool-call',
  'tool_use',
  'tool_result',
  'output',
  'result',
  'value',
  'tools',
  '_tool',
  '_outputPath',
  '†state.a',
  '$state.b',
  '†input.x',
  '$input.y.0',
  '†state.a || †state.b',
  '$state.a && $state.c',
  '†state.__proto__.x',
  'goal',
  'keyFindings',
  'artifacts',
  'planSnapshot',
  'nextActions',
  'revision',
  'calls',
  'choices',
  'delta',
  'message',
  'error',
  'usage',
  'refusal',
  'finish_reason',
  'stop',
  'text',
  'thinking',
  'text_delta',
  'content_block_delta',
  'message_delta',
  'message_stop',
  'stop_reason',
  'refusal',
  'end_turn',
  '[DONE]',
  'data: ',
  'event: error',
  '- [ ] item',
  '- [x] done',
  '```',
  '\uFEFF',
  'a',
  '',
];
const DANGEROUS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const word = fc.constantFrom(...WORDS);
const key = fc.oneof(
  { weight: 3, arbitrary: word },
  { weight: 1, arbitrary: fc.constantFrom(...DANGEROUS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);

/** JSON values (plus undefined): objects are made with Object.fromEntries, so "__proto__" is an own key. */
const { json } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, undefined, true, false, 0, -1, 1.5, Number.MAX_SAFE_INTEGER, ''),
    fc.integer(),
    fc.double({ noNaN: true }),
    word,
    fc.string({ maxLength: 20 }),
    fc.array(tie('json'), { maxLength: 5 }),
    fc.array(fc.tuple(key, tie('json')), { maxLength: 5 }).map((entries) => Object.fromEntries(entries)),
  ),
}));

/** Text: arbitrary strings, lines of near-checklists and near-SSE, and JSON of the values above. */
const text = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc
    .array(fc.oneof(word, fc.string({ maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r', ' ', '[', ']', '- [', '] ', ':', '{', '}')), { maxLength: 30 })
    .map((parts) => parts.join('')),
  json.map((value) => JSON.stringify(value) ?? 'undefined'),
);
const anything = fc.oneof(json, text);

/** An SSE body: events with or without a name, data of JSON values or text, any line ending, maybe cut short. */
const sseBody = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.option(fc.constantFrom('error', 'message_start', 'content_block_delta', 'message_delta', 'message_stop', 'ping'), { nil: undefined }),
        fc.oneof(
          json.map((value) => JSON.stringify(value) ?? ''),
          text,
          fc.constant('[DONE]'),
        ),
        fc.constantFrom('\n', '\r\n', '\r'),
      ),
      { maxLength: 8 },
    ),
    fc.nat(400),
    fc.boolean(),
  )
  .map(([events, cut, truncate]) => {
    const body = events.map(([event, data, end]) => `${event ? `event: ${event}${end}` : ''}data: ${data.replace(/[\r\n]/g, ' ')}${end}${end}`).join('');
    return truncate ? body.slice(0, cut) : body;
  });

// ---------------------------------------------------------------------------------------------
// The parsers.

const tools = [
  defineTool({ name: 'search', schema: z.object({ query: z.string() }), run: ({ query }) => ({ hits: [query] }) }),
  defineTool({ name: 'a', schema: z.looseObject({}), run: () => 'ran' }),
];

/** A provider answering `body` (a whole answer, or an SSE stream) through an injected fetch. */
const bodyFetch = (body: string) => async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
const providers: Record<string, (body: string) => LLMProvider> = {
  'openai-compatible': (body) => createOpenAICompatibleProvider({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', fetch: bodyFetch(body) }),
  anthropic: (body) => createAnthropicProvider({ apiKey: 'k', model: 'm', maxTokens: 10, baseURL: 'http://127.0.0.1:9', fetch: bodyFetch(body) }),
};

/** Streams `provider` to its end and checks every chunk keeps the provider contract. */
async function streamAll(provider: LLMProvider): Promise<LLMChunk[]> {
  const chunks: LLMChunk[] = [];
  for await (const chunk of provider.stream!({ messages: [{ role: 'user', content: 'x' }] })) {
    if (chunk.type === 'text-delta') expect(typeof chunk.delta).toBe('string');
    else expect(['stop', 'length', 'abort', 'error', 'other']).toContain(chunk.finishReason);
    chunks.push(chunk);
  }
  expect(chunks.at(-1)?.type).toBe('finish');
  return chunks;
}

interface Row {
  name: string;
  input: fc.Arbitrary<unknown>;
  /** Runs the parser; with `plan` for parsers that write to one. */
  run: (input: unknown, plan: Plan) => unknown;
  /** Whether a returned value is a refusal (a throw always is): the plan must then be unchanged. */
  refused?: (result: unknown) => boolean;
}

const notOk = (result: unknown) => (result as { ok?: unknown } | null)?.ok === false;

const PARSERS: Row[] = [
  // interop: checklists
  { name: 'parseChecklist', input: anything, run: (input) => parseChecklist(input as string) },
  {
    name: 'seedFromChecklist',
    input: anything,
    run: (input, plan) => seedFromChecklist(plan, input as string),
    refused: (result) => !(result as { seeded: boolean }).seeded,
  },
  // interop: write_todos
  { name: 'writeTodos.execute', input: anything, run: (input, plan) => createWriteTodos(plan).execute(input), refused: notOk },
  {
    name: 'writeTodos.handleToolCalls',
    input: fc.oneof(
      anything,
      fc.array(
        fc.oneof(
          json,
          json.map((input) => ({ id: 'c', name: 'write_todos', args: input })),
        ),
        { maxLength: 4 },
      ),
    ),
    run: (input, plan) => createWriteTodos(plan).handleToolCalls(input as never),
    refused: (results) => (results as Array<{ result: unknown }>).every(({ result }) => notOk(result)),
  },
  {
    name: 'toLangChainTool(writeTodos)[0]',
    input: fc.tuple(anything, anything),
    run: (pair, plan) => {
      const [input, runtime] = pair as [unknown, never];
      return toLangChainTool(createWriteTodos(plan))[0](input, runtime);
    },
    refused: (result) => notOk(JSON.parse(result as string)),
  },
  { name: 'normalizeToolCall', input: anything, run: (input) => normalizeToolCall(input as never) },
  { name: 'countPlannerOnlyTurns', input: anything, run: (input) => countPlannerOnlyTurns(input as never, 'write_todos') },
  // interop: plan updates from tool results
  {
    name: 'createPlanUpdateStream.push',
    input: anything,
    run: (input, plan) => createPlanUpdateStream(plan).push(input),
    refused: (result) => result === null,
  },
  // interop: context capsules
  { name: 'validateContextCapsule', input: anything, run: (input) => validateContextCapsule(input) },
  { name: 'safeValidateContextCapsule', input: anything, run: (input) => safeValidateContextCapsule(input) },
  // graph
  { name: 'validateToolPlan', input: anything, run: (input) => validateToolPlan(input as never, { tools, input: { x: 1, y: [2] } }) },
  { name: 'dryRunToolPlan', input: anything, run: (input) => dryRunToolPlan(input as never, { tools, input: { x: 1, y: [2] } }) },
  { name: 'toMermaid', input: anything, run: (input) => toMermaid(input as never) },
  { name: 'parseReferenceExpression', input: anything, run: (input) => parseReferenceExpression(input as string) },
  {
    name: 'runReplanningLoop (the model answer)',
    input: fc.oneof(
      text,
      json.map((value) => JSON.stringify({ calls: value, output: null })),
    ),
    run: async (input) => {
      const llm = { generate: async () => ({ text: String(input) }) };
      return runReplanningLoop({ llm, tools, input: { x: 1 }, maxTurns: 1, retries: 0 }).result;
    },
  },
  // llm: model answers as JSON text, the SSE reader and the providers' response parsing
  { name: 'parseModelJson', input: fc.oneof(text, anything), run: (input) => parseModelJson(input as string) },
  {
    name: 'parseSSE',
    input: fc.tuple(fc.oneof(sseBody, fc.string({ unit: 'binary', maxLength: 60 })), fc.array(fc.nat(80), { maxLength: 4 })),
    run: async (pair) => {
      const [body, cuts] = pair as [string, number[]];
      const bytes = new TextEncoder().encode(body);
      const at = [...new Set([0, ...cuts.map((cut) => cut % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b);
      const pieces = async function* () {
        for (let i = 1; i < at.length; i += 1) yield bytes.subarray(at[i - 1], at[i]);
      };
      const events = [];
      for await (const event of parseSSE(pieces())) events.push(event);
      return events;
    },
  },
  ...Object.entries(providers).flatMap(([name, make]): Row[] => [
    { name: `${name} stream`, input: sseBody, run: (body) => streamAll(make(body as string)) },
    {
      name: `${name} generate`,
      input: fc.oneof(
        text,
        json.map((value) => JSON.stringify(value) ?? ''),
      ),
      run: async (body) => {
        const result = await make(body as string).generate({ messages: [{ role: 'user', content: 'x' }] });
        expect(typeof result.text).toBe('string');
        return result;
      },
    },
  ]),
  // The core: the turn envelope (text, parsed values, streamed), plan.adjust, the planner's answer
  // and input, stored snapshots.
  {
    name: 'parseTurnEnvelope',
    input: fc.oneof(
      text,
      anything,
      json.map((value) => JSON.stringify(value) ?? ''),
    ),
    run: (input) => parseTurnEnvelope(input as string),
  },
  {
    name: 'safeParseTurnEnvelope',
    input: fc.oneof(text, anything),
    run: (input) => {
      const result = safeParseTurnEnvelope(input as string);
      if (!result.success) throw result.error;
      return result;
    },
  },
  { name: 'validateTurnEnvelope', input: anything, run: (input) => validateTurnEnvelope(input) },
  { name: 'validateTodoAdjust', input: anything, run: (input) => validateTodoAdjust(input) },
  { name: 'plan.adjust', input: anything, run: (input, plan) => plan.adjust(input as never, { inProgress: 't2' }) },
  {
    name: 'createEnvelopeStreamParser().push',
    input: fc.tuple(
      fc.oneof(
        text,
        json.map((value) => JSON.stringify(value) ?? ''),
      ),
      fc.array(fc.nat(40), { maxLength: 5 }),
    ),
    run: (pair, plan) => {
      const [reply, cuts] = pair as [string, number[]];
      const parser = createEnvelopeStreamParser({ onTodoAdjust: (adjust) => plan.adjust(adjust) });
      let from = 0;
      for (const cut of [...cuts, reply.length]) {
        parser.push(reply.slice(from, Math.max(from, cut)));
        from = Math.max(from, cut);
      }
      parser.push(reply.slice(from));
      const result = parser.end();
      if (!result.success) throw result.error;
      return result;
    },
  },
  {
    name: 'readPlan (the planner answer)',
    input: fc.oneof(
      text,
      json.map((value) => JSON.stringify(value) ?? ''),
    ),
    run: (input) => readPlan(input as string),
  },
  { name: 'validatePlanInput', input: anything, run: (input) => validatePlanInput(input) },
  { name: 'validateSnapshot', input: anything, run: (input) => validateSnapshot(input) },
];

// ---------------------------------------------------------------------------------------------

const prototypeKeys = () => [Object.prototype, Array.prototype, Function.prototype].map((proto) => Object.getOwnPropertyNames(proto).join());
const CLEAN = prototypeKeys();

describe.each(PARSERS)('$name', (row) => {
  it(`returns or throws a coded PlanloopError, changes nothing when it refuses and pollutes nothing (${RUNS} cases)`, async () => {
    const plan = new Plan();
    plan.todos.createMany([
      { intent: 'navigate', description: 'Open pricing', status: 'completed' },
      { intent: 'narrate', description: 'Explain the tiers', status: 'in_progress' },
    ]);
    await fc.assert(
      fc.asyncProperty(row.input, async (input) => {
        const before = JSON.stringify(plan.snapshot());
        let refused = false;
        try {
          const result = await row.run(input, plan);
          refused = row.refused?.(result) ?? false;
        } catch (error) {
          if (!(error instanceof PlanloopError) || typeof error.code !== 'string' || error.code.length === 0) throw error;
          refused = true;
        }
        if (refused) expect(JSON.stringify(plan.snapshot())).toBe(before);
        expect(prototypeKeys()).toEqual(CLEAN);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  }, 60_000);
});
