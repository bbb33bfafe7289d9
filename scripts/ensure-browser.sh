#!/usr/bin/env bash
# Finds a Chromium for the Playwright tests and prints its path on stdout (messages go to stderr).
# Use: CHROMIUM_PATH="$(bash scripts/ensure-browser.sh)" && export CHROMIUM_PATH
# Order: $CHROMIUM_PATH; Debian's chromium; apt-get install chromium (root on Debian);
# Playwright's own downloaded browser; `npx playwright install chromium` (never on CI); else fail.
set -uo pipefail
cd "$(dirname "$0")/.."

say() { echo "ensure-browser: $*" >&2; }

# Debian's /usr/bin/chromium is a shell wrapper that sources /etc/chromium.d (extension flags, a
# /dev/shm check that prints "[: unexpected operator" when findmnt reports two mounts); the real
# binary beside it starts the same browser without that noise.
debian_chromium() {
  if [ -x /usr/lib/chromium/chromium ]; then echo /usr/lib/chromium/chromium
  elif [ -x /usr/bin/chromium ]; then echo /usr/bin/chromium
  else return 1; fi
}

# Playwright's own browser, if `npx playwright install chromium` put one in its cache.
playwright_chromium() {
  node -e "
    const { chromium } = require('@playwright/test');
    const p = chromium.executablePath();
    if (!require('node:fs').existsSync(p)) process.exit(1);
    console.log(p);
  " 2>/dev/null
}

if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ -x "$CHROMIUM_PATH" ]; then echo "$CHROMIUM_PATH"; exit 0; fi
  say "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file; looking for another browser"
fi

if path=$(debian_chromium); then echo "$path"; exit 0; fi

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  say "installing Debian's chromium with apt-get (about 30 s)"
  log=$(mktemp)
  if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >"$log" 2>&1 \
     && path=$(debian_chromium); then
    rm -f "$log"; echo "$path"; exit 0
  fi
  say "apt-get install chromium failed; its last lines:"
  tail -n 15 "$log" >&2; rm -f "$log"
fi

if path=$(playwright_chromium); then echo "$path"; exit 0; fi

if [ -z "${CI:-}" ]; then
  say "no Chromium found; trying 'npx playwright install chromium' as a last resort"
  if timeout 600 npx --no-install playwright install chromium >&2 && path=$(playwright_chromium); then
    echo "$path"; exit 0
  fi
  say "'npx playwright install chromium' did not give a browser"
fi

cat >&2 <<'MSG'
ensure-browser: no Chromium found for the Playwright tests. Do one of:
  - install Debian's Chromium:        sudo apt-get update && sudo apt-get install -y chromium
  - point to a Chrome/Chromium binary: export CHROMIUM_PATH=/path/to/chromium
  - download Playwright's browser:     npx playwright install chromium
MSG
exit 1
