import { describe, expect, it } from 'vitest';
import { createLLMRouter, resolveProvider } from '../../src/llm/provider.js';
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
