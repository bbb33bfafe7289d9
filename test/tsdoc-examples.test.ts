import { describe, expect, it } from 'vitest';
import { checkExamples, tsdocExamples } from './helpers/tsdoc-examples.js';

// Every TSDoc `@example` in src/ compiles against today's API. The convention (what an example may
// use without importing it) is in the README under "Developing" and at the top of the helper.

/**
 * Examples that are right and do not compile because the API's types are wrong: each is a bug to
 * fix in src/, not in the comment. Matched by file and error text; an entry that no longer matches
 * fails the test, so it is removed once the bug is fixed.
 */
const KNOWN_API_BUGS: ReadonlyArray<{ file: string; error: string; why: string }> = [
  {
    file: 'src/interop/tool-definitions.ts',
    error: "Type 'AISDKTool' is not assignable to type",
    why: "toAISDKTool's inputSchema lacks the AI SDK's schema symbol in its type (it is set at runtime), so `tools: { write_todos: toAISDKTool(writeTodos) }` (the README's AI SDK loop too) does not compile against `ai`'s types",
  },
];

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
    const errors = failures.flatMap((failure) => failure.errors);
    const isKnown = (error: string) => KNOWN_API_BUGS.some((bug) => error.startsWith(`${bug.file}:`) && error.includes(bug.error));
    const report = errors.filter((error) => !isKnown(error));
    const failing = failures.filter((failure) => !failure.errors.every(isKnown)).length;
    // Read as: the example's line in src/ (file:line), the compiler's message and code.
    expect(report, `${failing} of ${checked} examples do not compile:\n${report.join('\n')}\n`).toEqual([]);
    const fixed = KNOWN_API_BUGS.filter((bug) => !errors.some((error) => error.startsWith(`${bug.file}:`) && error.includes(bug.error)));
    expect(fixed.map((bug) => `${bug.file}: compiles now, remove it from KNOWN_API_BUGS (${bug.why})`)).toEqual([]);
  }, 180_000);
});
