import { describe, expect, it } from 'vitest';
import { checkExamples, tsdocExamples } from './helpers/tsdoc-examples.js';

// Every TSDoc `@example` in src/ compiles against today's API (the convention, what an example may
// use without importing it, is in the README under "Developing" and at the top of the helper).
describe('TSDoc examples', () => {
  const examples = tsdocExamples();

  it('finds the examples, each in a fenced block', () => {
    expect(examples.length).toBeGreaterThan(300);
    // An @example whose code is not fenced is never checked: fence it (```ts … ```).
    expect(examples.filter((example) => example.lang === 'none').map((example) => example.where)).toEqual([]);
  });

  it('type-checks every ```ts example (one program for all)', () => {
    const { checked, skipped, failures } = checkExamples(examples);
    expect(checked + skipped.length).toBe(examples.length);
    // Read as: file:line of the example's line in src/, the compiler's message and code.
    const report = failures.flatMap((failure) => failure.errors);
    expect(report, `${failures.length} of ${checked} examples do not compile:\n${report.join('\n')}\n`).toEqual([]);
  }, 180_000);
});
