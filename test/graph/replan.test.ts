import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { PlannerOutputError } from '../../src/model-errors.js';
import { TurnLimitError } from '../../src/graph/errors.js';
import { runReplanningLoop } from '../../src/graph/replan.js';
import { createLLMRouter } from '../../src/llm/provider.js';
import { Plan } from '../../src/plan.js';
import { recordingTool, scriptedModel, userText } from './fixtures.js';

const json = (value: unknown) => JSON.stringify(value);

describe('runReplanningLoop: the seed’s worked examples', () => {
  it('refund: follows the plan and does not issue the refund twice when the model echoes it', async () => {
    const checkBillingHistory = recordingTool('checkBillingHistory', () => ({ orders: 5, lastChargeback: '2025-09-10' }));
    const issueRefund = recordingTool('issueRefund', () => ({ confirmationId: 'refund_xyz789' }));
    const escalateToSupervisor = recordingTool('escalateToSupervisor');
    const model = scriptedModel([
      json({
        calls: [
          { _tool: 'checkBillingHistory', customerId: '†input.customerId' },
          { _tool: 'issueRefund', customerId: '†input.customerId', amount: '†input.amount' },
        ],
        output: null,
      }),
      json({
        calls: [{ _tool: 'issueRefund', customerId: '†input.customerId', amount: '†input.amount' }],
        output: { confirmationId: 'refund_xyz789', message: 'The refund has been processed successfully.' },
      }),
    ]);
    const result = await runReplanningLoop({
      llm: model,
      tools: [checkBillingHistory, issueRefund, escalateToSupervisor],
      input: { request: "I'd like a refund for my last order.", customerId: 'cust_123', amount: 50.0 },
      outputSchema: z.object({ confirmationId: z.string(), message: z.string() }),
    });
    expect(result.output).toEqual({ confirmationId: 'refund_xyz789', message: 'The refund has been processed successfully.' });
    expect(issueRefund.calls).toEqual([{ customerId: 'cust_123', amount: 50 }]);
    expect(escalateToSupervisor.calls).toHaveLength(0);
    expect(result.turns.map((turn) => [turn.ran.length, turn.repeated.length])).toEqual([
      [2, 0],
      [0, 1],
    ]);
    const second = userText(model.requests[1]);
    expect(second).toContain('Previous plan:');
    expect(second).toContain('"_tool":"checkBillingHistory"');
    expect(second).toContain('"lastChargeback":"2025-09-10"');
    expect(userText(model.requests[0])).toContain('- issueRefund(');
  });

  it('pet-friendly hotel: swaps a tool of the previous plan after new input', async () => {
    const bookFlight = recordingTool('bookFlight', ({ destination }) => `flight to ${String(destination)}`);
    const bookHotel = recordingTool('bookHotel');
    const findPetFriendlyHotel = recordingTool('findPetFriendlyHotel', () => 'Hotel Hund');
    const model = scriptedModel([
      json({
        calls: [
          { _tool: 'bookFlight', destination: '†input.destination' },
          { _tool: 'findPetFriendlyHotel', destination: '†input.destination' },
        ],
        output: null,
      }),
      json({ calls: [], output: null }),
    ]);
    const result = await runReplanningLoop({
      llm: model,
      tools: [bookFlight, bookHotel, findPetFriendlyHotel],
      input: { destination: 'Berlin', instruction: "Actually, I'll be traveling with my dog." },
      previousCalls: [
        { _tool: 'bookFlight', destination: '†input.destination' },
        { _tool: 'bookHotel', destination: '†input.destination' },
      ],
    });
    const first = userText(model.requests[0]);
    expect(first).toContain('"_tool":"bookHotel"');
    expect(first).toContain('traveling with my dog');
    expect(bookHotel.calls).toHaveLength(0);
    expect(findPetFriendlyHotel.calls).toEqual([{ destination: 'Berlin' }]);
    expect(bookFlight.calls).toEqual([{ destination: 'Berlin' }]);
    expect(result.output).toBeNull();
    expect(result.turns).toHaveLength(2);
  });

  it('declined payment: the error goes to state.error, and the replan reports the failure', async () => {
    const processPayment = recordingTool('processPayment', () => {
      throw Object.assign(new Error('Your card was declined.'), { code: 'card_declined' });
    });
    const confirmOrder = recordingTool('confirmOrder');
    const reportFailure = recordingTool('reportFailure', () => 'reported');
    const model = scriptedModel([
      json({
        calls: [
          { _tool: 'processPayment', amount: '†input.amount', _outputPath: '†state.receipt || †state.error' },
          { _tool: 'confirmOrder', receipt: '†state.receipt' },
        ],
        output: null,
      }),
      json({ calls: [{ _tool: 'reportFailure', error: '†state.error' }], output: { status: 'Failed' } }),
    ]);
    const run = runReplanningLoop({
      llm: model,
      tools: [processPayment, confirmOrder, reportFailure],
      input: { amount: 50.0 },
      outputSchema: z.object({ status: z.enum(['Success', 'Failed']) }),
    });
    const turns: number[] = [];
    run.on('turn-start', ({ turn }) => turns.push(turn));
    const result = await run;
    expect(turns).toEqual([1, 2]);
    expect(result.turns[0]!.results.map((call) => call.status)).toEqual(['failed', 'skipped']);
    expect(result.state).toEqual({ error: { message: 'Your card was declined.', code: 'card_declined' } });
    const second = userText(model.requests[1]);
    expect(second).toContain('"code":"card_declined"');
    expect(second).toContain('call 1 confirmOrder: skipped (state.receipt was never written)');
    expect(confirmOrder.calls).toHaveLength(0);
    expect(reportFailure.calls).toEqual([{ error: { message: 'Your card was declined.', code: 'card_declined' } }]);
    expect(result.output).toEqual({ status: 'Failed' });
  });

  it('language detection: the state blueprint names the paths, and the calls chain through them', async () => {
    const order: string[] = [];
    const detectLanguage = recordingTool('detectLanguage', () => (order.push('detect'), 'fr'));
    const isEnglish = recordingTool('isEnglish', ({ language }) => (order.push('isEnglish'), language === 'en'));
    const translateText = recordingTool('translateText', ({ isEnglish: english }) => (order.push('translate'), english ? null : 'Hello world'));
    const model = scriptedModel([
      // The ASCII spelling works like the dagger.
      json({
        calls: [
          { _tool: 'detectLanguage', text: '$input.text', _outputPath: '$state.language' },
          { _tool: 'isEnglish', language: '†state.language', _outputPath: '†state.isEnglish' },
          { _tool: 'translateText', text: '†input.text', isEnglish: '†state.isEnglish', _outputPath: '†state.translatedText' },
        ],
        output: null,
      }),
      json({ calls: [], output: { translation: 'Hello world' } }),
    ]);
    const stateSchema = {
      type: 'object',
      properties: { language: { type: 'string' }, isEnglish: { type: 'boolean' }, translatedText: { type: 'string' } },
    };
    const result = await runReplanningLoop({
      llm: model,
      tools: [detectLanguage, isEnglish, translateText],
      input: { text: 'Bonjour le monde' },
      stateSchema,
    });
    const first = userText(model.requests[0]);
    expect(first).toContain('State:\n(empty)');
    expect(first).toContain('State blueprint');
    expect(first).toContain('"translatedText":{"type":"string"}');
    expect(order).toEqual(['detect', 'isEnglish', 'translate']);
    expect(translateText.calls).toEqual([{ text: 'Bonjour le monde', isEnglish: false }]);
    expect(result.state).toEqual({ language: 'fr', isEnglish: false, translatedText: 'Hello world' });
    expect(result.output).toEqual({ translation: 'Hello world' });
  });
});

describe('runReplanningLoop: malformed answers, bounds and wiring', () => {
  const echo = recordingTool('echo', ({ n }) => n);

  it('repairs sloppy JSON and feeds an unusable answer back once', async () => {
    const model = scriptedModel([
      'Sure, here is my plan: I will echo things.',
      "```json\n{'calls': [{'_tool': 'echo', 'n': 1, '_outputPath': '†state.one',},], 'output': {'done': true},}\n```",
    ]);
    const result = await runReplanningLoop({ llm: model, tools: [echo], input: {} });
    expect(result.output).toEqual({ done: true });
    expect(result.state).toEqual({ one: 1 });
    expect(model.requests[1]!.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(model.requests[1]!.messages[3]!.content).toMatch(/not usable JSON/);
  });

  it('feeds validation problems back with their call index', async () => {
    const model = scriptedModel([
      json({
        calls: [
          { _tool: 'echo', n: 1 },
          { _tool: 'shout', n: '†state.missing' },
        ],
        output: null,
      }),
      json({ calls: [{ _tool: 'echo', n: 2 }], output: { ok: true } }),
    ]);
    await runReplanningLoop({ llm: model, tools: [echo], input: {} });
    const feedback = model.requests[1]!.messages[3]!.content;
    expect(feedback).toContain('calls[1]: unknown tool "shout"');
    expect(feedback).toContain('calls[1].n: no call writes state.missing');
  });

  it('throws PlannerOutputError with the raw text when the retry is unusable too', async () => {
    const model = scriptedModel(['no json', json({ calls: [{ _tool: 'nope' }], output: null })]);
    const error = await runReplanningLoop({ llm: model, tools: [echo], input: {} }).result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlannerOutputError);
    expect(error).toMatchObject({ code: 'planner_output_invalid', raw: json({ calls: [{ _tool: 'nope' }], output: null }) });
    expect((error as PlannerOutputError).issues[0]).toMatchObject({ path: 'calls[0]' });
  });

  it('asks again when the answer was cut off, and reports truncation when it stays cut off', async () => {
    const cut = { text: '{"calls": [{"_tool": "echo", "n": 1}, {"_tool": "ec', finishReason: 'length' as const };
    const error = await runReplanningLoop({ llm: scriptedModel([cut, cut]), tools: [echo], input: {} }).result.catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'planner_output_truncated' });
  });

  it('checks output against outputSchema', async () => {
    const model = scriptedModel([json({ calls: [], output: { status: 'Maybe' } }), json({ calls: [], output: { status: 'Failed' } })]);
    const result = await runReplanningLoop({
      llm: model,
      tools: [echo],
      input: {},
      outputSchema: z.object({ status: z.enum(['Success', 'Failed']) }),
    });
    expect(result.output).toEqual({ status: 'Failed' });
    expect(model.requests[1]!.messages[3]!.content).toMatch(/output.status must be one of Success, Failed/);
  });

  it('stops with turn_limit after maxTurns, keeping the state reached', async () => {
    let n = 0;
    const model = scriptedModel(
      Array.from({ length: 3 }, () => () => {
        n++;
        return json({ calls: [{ _tool: 'echo', n, _outputPath: `†state.step${n}` }], output: null });
      }),
    );
    const error = await runReplanningLoop({ llm: model, tools: [echo], input: {}, maxTurns: 2 }).result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TurnLimitError);
    expect(error).toMatchObject({ code: 'turn_limit', turns: 2, state: { step1: 1, step2: 2 } });
    expect(model.requests).toHaveLength(2);
  });

  it("uses the router's plan role", async () => {
    const plan = scriptedModel([json({ calls: [], output: { ok: 1 } })]);
    const fallback = scriptedModel([]);
    const result = await runReplanningLoop({ llm: createLLMRouter({ default: fallback, plan }), tools: [echo], input: {} });
    expect(result.output).toEqual({ ok: 1 });
    expect(fallback.requests).toHaveLength(0);
    expect(plan.requests[0]!.jsonSchema).toMatchObject({ required: ['calls', 'output'] });
  });

  it('stops on abort', async () => {
    const controller = new AbortController();
    const model = scriptedModel([
      () => {
        controller.abort();
        return json({ calls: [{ _tool: 'echo', n: 1 }], output: null });
      },
    ]);
    await expect(runReplanningLoop({ llm: model, tools: [echo], input: {}, signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
  });

  it('mirrors every turn into a Plan, keeping earlier turns as completed todos', async () => {
    const plan = new Plan();
    const model = scriptedModel([
      json({ calls: [{ _tool: 'echo', n: 1, _outputPath: '†state.a' }], output: null }),
      json({ calls: [{ _tool: 'echo', n: '†state.a', _outputPath: '†state.b' }], output: { b: 1 } }),
    ]);
    await runReplanningLoop({ llm: model, tools: [echo], input: {}, plan });
    expect(plan.todos.list().map(({ id, description, status }) => [id, description, status])).toEqual([
      ['t1', 'echo → state.a', 'completed'],
      ['t2', 'echo → state.b', 'completed'],
    ]);
  });
});

describe('runReplanningLoop and a model that ignores the signal', () => {
  it('rejects with aborted at once when aborted while the model is answering', async () => {
    const controller = new AbortController();
    const stalled = { generate: () => new Promise<never>(() => undefined) };
    const loop = runReplanningLoop({ llm: stalled, tools: [recordingTool('echo')], input: {}, signal: controller.signal }).result;
    setTimeout(() => controller.abort(), 5);
    const outcome = await Promise.race([loop.catch((error: unknown) => error), new Promise((resolve) => setTimeout(() => resolve('hung'), 300))]);
    expect(outcome).toMatchObject({ code: 'aborted' });
  });
});

describe('runReplanningLoop: the feedback retry', () => {
  it('never sends an empty assistant message back (Anthropic refuses one with HTTP 400)', async () => {
    const echo = recordingTool('echo', ({ n }) => n);
    const model = scriptedModel(['', json({ calls: [{ _tool: 'echo', n: 1 }], output: { done: true } })]);
    const result = await runReplanningLoop({ llm: model, tools: [echo], input: {} });
    expect(result.output).toEqual({ done: true });
    const retry = model.requests[1]!.messages;
    expect(retry.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(retry.every((message) => message.content.trim() !== '')).toBe(true);
  });
});
