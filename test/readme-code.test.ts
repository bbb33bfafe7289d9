import { describe, expect, it } from 'vitest';
import { checkReadmeBlocks, readmeBlocks } from './helpers/readme-blocks.js';

// Every ```ts / ```tsx block of the README compiles as a new user copies it: against the built
// package's declarations (dist/types as `npm run build` writes them), with the imports it shows.
// The convention (a fragment names what it assumes in `<!-- assumes: … -->`) is in the README under
// "Developing" and at the top of the helper.

describe('README code blocks', () => {
  const blocks = readmeBlocks();

  it('finds the blocks, code fenced as code', () => {
    expect(blocks.filter((block) => ['ts', 'typescript', 'tsx'].includes(block.lang)).length).toBeGreaterThan(20);
    // An unnamed fence is never compiled: name its language (```ts, or ```text for what is not code).
    expect(blocks.filter((block) => block.lang === '').map((block) => `README.md:${block.line - 1}`)).toEqual([]);
    // A comment naming assumed values belongs to a compiled block.
    expect(blocks.filter((block) => block.assumes.length > 0 && !['ts', 'typescript', 'tsx'].includes(block.lang)).map((block) => `README.md:${block.line - 1}`)).toEqual([]);
  });

  it('type-checks every ```ts and ```tsx block against the built types (one program for all)', () => {
    const { checked, errors } = checkReadmeBlocks(blocks);
    const failing = new Set(errors.map((error) => error.split(':')[1])).size;
    // Read as: the README line, the compiler's message and code.
    expect(errors, `errors in ${checked} README blocks (about ${failing} lines):\n${errors.join('\n')}\n`).toEqual([]);
  }, 240_000);
});
