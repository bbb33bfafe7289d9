#!/usr/bin/env bash
# Runs the Playwright tests in e2e/ against the demo, in the Chromium that ensure-browser.sh finds.
# Extra arguments go to `playwright test` (e.g. `npm run test:e2e -- e2e/smoke.spec.ts`).
set -euo pipefail
cd "$(dirname "$0")/.."
CHROMIUM_PATH="$(bash scripts/ensure-browser.sh)"
export CHROMIUM_PATH
# e2e/built-package.spec.ts and e2e/example-minimal.spec.ts run the published build (dist/, and
# the example type-checks against dist/types/), so build both fresh (what `npm run build` does).
npx --no-install vite build --logLevel warn
npx --no-install tsc -p tsconfig.build.json
echo "e2e: Chromium at $CHROMIUM_PATH"
exec npx --no-install playwright test "$@"
