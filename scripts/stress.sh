#!/usr/bin/env bash
# What fails by chance, several times over, before it fails in CI: first the property tests (every
# test file that uses fast-check) with fresh seeds, STRESS_PROPERTY_REPEATS times (default 5; a
# failure prints its seed and the FC_SEED=… command that replays it); then the e2e suite under CPU
# load, STRESS_REPEATS times (default 5) with STRESS_WORKERS busy workers (default one per core).
# Extra arguments go to `playwright test` (e.g. a single spec). Prints the machine's load while the
# e2e suite ran and ends with `stress: N passed, N failed` (the e2e tests; property runs that
# failed count as failed too).
set -uo pipefail
cd "$(dirname "$0")/.."

repeats="${STRESS_REPEATS:-5}"
workers="${STRESS_WORKERS:-$(nproc)}"
property_repeats="${STRESS_PROPERTY_REPEATS:-5}"

mkdir -p test-results
mapfile -t property_files < <(grep -rlE "from 'fast-check'" test --include='*.test.ts' | sort)
property_failed=0
for run in $(seq "$property_repeats"); do
  # No FC_SEED: every property draws a fresh seed. This looks for seeds that fail, not for slow
  # runs: a generous timeout (a property of 10,000 cases takes seconds on a busy machine), and the
  # tests named "(timing guard)" (a bound on elapsed time, against quadratic work) are left out.
  if NO_COLOR=1 npx --no-install vitest run --testTimeout=120000 --testNamePattern='^(?!.*\(timing guard\))' "${property_files[@]}" > "test-results/stress-properties-$run.log" 2>&1; then
    echo "stress: property tests, run $run of $property_repeats (${#property_files[@]} files, fresh seeds): passed"
  else
    property_failed=$((property_failed + 1))
    echo "stress: property tests, run $run of $property_repeats: FAILED (test-results/stress-properties-$run.log)"
    grep -E 'FAIL|Replay it:|seed:' "test-results/stress-properties-$run.log" | head -20
  fi
done
CHROMIUM_PATH="$(bash scripts/ensure-browser.sh)" || exit 1
export CHROMIUM_PATH
# The same build as scripts/e2e.sh: dist/ and its declarations (the minimal example type-checks
# against dist/types, and vite build empties dist/).
npx --no-install vite build --logLevel warn
npx --no-install tsc -p tsconfig.build.json

# Busy workers: each spins a core until the run ends.
busy=()
for _ in $(seq "$workers"); do
  node -e 'for (;;) {}' &
  busy+=("$!")
done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT

echo "stress: $repeats repeats of the e2e suite with $workers busy workers; load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
npx --no-install playwright test --repeat-each "$repeats" --retries 0 "$@" \
  > test-results/stress.log 2>&1
exit_code=$?
echo "stress: load at the end (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
grep -E '✘|failed|flaky' test-results/stress.log | head -40
PROPERTY_FAILED="$property_failed" node -e '
  const report = JSON.parse(require("node:fs").readFileSync("test-results/e2e.json", "utf8"));
  const s = report.stats ?? {};
  const properties = Number(process.env.PROPERTY_FAILED);
  console.log(`stress: ${(s.expected ?? 0) + (s.flaky ?? 0)} passed, ${(s.unexpected ?? 0) + properties} failed${properties ? ` (${properties} property run(s))` : ""}`);
'
[ "$property_failed" -gt 0 ] && exit 1
exit "$exit_code"
