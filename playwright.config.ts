// Browser tests (e2e/): Debian's Chromium (never a downloaded browser) against the production
// build served by `npm start`'s server, with real PostgreSQL and a local anvil chain, all started
// by e2e/global-setup.ts. Run with `npm run test:e2e` (which builds first).
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  // Two files at once, each worker on a database, chain and server of its own (e2e/global-setup.ts):
  // two keep the two cores busy (three took 7.1 minutes in CI against 6.3). E2E_WORKERS=1 runs
  // them one after another.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // A hang detector, not a speed goal (the longest test, 28 page loads each checked with axe,
  // takes about a minute on an idle machine and several beside other work).
  timeout: 300_000,
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  outputDir: "test-results/e2e",
  reporter: [["list"], ["html", { open: "never", outputFolder: "test-results/e2e-report" }]],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      // Without the background-networking flags Chromium keeps dialling Google, which this
      // machine's closed network refuses, many connections at a time.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
    viewport: { width: 1280, height: 800 },
    actionTimeout: 15_000,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
});
