/*
 * Every property test's failing seed, reproducible from a CI log. vitest loads this file before
 * each test file (vite.config.ts `setupFiles`), so no test has to import it: a failing property's
 * error names its seed and the command that replays it, and `FC_SEED=<seed>` gives every property
 * of the run that seed (fast-check then finds and shrinks the same counterexample). Without
 * FC_SEED each property draws a fresh seed, as fast-check does by default.
 */
import { relative } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

/**
 * The seed FC_SEED asks for, or `undefined` when it is unset or empty.
 *
 * @example
 * ```ts
 * replaySeed({ FC_SEED: '-1817' }); // -1817
 * ```
 */
export function replaySeed(env: Record<string, string | undefined>): number | undefined {
  const raw = env.FC_SEED?.trim();
  if (!raw) return undefined;
  if (!/^-?\d+$/.test(raw)) throw new Error(`FC_SEED must be the integer seed a failing property printed, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/**
 * The command that replays a failed property: its seed, its file and its test's name (as a `-t` pattern).
 *
 * @example
 * ```ts
 * replayCommand(42, 'test/store.test.ts', 'store > keeps order (property)');
 * // 'FC_SEED=42 npx vitest run test/store.test.ts -t "keeps order \\(property\\)"'
 * ```
 */
export function replayCommand(seed: number, file: string, testName: string | undefined): string {
  const name = testName?.split(' > ').at(-1);
  const pattern = name ? ` -t ${JSON.stringify(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))}` : '';
  return `FC_SEED=${seed} npx vitest run ${file}${pattern}`;
}

const seed = replaySeed(process.env);
fc.configureGlobal({
  ...fc.readConfigureGlobal(),
  ...(seed === undefined ? {} : { seed }),
  reporter(details) {
    if (!details.failed) return;
    const { testPath, currentTestName } = expect.getState();
    const file = testPath ? relative(process.cwd(), testPath) : '<test file>';
    const report = fc.defaultReportMessage(details) ?? `Property failed with seed ${details.seed}`;
    throw new Error(`${report}\n\nReplay it: ${replayCommand(details.seed, file, currentTestName)}`, { cause: details.errorInstance });
  },
});
