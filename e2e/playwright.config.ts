// Browser tests: the real server (built web app, embedded PGlite in a throwaway data folder, offline
// providers) driven by Debian's system Chromium. No browser is ever downloaded.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { smtpPort } from "./support/mailbox";

// Two servers: most specs run against one whose offline narrator writes without pauses; the specs whose
// subject is streaming and Stop run against one that writes at a reading pace (20 words a second: a
// slow machine still has time to press Stop mid-answer).
const port = Number(process.env.E2E_PORT ?? 3100);
const pacedPort = port + 1;
const urlOf = (serverPort: number) => `http://127.0.0.1:${serverPort}`;
/** Specs that watch words arrive one by one, or stop the narrator mid-answer. */
const pacedSpecs = [
  "live.spec.ts",
  "story-craft.spec.ts",
  "reading-along.spec.ts",
  "live-reading.spec.ts",
  "long-story.spec.ts",
];

function server(serverPort: number, env: Record<string, string>) {
  return {
    command: "node --import tsx server/src/main.ts",
    cwd: path.resolve(import.meta.dirname, ".."),
    url: `${urlOf(serverPort)}/api/health`,
    // A loaded CI machine can take well over a minute to start the server (tsx, migrations, PGlite).
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
    env: {
      PORT: String(serverPort),
      HOST: "127.0.0.1",
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "storyverse-e2e-")),
      APP_URL: urlOf(serverPort),
      LOG_LEVEL: "warn",
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      // Every spec file signs its people up from 127.0.0.1 against these servers; a repeated run
      // (--repeat-each) would otherwise meet the hourly sign-up limit that the integration tests cover.
      SIGNUPS_PER_ADDRESS_PER_HOUR: "10000",
      // Likewise the sign-ins and link checks: a fast run signs in more than 30 times in 15 minutes.
      ADDRESS_LIMITS_FACTOR: "1000",
      // Pictures and clips at a quarter of full size: media identity is checked, not size (the integration
      // tier checks the 2K pictures and the clips' format).
      OFFLINE_MEDIA_SCALE: "0.25",
      ...env,
    },
  };
}

const chromium = {
  ...devices["Desktop Chrome"],
  channel: undefined,
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
};

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  globalSetup: "./global-setup.ts",
  // Two workers share two cores with two servers: a spec that signs up, plays and runs axe passes needs room.
  timeout: 90_000,
  // The whole tier takes 18 minutes alone on the 2 cores, and took 38.5 on the CI machine at stop 56; a hang
  // fails it here with the tests still running named, not at CI's 90-minute limit with nothing said.
  globalTimeout: 46 * 60_000,
  expect: { timeout: 10_000 },
  // Spec files run side by side (each owns its accounts and stories); a file's tests run in order.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"]],
  use: { trace: "retain-on-failure" },
  projects: [
    // The browser asks for less motion (the app honours it: animations run once, transitions are instant),
    // which spares the software compositor two cores cannot spare; the paced specs watch scrolling as is.
    {
      name: "browser",
      testIgnore: pacedSpecs,
      use: { ...chromium, baseURL: urlOf(port), reducedMotion: "reduce" },
    },
    { name: "paced", testMatch: pacedSpecs, use: { ...chromium, baseURL: urlOf(pacedPort) } },
  ],
  webServer: [
    server(port, { OFFLINE_TEXT_WORDS_PER_SECOND: "0" }),
    server(pacedPort, { OFFLINE_TEXT_WORDS_PER_SECOND: "20" }),
  ],
});
