// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { outlinePage, renderOutline } from '../../src/dom/index.js';

// The README's eval section says what a turn's page text holds; it said the outline lists "headings
// and controls, not prose" after the outline began listing paragraphs' first words.
it("the eval section describes the outline as it is: paragraphs' first words are in it", () => {
  document.body.innerHTML = '<main><h1>Docs</h1><p>Set ORBITLY_TOKEN before you run the CLI; the token lives in Settings.</p><button>Copy</button></main>';
  const outline = renderOutline(outlinePage({ maxTokens: 400 }));
  expect(outline).toMatch(/\[e\d+\] text "Set ORBITLY_TOKEN before you run the CLI/);

  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const tools = readme.slice(readme.indexOf('**The tools** every arm gets'), readme.indexOf('**The tasks**'));
  expect(tools).toContain('`read {target}`');
  expect(tools).not.toMatch(/not prose|headings and controls/);
  expect(tools).toMatch(/first words of each paragraph/);
});
