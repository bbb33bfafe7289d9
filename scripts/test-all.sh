#!/usr/bin/env bash
# Every test: the lint and format check (biome), vitest (test/), then Playwright (e2e/) in a real
# Chromium. All three always run; the last line is `tests: N passed, N failed[, N skipped]` summed
# over them (biome counts one test per file it checked), and the exit code is non-zero
# when a test failed or a runner stopped before writing its report.
set -uo pipefail
cd "$(dirname "$0")/.."

mkdir -p test-results
# A report left from an earlier run must not stand in for a runner that crashes this time.
rm -f test-results/lint.json test-results/unit.json test-results/e2e.json

echo "== lint and format (biome)"
# The JSON report is for the count; the readable one says what to fix (`npm run format` writes
# the formatting, the rest is by hand).
npx --no-install biome check --error-on-warnings --reporter=json >test-results/lint.json 2>/dev/null
lint_exit=$?
[ "$lint_exit" -eq 0 ] || npx --no-install biome check --error-on-warnings --max-diagnostics=50

echo "== unit tests (vitest)"
NO_COLOR=1 npx --no-install vitest run \
  --reporter=default --reporter=json --outputFile.json=test-results/unit.json
unit_exit=$?

echo "== browser tests (playwright)"
bash scripts/e2e.sh
e2e_exit=$?

echo
exec node scripts/count-tests.mjs --lint-exit "$lint_exit" --unit-exit "$unit_exit" --e2e-exit "$e2e_exit"
