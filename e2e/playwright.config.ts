// Browser tests: the real server (built web app, embedded PGlite in a throwaway data folder, offline
// providers) driven by Debian's system Chromium. No browser is ever downloaded.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
/** The browser tests start a real SMTP sink on this port (e2e/support/smtp.ts); the server mails it. */
export const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526);
const baseURL = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "storyverse-e2e-"));

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "node --import tsx server/src/main.ts",
    cwd: path.resolve(import.meta.dirname, ".."),
    url: `${baseURL}/api/health`,
    // A loaded CI machine can take well over a minute to start the server (tsx, migrations, PGlite).
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      APP_URL: baseURL,
      LOG_LEVEL: "warn",
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      // Every spec file signs its people up from 127.0.0.1 against this one server; a repeated run
      // (--repeat-each) would otherwise meet the hourly sign-up limit that the integration tests cover.
      SIGNUPS_PER_ADDRESS_PER_HOUR: "1000",
      // Likewise the sign-ins and link checks: a fast run signs in more than 30 times in 15 minutes.
      ADDRESS_LIMITS_FACTOR: "100",
    },
  },
});
