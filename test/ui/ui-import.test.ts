import { describe, expect, it } from 'vitest';

// Runs in plain Node (no DOM): importing `planloop/ui` must work there (server rendering, tests of
// other modules); only registering the element needs a DOM.
describe('planloop/ui without a DOM', () => {
  it('imports without touching the DOM, and definePlanPanel says what it needs', async () => {
    expect(typeof (globalThis as { HTMLElement?: unknown }).HTMLElement).toBe('undefined');
    const ui = await import('../../src/ui/index.js');
    expect(typeof ui.PlanPanelElement).toBe('function');
    expect(ui.PLAN_PANEL_CSS).toContain('--plan-panel-accent');
    expect(() => ui.definePlanPanel()).toThrow(/needs a DOM with customElements/);
  });
});
