/**
 * callModel turns every provider's way of declining into one typed outcome (issue 26): a
 * RefusalError with code `model_refused` and the model's words.
 */
import { describe, expect, it } from 'vitest';
import { RefusalError, refusalOf } from '../../src/errors.js';
import { callModel } from '../../src/llm/call.js';
import { createFunctionProvider } from '../../src/llm/function-provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';

const request = { messages: [{ role: 'user' as const, content: 'Plan a tour of the admin panel' }] };

describe('callModel: refusals', () => {
  it('throws a RefusalError with the words of a refusal finish, streamed or generated', async () => {
    for (const provider of [
      createScriptedProvider({ text: '', finishReason: 'refusal', refusal: "I can't help with that." }),
      { generate: async () => ({ text: '', finishReason: 'refusal' as const, refusal: "I can't help with that." }) },
    ]) {
      const error = await callModel(provider, request).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RefusalError);
      expect(error).toMatchObject({ code: 'model_refused', refusal: "I can't help with that.", text: '' });
      expect(refusalOf(error)).toBe("I can't help with that.");
    }
  });

  it('takes the text the model wrote as its words when the API gave none apart', async () => {
    const error = (await callModel(createScriptedProvider({ text: 'Sorry, I will not do that. ', finishReason: 'refusal' }), request).catch((caught: unknown) => caught)) as RefusalError;
    expect(error.refusal).toBe('Sorry, I will not do that.');
    expect(error.text).toBe('Sorry, I will not do that. ');
    expect(error.message).toMatch(/^The model declined to answer: Sorry, I will not do that\./);
  });

  it("reads the AI SDK's content-filter finish returned through a function provider", async () => {
    const provider = createFunctionProvider(async () => ({ text: '', finishReason: 'content-filter' as never }));
    expect(await provider.generate(request)).toEqual({ text: '', finishReason: 'refusal' });
    const error = await callModel(provider, request).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'model_refused', refusal: '' });
  });
});
