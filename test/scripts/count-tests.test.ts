import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string) => `test/fixtures/vitest-reports/${name}`;

/** Runs scripts/count-tests.mjs on recorded reports: its lines and exit code. */
async function count(unit: string, unitExit = 1, lint = 'lint-clean.json', lintExit = 0): Promise<{ lines: string[]; code: number }> {
  const args = [
    'scripts/count-tests.mjs',
    '--lint',
    fixture(lint),
    '--lint-exit',
    String(lintExit),
    '--unit',
    fixture(unit),
    '--e2e',
    fixture('e2e-passed.json'),
    '--unit-exit',
    String(unitExit),
  ];
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root });
    return { lines: stdout.trimEnd().split('\n'), code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; code: number };
    return { lines: failed.stdout.trimEnd().split('\n'), code: failed.code };
  }
}

// The reports are vitest's own json output (vitest 4, `--reporter=json`), recorded from a run of
// small test files (paths shortened to /repo/test/recorded/); the Playwright one is its stats only;
// the lint ones are biome 2.6's (`biome check --error-on-warnings --reporter=json`) over two and
// four small files, one of them clean.
describe('scripts/count-tests.mjs on recorded reports', () => {
  it('counts one failed file as one, though vitest counts its describe blocks as suites too', async () => {
    const { lines, code } = await count('unit-one-failed.json');
    expect(lines).toEqual([
      'lint (biome): 2 passed, 0 failed',
      'unit (vitest): 3 passed, 1 failed, 1 skipped',
      '  unit (vitest) 1 test file(s) failed: /repo/test/recorded/failing.test.ts',
      'browser (playwright): 2 passed, 0 failed',
      'tests: 7 passed, 1 failed, 1 skipped',
    ]);
    expect(code).toBe(1);
  });

  it('counts a file that did not load as a failed file and one failed test', async () => {
    const { lines, code } = await count('unit-load-error.json');
    expect(lines).toEqual([
      'lint (biome): 2 passed, 0 failed',
      'unit (vitest): 3 passed, 2 failed, 1 skipped',
      '  unit (vitest) 2 test file(s) failed: /repo/test/recorded/broken.test.ts, /repo/test/recorded/failing.test.ts',
      '  unit (vitest) /repo/test/recorded/broken.test.ts failed without a failed test (cannot load: the module threw at import); counted as 1 failed',
      'browser (playwright): 2 passed, 0 failed',
      'tests: 7 passed, 2 failed, 1 skipped',
    ]);
    expect(code).toBe(1);
  });

  it('counts each file with a lint or format finding as one failed test, warnings included', async () => {
    const { lines, code } = await count('unit-one-failed.json', 1, 'lint-findings.json', 1);
    expect(lines.slice(0, 2)).toEqual(['lint (biome): 2 passed, 2 failed', '  lint (biome) 3 finding(s) in src/loose.ts, src/unformatted.ts']);
    expect(lines.at(-1)).toBe('tests: 7 passed, 3 failed, 1 skipped');
    expect(code).toBe(1);
  });

  it('counts a lint run that left no report as one failed test', async () => {
    const { lines, code } = await count('unit-one-failed.json', 1, 'no-such-report.json', 1);
    expect(lines[0]).toBe('lint (biome): 0 passed, 1 failed');
    expect(lines.at(-1)).toBe('tests: 5 passed, 2 failed, 1 skipped');
    expect(code).toBe(1);
  });
});
