/**
 * Issue 26: a model declining is one typed outcome whichever provider says so, and planloop's
 * callers treat it as such: makeTodos and runWebAgent throw a RefusalError (`model_refused`, the
 * model's words kept), editWithInstruction its existing EditError `edit_refused` (words in `raw`),
 * and in every case the plan is exactly as it was. The AI SDK's own `content-filter` finish runs
 * through `generateText` with its mock model, as a host would wire it.
 */
import { generateText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { EditError, RefusalError, refusalOf } from '../src/model-errors.js';
import { createFunctionProvider } from '../src/llm/function-provider.js';
import { createScriptedProvider } from '../src/llm/scripted.js';
import { runWebAgent } from '../src/loop/run-web-agent.js';
import { Plan } from '../src/plan.js';

const WORDS = "I'm sorry, but I can't help with planning that.";
const refusal = { text: '', finishReason: 'refusal' as const, refusal: WORDS };

/** An AI SDK model whose answer the provider's filter withheld: finish reason `content-filter`. */
function filteredModel() {
  const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
  return new MockLanguageModelV3({
    doGenerate: async () => ({ content: [], finishReason: { unified: 'content-filter', raw: 'content_filter' }, usage, warnings: [] }),
  });
}

describe('refusals, one outcome for every caller', () => {
  it('makeTodos throws a RefusalError with the words and leaves a seeded plan as it was', async () => {
    const plan = new Plan({ llm: createScriptedProvider([refusal]) });
    plan.todos.createMany([{ intent: 'navigate', description: 'Open pricing' }]);
    const before = plan.state;
    const error = await plan.makeTodos({ task: 'Plan something' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RefusalError);
    expect(error).toMatchObject({ code: 'model_refused', refusal: WORDS });
    expect(plan.state).toBe(before);
  });

  it("makeTodos through the AI SDK's generateText: the content-filter finish is the same RefusalError", async () => {
    const model = filteredModel();
    const llm = createFunctionProvider(async ({ messages, signal }) => {
      const result = await generateText({ model, messages, ...(signal ? { abortSignal: signal } : {}) });
      return { text: result.text, finishReason: result.finishReason };
    });
    const plan = new Plan({ llm });
    const error = await plan.makeTodos({ task: 'Plan something' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RefusalError);
    expect(refusalOf(error)).toBe('');
    expect(model.doGenerateCalls).toHaveLength(1); // not retried
    expect(plan.todos.list()).toEqual([]);
  });

  it('runWebAgent: a refused turn ends the run with a RefusalError (run-error too) and undoes nothing of the plan but the turn', async () => {
    const llm = createScriptedProvider([
      { task_summary: 'A look at pricing', todos: [{ intent: 'navigate', description: 'Open pricing', expected_turn: 1 }] },
      refusal,
    ]);
    const plan = new Plan({ llm });
    const errors: unknown[] = [];
    plan.on('run-error', ({ error }) => errors.push(error));
    const error = await runWebAgent({ plan, task: 'Show me the prices', tools: { navigate: () => 'ok' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RefusalError);
    expect(errors).toEqual([error]);
    expect((error as RefusalError).refusal).toBe(WORDS);
    expect(plan.todos.list().map((todo) => [todo.description, todo.status])).toEqual([['Open pricing', 'pending']]);
  });

  it("editWithInstruction: a provider refusal is the editing core's own edit_refused, with the words, not retried", async () => {
    const llm = createScriptedProvider([refusal, { content: 'never asked' }]);
    const plan = new Plan({ llm });
    const doc = plan.markdown.create({ title: 'Notes', content: 'Three tiers.' });
    const error = await plan.markdown.editWithInstruction(doc.id, 'Make it rude.').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EditError);
    expect(error).toMatchObject({ code: 'edit_refused', raw: WORDS });
    expect((error as EditError).cause).toBeInstanceOf(RefusalError);
    expect(refusalOf(error)).toBe(WORDS);
    expect(llm.calls).toHaveLength(1);
    expect(plan.markdown.read(doc.id)?.content).toBe('Three tiers.');
  });
});
