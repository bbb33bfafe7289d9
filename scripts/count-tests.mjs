// Sums biome's, vitest's and Playwright's JSON reports into one closing line:
//   tests: N passed, N failed[, N skipped]
// and exits 1 when anything failed. A runner that left no report, or exited non-zero while its
// report shows no failed test (a file that did not load, a web server that did not start), counts
// as one failed test, so a crash never reads as success.
// Use: node scripts/count-tests.mjs --lint-exit <code> --unit-exit <code> --e2e-exit <code>
import { readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'lint-exit': { type: 'string', default: '0' },
    'unit-exit': { type: 'string', default: '0' },
    'e2e-exit': { type: 'string', default: '0' },
    lint: { type: 'string', default: 'test-results/lint.json' },
    unit: { type: 'string', default: 'test-results/unit.json' },
    e2e: { type: 'string', default: 'test-results/e2e.json' },
  },
});

function readReport(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * biome's json reporter: one test per file it checked, failed when the file has a finding (a lint
 * rule or a formatting difference; warnings count, as `--error-on-warnings` makes them fail).
 */
function countLint(report) {
  const summary = report.summary ?? {};
  const checked = (summary.changed ?? 0) + (summary.unchanged ?? 0);
  const findings = (report.diagnostics ?? []).filter((diagnostic) => diagnostic.severity === 'error' || diagnostic.severity === 'warning');
  const files = new Set(findings.map((diagnostic) => shortName(diagnostic.location?.path?.file ?? diagnostic.location?.path ?? '(configuration)')));
  const notes = files.size ? [`${findings.length} finding(s) in ${[...files].slice(0, 10).join(', ')}${files.size > 10 ? ', …' : ''}`] : [];
  return { passed: Math.max(0, checked - files.size), failed: files.size, skipped: 0, notes };
}

/**
 * vitest's json reporter (jest-compatible fields). Its `numFailedTestSuites` counts a file and each
 * `describe` in it, so the failed files are counted from `testResults`. A file that failed with no
 * failed test (it did not load) counts as one failed test.
 */
function countUnit(report) {
  const failedFiles = (report.testResults ?? []).filter((file) => file.status === 'failed');
  const unloaded = failedFiles.filter((file) => !(file.assertionResults ?? []).some((test) => test.status === 'failed'));
  const notes = failedFiles.length ? [`${failedFiles.length} test file(s) failed: ${failedFiles.map((file) => shortName(file.name)).join(', ')}`] : [];
  for (const file of unloaded)
    notes.push(`${shortName(file.name)} failed without a failed test (${firstLine(file.message) || 'it did not run'}); counted as 1 failed`);
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + unloaded.length,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    notes,
  };
}

/** A test file's path from the repository's root when it lies under it. */
function shortName(path) {
  const name = relative(process.cwd(), String(path ?? '?'));
  return name.startsWith('..') || isAbsolute(name) ? String(path) : name;
}

/** Playwright's json reporter: flaky tests passed on a retry and count as passed, named below. */
function countE2e(report) {
  const stats = report.stats ?? {};
  const notes = [];
  if (stats.flaky) notes.push(`${stats.flaky} flaky test(s) passed only on retry: ${flakyTitles(report).join('; ')}`);
  for (const error of report.errors ?? []) notes.push(`error: ${firstLine(error.message)}`);
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: stats.unexpected ?? 0,
    skipped: stats.skipped ?? 0,
    notes,
  };
}

function flakyTitles(report) {
  const titles = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'flaky') titles.push([...path, spec.title].join(' > '));
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
  return titles;
}

function firstLine(text) {
  return (
    String(text ?? '')
      .split('\n')
      .find((line) => line.trim()) ?? ''
  );
}

const runners = [
  { name: 'lint (biome)', file: values.lint, exit: Number(values['lint-exit']), count: countLint },
  { name: 'unit (vitest)', file: values.unit, exit: Number(values['unit-exit']), count: countUnit },
  { name: 'browser (playwright)', file: values.e2e, exit: Number(values['e2e-exit']), count: countE2e },
];

const total = { passed: 0, failed: 0, skipped: 0 };
for (const runner of runners) {
  const report = readReport(runner.file);
  let result;
  if (report === null) {
    result = { passed: 0, failed: 1, skipped: 0, notes: [`crashed before writing ${runner.file} (exit ${runner.exit}); counted as 1 failed`] };
  } else {
    result = runner.count(report);
    if (runner.exit !== 0 && result.failed === 0) {
      result.failed = 1;
      result.notes.push(`exited ${runner.exit} with no failed test in its report; counted as 1 failed`);
    }
  }
  const skipped = result.skipped ? `, ${result.skipped} skipped` : '';
  // Not in the closing-line shape on purpose: only the last line is the total.
  console.log(`${runner.name}: ${result.passed} passed, ${result.failed} failed${skipped}`);
  for (const note of result.notes) console.log(`  ${runner.name} ${note}`);
  total.passed += result.passed;
  total.failed += result.failed;
  total.skipped += result.skipped;
}

const skipped = total.skipped ? `, ${total.skipped} skipped` : '';
console.log(`tests: ${total.passed} passed, ${total.failed} failed${skipped}`);
process.exitCode = total.failed > 0 ? 1 : 0;
