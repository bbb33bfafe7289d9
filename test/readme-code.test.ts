import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkReadmeBlocks, readmeBlocks } from './helpers/readme-blocks.js';

// Every ```ts / ```tsx block of the README compiles as a new user copies it: against the built
// package's declarations (dist/types as `npm run build` writes them), with the imports it shows.
// The convention (a fragment names what it assumes in `<!-- assumes: … -->`) is in the README under
// "Developing" and at the top of the helper.

const COMPILED = ['ts', 'typescript', 'tsx'];

/**
 * Blocks that are right and do not compile because an API type is wrong: each is a bug to fix in
 * src/, not in the README. Matched by the error's text; an entry that no longer matches fails the
 * test, so it is removed once the bug is fixed (test/tsdoc-examples.test.ts lists the same one).
 */
const KNOWN_API_BUGS: ReadonlyArray<{ error: string; why: string }> = [
  {
    error: "Type 'AISDKTool' is not assignable to type",
    why: "toAISDKTool's inputSchema lacks the AI SDK's schema symbol in its type (it is set at runtime; planloop's types cannot name the symbol without depending on `ai`), so `tools: { write_todos: toAISDKTool(writeTodos) }` does not compile against `ai`'s types",
  },
];

describe('README code blocks', () => {
  const blocks = readmeBlocks();

  it('finds the blocks, code fenced as code', () => {
    expect(blocks.filter((block) => COMPILED.includes(block.lang)).length).toBeGreaterThan(20);
    // An unnamed fence is never compiled: name its language (```ts, or ```text for what is not code).
    expect(blocks.filter((block) => block.lang === '').map((block) => `README.md:${block.line - 1}: a fence without a language`)).toEqual([]);
    // A comment naming assumed values belongs to a compiled block.
    expect(blocks.filter((block) => block.assumes.length > 0 && !COMPILED.includes(block.lang)).map((block) => `README.md:${block.line - 1}`)).toEqual([]);
  });

  it('says each thing once: no heading and no bold paragraph lead appears twice', () => {
    const text = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const leads = [...text.matchAll(/^(#+ .+|\*\*[^*]+\*\*)/gm)].map(([lead]) => lead);
    expect(leads.filter((lead, index) => leads.indexOf(lead) !== index)).toEqual([]);
  });

  it('type-checks every ```ts and ```tsx block against the built types (one program for all)', () => {
    const { checked, errors } = checkReadmeBlocks(blocks);
    const isKnown = (error: string) => KNOWN_API_BUGS.some((bug) => error.includes(bug.error));
    const report = errors.filter((error) => !isKnown(error));
    // Read as: the README line, the compiler's message and code.
    expect(report, `${report.length} errors in the ${checked} compiled README blocks:\n${report.join('\n')}\n`).toEqual([]);
    const fixed = KNOWN_API_BUGS.filter((bug) => !errors.some((error) => error.includes(bug.error)));
    expect(fixed.map((bug) => `compiles now, remove it from KNOWN_API_BUGS: ${bug.why}`)).toEqual([]);
  }, 240_000);
});
