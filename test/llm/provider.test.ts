import { describe, expect, it } from 'vitest';
import { createLLMRouter, resolveProvider, streamOrGenerate, type LLMChunk } from '../../src/llm/provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';

describe('createLLMRouter', () => {
  it('routes a role to its provider and falls back to default', () => {
    const small = createScriptedProvider('small');
    const large = createScriptedProvider('large');
    const router = createLLMRouter({ default: small, plan: large });
    expect(router.route('plan')).toBe(large);
    expect(router.route('turn')).toBe(small);
    expect(router.route('edit')).toBe(small);
    expect(router.route('toString')).toBe(small); // inherited names are not roles
    expect(resolveProvider(router, 'plan')).toBe(large);
    expect(resolveProvider(small, 'plan')).toBe(small);
  });

  it('needs a default provider', () => {
    expect(() => createLLMRouter({} as never)).toThrow(/default/);
  });
});

describe('streamOrGenerate', () => {
  it('falls back to generate for providers that cannot stream', async () => {
    const chunks: LLMChunk[] = [];
    const provider = { generate: async () => ({ text: 'hi', usage: { outputTokens: 1 } }) };
    for await (const c of streamOrGenerate(provider, { messages: [] })) chunks.push(c);
    expect(chunks).toEqual([
      { type: 'text-delta', delta: 'hi' },
      { type: 'finish', finishReason: 'stop', usage: { outputTokens: 1 } },
    ]);
  });
});
