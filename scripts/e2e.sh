#!/usr/bin/env bash
# Runs the Playwright tests in e2e/ against the demo, in the Chromium that ensure-browser.sh finds.
# Extra arguments go to `playwright test` (e.g. `npm run test:e2e -- e2e/smoke.spec.ts`).
set -euo pipefail
cd "$(dirname "$0")/.."
CHROMIUM_PATH="$(bash scripts/ensure-browser.sh)"
export CHROMIUM_PATH
# e2e/built-package.spec.ts runs the published build (dist/), so build it fresh (a few seconds).
npx --no-install vite build --logLevel warn
echo "e2e: Chromium at $CHROMIUM_PATH"
exec npx --no-install playwright test "$@"
