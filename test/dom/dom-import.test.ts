import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';

// Runs in plain Node (no DOM): importing `planloop/dom` touches nothing; calling it without a
// root says what it needs.
describe('planloop/dom without a DOM', () => {
  it('imports without touching the DOM, and asks for a root when called', async () => {
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
    const dom = await import('../../src/dom/index.js');
    expect(typeof dom.outlinePage).toBe('function');
    expect(dom.estimateTokens('[e3] button "Start free trial"')).toBe(10);
    expect(() => dom.outlinePage()).toThrow(ValidationError);
    expect(() => dom.outlinePage()).toThrow(/there is no document here; pass options.root/);
    expect(() => dom.resolveTarget('e1')).toThrow(/resolveTarget: there is no document here/);
  });
});
