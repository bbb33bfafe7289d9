// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createLookTools, createRefRegistry, outlinePage, renderOutline } from '../../src/dom/index.js';
import { ValidationError } from '../../src/errors.js';

afterEach(() => document.body.replaceChildren());

const links = (n: number) => Array.from({ length: n }, (_, i) => `<a href="/p${i}">Link ${i}</a>`).join('');

describe('createLookTools', () => {
  it('says where the outline left elements out, and expand shows that region by its ref', () => {
    document.body.innerHTML = `<nav aria-label="All topics">${links(80)}</nav><main><h1>Tides</h1><p>The sea rises and falls twice a day.</p></main>`;
    const registry = createRefRegistry();
    const text = renderOutline(outlinePage({ registry, maxTokens: 120 }));
    const summary = /… (\d+) more in (e\d+): \d+ links/.exec(text);
    expect(summary, text).not.toBeNull();
    expect(text).toContain('h1 "Tides"');
    expect(text).toContain('text "The sea rises and falls twice a day."');
    const tools = createLookTools({ registry, maxTokens: 1000 });
    expect(tools.expand.risk).toBe('read');
    const expanded = tools.expand.run({ target: summary?.[2] });
    expect(expanded).toContain('link "Link 79"');
    expect(expanded.split('\n').length).toBeGreaterThan(60);
  });

  it('reads an element’s text in pages, never hidden or private text, and refuses private targets', () => {
    document.body.innerHTML = `<main><p>${'word '.repeat(900)}end</p><p hidden>secret plan</p><div data-planloop-private id="acct">Balance 1,234</div><p aria-hidden="true">aria secret</p></main>`;
    const tools = createLookTools({ maxTokens: 100 });
    const first = tools.read_text.run({});
    expect(first.length).toBeLessThan(500);
    const next = /"from":(\d+)/.exec(first);
    expect(next).not.toBeNull();
    let all = first;
    for (let from = Number(next?.[1]), i = 0; from && i < 20; i += 1) {
      const page = tools.read_text.run({ from });
      all += page;
      from = Number(/"from":(\d+)/.exec(page)?.[1] ?? 0);
    }
    expect(all).toContain('end');
    for (const hidden of ['secret plan', 'Balance', 'aria secret']) expect(all).not.toContain(hidden);
    // Only refs are targets (a CSS selector is refused), and a private element never gets one.
    expect(() => tools.read_text.run({ target: '#acct' })).toThrow(/not a ref/);
    expect(() => tools.read_text.run({ target: 'e999' })).toThrow();
  });

  it('scrolls and says where the viewport is; refuses a bad budget', async () => {
    document.body.innerHTML = '<main><p>Short page</p></main>';
    await expect(createLookTools({ settleMs: 0 }).scroll.run({ to: 'down' })).resolves.toMatch(/^Scrolled: the viewport shows \d+–\d+ of \d+ px/);
    expect(() => createLookTools({ maxTokens: 5 })).toThrow(ValidationError);
  });
});
