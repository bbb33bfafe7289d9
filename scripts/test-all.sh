#!/usr/bin/env bash
# Every test: vitest (test/), then Playwright (e2e/) in a real Chromium. Both always run; the last
# line is `tests: N passed, N failed[, N skipped]` summed over both, and the exit code is non-zero
# when a test failed or a runner stopped before writing its report.
set -uo pipefail
cd "$(dirname "$0")/.."

mkdir -p test-results
# A report left from an earlier run must not stand in for a runner that crashes this time.
rm -f test-results/unit.json test-results/e2e.json

echo "== unit tests (vitest)"
NO_COLOR=1 npx --no-install vitest run \
  --reporter=default --reporter=json --outputFile.json=test-results/unit.json
unit_exit=$?

echo "== browser tests (playwright)"
bash scripts/e2e.sh
e2e_exit=$?

echo
exec node scripts/count-tests.mjs --unit-exit "$unit_exit" --e2e-exit "$e2e_exit"
