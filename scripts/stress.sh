#!/usr/bin/env bash
# The e2e suite under CPU load, several times over: flaky waits show up here before they show up
# in CI. `npm run test:stress` runs 5 repeats with one busy worker per core; STRESS_REPEATS and
# STRESS_WORKERS change that. Extra arguments go to `playwright test` (e.g. a single spec).
# Prints the machine's load while it ran and ends with `stress: N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."

repeats="${STRESS_REPEATS:-5}"
workers="${STRESS_WORKERS:-$(nproc)}"
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
mkdir -p test-results
npx --no-install playwright test --repeat-each "$repeats" --retries 0 "$@" \
  > test-results/stress.log 2>&1
exit_code=$?
echo "stress: load at the end (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
grep -E '✘|failed|flaky' test-results/stress.log | head -40
node -e '
  const report = JSON.parse(require("node:fs").readFileSync("test-results/e2e.json", "utf8"));
  const s = report.stats ?? {};
  console.log(`stress: ${(s.expected ?? 0) + (s.flaky ?? 0)} passed, ${s.unexpected ?? 0} failed`);
'
exit "$exit_code"
