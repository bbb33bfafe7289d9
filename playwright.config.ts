import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/**
 * The ports the demo dev server and the fake OpenAI endpoint get during e2e runs (the `demo`
 * script keeps vite's 5173). `E2E_PORT` / `E2E_FAKE_PORT` move them, so two checkouts can run
 * their e2e suites side by side without one reusing the other's server.
 */
const DEMO_PORT = Number(process.env.E2E_PORT ?? 5174);
const FAKE_PORT = Number(process.env.E2E_FAKE_PORT ?? 5199);
process.env.E2E_FAKE_PORT = String(FAKE_PORT);
const DEMO_URL = `http://127.0.0.1:${DEMO_PORT}`;

/**
 * The browser: `CHROMIUM_PATH` (scripts/ensure-browser.sh sets it), else Debian's Chromium when it
 * is installed, else Playwright's own downloaded browser (no executablePath).
 */
function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'];
  return candidates.find((path): path is string => !!path && existsSync(path));
}

const executablePath = chromiumPath();

/**
 * Servers the tests need, started before and stopped after the run. Add one entry per server
 * (for instance a local fake OpenAI-compatible endpoint for the demo's agent tests).
 */
const webServer = [
  {
    name: 'demo',
    command: `npx --no-install vite --host 127.0.0.1 --port ${DEMO_PORT} --strictPort`,
    url: DEMO_URL,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  },
  {
    // A fake OpenAI-compatible endpoint (real SSE) for e2e/demo-openai.spec.ts.
    name: 'fake-openai',
    command: 'node e2e/fake-openai-server.mjs',
    url: `http://127.0.0.1:${FAKE_PORT}/health`,
    env: { FAKE_OPENAI_PORT: String(FAKE_PORT) },
    reuseExistingServer: !process.env.CI,
    timeout: 20_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  },
];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  // Tests, not files, are shared between the workers: the longest files (storage faults, the demo)
  // no longer run alone at the end. A file whose tests share a beforeAll says mode: 'default'.
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  webServer,
  use: {
    baseURL: DEMO_URL,
    screenshot: 'on',
    // Recording a trace costs every test (DOM snapshots at each step); in CI only a retry records one.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
